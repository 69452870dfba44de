/* Shared by the kernels: an FNV-1a checksum over the raw bytes of an array
 * (equal outputs print equal sums; any change of rounding shows) and the
 * kernel's wall-clock time on stderr for tools/pearl-bench/clang-bench. */
#include <stdint.h>
#include <stdio.h>
#include <time.h>

static void print_checksum(const char *name, const void *data, size_t size)
{
	const unsigned char *p = data;
	uint64_t h = 1469598103934665603ull;
	size_t i;

	for (i = 0; i < size; i++)
		h = (h ^ p[i]) * 1099511628211ull;
	printf("%s %016llx\n", name, (unsigned long long)h);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* Runs `kernel` once and reports its time on stderr. */
#define TIMED(kernel)                                                        \
	do {                                                                 \
		double t0_ = now();                                          \
		kernel;                                                      \
		fprintf(stderr, "time %.6f\n", now() - t0_);                 \
	} while (0)
