/* Twin of PolyBench's jacobi-2d: 5-point averaging, B from A then A from
 * B in every time step. */
#include "checksum.h"

#ifndef TSTEPS
#define TSTEPS 40
#endif
#ifndef N
#define N 90
#endif

static double A[N][N], B[N][N];

__attribute__((noinline)) static void init(void)
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			A[i][j] = ((double)i * (j + 2) + 2) / N;
			B[i][j] = ((double)i * (j + 3) + 3) / N;
		}
}

__attribute__((noinline)) void kernel(void)
{
	for (int t = 0; t < TSTEPS; t++) {
		for (int i = 1; i < N - 1; i++)
			for (int j = 1; j < N - 1; j++)
				B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][1 + j] +
						 A[1 + i][j] + A[i - 1][j]);
		for (int i = 1; i < N - 1; i++)
			for (int j = 1; j < N - 1; j++)
				A[i][j] = 0.2 * (B[i][j] + B[i][j - 1] + B[i][1 + j] +
						 B[1 + i][j] + B[i - 1][j]);
	}
}

int main(void)
{
	init();
	TIMED(kernel());
	print_checksum("A", A, sizeof(A));
	print_checksum("B", B, sizeof(B));
	return 0;
}
