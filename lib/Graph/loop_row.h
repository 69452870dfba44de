/*
 * Graph/loop_row.h - one loop of the schedule tree as an affine function
 * of the original iterators of one statement below it: the ROW features of
 * the graph (features.c) and the strides and footprints of its memory
 * features (memory.c) are read off it. Internal to pearl_graph.
 */
#ifndef PEARL_GRAPH_LOOP_ROW_H
#define PEARL_GRAPH_LOOP_ROW_H

#include <isl/aff.h>

#include "pearl/graph.h"
#include "pearl/loop_tree.h"
#include "pearl/program.h"

/* What is known of one loop's schedule: an affine function of the
 * original iterators of statement `stmt`. */
struct loop_row {
	int valid;
	long coef[PEARL_GRAPH_MAX_DEPTH]; /* numerator for tile loops */
	long cst;
	long tile;   /* > 0: the loop is floor(row / tile) */
	int point;   /* the loop is row - k * floor(row / tile) */
	long point_tile; /* that k, for a point loop (0 if unknown) */
	int stmt;    /* the statement the row is over */
};

/* The schedule of loop node `n` of a loop tree over `prog` (both kept) as
 * an affine function of statement `stmt`'s iterators, into *row (left
 * invalid if the statement has no piece there). Tile loops are
 * floor(row / tile); point loops of a tiled (or strip-mined) loop are
 * row - tile * floor(row / tile). */
void loop_row_compute(pearl_program *prog, const struct pearl_tree_node *n,
		      int stmt, struct loop_row *row);

/* Whether two rows name the same function of the iterators. */
int loop_row_same(const struct loop_row *a, const struct loop_row *b);

/* The first piece of `pa` (taken) as an aff (__isl_give), NULL if none. */
__isl_give isl_aff *loop_row_first_piece(__isl_take isl_pw_aff *pa);

/* Integer coefficient of `aff` (kept) on dimension `pos` of `type`,
 * multiplied by `scale` (to clear a denominator), saturated at LONG_MIN
 * and LONG_MAX; 0 if it is not an integer. */
long loop_row_coefficient(__isl_keep isl_aff *aff, enum isl_dim_type type,
			  int pos, long scale);

#endif
