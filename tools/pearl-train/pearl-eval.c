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
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baselines.h"
#include "episode.h"
#include "programs.h"

#define MAX_POLICIES 8

struct column {
	char name[64];
	enum { COL_POLICY, COL_RANDOM, COL_HEURISTIC } kind;
	pearl_policy *policy;
	int ref; /* COL_RANDOM: the column whose lengths it copies */
	double log_sum;
	int n, slow, failed;
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

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"policy", 1, 0, 'p'},    {"random", 1, 0, 'r'},
	    {"heuristic", 0, 0, 'H'}, {"generated", 1, 0, 'g'},
	    {"size-scale", 1, 0, 'z'}, {"memo", 1, 0, 'm'},
	    {"threads", 1, 0, 't'},   {"runs", 1, 0, 'R'},
	    {"machine", 1, 0, 'C'},   {"seed", 1, 0, 'S'},
	    {"csv", 1, 0, 'c'},       {"help", 0, 0, 'h'},
	    {0, 0, 0, 0}};
	struct column col[MAX_POLICIES];
	const char *random_ref = NULL, *csv_path = NULL;
	struct pearl_env_options eo;
	struct program_set set;
	pearl_env *env = NULL;
	unsigned long long gen_first = 0;
	int gen_count = 0, n_col = 0, verbose = 0, c, i, j, rc = 1;
	uint64_t seed = 1;
	enum pearl_gen_scale scale = pearl_gen_scale_train;
	char err[1024] = "";
	FILE *csv = NULL;

	memset(&set, 0, sizeof(set));
	memset(col, 0, sizeof(col));
	pearl_env_options_init(&eo);
	while ((c = getopt_long(argc, argv, "vh", longopts, NULL)) != -1) {
		char *eq;

		switch (c) {
		case 'p':
			eq = strchr(optarg, '=');
			if (!eq || n_col == MAX_POLICIES) {
				usage(stderr);
				return 2;
			}
			snprintf(col[n_col].name, sizeof(col[n_col].name),
				 "%.*s", (int)(eq - optarg), optarg);
			col[n_col].kind = COL_POLICY;
			col[n_col].policy = load_policy(eq + 1, err,
							sizeof(err));
			if (!col[n_col].policy) {
				fprintf(stderr, "pearl-eval: %s: %s\n", eq + 1,
					err);
				goto out;
			}
			n_col++;
			break;
		case 'r': random_ref = optarg; break;
		case 'H':
			if (n_col == MAX_POLICIES)
				return 2;
			snprintf(col[n_col].name, sizeof(col[n_col].name),
				 "heuristic");
			col[n_col++].kind = COL_HEURISTIC;
			break;
		case 'g':
			if (sscanf(optarg, "%llu,%d", &gen_first, &gen_count) !=
			    2) {
				usage(stderr);
				return 2;
			}
			break;
		case 'z':
			if (pearl_gen_scale_parse(optarg, &scale) < 0) {
				usage(stderr);
				return 2;
			}
			break;
		case 'm': eo.memo_path = optarg; break;
		case 't': eo.threads = atoi(optarg); break;
		case 'R': eo.runs = atoi(optarg); break;
		case 'C': eo.machine = optarg; break;
		case 'S': seed = strtoull(optarg, NULL, 10); break;
		case 'c': csv_path = optarg; break;
		case 'v': verbose = 1; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (random_ref) {
		for (j = 0; j < n_col; ++j)
			if (col[j].kind == COL_POLICY &&
			    !strcmp(col[j].name, random_ref))
				break;
		if (j == n_col || n_col == MAX_POLICIES) {
			fprintf(stderr, "pearl-eval: --random %s: no such "
					"--policy\n", random_ref);
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
	env = pearl_env_create(&eo, err, sizeof(err));
	if (!env)
		goto out;
	if (gen_count > 0 &&
	    program_set_add_generated(&set, env, gen_first, gen_count, scale,
				      verbose, err, sizeof(err)) < 0)
		goto out;
	if (optind < argc &&
	    program_set_add_files(&set, env, argv + optind, argc - optind,
				  verbose, err, sizeof(err)) < 0)
		goto out;
	if (set.skipped)
		fprintf(stderr, "pearl-eval: %d programs could not be modeled "
				"and are left out\n", set.skipped);
	if (csv_path && !(csv = fopen(csv_path, "w"))) {
		snprintf(err, sizeof(err), "cannot write %s", csv_path);
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
							     seed + i, schedule,
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
		if (verbose)
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
	return rc;
}
