/*
 * pearl-fuzz - differential fuzzing of Pearl's schedules (README.md).
 *
 *   pearl-fuzz [--seconds S | --pairs N | --programs N] [--seed S]
 *              [--size-scale small|train|wide|cache] [--schedules-per-program K]
 *              [--out DIR] [--log FILE] [options]
 *
 * Draws programs from pearl-gen (seeds S, S+1, ...), and for each a set of
 * schedules (the compiled-in policy's, greedy and sampled, and random ones
 * in Pearl's notation), runs every pair in Pearl's environment against the
 * unscheduled program, counts what came of it, and keeps every failure as
 * a minimized reproducer in DIR. Progress goes to stderr, the summary to
 * stdout. Exit status: 0 if no WRONG_OUTPUT, CRASH, HANG or COMPILE_FAILED
 * was found, 1 if one was, 2 on a usage error or an error of the fuzzer
 * itself.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "pearl/gen.h"
#include "pearl/options.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: pearl-fuzz [options]\n"
		"Differential fuzzing of Pearl's schedules: random programs, "
		"each run unscheduled\nand under many schedules, outputs "
		"compared bit for bit.\n"
		"  --seconds S               stop after S seconds\n"
		"  --pairs N                 stop after N legal pairs\n"
		"  --programs N              stop after N programs\n"
		"                            (none of the three: --seconds 60)\n"
		"  --seed S                  first program seed (default 1)\n"
		"  --size-scale small|train|wide|cache  program sizes (default "
		"small)\n"
		"  --schedules-per-program K schedules per program (default "
		"12)\n"
		"  --out DIR                 reproducers and summary.txt\n"
		"  --log FILE                one line per pair: program, "
		"class, schedule\n"
		"  --path mlir|c             the path under test (default "
		"mlir): c compiles the\n"
		"                            programs as C with clang -O3, "
		"alone and with the\n"
		"                            plugin (use --size-scale train)\n"
		"  --clang PATH, --plugin PATH  the C path's clang and "
		"PearlLLVMPlugin.so\n"
		"                            (default: the build's)\n"
		"  --threads N               OpenMP threads of the runs "
		"(default 2)\n"
		"  --timeout S               a run slower than S seconds "
		"hangs (default 10)\n"
		"  --hang-seconds S          a worker silent for S seconds "
		"hangs (default 120)\n"
		"  --slow-seconds S          a pair this long is counted as "
		"slow (default 10)\n"
		"  --minimize-tests N        tests per minimization (default "
		"200)\n"
		"  --minimize-seconds S      seconds per minimization "
		"(default 60)\n"
		"  --minimize-limit N        failures minimized per kind "
		"(default 5; 0: none)\n"
		"  --kernels FILE,...        the MLIR path: fuzz these "
		"kernel-contract modules\n"
		"                            (expanded pearl-bench kernels) "
		"instead of pearl-gen's\n"
		"                            programs; program S is file S "
		"mod their number\n"
		"  --schedule S              run schedule S alone on every "
		"program (reproduce and\n"
		"                            minimize a known failure)\n"
		"  --confirm-runs N          runs of each failure's final "
		"schedule again (default\n"
		"                            3): flaky failures show\n"
		"  --memo FILE               the environment's memo database "
		"(default: none)\n"
		"  --progress S              progress every S seconds "
		"(default 10; 0: quiet)\n"
		"  --inject-failure TEXT     test hook: a legal pair whose "
		"schedule contains TEXT\n"
		"                            is a WRONG_OUTPUT (tests the "
		"minimizer)\n"
		"  --inject-crash TEXT       test hook: the worker aborts on "
		"such a pair\n"
		"  --inject-hang TEXT        test hook: the worker stops "
		"answering on such a pair\n");
}

/* --size-scale small|train|wide|cache */
static int parse_scale(const char *value, void *dest)
{
	enum pearl_gen_scale scale;

	if (pearl_gen_scale_parse(value, &scale) < 0)
		return pearl_option_bad_value;
	*(int *)dest = scale;
	return pearl_option_ok;
}

/* --path mlir|c: the driver of the path under test. */
static int parse_path(const char *value, void *dest)
{
	struct fuzz_options *o = dest;

	o->driver = fuzz_driver_find(value);
	o->cfg.path = value;
	return o->driver ? pearl_option_ok : pearl_option_bad_value;
}

/* --kernels FILE,FILE,...: the files, each readable, into the config's
 * list. */
static int parse_kernels(const char *value, void *dest)
{
	struct fuzz_strings *kernels = &((struct fuzz_config *)dest)->kernels;
	const char *p = value, *end;

	if (!*value)
		return pearl_option_bad_value;
	for (; p; p = *end ? end + 1 : NULL) {
		char *file;
		int r;

		end = strchr(p, ',');
		if (!end)
			end = p + strlen(p);
		if (end == p)
			return pearl_option_bad_value;
		file = strndup(p, end - p);
		if (!file)
			return pearl_option_bad_value;
		r = access(file, R_OK);
		if (r != 0)
			fprintf(stderr, "pearl-fuzz: cannot read %s: %s\n", file,
				strerror(errno));
		else
			r = fuzz_strings_add(kernels, file);
		free(file);
		if (r != 0)
			return pearl_option_bad_value;
	}
	return pearl_option_ok;
}

/* Fills o from argv: 0, 1 for help, -1 on a usage error (reported). */
static int parse_args(int argc, char **argv, struct fuzz_options *o)
{
	const struct pearl_option table[] = {
	    {.name = "help", .short_name = 'h', .kind = pearl_option_stop},
	    PEARL_OPTION_CALL("size-scale", &o->cfg.size_scale, parse_scale,
			      "small|train|wide|cache"),
	    PEARL_OPTION_CALL("path", o, parse_path, "mlir|c"),
	    PEARL_OPTION_CALL("kernels", &o->cfg, parse_kernels,
			      "FILE,FILE,..."),
	    PEARL_OPTION_STRING("out", &o->out_dir),
	    PEARL_OPTION_STRING("log", &o->log_path),
	    PEARL_OPTION_STRING("memo", &o->cfg.memo_path),
	    PEARL_OPTION_STRING("clang", &o->cfg.clang),
	    PEARL_OPTION_STRING("plugin", &o->cfg.plugin),
	    PEARL_OPTION_STRING("schedule", &o->schedule),
	    PEARL_OPTION_STRING("inject-failure", &o->inject),
	    PEARL_OPTION_STRING("inject-crash", &o->cfg.inject_crash),
	    PEARL_OPTION_STRING("inject-hang", &o->cfg.inject_hang),
	    PEARL_OPTION_DOUBLE_RANGE("seconds", &o->seconds, 0, HUGE_VAL),
	    PEARL_OPTION_LONG("pairs", &o->pairs, 0, LONG_MAX),
	    PEARL_OPTION_LONG("programs", &o->programs, 0, LONG_MAX),
	    PEARL_OPTION_U64("seed", &o->seed),
	    PEARL_OPTION_INT("schedules-per-program", &o->per_program, 1,
			     INT_MAX),
	    PEARL_OPTION_INT("threads", &o->cfg.threads, 1, INT_MAX),
	    PEARL_OPTION_DOUBLE_ABOVE("timeout", &o->cfg.timeout, 0),
	    PEARL_OPTION_DOUBLE_ABOVE("hang-seconds", &o->hang_seconds, 0),
	    PEARL_OPTION_DOUBLE_ABOVE("slow-seconds", &o->slow_seconds, 0),
	    PEARL_OPTION_INT("minimize-tests", &o->minimize_tests, 0, INT_MAX),
	    PEARL_OPTION_DOUBLE_RANGE("minimize-seconds", &o->minimize_seconds,
				      0, HUGE_VAL),
	    PEARL_OPTION_INT("minimize-limit", &o->minimize_limit, 0, INT_MAX),
	    PEARL_OPTION_INT("confirm-runs", &o->confirm_runs, 0, INT_MAX),
	    PEARL_OPTION_DOUBLE_RANGE("progress", &o->progress_seconds, 0,
				      HUGE_VAL),
	    PEARL_OPTION_END};
	struct pearl_options_result res = {0};
	int r;

	fuzz_options_init(o);
	r = pearl_options_parse_or_say("pearl-fuzz", 1, table, 0, argc, argv,
				       &res);
	if (r != 0)
		return r;
	if (!o->seconds && !o->pairs && !o->programs)
		o->seconds = 60;
	if (o->cfg.kernels.n > 0 && strcmp(o->cfg.path, "mlir") != 0) {
		fprintf(stderr, "pearl-fuzz: --kernels is for the MLIR path "
			"only\n");
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct fuzz_options o;
	struct fuzz_counts counts;
	char err[1024] = "";
	int st;

	st = pearl_options_exit_status(parse_args(argc, argv, &o), usage,
				       pearl_exit_usage);
	if (st >= 0) {
		fuzz_strings_clear(&o.cfg.kernels);
		return st;
	}
	st = fuzz_campaign_run(&o, stdout, &counts, err, sizeof(err));
	fuzz_strings_clear(&o.cfg.kernels);
	if (st < 0) {
		fprintf(stderr, "pearl-fuzz: error: %s\n", err);
		return 2;
	}
	return counts.failing ? 1 : 0;
}
