/*
 * Graph/memory.h - the memory features of loops (pearl/graph.h, [MEM]):
 * how the accesses of the statements below a loop move when it steps, and
 * how many bytes they touch during one execution and one iteration of it.
 * Internal to pearl_graph.
 *
 * The program knows no array shapes, so they are estimated: each array
 * dimension spans the values its accesses' subscripts take over the
 * statements' iteration domains (interval arithmetic over the iterators'
 * bounds, parameters at 1024). The estimates are exact for rectangular
 * nests whose accesses cover their arrays, and upper bounds otherwise.
 */
#ifndef PEARL_GRAPH_MEMORY_H
#define PEARL_GRAPH_MEMORY_H

#include "pearl/loop_tree.h"
#include "pearl/program.h"

struct graph_memory;

/* The number of accesses (writes and reads) of all statements of `prog`
 * (kept): a bound on the buffers they name. */
int graph_n_accesses(pearl_program *prog);

/* What the memory features of `prog` (kept) need, computed once per
 * graph: the statements' iterator bounds, their access matrices and the
 * arrays' estimated extents (__isl_give). NULL on an isl error or when
 * memory is exhausted. */
struct graph_memory *graph_memory_alloc(pearl_program *prog);
/* Frees `mem`; accepts NULL; returns NULL. */
struct graph_memory *graph_memory_free(struct graph_memory *mem);

/* Fills the PEARL_GRAPH_N_MEM features at `f` of loop node `node` of
 * `tree` (kept, a loop tree over the program of `mem`). */
void graph_memory_loop_features(struct graph_memory *mem,
				pearl_loop_tree *tree, int node, float *f);

#endif
