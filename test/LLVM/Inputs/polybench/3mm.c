/* Twin of PolyBench's 3mm: E = A * B, F = C * D, G = E * F. Three
 * independent-looking nests, the third reading the first two. */
#include "checksum.h"

#ifndef NI
#define NI 40
#endif
#ifndef NJ
#define NJ 50
#endif
#ifndef NK
#define NK 60
#endif
#ifndef NL
#define NL 70
#endif
#ifndef NM
#define NM 80
#endif

static double A[NI][NK], B[NK][NJ], C[NJ][NM], D[NM][NL];
static double E[NI][NJ], F[NJ][NL], G[NI][NL];

__attribute__((noinline)) static void init(void)
{
	for (int i = 0; i < NI; i++)
		for (int k = 0; k < NK; k++)
			A[i][k] = (double)((i * k + 1) % NI) / (5 * NI);
	for (int k = 0; k < NK; k++)
		for (int j = 0; j < NJ; j++)
			B[k][j] = (double)((k * (j + 1) + 2) % NJ) / (5 * NJ);
	for (int j = 0; j < NJ; j++)
		for (int m = 0; m < NM; m++)
			C[j][m] = (double)(j * (m + 3) % NL) / (5 * NL);
	for (int m = 0; m < NM; m++)
		for (int l = 0; l < NL; l++)
			D[m][l] = (double)((m * (l + 2) + 2) % NK) / (5 * NK);
}

__attribute__((noinline)) void kernel(void)
{
	for (int i = 0; i < NI; i++)
		for (int j = 0; j < NJ; j++) {
			E[i][j] = 0.0;
			for (int k = 0; k < NK; ++k)
				E[i][j] += A[i][k] * B[k][j];
		}
	for (int i = 0; i < NJ; i++)
		for (int j = 0; j < NL; j++) {
			F[i][j] = 0.0;
			for (int k = 0; k < NM; ++k)
				F[i][j] += C[i][k] * D[k][j];
		}
	for (int i = 0; i < NI; i++)
		for (int j = 0; j < NL; j++) {
			G[i][j] = 0.0;
			for (int k = 0; k < NJ; ++k)
				G[i][j] += E[i][k] * F[k][j];
		}
}

int main(void)
{
	init();
	TIMED(kernel());
	print_checksum("E", E, sizeof(E));
	print_checksum("F", F, sizeof(F));
	print_checksum("G", G, sizeof(G));
	return 0;
}
