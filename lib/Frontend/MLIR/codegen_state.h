/*
 * codegen_state.h - the state of the code generator of
 * pearl/mlir_codegen.h (struct gen) and what its files share, internal to
 * lib/Frontend/MLIR. The walk over isl's AST (codegen.c: loops, branches,
 * marks, statements) calls down to:
 *   codegen_cond.c    conditions: affine.if decisions, and isl's
 *                     conditional expressions resolved into copies;
 *   codegen_stmt.c    a statement's operations cloned at its new place;
 *   codegen_affine.c  isl expressions as affine expressions and maps;
 *   codegen_ops.c     failing, inserting and building operations, loop
 *                     hints;
 * and codegen_region.c holds what happens to the region before and after
 * the walk (start, copies, unrolling, promotion, checks, replacement).
 *
 * Failures are recorded in the state (cg_fail: the first message goes to
 * the context's error); every step returns early once g->failed is set,
 * and the region is then left as it was (cg_discard).
 */
#ifndef PEARL_MLIR_CODEGEN_STATE_H
#define PEARL_MLIR_CODEGEN_STATE_H

#include <isl/ast.h>
#include <isl/space.h>
#include <isl/val.h>
#include <mlir-c/AffineExpr.h>
#include <mlir-c/AffineMap.h>
#include <mlir-c/Diagnostics.h>
#include <mlir-c/IR.h>
#include <stdbool.h>
#include <stdint.h>

#include "index_range.h"
#include "privatize.h"
#include "pearl/mlir_codegen.h"

#define MAX_LOOPS   64
#define MAX_PARAMS  64
#define MAX_RESULTS 32
#define MAX_UNROLL  512
/* Loops recorded under copy marks (K) per region; a loop beyond them gets
 * no copies. */
#define MAX_COPY_LOOPS 512
/* Operations the generator may insert for one region (statement copies,
 * loops, conditions, before unrolling): the benchmark kernels need a few
 * hundred. isl's conditional expressions "c ? a : b" are resolved by
 * copying the statement into each arm, so a call with several such
 * arguments, each a chain of them, multiplies the copies (a fuzzer-found
 * schedule, gen-100833: 80 calls of 15 chained conditions each, minutes
 * of generation and verification); past the limit the region is left
 * unchanged. */
#define MAX_GENERATED_OPS 100000
/* Operations of a region's new code after unrolling: the largest hand
 * schedule of the benchmark kernels (3mm's v2-rt624) makes about 12,500;
 * a fuzzer-found sequence of five unrolls (gen-700034) made 48,000,
 * which LLVM's -O3 did not compile in 5 minutes. Past the limit the
 * region is left unchanged. */
#define MAX_UNROLLED_OPS 30000

struct gen {
	pearl_ctx *ctx;
	pearl_program *prog;
	const pearl_mlir_region *region;
	MlirContext mctx;
	MlirLocation loc;
	/* AST iterators in scope, outermost first, and their values. */
	isl_id *iter[MAX_LOOPS];
	MlirValue iv[MAX_LOOPS];
	struct pearl_index_range range[MAX_LOOPS]; /* the values of iv */
	int depth;
	/* Parameters: symbols of every map. */
	isl_id *param[MAX_PARAMS];
	MlirValue param_value[MAX_PARAMS];
	int n_param;
	/* Where new operations go: before `anchor` in `block`. */
	MlirBlock block;
	MlirOperation anchor;
	/* Loops to unroll once built (those right under an unroll mark) and
	 * their factors; the factor of the enclosing unroll mark. */
	MlirOperation unroll_op[MAX_UNROLL];
	int unroll_factor[MAX_UNROLL];
	int n_unroll;
	int pending_unroll;
	/* The loops below are innermost point loops (PEARL_POINT_MARK);
	 * loops created so far; the hint they get (null until needed). */
	int pending_point;
	int n_loops;
	MlirAttribute no_unroll;
	/* The vector width of the loop below (PEARL_VECTOR_MARK), 0 if
	 * none. */
	int pending_vector;
	/* Loops to precede with copies of their read-only arrays once built
	 * (those right under a copy mark, K); whether the loop below is one. */
	MlirOperation copy_op[MAX_COPY_LOOPS];
	int n_copy;
	int pending_copy;
	long n_inserted; /* operations inserted so far */
	int n_stride_promoted; /* loops cg_promote promoted by their stride */
	/* The region's buffers private to a loop (privatize.h) and their
	 * expanded buffers, created on first use (null before). */
	struct pearl_mlir_private *privates;
	MlirValue *private_value;
	int n_privates;
	/* The function's entry block and its first operation before the
	 * copies (K): MLIR's copy generation puts the constants it needs at
	 * the top of the function, where cg_discard finds them. */
	MlirBlock entry;
	MlirOperation entry_first;
	int failed;
};

/* ---- codegen_ops.c: failing, inserting, building ------------------------ */

/* Records a failure; the first one's message goes to the context's error
 * ("code generation: ..."). */
void cg_fail(struct gen *g, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Inserts `op` at the insertion point (before g->anchor in g->block);
 * fails past MAX_GENERATED_OPS (the operation is inserted all the same:
 * the caller may still read it, and the new code goes as a whole). */
void cg_insert(struct gen *g, MlirOperation op);
/* The attribute `attr` named `name`. */
MlirNamedAttribute cg_named(struct gen *g, const char *name,
			    MlirAttribute attr);
/* A region holding one block with `n_args` index arguments and an
 * affine.yield; the block is returned in *body. */
MlirRegion cg_body_region(struct gen *g, int n_args, MlirBlock *body);
/* Asks LLVM not to unroll loop `op` (an affine.for, an innermost point
 * loop): the standard `loop_annotation` attribute, which MLIR's lowering
 * of scf.for turns into llvm.loop metadata. A point loop's trip count is
 * at most its tile size, and LLVM unrolls such a short loop completely
 * before its loop vectorizer runs, then does not vectorize the copies
 * (PolyBench gemm MEDIUM, 32 x 32 tiles: 0.65x of the untiled code, 1.0x
 * with the hint). MLIR's lower-affine drops the attribute; Pearl's own
 * lowering (lib/Env) carries it over to the scf.for. Nothing is added if
 * the context cannot parse it (the LLVM dialect is not loaded). */
void cg_hint_no_unroll(struct gen *g, MlirOperation op);
/* Asks LLVM's loop vectorizer to vectorize loop `op` (an affine.for, an
 * innermost loop) by `width` lanes, and not to unroll it first if
 * `no_unroll` (an innermost point loop, see cg_hint_no_unroll): the
 * `loop_annotation` attribute, as cg_hint_no_unroll. */
void cg_hint_vectorize(struct gen *g, MlirOperation op, int width,
		       int no_unroll);
/* A diagnostic handler that swallows diagnostics (while the new
 * operations are verified, or an attribute is tried). */
MlirLogicalResult cg_quiet(MlirDiagnostic diag, void *user);

/* ---- codegen_affine.c: isl expressions as affine expressions ------------ */

/* The number of iterators in scope (the dimensions of every map). */
int cg_n_dims(struct gen *g);
/* The integer `v` (kept) as an index value in *out: 0, or -1 after
 * cg_fail() if it is not an integer or does not fit in 64 bits (never a
 * wrapped or truncated number). */
int cg_val_to_index(struct gen *g, __isl_keep isl_val *v, int64_t *out);
/* 0 if `e` (over the iterators in scope) cannot overflow 64-bit index
 * arithmetic, its values in *range; else -1 after cg_fail(), naming `e` as
 * `what` (a printf format with its arguments). */
int cg_check_range(struct gen *g, MlirAffineExpr e,
		   struct pearl_index_range *range, const char *what, ...)
    __attribute__((format(printf, 4, 5)));
/* 0 if the n expressions cannot overflow (cg_check_range), named `what`
 * (a format taking the depth); else -1 after cg_fail(). */
int cg_check_ranges(struct gen *g, MlirAffineExpr *e, int n, const char *what);
/* The affine expression of `e` (kept) over (iterators; parameters), or a
 * null expression after cg_fail(). */
MlirAffineExpr cg_affine_expr(struct gen *g, __isl_keep isl_ast_expr *e);
/* The results of bound `e`: the arguments of a min (upper) or max (lower)
 * at its top, flattened, each plus `add`. Returns the count or -1. */
int cg_bound_results(struct gen *g, __isl_keep isl_ast_expr *e,
		     enum isl_ast_expr_op_type fold, long add,
		     MlirAffineExpr *res, int max);
/* The map of the n results over (iterators; parameters). */
MlirAffineMap cg_make_map(struct gen *g, MlirAffineExpr *res, int n);
/* The operands of every map: the iterators in scope, then the parameters. */
int cg_map_operands(struct gen *g, MlirValue *ops);
/* Whether the constant condition `e` (kept, an isl_ast_expr_int, which
 * isl writes e.g. as "if (1)") holds: 1 or 0, or -1 on failure. */
int cg_condition_holds(struct gen *g, __isl_keep isl_ast_expr *e);
/* Adds the constraints of `e` (a conjunction of comparisons and constants)
 * as e >= 0 / e == 0 to cons / eq; returns the new count or -1. */
int cg_conditions(struct gen *g, __isl_keep isl_ast_expr *e,
		  MlirAffineExpr *cons, bool *eq, int n, int max);

/* ---- codegen_cond.c: conditions and conditional expressions ------------- */

/* Generates what a decision leads to, at the insertion point. */
typedef void (*gen_leaf_fn)(struct gen *g, void *user);
/* Generates what holds where `cond` (kept) holds with yes(g, yes_user),
 * and where it does not with no(g, no_user) (nothing if `no` is null). */
void cg_cond(struct gen *g, __isl_keep isl_ast_expr *cond, gen_leaf_fn yes,
	     void *yes_user, gen_leaf_fn no, void *no_user);

/* Generates one AST node from expressions (kept) whose conditional
 * expressions are resolved. */
typedef void (*gen_exprs_fn)(struct gen *g, isl_ast_expr **exprs, void *user);
/* At most this many expressions per node (a loop's init and condition). */
#define MAX_EXPRS 4
/* Calls fn on the n expressions (kept) once their conditional expressions
 * "c ? a : b" (which affine maps cannot hold: isl writes them, e.g., for
 * the value of a loop that runs once, defined piecewise) are resolved:
 * each becomes an affine.if on c (cg_cond), with the expressions taking a
 * in its then block and b in its else block, and fn called in both. */
void cg_resolved(struct gen *g, isl_ast_expr **exprs, int n, gen_exprs_fn fn,
		 void *user);

/* ---- codegen_stmt.c: statements ------------------------------------------ */

/* Generates the statement call exprs[0] (kept, without conditional
 * expressions): its original iterators recomputed from the new ones, then
 * the operations that compute the stored value and the store, cloned (a
 * gen_exprs_fn). */
void cg_call(struct gen *g, isl_ast_expr **exprs, void *user);

/* ---- codegen_region.c: the region before and after the walk -------------- */

/* The generator's state for `region` of `prog`: where the new operations
 * go, the region's private buffers, the values of the parameters of
 * `space` (the domain's).  Failures are recorded in g. */
void cg_start(struct gen *g, pearl_ctx *ctx, const pearl_mlir_region *region,
	      pearl_program *prog, __isl_keep isl_space *space);
/* Copies the read-only arrays of the loops recorded under copy marks (K)
 * into local buffers, before the loops are unrolled: unrolling may replace
 * the loops recorded for the copies, while the copies only add operations
 * around their loop and redirect loads inside it. Counts the arrays
 * copied in *copied, those left as they were in *not_copied, of which
 * those whose copy would read outside the array in *outside. */
void cg_copy(struct gen *g, int *copied, int *not_copied, int *outside);
/* Unrolls the loops recorded under unroll marks, before the new code is
 * verified, so that the unrolled code is verified. The loops are marked
 * with UNROLL_ATTR and unrolled inner first, round by round: unrolling
 * an inner loop first keeps the outer one (unrolling the outer loop
 * first would leave the inner loop's record dangling: two
 * unroll-and-jams of one nest, J(1,4) then J(0,5), a crash found by
 * fuzzing, gen-140003), and versioning an inner loop's bounds may copy
 * the loops around it (the condition hoisted out of them), copies that
 * keep the mark and are unrolled in the next round (without that, the
 * full tiles of `J(0,6) J(1,16)` kept their i loop). Counts the loops
 * left to LLVM's vectorizer in *vect, those kept as loops in *kept. */
void cg_unroll(struct gen *g, int *vect, int *kept);
/* Keeps the elements the innermost loops of the new code update in place
 * in registers across those loops (pearl_mlir_promote_invariant), after
 * unrolling: an unroll-and-jam's copies then update their elements of C
 * in registers across the k loop. */
void cg_promote(struct gen *g);
/* Fails if the new code (between the region and the anchor) holds more
 * than MAX_UNROLLED_OPS operations. */
void cg_check_size(struct gen *g);
/* Fails unless every new operation (between the region and the anchor)
 * verifies; the diagnostics of the verifier are swallowed. */
void cg_verify(struct gen *g);
/* The func.func around `op` (kept), or a null operation. */
MlirOperation cg_enclosing_function(MlirOperation op);
/* After a failure: the new operations and expanded private buffers go,
 * the region stays as it was. */
void cg_discard(struct gen *g);
/* After a success: the old loops, conditions and stores go (the values
 * computed between them stay: they may be used later), and so do the
 * private buffers replaced by expanded ones. */
void cg_replace(struct gen *g);
/* The remarks on the loops to unroll that were not unrolled. */
void cg_report_unrolls(struct gen *g, int vect, int kept);
/* The remark on the copies of K, if the schedule asked for any. */
void cg_report_copies(struct gen *g, int copied, int not_copied, int outside);

#endif
