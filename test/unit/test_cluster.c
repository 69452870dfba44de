/* k-means at the knee of the loss curve (pearl/cluster.h), the adaptive
 * sampling of the schedule search. */
#include <stdlib.h>

#include "check.h"
#include "pearl/cluster.h"

/* Whether points a and b are in the same cluster exactly when they are
 * in the same group (groups of `size` consecutive points). */
static int groups_match(const int *cluster, int n, int size)
{
	int a, b;

	for (a = 0; a < n; ++a)
		for (b = 0; b < n; ++b)
			if ((cluster[a] == cluster[b]) != (a / size == b / size))
				return 0;
	return 1;
}

/* Three tight groups of four points in 3-d, far apart: k = 3, each group
 * one cluster; capped at 2 clusters: k = 2. */
static void test_three_groups(void)
{
	static const float centers[3][3] = {{0, 0, 0}, {10, 0, 0}, {0, 10, 5}};
	float points[12 * 3];
	int cluster[12], i, j;

	for (i = 0; i < 12; ++i)
		for (j = 0; j < 3; ++j)
			points[i * 3 + j] =
			    centers[i / 4][j] + 0.01f * ((i * 7 + j * 3) % 5);
	CHECK(pearl_cluster_knee(points, 12, 3, 12, cluster) == 3);
	CHECK(groups_match(cluster, 12, 4));
	CHECK(pearl_cluster_knee(points, 12, 3, 2, cluster) == 2);
	for (i = 0; i < 12; ++i)
		CHECK(cluster[i] >= 0 && cluster[i] < 2);
}

/* Identical points: one cluster. One point: one cluster. None: 0. */
static void test_degenerate(void)
{
	float points[5 * 2] = {1, 2, 1, 2, 1, 2, 1, 2, 1, 2};
	int cluster[5] = {9, 9, 9, 9, 9}, i;

	CHECK(pearl_cluster_knee(points, 5, 2, 5, cluster) == 1);
	for (i = 0; i < 5; ++i)
		CHECK(cluster[i] == 0);
	CHECK(pearl_cluster_knee(points, 1, 2, 4, cluster) == 1);
	CHECK(cluster[0] == 0);
	CHECK(pearl_cluster_knee(points, 0, 2, 4, cluster) == 0);
	CHECK(pearl_cluster_knee(points, 5, 2, 0, cluster) == 0);
}

/* Evenly spread points on a line have no knee before the loss falls
 * below a tenth: k stays small but above 1, and is deterministic. */
static void test_line(void)
{
	float points[20];
	int c1[20], c2[20], i, k, changes = 0;

	for (i = 0; i < 20; ++i)
		points[i] = (float)i;
	k = pearl_cluster_knee(points, 20, 1, 20, c1);
	CHECK(k > 1 && k < 10);
	CHECK(pearl_cluster_knee(points, 20, 1, 20, c2) == k);
	for (i = 0; i < 20; ++i)
		CHECK(c1[i] == c2[i]);
	/* clusters of points on a line are intervals: k - 1 changes */
	for (i = 1; i < 20; ++i)
		changes += c1[i] != c1[i - 1];
	CHECK(changes == k - 1);
}

int main(void)
{
	test_three_groups();
	test_degenerate();
	test_line();
	return check_done("test_cluster");
}
