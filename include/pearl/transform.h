/*
 * pearl/transform.h - Pearl's actions on the isl schedule tree of a program,
 * each checked for legality against the program's dependences.
 *
 * A pearl_sched holds the schedule being transformed. Its loops are the
 * members of its band nodes; bands are kept single-member, so that every
 * loop is one band node. A branch is the path from the root to one
 * statement (branch k leads to the k-th statement of the loop tree in
 * pre-order); its levels are the loops on that path, outermost = 0. Actions
 * name a branch and levels; an action on a loop shared by several branches
 * acts on all of them.
 *
 * Each action either applies completely or leaves the schedule unchanged and
 * returns pearl_stat_error with the reason in the context, e.g.
 *   "level 3 does not exist in branch 0 (2 loops)",
 *   "violates RAW dependence S0[0, 1] -> S0[1, 0]",
 *   "loop L1 carries a dependence (RAW) and cannot run in parallel",
 *   "loops 0..1 of branch 0 are not permutable (a dependence distance is
 *    negative), tiling them is illegal",
 *   "tile size 64 is larger than loop 1 (32 iterations)".
 *
 * Interchange I(l1,l2) swaps loops l1 and l2, perfectly nested from l1
 * to l2. I(l,l+1) where loop l's body is a sequence (or set) of parts and
 * loop l+1 is one of them interchanges across the sequence: loop l+1
 * becomes the outer loop (loop l+1's values for its statements, loop l's
 * for the others), loop l runs inside it around loop l+1's body, and the
 * other parts run beside it in the iteration of the outer loop equal to
 * their loop l value: in their place, all before it or all after it, the
 * first order that keeps every dependence. Refused, naming the dependence
 * the first order violates, when none does; refused also when either loop
 * is marked (U, J, V, K). LU's lower triangle: the division of A[i][k]
 * goes before the column loop that reads it.
 *
 * Two actions restructure the tree. Distribution D(l) makes loop l of the
 * branch, whose body is a sequence of parts (loops or statements), one
 * loop per part, in their order; D(l,k) makes two loops, one over parts
 * 0..k-1 and one over parts k and after. Fusion F(l) makes loop l and the
 * loop right after it in the sequence that holds them one loop, whose body
 * runs the first loop's body, then the second's; the second loop's
 * iterations are shifted by the smallest shift (0 or more, up to 16) that
 * keeps every dependence between the two loops forward, computed from the
 * dependences of one iteration of the loops around them, or by s with
 * F(l,s). Both are checked
 * against every dependence, e.g. "violates RAW dependence S0[2] -> S1[1]".
 *
 * Unroll-and-jam J(l,f) (register tiling) strip-mines loop l by f, moves
 * the f-iteration point loop inside the loops below l (which must be
 * perfectly nested), down to the innermost, and has the code generator
 * unroll it completely: the innermost loop's body holds f copies, one per
 * value of loop l. V(w) asks LLVM's loop vectorizer to vectorize the
 * branch's innermost loop by w lanes (a power of 2 from 2 to 64), a loop
 * that carries no dependence (with the hint, LLVM reorders reductions,
 * floating-point ones too).
 * K(l) copies, before each run of loop l of the branch, the elements of
 * every array that loop l reads and does not write into a new local
 * buffer, and loop l reads the buffer instead (packing: the elements one
 * tile uses lie side by side, and cache lines and TLB entries are shared
 * by no other data). It keeps every computation and its order, so it is
 * legal whenever loop l writes none of the arrays it copies; it is refused
 * where loop l writes every array it reads. Only the MLIR pass makes the
 * copies (the clang plugin refuses K).
 * Loops marked parallel stay parallel: an action that would make one of them
 * carry a dependence is refused.
 */
#ifndef PEARL_TRANSFORM_H
#define PEARL_TRANSFORM_H

#include <isl/ctx.h>
#include <isl/ast.h>
#include <isl/schedule.h>

#include "pearl/ast_marks.h"
#include "pearl/deps.h"
#include "pearl/program.h"
#include "pearl/schedule_file.h"
#include "pearl/str.h"

#ifdef __cplusplus
extern "C" {
#endif

enum pearl_action_kind {
	pearl_action_interchange, /* I(l1,l2): swap two loops */
	pearl_action_reverse,     /* R(l): run a loop backwards */
	pearl_action_skew,        /* S(l,l+1[,a,b]): (i,j) -> (a*i+b*j, ...) */
	pearl_action_tile,        /* T(l,l+1,s1,s2) / T(l,l+1,l+2,s1,s2,s3) */
	pearl_action_unroll,      /* U(f): unroll the innermost loop by f */
	pearl_action_parallel,    /* P(l): run a loop in parallel */
	pearl_action_next,        /* N: move on to the next branch */
	pearl_action_distribute,  /* D(l[,k]): one loop per part of the body */
	pearl_action_fuse,        /* F(l[,s]): fuse a loop with the next one */
	pearl_action_unroll_jam,  /* J(l,f): unroll loop l by f, jam copies */
	pearl_action_vectorize,   /* V(w): vectorize the innermost loop by w */
	pearl_action_copy         /* K(l): copy the arrays loop l only reads */
};

#define PEARL_MAX_TILE_DIMS 3

struct pearl_action {
	enum pearl_action_kind kind;
	int level[PEARL_MAX_TILE_DIMS]; /* levels (consecutive for T, S) */
	int n_level;
	int size[PEARL_MAX_TILE_DIMS];  /* tile sizes */
	int factor[2];  /* skew factors (both 0: chosen by the solver);
			 * factor[0] is the unroll factor for U and J, the
			 * vector width for V, the shift
			 * for F, with factor[1] 1 if the shift was given
			 * (0: chosen by the solver) */
	int split;      /* D: the first part of the second loop (0: one
			 * loop per part) */
};

typedef struct pearl_sched pearl_sched;

/* A schedule to transform, starting from the program's schedule; `prog`
 * and `deps` are kept and must outlive it. NULL on error (message in the
 * program's context). */
pearl_sched *pearl_sched_alloc(pearl_program *prog, pearl_deps *deps);
pearl_sched *pearl_sched_free(pearl_sched *sched);
pearl_sched *pearl_sched_copy(pearl_sched *sched);
/* Exchanges the states of `a` and `b` (both kept; made for the same
 * program and dependences): each then holds what the other held. */
void pearl_sched_swap(pearl_sched *a, pearl_sched *b);

/* The current schedule (__isl_keep). Parallel loops have their band member
 * marked coincident; loops to unroll carry their factor in their band's AST
 * build options (see pearl_band_unroll_factor). */
__isl_keep isl_schedule *pearl_sched_peek(pearl_sched *sched);
/* Whether refusals for a violated dependence name one violating pair of
 * instances ("violates RAW dependence S0[0, 1] -> S0[1, 0]"; the default)
 * or only the kind of dependence, which is much cheaper: the agent tries
 * many actions it does not report. Copies inherit the setting. */
void pearl_sched_set_explain(pearl_sched *sched, int explain);
int pearl_sched_get_explain(pearl_sched *sched);
/* Whether the legality tests that decide without the full dependence check
 * of the new schedule (tiling a permutable band, reversing a loop that
 * carries nothing, unroll-and-jam) are checked against it as well: a
 * disagreement is refused with an error that starts "verify:", and is a
 * bug in the test. Off by default (the full check is what the tests
 * save); for unit tests and fuzzing. Copies inherit the setting. */
void pearl_sched_set_verify(pearl_sched *sched, int verify);
int pearl_sched_get_verify(pearl_sched *sched);
/* Whether the code generator the schedule is for makes the copies of K
 * (the MLIR pass: yes, the default; the clang plugin, through Polly's code
 * generator: no, and K is refused). Copies inherit the setting. */
void pearl_sched_set_copies_made(pearl_sched *sched, int made);
int pearl_sched_get_copies_made(pearl_sched *sched);

/* The loop tree of the current schedule (__isl_keep: valid until the
 * schedule changes or is freed), built once per schedule; NULL with an
 * error in the context. */
struct pearl_loop_tree *pearl_sched_peek_loop_tree(pearl_sched *sched);
/* The program and dependences the schedule was made for (kept). */
pearl_program *pearl_sched_get_program(pearl_sched *sched);
pearl_deps *pearl_sched_get_deps(pearl_sched *sched);

/* Number of branches, and the number of loops of branch `b` (-1 if none). */
int pearl_sched_n_branch(pearl_sched *sched);
int pearl_sched_branch_depth(pearl_sched *sched, int b);
/* The loops of branch `b`, outermost first, as indices of the nodes of
 * pearl_sched_peek_loop_tree's tree, into loops[0..n); returns n, the
 * branch's number of loops, or -1 if there is no branch b, it has more
 * than `cap` loops, or the tree cannot be built (error in the context). */
int pearl_sched_branch_loops(pearl_sched *sched, int b, int *loops, int cap);

/* Applies `action` to branch `b`. pearl_stat_ok if it was legal and
 * applied; otherwise the schedule is unchanged and the reason is in the
 * program's context. */
pearl_stat pearl_sched_apply(pearl_sched *sched, int b,
			     const struct pearl_action *action);

/* pearl_sched_apply, writing what a solver chose back into *action: the
 * shift of F(l) (it becomes F(l,s)). */
pearl_stat pearl_sched_apply_resolved(pearl_sched *sched, int b,
				      struct pearl_action *action);

/* Receives the outcome of one action of a sequence: applied (1, the action
 * as pearl_sched_apply_resolved resolved it) or refused (0, with the
 * reason). */
typedef void (*pearl_action_report_fn)(int branch,
				       const struct pearl_action *action,
				       int applied, const char *reason,
				       void *user);

/* Applies `n` actions in order, starting on branch 0; N moves to the next
 * branch. A refused action leaves the schedule as it was and the sequence
 * goes on. `report` (may be NULL) hears about every action but N. Returns
 * the number of actions applied. */
int pearl_sched_apply_sequence(pearl_sched *sched,
			       const struct pearl_action *actions, int n,
			       pearl_action_report_fn report, void *user);

/* The name of the AST build option that holds the factor of a loop to
 * unroll: a band whose options contain { PEARL_UNROLL_OPTION[f] } is to be
 * unrolled by f. The loop itself is not strip-mined and does not get isl's
 * isl_ast_loop_unroll type (isl would unroll all of it); isl ignores
 * options it does not know, so the code generators that do not read it
 * (the LLVM plugin's, through Polly) generate the plain loop. */
#define PEARL_UNROLL_OPTION "pearl_unroll"

/* The unroll factor of band `band` (kept, a band node with one member), or
 * 0 if it is not to be unrolled (or on error). */
int pearl_band_unroll_factor(__isl_keep isl_schedule_node *band);

/* The name of the AST build option that marks the point loop of an
 * unroll-and-jam J(l,f): a band whose options contain { PEARL_JAM_OPTION[f] }
 * runs f iterations (at most) and is unrolled completely by the MLIR code
 * generator, whether or not it carries a dependence; the LLVM plugin has
 * isl's AST generator unroll it (passes/llvm/loop_hints.h). */
#define PEARL_JAM_OPTION "pearl_jam"

/* The unroll-and-jam factor of band `band` (kept, one member), or 0. */
int pearl_band_jam_factor(__isl_keep isl_schedule_node *band);

/* The name of the AST build option that holds the vector width of V(w):
 * a band whose options contain { PEARL_VECTOR_OPTION[w] } is an innermost
 * loop LLVM's loop vectorizer is asked to vectorize by w (the MLIR code
 * generator's loop_annotation; in the LLVM plugin, loop metadata that
 * Polly's code generator attaches: passes/llvm/loop_hints.h). */
#define PEARL_VECTOR_OPTION "pearl_vectorize"

/* The vector width of band `band` (kept, one member), or 0. */
int pearl_band_vector_width(__isl_keep isl_schedule_node *band);

/* The name of the AST build option of K(l): a band whose options contain
 * { PEARL_COPY_OPTION[1] } is a loop before whose every run the MLIR code
 * generator copies the arrays the loop reads and does not write into local
 * buffers (pearl_mlir_copy_read_only); other code generators ignore it. */
#define PEARL_COPY_OPTION "pearl_copy"

/* Whether band `band` (kept, one member) is to copy its read-only arrays
 * (K): 1 or 0. */
int pearl_band_copies(__isl_keep isl_schedule_node *band);


/* The isl AST of the current schedule (__isl_give; NULL with an error in
 * the context): innermost point loops are wrapped in a PEARL_POINT_MARK
 * mark, parallel loops in a mark node named PEARL_PARALLEL_MARK (outside
 * the point mark); loops to
 * unroll are wrapped in a PEARL_UNROLL_MARK
 * mark (outside the other marks) for the code generator to
 * unroll (isl's own unrolling is very costly on tiled, non-rectangular
 * domains). Conditions may be disjunctions. The AST is checked with
 * pearl_ast_runs_schedule: isl's AST generator has been seen
 * to drop instances and to run some twice; such an AST is an error. */
__isl_give isl_ast_node *pearl_sched_build_ast(pearl_sched *sched);

/* Whether the isl AST `tree` (kept), built from `schedule` (kept), runs
 * every instance of the schedule's domain exactly once, at the
 * iterations the schedule gives it (the values of the bands above its
 * leaf), and nothing else, as a code generator reads its loops,
 * conditions and calls (divisions and remainders rounded to minus
 * infinity). 1 if so, 0 if not. -1 on an isl error or on an expression
 * the check cannot read (a call inside an expression, a non-constant
 * divisor or step); the AST is not vouched for then. `context` (kept; a
 * parameter set, NULL for none) is what the AST was built under: only
 * parameter values in it count. */
int pearl_ast_runs_schedule(__isl_keep isl_ast_node *tree,
			    __isl_keep isl_schedule *schedule,
			    __isl_keep isl_set *context);

/* 1 if the code generated from the current schedule would be the original
 * code again: it runs every statement instance at the same time as the
 * original schedule, no loop in parallel, and unrolls no loop itself (the
 * loops marked to unroll, if any, are left to LLVM's vectorizer; see
 * PEARL_UNROLL_MARK). The actions applied then changed nothing but the
 * shape of the code, and a frontend should keep the code as it is. 0 if
 * the code changes; -1 with an error in the context. */
int pearl_sched_keeps_code(pearl_sched *sched);
/* The same AST as C-like text (malloc'd; caller frees), for printing. */
char *pearl_sched_ast_to_str(pearl_sched *sched);

/* The action in Pearl's notation, e.g. "T(0,1,32,32)", into buf. */
void pearl_action_format(const struct pearl_action *action, char *buf,
			 size_t size);

/* actions[0..n-1] in Pearl's notation, separated by spaces, appended to
 * *out (the string pearl_actions_parse reads back). */
void pearl_actions_format(pearl_str *out,
			  const struct pearl_action *actions, int n);

/* Parses a schedule in Pearl's notation: actions separated by spaces, e.g.
 * "I(0,1) T(0,1,32,32) P(0) U(4) N R(0)", where N moves to the next
 * branch. Returns the number of actions with a malloc'd array in *actions
 * (caller frees), or -1 with the reason in `ctx`, naming the position
 * (from 1) of what is not an action: an unknown letter, wrong arguments,
 * a skew with factors (0,0) (only S(l,l+1) asks the solver), or anything
 * but spaces between two actions (e.g. "R(0),R(1)"). */
int pearl_actions_parse(pearl_ctx *ctx, const char *text,
			struct pearl_action **actions);

/* The part of a schedule for region (or Scop) `index` of a function, when
 * one schedule string covers several: parts are separated by ';'. Returns
 * a malloc'd string (caller frees; "" if there is no such part), or NULL
 * if memory is exhausted. */
char *pearl_schedule_part(const char *schedule, int index);

/* Checks that every schedule of `file` (kept; read from `name`) is Pearl's
 * notation. pearl_stat_error with the first that is not in err, as
 * "name:line: @function region r: <the parser's reason>". */
pearl_stat pearl_schedule_file_check(__isl_keep const pearl_schedule_file *file,
				     const char *name, char *err,
				     size_t err_size);

/* Reads the schedule file at `path` and checks it (what both passes do
 * with their schedule-file option). Returns the file (__isl_give), or NULL
 * with the reason in err, naming the file and the line. */
__isl_give pearl_schedule_file *pearl_schedule_file_load(const char *path,
							 char *err,
							 size_t err_size);

#ifdef __cplusplus
}
#endif

#endif
