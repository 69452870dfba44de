/* The C fuzzer's program 1703 (train scale), reduced to its kernel: a
 * triangular matmul. skew-spread.test schedules it with the skew that made
 * it run for minutes. */
#include <stdio.h>

static float A[533][533], B[533][330], C[533][330];

__attribute__((noinline)) void kernel(void)
{
	for (int i0 = 0; i0 < 533; i0 += 1)
		for (int i1 = 0; i1 < 330; i1 += 1)
			for (int i2 = 0; i2 < i0 + 1; i2 += 1)
				C[i0][i1] = C[i0][i1] + A[i0][i2] * B[i2][i1] * 1.25f;
}

int main(void)
{
	double sum = 0;

	for (int i = 0; i < 533; i++)
		for (int j = 0; j < 533; j++)
			A[i][j] = (float)((i * 3 + j * 5) % 13 - 6);
	for (int i = 0; i < 533; i++)
		for (int j = 0; j < 330; j++) {
			B[i][j] = (float)((i * 7 + j * 11) % 17 - 8);
			C[i][j] = (float)((i + j) % 5);
		}
	kernel();
	for (int i = 0; i < 533; i++)
		for (int j = 0; j < 330; j++)
			sum += C[i][j] * (double)((i + 2 * j) % 7);
	printf("%.17g\n", sum);
	return 0;
}
