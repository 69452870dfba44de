/* Twin of PolyBench's gemver: a rank-2 update of A, then x += beta A^T y
 * (reading A transposed), x += z, and w += alpha A x. Four nests with
 * producer-consumer dependences between them. */
#include "checksum.h"

#ifndef N
#define N 120
#endif

static double A[N][N], u1[N], v1[N], u2[N], v2[N];
static double w[N], x[N], y[N], z[N];
static double alpha, beta;

__attribute__((noinline)) static void init(void)
{
	double fn = (double)N;

	alpha = 1.5;
	beta = 1.2;
	for (int i = 0; i < N; i++) {
		u1[i] = i;
		u2[i] = ((i + 1) / fn) / 2.0;
		v1[i] = ((i + 1) / fn) / 4.0;
		v2[i] = ((i + 1) / fn) / 6.0;
		y[i] = ((i + 1) / fn) / 8.0;
		z[i] = ((i + 1) / fn) / 9.0;
		x[i] = 0.0;
		w[i] = 0.0;
		for (int j = 0; j < N; j++)
			A[i][j] = (double)(i * j % N) / N;
	}
}

__attribute__((noinline)) void kernel(void)
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			A[i][j] = A[i][j] + u1[i] * v1[j] + u2[i] * v2[j];
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			x[i] = x[i] + beta * A[j][i] * y[j];
	for (int i = 0; i < N; i++)
		x[i] = x[i] + z[i];
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			w[i] = w[i] + alpha * A[i][j] * x[j];
}

int main(void)
{
	init();
	TIMED(kernel());
	print_checksum("A", A, sizeof(A));
	print_checksum("x", x, sizeof(x));
	print_checksum("w", w, sizeof(w));
	return 0;
}
