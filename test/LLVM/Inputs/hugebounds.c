/* Loops whose bounds are near 2^62 and a step of 2^62 (the integer-limit
 * cases of the MLIR path, as C): skews and reversals must not overflow. */
#include "checksum.h"

static long H[8], G[8];

__attribute__((noinline)) void huge_bounds(long base, long n, long m)
{
	for (long i = base; i < base + n; i++)
		for (long j = base; j < base + m; j++)
			H[(i - base) * 2 + (j - base)] += i - j + (i & 7) * 3;
}

__attribute__((noinline)) void huge_step(long lo)
{
	for (long k = lo; k < 1; k += 4611686018427387904L)
		G[k / 4611686018427387904L + 2] += k;
}

int main(void)
{
	huge_bounds(4611686018427387900L, 4, 2);
	huge_step(-9223372036854775807L);
	print_checksum("H", H, sizeof(H));
	print_checksum("G", G, sizeof(G));
	return 0;
}
