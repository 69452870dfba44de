/* A triangular rank-1 update (the trailing update of a Cholesky-like
 * factorization): for every k, the lower triangle below row k loses
 * A[i][k] * A[j][k]. Non-rectangular domain, dependences carried by k. */
#include "checksum.h"

#ifndef N
#define N 48
#endif

static double A[N][N];

__attribute__((noinline)) static void init(void)
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			A[i][j] = (double)((i * 7 + j * 3) % 11 + 1) / (4 * N);
}

__attribute__((noinline)) static void kernel(void)
{
	for (int k = 0; k < N; k++)
		for (int i = k + 1; i < N; i++)
			for (int j = k + 1; j <= i; j++)
				A[i][j] -= A[i][k] * A[j][k];
}

int main(void)
{
	init();
	TIMED(kernel());
	print_checksum("A", A, sizeof(A));
	return 0;
}
