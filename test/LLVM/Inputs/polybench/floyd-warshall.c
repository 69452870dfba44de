/* Twin of PolyBench's floyd-warshall: all-pairs shortest paths on int
 * weights, relaxing path[i][j] through k with a conditional expression.
 * Missing edges weigh 999 (no sum overflows). */
#include "checksum.h"

#ifndef N
#define N 180
#endif

static int path[N][N];

__attribute__((noinline)) static void init(void)
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			path[i][j] = i * j % 7 + 1;
			if ((i + j) % 13 == 0 || (i + j) % 7 == 0 || (i + j) % 11 == 0)
				path[i][j] = 999;
		}
}

__attribute__((noinline)) void kernel(void)
{
	for (int k = 0; k < N; k++)
		for (int i = 0; i < N; i++)
			for (int j = 0; j < N; j++)
				path[i][j] = path[i][j] < path[i][k] + path[k][j]
						     ? path[i][j]
						     : path[i][k] + path[k][j];
}

int main(void)
{
	init();
	TIMED(kernel());
	print_checksum("path", path, sizeof(path));
	return 0;
}
