/*
 * pearl-env - times schedules of programs in Pearl's training environment
 * (include/pearl/env.h) and inspects its memo database.
 *
 *   pearl-env [options] [--schedule S]... program.mlir...
 *   pearl-env --memo db.sqlite --summary
 *   pearl-env --memo db.sqlite --merge other.sqlite
 *
 * Programs are MLIR modules in the benchmark kernel contract (@init,
 * @kernel, `// outputs:`). For every program and every --schedule (default:
 * only the unscheduled program, ""), one line:
 *
 *   NAME HASH STATUS base B time T speedup X memo hit|miss "SCHEDULE" [: why]
 *
 * With --agent greedy|sample, the schedules are the compiled-in policy's
 * choices instead (--episodes K sampled episodes, seeds --seed S, S+1, ...),
 * found on the program's model (pearl_env_program_sched) as a trainer
 * would. --fingerprint prints instead, per program, "NAME FINGERPRINT":
 * the fingerprint of @kernel's model, the value pearl-schedule prints with
 * print-model and schedule files record. With --function F, the
 * programs are ordinary modules instead, and what is timed is their target
 * (F, --region R, default 0) on pearl-exec's inputs (--size N, default
 * 64; pearl/env.h). --stats prints the environment's
 * counters at the end. --merge copies the answers of another memo that
 * --memo's lacks (each under its own machine), for --memo-also: a program
 * this machine has no base for is then answered from the first of those
 * machines' answers that has one, until a query must measure. Exit status:
 * 0 if
 * every query was answered (whatever its status), 1 if a program does not
 * load or its base does not run, 2 on a usage error or an error of the
 * environment (e.g. the memo file is not an SQLite database).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "pearl/agent.h"
#include "pearl/file.h"
#include "pearl/env.h"
#include "pearl/options.h"
#include "pearl/policy.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: pearl-env [options] [--schedule S]... program.mlir...\n"
		"       pearl-env --memo FILE --summary\n"
		"       pearl-env --memo FILE --merge OTHER\n"
		"Times each schedule of each program (kernel contract) against "
		"the unscheduled\nprogram, with SQLite memoization.\n"
		"  --memo FILE         memo database (created if missing)\n"
		"  --schedule S        a schedule in Pearl's notation "
		"(repeatable; \"\" is the base)\n"
		"  --machine M         machine fingerprint (default: CPU "
		"model, cpus, threads)\n"
		"  --memo-also M1|M2   other machines whose memoized answers "
		"serve a program\n"
		"                      this machine has no base for (until "
		"a query must measure)\n"
		"  --warmup N          untimed runs first (default 1)\n"
		"  --warmup-time S     and more until the kernel ran S "
		"seconds (default 0.02)\n"
		"  --runs N            timed runs, minimum kept (default 3)\n"
		"  --max-cpu-pressure X  measure again (after a wait) when "
		"some task waited\n"
		"                      for a CPU more than this fraction of "
		"the runs, and\n"
		"                      memoize no answer that stays so "
		"(default 0.35; 0: no check)\n"
		"  --contention-retries N  how many times (default 3)\n"
		"  --recheck-bases N   measure the first N bases the memo "
		"answers again, and\n"
		"                      warn if they are not the memo's times "
		"(another host;\n"
		"                      default 0, at most 64)\n"
		"  --threads N         OpenMP threads (default 2)\n"
		"  --timeout-factor F  timeout at F times the base (default 8)\n"
		"  --timeout-min S     never time out below S seconds "
		"(default 1)\n"
		"  --time-limit S      seconds an action's checks and the AST "
		"generation may take,\n"
		"                      as pearl-schedule's time-limit= "
		"(default 4; 0: none)\n"
		"  --agent greedy|sample  time the compiled-in policy's "
		"choices instead\n"
		"  --episodes K        sampled episodes per program (default "
		"1)\n"
		"  --seed S            seed of the first sampled episode "
		"(default 1)\n"
		"  --critic FILE       with --agent greedy: the critic's beam "
		"(pearl-critic's\n"
		"                      critic.bin values the schedules)\n"
		"  --beam W,K          its width and decisions per state "
		"(default 4,3)\n"
		"  --beam-seconds S    and its time after the greedy episode "
		"(default 0: none)\n"
		"  --uniform-parallel B  with --agent: the rule of uniform "
		"parallelism\n"
		"                      (1, the default; 0: the episode as the "
		"policy chose it)\n"
		"  --fill-parallel B   with --agent: the rule of parallel fill "
		"(1, the\n"
		"                      default; 0: nests the policy left serial "
		"stay so)\n"
		"  --copies B          with --agent: 1 lets the policy choose "
		"K (copies); 0,\n"
		"                      the default as in pearl-schedule, masks "
		"K for it\n"
		"  --fingerprint       print each program's model "
		"fingerprint, time nothing\n"
		"  --function F        time region --region R (default 0) of "
		"@F of ordinary\n"
		"                      modules, on pearl-exec's inputs with "
		"--size N (default 64)\n"
		"  --stats             print the counters at the end\n"
		"  --summary           print what the memo database holds\n"
		"  --merge OTHER       copy OTHER's answers that --memo's "
		"lacks into it\n"
		"  --verbose           progress on stderr\n");
}

/* The file name without directories and extension, for messages. */
static void base_name(const char *path, char *out, size_t size)
{
	const char *s = strrchr(path, '/');
	char *dot;

	snprintf(out, size, "%s", s ? s + 1 : path);
	dot = strrchr(out, '.');
	if (dot && dot != out)
		*dot = '\0';
}

static void print_stats(const pearl_env *env)
{
	struct pearl_env_stats s;

	pearl_env_get_stats(env, &s);
	printf("stats: queries %ld memo_hits %ld memo_misses %ld "
	       "compilations %ld executions %ld base_measurements %ld "
	       "illegal %ld timeouts %ld wrong_outputs %ld "
	       "contention_retries %ld contended %ld bases_rechecked %ld "
	       "base_drift %.3f code_twins %ld also_hits %ld also_moved %ld\n",
	       s.queries, s.memo_hits, s.memo_misses, s.compilations,
	       s.executions, s.base_measurements, s.illegal, s.timeouts,
	       s.wrong_outputs, s.contention_retries, s.contended,
	       s.bases_rechecked, s.base_drift, s.code_twins, s.also_hits,
	       s.also_moved);
	printf("stats: seconds schedule %.3f compile %.3f run %.3f memo %.6f\n",
	       s.seconds_schedule, s.seconds_compile, s.seconds_run,
	       s.seconds_memo);
	{
		struct rusage ru;

		getrusage(RUSAGE_SELF, &ru);
		printf("stats: max_rss_kb %ld\n", ru.ru_maxrss);
	}
}

static int summary(const char *memo);
static int merge(const char *memo, const char *other);

struct args {
	struct pearl_env_options opts;
	const char **schedules;
	int n_schedules;
	char **files; /* into argv */
	int n_files;
	int stats, summary, fingerprint;
	int agent;      /* 0 none, 1 greedy, 2 sample */
	int episodes;
	uint64_t seed;
	const char *function; /* NULL: the kernel contract */
	int region;
	long long size;
	pearl_policy *policy;
	const char *merge_path;  /* --merge */
	const char *critic_path; /* --critic: the critic's beam */
	pearl_policy *critic;
	int beam_width, beam_top_k;
	double beam_seconds;
	int uniform_parallel; /* pearl_agent_options' */
	int fill_parallel;    /* pearl_agent_options' */
	int copies;           /* pearl_agent_options' */
};

/* --schedule S: one more schedule (kept: an argv string). */
static int add_schedule(const char *value, void *dest)
{
	struct args *a = dest;

	a->schedules[a->n_schedules++] = value;
	return pearl_option_ok;
}

/* --agent greedy|sample */
static int parse_agent(const char *value, void *dest)
{
	int *agent = dest;

	if (!strcmp(value, "greedy"))
		*agent = 1;
	else if (!strcmp(value, "sample"))
		*agent = 2;
	else
		return pearl_option_bad_value;
	return pearl_option_ok;
}

/* --beam W,K */
static int parse_beam(const char *value, void *dest)
{
	struct args *a = dest;
	int end = 0;

	if (sscanf(value, "%d,%d%n", &a->beam_width, &a->beam_top_k,
		   &end) != 2 || value[end] || a->beam_width < 1 ||
	    a->beam_top_k < 1)
		return pearl_option_bad_value;
	return pearl_option_ok;
}

/* Fills a from argv: 0, 1 for help, -1 on a usage error (reported). */
static int parse_args(int argc, char **argv, struct args *a)
{
	const struct pearl_option table[] = {
	    {.name = "help", .short_name = 'h', .kind = pearl_option_stop},
	    PEARL_OPTION_FLAG("stats", &a->stats),
	    PEARL_OPTION_FLAG("summary", &a->summary),
	    PEARL_OPTION_FLAG("fingerprint", &a->fingerprint),
	    PEARL_OPTION_FLAG("verbose", &a->opts.verbose),
	    PEARL_OPTION_STRING("memo", &a->opts.memo_path),
	    PEARL_OPTION_CALL("schedule", a, add_schedule, NULL),
	    PEARL_OPTION_CALL("agent", &a->agent, parse_agent,
			      "greedy|sample"),
	    PEARL_OPTION_INT("episodes", &a->episodes, 1, INT_MAX),
	    PEARL_OPTION_STRING("critic", &a->critic_path),
	    PEARL_OPTION_CALL("beam", a, parse_beam, "W,K"),
	    PEARL_OPTION_DOUBLE_RANGE("beam-seconds", &a->beam_seconds, 0,
				      HUGE_VAL),
	    PEARL_OPTION_U64("seed", &a->seed),
	    PEARL_OPTION_INT("uniform-parallel", &a->uniform_parallel, 0, 1),
	    PEARL_OPTION_INT("fill-parallel", &a->fill_parallel, 0, 1),
	    PEARL_OPTION_INT("copies", &a->copies, 0, 1),
	    PEARL_OPTION_STRING("function", &a->function),
	    PEARL_OPTION_INT("region", &a->region, 0, INT_MAX),
	    PEARL_OPTION_LLONG("size", &a->size, 0, LLONG_MAX),
	    PEARL_OPTION_STRING("machine", &a->opts.machine),
	    PEARL_OPTION_STRING("memo-also", &a->opts.memo_also),
	    PEARL_OPTION_STRING("merge", &a->merge_path),
	    PEARL_OPTION_INT("warmup", &a->opts.warmup, 0, INT_MAX),
	    PEARL_OPTION_DOUBLE_RANGE("warmup-time", &a->opts.warmup_seconds,
				      0, HUGE_VAL),
	    PEARL_OPTION_INT("runs", &a->opts.runs, 1, INT_MAX),
	    PEARL_OPTION_DOUBLE_RANGE("max-cpu-pressure",
				      &a->opts.max_cpu_pressure, 0, HUGE_VAL),
	    PEARL_OPTION_INT("contention-retries",
			     &a->opts.contention_retries, 0, 100),
	    PEARL_OPTION_INT("recheck-bases", &a->opts.recheck_bases, 0,
			     PEARL_ENV_RECHECK_MAX),
	    PEARL_OPTION_INT("threads", &a->opts.threads, 1, INT_MAX),
	    PEARL_OPTION_DOUBLE_RANGE("timeout-factor",
				      &a->opts.timeout_factor, 1, HUGE_VAL),
	    PEARL_OPTION_DOUBLE_RANGE("timeout-min",
				      &a->opts.timeout_min_seconds, 0,
				      HUGE_VAL),
	    PEARL_OPTION_DOUBLE_RANGE("time-limit", &a->opts.time_limit, 0,
				      HUGE_VAL),
	    PEARL_OPTION_END};
	struct pearl_options_result res = {0};
	int r;

	pearl_env_options_init(&a->opts);
	a->size = 64;
	a->beam_width = 4;
	a->uniform_parallel = 1;
	a->fill_parallel = 1;
	a->beam_top_k = 3;
	a->schedules = calloc(argc + 1, sizeof(*a->schedules));
	a->files = calloc(argc + 1, sizeof(*a->files));
	if (!a->schedules || !a->files)
		return -1;
	res.arguments = a->files;
	r = pearl_options_parse_or_say("pearl-env", 1, table, 0, argc, argv,
				       &res);
	a->n_files = res.n_arguments;
	if (r != 0)
		return r;
	if ((a->summary || a->merge_path) && !a->opts.memo_path) {
		fprintf(stderr, "pearl-env: --summary and --merge need "
			"--memo\n");
		return -1;
	}
	if (a->merge_path && (a->summary || a->n_files)) {
		fprintf(stderr, "pearl-env: --merge takes no program and no "
			"--summary\n");
		return -1;
	}
	if (!a->summary && !a->merge_path && !a->n_files) {
		fprintf(stderr, "pearl-env: no program\n");
		return -1;
	}
	if (a->fingerprint && (a->agent || a->n_schedules)) {
		fprintf(stderr, "pearl-env: --fingerprint times nothing: no "
			"--agent or --schedule\n");
		return -1;
	}
	if (a->critic_path && a->agent != 1) {
		fprintf(stderr, "pearl-env: --critic goes with --agent greedy\n");
		return -1;
	}
	if (a->agent && a->n_schedules) {
		fprintf(stderr, "pearl-env: --agent and --schedule exclude "
			"each other\n");
		return -1;
	}
	if (!a->n_schedules)
		a->schedules[a->n_schedules++] = "";
	return 0;
}

/* The policy's schedule for p (episode `k`) in Pearl's notation, malloc'd;
 * NULL with a message in err. */
static char *agent_schedule(pearl_env_program *p, const struct args *a,
			    int k, char *err, size_t err_size)
{
	struct pearl_agent_options opts;

	pearl_agent_options_init(&opts);
	opts.sample = a->agent == 2;
	opts.seed = a->seed + (unsigned long)k;
	opts.critic = a->critic;
	opts.beam_width = a->beam_width;
	opts.beam_top_k = a->beam_top_k;
	opts.beam_seconds = a->beam_seconds;
	opts.uniform_parallel = a->uniform_parallel;
	opts.fill_parallel = a->fill_parallel;
	opts.copies = a->copies;
	return pearl_env_program_agent_schedule(p, a->policy, &opts, err,
						err_size);
}

/* Prints "NAME FINGERPRINT" for p and frees it; 0, or 1 if p cannot be
 * modeled. */
static int print_fingerprint(pearl_env_program *p, const char *name)
{
	char err[1024] = "";
	const char *fp = pearl_env_program_fingerprint(p, err, sizeof(err));

	if (fp)
		printf("%s %s\n", name, fp);
	else
		fprintf(stderr, "pearl-env: %s\n", err);
	pearl_env_program_free(p);
	return fp ? 0 : 1;
}

/* Prints the line of schedule `sched` timed on p (named `name`), whose
 * result is `res`. */
static void print_result(const pearl_env_program *p, const char *name,
			 const char *sched, const struct pearl_env_result *res)
{
	printf("%s %s %s base %.9f time %.9f speedup %.3f memo %s "
	       "\"%s\"%s%s\n", name, pearl_env_program_hash(p),
	       pearl_env_status_name(res->status), res->base_seconds,
	       res->seconds, res->speedup, res->memo_hit ? "hit" : "miss",
	       sched, res->message[0] ? ": " : "", res->message);
	fflush(stdout);
}

/* Loads and times one program (or prints its fingerprint); 0, 1 (the
 * program is unusable) or 2 (an error of the environment). */
static int run_program(pearl_env *env, const char *path,
		       const struct args *a)
{
	struct pearl_env_result res;
	pearl_env_program *p;
	char name[256], err[1024] = "";
	char *text = pearl_read_file(path, NULL);
	int i, n, ret = 0;

	if (!text) {
		fprintf(stderr, "pearl-env: cannot read %s: %s\n", path,
			strerror(errno));
		return 1;
	}
	base_name(path, name, sizeof(name));
	if (a->function)
		p = pearl_env_target_load(env, text, name, a->function,
					  a->region, a->size, err,
					  sizeof(err));
	else
		p = pearl_env_program_load(env, text, name, err, sizeof(err));
	free(text);
	if (!p) {
		fprintf(stderr, "pearl-env: %s\n", err);
		return 1;
	}
	if (a->fingerprint)
		return print_fingerprint(p, name);
	n = a->agent ? a->episodes : a->n_schedules;
	for (i = 0; !ret && i < n; ++i) {
		char *chosen = NULL;
		const char *sched;

		if (a->agent)
			sched = chosen =
			    agent_schedule(p, a, i, err, sizeof(err));
		else
			sched = a->schedules[i];
		if (sched &&
		    pearl_env_time(env, p, sched, &res, err, sizeof(err)) >= 0)
			print_result(p, name, sched, &res);
		else
			ret = 1;
		free(chosen);
	}
	if (ret) {
		fflush(stdout);
		fprintf(stderr, "pearl-env: %s\n", err);
	}
	pearl_env_program_free(p);
	return ret;
}

int main(int argc, char **argv)
{
	struct args a;
	pearl_env *env;
	char err[1024] = "";
	int i, st, ret = 0;

	memset(&a, 0, sizeof(a));
	st = pearl_options_exit_status(parse_args(argc, argv, &a), usage,
				       pearl_exit_usage);
	if (st >= 0) {
		free(a.schedules);
		free(a.files);
		return st;
	}
	if (a.summary || a.merge_path) {
		ret = a.merge_path ? merge(a.opts.memo_path, a.merge_path)
				   : summary(a.opts.memo_path);
		free(a.schedules);
		free(a.files);
		return ret;
	}
	if (!a.episodes)
		a.episodes = 1;
	if (!a.seed)
		a.seed = 1;
	if (a.agent) {
		a.policy = pearl_policy_load_builtin(err, sizeof(err));
		if (!a.policy) {
			fprintf(stderr, "pearl-env: error: the compiled-in "
				"policy: %s\n", err);
			return 2;
		}
	}
	if (a.critic_path) {
		a.critic = pearl_policy_load_file(a.critic_path, err,
						  sizeof(err));
		if (!a.critic) {
			fprintf(stderr, "pearl-env: error: %s\n", err);
			pearl_policy_free(a.policy);
			return 2;
		}
	}
	env = pearl_env_create(&a.opts, err, sizeof(err));
	if (!env) {
		fprintf(stderr, "pearl-env: error: %s\n", err);
		pearl_policy_free(a.policy);
		pearl_policy_free(a.critic);
		free(a.schedules);
		free(a.files);
		return 2;
	}
	for (i = 0; i < a.n_files; ++i) {
		st = run_program(env, a.files[i], &a);
		if (st > ret)
			ret = st;
	}
	if (a.stats)
		print_stats(env);
	pearl_env_free(env);
	pearl_policy_free(a.policy);
	pearl_policy_free(a.critic);
	free(a.schedules);
	free(a.files);
	return ret;
}

/* --summary: through the environment's own reader (pearl_env_summary). */
static int summary(const char *memo)
{
	struct pearl_env_memo_summary s;
	char err[1024] = "";

	if (pearl_env_memo_summary(memo, &s, err, sizeof(err)) < 0) {
		fprintf(stderr, "pearl-env: error: %s\n", err);
		return 2;
	}
	printf("memo %s: rows %ld programs %ld unique_schedules %ld "
	       "machines %ld illegal %ld\n", memo, s.rows, s.programs,
	       s.schedules, s.machines, s.illegal);
	return 0;
}

/* --merge: other's answers that memo lacks, copied into memo. */
static int merge(const char *memo, const char *other)
{
	char err[1024] = "";
	long added;

	if (pearl_env_memo_merge(memo, other, &added, err, sizeof(err)) < 0) {
		fprintf(stderr, "pearl-env: error: %s\n", err);
		return 2;
	}
	printf("memo %s: answers added: %ld from %s\n", memo, added, other);
	return 0;
}
