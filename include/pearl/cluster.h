/*
 * pearl/cluster.h - k-means with k at the knee of the loss curve, as the
 * RELEASE paper's adaptive sampling chooses it (the search clusters its
 * candidates with it, pearl/search.h).
 */
#ifndef PEARL_CLUSTER_H
#define PEARL_CLUSTER_H

#ifdef __cplusplus
extern "C" {
#endif

/* The knee: the first k where one cluster more removes less than this
 * fraction of the loss (sum of squared distances) of a single cluster. */
#define PEARL_CLUSTER_KNEE 0.1

/* Clusters n points of dim floats (the rows of `points`, kept) by
 * k-means for k = 1, 2, ... up to max_k, stopping at the knee; cluster[i]
 * (n ints) receives point i's cluster, in 0..k-1. Deterministic:
 * farthest-point seeding from the first point, a fixed number of Lloyd
 * iterations. Returns k (0 when n or max_k is 0), or -1 if memory is
 * exhausted. */
int pearl_cluster_knee(const float *points, int n, int dim, int max_k,
		       int *cluster);

#ifdef __cplusplus
}
#endif

#endif
