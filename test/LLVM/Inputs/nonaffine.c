/* A loop Polly cannot model: the inner bound is loaded from memory (a
 * ragged, CSR-like row length). The plugin must say so and leave the
 * code exactly as clang compiles it. */
#include "checksum.h"

#ifndef N
#define N 64
#endif

static int len[N];
static double A[N][N], x[N];

__attribute__((noinline)) static void init(void)
{
	for (int i = 0; i < N; i++) {
		len[i] = (i * 7) % N;
		x[i] = (double)(i % 5) / 5;
		for (int j = 0; j < N; j++)
			A[i][j] = (double)((i + j) % 9) / 9;
	}
}

__attribute__((noinline)) static void kernel(void)
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < len[i]; j++)
			A[i][j] = A[i][j] * x[j] + 1.0;
}

int main(void)
{
	init();
	TIMED(kernel());
	print_checksum("A", A, sizeof(A));
	return 0;
}
