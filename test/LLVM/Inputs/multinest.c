/* Two chained matrix products in one function (PolyBench's 2mm loop
 * structure): tmp = alpha * A * B, then D = beta * D + tmp * C. Four
 * statements in two nests, the second reading what the first wrote. */
#include "checksum.h"

#ifndef N
#define N 64
#endif

static double A[N][N], B[N][N], C[N][N], D[N][N], tmp[N][N];

__attribute__((noinline)) static void init(void)
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			A[i][j] = (double)((i * j + 1) % N) / N;
			B[i][j] = (double)(i * (j + 1) % N) / N;
			C[i][j] = (double)((i * (j + 3) + 1) % N) / N;
			D[i][j] = (double)(i * (j + 2) % N) / N;
		}
}

__attribute__((noinline)) static void kernel(double alpha, double beta)
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			tmp[i][j] = 0.0;
			for (int k = 0; k < N; ++k)
				tmp[i][j] += alpha * A[i][k] * B[k][j];
		}
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			D[i][j] *= beta;
			for (int k = 0; k < N; ++k)
				D[i][j] += tmp[i][k] * C[k][j];
		}
}

int main(void)
{
	init();
	TIMED(kernel(1.5, 1.2));
	print_checksum("D", D, sizeof(D));
	print_checksum("tmp", tmp, sizeof(tmp));
	return 0;
}
