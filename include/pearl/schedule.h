/*
 * pearl/schedule.h - queries on isl schedule trees shared by the analyses.
 *
 * A loop is one member of a band node. Its "prefix schedule" maps each
 * statement instance below the band to the values of the loops around it,
 * outermost first, up to and including the loop itself.
 */
#ifndef PEARL_SCHEDULE_H
#define PEARL_SCHEDULE_H

#include <isl/ctx.h>
#include <isl/schedule_node.h>
#include <isl/set.h>
#include <isl/union_map.h>
#include <isl/union_set.h>

#ifdef __cplusplus
extern "C" {
#endif

/* { S[i] -> [outer loops..., member] } for the instances that reach `band`
 * (kept), a band node, up to its member `member` (__isl_give). */
__isl_give isl_union_map *pearl_band_prefix_schedule(
    __isl_keep isl_schedule_node *band, int member);

/* The number of loops of that prefix schedule: the band's schedule depth
 * plus member + 1; -1 on error. */
int pearl_band_prefix_dim(__isl_keep isl_schedule_node *band, int member);

/* The points of `uset` (taken) in the unnamed set space of `dim` dimensions
 * (an empty set if there are none) (__isl_give). */
__isl_give isl_set *pearl_union_set_unnamed_set(__isl_take isl_union_set *uset,
						int dim);

#ifdef __cplusplus
}
#endif

#endif
