/* Twin of PolyBench's 2mm: tmp = alpha * A * B, then D = beta * D + tmp * C.
 * Two imperfect nests, each with an initializing statement before a
 * reduction over k. */
#include "checksum.h"

#ifndef NI
#define NI 40
#endif
#ifndef NJ
#define NJ 50
#endif
#ifndef NK
#define NK 70
#endif
#ifndef NL
#define NL 80
#endif

static double A[NI][NK], B[NK][NJ], C[NJ][NL], D[NI][NL], tmp[NI][NJ];
static double alpha, beta;

__attribute__((noinline)) static void init(void)
{
	alpha = 1.5;
	beta = 1.2;
	for (int i = 0; i < NI; i++)
		for (int k = 0; k < NK; k++)
			A[i][k] = (double)((i * k + 1) % NI) / NI;
	for (int k = 0; k < NK; k++)
		for (int j = 0; j < NJ; j++)
			B[k][j] = (double)(k * (j + 1) % NJ) / NJ;
	for (int j = 0; j < NJ; j++)
		for (int l = 0; l < NL; l++)
			C[j][l] = (double)((j * (l + 3) + 1) % NL) / NL;
	for (int i = 0; i < NI; i++)
		for (int l = 0; l < NL; l++)
			D[i][l] = (double)(i * (l + 2) % NK) / NK;
}

__attribute__((noinline)) void kernel(void)
{
	for (int i = 0; i < NI; i++)
		for (int j = 0; j < NJ; j++) {
			tmp[i][j] = 0.0;
			for (int k = 0; k < NK; ++k)
				tmp[i][j] += alpha * A[i][k] * B[k][j];
		}
	for (int i = 0; i < NI; i++)
		for (int j = 0; j < NL; j++) {
			D[i][j] *= beta;
			for (int k = 0; k < NJ; ++k)
				D[i][j] += tmp[i][k] * C[k][j];
		}
}

int main(void)
{
	init();
	TIMED(kernel());
	print_checksum("tmp", tmp, sizeof(tmp));
	print_checksum("D", D, sizeof(D));
	return 0;
}
