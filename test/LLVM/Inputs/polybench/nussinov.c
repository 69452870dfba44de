/* Twin of PolyBench's nussinov: RNA secondary-structure dynamic
 * programming on an int table. i runs downwards, j upwards from i + 1;
 * guarded max updates from the neighbours, a base-pair match, and a
 * reduction over the split point k. */
#include "checksum.h"

#ifndef N
#define N 180
#endif

#define max_score(a, b) ((a) >= (b) ? (a) : (b))
#define match(b1, b2) (((b1) + (b2)) == 3 ? 1 : 0)

static char seq[N];
static int table[N][N];

__attribute__((noinline)) static void init(void)
{
	for (int i = 0; i < N; i++)
		seq[i] = (char)((i + 1) % 4);
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			table[i][j] = 0;
}

__attribute__((noinline)) void kernel(void)
{
	for (int i = N - 1; i >= 0; i--)
		for (int j = i + 1; j < N; j++) {
			if (j - 1 >= 0)
				table[i][j] = max_score(table[i][j], table[i][j - 1]);
			if (i + 1 < N)
				table[i][j] = max_score(table[i][j], table[i + 1][j]);
			if (j - 1 >= 0 && i + 1 < N) {
				if (i < j - 1)
					table[i][j] = max_score(table[i][j],
								table[i + 1][j - 1] + match(seq[i], seq[j]));
				else
					table[i][j] = max_score(table[i][j], table[i + 1][j - 1]);
			}
			for (int k = i + 1; k < j; k++)
				table[i][j] = max_score(table[i][j], table[i][k] + table[k + 1][j]);
		}
}

int main(void)
{
	init();
	TIMED(kernel());
	print_checksum("table", table, sizeof(table));
	return 0;
}
