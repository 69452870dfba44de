/* Twin of PolyBench's cholesky: in-place A = L L^T on the lower triangle.
 * Per row i: a triangular nest over j < i with a reduction over k < j and
 * a division, then the diagonal's reduction and its sqrt. */
#include <math.h>

#include "checksum.h"

#ifndef N
#define N 120
#endif

static double A[N][N], B[N][N];

/* As PolyBench makes its matrix positive definite: a lower-triangular L
 * with a unit diagonal, then A = L L^T through the temporary B and a copy
 * back (a nest of plain copies, as in a time loop's swap). */
__attribute__((noinline)) static void init(void)
{
	for (int i = 0; i < N; i++) {
		for (int j = 0; j <= i; j++)
			A[i][j] = 1.0 - (double)j / N;
		for (int j = i + 1; j < N; j++)
			A[i][j] = 0.0;
		A[i][i] = 1.0;
	}
	for (int r = 0; r < N; r++)
		for (int s = 0; s < N; s++)
			B[r][s] = 0.0;
	for (int t = 0; t < N; t++)
		for (int r = 0; r < N; r++)
			for (int s = 0; s < N; s++)
				B[r][s] += A[r][t] * A[s][t];
	for (int r = 0; r < N; r++)
		for (int s = 0; s < N; s++)
			A[r][s] = B[r][s];
}

__attribute__((noinline)) void kernel(void)
{
	for (int i = 0; i < N; i++) {
		for (int j = 0; j < i; j++) {
			for (int k = 0; k < j; k++)
				A[i][j] -= A[i][k] * A[j][k];
			A[i][j] /= A[j][j];
		}
		for (int k = 0; k < i; k++)
			A[i][i] -= A[i][k] * A[i][k];
		A[i][i] = sqrt(A[i][i]);
	}
}

int main(void)
{
	init();
	TIMED(kernel());
	print_checksum("A", A, sizeof(A));
	return 0;
}
