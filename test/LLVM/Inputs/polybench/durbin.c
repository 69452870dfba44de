/* Twin of PolyBench's durbin: Levinson-Durbin recursion for a Toeplitz
 * system. Scalars alpha, beta and sum carry between the k iterations;
 * the inner loops read y reversed (k - i - 1) and copy z back into y.
 * r decays fast enough that the Toeplitz matrix is diagonally dominant,
 * so |alpha| < 1 throughout. */
#include "checksum.h"

#ifndef N
#define N 120
#endif

static double r[N], y[N], z[N];

__attribute__((noinline)) static void init(void)
{
	for (int i = 0; i < N; i++)
		r[i] = 0.25 / ((double)(i + 1) * (i + 1)) * (i % 2 ? -1.0 : 1.0);
}

__attribute__((noinline)) void kernel(void)
{
	double alpha, beta, sum;

	y[0] = -r[0];
	beta = 1.0;
	alpha = -r[0];
	for (int k = 1; k < N; k++) {
		beta = (1 - alpha * alpha) * beta;
		sum = 0.0;
		for (int i = 0; i < k; i++)
			sum += r[k - i - 1] * y[i];
		alpha = -(r[k] + sum) / beta;
		for (int i = 0; i < k; i++)
			z[i] = y[i] + alpha * y[k - i - 1];
		for (int i = 0; i < k; i++)
			y[i] = z[i];
		y[k] = alpha;
	}
}

int main(void)
{
	init();
	TIMED(kernel());
	print_checksum("y", y, sizeof(y));
	print_checksum("z", z, sizeof(z));
	return 0;
}
