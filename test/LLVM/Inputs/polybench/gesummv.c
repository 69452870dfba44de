/* Twin of PolyBench's gesummv: y = alpha A x + beta B x, two reductions
 * sharing one inner loop, then a combining statement per row. */
#include "checksum.h"

#ifndef N
#define N 90
#endif

static double A[N][N], B[N][N], tmp[N], x[N], y[N];
static double alpha, beta;

__attribute__((noinline)) static void init(void)
{
	alpha = 1.5;
	beta = 1.2;
	for (int i = 0; i < N; i++) {
		x[i] = (double)(i % N) / N;
		for (int j = 0; j < N; j++) {
			A[i][j] = (double)((i * j + 1) % N) / N;
			B[i][j] = (double)((i * j + 2) % N) / N;
		}
	}
}

__attribute__((noinline)) void kernel(void)
{
	for (int i = 0; i < N; i++) {
		tmp[i] = 0.0;
		y[i] = 0.0;
		for (int j = 0; j < N; j++) {
			tmp[i] = A[i][j] * x[j] + tmp[i];
			y[i] = B[i][j] * x[j] + y[i];
		}
		y[i] = alpha * tmp[i] + beta * y[i];
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
