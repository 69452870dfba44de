/* Twin of PolyBench's atax: y = A^T (A x), through tmp = A x. One outer
 * loop over rows holding an initialization and two inner loops. */
#include "checksum.h"

#ifndef M
#define M 116
#endif
#ifndef N
#define N 124
#endif

static double A[M][N], x[N], y[N], tmp[M];

__attribute__((noinline)) static void init(void)
{
	for (int j = 0; j < N; j++)
		x[j] = 1.0 + (double)j / N;
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			A[i][j] = (double)((i + j) % N) / (5 * M);
}

__attribute__((noinline)) void kernel(void)
{
	for (int i = 0; i < N; i++)
		y[i] = 0;
	for (int i = 0; i < M; i++) {
		tmp[i] = 0.0;
		for (int j = 0; j < N; j++)
			tmp[i] = tmp[i] + A[i][j] * x[j];
		for (int j = 0; j < N; j++)
			y[j] = y[j] + A[i][j] * tmp[i];
	}
}

int main(void)
{
	init();
	TIMED(kernel());
	print_checksum("tmp", tmp, sizeof(tmp));
	print_checksum("y", y, sizeof(y));
	return 0;
}
