/* Row sums kept in registers: clang makes `s` and `total` PHI nodes of their
 * loops (a start value, the value carried to the next iteration, the value
 * after the loop). Polly keeps each in memory of its own, which Polly's
 * DeLICM maps onto B[i] for `s` but not for `total`: the plugin models
 * those scalars as elements of one array, pearl_scalars (scalar-phi.test). */
#include <stdio.h>
#define N 300
static double A[N][N], B[N], T;
__attribute__((noinline)) void kernel(void)
{
	double total = 0.0;
	for (int i = 0; i < N; i++) {
		double s = 0.0;
		for (int j = 0; j < N; j++)
			s += A[i][j] * (j + 1);
		B[i] = s;
		total += s * (i % 3);
	}
	T = total;
}
int main(void)
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			A[i][j] = (double)((i * 7 + j * 3) % 11) - 5.0;
	kernel();
	double sum = T;
	for (int i = 0; i < N; i++)
		sum += B[i] * (i % 5 + 1);
	printf("%.17g\n", sum);
	return 0;
}
