/* Twin of PolyBench's jacobi-1d: 3-point averaging, B from A then A from
 * B in every time step. */
#include "checksum.h"

#ifndef TSTEPS
#define TSTEPS 40
#endif
#ifndef N
#define N 120
#endif

static double A[N], B[N];

__attribute__((noinline)) static void init(void)
{
	for (int i = 0; i < N; i++) {
		A[i] = ((double)i + 2) / N;
		B[i] = ((double)i + 3) / N;
	}
}

__attribute__((noinline)) void kernel(void)
{
	for (int t = 0; t < TSTEPS; t++) {
		for (int i = 1; i < N - 1; i++)
			B[i] = 0.33333 * (A[i - 1] + A[i] + A[i + 1]);
		for (int i = 1; i < N - 1; i++)
			A[i] = 0.33333 * (B[i - 1] + B[i] + B[i + 1]);
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
