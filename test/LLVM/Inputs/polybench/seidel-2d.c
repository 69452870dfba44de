/* Twin of PolyBench's seidel-2d: 9-point Gauss-Seidel sweeps in place
 * (every point reads already-updated neighbours), divided by 9. */
#include "checksum.h"

#ifndef TSTEPS
#define TSTEPS 40
#endif
#ifndef N
#define N 120
#endif

static double A[N][N];

__attribute__((noinline)) static void init(void)
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			A[i][j] = ((double)i * (j + 2) + 2) / N;
}

__attribute__((noinline)) void kernel(void)
{
	for (int t = 0; t <= TSTEPS - 1; t++)
		for (int i = 1; i <= N - 2; i++)
			for (int j = 1; j <= N - 2; j++)
				A[i][j] = (A[i - 1][j - 1] + A[i - 1][j] + A[i - 1][j + 1] +
					   A[i][j - 1] + A[i][j] + A[i][j + 1] +
					   A[i + 1][j - 1] + A[i + 1][j] + A[i + 1][j + 1]) / 9.0;
}

int main(void)
{
	init();
	TIMED(kernel());
	print_checksum("A", A, sizeof(A));
	return 0;
}
