/* Internal to lib/Transform: the schedule state and the helpers the
 * actions share. */
#ifndef PEARL_SCHED_INTERNAL_H
#define PEARL_SCHED_INTERNAL_H

#include <isl/ctx.h>
#include <isl/schedule.h>
#include <isl/schedule_node.h>
#include <isl/set.h>
#include <isl/union_map.h>
#include <stdio.h>

#include "pearl/deps.h"
#include "pearl/loop_tree.h"
#include "pearl/transform.h"

#define PEARL_MAX_DEPTH 64

struct pearl_sched {
	pearl_program *prog; /* kept */
	pearl_deps *deps;    /* kept */
	isl_schedule *schedule;
	pearl_loop_tree *tree; /* of `schedule`, built on demand; NULL if not */
	/* The dependence analysis of the loops of `tree`, per tree node, filled
	 * on first use (NULL while none is; dropped with the tree). */
	struct pearl_loop_deps_entry *loop_deps;
	/* `schedule` as a map, built on first use (NULL while not) */
	isl_union_map *smap;
	int explain; /* refusals name a violating instance pair (costly) */
	int verify;  /* shortcuts are checked in full too (costly) */
	int no_copies; /* K is refused: the code generator makes no copies */
};

/* One loop's dependence analysis, each part computed on first use. */
struct pearl_loop_deps_entry {
	int done;	     /* ld is pearl_deps_analyze_loop's result */
	int parallel_known;  /* ld.parallel is known (pearl_deps_loop_parallel) */
	int carried_known;   /* ld.carried is known */
	/* pearl_deps_loops_permutable for n loops ending here: 0 if not
	 * known yet, 1 if permutable, 2 if not */
	unsigned char permutable[PEARL_MAX_TILE_DIMS + 1];
	struct pearl_loop_deps ld; /* distances owned */
};

pearl_ctx *pearl_sched_ctx(pearl_sched *sched);

/* The current schedule as a map (__isl_keep), built on first use and kept
 * until the schedule changes; NULL on an isl error. */
__isl_keep isl_union_map *pearl_sched_map(pearl_sched *sched);

/* Whether band `node` (kept) has a band below it: 1 if so, 0 if not, -1 on
 * error. */
int pearl_band_holds_loop(__isl_keep isl_schedule_node *node);

/* Whether band `node` (kept) is a point loop of a tiling: its (first)
 * member is e - k * floor(e / k) for every statement, the form isl's band
 * tiling gives point loops (shifted, isl's default). */
int pearl_band_is_point(__isl_keep isl_schedule_node *node);

/* Band `node` (taken), and if it is a one-member point loop of a tiling,
 * with its partial schedule made to run over the original iterator (from
 * the tile loop's value on, not from 0; its coincidence, loop type and AST
 * build options kept). For AST generation only: the order and the
 * iterations are the same, only the loop's values are shifted. */
__isl_give isl_schedule_node *pearl_band_unshift_point(
    __isl_take isl_schedule_node *node);

/* Whether every access under band `node` (kept, one member, in the current
 * schedule of `sched`) moves by at most one element, along the last array
 * dimension only, from one iteration of the band's loop to the next (the
 * loops outside at the same values): 1 if so, 0 if not or on error. Each
 * access is a basic map of the program's reads and writes. */
int pearl_band_accesses_contiguous(pearl_sched *sched,
				   __isl_keep isl_schedule_node *node);

/* `schedule` (taken) with every band split into single-member bands. */
__isl_give isl_schedule *pearl_split_bands(__isl_take isl_schedule *schedule);

/* The band node of loop `level` of branch `b` in the current schedule
 * (__isl_give), and, if `range` is not NULL, the iterations of (outer
 * loops..., this loop) in *range (__isl_give). NULL with an error in the
 * context if there is no such loop. */
__isl_give isl_schedule_node *pearl_sched_branch_loop(pearl_sched *sched,
						      int b, int level,
						      isl_set **range);

/* The dependences of loop `level` of branch `b` of the current schedule
 * (as pearl_deps_analyze_loop; out->distances is __isl_give), computed once
 * per schedule and loop. pearl_stat_error with the reason in the context. */
pearl_stat pearl_sched_branch_loop_deps(pearl_sched *sched, int b, int level,
					struct pearl_loop_deps *out);
/* The parallel and carried parts of it alone (as pearl_deps_loop_parallel;
 * `carried` may be NULL), cached with it. */
pearl_stat pearl_sched_branch_loop_parallel(pearl_sched *sched, int b,
					    int level, int *parallel,
					    unsigned *carried);
/* Whether loops level-n+1..level of branch b are permutable (as
 * pearl_deps_loops_permutable, n <= PEARL_MAX_TILE_DIMS), cached with it. */
pearl_stat pearl_sched_branch_loops_permutable(pearl_sched *sched, int b,
					       int level, int n,
					       int *permutable);

/* Whether unrolling loop `level` of branch b by `factor` and jamming its
 * copies below the branch's innermost loop keeps every dependence (as
 * pearl_deps_loop_jammable over loops level..innermost). Not cached: each
 * jam is asked once per schedule. */
pearl_stat pearl_sched_branch_loop_jammable(pearl_sched *sched, int b,
					    int level, int factor,
					    int *jammable);

/* Whether running loops level-n+1..level of branch b (a perfect nest) in
 * the order `order` keeps every dependence (as
 * pearl_deps_loops_reorderable). Not cached. */
pearl_stat pearl_sched_branch_loops_reorderable(pearl_sched *sched, int b,
					       int level, int n,
					       const int *order, int *legal);
/* Whether a dependence runs from an instance of `after` to one of
 * `before` (kept, parts of the body of loop `level` of branch b) that
 * agree on the loops around that loop (as pearl_deps_backward_between):
 * distributing the loop between them is legal exactly if not. */
pearl_stat pearl_sched_branch_loop_splits_backward(
    pearl_sched *sched, int b, int level, __isl_keep isl_union_set *before,
    __isl_keep isl_union_set *after, int *backward);

/* pearl_stat_ok if `schedule` (kept) runs the source of every dependence
 * before its target; otherwise an error naming a violated dependence. */
pearl_stat pearl_sched_check_deps(pearl_sched *sched,
				  __isl_keep isl_schedule *schedule);
/* Refuses `schedule` (taken), the current one transformed by `action`
 * (such as "J(1,4)"), which the exact `test` on the dependences refused.
 * The error is `reason`, unless the schedule explains refusals or
 * verifies its tests: then the full check gives its reason, naming a
 * violated pair, and if it accepts the schedule the error says that the
 * two disagree (a bug in the test). Always pearl_stat_error. */
pearl_stat pearl_sched_refuse(pearl_sched *sched,
			      __isl_take isl_schedule *schedule,
			      const char *test, const char *action,
			      const char *reason);
/* pearl_stat_ok if every loop marked parallel in `tree` (kept, the loop
 * tree of a candidate schedule) is. */
pearl_stat pearl_sched_check_parallel(pearl_sched *sched,
				      pearl_loop_tree *tree);
/* Replaces the current schedule by `schedule` (taken) if it passes both
 * checks; otherwise leaves it and returns the error. */
pearl_stat pearl_sched_commit(pearl_sched *sched,
			      __isl_take isl_schedule *schedule);
/* The same for `schedule` (taken), the current one with the n loops from
 * loop l of branch b, a permutable band, tiled (n tile loops, then n point
 * loops in their place): legal without the full dependence check, which
 * is costly on tiled schedules; only the parallel marks are checked. The
 * analysis of every loop outside the tiled ones (the loops around them and
 * beside them keep their outer loops) carries over. */
pearl_stat pearl_sched_commit_tiled(pearl_sched *sched,
				    __isl_take isl_schedule *schedule, int b,
				    int l, int n);
/* The same (no dependence check, parallel marks checked) for `schedule`
 * (taken), the current one with loop l of branch b unrolled and jammed,
 * which pearl_sched_branch_loop_jammable found legal: loop l and the loops
 * inside it change (one loop more, the jam's), the analysis of every loop
 * outside them carries over as for a tiling. */
pearl_stat pearl_sched_commit_jammed(pearl_sched *sched,
				     __isl_take isl_schedule *schedule, int b,
				     int l);
/* The same (no dependence check, parallel marks checked) for `schedule`
 * (taken), which an exact test of the caller has found to keep every
 * dependence (an interchange, a distribution). Nothing of the current
 * schedule's analysis carries over. */
pearl_stat pearl_sched_commit_ordered(pearl_sched *sched,
				     __isl_take isl_schedule *schedule);
/* The same (no dependence check, parallel marks checked) for `schedule`
 * (taken) that differs from the current one only in the reversal of a
 * loop that carries no dependence. Negating one loop's distances changes
 * neither which pairs
 * the loops around and before it separate nor the sign of any other loop's
 * distance, so every loop's parallel and carried results carry over
 * (distances and permutability are computed anew). */
pearl_stat pearl_sched_commit_reversed(pearl_sched *sched,
				       __isl_take isl_schedule *schedule);
/* The same for `schedule` (taken) that differs from the current one only in
 * marks that keep the order of execution: the parallel mark of loops the
 * caller has proven to carry no dependence, or an unroll factor in a
 * band's AST build options. Nothing is checked, and the loop tree's shape
 * and dependence analysis carry over. */
pearl_stat pearl_sched_commit_marked(pearl_sched *sched,
				     __isl_take isl_schedule *schedule);

/* ---- subtrees as schedules (subtree.c) ---- */

/* An edit made while rebuilding a subtree: the subtree at node `at` (of
 * the same schedule) is replaced by the schedule `by`. */
struct pearl_subtree_edit {
	isl_schedule_node *at; /* kept */
	isl_schedule *by;      /* kept */
};

/* The subtree at `node` (kept) as a schedule of its own over the instances
 * that reach it (__isl_give; NULL on error), with `edit` (may be NULL)
 * made on the way. Bands keep their properties (coincidence, loop type,
 * AST build options) and marks are kept; parts of sequences that no
 * instance reaches are left out. Context, guard, extension and expansion
 * nodes are not supported (NULL). */
__isl_give isl_schedule *pearl_subtree_schedule(
    __isl_keep isl_schedule_node *node, const struct pearl_subtree_edit *edit);
/* Children first..last of the sequence (or set) node `node` (kept), each as
 * pearl_subtree_schedule, in a sequence (__isl_give). */
__isl_give isl_schedule *pearl_subtree_children(
    __isl_keep isl_schedule_node *node, int first, int last);
/* `acc` (taken; NULL for nothing yet) followed by `s` (taken) in a
 * sequence; schedules without instances are left out. NULL on error (`s`
 * NULL is an error: acc is freed). */
__isl_give isl_schedule *pearl_subtree_append(__isl_take isl_schedule *acc,
					      __isl_take isl_schedule *s);
/* `s` (taken) under a new one-member band, the loop `mupa` (taken) over
 * its instances. */
__isl_give isl_schedule *pearl_schedule_insert_loop(
    __isl_take isl_schedule *s, __isl_take isl_multi_union_pw_aff *mupa);
/* `s` (taken) under a new one-member band, the loop `mupa` (taken), with
 * the properties of band `band` (kept, one member;
 * pearl_band_copy_properties). */
__isl_give isl_schedule *pearl_schedule_insert_loop_like(
    __isl_take isl_schedule *s, __isl_take isl_multi_union_pw_aff *mupa,
    __isl_keep isl_schedule_node *band);
/* `s` (taken) under the loop of band `band` (kept, one member), with its
 * properties (pearl_band_copy_properties). */
__isl_give isl_schedule *pearl_subtree_loop_around(
    __isl_keep isl_schedule_node *band, __isl_take isl_schedule *s);
/* Band `node` (taken, one member) with the properties of band `band`
 * (kept): coincidence, AST loop type and build options. */
__isl_give isl_schedule_node *pearl_band_copy_properties(
    __isl_take isl_schedule_node *node, __isl_keep isl_schedule_node *band);

/* ---- restructuring actions (restructure.c) ---- */

/* I(l,l+1) where loop l+1 of branch b is one part of the sequence that is
 * loop l's body (interchange across a sequence, pearl_sched_apply's
 * contract): refused if the loops are not so nested. */
pearl_stat pearl_sched_interchange_across(pearl_sched *sched, int b, int l);
/* D(l[,k]): loop l of branch b distributed over the parts of its body,
 * one loop per part (`split` 0) or two loops, parts 0..split-1 and
 * split.. (pearl_sched_apply's contract). */
pearl_stat pearl_sched_distribute(pearl_sched *sched, int b, int l,
				  int split);
/* F(l[,s]): loop l of branch b fused with the loop after it, which is
 * shifted by *shift if `has_shift`, else by the smallest legal shift
 * (then written into *shift). */
pearl_stat pearl_sched_fuse(pearl_sched *sched, int b, int l, int has_shift,
			    int *shift);

#endif
