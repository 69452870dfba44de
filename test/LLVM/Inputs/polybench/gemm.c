/* Twin of PolyBench's gemm: C = beta * C + alpha * A * B, with the
 * scaling of row i and the k-j update in one imperfect nest over i. */
#include "checksum.h"

#ifndef NI
#define NI 60
#endif
#ifndef NJ
#define NJ 70
#endif
#ifndef NK
#define NK 80
#endif

static double A[NI][NK], B[NK][NJ], C[NI][NJ];
static double alpha, beta;

__attribute__((noinline)) static void init(void)
{
	alpha = 1.5;
	beta = 1.2;
	for (int i = 0; i < NI; i++)
		for (int j = 0; j < NJ; j++)
			C[i][j] = (double)((i * j + 1) % NI) / NI;
	for (int i = 0; i < NI; i++)
		for (int k = 0; k < NK; k++)
			A[i][k] = (double)(i * (k + 1) % NK) / NK;
	for (int k = 0; k < NK; k++)
		for (int j = 0; j < NJ; j++)
			B[k][j] = (double)(k * (j + 2) % NJ) / NJ;
}

__attribute__((noinline)) void kernel(void)
{
	for (int i = 0; i < NI; i++) {
		for (int j = 0; j < NJ; j++)
			C[i][j] *= beta;
		for (int k = 0; k < NK; k++)
			for (int j = 0; j < NJ; j++)
				C[i][j] += alpha * A[i][k] * B[k][j];
	}
}

int main(void)
{
	init();
	TIMED(kernel());
	print_checksum("C", C, sizeof(C));
	return 0;
}
