/*
 * pearl-critic: trains a critic, the value head of Pearl's network, to
 * predict the speedup of the code a schedule makes, from every schedule a
 * memo database holds a measurement of (the searches of expert iteration
 * and pearl-tune measure about a hundred per program). The issue of the
 * learned policy asks for it: a compile-time search scored by the critic
 * instead of the greedy rollout alone.
 *
 *   programs (pearl-gen seeds, as pearl-train makes them) -> their memo
 *   answers (critic_samples.h) -> value regression on log2 speedups, with
 *   a ranking term within each program if asked (critic_loss.h), every
 *   K-th program held out -> per epoch, how well the critic ranks the
 *   held-out programs' schedules (critic_rank.h) -> the weights of the
 *   epoch that did best on the held-out programs (--keep).
 *
 * The policy head is not trained; the critic is its own weight file
 * (PRLW), started from --init-model (default: the compiled-in policy).
 *
 * MLIR files in the kernel contract given as arguments are ranked too, on
 * the answers of --eval-memo (for example the benchmark kernels as
 * pearl-bench expands them, with the memo of its pearl-tune runs): they
 * are never trained on. With --programs 0 the critic is only ranked on
 * them.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "critic_loss.h"
#include "critic_rank.h"
#include "critic_samples.h"
#include "pearl/clock.h"
#include "pearl/file.h"
#include "pearl/codegen_version.h"
#include "pearl/options.h"
#include "pearl/ppo.h"
#include "pearl/train.h"
#include "programs.h"

/* What picks the epoch whose weights are kept. */
enum keep_by { keep_mse, keep_pairs, keep_pick };

struct options {
	const char *memo;
	const char *out;
	const char *init_model; /* NULL: the compiled-in policy */
	const char *machine;    /* NULL: this machine's fingerprint */
	const char *eval_memo;  /* NULL: memo */
	char **files;           /* ranked only (into argv) */
	int n_files;
	int codegen;
	uint64_t first_program;
	int programs;
	enum pearl_gen_scale scale;
	int held_out_every;
	int epochs;
	int minibatch;
	float lr;
	float pair_weight;      /* 0: squared error alone */
	int programs_per_step; /* with a ranking term */
	enum keep_by keep;
	uint64_t seed;
	int verbose;
};

static void usage(FILE *out)
{
	fprintf(out,
"usage: pearl-critic --memo FILE [options] [kernel.mlir...]\n"
"Trains the value head on the speedups a memo database holds for the\n"
"generated programs, and reports how it ranks held-out programs' schedules\n"
"and those of the kernel files (never trained on).\n"
"  --memo FILE           SQLite memo of the environment (read only)\n"
"  --eval-memo FILE      the kernel files' answers (default: --memo)\n"
"  --out DIR             critic.bin, epochs.csv (default pearl-critic-out)\n"
"  --first-program S     pearl-gen seed of the first program (default 1)\n"
"  --programs N          programs (default 200; 0: rank the kernel files\n"
"                        with --init-model, no training)\n"
"  --size-scale small|train|wide|cache  their sizes (default cache)\n"
"  --codegen V           answers of code generator version V (default: this\n"
"                        build's, %d)\n"
"  --machine M           answers of machine M (default: this machine's)\n"
"  --held-out-every K    every K-th program is held out (default 10)\n"
"  --epochs N            passes over the training samples (default 20)\n"
"  --minibatch N         samples per Adam step, without --pair-weight\n"
"                        (default 64)\n"
"  --lr X                (default 3e-4)\n"
"  --pair-weight W       add W times a ranking loss within each program:\n"
"                        the logistic loss of every pair of its schedules\n"
"                        more than 10%% apart (default 0: squared error\n"
"                        alone)\n"
"  --programs-per-step N with --pair-weight, programs per Adam step\n"
"                        (default 1)\n"
"  --keep mse|pairs|pick the epoch kept: lowest held-out error, most\n"
"                        held-out pairs in order, or best first pick\n"
"                        (default mse)\n"
"  --init-model FILE     start from these weights (default: compiled-in)\n"
"  --seed N              shuffling (default 1)\n"
"  -v                    the programs as they load\n",
		PEARL_CODEGEN_VERSION);
}

static int keep_option(const char *value, void *dest)
{
	static const char *const names[] = {"mse", "pairs", "pick"};
	int i;

	for (i = 0; i < 3; ++i)
		if (!strcmp(value, names[i])) {
			*(enum keep_by *)dest = (enum keep_by)i;
			return pearl_option_ok;
		}
	return pearl_option_bad_value;
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
	    PEARL_OPTION_STRING("eval-memo", &o->eval_memo),
	    PEARL_OPTION_INT("codegen", &o->codegen, 1, INT_MAX),
	    PEARL_OPTION_U64("first-program", &o->first_program),
	    PEARL_OPTION_INT("programs", &o->programs, 0, INT_MAX),
	    PEARL_OPTION_CALL("size-scale", &o->scale, pearl_gen_scale_option,
			      "small|train|wide|cache"),
	    PEARL_OPTION_INT("held-out-every", &o->held_out_every, 2,
			     INT_MAX),
	    PEARL_OPTION_INT("epochs", &o->epochs, 0, INT_MAX),
	    PEARL_OPTION_INT("minibatch", &o->minibatch, 1, INT_MAX),
	    PEARL_OPTION_FLOAT_ABOVE("lr", &o->lr, 0),
	    PEARL_OPTION_FLOAT_RANGE("pair-weight", &o->pair_weight, 0, 1e6),
	    PEARL_OPTION_INT("programs-per-step", &o->programs_per_step, 1,
			     INT_MAX),
	    PEARL_OPTION_CALL("keep", &o->keep, keep_option, "mse|pairs|pick"),
	    PEARL_OPTION_U64("seed", &o->seed),
	    {.short_name = 'v', .kind = pearl_option_flag, .dest = &o->verbose},
	    {.name = "help", .short_name = 'h', .kind = pearl_option_stop},
	    PEARL_OPTION_END};
	struct pearl_options_result res = {.arguments = o->files};
	int r;

	o->out = "pearl-critic-out";
	o->codegen = PEARL_CODEGEN_VERSION;
	o->first_program = 1;
	o->programs = 200;
	o->scale = pearl_gen_scale_cache;
	o->held_out_every = 10;
	o->epochs = 20;
	o->minibatch = 64;
	o->lr = 3e-4f;
	o->programs_per_step = 1;
	o->keep = keep_mse;
	o->seed = 1;
	r = pearl_options_parse_or_say("pearl-critic", 0, table, 1, argc, argv,
				       &res);
	o->n_files = res.n_arguments;
	if (!o->eval_memo)
		o->eval_memo = o->memo;
	if (r == 0 && !o->memo) {
		fprintf(stderr, "pearl-critic: --memo is required\n");
		return -1;
	}
	if (r == 0 && o->programs == 0 && (o->n_files == 0 || o->epochs)) {
		fprintf(stderr, "pearl-critic: --programs 0 ranks kernel files "
				"and trains nothing: give files and --epochs 0\n");
		return -1;
	}
	return r;
}

/* The samples of program `p` (kept) from the answers of `memo` into *to;
 * the number added, or -1 with a message in err. */
static int add_answers(const struct options *o, const char *memo,
		       const char *machine, pearl_env_program *p,
		       struct critic_samples *to, char *err, size_t err_size)
{
	struct pearl_env_memo_result *rows;
	int n_rows, added;

	if (pearl_env_memo_results(memo, pearl_env_program_hash(p), machine,
				   o->codegen, &rows, &n_rows, err,
				   err_size) < 0)
		return -1;
	added = critic_samples_add(to, p, rows, n_rows, err, err_size);
	pearl_env_memo_results_free(rows, n_rows);
	if (added >= 0 && o->verbose)
		fprintf(stderr, "  %s: %d answers, %d samples\n",
			pearl_env_program_name(p), n_rows, added);
	return added;
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

		if (add_answers(o, o->memo, machine, set->p[i], to, err,
				err_size) < 0)
			return -1;
		if (!o->verbose && (i + 1) % 50 == 0)
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

/* The samples of the kernel files `set` into *files, from --eval-memo; 0,
 * or -1 with a message in err (also when none has answers). */
static int collect_files(const struct options *o, const char *machine,
			 struct program_set *set, struct critic_samples *files,
			 char *err, size_t err_size)
{
	int i;

	for (i = 0; i < set->n; ++i)
		if (add_answers(o, o->eval_memo, machine, set->p[i], files, err,
				err_size) < 0)
			return -1;
	fprintf(stderr, "pearl-critic: %d of %d kernel files with measurements "
			"in %s (%d samples)\n",
		files->n_programs, o->n_files, o->eval_memo, files->n);
	if (files->n_programs < 1) {
		snprintf(err, err_size, "%s has no answers of code generator "
					"%d on \"%s\" for the kernel files",
			 o->eval_memo, o->codegen, machine);
		return -1;
	}
	return 0;
}

/* How `critic` ranks the kernel files' schedules, into *r (all NAN if
 * there are none) and said on stderr. */
static int rank_files(const pearl_policy *critic,
		      const struct critic_samples *files, struct critic_rank *r,
		      char *err, size_t err_size)
{
	if (files->n_programs < 1) {
		r->mse = r->pick = r->top_k = r->random = r->pairs = NAN;
		r->programs = 0;
		return 0;
	}
	if (critic_rank(critic, files, r, err, err_size) < 0)
		return -1;
	fprintf(stderr,
		"pearl-critic:   kernel files (%d): mse %.4f; first pick %.3f "
		"of the fastest, best of top %d %.3f, random %.3f, pairs in "
		"order %.3f\n",
		r->programs, r->mse, r->pick, CRITIC_TOP_K, r->top_k, r->random,
		r->pairs);
	return 0;
}

/* One line of epochs.csv and of progress for epoch `epoch` (the training
 * figures `e` NAN before the first); the held-out ranking goes to *r. */
static int report(FILE *csv, int epoch, const struct critic_epoch *e,
		  const pearl_policy *critic, const struct critic_samples *held,
		  const struct critic_samples *files, double t0,
		  struct critic_rank *r, char *err, size_t err_size)
{
	struct critic_rank f;

	if (critic_rank(critic, held, r, err, err_size) < 0)
		return -1;
	fprintf(stderr,
		"pearl-critic: epoch %d: mse %.4f, held-out mse %.4f; held-out "
		"ranking: first pick %.3f of the fastest, best of top %d "
		"%.3f, random %.3f, pairs in order %.3f",
		epoch, e->mse, r->mse, r->pick, CRITIC_TOP_K, r->top_k,
		r->random, r->pairs);
	if (!isnan(e->pair_loss))
		fprintf(stderr, "; pair loss %.4f", e->pair_loss);
	fprintf(stderr, " (%.0fs)\n", pearl_now() - t0);
	if (rank_files(critic, files, &f, err, err_size) < 0)
		return -1;
	fprintf(csv, "%d,%.6f,%.6f,%.4f,%.4f,%.4f,%.4f,%.6f,%.6f,%.4f,%.4f,"
		"%.4f,%.4f\n",
		epoch, e->mse, r->mse, r->pick, r->top_k, r->random, r->pairs,
		e->pair_loss, f.mse, f.pick, f.top_k, f.random, f.pairs);
	fflush(csv);
	return 0;
}

/* Whether held-out ranking `r` beats `best` by the measure of --keep. */
static int better(enum keep_by keep, const struct critic_rank *r,
		  const struct critic_rank *best)
{
	switch (keep) {
	case keep_pairs:
		return r->pairs > best->pairs;
	case keep_pick:
		return r->pick > best->pick;
	case keep_mse:
		break;
	}
	return r->mse < best->mse;
}

static const char *const keep_names[] = {"held-out mse", "held-out pairs "
					 "in order", "held-out first pick"};

/* One epoch on the training samples: value regression alone, or the loss
 * with a ranking term. */
static int train_epoch(const struct options *o, pearl_policy *critic,
		       pearl_adam *adam, const struct critic_samples *train,
		       uint64_t *rng, struct critic_epoch *e, char *err,
		       size_t err_size)
{
	e->pair_loss = NAN;
	e->pairs = 0;
	if (o->pair_weight > 0)
		return critic_pair_epoch(critic, adam, train,
					 o->programs_per_step, o->pair_weight,
					 CRITIC_PAIR_MARGIN, rng, e, err,
					 err_size);
	return pearl_value_regression_epoch(critic, adam, train->graphs,
					    train->targets, train->n,
					    o->minibatch, rng, &e->mse, err,
					    err_size);
}

/* The epochs, keeping the weights of the best epoch by --keep in `best`
 * (n floats); 0, or -1 with a message in err. */
static int train_epochs(const struct options *o, pearl_policy *critic,
			const struct critic_samples *train,
			const struct critic_samples *held,
			const struct critic_samples *files, FILE *csv,
			float *best, char *err, size_t err_size)
{
	struct pearl_adam_config acfg = pearl_adam_default_config();
	size_t n;
	float *params = pearl_policy_get_params(critic, &n);
	pearl_adam *adam;
	uint64_t rng = o->seed;
	double t0 = pearl_now();
	struct critic_epoch e = {NAN, NAN, 0};
	struct critic_rank r, kept_rank;
	int epoch, kept = 0, rc = -1;

	acfg.lr = o->lr;
	adam = pearl_adam_alloc(n, &acfg, err, err_size);
	if (!adam)
		return -1;
	fprintf(csv, "epoch,mse,held_out_mse,pick,top%d,random,pairs,"
		"pair_loss,files_mse,files_pick,files_top%d,files_random,"
		"files_pairs\n", CRITIC_TOP_K, CRITIC_TOP_K);
	if (report(csv, 0, &e, critic, held, files, t0, &kept_rank, err,
		   err_size) < 0)
		goto out;
	memcpy(best, params, n * sizeof(*best));
	for (epoch = 1; epoch <= o->epochs; ++epoch) {
		if (train_epoch(o, critic, adam, train, &rng, &e, err,
				err_size) < 0 ||
		    report(csv, epoch, &e, critic, held, files, t0, &r, err,
			   err_size) < 0)
			goto out;
		if (better(o->keep, &r, &kept_rank)) {
			kept_rank = r;
			kept = epoch;
			memcpy(best, params, n * sizeof(*best));
		}
	}
	memcpy(params, best, n * sizeof(*best));
	fprintf(stderr, "pearl-critic: keeps epoch %d (held-out mse %.4f, "
			"first pick %.3f, pairs in order %.3f; by %s)\n",
		kept, kept_rank.mse, kept_rank.pick, kept_rank.pairs,
		keep_names[o->keep]);
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

/* The samples of the generated programs (if any) into *train and *held,
 * and of the kernel files (if any) into *files; 0, or -1 with a message in
 * err. */
static int load_samples(const struct options *o, pearl_env *env,
			struct program_set *set, struct program_set *fset,
			struct critic_samples *train,
			struct critic_samples *held,
			struct critic_samples *files, char *err,
			size_t err_size)
{
	const char *machine = pearl_env_machine(env);

	if (o->programs > 0 &&
	    (program_set_add_generated(set, env, o->first_program,
				       o->programs, o->scale,
				       pearl_gen_family_any, o->verbose, err,
				       err_size) < 0 ||
	     collect(o, machine, set, train, held, err, err_size) < 0))
		return -1;
	if (o->n_files > 0 &&
	    (program_set_add_files(fset, env, o->files, o->n_files, o->verbose,
				   err, err_size) < 0 ||
	     collect_files(o, machine, fset, files, err, err_size) < 0))
		return -1;
	return 0;
}

/* Trains `critic` (kept) and writes critic.bin and epochs.csv; 0, or -1
 * with a message in err. */
static int train_and_save(const struct options *o, pearl_policy *critic,
			  const struct critic_samples *train,
			  const struct critic_samples *held,
			  const struct critic_samples *files, char *err,
			  size_t err_size)
{
	char *csv_path = pearl_path_join(o->out, "epochs.csv"),
	     *blob_path = pearl_path_join(o->out, "critic.bin");
	float *best = NULL;
	FILE *csv = NULL;
	size_t n;
	int rc = -1;

	pearl_policy_get_params(critic, &n);
	best = malloc(n * sizeof(*best));
	csv = csv_path ? fopen(csv_path, "w") : NULL;
	if (!best || !csv || !blob_path) {
		snprintf(err, err_size, best && csv_path ? "cannot write %s"
							 : "out of memory",
			 csv_path);
		goto out;
	}
	if (train_epochs(o, critic, train, held, files, csv, best, err,
			 err_size) < 0 ||
	    pearl_policy_save_file(critic, blob_path, err, err_size) < 0)
		goto out;
	fprintf(stderr, "pearl-critic: wrote %s and %s\n", blob_path,
		csv_path);
	rc = 0;
out:
	if (csv)
		fclose(csv);
	free(best);
	free(csv_path);
	free(blob_path);
	return rc;
}

/* The whole run: 0, or 1 after an error (said on stderr). */
static int run(const struct options *o)
{
	struct critic_samples train = {0}, held = {0}, files = {0};
	struct program_set set = {0}, fset = {0};
	struct critic_rank r;
	pearl_env *env;
	pearl_policy *critic = NULL;
	char err[1024] = "";
	int rc = 1;

	env = open_env(o, err, sizeof(err));
	if (!env)
		goto out;
	fprintf(stderr, "pearl-critic: answers of machine \"%s\", code "
			"generator %d, in %s\n",
		pearl_env_machine(env), o->codegen, o->memo);
	if (load_samples(o, env, &set, &fset, &train, &held, &files, err,
			 sizeof(err)) < 0)
		goto out;
	critic = o->init_model
		     ? pearl_policy_load_file(o->init_model, err, sizeof(err))
		     : pearl_policy_load_builtin(err, sizeof(err));
	if (!critic)
		goto out;
	if (o->programs == 0 ? rank_files(critic, &files, &r, err,
					  sizeof(err)) < 0
			     : train_and_save(o, critic, &train, &held, &files,
					      err, sizeof(err)) < 0)
		goto out;
	rc = 0;
out:
	if (rc)
		fprintf(stderr, "pearl-critic: %s\n", err);
	critic_samples_clear(&train);
	critic_samples_clear(&held);
	critic_samples_clear(&files);
	program_set_clear(&set);
	program_set_clear(&fset);
	pearl_policy_free(critic);
	pearl_env_free(env);
	return rc;
}

int main(int argc, char **argv)
{
	struct options o;
	int status;

	memset(&o, 0, sizeof(o));
	o.files = calloc(argc, sizeof(*o.files));
	if (!o.files) {
		fprintf(stderr, "pearl-critic: out of memory\n");
		return 1;
	}
	status = pearl_options_exit_status(parse_options(argc, argv, &o),
					   usage, pearl_exit_usage);
	if (status < 0 && o.programs > 0 && mkdir(o.out, 0777) < 0 &&
	    errno != EEXIST) {
		fprintf(stderr, "pearl-critic: cannot create %s\n", o.out);
		status = 1;
	}
	if (status < 0)
		status = run(&o);
	free(o.files);
	return status;
}
