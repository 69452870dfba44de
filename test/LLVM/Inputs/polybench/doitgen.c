/* Twin of PolyBench's doitgen: multiresolution kernel, A[r][q][:] =
 * A[r][q][:] * C4 through a one-dimensional sum buffer that is reset,
 * reduced into and copied back for every (r, q). */
#include "checksum.h"

#ifndef NQ
#define NQ 20
#endif
#ifndef NR
#define NR 25
#endif
#ifndef NP
#define NP 30
#endif

static double A[NR][NQ][NP], C4[NP][NP], sum[NP];

__attribute__((noinline)) static void init(void)
{
	for (int r = 0; r < NR; r++)
		for (int q = 0; q < NQ; q++)
			for (int p = 0; p < NP; p++)
				A[r][q][p] = (double)((r * q + p) % NP) / NP;
	for (int s = 0; s < NP; s++)
		for (int p = 0; p < NP; p++)
			C4[s][p] = (double)(s * p % NP) / NP;
}

__attribute__((noinline)) void kernel(void)
{
	for (int r = 0; r < NR; r++)
		for (int q = 0; q < NQ; q++) {
			for (int p = 0; p < NP; p++) {
				sum[p] = 0.0;
				for (int s = 0; s < NP; s++)
					sum[p] += A[r][q][s] * C4[s][p];
			}
			for (int p = 0; p < NP; p++)
				A[r][q][p] = sum[p];
		}
}

int main(void)
{
	init();
	TIMED(kernel());
	print_checksum("A", A, sizeof(A));
	print_checksum("sum", sum, sizeof(sum));
	return 0;
}
