/*
 * pearl/graph.h - Pearl's AST graph: the input of the policy network.
 *
 * A pearl_graph is plain data (no isl, no MLIR): n_nodes rows of
 * PEARL_GRAPH_N_FEATURES floats and a list of parent -> child edges. It is
 * built from the current schedule of a region (pearl_graph_build, in
 * lib/Graph/features.c) and read by the network (pearl/policy.h). The
 * network treats edges as undirected and adds a self-loop to every node.
 *
 * Nodes: node 0 is the region's root; then one node per loop of the
 * current schedule tree and one per statement, in the pre-order of the loop
 * tree (pearl/loop_tree.h). Edges go from a node to each of its children.
 *
 * Feature layout of one node (offsets are the PEARL_F_* constants below;
 * every feature not listed for a node kind is 0):
 *
 *   [KIND]       3   one-hot: root, loop, statement
 *
 *   loops:
 *   [EXTENT]     1   log2(1 + iterations) / 16; for loops whose bounds
 *                    depend on parameters the largest value over a
 *                    parameter value of 1024 is used
 *   [LB], [UB]   2   lower / upper bound of the loop's values (over all
 *                    outer iterations), sign(v) * log2(1 + |v|) / 16
 *   [SYMBOLIC]   1   the bounds depend on parameters
 *   [NONRECT]    1   the bounds depend on outer loops
 *   [LEVEL]      8   one-hot of the loop's depth (7 = "7 or deeper")
 *   [FOCUS]      1   the loop is on the branch the agent works on
 *   [PARALLEL]   1   the loop runs in parallel
 *   [UNROLL]     2   unrolled flag, log2(factor) / 5
 *   [TILE]       2   tile loop flag (it enumerates tiles), log2(size) / 8
 *   [POINT]      1   the loop enumerates the points of a tile
 *   [REVERSED]   1   the loop runs its original iterator backwards
 *   [SKEWED]     1   the loop combines several original iterators
 *   [ROW]        6   the loop as an affine function of the original
 *                    iterators of its first statement: coefficients of
 *                    i0..i4 and the constant, each clamped to [-8, 8] / 8
 *                    (the numerator for tile loops)
 *
 *   statements:
 *   [TYPE]       5   one-hot of the stored type: f32, f64, i32,
 *                    i64/index, other
 *   [REDUCTION]  1   the statement is a reduction
 *   [SFOCUS]     1   the statement ends the branch the agent works on
 *   [OPS]        7   operation counts, log2(1 + n) / 4: add/sub, mul,
 *                    div/rem, math functions, compare/select, casts, other
 *   [NREADS]     1   number of reads / PEARL_GRAPH_MAX_READS
 *   [DEPTH]      1   number of original loops / PEARL_GRAPH_MAX_DEPTH
 *   [WRITE]     44   the write access (layout below)
 *   [READS]  10x44   the first PEARL_GRAPH_MAX_READS reads, padded
 *
 *   access (44): [0] present; [1..36) the access matrix, row r (array
 *   dimension r < 5) at 1 + 7 r: coefficients of i0..i4, the sum of the
 *   parameter coefficients, the constant, each clamped to [-8, 8] / 8;
 *   [36..44) one-hot of the buffer id (buffers numbered in order of first
 *   appearance in the program, modulo 8).
 *
 *   loops, memory (lib/Graph/memory.c; after the statements' features so
 *   that blobs of the first PEARL_GRAPH_N_FEATURES_V1 features load with
 *   zero weights for them):
 *   [MEM]        6   over the accesses of the statements below the loop:
 *                    the fractions whose address does not move when the
 *                    loop steps, moves by one element, or by more (or by
 *                    an unknown amount: skewed loops); log2(1 + the
 *                    largest stride in bytes) / 24; log2(1 + the bytes
 *                    touched by one execution of the loop) / 32 and by one
 *                    iteration of it / 32. Array shapes are estimated from
 *                    the subscripts' ranges (parameters at 1024).
 */
#ifndef PEARL_GRAPH_H
#define PEARL_GRAPH_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PEARL_GRAPH_MAX_DEPTH 5   /* original loops per statement */
#define PEARL_GRAPH_MAX_DIMS 5    /* array dimensions per access */
#define PEARL_GRAPH_MAX_READS 10  /* reads per statement */
#define PEARL_GRAPH_N_BUFFER_IDS 8
#define PEARL_GRAPH_N_LEVELS 8
#define PEARL_GRAPH_ACCESS_COLS (PEARL_GRAPH_MAX_DEPTH + 2)
#define PEARL_GRAPH_ACCESS_SIZE \
	(1 + PEARL_GRAPH_MAX_DIMS * PEARL_GRAPH_ACCESS_COLS + \
	 PEARL_GRAPH_N_BUFFER_IDS)

enum {
	PEARL_F_KIND = 0,
	/* loops */
	PEARL_F_EXTENT = 3,
	PEARL_F_LB = 4,
	PEARL_F_UB = 5,
	PEARL_F_SYMBOLIC = 6,
	PEARL_F_NONRECT = 7,
	PEARL_F_LEVEL = 8,
	PEARL_F_FOCUS = PEARL_F_LEVEL + PEARL_GRAPH_N_LEVELS,
	PEARL_F_PARALLEL,
	PEARL_F_UNROLL,      /* 2: flag, log2(factor) / 5 */
	PEARL_F_TILE = PEARL_F_UNROLL + 2, /* 2: flag, log2(size) / 8 */
	PEARL_F_POINT = PEARL_F_TILE + 2,
	PEARL_F_REVERSED,
	PEARL_F_SKEWED,
	PEARL_F_ROW,         /* PEARL_GRAPH_MAX_DEPTH + 1 */
	PEARL_F_LOOP_END = PEARL_F_ROW + PEARL_GRAPH_MAX_DEPTH + 1,
	/* statements */
	PEARL_F_TYPE = PEARL_F_LOOP_END, /* 5 */
	PEARL_F_REDUCTION = PEARL_F_TYPE + 5,
	PEARL_F_SFOCUS,
	PEARL_F_OPS,         /* 7 */
	PEARL_F_NREADS = PEARL_F_OPS + 7,
	PEARL_F_DEPTH,
	PEARL_F_WRITE,
	PEARL_F_READS = PEARL_F_WRITE + PEARL_GRAPH_ACCESS_SIZE,
	/* the features of the first blobs (531) end here */
	PEARL_GRAPH_N_FEATURES_V1 =
	    PEARL_F_READS + PEARL_GRAPH_MAX_READS * PEARL_GRAPH_ACCESS_SIZE,
	/* loops, memory */
	PEARL_F_MEM = PEARL_GRAPH_N_FEATURES_V1, /* PEARL_GRAPH_N_MEM */
	PEARL_GRAPH_N_MEM = 6,
	PEARL_GRAPH_N_FEATURES = PEARL_F_MEM + PEARL_GRAPH_N_MEM
};

/* The graph: features row-major, n_nodes x n_features; edge k goes from
 * node src[k] (the parent) to node dst[k] (the child). */
struct pearl_graph {
	int n_nodes;
	int n_features;
	float *x;      /* owned; n_nodes * n_features */
	int n_edges;
	int *src;      /* owned; n_edges */
	int *dst;      /* owned; n_edges */
};

/* An empty graph of n_nodes nodes with all features 0 and room for
 * max_edges edges (n_edges = 0); NULL if memory is exhausted. */
struct pearl_graph *pearl_graph_alloc(int n_nodes, int n_features,
				      int max_edges);
/* Frees the graph and its arrays; accepts NULL; returns NULL. */
struct pearl_graph *pearl_graph_free(struct pearl_graph *graph);
/* A copy of graph (__isl_keep) with its own arrays (__isl_give); NULL if
 * memory is exhausted. */
struct pearl_graph *pearl_graph_copy(const struct pearl_graph *graph);

/* Writes the graph as text: "graph <n_nodes> <n_features> <n_edges>",
 * then one line per node with its features ("%.9g", space-separated),
 * then one line "<src> <dst>" per edge. Returns 0, or -1 on a write error. */
int pearl_graph_print(FILE *out, const struct pearl_graph *graph);
/* Reads a graph written by pearl_graph_print (__isl_give). NULL on a
 * malformed input, with a message in err (of err_size bytes). */
struct pearl_graph *pearl_graph_read(FILE *in, char *err, size_t err_size);

#ifdef __cplusplus
}
#endif

#endif
