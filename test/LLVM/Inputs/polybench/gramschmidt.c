/* Twin of PolyBench's gramschmidt: QR decomposition by modified
 * Gram-Schmidt. Per column k: a norm reduction into a scalar, its sqrt,
 * normalization into Q, then for the columns right of k a projection
 * (R[k][j]) and its subtraction from A. M >= N and a dominant diagonal
 * keep the columns independent, so no norm is zero. */
#include <math.h>

#include "checksum.h"

#ifndef M
#define M 80
#endif
#ifndef N
#define N 60
#endif

static double A[M][N], R[N][N], Q[M][N];

__attribute__((noinline)) static void init(void)
{
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			A[i][j] = (double)((i * j) % M) / M + (i == j ? 10.0 : 0.0);
			Q[i][j] = 0.0;
		}
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			R[i][j] = 0.0;
}

__attribute__((noinline)) void kernel(void)
{
	double nrm;

	for (int k = 0; k < N; k++) {
		nrm = 0.0;
		for (int i = 0; i < M; i++)
			nrm += A[i][k] * A[i][k];
		R[k][k] = sqrt(nrm);
		for (int i = 0; i < M; i++)
			Q[i][k] = A[i][k] / R[k][k];
		for (int j = k + 1; j < N; j++) {
			R[k][j] = 0.0;
			for (int i = 0; i < M; i++)
				R[k][j] += Q[i][k] * A[i][j];
			for (int i = 0; i < M; i++)
				A[i][j] = A[i][j] - Q[i][k] * R[k][j];
		}
	}
}

int main(void)
{
	init();
	TIMED(kernel());
	print_checksum("A", A, sizeof(A));
	print_checksum("R", R, sizeof(R));
	print_checksum("Q", Q, sizeof(Q));
	return 0;
}
