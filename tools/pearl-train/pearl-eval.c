/*
 * pearl-eval: runs several policies side by side on a program set in the
 * execution environment and prints, per program, each policy's speedup
 * over the unscheduled program, then the geometric means.
 *
 *   pearl-eval --policy trained=models/pearl-policy.bin --policy untrained=init:1 \
 *              --random trained --heuristic --generated 100001,50 bench/gemm.mlir
 *
 * Policies: NAME=FILE (a weight blob), NAME=builtin (the compiled-in one),
 * NAME=init:SEED (the untrained network of that seed), all greedy;
 * --random REF: the random legal policy with REF's episode lengths
 * (per branch); --heuristic: the rules-only policy (baselines.h);
 * --critic FILE: the first policy with the critic's beam (pearl/agent.h);
 * --search N: pearl-tune's measured search (pearl/search.h, N candidates,
 * ranked by the first policy, no confirmation), the oracle the others are
 * then also given as fractions of.
 * Every schedule is timed by the environment (memoized), outputs checked
 * against the unscheduled program bit for bit; a schedule that fails counts
 * as 1.0x (the compiler would keep the original) and is flagged.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pearl/baselines.h"
#include "episode.h"
#include "pearl/options.h"
#include "pearl/search.h"
#include "programs.h"

#define MAX_POLICIES 8

struct column {
	char name[64];
	enum { COL_POLICY, COL_RANDOM, COL_HEURISTIC, COL_BEAM,
	       COL_SEARCH } kind;
	const char *spec;     /* COL_POLICY: FILE|builtin|init:SEED */
	pearl_policy *policy; /* COL_POLICY: loaded from spec */
	int as_chosen; /* COL_POLICY: without the rule of uniform
			* parallelism (--as-chosen) */
	int ref; /* COL_RANDOM: the column whose lengths it copies;
		  * COL_BEAM, COL_SEARCH: the policy column they use */
	double log_sum;
	int n, slow, failed;
};

/* The command line. */
struct eval_options {
	struct column col[MAX_POLICIES]; /* in the order given */
	int n_col;
	const char *random_ref, *csv_path;
	const char *critic_path;   /* --critic */
	pearl_policy *critic;
	int beam_width, beam_top_k; /* --beam W,K */
	long search_budget;         /* --search N; 0: no search column */
	struct pearl_env_options eo;
	unsigned long long gen_first;
	int gen_count;
	enum pearl_gen_family family; /* of the generated programs */
	enum pearl_gen_scale scale;
	uint64_t seed;
	int verbose;
	char **files; /* program.mlir ... (into argv) */
	int n_files;
};

static void usage(FILE *f)
{
	fprintf(f,
"usage: pearl-eval [options] [program.mlir ...]\n"
"  --policy NAME=FILE|builtin|init:SEED   a greedy policy (repeatable)\n"
"  --as-chosen NAME       policy NAME's episodes as it chose them, without\n"
"                         the rule of uniform parallelism (pearl/agent.h)\n"
"  --random REF           random legal policy with REF's episode lengths\n"
"  --heuristic            rules-only policy: tile 32x32, parallel, unroll 4\n"
"  --critic FILE          the first policy with the critic's beam\n"
"  --beam W,K             its width and top-k (default 4,3)\n"
"  --search N             pearl-tune's search, N candidates per program (no\n"
"                         confirmation): the oracle; every column is also\n"
"                         given as a fraction of its geomean\n"
"  --generated FIRST,N    pearl-gen programs FIRST..FIRST+N-1\n"
"  --family any|matmul|gemm|chain|matvec|sweep|doitgen  their family (default any; see pearl-gen)\n"
"  --size-scale small|train|wide|cache  (default train)\n"
"  --memo FILE            SQLite memo (default: none)\n"
"  --threads N  --runs N  --machine NAME  --seed N\n"
"  --csv FILE             per-program rows with the schedules\n"
"  -v                     progress on stderr\n");
}

static pearl_policy *load_policy(const char *spec, char *err, size_t size)
{
	if (!strcmp(spec, "builtin"))
		return pearl_policy_load_builtin(err, size);
	if (!strncmp(spec, "init:", 5)) {
		struct pearl_policy_config cfg = pearl_policy_default_config();

		return pearl_policy_init_random(
		    &cfg, strtoull(spec + 5, NULL, 10), err, size);
	}
	return pearl_policy_load_file(spec, err, size);
}

/* --policy NAME=FILE|builtin|init:SEED: a column (loaded later). */
static int add_policy(const char *value, void *dest)
{
	struct eval_options *o = dest;
	const char *eq = strchr(value, '=');
	struct column *c = &o->col[o->n_col];

	if (!eq || o->n_col == MAX_POLICIES)
		return pearl_option_bad_value;
	snprintf(c->name, sizeof(c->name), "%.*s", (int)(eq - value), value);
	c->kind = COL_POLICY;
	c->spec = eq + 1;
	o->n_col++;
	return pearl_option_ok;
}

/* --as-chosen NAME: policy column NAME (given before) without the rule of
 * uniform parallelism. */
static int set_as_chosen(const char *value, void *dest)
{
	struct eval_options *o = dest;
	int j;

	for (j = 0; j < o->n_col; ++j)
		if (o->col[j].kind == COL_POLICY &&
		    !strcmp(o->col[j].name, value)) {
			o->col[j].as_chosen = 1;
			return pearl_option_ok;
		}
	return pearl_option_bad_value;
}

/* --heuristic: a column. */
static int add_heuristic(const char *value, void *dest)
{
	struct eval_options *o = dest;

	if (o->n_col == MAX_POLICIES)
		return pearl_option_bad_value;
	snprintf(o->col[o->n_col].name, sizeof(o->col[o->n_col].name),
		 "heuristic");
	o->col[o->n_col++].kind = COL_HEURISTIC;
	return pearl_option_ok;
}

/* --beam W,K */
static int parse_beam(const char *value, void *dest)
{
	struct eval_options *o = dest;
	int end = 0;

	if (sscanf(value, "%d,%d%n", &o->beam_width, &o->beam_top_k, &end) !=
		2 || value[end] || o->beam_width < 1 || o->beam_width > 64 ||
	    o->beam_top_k < 1 || o->beam_top_k > 16)
		return pearl_option_bad_value;
	return pearl_option_ok;
}

/* --generated FIRST,N */
static int parse_generated(const char *value, void *dest)
{
	struct eval_options *o = dest;
	int end = 0;

	if (sscanf(value, "%llu,%d%n", &o->gen_first, &o->gen_count, &end) !=
		2 || value[end])
		return pearl_option_bad_value;
	return pearl_option_ok;
}

/* Fills *o from the command line (o->files: room for argc words): 0, 1
 * after --help, or -1 on a usage error (said on stderr). */
static int parse_options(int argc, char **argv, struct eval_options *o)
{
	const struct pearl_option table[] = {
	    PEARL_OPTION_CALL("policy", o, add_policy,
			      "NAME=FILE|builtin|init:SEED, at most "
			      "8 columns"),
	    PEARL_OPTION_STRING("random", &o->random_ref),
	    PEARL_OPTION_CALL("as-chosen", o, set_as_chosen, "NAME"),
	    PEARL_OPTION_ACTION("heuristic", o, add_heuristic,
				"at most 8 columns"),
	    PEARL_OPTION_CALL("generated", o, parse_generated, "FIRST,N"),
	    PEARL_OPTION_CALL("family", &o->family, pearl_gen_family_option,
			      "any|matmul|gemm|chain|matvec|sweep|doitgen"),
	    PEARL_OPTION_STRING("critic", &o->critic_path),
	    PEARL_OPTION_CALL("beam", o, parse_beam,
			      "W,K with W in 1..64 and K in 1..16"),
	    PEARL_OPTION_LONG("search", &o->search_budget, 1, LONG_MAX),
	    PEARL_OPTION_CALL("size-scale", &o->scale, pearl_gen_scale_option,
			      "small|train|wide|cache"),
	    PEARL_OPTION_STRING("memo", &o->eo.memo_path),
	    PEARL_OPTION_INT("threads", &o->eo.threads, INT_MIN, INT_MAX),
	    PEARL_OPTION_INT("runs", &o->eo.runs, INT_MIN, INT_MAX),
	    PEARL_OPTION_STRING("machine", &o->eo.machine),
	    PEARL_OPTION_U64("seed", &o->seed),
	    PEARL_OPTION_STRING("csv", &o->csv_path),
	    {.short_name = 'v', .kind = pearl_option_flag, .dest = &o->verbose},
	    {.name = "help", .short_name = 'h', .kind = pearl_option_stop},
	    PEARL_OPTION_END};
	struct pearl_options_result res = {.arguments = o->files};
	int r;

	r = pearl_options_parse_or_say("pearl-eval", 0, table, 1, argc, argv,
				       &res);
	o->n_files = res.n_arguments;
	return r;
}

/* ---- Setting up -------------------------------------------------------- */

/* Loads the policy of every --policy column; 0, or -1 (said on stderr,
 * with the reason in err). */
static int load_policies(struct eval_options *o, char *err, size_t size)
{
	struct column *c;

	for (c = o->col; c < o->col + o->n_col; ++c) {
		if (c->kind != COL_POLICY)
			continue;
		c->policy = load_policy(c->spec, err, size);
		if (!c->policy) {
			fprintf(stderr, "pearl-eval: %s: %s\n", c->spec, err);
			return -1;
		}
	}
	return 0;
}

/* Adds a column of `kind` named `name` that uses the first --policy
 * column; 0, or -1 (said on stderr) if there is none or no room. */
static int add_column_of_first_policy(struct eval_options *o, int kind,
				      const char *name, const char *option)
{
	int j;

	for (j = 0; j < o->n_col; ++j)
		if (o->col[j].kind == COL_POLICY)
			break;
	if (j == o->n_col || o->n_col == MAX_POLICIES) {
		fprintf(stderr, "pearl-eval: %s needs a --policy column%s\n",
			option, j == o->n_col ? "" : " and room for one more");
		return -1;
	}
	snprintf(o->col[o->n_col].name, sizeof(o->col[o->n_col].name), "%s",
		 name);
	o->col[o->n_col].kind = kind;
	o->col[o->n_col++].ref = j;
	return 0;
}

/* --critic FILE and --search N: their columns, after the others; 0, or -1
 * (said on stderr). */
static int add_beam_and_search(struct eval_options *o, char *err,
			       size_t size)
{
	if (o->critic_path) {
		o->critic = pearl_policy_load_file(o->critic_path, err, size);
		if (!o->critic) {
			fprintf(stderr, "pearl-eval: --critic %s: %s\n",
				o->critic_path, err);
			err[0] = 0; /* said */
			return -1;
		}
		if (add_column_of_first_policy(o, COL_BEAM, "beam",
					       "--critic") < 0)
			return -1;
	}
	if (o->search_budget > 0 &&
	    add_column_of_first_policy(o, COL_SEARCH, "search",
				       "--search") < 0)
		return -1;
	return 0;
}

/* --random REF: the random column after the others, with the episode
 * lengths of the --policy column named REF; 0, or -1 (said on stderr). */
static int add_random_column(struct eval_options *o)
{
	int j;

	if (!o->random_ref)
		return 0;
	for (j = 0; j < o->n_col; ++j)
		if (o->col[j].kind == COL_POLICY &&
		    !strcmp(o->col[j].name, o->random_ref))
			break;
	if (j == o->n_col || o->n_col == MAX_POLICIES) {
		fprintf(stderr, "pearl-eval: --random %s: no such --policy\n",
			o->random_ref);
		return -1;
	}
	snprintf(o->col[o->n_col].name, sizeof(o->col[o->n_col].name),
		 "random");
	o->col[o->n_col].kind = COL_RANDOM;
	o->col[o->n_col++].ref = j;
	return 0;
}

/* The generated programs, then the files, into *set; 0, or -1 with a
 * message in err. */
static int load_programs(const struct eval_options *o, pearl_env *env,
			 struct program_set *set, char *err, size_t size)
{
	if (o->gen_count > 0 &&
	    program_set_add_generated(set, env, o->gen_first, o->gen_count,
				      o->scale, o->family, o->verbose, err,
				      size) < 0)
		return -1;
	if (o->n_files > 0 &&
	    program_set_add_files(set, env, o->files, o->n_files, o->verbose,
				  err, size) < 0)
		return -1;
	if (set->skipped)
		fprintf(stderr, "pearl-eval: %d programs could not be modeled "
				"and are left out\n", set->skipped);
	return 0;
}

/* --csv FILE opened with its header into *csv (NULL without --csv); 0, or
 * -1 with a message in err. */
static int open_csv(const char *path, FILE **csv, char *err, size_t size)
{
	*csv = NULL;
	if (!path)
		return 0;
	*csv = fopen(path, "w");
	if (!*csv) {
		snprintf(err, size, "cannot write %s", path);
		return -1;
	}
	fprintf(*csv, "program,base_seconds,policy,speedup,status,schedule\n");
	return 0;
}

/* ---- Evaluating --------------------------------------------------------- */

/* The schedule of the heuristic or random column c for program number
 * `index`, p, and its time in *res; 0, or -1 with a message in err.
 * res[c->ref] is the result of the column whose lengths a random column
 * copies. */
static int run_baseline(pearl_env *env, pearl_env_program *p, int index,
			const struct eval_options *o, const struct column *c,
			struct episode_result *res, char *err, size_t size)
{
	char schedule[EPISODE_SCHEDULE_MAX];
	pearl_sched *sched = pearl_env_program_sched(p, err, size);
	int r;

	if (!sched)
		return -1;
	if (c->kind == COL_HEURISTIC) {
		r = pearl_baseline_heuristic(sched, schedule, sizeof(schedule));
	} else {
		int *counts = NULL;
		int nb = pearl_baseline_count_per_branch(res[c->ref].schedule,
						   &counts);

		r = nb < 0 ? -1
			   : pearl_baseline_random(sched, counts, nb, o->seed + index,
					     schedule, sizeof(schedule));
		free(counts);
	}
	pearl_sched_free(sched);
	if (r < 0) {
		snprintf(err, size, "%s: %s failed", pearl_env_program_name(p),
			 c->name);
		return -1;
	}
	return episode_time_schedule(env, p, schedule, &res[c - o->col], err,
				     size);
}

/* The schedule the critic's beam takes on p with column c's policy, timed
 * into *res; 0, or -1 with a message in err. */
static int run_beam(pearl_env *env, pearl_env_program *p,
		    const struct eval_options *o, const struct column *c,
		    struct episode_result *res, char *err, size_t size)
{
	struct pearl_agent_options ao;
	char *schedule;
	int r;

	pearl_agent_options_init(&ao);
	ao.critic = o->critic;
	ao.beam_width = o->beam_width;
	ao.beam_top_k = o->beam_top_k;
	schedule = pearl_env_program_agent_schedule(p, o->col[c->ref].policy,
						    &ao, err, size);
	if (!schedule)
		return -1;
	r = episode_time_schedule(env, p, schedule, res, err, size);
	free(schedule);
	return r;
}

/* The best schedule pearl-tune's search finds on p within the budget,
 * ranked by column c's policy, timed into *res (a memo hit: the search
 * measured it); 0, or -1 with a message in err. */
static int run_search(pearl_env *env, pearl_env_program *p,
		      const struct eval_options *o, const struct column *c,
		      struct episode_result *res, char *err, size_t size)
{
	struct pearl_search_options so;
	struct pearl_search_result r;
	int rc = -1;

	pearl_search_options_init(&so);
	so.max_measurements = o->search_budget;
	/* no confirmation: its measurements bypass the memo; the columns
	 * are all measured alike, and a rerun on the memo runs nothing */
	so.confirm = 0;
	so.policy = o->col[c->ref].policy;
	if (pearl_search_run(env, p, &so, &r, err, size) == 0)
		rc = episode_time_schedule(env, p, r.best_schedule, res, err,
					   size);
	pearl_search_result_clear(&r);
	return rc;
}

/* The result of every column on program number `index`, p, into res;
 * 0, or -1 with a message in err. */
static int run_columns(pearl_env *env, pearl_env_program *p, int index,
		       const struct eval_options *o,
		       struct episode_result *res, char *err, size_t size)
{
	const struct column *c;

	for (c = o->col; c < o->col + o->n_col; ++c) {
		struct pearl_agent_options ao;

		pearl_agent_options_init(&ao);
		ao.uniform_parallel = !c->as_chosen;
		ao.fill_parallel = !c->as_chosen;
		if (c->kind == COL_POLICY) {
			if (episode_run(env, p, c->policy, &ao,
					EPISODE_REWARD_FINAL, NULL,
					&res[c - o->col], err, size) < 0)
				return -1;
		} else if (c->kind == COL_BEAM) {
			if (run_beam(env, p, o, c, &res[c - o->col], err,
				     size) < 0)
				return -1;
		} else if (c->kind == COL_SEARCH) {
			if (run_search(env, p, o, c, &res[c - o->col], err,
				       size) < 0)
				return -1;
		} else if (run_baseline(env, p, index, o, c, res, err,
					size) < 0) {
			return -1;
		}
	}
	return 0;
}

/* Prints program p's row (and its CSV rows, and with -v its schedules)
 * and adds its results to the columns' sums. */
static void report_program(pearl_env_program *p, struct eval_options *o,
			   const struct episode_result *res, FILE *csv)
{
	int j;

	printf("%-22s %10.3f", pearl_env_program_name(p),
	       res[0].base_seconds * 1e3);
	for (j = 0; j < o->n_col; ++j) {
		struct column *c = &o->col[j];
		int ok = res[j].status == PEARL_ENV_OK;

		printf(" %10.2fx%s", res[j].speedup, ok ? "" : "!");
		c->log_sum += log(res[j].speedup);
		c->n++;
		c->slow += res[j].speedup < 0.95;
		c->failed += !ok;
		if (csv)
			fprintf(csv, "%s,%.6g,%s,%.6f,%s,\"%s\"\n",
				pearl_env_program_name(p),
				res[j].base_seconds, c->name, res[j].speedup,
				pearl_env_status_name(res[j].status),
				res[j].schedule);
	}
	printf("\n");
	fflush(stdout);
	if (o->verbose)
		for (j = 0; j < o->n_col; ++j)
			fprintf(stderr, "  %-10s %s\n", o->col[j].name,
				res[j].schedule[0] ? res[j].schedule
						   : "(none)");
}

static double column_geomean(const struct column *c)
{
	return c->n ? exp(c->log_sum / c->n) : 1.0;
}

/* The table: a header, a row per program, the geometric means and counts
 * of the columns and the environment's counters. 0, or -1 with a message
 * in err. */
static int evaluate(pearl_env *env, const struct program_set *set,
		    struct eval_options *o, FILE *csv, char *err, size_t size)
{
	struct pearl_env_stats s;
	int i, j;

	printf("%-22s %10s", "program", "base ms");
	for (j = 0; j < o->n_col; ++j)
		printf(" %11s", o->col[j].name);
	printf("\n");
	for (i = 0; i < set->n; ++i) {
		struct episode_result res[MAX_POLICIES];

		if (run_columns(env, set->p[i], i, o, res, err, size) < 0)
			return -1;
		report_program(set->p[i], o, res, csv);
	}
	printf("%-22s %10s", "geomean", "");
	for (j = 0; j < o->n_col; ++j)
		printf(" %10.3fx ", column_geomean(&o->col[j]));
	for (j = 0; j < o->n_col; ++j)
		if (o->col[j].kind == COL_SEARCH)
			break;
	if (j < o->n_col) {
		double oracle = column_geomean(&o->col[j]);

		printf("\n%-22s %10s", "of the search", "");
		for (j = 0; j < o->n_col; ++j)
			printf(" %11.3f", column_geomean(&o->col[j]) / oracle);
	}
	printf("\n%-22s %10s", "below 0.95x", "");
	for (j = 0; j < o->n_col; ++j)
		printf(" %11d", o->col[j].slow);
	printf("\n%-22s %10s", "failed (!)", "");
	for (j = 0; j < o->n_col; ++j)
		printf(" %11d", o->col[j].failed);
	printf("\n");
	pearl_env_get_stats(env, &s);
	printf("programs %d; environment: %ld queries, %ld memo hits, "
	       "%ld compilations, %ld executions\n",
	       set->n, s.queries, s.memo_hits, s.compilations, s.executions);
	return 0;
}

/* ---- main --------------------------------------------------------------- */

/* The options' defaults; o->files gets room for argc words. 0, or -1 if
 * memory is exhausted. */
static int init_options(struct eval_options *o, int argc)
{
	memset(o, 0, sizeof(*o));
	o->seed = 1;
	o->scale = pearl_gen_scale_train;
	o->beam_width = 4;
	o->beam_top_k = 3;
	pearl_env_options_init(&o->eo);
	o->files = calloc(argc, sizeof(*o->files));
	return o->files ? 0 : -1;
}

/* Runs the evaluation the options ask for: 0, or 1 on an error (said on
 * stderr). */
static int run(struct eval_options *o)
{
	struct program_set set;
	pearl_env *env = NULL;
	char err[1024] = "";
	FILE *csv = NULL;
	int rc = 1;

	memset(&set, 0, sizeof(set));
	if (load_policies(o, err, sizeof(err)) < 0 ||
	    add_random_column(o) < 0 ||
	    add_beam_and_search(o, err, sizeof(err)) < 0)
		goto out;
	if (o->n_col == 0) {
		usage(stderr);
		goto out;
	}
	env = pearl_env_create(&o->eo, err, sizeof(err));
	if (!env || load_programs(o, env, &set, err, sizeof(err)) < 0 ||
	    open_csv(o->csv_path, &csv, err, sizeof(err)) < 0 ||
	    evaluate(env, &set, o, csv, err, sizeof(err)) < 0)
		goto out;
	rc = 0;
out:
	if (rc && err[0])
		fprintf(stderr, "pearl-eval: %s\n", err);
	if (csv)
		fclose(csv);
	program_set_clear(&set);
	pearl_env_free(env);
	return rc;
}

int main(int argc, char **argv)
{
	struct eval_options o;
	int rc, j;

	if (init_options(&o, argc) < 0) {
		fprintf(stderr, "pearl-eval: out of memory\n");
		return 1;
	}
	rc = pearl_options_exit_status(parse_options(argc, argv, &o), usage,
				       pearl_exit_usage);
	if (rc < 0)
		rc = run(&o);
	for (j = 0; j < o.n_col; ++j)
		pearl_policy_free(o.col[j].policy);
	pearl_policy_free(o.critic);
	free(o.files);
	return rc;
}
