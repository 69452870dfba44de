/* Twin of PolyBench's symm: C = alpha A B + beta C with A symmetric and
 * only its lower triangle read. For every (i, j), a loop over k < i
 * updates C[k][j] and accumulates into the scalar temp2, then C[i][j] is
 * finished. */
#include "checksum.h"

#ifndef M
#define M 60
#endif
#ifndef N
#define N 80
#endif

static double A[M][M], B[M][N], C[M][N];
static double alpha, beta;

__attribute__((noinline)) static void init(void)
{
	alpha = 1.5;
	beta = 1.2;
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			C[i][j] = (double)((i + j) % 100) / M;
			B[i][j] = (double)((N + i - j) % 100) / M;
		}
	for (int i = 0; i < M; i++) {
		for (int j = 0; j <= i; j++)
			A[i][j] = (double)((i + j) % 100) / M;
		for (int j = i + 1; j < M; j++)
			A[i][j] = -999; /* never read */
	}
}

__attribute__((noinline)) void kernel(void)
{
	double temp2;

	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			temp2 = 0;
			for (int k = 0; k < i; k++) {
				C[k][j] += alpha * B[i][j] * A[i][k];
				temp2 += B[k][j] * A[i][k];
			}
			C[i][j] = beta * C[i][j] + alpha * B[i][j] * A[i][i] + alpha * temp2;
		}
}

int main(void)
{
	init();
	TIMED(kernel());
	print_checksum("C", C, sizeof(C));
	return 0;
}
