/* Twin of PolyBench's trisolv: forward substitution L x = b, x[i] first
 * set from b, reduced over j < i, then divided by the diagonal. */
#include "checksum.h"

#ifndef N
#define N 120
#endif

static double L[N][N], x[N], b[N];

__attribute__((noinline)) static void init(void)
{
	for (int i = 0; i < N; i++) {
		x[i] = -999;
		b[i] = i;
		for (int j = 0; j <= i; j++)
			L[i][j] = (double)(i + N - j + 1) * 2 / N;
	}
}

__attribute__((noinline)) void kernel(void)
{
	for (int i = 0; i < N; i++) {
		x[i] = b[i];
		for (int j = 0; j < i; j++)
			x[i] -= L[i][j] * x[j];
		x[i] = x[i] / L[i][i];
	}
}

int main(void)
{
	init();
	TIMED(kernel());
	print_checksum("x", x, sizeof(x));
	return 0;
}
