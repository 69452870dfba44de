/*
 * pearl/features.h - Pearl's AST graph (pearl/graph.h) of a schedule being
 * transformed (pearl/transform.h): the state the policy sees.
 *
 * The graph is a function of the current schedule alone: the loop tree is
 * that of the transformed schedule tree, and the transformation tags of a
 * loop (parallel, unrolled, tiled, reversed, skewed) are read off its band
 * member (coincidence, AST loop type) and its partial schedule (an affine
 * function of the original iterators, with a floor division for tile
 * loops). The same schedule therefore always gives the same graph, whether
 * it was reached by the agent, by an explicit schedule, or by training.
 */
#ifndef PEARL_FEATURES_H
#define PEARL_FEATURES_H

#include "pearl/graph.h"
#include "pearl/transform.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The graph of the current schedule of `sched` (kept), with the loops and
 * the statement of branch `focus` tagged as in focus (-1: no branch in
 * focus). The caller frees the graph with pearl_graph_free. NULL with an
 * error in the program's context. */
struct pearl_graph *pearl_graph_build(pearl_sched *sched, int focus);

/* Moves the focus of `graph` (built by pearl_graph_build) to branch
 * `focus` (-1: none): the focus tags are the only features that depend on
 * the branch, so a graph can be reused when only the focus changes. */
void pearl_graph_set_focus(struct pearl_graph *graph, int focus);

/* The graph (kept) as readable text, decoded from its feature rows (so it
 * shows exactly what the policy sees), one line per node, e.g.
 *   n1 loop <- n0 level 0 extent 64 [0, 63] focus parallel row i0
 *   n4 stmt <- n3 f64 reduction focus ops add 1 mul 1 reads 3 depth 3
 *      write b0 [i0; i1]
 *      read  b1 [i0; i2]
 * Returns a malloc'd string (caller frees), NULL if memory is exhausted. */
char *pearl_graph_describe(const struct pearl_graph *graph);

#ifdef __cplusplus
}
#endif

#endif
