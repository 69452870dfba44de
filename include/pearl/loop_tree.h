/*
 * pearl/loop_tree.h - the loop tree Pearl calls the program's AST.
 *
 * Nodes are loops (iterators) and statements (computations); edges go from a
 * loop to what it contains, in execution order. The tree is derived from a
 * schedule tree: each member of a band node is a loop, sequence and set
 * nodes order their children, and each leaf holds the statements that reach
 * it. Node 0 is the root (the region itself). Loops are numbered L0, L1, ...
 * in pre-order; a branch is a root-to-statement path.
 */
#ifndef PEARL_LOOP_TREE_H
#define PEARL_LOOP_TREE_H

#include <isl/ctx.h> /* first: defines the annotations the others use */
#include <isl/schedule_node.h>
#include <isl/set.h>

#include "pearl/program.h"

#ifdef __cplusplus
extern "C" {
#endif

enum pearl_node_kind { pearl_node_root, pearl_node_loop, pearl_node_stmt };

struct pearl_tree_node {
	enum pearl_node_kind kind;
	int parent;       /* -1 for the root */
	int *children;    /* node indices, in execution order */
	int n_children;
	int depth;        /* number of enclosing loops */
	/* loops */
	int loop_id;      /* the n of "Ln" */
	isl_schedule_node *band; /* the band node holding this loop (owned) */
	int member;       /* its member within the band */
	isl_set *range;   /* iterations of (outer loops..., this loop) (owned;
			   * computed on first use: read it through
			   * pearl_loop_tree_range) */
	/* statements */
	int stmt;         /* index in the program */
};

typedef struct pearl_loop_tree {
	struct pearl_tree_node *nodes;
	int n_nodes;
	int n_loops;
} pearl_loop_tree;

/* The loop tree of `schedule` (kept) over the statements of `prog`
 * (__isl_give; NULL on error with a message in the program's context). */
pearl_loop_tree *pearl_loop_tree_from_schedule(pearl_program *prog,
					       __isl_keep isl_schedule *schedule);
pearl_loop_tree *pearl_loop_tree_free(pearl_loop_tree *tree);

/* The iterations of (outer loops..., this loop) of loop node `node` of
 * `tree` (__isl_keep; computed once, on first use). NULL on error. */
__isl_keep isl_set *pearl_loop_tree_range(pearl_loop_tree *tree, int node);

#ifdef __cplusplus
}
#endif

#endif
