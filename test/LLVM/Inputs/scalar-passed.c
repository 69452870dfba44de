/* A scalar passed between statements: clang hoists the load of B[i1][i0]
 * out of nest 0's inner loop, and beside nests 1 and 2 Polly's ForwardOpTree
 * gives up on it (its quota), so the Scop keeps a scalar that the plugin
 * models as an element of its array of scalars (scalar-passed.test).
 * pearl-gen's program 1478 at the train scale, as C: */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

__attribute__((unused)) static inline int pg_max(int a, int b)
{
	return a > b ? a : b;
}
__attribute__((unused)) static inline int pg_min(int a, int b)
{
	return a < b ? a : b;
}

static void print_checksum(const char *name, const void *data, size_t size)
{
	const unsigned char *p = data;
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < size; i++)
		h = (h ^ p[i]) * 1099511628211ull;
	printf("%s %016llx\n", name, (unsigned long long)h);
}

static int A[237][285];
static int B[285][285];
static int C[237][285];
static int D[237][285];

static void init(void)
{
	for (long x0 = 0; x0 < 237; x0++)
		for (long x1 = 0; x1 < 285; x1++)
			A[x0][x1] = (int)((x0 * 1 + x1 * 3 + 1) % 13 - 6);
	for (long x0 = 0; x0 < 285; x0++)
		for (long x1 = 0; x1 < 285; x1++)
			B[x0][x1] = (int)((x0 * 3 + x1 * 5 + 2) % 17 - 8);
	for (long x0 = 0; x0 < 237; x0++)
		for (long x1 = 0; x1 < 285; x1++)
			C[x0][x1] = (int)((x0 * 5 + x1 * 7 + 3) % 23 - 11);
	for (long x0 = 0; x0 < 237; x0++)
		for (long x1 = 0; x1 < 285; x1++)
			D[x0][x1] = (int)((x0 * 7 + x1 * 11 + 4) % 29 - 14);
}

__attribute__((noinline)) void kernel(void)
{
	/* nest 0: contraction: matmul kji, B^T */
	for (int i0 = 0; i0 < 285; i0 += 1) {
		for (int i1 = 0; i1 < 285; i1 += 1) {
			for (int i2 = 0; i2 < 237; i2 += 1) {
				C[i2][i1] = (int)((unsigned)C[i2][i1] + (unsigned)(int)((unsigned)A[i2][i0] * (unsigned)B[i1][i0]));
			}
		}
	}
	/* nest 1: stencil: rank 2, 9 points, radius 2 */
	for (int i0 = 2; i0 < 235; i0 += 1) {
		for (int i1 = 2; i1 < 283; i1 += 1) {
			D[i0][i1] = ((int)((unsigned)(int)((unsigned)(int)((unsigned)(int)((unsigned)(int)((unsigned)(int)((unsigned)(int)((unsigned)(int)((unsigned)C[i0][i1] + (unsigned)C[i0 - 1][i1]) + (unsigned)C[i0 + 1][i1]) + (unsigned)C[i0 - 2][i1]) + (unsigned)C[i0 + 2][i1]) + (unsigned)C[i0][i1 - 1]) + (unsigned)C[i0][i1 + 1]) + (unsigned)C[i0][i1 - 2]) + (unsigned)C[i0][i1 + 2]) / 9);
		}
	}
	/* nest 2: stencil: rank 2, 9 points (box), Gauss-Seidel */
	for (int i0 = 1; i0 < 236; i0 += 1) {
		for (int i1 = 1; i1 < 284; i1 += 1) {
			C[i0][i1] = ((int)((unsigned)(int)((unsigned)(int)((unsigned)(int)((unsigned)(int)((unsigned)(int)((unsigned)(int)((unsigned)(int)((unsigned)C[i0][i1] + (unsigned)C[i0 - 1][i1 - 1]) + (unsigned)C[i0 - 1][i1]) + (unsigned)C[i0 - 1][i1 + 1]) + (unsigned)C[i0][i1 - 1]) + (unsigned)C[i0][i1 + 1]) + (unsigned)C[i0 + 1][i1 - 1]) + (unsigned)C[i0 + 1][i1]) + (unsigned)C[i0 + 1][i1 + 1]) / 9);
		}
	}
}

int main(void)
{
	init();
	kernel();
	print_checksum("C", C, sizeof(C));
	print_checksum("D", D, sizeof(D));
	return 0;
}
