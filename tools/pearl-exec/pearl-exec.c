/*
 * pearl-exec - runs a function of two MLIR modules (the original and the
 * rescheduled program) on the same deterministic inputs and compares every
 * memref argument bit for bit afterwards.
 *
 *   pearl-exec [options] original.mlir [scheduled.mlir]
 *
 * Both modules are lowered and JIT-compiled in-process (pearl/exec_jit.h),
 * their entries (the same name; by default the first public func.func with
 * a body of the original) must have the same signature.  The inputs are made once
 * (exec_frame_init in pearl/exec_args.h) and copied before every run, so both
 * programs, and every repeated run, start from the same bytes.  Every memref
 * argument counts as an output; a scalar result is compared too.
 *
 * With one file the program just runs, and each buffer's FNV-1a checksum is
 * printed.  With --time (or --repeat=K) every module runs once to warm up,
 * then K times, alternating, and the minimum time of each is printed.
 * With --print-lowered each module is printed as lowered to the LLVM
 * dialect, before it runs (to see the lowering, e.g. its loop hints).
 * With --clang=PATH both are compiled ahead of time by that clang
 * (`-O3 -fopenmp CFLAGS -shared`, --cflags) and loaded, instead of the JIT:
 * the code a user's compilation of the lowered module gives.
 * With --lower-only each file is only lowered and printed, with no C
 * interface added, and nothing runs: Pearl's lowering as a filter
 * (pearl-bench lowers every configuration with it).
 *
 * Exit status: 0 outputs identical (or, with one file, the run succeeded),
 * 1 outputs differ, 2 error (usage, parse, lowering, JIT, unsupported
 * signature).  OpenMP takes its thread count from OMP_NUM_THREADS.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pearl/exec_args.h"
#include "pearl/exec_jit.h"
#include "pearl/options.h"

enum { exit_identical = 0, exit_differ = 1, exit_error = 2 };

struct options {
	const char *entry;	/* NULL: the first public function */
	int64_t size;
	long repeat;
	int time;
	int print_lowered;	/* print each module in the LLVM dialect */
	int lower_only;		/* ... and stop there */
	const char *clang;	/* compile ahead of time with it; NULL: JIT */
	const char *cflags;	/* clang's flags besides -O3 -fopenmp */
	const char *files[2];
	int n_files;
};

/* The two programs, their shared signature and their argument frames. */
struct session {
	MlirContext ctx;
	struct exec_module *mod[2];	/* owned; mod[1] NULL with one file */
	struct exec_sig sig;		/* of mod[0] */
	struct exec_frame *inputs;	/* owned; pristine inputs */
	struct exec_frame *frame[2];	/* owned; arguments of each run */
	double best[2];			/* minimum time of each module */
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: pearl-exec [options] original.mlir [scheduled.mlir]\n"
		"Runs the entry function of each module on the same inputs "
		"and compares\nevery memref argument bit for bit.\n"
		"  --entry=NAME  function to run (default: first public "
		"func.func with a body)\n"
		"  --size=N      value of index arguments and of `?` "
		"dimensions (default 64)\n"
		"  --time        time the runs (after one warm-up run)\n"
		"  --repeat=K    number of timed runs, minimum reported "
		"(implies --time)\n"
		"  --print-lowered  print each module as lowered to the LLVM "
		"dialect (on stdout)\n"
		"  --clang=PATH  compile with this clang ahead of time "
		"(-O3 -fopenmp -shared),\n"
		"                not with the JIT\n"
		"  --cflags=FLAGS  more flags for --clang (e.g. "
		"-march=native)\n"
		"  --lower-only  only print each file lowered to the LLVM "
		"dialect, as is\n"
		"                (no C interface), and run nothing\n"
		"Exit: 0 identical, 1 outputs differ, 2 error.  "
		"Threads: OMP_NUM_THREADS.\n");
}

/* Parses a decimal integer in [min, max] from s; -1 if it is not one. */
static int parse_int(const char *s, long long min, long long max,
		     long long *val)
{
	char *end;

	errno = 0;
	*val = strtoll(s, &end, 10);
	if (errno || end == s || *end || *val < min || *val > max)
		return -1;
	return 0;
}

/* --entry=NAME (not empty) */
static int parse_entry(const char *value, void *dest)
{
	struct options *opts = dest;

	if (!*value)
		return pearl_option_bad_value;
	opts->entry = value;
	return pearl_option_ok;
}

/* --size=N */
static int parse_size(const char *value, void *dest)
{
	struct options *opts = dest;
	long long v;

	if (parse_int(value, 0, 1LL << 40, &v) < 0)
		return pearl_option_bad_value;
	opts->size = v;
	return pearl_option_ok;
}

/* --repeat=K (implies --time) */
static int parse_repeat(const char *value, void *dest)
{
	struct options *opts = dest;
	long long v;

	if (parse_int(value, 1, 1000000, &v) < 0)
		return pearl_option_bad_value;
	opts->repeat = (long)v;
	opts->time = 1;
	return pearl_option_ok;
}

/* Says what is wrong with the command line (pearl_options_parse's
 * failure), in pearl-exec's words. */
static void report_usage_error(const struct pearl_options_result *res,
			       char **argv)
{
	const char *word = argv[res->index];

	/* an empty --entry= is no option at all */
	if (res->failure != pearl_options_bad_value ||
	    res->option->parse == parse_entry)
		fprintf(stderr, "pearl-exec: unknown option %s\n", word);
	else if (strchr(word, '='))
		fprintf(stderr, "pearl-exec: bad value in %s\n", word);
	else
		fprintf(stderr, "pearl-exec: bad value in %s %s\n", word,
			argv[res->index + 1]);
}

/* Fills opts from argv; returns -1 (after a message) on a usage error,
 * 1 if help was asked for. */
static int parse_options(int argc, char **argv, struct options *opts)
{
	const struct pearl_option table[] = {
	    {.name = "help", .short_name = 'h', .kind = pearl_option_stop},
	    PEARL_OPTION_CALL("entry", opts, parse_entry, NULL),
	    PEARL_OPTION_CALL("size", opts, parse_size, NULL),
	    PEARL_OPTION_CALL("repeat", opts, parse_repeat, NULL),
	    PEARL_OPTION_FLAG("time", &opts->time),
	    PEARL_OPTION_FLAG("print-lowered", &opts->print_lowered),
	    PEARL_OPTION_FLAG("lower-only", &opts->lower_only),
	    PEARL_OPTION_STRING("clang", &opts->clang),
	    PEARL_OPTION_STRING("cflags", &opts->cflags),
	    PEARL_OPTION_END};
	struct pearl_options_result res = {0};
	char **files = calloc(argc, sizeof(*files));
	int r, i;

	opts->size = 64;
	opts->repeat = 1;
	if (!files) {
		fprintf(stderr, "pearl-exec: out of memory\n");
		return -1;
	}
	res.arguments = files;
	r = pearl_options_parse(table, 0, argc, argv, &res);
	if (r < 0)
		report_usage_error(&res, argv);
	if (r == 0 && res.n_arguments > 2) {
		fprintf(stderr, "pearl-exec: too many files\n");
		r = -1;
	}
	for (i = 0; r == 0 && i < res.n_arguments; ++i)
		opts->files[opts->n_files++] = files[i];
	free(files);
	if (r == 0 && opts->n_files == 0) {
		fprintf(stderr, "pearl-exec: no input file\n");
		return -1;
	}
	return r;
}

static void session_clear(struct session *s)
{
	int i;

	if (s->mod[0])
		exec_module_stop_openmp(s->mod[0]);
	for (i = 0; i < 2; ++i) {
		exec_frame_free(s->frame[i]);
		exec_module_free(s->mod[i]);
	}
	exec_frame_free(s->inputs);
	exec_sig_clear(&s->sig);
	if (!mlirContextIsNull(s->ctx))
		mlirContextDestroy(s->ctx);
}

/* Loads both modules and checks that their entries have one signature. */
static int load(struct session *s, const struct options *opts,
		struct exec_err *err)
{
	struct exec_sig sig2 = {0};
	int equal;

	s->mod[0] = exec_module_load(s->ctx, opts->files[0], opts->entry, err);
	if (!s->mod[0] || exec_module_signature(s->mod[0], &s->sig, err) < 0)
		return -1;
	if (opts->n_files < 2)
		return 0;
	s->mod[1] = exec_module_load(s->ctx, opts->files[1],
				     exec_module_entry(s->mod[0]), err);
	if (!s->mod[1] || exec_module_signature(s->mod[1], &sig2, err) < 0) {
		exec_sig_clear(&sig2);
		return -1;
	}
	equal = exec_sig_equal(&s->sig, &sig2);
	exec_sig_clear(&sig2);
	if (!equal)
		return exec_fail(err, "@%s has different signatures in %s and "
				 "%s", exec_module_entry(s->mod[0]),
				 opts->files[0], opts->files[1]);
	return 0;
}

static void print_to_stdout(MlirStringRef text, void *user)
{
	(void)user;
	fwrite(text.data, 1, text.length, stdout);
}

/* Lowers and compiles the modules, allocates and fills the inputs. */
static int prepare(struct session *s, const struct options *opts,
		   struct exec_err *err)
{
	int i;

	for (i = 0; i < opts->n_files; ++i) {
		if ((opts->clang ? exec_module_compile_native(
				       s->mod[i], opts->clang, opts->cflags, err)
				 : exec_module_compile(s->mod[i], err)) < 0)
			return -1;
		if (opts->print_lowered) {
			mlirOperationPrint(exec_module_op(s->mod[i]),
					   print_to_stdout, NULL);
			putchar('\n');
		}
	}
	s->inputs = exec_frame_alloc(&s->sig, opts->size, err);
	if (!s->inputs)
		return -1;
	exec_frame_init(s->inputs, opts->size);
	for (i = 0; i < opts->n_files; ++i) {
		s->frame[i] = exec_frame_alloc(&s->sig, opts->size, err);
		if (!s->frame[i])
			return -1;
	}
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* One run of module i on fresh inputs; returns its duration. */
static double run_once(struct session *s, int i)
{
	double start;

	exec_frame_copy(s->frame[i], s->inputs);
	start = now();
	exec_module_run(s->mod[i], s->frame[i]);
	return now() - start;
}

/* Runs every module once, or, when timing, once to warm up and then
 * `repeat` times (the modules alternating), keeping the minimum.  The
 * frames hold the outputs of the last run, which start from the same
 * inputs as every other run. */
static void run(struct session *s, const struct options *opts)
{
	long k;
	double t;
	int i;

	for (i = 0; i < opts->n_files; ++i)
		s->best[i] = run_once(s, i);
	if (!opts->time)
		return;
	for (i = 0; i < opts->n_files; ++i)
		s->best[i] = -1;
	for (k = 0; k < opts->repeat; ++k)
		for (i = 0; i < opts->n_files; ++i) {
			t = run_once(s, i);
			if (s->best[i] < 0 || t < s->best[i])
				s->best[i] = t;
		}
}

static void print_times(const struct session *s, const struct options *opts)
{
	printf("time original %.9f\n", s->best[0]);
	if (opts->n_files < 2)
		return;
	printf("time scheduled %.9f\n", s->best[1]);
	if (s->best[1] > 0)
		printf("speedup %.4f\n", s->best[0] / s->best[1]);
	else
		printf("speedup inf\n");
}

/* --lower-only: lowers each file and prints it. */
static int lower_only(struct session *s, const struct options *opts,
		      struct exec_err *err)
{
	int i;

	for (i = 0; i < opts->n_files; ++i) {
		s->mod[i] = exec_module_load(s->ctx, opts->files[i],
					     opts->entry, err);
		if (!s->mod[i] || exec_module_lower(s->mod[i], err) < 0)
			return -1;
		mlirOperationPrint(exec_module_op(s->mod[i]), print_to_stdout,
				   NULL);
		putchar('\n');
	}
	return 0;
}

/* Prints the outcome; returns the exit status. */
static int report(const struct session *s, const struct options *opts)
{
	int n_differ;

	if (opts->n_files < 2) {
		exec_frame_print_checksums(stdout, s->frame[0]);
		if (opts->time)
			print_times(s, opts);
		printf("pearl-exec: ran @%s\n", exec_module_entry(s->mod[0]));
		return exit_identical;
	}
	n_differ = exec_frame_compare(stdout, s->frame[0], s->frame[1]);
	if (opts->time)
		print_times(s, opts);
	printf("pearl-exec: outputs %s\n", n_differ ? "differ" : "identical");
	return n_differ ? exit_differ : exit_identical;
}

int main(int argc, char **argv)
{
	struct options opts = {0};
	struct session s = {0};
	struct exec_err err = {{0}};
	int ret, status;

	status = pearl_options_exit_status(parse_options(argc, argv, &opts),
					   usage, exit_error);
	if (status >= 0)
		return status;
	s.ctx = exec_context_create();
	if (opts.lower_only) {
		ret = lower_only(&s, &opts, &err) < 0 ? exit_error
						       : exit_identical;
		if (ret == exit_error)
			fprintf(stderr, "pearl-exec: error: %s\n", err.msg);
	} else if (load(&s, &opts, &err) < 0 || prepare(&s, &opts, &err) < 0) {
		fprintf(stderr, "pearl-exec: error: %s\n", err.msg);
		ret = exit_error;
	} else {
		run(&s, &opts);
		ret = report(&s, &opts);
	}
	fflush(stdout);
	session_clear(&s);
	return ret;
}
