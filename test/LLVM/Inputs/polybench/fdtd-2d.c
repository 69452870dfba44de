/* Twin of PolyBench's fdtd-2d: 2-D finite-difference time domain. Per
 * time step a boundary row of ey from a source array indexed by t, then
 * updates of ey, ex and hz with shifted bounds. */
#include "checksum.h"

#ifndef TMAX
#define TMAX 40
#endif
#ifndef NX
#define NX 60
#endif
#ifndef NY
#define NY 80
#endif

static double ex[NX][NY], ey[NX][NY], hz[NX][NY], fict[TMAX];

__attribute__((noinline)) static void init(void)
{
	for (int t = 0; t < TMAX; t++)
		fict[t] = (double)t;
	for (int i = 0; i < NX; i++)
		for (int j = 0; j < NY; j++) {
			ex[i][j] = ((double)i * (j + 1)) / NX;
			ey[i][j] = ((double)i * (j + 2)) / NY;
			hz[i][j] = ((double)i * (j + 3)) / NX;
		}
}

__attribute__((noinline)) void kernel(void)
{
	for (int t = 0; t < TMAX; t++) {
		for (int j = 0; j < NY; j++)
			ey[0][j] = fict[t];
		for (int i = 1; i < NX; i++)
			for (int j = 0; j < NY; j++)
				ey[i][j] = ey[i][j] - 0.5 * (hz[i][j] - hz[i - 1][j]);
		for (int i = 0; i < NX; i++)
			for (int j = 1; j < NY; j++)
				ex[i][j] = ex[i][j] - 0.5 * (hz[i][j] - hz[i][j - 1]);
		for (int i = 0; i < NX - 1; i++)
			for (int j = 0; j < NY - 1; j++)
				hz[i][j] = hz[i][j] - 0.7 * (ex[i][j + 1] - ex[i][j] +
							     ey[i + 1][j] - ey[i][j]);
	}
}

int main(void)
{
	init();
	TIMED(kernel());
	print_checksum("ex", ex, sizeof(ex));
	print_checksum("ey", ey, sizeof(ey));
	print_checksum("hz", hz, sizeof(hz));
	return 0;
}
