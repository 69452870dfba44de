/* Twin of PolyBench's trmm: B = alpha A^T B with A unit lower triangular.
 * For every (i, j), a reduction over k > i into B[i][j] reading rows of B
 * below i, then the scaling. */
#include "checksum.h"

#ifndef M
#define M 60
#endif
#ifndef N
#define N 80
#endif

static double A[M][M], B[M][N];
static double alpha;

__attribute__((noinline)) static void init(void)
{
	alpha = 1.5;
	for (int i = 0; i < M; i++) {
		for (int j = 0; j < i; j++)
			A[i][j] = (double)((i + j) % M) / M;
		A[i][i] = 1.0;
		for (int j = 0; j < N; j++)
			B[i][j] = (double)((N + (i - j)) % N) / N;
	}
}

__attribute__((noinline)) void kernel(void)
{
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			for (int k = i + 1; k < M; k++)
				B[i][j] += A[k][i] * B[k][j];
			B[i][j] = alpha * B[i][j];
		}
}

int main(void)
{
	init();
	TIMED(kernel());
	print_checksum("B", B, sizeof(B));
	return 0;
}
