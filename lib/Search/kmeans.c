/* k-means with k at the knee of the loss curve (pearl/cluster.h). */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "pearl/cluster.h"

#define LLOYD_ITERATIONS 20

static double distance2(const float *a, const float *b, int dim)
{
	double d = 0;
	int i;

	for (i = 0; i < dim; ++i)
		d += ((double)a[i] - b[i]) * ((double)a[i] - b[i]);
	return d;
}

/* Seeds k centers (rows of `centers`) on points: the first point, then
 * each time the point farthest from the centers so far. */
static void seed_centers(const float *points, int n, int dim, int k,
			 float *centers)
{
	int c, i;

	memcpy(centers, points, dim * sizeof(float));
	for (c = 1; c < k; ++c) {
		double far = -1;
		int pick = 0;

		for (i = 0; i < n; ++i) {
			double near = DBL_MAX;
			int j;

			for (j = 0; j < c; ++j) {
				double d = distance2(points + (size_t)i * dim,
						     centers + (size_t)j * dim,
						     dim);
				if (d < near)
					near = d;
			}
			if (near > far) {
				far = near;
				pick = i;
			}
		}
		memcpy(centers + (size_t)c * dim, points + (size_t)pick * dim,
		       dim * sizeof(float));
	}
}

/* Assigns every point to its nearest center; returns the loss (the sum
 * of squared distances). */
static double assign(const float *points, int n, int dim,
		     const float *centers, int k, int *cluster)
{
	double loss = 0;
	int i, c;

	for (i = 0; i < n; ++i) {
		double best = DBL_MAX;

		for (c = 0; c < k; ++c) {
			double d = distance2(points + (size_t)i * dim,
					     centers + (size_t)c * dim, dim);
			if (d < best) {
				best = d;
				cluster[i] = c;
			}
		}
		loss += best;
	}
	return loss;
}

/* Moves every center to the mean of its points (an empty cluster keeps
 * its center). */
static void update_centers(const float *points, int n, int dim,
			   const int *cluster, int k, float *centers,
			   double *sum, int *count)
{
	int i, c, j;

	memset(sum, 0, (size_t)k * dim * sizeof(double));
	memset(count, 0, k * sizeof(int));
	for (i = 0; i < n; ++i) {
		count[cluster[i]]++;
		for (j = 0; j < dim; ++j)
			sum[(size_t)cluster[i] * dim + j] +=
			    points[(size_t)i * dim + j];
	}
	for (c = 0; c < k; ++c)
		for (j = 0; count[c] && j < dim; ++j)
			centers[(size_t)c * dim + j] =
			    (float)(sum[(size_t)c * dim + j] / count[c]);
}

/* k-means with k clusters; the loss, or -1 if memory is exhausted. */
static double kmeans(const float *points, int n, int dim, int k,
		     int *cluster, float *centers)
{
	double *sum = malloc((size_t)k * dim * sizeof(double));
	int *count = malloc(k * sizeof(int));
	double loss = -1;
	int it;

	if (sum && count) {
		seed_centers(points, n, dim, k, centers);
		for (it = 0; it < LLOYD_ITERATIONS; ++it) {
			loss = assign(points, n, dim, centers, k, cluster);
			update_centers(points, n, dim, cluster, k, centers,
				       sum, count);
		}
		loss = assign(points, n, dim, centers, k, cluster);
	}
	free(sum);
	free(count);
	return loss;
}

int pearl_cluster_knee(const float *points, int n, int dim, int max_k,
		       int *cluster)
{
	float *centers;
	double first = 0, loss, next;
	int k, last = max_k < n ? max_k : n;

	if (last < 1)
		return 0;
	centers = malloc((size_t)last * dim * sizeof(float));
	if (!centers)
		return -1;
	loss = kmeans(points, n, dim, 1, cluster, centers);
	first = loss;
	for (k = 1; k < last && loss > 0; ++k) {
		next = kmeans(points, n, dim, k + 1, cluster, centers);
		if (next < 0 || loss - next < PEARL_CLUSTER_KNEE * first)
			break;
		loss = next;
	}
	if (kmeans(points, n, dim, k, cluster, centers) < 0)
		k = -1;
	free(centers);
	return k;
}
