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
 * (per branch); --heuristic: the rules-only policy (baselines.h).
 * Every schedule is timed by the environment (memoized), outputs checked
 * against the unscheduled program bit for bit; a schedule that fails counts
 * as 1.0x (the compiler would keep the original) and is flagged.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baselines.h"
#include "episode.h"
#include "pearl/options.h"
#include "programs.h"

#define MAX_POLICIES 8

struct column {
	char name[64];
	enum { COL_POLICY, COL_RANDOM, COL_HEURISTIC } kind;
	const char *spec;     /* COL_POLICY: FILE|builtin|init:SEED */
	pearl_policy *policy; /* COL_POLICY: loaded from spec */
	int ref; /* COL_RANDOM: the column whose lengths it copies */
	double log_sum;
	int n, slow, failed;
};

/* The command line. */
struct eval_options {
	struct column col[MAX_POLICIES]; /* in the order given */
	int n_col;
	const char *random_ref, *csv_path;
	struct pearl_env_options eo;
	unsigned long long gen_first;
	int gen_count;
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
"  --random REF           random legal policy with REF's episode lengths\n"
"  --heuristic            rules-only policy: tile 32x32, parallel, unroll 4\n"
"  --generated FIRST,N    pearl-gen programs FIRST..FIRST+N-1\n"
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

static int parse_scale(const char *value, void *dest)
{
	return pearl_gen_scale_parse(value, dest) < 0 ? pearl_option_bad_value
						      : pearl_option_ok;
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
	    PEARL_OPTION_ACTION("heuristic", o, add_heuristic,
				"at most 8 columns"),
	    PEARL_OPTION_CALL("generated", o, parse_generated, "FIRST,N"),
	    PEARL_OPTION_CALL("size-scale", &o->scale, parse_scale,
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
	struct pearl_options_result res = {0};
	int r;

	res.arguments = o->files;
	r = pearl_options_parse(table, 1, argc, argv, &res);
	o->n_files = res.n_arguments;
	if (r < 0)
		fprintf(stderr, "pearl-eval: %s\n", res.message);
	return r;
}

int main(int argc, char **argv)
{
	struct eval_options o;
	struct column *col = o.col;
	struct program_set set;
	pearl_env *env = NULL;
	int n_col, i, j, rc = 1;
	char err[1024] = "";
	FILE *csv = NULL;

	memset(&set, 0, sizeof(set));
	memset(&o, 0, sizeof(o));
	o.seed = 1;
	o.scale = pearl_gen_scale_train;
	pearl_env_options_init(&o.eo);
	o.files = calloc(argc, sizeof(*o.files));
	if (!o.files) {
		fprintf(stderr, "pearl-eval: out of memory\n");
		return 1;
	}
	switch (parse_options(argc, argv, &o)) {
	case 0:
		break;
	case 1:
		usage(stdout);
		free(o.files);
		return 0;
	default:
		usage(stderr);
		free(o.files);
		return 2;
	}
	n_col = o.n_col;
	for (j = 0; j < n_col; ++j) {
		if (col[j].kind != COL_POLICY)
			continue;
		col[j].policy = load_policy(col[j].spec, err, sizeof(err));
		if (!col[j].policy) {
			fprintf(stderr, "pearl-eval: %s: %s\n", col[j].spec,
				err);
			goto out;
		}
	}
	if (o.random_ref) {
		for (j = 0; j < n_col; ++j)
			if (col[j].kind == COL_POLICY &&
			    !strcmp(col[j].name, o.random_ref))
				break;
		if (j == n_col || n_col == MAX_POLICIES) {
			fprintf(stderr, "pearl-eval: --random %s: no such "
					"--policy\n", o.random_ref);
			goto out;
		}
		snprintf(col[n_col].name, sizeof(col[n_col].name), "random");
		col[n_col].kind = COL_RANDOM;
		col[n_col++].ref = j;
	}
	if (n_col == 0) {
		usage(stderr);
		goto out;
	}
	env = pearl_env_create(&o.eo, err, sizeof(err));
	if (!env)
		goto out;
	if (o.gen_count > 0 &&
	    program_set_add_generated(&set, env, o.gen_first, o.gen_count,
				      o.scale, o.verbose, err, sizeof(err)) < 0)
		goto out;
	if (o.n_files > 0 &&
	    program_set_add_files(&set, env, o.files, o.n_files, o.verbose,
				  err, sizeof(err)) < 0)
		goto out;
	if (set.skipped)
		fprintf(stderr, "pearl-eval: %d programs could not be modeled "
				"and are left out\n", set.skipped);
	if (o.csv_path && !(csv = fopen(o.csv_path, "w"))) {
		snprintf(err, sizeof(err), "cannot write %s", o.csv_path);
		goto out;
	}
	if (csv)
		fprintf(csv, "program,base_seconds,policy,speedup,status,"
			     "schedule\n");
	printf("%-22s %10s", "program", "base ms");
	for (j = 0; j < n_col; ++j)
		printf(" %11s", col[j].name);
	printf("\n");
	for (i = 0; i < set.n; ++i) {
		struct episode_result res[MAX_POLICIES];
		pearl_env_program *p = set.p[i];

		for (j = 0; j < n_col; ++j) {
			struct pearl_agent_options ao;
			char schedule[EPISODE_SCHEDULE_MAX];
			pearl_sched *sched = NULL;
			int r = 0;

			pearl_agent_options_init(&ao);
			if (col[j].kind == COL_POLICY) {
				if (episode_run(env, p, col[j].policy, &ao,
						EPISODE_REWARD_FINAL, NULL,
						&res[j], err, sizeof(err)) < 0)
					goto out;
				continue;
			}
			sched = pearl_env_program_sched(p, err, sizeof(err));
			if (!sched)
				goto out;
			if (col[j].kind == COL_HEURISTIC) {
				r = baseline_heuristic(sched, schedule,
						       sizeof(schedule));
			} else {
				int *counts = NULL;
				int nb = baseline_count_per_branch(
				    res[col[j].ref].schedule, &counts);

				r = nb < 0 ? -1
					   : baseline_random(sched, counts, nb,
							     o.seed + i, schedule,
							     sizeof(schedule));
				free(counts);
			}
			pearl_sched_free(sched);
			if (r < 0) {
				snprintf(err, sizeof(err), "%s: %s failed",
					 pearl_env_program_name(p),
					 col[j].name);
				goto out;
			}
			if (episode_time_schedule(env, p, schedule, &res[j],
						  err, sizeof(err)) < 0)
				goto out;
		}
		printf("%-22s %10.3f", pearl_env_program_name(p),
		       res[0].base_seconds * 1e3);
		for (j = 0; j < n_col; ++j) {
			int ok = res[j].status == PEARL_ENV_OK;

			printf(" %10.2fx%s", res[j].speedup, ok ? "" : "!");
			col[j].log_sum += log(res[j].speedup);
			col[j].n++;
			col[j].slow += res[j].speedup < 0.95;
			col[j].failed += !ok;
			if (csv)
				fprintf(csv, "%s,%.6g,%s,%.4f,%s,\"%s\"\n",
					pearl_env_program_name(p),
					res[j].base_seconds, col[j].name,
					res[j].speedup,
					pearl_env_status_name(res[j].status),
					res[j].schedule);
		}
		printf("\n");
		fflush(stdout);
		if (o.verbose)
			for (j = 0; j < n_col; ++j)
				fprintf(stderr, "  %-10s %s\n", col[j].name,
					res[j].schedule[0] ? res[j].schedule
							   : "(none)");
	}
	printf("%-22s %10s", "geomean", "");
	for (j = 0; j < n_col; ++j)
		printf(" %10.3fx ", col[j].n ? exp(col[j].log_sum / col[j].n)
					     : 1.0);
	printf("\n%-22s %10s", "below 0.95x", "");
	for (j = 0; j < n_col; ++j)
		printf(" %11d", col[j].slow);
	printf("\n%-22s %10s", "failed (!)", "");
	for (j = 0; j < n_col; ++j)
		printf(" %11d", col[j].failed);
	printf("\n");
	{
		struct pearl_env_stats s;

		pearl_env_get_stats(env, &s);
		printf("programs %d; environment: %ld queries, %ld memo hits, "
		       "%ld compilations, %ld executions\n",
		       set.n, s.queries, s.memo_hits, s.compilations,
		       s.executions);
	}
	rc = 0;
out:
	if (rc && err[0])
		fprintf(stderr, "pearl-eval: %s\n", err);
	if (csv)
		fclose(csv);
	program_set_clear(&set);
	for (j = 0; j < n_col; ++j)
		pearl_policy_free(col[j].policy);
	pearl_env_free(env);
	free(o.files);
	return rc;
}
