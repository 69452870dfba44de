/* Twin of PolyBench's mvt: x1 += A y1 and x2 += A^T y2, two nests, the
 * second reading A transposed. */
#include "checksum.h"

#ifndef N
#define N 120
#endif

static double A[N][N], x1[N], x2[N], y_1[N], y_2[N];

__attribute__((noinline)) static void init(void)
{
	for (int i = 0; i < N; i++) {
		x1[i] = (double)(i % N) / N;
		x2[i] = (double)((i + 1) % N) / N;
		y_1[i] = (double)((i + 3) % N) / N;
		y_2[i] = (double)((i + 4) % N) / N;
		for (int j = 0; j < N; j++)
			A[i][j] = (double)(i * j % N) / N;
	}
}

__attribute__((noinline)) void kernel(void)
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			x1[i] = x1[i] + A[i][j] * y_1[j];
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			x2[i] = x2[i] + A[j][i] * y_2[j];
}

int main(void)
{
	init();
	TIMED(kernel());
	print_checksum("x1", x1, sizeof(x1));
	print_checksum("x2", x2, sizeof(x2));
	return 0;
}
