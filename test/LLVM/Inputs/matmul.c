/* C += A * B on doubles (the MLIR twin is test/bench/extra/matmul.mlir.in):
 * initializes, runs the kernel once, prints the raw bytes of C as a
 * checksum so that any change of the summation order shows. */
#include "checksum.h"


#ifndef N
#define N 64
#endif

static double A[N][N], B[N][N], C[N][N];

__attribute__((noinline)) static void init(void)
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			A[i][j] = (double)((i * j + 1) % N) / N;
			B[i][j] = (double)((i * (j + 1) + 2) % N) / N;
			C[i][j] = (double)((i + j) % N) / N;
		}
}

__attribute__((noinline)) static void kernel(void)
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			for (int k = 0; k < N; k++)
				C[i][j] += A[i][k] * B[k][j];
}


int main(void)
{
	init();
	TIMED(kernel());
	print_checksum("C", C, sizeof(C));
	return 0;
}
