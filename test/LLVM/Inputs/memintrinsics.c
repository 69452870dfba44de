/* Loop nests whose copy, fill and shift loops clang turns into memcpy,
 * memset and memmove calls inside a Polly Scop (a time loop around
 * them; the step count is a parameter so that the time loops stay):
 * Polly models each call as an access to a byte range, which Pearl
 * does not model. The classic time-iterated Jacobi is the first one. */
#include "checksum.h"

#ifndef T
#define T 6
#endif
#ifndef M
#define M 40
#endif

static double U[M][M], V[M][M], W[M][M];
static double Row[4 * M];

/* Jacobi with a copy back: the copy's inner loop becomes memcpy. */
__attribute__((noinline)) void copy_back(int tsteps)
{
	for (int t = 0; t < tsteps; t++) {
		for (int i = 1; i < M - 1; i++)
			for (int j = 1; j < M - 1; j++)
				V[i][j] = 0.25 * (U[i - 1][j] + U[i + 1][j] +
						  U[i][j - 1] + U[i][j + 1]);
		for (int i = 1; i < M - 1; i++)
			for (int j = 1; j < M - 1; j++)
				U[i][j] = V[i][j];
	}
}

/* A reset inside a time loop: the inner zeroing loop becomes memset. */
__attribute__((noinline)) void reset_accumulate(int tsteps)
{
	for (int t = 0; t < tsteps; t++) {
		for (int i = 0; i < M; i++)
			for (int j = 0; j < M; j++)
				W[i][j] = 0.0;
		for (int i = 0; i < M; i++)
			for (int j = 0; j < M; j++)
				W[i][j] += U[i][j] * (t + 1);
	}
}

/* An overlapping shift: the inner loop becomes memmove. */
__attribute__((noinline)) void shift(int tsteps)
{
	for (int t = 0; t < tsteps; t++) {
		for (int i = 0; i < 3 * M; i++)
			Row[i] = Row[i + 1];
		Row[3 * M] = Row[0] + t;
	}
}

int main(void)
{
	for (int i = 0; i < M; i++)
		for (int j = 0; j < M; j++)
			U[i][j] = (double)((i * 7 + j * 3) % 11) / 11.0;
	for (int i = 0; i < 4 * M; i++)
		Row[i] = i % 5;
	copy_back(T);
	reset_accumulate(T);
	shift(T);
	print_checksum("U", U, sizeof(U));
	print_checksum("V", V, sizeof(V));
	print_checksum("W", W, sizeof(W));
	print_checksum("Row", Row, sizeof(Row));
	return 0;
}
