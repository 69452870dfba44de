/* Three loop nests of one function, split into separate Scops by calls:
 * with -polly-rtc-max-arrays-per-group=1, Polly detects the first (its
 * three pointers may alias) and then drops it, as it cannot check them
 * at run time; the two others are Scops 0 and 1 of -pearl-schedule
 * (bounded by n, so that clang unrolls none of their loops). */
#include "checksum.h"

#define N 48
static double A[N][N], B[N][N], C[N][N];
static double a[N], b[N], c[N];
static volatile int calls;

__attribute__((noinline)) void tick(void) { calls++; }

__attribute__((noinline)) void kernel(int n, double *x, double *y, double *z)
{
	__builtin_assume(n <= N);
	for (int i = 0; i < n; i++)
		x[i] = y[i] + z[i];
	tick();
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			A[i][j] = B[j][i] + 1.0;
	tick();
	for (int i = 0; i < n; i++)
		for (int j = 1; j < n; j++)
			C[i][j] = C[i][j - 1] * 0.5 + A[i][j];
}

int main(void)
{
	for (int i = 0; i < N; i++) {
		a[i] = b[i] = i;
		for (int j = 0; j < N; j++)
			B[i][j] = C[i][j] = (double)((i * 5 + j) % 7);
	}
	kernel(N, a, b, c);
	print_checksum("a", a, sizeof(a));
	print_checksum("A", A, sizeof(A));
	print_checksum("C", C, sizeof(C));
	return 0;
}
