/* Twin of PolyBench's syrk: lower triangle of C = alpha A A^T + beta C.
 * Per row i: scaling of j <= i, then the k-j update with a triangular
 * inner bound. */
#include "checksum.h"

#ifndef M
#define M 60
#endif
#ifndef N
#define N 80
#endif

static double A[N][M], C[N][N];
static double alpha, beta;

__attribute__((noinline)) static void init(void)
{
	alpha = 1.5;
	beta = 1.2;
	for (int i = 0; i < N; i++)
		for (int j = 0; j < M; j++)
			A[i][j] = (double)((i * j + 1) % N) / N;
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			C[i][j] = (double)((i * j + 2) % M) / M;
}

__attribute__((noinline)) void kernel(void)
{
	for (int i = 0; i < N; i++) {
		for (int j = 0; j <= i; j++)
			C[i][j] *= beta;
		for (int k = 0; k < M; k++)
			for (int j = 0; j <= i; j++)
				C[i][j] += alpha * A[i][k] * A[j][k];
	}
}

int main(void)
{
	init();
	TIMED(kernel());
	print_checksum("C", C, sizeof(C));
	return 0;
}
