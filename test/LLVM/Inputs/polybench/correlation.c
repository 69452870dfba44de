/* Twin of PolyBench's correlation: column means, standard deviations
 * (sqrt, with a guard against near-zero deviations as a conditional
 * expression), normalization of the data in place, then the upper
 * triangle of the correlation matrix mirrored to the lower one. */
#include <math.h>

#include "checksum.h"

#ifndef M
#define M 80
#endif
#ifndef N
#define N 100
#endif

static double data[N][M], corr[M][M], mean[M], stddev[M];
static double float_n;

__attribute__((noinline)) static void init(void)
{
	float_n = (double)N;
	for (int i = 0; i < N; i++)
		for (int j = 0; j < M; j++)
			data[i][j] = (double)(i * j) / M + i;
	/* One constant column: its deviation takes the guarded branch. */
	for (int i = 0; i < N; i++)
		data[i][M / 2] = 3.0;
}

__attribute__((noinline)) void kernel(void)
{
	double eps = 0.1;

	for (int j = 0; j < M; j++) {
		mean[j] = 0.0;
		for (int i = 0; i < N; i++)
			mean[j] += data[i][j];
		mean[j] /= float_n;
	}
	for (int j = 0; j < M; j++) {
		stddev[j] = 0.0;
		for (int i = 0; i < N; i++)
			stddev[j] += (data[i][j] - mean[j]) * (data[i][j] - mean[j]);
		stddev[j] /= float_n;
		stddev[j] = sqrt(stddev[j]);
		stddev[j] = stddev[j] <= eps ? 1.0 : stddev[j];
	}
	for (int i = 0; i < N; i++)
		for (int j = 0; j < M; j++) {
			data[i][j] -= mean[j];
			data[i][j] /= sqrt(float_n) * stddev[j];
		}
	for (int i = 0; i < M - 1; i++) {
		corr[i][i] = 1.0;
		for (int j = i + 1; j < M; j++) {
			corr[i][j] = 0.0;
			for (int k = 0; k < N; k++)
				corr[i][j] += data[k][i] * data[k][j];
			corr[j][i] = corr[i][j];
		}
	}
	corr[M - 1][M - 1] = 1.0;
}

int main(void)
{
	init();
	TIMED(kernel());
	print_checksum("mean", mean, sizeof(mean));
	print_checksum("stddev", stddev, sizeof(stddev));
	print_checksum("data", data, sizeof(data));
	print_checksum("corr", corr, sizeof(corr));
	return 0;
}
