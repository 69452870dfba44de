/* Twin of PolyBench's ludcmp: LU decomposition through a scalar
 * accumulator w, then forward substitution (L y = b) and backward
 * substitution (U x = y, i running downwards). The matrix is positive
 * definite, so no pivot is zero. */
#include "checksum.h"

#ifndef N
#define N 120
#endif

static double A[N][N], B[N][N], b[N], x[N], y[N];

/* As PolyBench makes its matrix positive definite: a lower-triangular L
 * with a unit diagonal, then A = L L^T through the temporary B and a copy
 * back (a nest of plain copies, as in a time loop's swap). */
__attribute__((noinline)) static void init(void)
{
	double fn = (double)N;

	for (int i = 0; i < N; i++) {
		x[i] = 0.0;
		y[i] = 0.0;
		b[i] = (i + 1) / fn / 2.0 + 4.0;
	}
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
	double w;

	for (int i = 0; i < N; i++) {
		for (int j = 0; j < i; j++) {
			w = A[i][j];
			for (int k = 0; k < j; k++)
				w -= A[i][k] * A[k][j];
			A[i][j] = w / A[j][j];
		}
		for (int j = i; j < N; j++) {
			w = A[i][j];
			for (int k = 0; k < i; k++)
				w -= A[i][k] * A[k][j];
			A[i][j] = w;
		}
	}
	for (int i = 0; i < N; i++) {
		w = b[i];
		for (int j = 0; j < i; j++)
			w -= A[i][j] * y[j];
		y[i] = w;
	}
	for (int i = N - 1; i >= 0; i--) {
		w = y[i];
		for (int j = i + 1; j < N; j++)
			w -= A[i][j] * x[j];
		x[i] = w / A[i][i];
	}
}

int main(void)
{
	init();
	TIMED(kernel());
	print_checksum("A", A, sizeof(A));
	print_checksum("y", y, sizeof(y));
	print_checksum("x", x, sizeof(x));
	return 0;
}
