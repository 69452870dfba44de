/* Twin of PolyBench's deriche: recursive Gaussian-like edge filter on a
 * float image. Coefficients from expf and powf, then four 1-D recursive
 * passes (left-to-right, right-to-left, top-down, bottom-up) whose state
 * lives in scalars carried across the inner loop, and two combining
 * nests. */
#include <math.h>

#include "checksum.h"

#ifndef W
#define W 128
#endif
#ifndef H
#define H 64
#endif

static float imgIn[W][H], imgOut[W][H], Y1[W][H], Y2[W][H];
static float alpha;

__attribute__((noinline)) static void init(void)
{
	alpha = 0.25f;
	for (int i = 0; i < W; i++)
		for (int j = 0; j < H; j++)
			imgIn[i][j] = (float)((313 * i + 991 * j) % 65536) / 65535.0f;
}

__attribute__((noinline)) void kernel(void)
{
	float xm1, tm1, ym1, ym2;
	float xp1, xp2, tp1, tp2, yp1, yp2;
	float k, a1, a2, a3, a4, a5, a6, a7, a8, b1, b2, c1, c2;

	k = (1.0f - expf(-alpha)) * (1.0f - expf(-alpha)) /
	    (1.0f + 2.0f * alpha * expf(-alpha) - expf(-2.0f * alpha));
	a1 = a5 = k;
	a2 = a6 = k * expf(-alpha) * (alpha - 1.0f);
	a3 = a7 = k * expf(-alpha) * (alpha + 1.0f);
	a4 = a8 = -k * expf(-2.0f * alpha);
	b1 = powf(2.0f, -alpha);
	b2 = -expf(-2.0f * alpha);
	c1 = c2 = 1;

	for (int i = 0; i < W; i++) {
		ym1 = 0.0f;
		ym2 = 0.0f;
		xm1 = 0.0f;
		for (int j = 0; j < H; j++) {
			Y1[i][j] = a1 * imgIn[i][j] + a2 * xm1 + b1 * ym1 + b2 * ym2;
			xm1 = imgIn[i][j];
			ym2 = ym1;
			ym1 = Y1[i][j];
		}
	}
	for (int i = 0; i < W; i++) {
		yp1 = 0.0f;
		yp2 = 0.0f;
		xp1 = 0.0f;
		xp2 = 0.0f;
		for (int j = H - 1; j >= 0; j--) {
			Y2[i][j] = a3 * xp1 + a4 * xp2 + b1 * yp1 + b2 * yp2;
			xp2 = xp1;
			xp1 = imgIn[i][j];
			yp2 = yp1;
			yp1 = Y2[i][j];
		}
	}
	for (int i = 0; i < W; i++)
		for (int j = 0; j < H; j++)
			imgOut[i][j] = c1 * (Y1[i][j] + Y2[i][j]);
	for (int j = 0; j < H; j++) {
		tm1 = 0.0f;
		ym1 = 0.0f;
		ym2 = 0.0f;
		for (int i = 0; i < W; i++) {
			Y1[i][j] = a5 * imgOut[i][j] + a6 * tm1 + b1 * ym1 + b2 * ym2;
			tm1 = imgOut[i][j];
			ym2 = ym1;
			ym1 = Y1[i][j];
		}
	}
	for (int j = 0; j < H; j++) {
		tp1 = 0.0f;
		tp2 = 0.0f;
		yp1 = 0.0f;
		yp2 = 0.0f;
		for (int i = W - 1; i >= 0; i--) {
			Y2[i][j] = a7 * tp1 + a8 * tp2 + b1 * yp1 + b2 * yp2;
			tp2 = tp1;
			tp1 = imgOut[i][j];
			yp2 = yp1;
			yp1 = Y2[i][j];
		}
	}
	for (int i = 0; i < W; i++)
		for (int j = 0; j < H; j++)
			imgOut[i][j] = c2 * (Y1[i][j] + Y2[i][j]);
}

int main(void)
{
	init();
	TIMED(kernel());
	print_checksum("Y1", Y1, sizeof(Y1));
	print_checksum("Y2", Y2, sizeof(Y2));
	print_checksum("imgOut", imgOut, sizeof(imgOut));
	return 0;
}
