/* Twin of PolyBench's adi: alternating-direction implicit sweeps. Each
 * time step solves tridiagonal systems along columns then along rows,
 * each with a forward elimination (p, q) and a backward substitution that
 * runs j downwards. Coefficients are computed in scalars first. */
#include "checksum.h"

#ifndef TSTEPS
#define TSTEPS 40
#endif
#ifndef N
#define N 60
#endif

static double u[N][N], v[N][N], p[N][N], q[N][N];

__attribute__((noinline)) static void init(void)
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			u[i][j] = (double)(i + N - j) / N;
}

__attribute__((noinline)) void kernel(void)
{
	double DX, DY, DT, B1, B2, mul1, mul2, a, b, c, d, e, f;

	DX = 1.0 / (double)N;
	DY = 1.0 / (double)N;
	DT = 1.0 / (double)TSTEPS;
	B1 = 2.0;
	B2 = 1.0;
	mul1 = B1 * DT / (DX * DX);
	mul2 = B2 * DT / (DY * DY);
	a = -mul1 / 2.0;
	b = 1.0 + mul1;
	c = a;
	d = -mul2 / 2.0;
	e = 1.0 + mul2;
	f = d;

	for (int t = 1; t <= TSTEPS; t++) {
		/* Along the columns. */
		for (int i = 1; i < N - 1; i++) {
			v[0][i] = 1.0;
			p[i][0] = 0.0;
			q[i][0] = v[0][i];
			for (int j = 1; j < N - 1; j++) {
				p[i][j] = -c / (a * p[i][j - 1] + b);
				q[i][j] = (-d * u[j][i - 1] + (1.0 + 2.0 * d) * u[j][i] -
					   f * u[j][i + 1] - a * q[i][j - 1]) /
					  (a * p[i][j - 1] + b);
			}
			v[N - 1][i] = 1.0;
			for (int j = N - 2; j >= 1; j--)
				v[j][i] = p[i][j] * v[j + 1][i] + q[i][j];
		}
		/* Along the rows. */
		for (int i = 1; i < N - 1; i++) {
			u[i][0] = 1.0;
			p[i][0] = 0.0;
			q[i][0] = u[i][0];
			for (int j = 1; j < N - 1; j++) {
				p[i][j] = -f / (d * p[i][j - 1] + e);
				q[i][j] = (-a * v[i - 1][j] + (1.0 + 2.0 * a) * v[i][j] -
					   c * v[i + 1][j] - d * q[i][j - 1]) /
					  (d * p[i][j - 1] + e);
			}
			u[i][N - 1] = 1.0;
			for (int j = N - 2; j >= 1; j--)
				u[i][j] = p[i][j] * u[i][j + 1] + q[i][j];
		}
	}
}

int main(void)
{
	init();
	TIMED(kernel());
	print_checksum("u", u, sizeof(u));
	print_checksum("v", v, sizeof(v));
	print_checksum("p", p, sizeof(p));
	print_checksum("q", q, sizeof(q));
	return 0;
}
