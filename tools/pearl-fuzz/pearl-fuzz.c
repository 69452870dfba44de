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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "pearl/gen.h"

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

static int parse_num(const char *s, double min, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return errno || end == s || *end || *v < min ? -1 : 0;
}

/* Sets the option `name` from `val`; 0, or -1 if it is not one. */
static int set_option(struct fuzz_options *o, const char *name,
		      const char *val)
{
	enum pearl_gen_scale scale;
	double v;

	if (!strcmp(name, "--size-scale")) {
		if (pearl_gen_scale_parse(val, &scale) < 0)
			return -1;
		o->cfg.size_scale = scale;
		return 0;
	}
	if (!strcmp(name, "--path")) {
		o->driver = fuzz_driver_find(val);
		o->cfg.path = val;
		return o->driver ? 0 : -1;
	}
	if (!strcmp(name, "--out"))
		return o->out_dir = val, 0;
	if (!strcmp(name, "--log"))
		return o->log_path = val, 0;
	if (!strcmp(name, "--memo"))
		return o->cfg.memo_path = val, 0;
	if (!strcmp(name, "--clang"))
		return o->cfg.clang = val, 0;
	if (!strcmp(name, "--plugin"))
		return o->cfg.plugin = val, 0;
	if (!strcmp(name, "--schedule"))
		return o->schedule = val, 0;
	if (!strcmp(name, "--inject-failure"))
		return o->inject = val, 0;
	if (!strcmp(name, "--inject-crash"))
		return o->cfg.inject_crash = val, 0;
	if (!strcmp(name, "--inject-hang"))
		return o->cfg.inject_hang = val, 0;
	if (parse_num(val, 0, &v) < 0)
		return -1;
	if (!strcmp(name, "--seconds"))
		o->seconds = v;
	else if (!strcmp(name, "--pairs"))
		o->pairs = (long)v;
	else if (!strcmp(name, "--programs"))
		o->programs = (long)v;
	else if (!strcmp(name, "--seed"))
		o->seed = (uint64_t)v;
	else if (!strcmp(name, "--schedules-per-program") && v >= 1)
		o->per_program = (int)v;
	else if (!strcmp(name, "--threads") && v >= 1)
		o->cfg.threads = (int)v;
	else if (!strcmp(name, "--timeout") && v > 0)
		o->cfg.timeout = v;
	else if (!strcmp(name, "--hang-seconds") && v > 0)
		o->hang_seconds = v;
	else if (!strcmp(name, "--slow-seconds") && v > 0)
		o->slow_seconds = v;
	else if (!strcmp(name, "--minimize-tests"))
		o->minimize_tests = (int)v;
	else if (!strcmp(name, "--minimize-seconds"))
		o->minimize_seconds = v;
	else if (!strcmp(name, "--minimize-limit"))
		o->minimize_limit = (int)v;
	else if (!strcmp(name, "--confirm-runs"))
		o->confirm_runs = (int)v;
	else if (!strcmp(name, "--progress"))
		o->progress_seconds = v;
	else
		return -1;
	return 0;
}

/* Fills o from argv: 0, 1 for help, -1 on a usage error (reported). */
static int parse_args(int argc, char **argv, struct fuzz_options *o)
{
	int i;

	fuzz_options_init(o);
	for (i = 1; i < argc; ++i) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return 1;
		if (i + 1 >= argc) {
			fprintf(stderr, "pearl-fuzz: %s needs a value\n",
				argv[i]);
			return -1;
		}
		if (set_option(o, argv[i], argv[i + 1]) < 0) {
			fprintf(stderr, "pearl-fuzz: bad option or value: %s "
				"%s\n", argv[i], argv[i + 1]);
			return -1;
		}
		++i;
	}
	if (!o->seconds && !o->pairs && !o->programs)
		o->seconds = 60;
	return 0;
}

int main(int argc, char **argv)
{
	struct fuzz_options o;
	struct fuzz_counts counts;
	char err[1024] = "";
	int st;

	st = parse_args(argc, argv, &o);
	if (st != 0) {
		usage(st > 0 ? stdout : stderr);
		return st > 0 ? 0 : 2;
	}
	if (fuzz_campaign_run(&o, stdout, &counts, err, sizeof(err)) < 0) {
		fprintf(stderr, "pearl-fuzz: error: %s\n", err);
		return 2;
	}
	return counts.failing ? 1 : 0;
}
