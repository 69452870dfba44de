/*
 * adjacency.h - the graph checks and neighbourhoods shared by the forward
 * pass (forward.c) and the training pass (backward.c). Internal to
 * lib/Policy.
 */
#ifndef PEARL_POLICY_ADJACENCY_H
#define PEARL_POLICY_ADJACENCY_H

#include <stddef.h>

#include "nn.h"

/* 0 if graph (__isl_keep) is a valid input of policy: the policy's feature
 * width, at least one node, edges naming existing nodes, finite features;
 * else -1 with a message in err. */
int pearl_policy_check_graph(const pearl_policy *policy,
			     const struct pearl_graph *graph, char *err,
			     size_t err_size);

/* 0 if the n logits and the value of a forward pass are all finite; else
 * -1 with a message in err naming the first that is not (weights that are
 * finite but so large that the network's sums overflow). */
int pearl_policy_check_outputs(const float *logits, int n, float value,
			       char *err, size_t err_size);

/* Fills adj from graph (checked by pearl_policy_check_graph): its edges
 * taken both ways, a self-loop per node, duplicates removed, each list
 * sorted. The caller provides the memory: adj->start must have room for
 * n_nodes + 1 ints and adj->src for n_nodes + 2 n_edges (also a bound on
 * adj->max_degree). */
void pearl_nn_adjacency_build(struct pearl_nn_adjacency *adj,
			      const struct pearl_graph *graph);

#endif
