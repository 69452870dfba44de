/* Twin of PolyBench's heat-3d: 7-point heat equation in 3-D, B from A
 * then A from B in every time step. */
#include "checksum.h"

#ifndef TSTEPS
#define TSTEPS 40
#endif
#ifndef N
#define N 20
#endif

static double A[N][N][N], B[N][N][N];

__attribute__((noinline)) static void init(void)
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			for (int k = 0; k < N; k++)
				A[i][j][k] = B[i][j][k] = (double)(i + j + (N - k)) * 10 / N;
}

__attribute__((noinline)) void kernel(void)
{
	for (int t = 1; t <= TSTEPS; t++) {
		for (int i = 1; i < N - 1; i++)
			for (int j = 1; j < N - 1; j++)
				for (int k = 1; k < N - 1; k++)
					B[i][j][k] = 0.125 * (A[i + 1][j][k] - 2.0 * A[i][j][k] + A[i - 1][j][k]) +
						     0.125 * (A[i][j + 1][k] - 2.0 * A[i][j][k] + A[i][j - 1][k]) +
						     0.125 * (A[i][j][k + 1] - 2.0 * A[i][j][k] + A[i][j][k - 1]) +
						     A[i][j][k];
		for (int i = 1; i < N - 1; i++)
			for (int j = 1; j < N - 1; j++)
				for (int k = 1; k < N - 1; k++)
					A[i][j][k] = 0.125 * (B[i + 1][j][k] - 2.0 * B[i][j][k] + B[i - 1][j][k]) +
						     0.125 * (B[i][j + 1][k] - 2.0 * B[i][j][k] + B[i][j - 1][k]) +
						     0.125 * (B[i][j][k + 1] - 2.0 * B[i][j][k] + B[i][j][k - 1]) +
						     B[i][j][k];
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
