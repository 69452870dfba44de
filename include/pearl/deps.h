/*
 * pearl/deps.h - memory-based dependences of a program and loop parallelism.
 *
 * Dependences are computed with isl's dataflow analysis over the original
 * schedule, one relation per kind between statement instances:
 *   RAW (flow)   write -> later read of the same cell,
 *   WAR (anti)   read  -> later write,
 *   WAW (output) write -> later write.
 * They are memory-based (every earlier conflicting access, not only the last
 * one), which is what the legality of a reordering needs.
 */
#ifndef PEARL_DEPS_H
#define PEARL_DEPS_H

#include <isl/ctx.h> /* first: defines the annotations the others use */
#include <isl/schedule_node.h>
#include <isl/union_map.h>

#include "pearl/program.h"

#ifdef __cplusplus
extern "C" {
#endif

enum pearl_dep_kind { pearl_dep_raw, pearl_dep_war, pearl_dep_waw };
#define PEARL_DEP_KINDS 3

/* "RAW", "WAR" or "WAW". */
const char *pearl_dep_kind_name(enum pearl_dep_kind kind);

typedef struct pearl_deps pearl_deps;

/* The dependences of `prog` under its schedule. NULL on error (message in
 * the program's context), e.g. when the isl operations quota runs out. */
pearl_deps *pearl_deps_compute(pearl_program *prog);
pearl_deps *pearl_deps_free(pearl_deps *deps);

/* The relation of one kind / of all kinds (__isl_give). */
__isl_give isl_union_map *pearl_deps_get(pearl_deps *deps,
					 enum pearl_dep_kind kind);
__isl_give isl_union_map *pearl_deps_get_all(pearl_deps *deps);

/* What the dependences say about one loop: member `member` of the band node
 * `band`, in the schedule the node belongs to (the original or a transformed
 * one). Only dependences between instances in the band's subtree that agree
 * on every outer loop are considered.
 *   parallel:  no such dependence has a nonzero distance at this loop;
 *   carried:   bit (1 << kind) set if a dependence of that kind has a
 *              positive distance here;
 *   distances: the distance vectors over (outer loops..., this loop) of all
 *              those dependences (__isl_give, the caller frees it), or NULL
 *              when there are none. */
struct pearl_loop_deps {
	int parallel;
	unsigned carried;
	isl_set *distances;
};

pearl_stat pearl_deps_analyze_loop(pearl_deps *deps,
				   __isl_keep isl_schedule_node *band, int member,
				   struct pearl_loop_deps *out);

/* The parallel and carried results of pearl_deps_analyze_loop alone, for
 * member `member` of `band` (kept), the same answers without the distance
 * vectors: the pairs are tested in schedule time, nothing is projected,
 * which costs much less on tiled schedules. *carried is computed (all
 * kinds tested) only if `carried` is not NULL; a parallel loop carries
 * nothing. */
pearl_stat pearl_deps_loop_parallel(pearl_deps *deps,
				    __isl_keep isl_schedule_node *band,
				    int member, int *parallel,
				    unsigned *carried);

/* Whether the `n` innermost loops of the prefix up to member `member` of
 * `band` (kept) are permutable: no dependence between instances that agree
 * on the loops outside them has a negative distance at any of the n (the
 * test tiling them needs: the distances of pearl_deps_analyze_loop with
 * the outer components zero have no negative component among the last
 * n). */
pearl_stat pearl_deps_loops_permutable(pearl_deps *deps,
				       __isl_keep isl_schedule_node *band,
				       int member, int n, int *permutable);

/* Whether unrolling the first of the `n` innermost loops of the prefix up
 * to member `member` of `band` (kept) by `factor` and jamming its copies
 * below the last (unroll-and-jam, the loop tiled by `factor` and its point
 * loop moved inside the others) keeps every dependence. Only pairs of
 * instances that agree on the loops outside the n and whose values in the
 * first fall in one group of `factor` change order: none may have the
 * source before the target in the first and after it in the other n - 1
 * taken in order (the first that differs). n is at least 2. */
pearl_stat pearl_deps_loop_jammable(pearl_deps *deps,
				    __isl_keep isl_schedule_node *band,
				    int member, int n, int factor,
				    int *jammable);

/* Whether running the `n` innermost loops of the prefix up to member
 * `member` of `band` (kept) in the order `order` keeps every dependence:
 * order[i] (0..n-1, each once) is the loop, counted from the first of the
 * n, that the new order puts at position i; the loops outside the n, the
 * loops inside them and the order of their statements stay. Only pairs of
 * instances that agree on the loops outside the n can change order, and
 * those that agree on all n too keep theirs: none may have the source
 * after the target in the first of the reordered loops where they differ.
 * Exact, for a perfect nest of the n loops. */
pearl_stat pearl_deps_loops_reorderable(pearl_deps *deps,
					__isl_keep isl_schedule_node *band,
					int member, int n, const int *order,
					int *legal);

/* Whether a dependence runs from an instance of `after` to one of
 * `before` (both kept: parts of the body of member `member` of `band`,
 * kept) between instances that agree on the loops outside that member
 * (*backward). Distributing the loop over its parts keeps every
 * dependence exactly when there is none for any cut of the parts into
 * the earlier ones (`before`) and the later ones (`after`): a dependence
 * between instances that do not agree on the outer loops keeps their
 * order, and so does one inside a part or from an earlier part to a later
 * one. */
pearl_stat pearl_deps_backward_between(pearl_deps *deps,
				       __isl_keep isl_schedule_node *band,
				       int member,
				       __isl_keep isl_union_set *before,
				       __isl_keep isl_union_set *after,
				       int *backward);

#ifdef __cplusplus
}
#endif

#endif
