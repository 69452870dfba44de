/* Twin of PolyBench's covariance: column means, centering of the data in
 * place, then the upper triangle of the covariance matrix (j from i)
 * scaled and mirrored. */
#include "checksum.h"

#ifndef M
#define M 80
#endif
#ifndef N
#define N 100
#endif

static double data[N][M], cov[M][M], mean[M];
static double float_n;

__attribute__((noinline)) static void init(void)
{
	float_n = (double)N;
	for (int i = 0; i < N; i++)
		for (int j = 0; j < M; j++)
			data[i][j] = ((double)i * j) / M;
}

__attribute__((noinline)) void kernel(void)
{
	for (int j = 0; j < M; j++) {
		mean[j] = 0.0;
		for (int i = 0; i < N; i++)
			mean[j] += data[i][j];
		mean[j] /= float_n;
	}
	for (int i = 0; i < N; i++)
		for (int j = 0; j < M; j++)
			data[i][j] -= mean[j];
	for (int i = 0; i < M; i++)
		for (int j = i; j < M; j++) {
			cov[i][j] = 0.0;
			for (int k = 0; k < N; k++)
				cov[i][j] += data[k][i] * data[k][j];
			cov[i][j] /= (float_n - 1.0);
			cov[j][i] = cov[i][j];
		}
}

int main(void)
{
	init();
	TIMED(kernel());
	print_checksum("mean", mean, sizeof(mean));
	print_checksum("data", data, sizeof(data));
	print_checksum("cov", cov, sizeof(cov));
	return 0;
}
