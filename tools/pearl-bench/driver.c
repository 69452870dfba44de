/* pearl-bench's timing driver, linked with a kernel's generated glue
 * (glue.c: buffer sizes and the calls of @init and @kernel) and the lowered
 * MLIR functions.
 *
 *   driver [--warmup W] [--runs R] [--min-seconds S] [--dump FILE]
 *          [--corrupt]
 *
 * Allocates every buffer (64-byte aligned), then W warm-up runs and R timed
 * runs, and more timed runs (up to DRIVER_MAX_RUNS) until the timed runs
 * add up to S seconds: a kernel of a tenth of a millisecond gets hundreds
 * of runs, so that its minimum is as trustworthy as a long kernel's; before each run every buffer is zeroed and @init is called (not
 * timed), then @kernel is timed with clock_gettime(CLOCK_MONOTONIC). Prints
 *
 *   run <i> <seconds>                      (one line per timed run)
 *   output <arg> <bytes> <fnv-1a 64 hex>   (one line per output buffer)
 *
 * and with --dump writes the raw bytes of the output buffers, in argument
 * order, to FILE. The outputs are those of the last timed run, i.e. of one
 * call of @kernel after @init. --corrupt (a test hook of pearl-bench's own
 * tests) flips one bit of the first output before it is hashed and dumped,
 * to check that a wrong result is detected.
 *
 * Exit status: 0 on success, 1 on bad arguments, 2 when memory or the dump
 * file is not available. The options are parsed by the tools' parser
 * (pearl/options.h), which pearl-bench compiles beside this file.
 */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pearl/options.h"

/* The most timed runs --min-seconds asks for. */
#define DRIVER_MAX_RUNS 10000

/* From glue.c. */
extern const int bench_nbufs;
extern const size_t bench_bytes[];
extern const int bench_is_output[];
void bench_init(void **bufs);
void bench_kernel(void **bufs);

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t fnv1a(const unsigned char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < n; ++i) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

static void prepare(void **bufs)
{
	for (int b = 0; b < bench_nbufs; ++b)
		memset(bufs[b], 0, bench_bytes[b]);
	bench_init(bufs);
}

static void usage(FILE *out)
{
	fprintf(out, "usage: driver [--warmup W] [--runs R] [--min-seconds S] "
		     "[--dump FILE] [--corrupt]\n");
}

int main(int argc, char **argv)
{
	int warmup = 1, runs = 5, corrupt = 0;
	double min_seconds = 0, total = 0;
	const char *dump = NULL;
	void **bufs;
	const struct pearl_option table[] = {
	    PEARL_OPTION_INT("warmup", &warmup, 0, INT_MAX),
	    PEARL_OPTION_INT("runs", &runs, 1, INT_MAX),
	    PEARL_OPTION_DOUBLE_RANGE("min-seconds", &min_seconds, 0, HUGE_VAL),
	    PEARL_OPTION_STRING("dump", &dump),
	    PEARL_OPTION_FLAG("corrupt", &corrupt),
	    PEARL_OPTION_END,
	};
	struct pearl_options_result res = {0};
	int r = pearl_options_parse_or_say("driver", 0, table, 0, argc, argv,
					   &res);

	r = pearl_options_exit_status(r, &usage, 1);
	if (r >= 0)
		return r;

	bufs = calloc((size_t)bench_nbufs + 1, sizeof(*bufs));
	if (!bufs)
		return 2;
	for (int b = 0; b < bench_nbufs; ++b) {
		size_t bytes = (bench_bytes[b] + 63) / 64 * 64;

		bufs[b] = aligned_alloc(64, bytes ? bytes : 64);
		if (!bufs[b]) {
			fprintf(stderr, "driver: cannot allocate %zu bytes\n", bytes);
			return 2;
		}
	}

	for (int r = 0; r < warmup; ++r) {
		prepare(bufs);
		bench_kernel(bufs);
	}
	for (int r = 0; r < runs || (total < min_seconds &&
				     r < DRIVER_MAX_RUNS); ++r) {
		double t0, t1;

		prepare(bufs);
		t0 = now();
		bench_kernel(bufs);
		t1 = now();
		total += t1 - t0;
		printf("run %d %.9f\n", r, t1 - t0);
		fflush(stdout);
	}

	if (corrupt) {
		for (int b = 0; b < bench_nbufs; ++b)
			if (bench_is_output[b] && bench_bytes[b]) {
				((unsigned char *)bufs[b])[bench_bytes[b] / 2] ^= 1;
				break;
			}
	}

	FILE *f = NULL;
	if (dump) {
		f = fopen(dump, "wb");
		if (!f) {
			perror(dump);
			return 2;
		}
	}
	for (int b = 0; b < bench_nbufs; ++b) {
		if (!bench_is_output[b])
			continue;
		printf("output %d %zu %016llx\n", b, bench_bytes[b],
		       (unsigned long long)fnv1a(bufs[b], bench_bytes[b]));
		if (f && fwrite(bufs[b], 1, bench_bytes[b], f) != bench_bytes[b]) {
			perror(dump);
			return 2;
		}
	}
	if (f && fclose(f)) {
		perror(dump);
		return 2;
	}
	for (int b = 0; b < bench_nbufs; ++b)
		free(bufs[b]);
	free(bufs);
	return 0;
}
