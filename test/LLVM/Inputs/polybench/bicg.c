/* Twin of PolyBench's bicg: s = A^T r and q = A p in one nest; s is
 * reduced across the outer loop, q across the inner one. */
#include "checksum.h"

#ifndef M
#define M 116
#endif
#ifndef N
#define N 124
#endif

static double A[N][M], s[M], q[N], p[M], r[N];

__attribute__((noinline)) static void init(void)
{
	for (int i = 0; i < M; i++)
		p[i] = (double)(i % M) / M;
	for (int i = 0; i < N; i++) {
		r[i] = (double)(i % N) / N;
		for (int j = 0; j < M; j++)
			A[i][j] = (double)(i * (j + 1) % N) / N;
	}
}

__attribute__((noinline)) void kernel(void)
{
	for (int i = 0; i < M; i++)
		s[i] = 0;
	for (int i = 0; i < N; i++) {
		q[i] = 0.0;
		for (int j = 0; j < M; j++) {
			s[j] = s[j] + r[i] * A[i][j];
			q[i] = q[i] + A[i][j] * p[j];
		}
	}
}

int main(void)
{
	init();
	TIMED(kernel());
	print_checksum("s", s, sizeof(s));
	print_checksum("q", q, sizeof(q));
	return 0;
}
