/* The environment's forked runner (lib/Env/env_run.c) on plain C functions
 * standing in for JIT-compiled @init/@kernel: a normal run (times, the
 * outputs' hash, the number of runs), a run over the limit (the child says
 * so), a hang (the parent kills the child at the deadline and goes on), a
 * crash (reported, the parent survives), runs without @init on the inputs
 * pearl-exec makes (a target of an ordinary module), memo rows written
 * and read back, with a non-database file refused with a clear message,
 * and the CPU pressure read around the timed runs, of timeouts too. */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "Env/env_internal.h"
#include "pearl/codegen_version.h"

static int failures;

#define CHECK(cond)                                                           \
	do {                                                                  \
		if (!(cond)) {                                                \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, \
				__LINE__, #cond);                             \
			failures++;                                           \
		}                                                             \
	} while (0)

/* The memref descriptor of a 1-d memref (exec_args.c's layout). */
struct desc1 {
	double *allocated, *aligned;
	int64_t offset, size, stride;
};

static void init_fn(void **args)
{
	struct desc1 *a = *(struct desc1 **)args[0];
	int64_t i;

	for (i = 0; i < a->size; ++i)
		a->aligned[i] = (double)i;
}

static void kernel_fn(void **args)
{
	struct desc1 *a = *(struct desc1 **)args[0];
	int64_t i;

	for (i = 0; i < a->size; ++i)
		a->aligned[i] = 2 * a->aligned[i] + 1;
}

static void sleep_seconds(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (time_t)s) * 1e9) };

	nanosleep(&ts, NULL);
}

static void ms_fn(void **args)
{
	kernel_fn(args);
	sleep_seconds(0.001);
}

static void slow_fn(void **args)
{
	(void)args;
	sleep_seconds(0.3);
}

static void hang_fn(void **args)
{
	(void)args;
	for (;;)
		pause();
}

/* A crash (SIGABRT: the sanitizers would turn a SIGSEGV into a report and
 * an exit status, which is reported as a failed run too, but noisily). */
static void crash_fn(void **args)
{
	(void)args;
	raise(SIGABRT);
}

/* The arguments of the runs on one memref<64xf64>: init_fn fills it,
 * kernel_fn updates it, and it is the output. */
static int64_t memref64_shape[1] = { 64 };
static struct exec_type memref64_arg = { 1, exec_f64, 1, memref64_shape,
					 (char *)"memref<64xf64>" };
static struct exec_sig memref64_sig = { 1, &memref64_arg, 0, NULL };
static int memref64_outputs[1] = { 0 };

/* A request of 1 warm-up and 3 timed runs of kernel_fn on memref64_sig,
 * one thread, a 5 s limit. */
static struct env_run_request memref64_request(void)
{
	struct env_run_request req = {
		.init = init_fn, .kernel = kernel_fn, .sig = &memref64_sig,
		.outputs = memref64_outputs, .n_outputs = 1, .warmup = 1,
		.runs = 3, .threads = 1, .limit = 5.0, .init_allowance = 0.1
	};

	return req;
}

/* The CPU pressure file of check_pressure, which pressure_fn's runs
 * advance: as if some task had waited for a CPU all through them. */
static char pressure_file[600];
static long long pressure_total;

static void write_pressure(const char *first_line)
{
	FILE *f = fopen(pressure_file, "w");

	if (!f)
		return;
	fprintf(f, "%s\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",
		first_line);
	fclose(f);
}

static void write_total(long long total)
{
	char line[128];

	snprintf(line, sizeof(line),
		 "some avg10=1.50 avg60=0.67 avg300=0.27 total=%lld", total);
	write_pressure(line);
}

/* Runs 2 ms, during which "some task waited" 3 ms in all (two CPUs'
 * worth of waiting counted once: the total may pass the wall time). */
static void pressure_fn(void **args)
{
	kernel_fn(args);
	sleep_seconds(0.002);
	pressure_total += 3000;
	write_total(pressure_total);
}

/* env_cpu_stall_us reads the "some" total of /proc/pressure/cpu's
 * format and refuses anything else; a run reports the stalled fraction
 * of its runs' time, NAN without a file, and the test hook's value when
 * set. */
static void check_pressure(const char *dir)
{
	struct env_run_request req = memref64_request();
	struct env_run_result res;

	snprintf(pressure_file, sizeof(pressure_file), "%s/pressure", dir);
	write_total(1640044344);
	CHECK(env_cpu_stall_us(pressure_file) == 1640044344LL);
	CHECK(env_cpu_stall_us(NULL) == -1);
	write_pressure("full avg10=0.00 avg60=0.00 avg300=0.00 total=5");
	CHECK(env_cpu_stall_us(pressure_file) == -1);
	write_pressure("some avg10=0.00 avg60=0.00 avg300=0.00");
	CHECK(env_cpu_stall_us(pressure_file) == -1); /* not the full line's */
	write_pressure("some avg10=0.00 total=-4");
	CHECK(env_cpu_stall_us(pressure_file) == -1);
	unlink(pressure_file);
	CHECK(env_cpu_stall_us(pressure_file) == -1);

	/* No file: unknown. A file nothing advances: 0. */
	req.pressure_path = pressure_file;
	CHECK(env_run(&req, &res) == 0);
	CHECK(res.status == env_run_ok && isnan(res.pressure));
	write_total(1000);
	CHECK(env_run(&req, &res) == 0);
	CHECK(res.status == env_run_ok && res.pressure == 0);

	/* Each run advances the total by 3 ms over its 2 ms (or a little
	 * more): the fraction is 1.5 or a little less. */
	pressure_total = 1000;
	req.kernel = pressure_fn;
	CHECK(env_run(&req, &res) == 0);
	CHECK(res.status == env_run_ok);
	CHECK(res.pressure > 0.3 && res.pressure <= 1.5 + 1e-9);

	/* A timeout has its pressure too: up to the run past the limit, or
	 * the parent's reading from the fork to the kill of a hung child
	 * (0 here, not NAN: the file is read, nothing advances it). */
	req.kernel = slow_fn;
	req.limit = 0.1;
	CHECK(env_run(&req, &res) == 0);
	CHECK(res.status == env_run_timeout && res.pressure == 0);
	req.kernel = hang_fn;
	CHECK(env_run(&req, &res) == 0);
	CHECK(res.status == env_run_timeout && res.pressure == 0);
	CHECK(strstr(res.message, "killed") != NULL);
	req.limit = 5.0;

	/* The test hook replaces the reading, of timeouts too. */
	req.kernel = kernel_fn;
	req.test_pressure = 0.25;
	CHECK(env_run(&req, &res) == 0);
	CHECK(res.status == env_run_ok && res.pressure == 0.25);
	req.kernel = hang_fn;
	req.limit = 0.1;
	CHECK(env_run(&req, &res) == 0);
	CHECK(res.status == env_run_timeout && res.pressure == 0.25);
	unlink(pressure_file);
}

static void check_runner(void)
{
	struct env_run_request req = memref64_request();
	struct env_run_result res, res2;
	double t0;

	CHECK(env_run(&req, &res) == 0);
	CHECK(res.status == env_run_ok);
	CHECK(res.executions == 4);
	CHECK(res.best >= 0 && res.best < 1.0);
	CHECK(res.init >= 0);
	CHECK(env_run(&req, &res2) == 0);
	CHECK(res2.status == env_run_ok && res2.hash == res.hash);
	req.test_corrupt = 1;
	CHECK(env_run(&req, &res2) == 0);
	CHECK(res2.status == env_run_ok && res2.hash != res.hash);
	req.test_corrupt = 0;

	/* Warm-up by time: a kernel of at least 1 ms stops warming up after
	 * 10 ms, after 10 runs or so (fewer on a loaded machine); one of 64
	 * flops that cannot reach the time stops at WARMUP_MAX_RUNS
	 * (1000). */
	req.kernel = ms_fn;
	req.warmup_seconds = 0.01;
	CHECK(env_run(&req, &res2) == 0);
	CHECK(res2.status == env_run_ok && res2.hash == res.hash);
	CHECK(res2.executions >= 1 + 3 && res2.executions <= 11 + 3);
	req.kernel = kernel_fn;
	req.warmup_seconds = 1000;
	CHECK(env_run(&req, &res) == 0);
	CHECK(res.status == env_run_ok && res.executions == 1003);
	req.warmup_seconds = 0;

	/* Over the limit, but finishing: the child reports it. */
	req.kernel = slow_fn;
	req.limit = 0.1;
	CHECK(env_run(&req, &res) == 0);
	CHECK(res.status == env_run_timeout);
	CHECK(res.executions == 1);
	CHECK(res.best >= 0.1);

	/* A hang: killed at limit + allowance + 1 s. */
	req.kernel = hang_fn;
	t0 = pearl_now();
	CHECK(env_run(&req, &res) == 0);
	CHECK(res.status == env_run_timeout);
	CHECK(pearl_now() - t0 < 5.0);
	CHECK(strstr(res.message, "killed") != NULL);

	/* A crash of the generated code. */
	req.kernel = crash_fn;
	req.limit = 5.0;
	CHECK(env_run(&req, &res) == 0);
	CHECK(res.status == env_run_crash);
	CHECK(strstr(res.message, "signal 6") != NULL);
	if (failures)
		fprintf(stderr, "last message: %s\n", res.message);
}

/* Without @init (a target of an ordinary module): pearl-exec's inputs,
 * with `size` for the `?` dimension, copied in before every run: the
 * outputs are the kernel's on exec_frame_init's values, however many runs
 * there were, and depend on the size. */
static void check_synthesized(void)
{
	int64_t shape[1] = { -1 };
	struct exec_type arg = { 1, exec_f64, 1, shape, (char *)"memref<?xf64>" };
	struct exec_sig sig = { 1, &arg, 0, NULL };
	int outputs[1] = { 0 };
	struct env_run_request req = {
		.kernel = kernel_fn, .sig = &sig, .size = 16,
		.outputs = outputs, .n_outputs = 1, .hash_all = 1,
		.warmup = 1, .runs = 1, .threads = 1, .limit = 5.0,
		.init_allowance = 0.1
	};
	struct env_run_result res, res2;
	struct exec_frame *expect;
	struct exec_err e;

	CHECK(env_run(&req, &res) == 0);
	CHECK(res.status == env_run_ok && res.executions == 2);
	req.runs = 5;
	CHECK(env_run(&req, &res2) == 0);
	CHECK(res2.status == env_run_ok && res2.hash == res.hash);
	expect = exec_frame_alloc(&sig, 16, &e);
	CHECK(expect != NULL);
	if (expect) {
		exec_frame_init(expect, 16);
		kernel_fn(exec_frame_packed(expect));
		CHECK(exec_frame_hash(expect, NULL, 0) == res.hash);
		exec_frame_free(expect);
	}
	req.size = 8;
	CHECK(env_run(&req, &res2) == 0);
	CHECK(res2.status == env_run_ok && res2.hash != res.hash);
}

static void check_memo(const char *dir)
{
	char path[512], bad[512], err[512] = "";
	struct env_memo_row row = { PEARL_ENV_OK, 0.25, 0.5, 0.01,
				    0x0123456789abcdefULL, "", 0 };
	struct env_memo_row got;
	struct pearl_env_memo_summary s;
	struct env_memo *m;
	FILE *f;

	snprintf(path, sizeof(path), "%s/memo.sqlite", dir);
	snprintf(bad, sizeof(bad), "%s/bad.sqlite", dir);
	m = env_memo_open(path, err, sizeof(err));
	CHECK(m != NULL);
	if (!m)
		return;
	CHECK(env_memo_get(m, "p1", "P(0)", "mach", &got, err,
			   sizeof(err)) == 0);
	CHECK(env_memo_put(m, "p1", "prog one", "P(0)", "mach", &row, err,
			   sizeof(err)) == 0);
	row.status = PEARL_ENV_ILLEGAL;
	snprintf(row.message, sizeof(row.message), "refused");
	CHECK(env_memo_put(m, "p1", "prog one", "R(0)", ENV_ANY_MACHINE, &row,
			   err, sizeof(err)) == 0);
	CHECK(env_memo_get(m, "p1", "P(0)", "mach", &got, err,
			   sizeof(err)) == 1);
	CHECK(got.status == PEARL_ENV_OK && got.seconds == 0.25 &&
	      got.cpu_seconds == 0.5 &&
	      got.output_hash == 0x0123456789abcdefULL &&
	      got.codegen == PEARL_CODEGEN_VERSION);
	CHECK(env_memo_get(m, "p1", "P(0)", "other", &got, err,
			   sizeof(err)) == 0);
	CHECK(env_memo_get(m, "p1", "R(0)", ENV_ANY_MACHINE, &got, err,
			   sizeof(err)) == 1);
	CHECK(got.status == PEARL_ENV_ILLEGAL &&
	      strcmp(got.message, "refused") == 0);
	env_memo_close(m);
	CHECK(pearl_env_memo_summary(path, &s, err, sizeof(err)) == 0);
	CHECK(s.rows == 2 && s.programs == 1 && s.schedules == 2 &&
	      s.machines == 1 && s.illegal == 1);

	f = fopen(bad, "w");
	CHECK(f != NULL);
	if (f) {
		fputs("this is not an SQLite database, but it is long enough "
		      "to have a header of one hundred bytes at least, which "
		      "SQLite reads first.\n", f);
		fclose(f);
	}
	err[0] = '\0';
	CHECK(env_memo_open(bad, err, sizeof(err)) == NULL);
	CHECK(strstr(err, "not a database") != NULL);
	unlink(path);
	unlink(bad);
}

int main(void)
{
	char dir[] = "/tmp/pearl-test-env-XXXXXX";

	check_runner();
	check_synthesized();
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	check_memo(dir);
	check_pressure(dir);
	{
		char p[600];

		snprintf(p, sizeof(p), "%s/memo.sqlite-wal", dir);
		unlink(p);
		snprintf(p, sizeof(p), "%s/memo.sqlite-shm", dir);
		unlink(p);
	}
	rmdir(dir);
	if (failures) {
		fprintf(stderr, "test_env_run: %d failure(s)\n", failures);
		return 1;
	}
	printf("test_env_run: ok\n");
	return 0;
}
