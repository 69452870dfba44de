/*
 * pearl-critic: trains a critic, the value head of Pearl's network, to
 * predict the speedup of the code a schedule makes, from every schedule a
 * memo database holds a measurement of (the searches of expert iteration
 * and pearl-tune measure about a hundred per program). The issue of the
 * learned policy asks for it: a compile-time search scored by the critic
 * instead of the greedy rollout alone.
 *
 *   programs (pearl-gen seeds, as pearl-train makes them) -> their memo
 *   answers (critic_samples.h) -> value regression on log2 speedups, every
 *   K-th program held out -> per epoch, how well the critic ranks the
 *   held-out programs' schedules (critic_rank.h) -> the weights of the
 *   epoch with the lowest held-out error.
 *
 * The policy head is not trained; the critic is its own weight file
 * (PRLW), started from --init-model (default: the compiled-in policy).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "critic_rank.h"
#include "critic_samples.h"
#include "pearl/clock.h"
#include "pearl/file.h"
#include "pearl/codegen_version.h"
#include "pearl/options.h"
#include "pearl/ppo.h"
#include "pearl/train.h"
#include "programs.h"

struct options {
	const char *memo;
	const char *out;
	const char *init_model; /* NULL: the compiled-in policy */
	const char *machine;    /* NULL: this machine's fingerprint */
	int codegen;
	uint64_t first_program;
	int programs;
	enum pearl_gen_scale scale;
	int held_out_every;
	int epochs;
	int minibatch;
	float lr;
	uint64_t seed;
	int verbose;
};

static void usage(FILE *out)
{
	fprintf(out,
"usage: pearl-critic --memo FILE [options]\n"
"Trains the value head on the speedups a memo database holds for the\n"
"generated programs, and reports how it ranks held-out programs' schedules.\n"
"  --memo FILE           SQLite memo of the environment (read only)\n"
"  --out DIR             critic.bin, epochs.csv (default pearl-critic-out)\n"
"  --first-program S     pearl-gen seed of the first program (default 1)\n"
"  --programs N          programs (default 200)\n"
"  --size-scale small|train|wide|cache  their sizes (default cache)\n"
"  --codegen V           answers of code generator version V (default: this\n"
"                        build's, %d)\n"
"  --machine M           answers of machine M (default: this machine's)\n"
"  --held-out-every K    every K-th program is held out (default 10)\n"
"  --epochs N            passes over the training samples (default 20)\n"
"  --minibatch N         samples per Adam step (default 64)\n"
"  --lr X                (default 3e-4)\n"
"  --init-model FILE     start from these weights (default: compiled-in)\n"
"  --seed N              shuffling (default 1)\n"
"  -v                    the programs as they load\n",
		PEARL_CODEGEN_VERSION);
}

/* Fills *o from the command line: 0, 1 after --help, or -1 on a usage
 * error (said on stderr). */
static int parse_options(int argc, char **argv, struct options *o)
{
	const struct pearl_option table[] = {
	    PEARL_OPTION_STRING("memo", &o->memo),
	    PEARL_OPTION_STRING("out", &o->out),
	    PEARL_OPTION_STRING("init-model", &o->init_model),
	    PEARL_OPTION_STRING("machine", &o->machine),
	    PEARL_OPTION_INT("codegen", &o->codegen, 1, INT_MAX),
	    PEARL_OPTION_U64("first-program", &o->first_program),
	    PEARL_OPTION_INT("programs", &o->programs, 1, INT_MAX),
	    PEARL_OPTION_CALL("size-scale", &o->scale, pearl_gen_scale_option,
			      "small|train|wide|cache"),
	    PEARL_OPTION_INT("held-out-every", &o->held_out_every, 2,
			     INT_MAX),
	    PEARL_OPTION_INT("epochs", &o->epochs, 0, INT_MAX),
	    PEARL_OPTION_INT("minibatch", &o->minibatch, 1, INT_MAX),
	    PEARL_OPTION_FLOAT_ABOVE("lr", &o->lr, 0),
	    PEARL_OPTION_U64("seed", &o->seed),
	    {.short_name = 'v', .kind = pearl_option_flag, .dest = &o->verbose},
	    {.name = "help", .short_name = 'h', .kind = pearl_option_stop},
	    PEARL_OPTION_END};
	struct pearl_options_result res = {0};
	int r;

	memset(o, 0, sizeof(*o));
	o->out = "pearl-critic-out";
	o->codegen = PEARL_CODEGEN_VERSION;
	o->first_program = 1;
	o->programs = 200;
	o->scale = pearl_gen_scale_cache;
	o->held_out_every = 10;
	o->epochs = 20;
	o->minibatch = 64;
	o->lr = 3e-4f;
	o->seed = 1;
	r = pearl_options_parse_or_say("pearl-critic", 0, table, 1, argc, argv,
				       &res);
	if (r == 0 && !o->memo) {
		fprintf(stderr, "pearl-critic: --memo is required\n");
		return -1;
	}
	return r;
}

/* The samples of every program of `set` into *train, or into *held for
 * every held_out_every-th; 0, or -1 with a message in err. */
static int collect(const struct options *o, const char *machine,
		   struct program_set *set, struct critic_samples *train,
		   struct critic_samples *held, char *err, size_t err_size)
{
	double t0 = pearl_now();
	int i;

	for (i = 0; i < set->n; ++i) {
		struct critic_samples *to =
		    (i + 1) % o->held_out_every ? train : held;
		struct pearl_env_memo_result *rows;
		int n_rows, added;

		if (pearl_env_memo_results(o->memo,
					   pearl_env_program_hash(set->p[i]),
					   machine, o->codegen, &rows, &n_rows,
					   err, err_size) < 0)
			return -1;
		added = critic_samples_add(to, set->p[i], rows, n_rows, err,
					   err_size);
		pearl_env_memo_results_free(rows, n_rows);
		if (added < 0)
			return -1;
		if (o->verbose)
			fprintf(stderr, "  %s: %d answers, %d samples%s\n",
				pearl_env_program_name(set->p[i]), n_rows,
				added, to == held ? " (held out)" : "");
		else if ((i + 1) % 50 == 0)
			fprintf(stderr, "pearl-critic: %d/%d programs read "
					"(%d samples, %.0fs)\n",
				i + 1, set->n, train->n + held->n,
				pearl_now() - t0);
	}
	fprintf(stderr,
		"pearl-critic: %d programs with measurements (%d samples), %d "
		"held out (%d samples); %d measured schedules no longer "
		"apply\n",
		train->n_programs, train->n, held->n_programs, held->n,
		train->stale + held->stale);
	if (train->n_programs < 1 || held->n_programs < 1) {
		snprintf(err, err_size, "the memo has no answers of code "
					"generator %d on \"%s\" for both training "
					"and held-out programs",
			 o->codegen, machine);
		return -1;
	}
	return 0;
}

/* One line of epochs.csv and of progress for epoch `epoch` (train_mse NAN
 * before the first); *held_mse gets the held-out error. */
static int report(FILE *csv, int epoch, double train_mse,
		  const pearl_policy *critic, const struct critic_samples *held,
		  double t0, double *held_mse, char *err, size_t err_size)
{
	struct critic_rank r;

	if (critic_rank(critic, held, &r, err, err_size) < 0)
		return -1;
	fprintf(csv, "%d,%.6f,%.6f,%.4f,%.4f,%.4f,%.4f\n", epoch, train_mse,
		r.mse, r.pick, r.top_k, r.random, r.pairs);
	fflush(csv);
	fprintf(stderr,
		"pearl-critic: epoch %d: mse %.4f, held-out mse %.4f; held-out "
		"ranking: first pick %.3f of the fastest, best of top %d "
		"%.3f, random %.3f, pairs in order %.3f (%.0fs)\n",
		epoch, train_mse, r.mse, r.pick, CRITIC_TOP_K, r.top_k,
		r.random, r.pairs, pearl_now() - t0);
	*held_mse = r.mse;
	return 0;
}

/* The epochs, keeping the weights of the lowest held-out error in `best`
 * (n floats); 0, or -1 with a message in err. */
static int train_epochs(const struct options *o, pearl_policy *critic,
			const struct critic_samples *train,
			const struct critic_samples *held, FILE *csv,
			float *best, char *err, size_t err_size)
{
	struct pearl_adam_config acfg = pearl_adam_default_config();
	size_t n;
	float *params = pearl_policy_get_params(critic, &n);
	pearl_adam *adam;
	uint64_t rng = o->seed;
	double t0 = pearl_now(), held_mse, lowest;
	int epoch, kept = 0, rc = -1;

	acfg.lr = o->lr;
	adam = pearl_adam_alloc(n, &acfg, err, err_size);
	if (!adam)
		return -1;
	fprintf(csv, "epoch,mse,held_out_mse,pick,top%d,random,pairs\n",
		CRITIC_TOP_K);
	if (report(csv, 0, NAN, critic, held, t0, &lowest, err, err_size) < 0)
		goto out;
	memcpy(best, params, n * sizeof(*best));
	for (epoch = 1; epoch <= o->epochs; ++epoch) {
		double mse;

		if (pearl_value_regression_epoch(critic, adam, train->graphs,
						 train->targets, train->n,
						 o->minibatch, &rng, &mse, err,
						 err_size) < 0 ||
		    report(csv, epoch, mse, critic, held, t0, &held_mse, err,
			   err_size) < 0)
			goto out;
		if (held_mse < lowest) {
			lowest = held_mse;
			kept = epoch;
			memcpy(best, params, n * sizeof(*best));
		}
	}
	memcpy(params, best, n * sizeof(*best));
	fprintf(stderr, "pearl-critic: keeps epoch %d (held-out mse %.4f)\n",
		kept, lowest);
	rc = 0;
out:
	pearl_adam_free(adam);
	return rc;
}

static pearl_env *open_env(const struct options *o, char *err,
			   size_t err_size)
{
	struct pearl_env_options eo;

	pearl_env_options_init(&eo);
	eo.machine = o->machine;
	return pearl_env_create(&eo, err, err_size);
}

/* The whole run: 0, or 1 after an error (said on stderr). */
static int run(const struct options *o)
{
	struct critic_samples train = {0}, held = {0};
	struct program_set set = {0};
	pearl_env *env;
	pearl_policy *critic = NULL;
	char err[1024] = "", *csv_path = pearl_path_join(o->out, "epochs.csv"),
	     *blob_path = pearl_path_join(o->out, "critic.bin");
	float *best = NULL;
	FILE *csv = NULL;
	size_t n;
	int rc = 1;

	env = open_env(o, err, sizeof(err));
	if (!env || !csv_path || !blob_path)
		goto out;
	fprintf(stderr, "pearl-critic: answers of machine \"%s\", code "
			"generator %d, in %s\n",
		pearl_env_machine(env), o->codegen, o->memo);
	if (program_set_add_generated(&set, env, o->first_program, o->programs,
				      o->scale, o->verbose, err,
				      sizeof(err)) < 0 ||
	    collect(o, pearl_env_machine(env), &set, &train, &held, err,
		    sizeof(err)) < 0)
		goto out;
	critic = o->init_model
		     ? pearl_policy_load_file(o->init_model, err, sizeof(err))
		     : pearl_policy_load_builtin(err, sizeof(err));
	if (!critic)
		goto out;
	pearl_policy_get_params(critic, &n);
	best = malloc(n * sizeof(*best));
	csv = fopen(csv_path, "w");
	if (!best || !csv) {
		snprintf(err, sizeof(err), best ? "cannot write %s"
						: "out of memory", csv_path);
		goto out;
	}
	if (train_epochs(o, critic, &train, &held, csv, best, err,
			 sizeof(err)) < 0 ||
	    pearl_policy_save_file(critic, blob_path, err, sizeof(err)) < 0)
		goto out;
	fprintf(stderr, "pearl-critic: wrote %s and %s\n", blob_path,
		csv_path);
	rc = 0;
out:
	if (rc)
		fprintf(stderr, "pearl-critic: %s\n", err);
	if (csv)
		fclose(csv);
	free(best);
	critic_samples_clear(&train);
	critic_samples_clear(&held);
	program_set_clear(&set);
	pearl_policy_free(critic);
	pearl_env_free(env);
	free(csv_path);
	free(blob_path);
	return rc;
}

int main(int argc, char **argv)
{
	struct options o;
	int status;

	status = pearl_options_exit_status(parse_options(argc, argv, &o),
					   usage, pearl_exit_usage);
	if (status >= 0)
		return status;
	if (mkdir(o.out, 0777) < 0 && errno != EEXIST) {
		fprintf(stderr, "pearl-critic: cannot create %s\n", o.out);
		return 1;
	}
	return run(&o);
}
