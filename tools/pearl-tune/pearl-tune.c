/*
 * pearl-tune - finds the fastest schedule Pearl's actions can express for
 * each program, by a measured beam search (include/pearl/search.h), and
 * writes it to a schedule file the passes apply.
 *
 *   pearl-tune [options] program.mlir... [-o schedules.txt]
 *
 * A module in the benchmark kernel contract (@init, @kernel,
 * `// outputs:`; test/bench/kernels/README.md) gets @kernel's region
 * tuned, on the inputs @init makes: one entry, `kernel 0`. Any other
 * module is tuned target by target (pearl/env.h): every loop region of
 * every public function, numbered as pearl-schedule numbers them, each on
 * the inputs pearl-exec makes (--size for every `?` dimension and index
 * argument), timing the whole function: one entry per (function, region).
 * A function or region Pearl cannot model (or whose arguments cannot be
 * made) gets no entry and a line saying why.
 *
 * The search first measures the policy's own decision (what
 * pearl-schedule would do; --no-policy-seed leaves it out) and every
 * --seed schedule, so the schedule written is never slower, as measured,
 * than those.
 *
 * Progress goes to stderr: one line per measured candidate (level,
 * candidates measured of the budget, the candidate's speedup, the best so
 * far, time left), then one summary line per program or (function,
 * region). Exit status: 0 if every program and every target was tuned, 1
 * if one could not be (it gets no entry; so does a module without any
 * target), 2 on usage errors or errors of the environment.
 *
 * Under `mpirun -np N` (built with MPI), the programs are shared out among
 * the ranks and rank 0 writes the file (ranks.h). With --out-dir each
 * program gets a file of its own, written by the rank that tuned it.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pearl/action_space.h"
#include "pearl/ctx.h"
#include "pearl/env.h"
#include "pearl/file.h"
#include "pearl/options.h"
#include "pearl/schedule_file.h"
#include "pearl/search.h"
#include "pearl/str.h"

#include "ranks.h"

struct args {
	struct pearl_env_options env;
	struct pearl_search_options search;
	const char *out;   /* schedule file; NULL: stdout */
	const char *out_dir; /* else one file per program in this folder */
	const char *model; /* policy blob; NULL: the compiled-in one */
	long long size;    /* ordinary modules: `?` dimensions and index
			    * arguments */
	int quiet;
	char rank_tag[32]; /* " (rank R of N)" under mpirun, else "" */
	const char **seeds; /* --seed, in order (malloc'd array) */
	int n_seeds;
	char **programs;
	int n_programs;
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: pearl-tune [options] program.mlir... [-o FILE]\n"
		"Finds the fastest schedule of each program's @kernel (kernel "
		"contract), or of\nevery loop region of every public function "
		"of an ordinary module, by a\nmeasured beam search and writes "
		"a schedule file (pearl-schedule's\nschedule-file=).\n"
		"  -o, --output FILE    schedule file (default: stdout)\n"
		"  --out-dir DIR        instead, one schedule file per "
		"program: DIR/NAME.sched\n"
		"                       for NAME.mlir or NAME.mlir.in "
		"(programs that share a\n"
		"                       function, such as kernel-contract "
		"modules, cannot\n"
		"                       share one file)\n"
		"  --budget N           candidates measured per program or "
		"region (default 200)\n"
		"  --seconds S          wall-clock limit per program or region "
		"(default: none)\n"
		"  --size N             ordinary modules: every `?` dimension "
		"and index argument\n"
		"                       (default 64, as pearl-exec)\n"
		"  --beam W             states kept per level (default 8)\n"
		"  --diversity D        of which D for the fastest state of "
		"each kind of last\n"
		"                       action the fastest do not end with "
		"(default 4; 0: none)\n"
		"  --completions C      after each level, also measure its C "
		"fastest tiled or\n"
		"                       jammed states completed by P on the "
		"outermost parallel\n"
		"                       loop and V(16); the beam ranks them "
		"by it (default 4)\n"
		"  --reorderings R      after each level, also measure its R "
		"fastest distributed\n"
		"                       states followed by the interchanges "
		"and jams of the part\n"
		"                       split off; the beam ranks them by the "
		"fastest (default 2)\n"
		"  --confirm K          measure the 2K fastest schedules, at "
		"most two of a family\n"
		"                       (alike but for U and V), and the "
		"unscheduled program\n"
		"                       again at the end, in turn; the "
		"fastest by the median of\n"
		"                       its measurements wins (default 3; 0: "
		"keep the search's best)\n"
		"  --confirm-rounds R   times each of them is measured again "
		"(default 3)\n"
		"  --confirm-tie-rounds T  then up to T times, the fastest "
		"and those within 5%%\n"
		"                       of it once more, until none is "
		"(default 3; 0: none)\n"
		"  --confirm-seconds S  each such measurement: timed runs "
		"until they took S\n"
		"                       seconds in all, at least --runs "
		"(default 0.1)\n"
		"  --confirm-compiler C  compiles them as users do: the "
		"lowered module by this\n"
		"                       clang, -O3 -fopenmp (default "
		PEARL_TUNE_CLANG ";\n"
		"                       jit: by the JIT, as the search "
		"measures)\n"
		"  --confirm-cflags F   its further flags (default "
		"-march=native: the JIT's\n"
		"                       target; give the flags the program "
		"will be built with)\n"
		"  --top-k K            policy actions per state and branch "
		"(default 6)\n"
		"  --depth D            actions per schedule (default 10)\n"
		"  --patience P         levels without gain before stopping "
		"(default 2)\n"
		"  --min-gain G         gain a level must bring, a factor "
		"(default 1.02)\n"
		"  --sampling plain|adaptive|always  which children of a "
		"level are measured:\n"
		"                       all; clusters' representatives when "
		"the level has more\n"
		"                       than the budget left (default); or "
		"so on every level\n"
		"  --min-parallel-work W  smallest parallel loop, innermost "
		"iterations (default 16384)\n"
		"  --model FILE         policy weights ranking the actions "
		"(default: compiled-in)\n"
		"  --memo FILE          the environment's memo database\n"
		"  --machine M          machine fingerprint of the memo rows\n"
		"  --memo-also M1|M2    other machines whose memo answers serve a "
		"program this\n"
		"                       machine has no base for, until a query "
		"must measure\n"
		"  --runs N             timed runs per candidate, minimum "
		"kept (default 3)\n"
		"  --max-cpu-pressure X  measure again (after a wait) when "
		"some task waited\n"
		"                       for a CPU more than this fraction of "
		"the runs, and\n"
		"                       memoize no answer that stays so "
		"(default 0.35; 0: no check)\n"
		"  --contention-retries N  how many times (default 3)\n"
		"  --recheck-bases N    measure the first N bases the memo "
		"answers again, and\n"
		"                       warn if they are not the memo's times "
		"(another host;\n"
		"                       default 0, at most 64)\n"
		"  --threads N          OpenMP threads (default 2)\n"
		"  --policy-actions-only  propose only the policy's actions "
		"(I R S T U P),\n"
		"                       not D(l), J(l,4), V(8), V(16)\n"
		"  --seed SCHEDULE      also measure this schedule first "
		"(repeatable; e.g. a hand\n"
		"                       schedule or an earlier best); it "
		"wins if it is fastest\n"
		"  --no-policy-seed     do not measure the policy's own "
		"decision first\n"
		"  --nests whole|each|both  a program of several top-level "
		"loop nests is searched\n"
		"                       whole (default), each nest on its "
		"own with an even share\n"
		"                       of the budget, then the composition "
		"of their bests\n"
		"                       (stopped: nests), or both, on half "
		"the budget each\n"
		"  --per-nest           --nests each\n"
		"  --quiet              no progress lines\n");
}

/* --seed SCHEDULE: appends the schedule (kept: an argv string) to the
 * seeds of `dest` (struct args); a bad schedule is reported here. */
static int add_seed(const char *v, void *dest)
{
	struct args *a = dest;
	const char **seeds;
	struct pearl_action *acts = NULL;
	pearl_ctx *ctx = pearl_ctx_alloc();
	int n = ctx ? pearl_actions_parse(ctx, v, &acts) : -1;

	if (n < 0)
		fprintf(stderr, "pearl-tune: bad schedule '%s' for --seed: "
			"%s\n", v, ctx ? pearl_ctx_last_error(ctx)
				       : "out of memory");
	free(acts);
	pearl_ctx_free(ctx);
	if (n < 0)
		return pearl_option_reported;
	seeds = realloc(a->seeds, (a->n_seeds + 1) * sizeof(*seeds));
	if (!seeds) {
		fprintf(stderr, "pearl-tune: out of memory\n");
		return pearl_option_reported;
	}
	seeds[a->n_seeds++] = v;
	a->seeds = seeds;
	a->search.seeds = seeds;
	a->search.n_seeds = a->n_seeds;
	return pearl_option_ok;
}

/* --sampling plain|adaptive|always */
static int parse_sampling(const char *v, void *dest)
{
	enum pearl_search_sampling *sampling = dest;

	if (!strcmp(v, "plain"))
		*sampling = pearl_search_plain;
	else if (!strcmp(v, "adaptive"))
		*sampling = pearl_search_adaptive;
	else if (!strcmp(v, "always"))
		*sampling = pearl_search_adaptive_always;
	else
		return pearl_option_bad_value;
	return pearl_option_ok;
}

/* The name of program `path`: its file's name up to the first dot, as
 * pearl-train names programs read from files ("gen-7" for
 * gen-7.mlir.in); a pointer into path, *len its length. */
static const char *program_name(const char *path, size_t *len)
{
	const char *slash = strrchr(path, '/');
	const char *name = slash ? slash + 1 : path;
	const char *dot = strchr(name, '.');

	*len = dot && dot > name ? (size_t)(dot - name) : strlen(name);
	return name;
}

/* --out-dir: -1 (said on stderr) if two programs have the same name, so
 * that their files would be one. */
static int same_names(const struct args *a)
{
	int i, j;

	for (i = 0; i < a->n_programs; ++i)
		for (j = 0; j < i; ++j) {
			size_t li, lj;
			const char *ni = program_name(a->programs[i], &li);
			const char *nj = program_name(a->programs[j], &lj);

			if (li == lj && !strncmp(ni, nj, li)) {
				fprintf(stderr, "pearl-tune: --out-dir: %s and "
					"%s would both write %.*s.sched\n",
					a->programs[j], a->programs[i],
					(int)li, ni);
				return -1;
			}
		}
	return 0;
}

/* Fills *a from the command line; 0, 1 after --help, or -1 on errors (said
 * on stderr, with the usage). */
static int parse_args(int argc, char **argv, struct args *a)
{
	int policy_actions_only = 0, no_policy_seed = 0, r;
	const struct pearl_option table[] = {
	    {.name = "output", .short_name = 'o',
	     .kind = pearl_option_string, .dest = &a->out},
	    PEARL_OPTION_STRING("out-dir", &a->out_dir),
	    PEARL_OPTION_LONG("budget", &a->search.max_measurements, 1, 1e9),
	    PEARL_OPTION_DOUBLE_RANGE("seconds", &a->search.max_seconds, 0,
				      1e9),
	    PEARL_OPTION_INT("beam", &a->search.beam_width, 1, 1000),
	    PEARL_OPTION_INT("diversity", &a->search.beam_diversity, 0, 1000),
	    PEARL_OPTION_INT("completions", &a->search.completions, 0, 1000),
	    PEARL_OPTION_INT("reorderings", &a->search.reorderings, 0, 1000),
	    PEARL_OPTION_INT("confirm", &a->search.confirm, 0, 100),
	    PEARL_OPTION_INT("confirm-rounds", &a->search.confirm_rounds, 1,
			     100),
	    PEARL_OPTION_INT("confirm-tie-rounds",
			     &a->search.confirm_tie_rounds, 0, 100),
	    PEARL_OPTION_DOUBLE_RANGE("confirm-seconds",
				      &a->env.again_min_seconds, 0, 100),
	    PEARL_OPTION_STRING("confirm-compiler", &a->env.again_compiler),
	    PEARL_OPTION_STRING("confirm-cflags", &a->env.again_cflags),
	    PEARL_OPTION_INT("top-k", &a->search.top_k, 0,
			     PEARL_ACTION_SPACE_SIZE),
	    PEARL_OPTION_INT("depth", &a->search.max_depth, 1, 64),
	    PEARL_OPTION_INT("patience", &a->search.patience, 1, 64),
	    PEARL_OPTION_DOUBLE_RANGE("min-gain", &a->search.min_gain, 1, 100),
	    PEARL_OPTION_LONG("min-parallel-work",
			      &a->search.min_parallel_work, 0, 1e15),
	    PEARL_OPTION_STRING("model", &a->model),
	    PEARL_OPTION_STRING("memo", &a->env.memo_path),
	    PEARL_OPTION_STRING("machine", &a->env.machine),
	    PEARL_OPTION_STRING("memo-also", &a->env.memo_also),
	    PEARL_OPTION_DOUBLE_RANGE("max-cpu-pressure",
				      &a->env.max_cpu_pressure, 0, HUGE_VAL),
	    PEARL_OPTION_INT("contention-retries",
			     &a->env.contention_retries, 0, 100),
	    PEARL_OPTION_INT("recheck-bases", &a->env.recheck_bases, 0,
			     PEARL_ENV_RECHECK_MAX),
	    PEARL_OPTION_INT("runs", &a->env.runs, 1, 1000),
	    PEARL_OPTION_INT("threads", &a->env.threads, 1, 1024),
	    PEARL_OPTION_CALL("sampling", &a->search.sampling, parse_sampling,
			      "plain|adaptive|always"),
	    PEARL_OPTION_LLONG("size", &a->size, 0, 1LL << 40),
	    PEARL_OPTION_FLAG("quiet", &a->quiet),
	    PEARL_OPTION_FLAG("policy-actions-only", &policy_actions_only),
	    PEARL_OPTION_CALL("seed", a, add_seed, "a schedule"),
	    PEARL_OPTION_FLAG("no-policy-seed", &no_policy_seed),
	    PEARL_OPTION_CALL("nests", &a->search.nests,
			      pearl_search_nests_option, "whole|each|both"),
	    PEARL_OPTION_ACTION("per-nest", &a->search.nests,
				pearl_search_nests_option, "--nests each"),
	    PEARL_OPTION_STOP("help"),
	    PEARL_OPTION_END};
	struct pearl_options_result res = {0};

	memset(a, 0, sizeof(*a));
	a->size = 64;
	pearl_env_options_init(&a->env);
	a->env.again_compiler = PEARL_TUNE_CLANG;
	a->env.again_cflags = "-march=native";
	pearl_search_options_init(&a->search);
	a->programs = calloc(argc, sizeof(*a->programs));
	if (!a->programs) {
		fprintf(stderr, "pearl-tune: out of memory\n");
		return -1;
	}
	res.arguments = a->programs;
	r = pearl_options_parse_or_say("pearl-tune", 0, table, 1, argc, argv,
				       &res);
	a->n_programs = res.n_arguments;
	if (policy_actions_only)
		a->search.extended_actions = 0;
	if (no_policy_seed)
		a->search.seed_policy = 0;
	if (r > 0) {
		usage(stdout);
		return 1;
	}
	if (r < 0) {
		usage(stderr);
		return -1;
	}
	if (a->n_programs == 0) {
		fprintf(stderr, "pearl-tune: no program given\n");
		usage(stderr);
		return -1;
	}
	if (a->out && a->out_dir) {
		fprintf(stderr, "pearl-tune: -o and --out-dir exclude each "
				"other\n");
		usage(stderr);
		return -1;
	}
	if (a->out_dir && same_names(a) < 0)
		return -1;
	if (!strcmp(a->env.again_compiler, "jit"))
		a->env.again_compiler = NULL;
	return 0;
}

/* Frees what parse_args allocated. */
static void args_clear(struct args *a)
{
	free(a->seeds);
	free(a->programs);
}

/* The progress line of one measured candidate. */
static int print_progress(void *user,
			  const struct pearl_search_progress *pr)
{
	const struct args *a = user;
	char left[32] = "";

	if (a->quiet)
		return 0;
	if (pr->seconds_left >= 0)
		snprintf(left, sizeof(left), ", %.0f s left",
			 pr->seconds_left);
	if (pr->level < 0)
		fprintf(stderr, "  confirm  %6.3fx  %.1f s  \"%s\"\n",
			pr->last_speedup, pr->elapsed, pr->last_schedule);
	else
		fprintf(stderr,
			"  %s%slevel %d  %ld/%ld measured  %6.3fx  best %6.3fx  "
			"%.1f s%s  \"%s\"\n",
			pr->stage ? pr->stage : "", pr->stage ? "  " : "",
			pr->level, pr->measured, a->search.max_measurements,
			pr->last_speedup, pr->best_speedup, pr->elapsed, left,
			pr->last_schedule);
	return 0;
}

/* Adds the entry of region `region` of `function`, modeled as `p`
 * (kept), to `file`: `schedule` under the model's fingerprint. 0, or -1
 * with a message on stderr. */
static int add_entry(pearl_schedule_file *file, const char *function,
		     int region, pearl_env_program *p, const char *schedule)
{
	struct pearl_schedule_entry entry = {function, region, 0, 0,
					     schedule, 0};
	const char *fp;
	char err[512];

	fp = pearl_env_program_fingerprint(p, err, sizeof(err));
	if (fp)
		entry.fingerprint = strtoull(fp, NULL, 16);
	if (!fp || pearl_schedule_file_add(file, &entry, err, sizeof(err)) !=
		       pearl_stat_ok) {
		fprintf(stderr, "pearl-tune: %s: %s\n",
			pearl_env_program_name(p), err);
		return -1;
	}
	return 0;
}

/* Searches the schedules of `p` (kept), region `region` of `function`,
 * called `label` in messages, and adds the best to `file`. 0, or 1 if it
 * could not be tuned (a message on stderr). */
static int search(pearl_env *env, const struct args *a, pearl_env_program *p,
		  const char *label, pearl_schedule_file *file)
{
	char err[512];
	struct pearl_search_result r;
	struct pearl_env_stats before, after;
	int rc;

	fprintf(stderr, "pearl-tune: %s%s\n", label, a->rank_tag);
	pearl_env_get_stats(env, &before);
	rc = pearl_search_run(env, p, &a->search, &r, err, sizeof(err));
	pearl_env_get_stats(env, &after);
	if (rc < 0)
		fprintf(stderr, "pearl-tune: %s: %s\n", label, err);
	else {
		char again[96] = "", quota[64] = "", twins[96] = "";
		long n_twins = after.code_twins - before.code_twins;

		if (r.quota > 0)
			snprintf(quota, sizeof(quota), ", %ld out of isl's "
				 "operations quota", r.quota);
		if (r.confirmed)
			snprintf(again, sizeof(again), "; confirmed: %.3fx "
				 "measured again, the search's best %.3fx",
				 r.best_speedup, r.search_speedup);
		if (n_twins > 0)
			snprintf(twins, sizeof(twins), "; %ld answered by the "
				 "run of a schedule with the same code",
				 n_twins);
		fprintf(stderr,
			"pearl-tune: %s%s: best %.3fx over %.6f s \"%s\" "
			"(%d levels, %ld measured, %ld from the memo, %ld "
			"refused%s, %ld failed, %ld wrong outputs, %ld not "
			"measured, %ld levels sampled; %.1f s; stopped: "
			"%s; best from: %s%s%s)\n",
			label, a->rank_tag, r.best_speedup, r.base_seconds,
			r.best_schedule,
			r.levels, r.measured, r.memo_hits, r.illegal, quota,
			r.failed, r.wrong_outputs, r.skipped,
			r.clustered_levels, r.seconds, r.stop_reason,
			r.best_origin, again, twins);
		if (add_entry(file, pearl_env_program_function(p),
			      pearl_env_program_region(p), p,
			      r.best_schedule) < 0)
			rc = -1;
	}
	pearl_search_result_clear(&r);
	return rc < 0 ? 1 : 0;
}

/* Tunes @kernel of the kernel-contract module `text` (kept) read from
 * `path`. 0, or 1 if it could not be tuned (a message on stderr). */
static int tune_kernel(pearl_env *env, const struct args *a,
		       const char *path, const char *text,
		       pearl_schedule_file *file)
{
	char err[512];
	pearl_env_program *p;
	int rc;

	p = pearl_env_program_load(env, text, path, err, sizeof(err));
	if (!p) {
		fprintf(stderr, "pearl-tune: %s: %s\n", path, err);
		return 1;
	}
	rc = search(env, a, p, path, file);
	pearl_env_program_free(p);
	return rc;
}

/* Tunes region `region` of `function` of the ordinary module `text`
 * (kept) read from `path`. 0, or 1 if it could not be tuned. */
static int tune_target(pearl_env *env, const struct args *a,
		       const char *path, const char *text,
		       const char *function, int region,
		       pearl_schedule_file *file)
{
	char err[512], label[1024];
	pearl_env_program *p;
	int rc;

	snprintf(label, sizeof(label), "%s @%s region %d", path, function,
		 region);
	p = pearl_env_target_load(env, text, label, function, region,
				  a->size, err, sizeof(err));
	if (!p) {
		fprintf(stderr, "pearl-tune: %s\n", err);
		return 1;
	}
	rc = search(env, a, p, label, file);
	pearl_env_program_free(p);
	return rc;
}

/* Tunes every target of the ordinary module `text` (kept) read from
 * `path`, saying why the other functions and regions are not tuned.
 * 0, or 1 if a target could not be tuned or there is none. */
static int tune_module(pearl_env *env, const struct args *a,
		       const char *path, const char *text,
		       pearl_schedule_file *file)
{
	char err[512];
	pearl_env_targets *t;
	const char *why, *fn;
	int f, r, failed = 0, tuned = 0;

	t = pearl_env_targets_find(env, text, path, err, sizeof(err));
	if (!t) {
		fprintf(stderr, "pearl-tune: %s\n", err);
		return 1;
	}
	for (f = 0; f < pearl_env_targets_n_functions(t); ++f) {
		fn = pearl_env_targets_function(t, f);
		why = pearl_env_targets_why_not(t, f, -1);
		if (why)
			fprintf(stderr, "pearl-tune: %s; not tuned\n", why);
		for (r = 0; !why && r < pearl_env_targets_n_regions(t, f);
		     ++r) {
			const char *no = pearl_env_targets_why_not(t, f, r);

			if (no) {
				fprintf(stderr, "pearl-tune: %s; not tuned\n",
					no);
				continue;
			}
			failed |= tune_target(env, a, path, text, fn, r, file);
			tuned++;
		}
	}
	if (!tuned)
		fprintf(stderr, "pearl-tune: %s: no public function has a loop "
			"region Pearl can tune\n", path);
	pearl_env_targets_free(t);
	return failed || !tuned;
}

/* Tunes the module at `path`: its @kernel if it is in the kernel
 * contract, else every target. 0, or 1 if something could not be tuned
 * (a message on stderr). */
static int tune_program(pearl_env *env, const struct args *a,
			const char *path, pearl_schedule_file *file)
{
	char err[512];
	char *text = pearl_read_file(path, NULL);
	int kind, rc;

	if (!text) {
		fprintf(stderr, "pearl-tune: cannot read %s\n", path);
		return 1;
	}
	kind = pearl_env_kernel_contract(env, text, err, sizeof(err));
	if (kind < 0)
		fprintf(stderr, "pearl-tune: %s: %s\n", path, err);
	rc = kind < 0	? 1
	     : kind	? tune_kernel(env, a, path, text, file)
			: tune_module(env, a, path, text, file);
	free(text);
	return rc;
}

/* Writes `file` (kept) to `path`, or to stdout when path is NULL. 0, or
 * -1 with a message on stderr. */
static int write_file(const pearl_schedule_file *file, const char *path)
{
	char err[512], *text;

	if (path) {
		if (pearl_schedule_file_write(file, path, err, sizeof(err)) ==
		    pearl_stat_ok)
			return 0;
		fprintf(stderr, "pearl-tune: %s\n", err);
		return -1;
	}
	text = pearl_schedule_file_to_str(file);
	if (!text) {
		fprintf(stderr, "pearl-tune: out of memory\n");
		return -1;
	}
	fputs(text, stdout);
	free(text);
	return 0;
}

/* Adds the entries of `text` (a schedule file's text, kept) to `file`, in
 * order. 0, or -1 with a message on stderr. */
static int add_entries(pearl_schedule_file *file, const char *text)
{
	char err[512];
	pearl_schedule_file *part = pearl_schedule_file_parse(
	    text, "(a rank's entries)", err, sizeof(err));
	int i, n, rc = 0;

	if (!part) {
		fprintf(stderr, "pearl-tune: %s\n", err);
		return -1;
	}
	n = pearl_schedule_file_n_entry(part);
	for (i = 0; i < n && !rc; ++i)
		if (pearl_schedule_file_add(
			file, pearl_schedule_file_get_entry(part, i), err,
			sizeof(err)) != pearl_stat_ok) {
			fprintf(stderr, "pearl-tune: %s\n", err);
			rc = -1;
		}
	pearl_schedule_file_free(part);
	return rc;
}

/* --out-dir: the entries of program i (kept) into DIR/NAME.sched. 0, or
 * -1 with a message on stderr. */
static int write_program_file(const struct args *a, int i,
			      const pearl_schedule_file *part)
{
	size_t len;
	const char *name = program_name(a->programs[i], &len);
	char *path = malloc(strlen(a->out_dir) + len + 8);
	int rc;

	if (!path) {
		fprintf(stderr, "pearl-tune: out of memory\n");
		return -1;
	}
	sprintf(path, "%s/%.*s.sched", a->out_dir, (int)len, name);
	rc = write_file(part, path);
	free(path);
	return rc;
}

/* Tunes this rank's programs, each into an entries text of its own
 * (texts[i], malloc'd; NULL if none). 0, or 1 if one could not be tuned. */
static int tune_programs(pearl_env *env, const struct args *a,
			 const struct tune_ranks *ranks, char **texts)
{
	int i, failed = 0;

	for (i = 0; i < a->n_programs; ++i) {
		pearl_schedule_file *part;

		if (!tune_ranks_owns(ranks, i))
			continue;
		part = pearl_schedule_file_alloc();
		if (!part) {
			fprintf(stderr, "pearl-tune: out of memory\n");
			return 1;
		}
		failed |= tune_program(env, a, a->programs[i], part);
		if (a->out_dir && pearl_schedule_file_n_entry(part) > 0 &&
		    write_program_file(a, i, part) < 0)
			failed = 1;
		else if (!a->out_dir && pearl_schedule_file_n_entry(part) > 0) {
			texts[i] = pearl_schedule_file_to_str(part);
			if (!texts[i]) {
				fprintf(stderr, "pearl-tune: out of memory\n");
				failed = 1;
			}
		}
		pearl_schedule_file_free(part);
	}
	return failed;
}

/* Rank 0: the programs' entries in program order, written. 0, or -1. */
static int write_entries(const struct args *a, char **texts)
{
	pearl_schedule_file *file = pearl_schedule_file_alloc();
	int i, rc = file ? 0 : -1;

	if (!file)
		fprintf(stderr, "pearl-tune: out of memory\n");
	for (i = 0; i < a->n_programs && !rc; ++i)
		if (texts[i] && add_entries(file, texts[i]) < 0)
			rc = -1;
	if (!rc && write_file(file, a->out) < 0)
		rc = -1;
	pearl_schedule_file_free(file);
	return rc;
}

/* The campaign of this rank: 0, 1 if something could not be tuned, 2 on
 * errors of the environment. */
static int campaign(struct args *a, const struct tune_ranks *ranks)
{
	char err[512], **texts;
	pearl_env *env;
	int failed = 1, broken = 0;

	if (ranks->size > 1)
		snprintf(a->rank_tag, sizeof(a->rank_tag), " (rank %d of %d)",
			 ranks->rank, ranks->size);
	/* A rank whose environment fails still takes part in the gathering,
	 * with no entries, so that the others do not wait for it forever. */
	texts = calloc((size_t)a->n_programs + 1, sizeof(*texts));
	if (a->out_dir && mkdir(a->out_dir, 0777) < 0 && errno != EEXIST)
		fprintf(stderr, "pearl-tune: cannot create %s: %s\n",
			a->out_dir, strerror(errno));
	env = texts ? pearl_env_create(&a->env, err, sizeof(err)) : NULL;
	if (!env) {
		fprintf(stderr, "pearl-tune: %s\n", texts ? err : "out of memory");
		broken = 1;
	} else {
		failed = tune_programs(env, a, ranks, texts);
		pearl_env_free(env);
	}
	if (!texts) /* nothing to gather into: give up */
		return 2;
	if (tune_ranks_gather(ranks, texts, a->n_programs, &failed) < 0)
		failed = 1;
	else if (ranks->rank == 0 && !a->out_dir && write_entries(a, texts) < 0)
		failed = 1;
	pearl_str_array_free(texts, a->n_programs);
	return broken ? 2 : failed ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct tune_ranks ranks;
	struct args a;
	pearl_policy *policy = NULL;
	char err[512];
	int rc;

	if (tune_ranks_init(&argc, &argv, &ranks) < 0)
		return 2;
	rc = parse_args(argc, argv, &a);
	if (rc != 0) {
		args_clear(&a);
		tune_ranks_finish(&ranks);
		return rc < 0 ? 2 : 0;
	}
	if (a.model) {
		policy = pearl_policy_load_file(a.model, err, sizeof(err));
		if (!policy) {
			fprintf(stderr, "pearl-tune: %s: %s\n", a.model, err);
			args_clear(&a);
			tune_ranks_finish(&ranks);
			return 2;
		}
		a.search.policy = policy;
	}
	a.search.progress = print_progress;
	a.search.progress_user = &a;
	rc = campaign(&a, &ranks);
	pearl_policy_free(policy);
	args_clear(&a);
	tune_ranks_finish(&ranks);
	return rc;
}
