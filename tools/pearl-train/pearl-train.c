/*
 * pearl-train: trains Pearl's policy network (Pearl paper sections 4-5,
 * lib/README.md, "Training settings") on random programs from pearl-gen,
 * in the execution environment (pearl/env.h, memoized in SQLite):
 *
 *   1. actor-critic pre-training: the GATv2 layers, the MLP and the value
 *      head learn to predict the (standardized, log) execution time of the
 *      unscheduled programs from their graphs (paper section 5.2);
 *   2. optionally (--imitate-epochs), imitation of the best schedule
 *      measured per program (imitate.c, imitation_fit.c,
 *      pearl/imitation.h): for every training
 *      program the environment times the current policy's greedy
 *      schedule, a few sampled ones, the rules-only heuristic's and none
 *      at all; the policy head is trained on the decisions that lead to
 *      the fastest of them (none unless one is faster by a margin), with
 *      every tenth program held out for early stopping; with --distill
 *      only the schedules a target or the search found and the policy
 *      misses are imitated, and elsewhere the policy learns its own
 *      distributions along its greedy schedule (distill.h), so that it
 *      keeps what it knew, and --distill-programs adds programs on which
 *      nothing is timed, only its episodes distilled;
 *   3. PPO (pearl/ppo.h): episodes of the sampling agent, rewards log4 of
 *      each action's speedup, clipped updates with masks, GAE, entropy
 *      decayed linearly to its final value over the run.
 *
 * Everything is checkpointed into the output directory after every
 * iteration (policy.bin, adam.bin, state.txt; curve.csv one line per
 * iteration; curve.png drawn with gnuplot when it is installed), and
 * --resume continues from there.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "pearl/baselines.h"
#include "best_epoch.h"
#include "episode.h"
#include "imitate.h"
#include "kind_recall.h"
#include "near_best.h"
#include "pearl/clock.h"
#include "pearl/features.h"
#include "pearl/file.h"
#include "pearl/options.h"
#include "pearl/ppo.h"
#include "pearl/random.h"
#include "pearl/train.h"
#include "programs.h"
#include "train_options.h"

/* What survives a restart besides the weights and Adam's moments. */
struct state {
	long iteration, steps, episodes;
	uint64_t rng;
	long cursor; /* next program (index into the shuffled order) */
	int pretrained;
	double seconds; /* training wall time so far */
};

static void usage(FILE *f)
{
	fprintf(f,
"usage: pearl-train [options]\n"
"  --out DIR             checkpoints, curve.csv, curve.png (default pearl-train-out)\n"
"  --memo FILE           SQLite memo of the environment (default DIR/memo.sqlite)\n"
"  --resume              continue from the checkpoint in DIR\n"
"  --programs N          random programs to train on (default 200)\n"
"  --first-program S     pearl-gen seed of the first (default 1)\n"
"  --matmul-programs N   also N programs of pearl-gen's matmul family (one\n"
"                        matmul nest in a uniformly drawn loop order, named\n"
"                        mm-<seed>) after them (default 0)\n"
"  --first-matmul-program S  seed of the first of those (default 1)\n"
"  --gemm-programs N     also N programs of pearl-gen's gemm family (a\n"
"                        matmul nest shaped as PolyBench's gemm, syrk,\n"
"                        syr2k, named gemm-<seed>) after them (default 0)\n"
"  --first-gemm-program S  seed of the first of those (default 1)\n"
"  --chain-programs N    also N programs of pearl-gen's chain family (2-3\n"
"                        chained matmul nests as PolyBench's 2mm and 3mm,\n"
"                        named chain-<seed>) after them (default 0)\n"
"  --first-chain-program S  seed of the first of those (default 1)\n"
"  --matvec-programs N   also N programs of pearl-gen's matvec family (2-3\n"
"                        nests over one matrix as PolyBench's atax, bicg,\n"
"                        gemver, gesummv, mvt; named mv-<seed>) after them\n"
"                        (default 0)\n"
"  --first-matvec-program S  seed of the first of those (default 1)\n"
"  --sweep-programs N    also N programs of pearl-gen's sweep family (2-4\n"
"                        stencil nests updating fields in turn, mostly in a\n"
"                        time loop, as fdtd-2d, jacobi, heat-3d; named\n"
"                        sw-<seed>) after them (default 0)\n"
"  --first-sweep-program S  seed of the first of those (default 1)\n"
"  --doitgen-programs N  also N programs of pearl-gen's doitgen family (one\n"
"                        doitgen nest, mostly with PolyBench's sum row\n"
"                        shared by every (r, q); named dg-<seed>) after\n"
"                        them (default 0)\n"
"  --first-doitgen-program S  seed of the first of those (default 1)\n"
"  --size-scale small|train|wide|cache  program sizes (default train; wide\n"
"                        adds sub-millisecond programs, see pearl-gen)\n"
"  --steps N             PPO decisions in all (default 20000)\n"
"  --batch N             decisions per PPO update (default 512)\n"
"  --minibatch N         decisions per Adam step (default 64)\n"
"  --epochs N            passes over a batch (default 5)\n"
"  --lr X                PPO learning rate (default 1e-4)\n"
"  --clip X              PPO ratio clip (default 0.3)\n"
"  --entropy A,B         entropy coefficient from A to B (default 0.1,0)\n"
"  --value-coef X        (default 2)\n"
"  --pretrain-epochs N   value pre-training epochs (default 100; 0: none)\n"
"  --pretrain-lr X       (default 1e-3)\n"
"  --imitate-epochs N    imitation of the best measured schedule per\n"
"                        program before PPO (default 0: none)\n"
"  --imitate-samples K   sampled episodes per program among the candidates\n"
"                        (default 2)\n"
"  --imitate-lr X        (default 3e-4)\n"
"  --imitate-weight-decay X  decoupled weight decay of imitation's Adam\n"
"                        steps (AdamW: each step first shrinks every\n"
"                        weight by lr * X of itself; default 0: none)\n"
"  --imitate-margin X    a schedule is imitated only if it is faster than\n"
"                        none by this fraction (default 0.05)\n"
"  --imitate-prune N     rounds of pruning of the fastest candidate: each\n"
"                        round times it without each one of its actions\n"
"                        and keeps the fastest (default 0: none)\n"
"  --imitate-search N    expert iteration: also search each program with\n"
"                        pearl-tune's measured beam search (N candidates,\n"
"                        ranked by the current policy, starting from the\n"
"                        fastest candidate above) and imitate its best\n"
"                        (default 0: no search)\n"
"  --search-nests whole|each|both  that search takes the program whole\n"
"                        (default), each top-level loop nest on its own\n"
"                        then their composition, or both on half the\n"
"                        budget each (pearl-tune's --nests)\n"
"  --search-per-nest     --search-nests each\n"
"  --imitate-targets DIR expert iteration from a tuning campaign: also time\n"
"                        DIR/NAME.sched's schedule for each program NAME\n"
"                        (pearl-tune --out-dir DIR on the same programs,\n"
"                        over MPI ranks if need be) and imitate it if it\n"
"                        is the fastest\n"
"  --imitate-kind-weight K=W[,K=W...]\n"
"                        multiply the weight of the imitated decisions of\n"
"                        kind K (a letter: I R S T U P N D F J V K) by W\n"
"                        in (0, 100] (default: all 1); pearl-train prints\n"
"                        how often the policy picks each kind imitated\n"
"  --imitate-select loss|speed\n"
"                        which epoch of imitation is kept: the lowest\n"
"                        held-out loss (default), or the fastest greedy\n"
"                        schedules on the held-out programs, measured\n"
"                        after every epoch (held_out_speed.h; each\n"
"                        program's in DIR/imitate-select.csv)\n"
"  --imitate-average FROM  keep no single epoch but the mean of the weights\n"
"                        of epochs FROM to the last (weight_average.h),\n"
"                        scored on the held-out programs as an epoch\n"
"                        (its row of the CSVs says \"mean\"; default 0:\n"
"                        off)\n"
"  --imitate-save-epochs also write each epoch's weights to DIR/epoch-K.bin\n"
"                        (epoch 0: the starting policy), to choose one\n"
"                        later on another validation set (pearl-bench's\n"
"                        scaled sizes, say); the kept one is policy.bin\n"
"  --fit-seed S          seed of the imitation fit's minibatch order alone\n"
"                        (default: the stream of --seed, after the\n"
"                        candidates were drawn): replays of one recipe\n"
"                        from one memo that differ only in the fit\n"
"  --imitate-near X      also imitate the schedules measured within this\n"
"                        fraction of the fastest that the agent can reach\n"
"                        (candidates and the search's), each program's\n"
"                        weight shared among them (default 0: the\n"
"                        fastest only)\n"
"  --imitate-near-max K  at most K schedules per program (default 4)\n"
"  --imitate-likely X    when a target or the search is the fastest,\n"
"                        imitate instead, of the schedules measured within\n"
"                        this fraction of it, the one the starting policy\n"
"                        finds the most likely (its greedy one: kept, or\n"
"                        distilled); with --imitate-targets, DIR/NAME.near's\n"
"                        alternatives (near-targets.py) are timed too\n"
"                        (default 0: the fastest)\n"
"  --distill X           keep the starting policy where no measurement says\n"
"                        better: a program is imitated only if its fastest\n"
"                        schedule is a target's or the search's and beats\n"
"                        the policy's greedy one by the margin; on the\n"
"                        others the policy learns its own distributions\n"
"                        along its greedy schedule, each decision at\n"
"                        weight X (default 0: no distillation)\n"
"  --distill-temperature T  the distributions learnt are the policy's logits\n"
"                        divided by T: below 1 sharper, closer to its\n"
"                        greedy choices (default 1)\n"
"  --distill-teacher FILE  the distributions learnt are this policy's, on\n"
"                        the states the starting policy reaches (from a\n"
"                        student: DAgger); programs with a target then\n"
"                        imitate their fastest candidate, never the\n"
"                        teacher (default: the starting policy)\n"
"  --distill-programs N  with --distill, also N more random programs on\n"
"                        which nothing is timed: the policy's distributions\n"
"                        along its greedy episode (and --distill-samples\n"
"                        sampled ones) are learnt, so that it keeps what\n"
"                        it knew on more kinds of nests (default 0)\n"
"  --first-distill-program S  pearl-gen seed of the first (default 10001;\n"
"                        pearl-eval's held-out programs start at 100001)\n"
"  --distill-samples K   sampled episodes per such program besides the\n"
"                        greedy one (default 0)\n"
"  --init-model FILE     start from these weights (default: random, --seed);\n"
"                        actions the blob has no weights for (an older\n"
"                        action space) start at the mean bias of the others\n"
"  --reward step|final   reward every action, or only the final schedule\n"
"  --max-branch-steps N  actions per branch (default 8, as pearl-schedule)\n"
"  --min-parallel-work N no parallel loop with fewer innermost iterations\n"
"                        per execution (default 16384, as pearl-schedule)\n"
"  --uniform-parallel B  the agent's rule of uniform parallelism in its\n"
"                        episodes and evaluations (1, the default, as\n"
"                        pearl-schedule; 0: the schedules as the policy chose)\n"
"  --fill-parallel B     the agent's rule of parallel fill, likewise (1, the\n"
"                        default, as pearl-schedule)\n"
"  --copies B            1 lets the agent choose K (copies) in its episodes\n"
"                        and evaluations; 0, the default as in\n"
"                        pearl-schedule, masks K for it (imitation targets\n"
"                        keep their K)\n"
"  --threads N           OpenMP threads of the timed runs (default 2)\n"
"  --runs N              timed runs per schedule, minimum kept (default 3)\n"
"  --max-cpu-pressure X  a measurement during whose runs some task\n"
"                        waited for a CPU more than this fraction of the\n"
"                        time (another job on the machine) is taken again\n"
"                        after a wait, and not memoized if it stays so\n"
"                        (default 0.35; 0: no check)\n"
"  --contention-retries N  how many times (default 3)\n"
"  --recheck-bases N     measure the first N bases the memo answers again,\n"
"                        and warn if they are not the memo's times (another\n"
"                        host under the same fingerprint; default 0, at\n"
"                        most 64)\n"
"  --timeout-factor X    a schedule this many times slower than the base\n"
"                        is stopped and penalized (default 4)\n"
"  --machine NAME        memo fingerprint override\n"
"  --memo-also M1|M2     other machines whose memo answers serve a program this\n"
"                        machine has no base for, until a query must measure\n"
"  --seed N              initialization, sampling and shuffling (default 1)\n"
"  -v                    per-episode lines\n");
}

/* --entropy A,B: the coefficient's start and end. */
static int parse_entropy(const char *value, void *dest)
{
	struct options *o = dest;
	int end = 0;

	if (sscanf(value, "%f,%f%n", &o->entropy_start, &o->entropy_end,
		   &end) != 2 || value[end])
		return pearl_option_bad_value;
	return pearl_option_ok;
}

/* --reward step|final */
static int parse_reward(const char *value, void *dest)
{
	enum episode_reward *reward = dest;

	if (!strcmp(value, "step"))
		*reward = EPISODE_REWARD_STEP;
	else if (!strcmp(value, "final"))
		*reward = EPISODE_REWARD_FINAL;
	else
		return pearl_option_bad_value;
	return pearl_option_ok;
}

/* --imitate-select loss|speed */
static int parse_select(const char *value, void *dest)
{
	int *speed = dest;

	if (!strcmp(value, "loss"))
		*speed = 0;
	else if (!strcmp(value, "speed"))
		*speed = 1;
	else
		return pearl_option_bad_value;
	return pearl_option_ok;
}

/* --imitate-kind-weight V=4[,D=2...] */
static int parse_kind_weights(const char *value, void *dest)
{
	return kind_weights_parse(value, dest) < 0 ? pearl_option_bad_value
						   : pearl_option_ok;
}

static void default_options(struct options *o)
{
	int k;

	memset(o, 0, sizeof(*o));
	o->out = "pearl-train-out";
	o->seed = 1;
	o->first_program = 1;
	o->programs = 200;
	o->first_matmul = 1;
	o->first_gemm = 1;
	o->first_chain = 1;
	o->first_matvec = 1;
	o->first_sweep = 1;
	o->first_doitgen = 1;
	o->scale = pearl_gen_scale_train;
	o->steps = 20000;
	o->batch = 512;
	o->pretrain_epochs = 100;
	o->lr = 1e-4f;
	o->pretrain_lr = 1e-3f;
	o->imitate_samples = 2;
	o->imitate_lr = 3e-4f;
	for (k = 0; k < KIND_RECALL_KINDS; ++k)
		o->imitate_kind_weight[k] = 1;
	o->imitate_margin = 0.05f;
	o->imitate_near_max = 4;
	o->fit_seed = -1;
	o->distill_temperature = 1;
	o->first_distill = 10001;
	o->entropy_start = 0.1f;
	o->entropy_end = 0;
	o->max_grad_norm = 1.0f;
	pearl_agent_options_init(&o->agent);
	o->reward = EPISODE_REWARD_STEP;
	pearl_env_options_init(&o->env);
	o->env.timeout_factor = 4;
	o->ppo = pearl_ppo_default_config();
}

/* Fills *o from the command line: 0, 1 after --help, or -1 on a usage
 * error (said on stderr). */
static int parse_options(int argc, char **argv, struct options *o)
{
	const struct pearl_option table[] = {
	    PEARL_OPTION_STRING("out", &o->out),
	    PEARL_OPTION_STRING("memo", &o->memo),
	    PEARL_OPTION_FLAG("resume", &o->resume),
	    PEARL_OPTION_INT("programs", &o->programs, 0, INT_MAX),
	    PEARL_OPTION_U64("first-program", &o->first_program),
	    PEARL_OPTION_INT("matmul-programs", &o->matmul_programs, 0,
			     INT_MAX),
	    PEARL_OPTION_U64("first-matmul-program", &o->first_matmul),
	    PEARL_OPTION_INT("gemm-programs", &o->gemm_programs, 0, INT_MAX),
	    PEARL_OPTION_U64("first-gemm-program", &o->first_gemm),
	    PEARL_OPTION_INT("chain-programs", &o->chain_programs, 0, INT_MAX),
	    PEARL_OPTION_U64("first-chain-program", &o->first_chain),
	    PEARL_OPTION_INT("matvec-programs", &o->matvec_programs, 0,
			     INT_MAX),
	    PEARL_OPTION_U64("first-matvec-program", &o->first_matvec),
	    PEARL_OPTION_INT("sweep-programs", &o->sweep_programs, 0,
			     INT_MAX),
	    PEARL_OPTION_U64("first-sweep-program", &o->first_sweep),
	    PEARL_OPTION_INT("doitgen-programs", &o->doitgen_programs, 0,
			     INT_MAX),
	    PEARL_OPTION_U64("first-doitgen-program", &o->first_doitgen),
	    PEARL_OPTION_CALL("size-scale", &o->scale, pearl_gen_scale_option,
			      "small|train|wide|cache"),
	    PEARL_OPTION_LONG("steps", &o->steps, 0, LONG_MAX),
	    PEARL_OPTION_INT("batch", &o->batch, 1, INT_MAX),
	    PEARL_OPTION_INT("minibatch", &o->ppo.minibatch, 1, INT_MAX),
	    PEARL_OPTION_INT("epochs", &o->ppo.epochs, 1, INT_MAX),
	    PEARL_OPTION_FLOAT_ABOVE("lr", &o->lr, 0),
	    PEARL_OPTION_FLOAT("clip", &o->ppo.clip),
	    PEARL_OPTION_CALL("entropy", o, parse_entropy, "A,B"),
	    PEARL_OPTION_FLOAT("value-coef", &o->ppo.value_coef),
	    PEARL_OPTION_INT("pretrain-epochs", &o->pretrain_epochs, INT_MIN,
			     INT_MAX),
	    PEARL_OPTION_FLOAT("pretrain-lr", &o->pretrain_lr),
	    PEARL_OPTION_STRING("init-model", &o->init_model),
	    PEARL_OPTION_CALL("reward", &o->reward, parse_reward,
			      "step|final"),
	    PEARL_OPTION_CALL("imitate-kind-weight", o->imitate_kind_weight,
			      parse_kind_weights, "K=W[,K=W...]"),
	    PEARL_OPTION_CALL("imitate-select", &o->imitate_select_speed,
			      parse_select, "loss|speed"),
	    PEARL_OPTION_INT("max-branch-steps", &o->agent.max_branch_steps,
			     1, INT_MAX),
	    PEARL_OPTION_INT("threads", &o->env.threads, 1, INT_MAX),
	    PEARL_OPTION_INT("runs", &o->env.runs, 1, INT_MAX),
	    PEARL_OPTION_DOUBLE_RANGE("max-cpu-pressure",
				      &o->env.max_cpu_pressure, 0, HUGE_VAL),
	    PEARL_OPTION_INT("contention-retries",
			     &o->env.contention_retries, 0, 100),
	    PEARL_OPTION_INT("recheck-bases", &o->env.recheck_bases, 0,
			     PEARL_ENV_RECHECK_MAX),
	    PEARL_OPTION_STRING("machine", &o->env.machine),
	    PEARL_OPTION_STRING("memo-also", &o->env.memo_also),
	    PEARL_OPTION_INT("imitate-epochs", &o->imitate_epochs, 0,
			     INT_MAX),
	    PEARL_OPTION_INT("imitate-samples", &o->imitate_samples, 0,
			     INT_MAX),
	    PEARL_OPTION_FLOAT_ABOVE("imitate-lr", &o->imitate_lr, 0),
	    PEARL_OPTION_FLOAT_RANGE("imitate-weight-decay",
				     &o->imitate_weight_decay, 0, HUGE_VAL),
	    PEARL_OPTION_FLOAT_RANGE("imitate-margin", &o->imitate_margin, 0,
				     HUGE_VAL),
	    PEARL_OPTION_INT("imitate-prune", &o->imitate_prune, 0, INT_MAX),
	    PEARL_OPTION_INT("imitate-average", &o->imitate_average, 0,
			     INT_MAX),
	    PEARL_OPTION_FLAG("imitate-save-epochs", &o->imitate_save_epochs),
	    PEARL_OPTION_LLONG("fit-seed", &o->fit_seed, 0, LLONG_MAX),
	    PEARL_OPTION_FLOAT_RANGE("imitate-near", &o->imitate_near, 0,
				     HUGE_VAL),
	    PEARL_OPTION_INT("imitate-near-max", &o->imitate_near_max, 1,
			     NEAR_BEST_MAX),
	    PEARL_OPTION_FLOAT_RANGE("imitate-likely", &o->imitate_likely, 0,
				     HUGE_VAL),
	    PEARL_OPTION_STRING("imitate-targets", &o->imitate_targets),
	    PEARL_OPTION_FLOAT_RANGE("distill", &o->distill, 0, HUGE_VAL),
	    PEARL_OPTION_FLOAT_ABOVE("distill-temperature",
				     &o->distill_temperature, 0),
	    PEARL_OPTION_STRING("distill-teacher", &o->distill_teacher),
	    PEARL_OPTION_INT("distill-programs", &o->distill_programs, 0,
			     INT_MAX),
	    PEARL_OPTION_U64("first-distill-program", &o->first_distill),
	    PEARL_OPTION_INT("distill-samples", &o->distill_samples, 0,
			     INT_MAX),
	    PEARL_OPTION_LONG("imitate-search", &o->imitate_search, 0,
			      LONG_MAX),
	    PEARL_OPTION_CALL("search-nests", &o->search_nests,
			      pearl_search_nests_option, "whole|each|both"),
	    PEARL_OPTION_ACTION("search-per-nest", &o->search_nests,
				pearl_search_nests_option,
				"--search-nests each"),
	    PEARL_OPTION_DOUBLE_ABOVE("timeout-factor",
				      &o->env.timeout_factor, 1),
	    PEARL_OPTION_LONG("min-parallel-work",
			      &o->agent.min_parallel_work, 0, LONG_MAX),
	    PEARL_OPTION_INT("uniform-parallel", &o->agent.uniform_parallel, 0,
			     1),
	    PEARL_OPTION_INT("fill-parallel", &o->agent.fill_parallel, 0, 1),
	    PEARL_OPTION_INT("copies", &o->agent.copies, 0, 1),
	    PEARL_OPTION_U64("seed", &o->seed),
	    {.short_name = 'v', .kind = pearl_option_flag, .dest = &o->verbose},
	    {.name = "help", .short_name = 'h', .kind = pearl_option_stop},
	    PEARL_OPTION_END};
	struct pearl_options_result res = {0};

	default_options(o);
	return pearl_options_parse_or_say("pearl-train", 0, table, 1, argc,
					  argv, &res);
}

static int save_state(const char *dir, const struct state *s)
{
	char *path = pearl_path_join(dir, "state.txt"), *tmp = pearl_path_join(dir, "state.tmp");
	FILE *f = tmp ? fopen(tmp, "w") : NULL;
	int rc = -1;

	if (f) {
		fprintf(f,
			"pearl-train state 1\niteration %ld\nsteps %ld\n"
			"episodes %ld\nrng %llu\ncursor %ld\npretrained %d\n"
			"seconds %.3f\n",
			s->iteration, s->steps, s->episodes,
			(unsigned long long)s->rng, s->cursor, s->pretrained,
			s->seconds);
		if (fclose(f) == 0 && rename(tmp, path) == 0)
			rc = 0;
	}
	free(path);
	free(tmp);
	return rc;
}

static int load_state(const char *dir, struct state *s)
{
	char *path = pearl_path_join(dir, "state.txt");
	FILE *f = path ? fopen(path, "r") : NULL;
	unsigned long long rng;
	int ok;

	free(path);
	if (!f)
		return -1;
	ok = fscanf(f,
		    "pearl-train state 1 iteration %ld steps %ld episodes %ld "
		    "rng %llu cursor %ld pretrained %d seconds %lf",
		    &s->iteration, &s->steps, &s->episodes, &rng, &s->cursor,
		    &s->pretrained, &s->seconds) == 7;
	fclose(f);
	s->rng = rng;
	return ok ? 0 : -1;
}

/* Writes weights and optimizer state next to each other, each through a
 * temporary file renamed into place, then the state. */
static int save_checkpoint(const char *dir, const pearl_policy *policy,
			   const pearl_adam *adam, const struct state *s,
			   char *err, size_t err_size)
{
	char *pt = pearl_path_join(dir, "policy.tmp"), *p = pearl_path_join(dir, "policy.bin");
	char *at = pearl_path_join(dir, "adam.tmp"), *a = pearl_path_join(dir, "adam.bin");
	int rc = -1;

	if (pt && p && at && a &&
	    pearl_policy_save_file(policy, pt, err, err_size) == 0 &&
	    (!adam || pearl_adam_save_file(adam, at, err, err_size) == 0) &&
	    rename(pt, p) == 0 && (!adam || rename(at, a) == 0)) {
		if (save_state(dir, s) == 0)
			rc = 0;
		else
			snprintf(err, err_size, "cannot write %s/state.txt",
				 dir);
	} else if (err_size && !err[0]) {
		snprintf(err, err_size, "cannot write the checkpoint in %s",
			 dir);
	}
	free(pt);
	free(p);
	free(at);
	free(a);
	return rc;
}

static void plot_curve(const char *dir)
{
	char cmd[4096];

	if (system("command -v gnuplot > /dev/null 2>&1") != 0)
		return;
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && gnuplot -e \"set terminal pngcairo size 900,500 "
		 "noenhanced; set output 'curve.png'; set datafile separator "
		 "','; set key top left; set xlabel 'decisions (PPO steps)'; "
		 "set ylabel 'per episode'; set grid; "
		 "plot 'curve.csv' every ::1 using 2:4 with linespoints title "
		 "'mean reward (sum of log4 speedups)', '' every ::1 using 2:5 "
		 "with linespoints title 'mean log4 final speedup'\" "
		 "> /dev/null 2>&1 || "
		 "gnuplot -e \"set terminal png size 900,500; set output "
		 "'curve.png'; set datafile separator ','; plot 'curve.csv' "
		 "every ::1 using 2:4 with linespoints title 'mean reward'\" "
		 "> /dev/null 2>&1",
		 dir);
	if (system(cmd) != 0)
		fprintf(stderr, "pearl-train: gnuplot failed (curve.png)\n");
}

/* ---- Pre-training ------------------------------------------------------- */

/* What the value head learns: the graphs of the unscheduled programs that
 * run and their log10 run times, standardized. */
struct value_samples {
	struct pearl_graph **graphs; /* n, owned */
	float *targets;              /* n */
	int n;
	double mean, sd;             /* of the log10 times */
};

static void value_samples_clear(struct value_samples *vs)
{
	int i;

	for (i = 0; i < vs->n; ++i)
		pearl_graph_free(vs->graphs[i]);
	free(vs->graphs);
	free(vs->targets);
}

/* Times the unscheduled programs of `set` into *vs (the log10 times, not
 * yet standardized); 0, or -1 with a message in err. */
static int time_programs(pearl_env *env, struct program_set *set,
			 int verbose, struct value_samples *vs, char *err,
			 size_t err_size)
{
	int i;

	fprintf(stderr, "pearl-train: pre-training: timing %d unscheduled "
			"programs\n", set->n);
	for (i = 0; i < set->n; ++i) {
		struct pearl_env_result r;
		pearl_sched *sched;

		if (pearl_env_time(env, set->p[i], "", &r, err, err_size) < 0)
			return -1;
		if (r.status != PEARL_ENV_OK || !(r.base_seconds > 0))
			continue;
		sched = pearl_env_program_sched(set->p[i], err, err_size);
		if (!sched)
			return -1;
		vs->graphs[vs->n] = pearl_graph_build(sched, -1);
		pearl_sched_free(sched);
		if (!vs->graphs[vs->n]) {
			snprintf(err, err_size, "%s: no graph",
				 pearl_env_program_name(set->p[i]));
			return -1;
		}
		vs->targets[vs->n++] = (float)log10(r.base_seconds);
		if (verbose)
			fprintf(stderr, "  %s %.3f ms\n",
				pearl_env_program_name(set->p[i]),
				r.base_seconds * 1e3);
	}
	return 0;
}

/* The targets to mean 0 and standard deviation 1 (vs->mean and vs->sd
 * say from what). */
static void standardize(struct value_samples *vs)
{
	double mean = 0, var = 0, sd;
	int i, n = vs->n;

	for (i = 0; i < n; ++i)
		mean += vs->targets[i];
	mean /= n;
	for (i = 0; i < n; ++i)
		var += (vs->targets[i] - mean) * (vs->targets[i] - mean);
	sd = sqrt(var / (n - 1)) + 1e-6;
	for (i = 0; i < n; ++i)
		vs->targets[i] = (float)((vs->targets[i] - mean) / sd);
	vs->mean = mean;
	vs->sd = sd;
}

/* The samples of pre-training into *vs: the unscheduled programs of `set`
 * that run, timed, their targets standardized; 0, or -1 with a message in
 * err. */
static int collect_value_samples(pearl_env *env, struct program_set *set,
				 int verbose, struct value_samples *vs,
				 char *err, size_t err_size)
{
	vs->graphs = calloc(set->n, sizeof(*vs->graphs));
	vs->targets = calloc(set->n, sizeof(*vs->targets));
	if (!vs->graphs || !vs->targets) {
		snprintf(err, err_size, "out of memory");
		return -1;
	}
	if (time_programs(env, set, verbose, vs, err, err_size) < 0)
		return -1;
	if (vs->n < 2) {
		snprintf(err, err_size, "pre-training needs at least two "
					"programs that run");
		return -1;
	}
	standardize(vs);
	return 0;
}

/* One epoch of value regression on all samples but the last n_val, its
 * mean squared error in *mse, and that of the held-out last n_val in *val
 * (NAN if none). 0, or -1 with a message in err. */
static int pretrain_epoch(pearl_policy *policy, pearl_adam *adam,
			  const struct value_samples *vs, int n_val,
			  int minibatch, uint64_t *rng, double *mse,
			  double *val, char *err, size_t err_size)
{
	double sum = 0;
	int i;

	if (pearl_value_regression_epoch(policy, adam, vs->graphs,
					 vs->targets, vs->n - n_val, minibatch,
					 rng, mse, err, err_size) < 0)
		return -1;
	for (i = vs->n - n_val; i < vs->n; ++i) {
		float logits[PEARL_N_ACTIONS], v;

		if (pearl_policy_eval(policy, vs->graphs[i], logits, &v, err,
				      err_size) < 0)
			return -1;
		sum += (v - vs->targets[i]) * (v - vs->targets[i]);
	}
	*val = n_val ? sum / n_val : NAN;
	return 0;
}

/* The epochs of value pre-training, one CSV line each, keeping the
 * parameters of the best held-out epoch. */
static int pretrain_epochs(pearl_policy *policy, pearl_adam *adam,
			   const struct value_samples *vs,
			   const struct options *o, uint64_t *rng, FILE *csv,
			   struct best_epoch *best, double t0, char *err,
			   size_t err_size)
{
	/* Every tenth program (if there are ten) is held out to watch
	 * overfitting; the network is trained on the others. */
	int n_val = vs->n >= 10 ? vs->n / 10 : 0, epoch;

	fprintf(csv, "epoch,mse,validation_mse\n");
	for (epoch = 1; epoch <= o->pretrain_epochs; ++epoch) {
		double mse, val;

		if (pretrain_epoch(policy, adam, vs, n_val, o->ppo.minibatch,
				   rng, &mse, &val, err, err_size) < 0)
			return -1;
		fprintf(csv, "%d,%.6f,%.6f\n", epoch, mse, val);
		if (n_val) /* early stopping */
			best_epoch_offer(best, epoch, val);
		if (epoch == 1 || epoch % 10 == 0 ||
		    epoch == o->pretrain_epochs)
			fprintf(stderr,
				"pearl-train: pre-training epoch %d/%d: mse "
				"%.4f, held-out mse %.4f (targets: log10 "
				"seconds, mean %.2f sd %.2f; %d + %d "
				"programs) %.0fs\n",
				epoch, o->pretrain_epochs, mse, val, vs->mean,
				vs->sd, vs->n - n_val, n_val, pearl_now() - t0);
	}
	if (n_val) {
		best_epoch_restore(best);
		fprintf(stderr, "pearl-train: pre-training keeps epoch %d "
				"(held-out mse %.4f)\n", best->epoch,
			best->score);
	}
	return 0;
}

/* Pre-training of the value head (and the layers under it) on the
 * standardized log10 run times of the unscheduled programs. */
static int pretrain(pearl_env *env, struct program_set *set,
		    pearl_policy *policy, const struct options *o,
		    uint64_t *rng, const char *dir, char *err,
		    size_t err_size)
{
	struct value_samples vs = {0};
	struct pearl_adam_config acfg = pearl_adam_default_config();
	struct best_epoch best = {0};
	pearl_adam *adam = NULL;
	double t0 = pearl_now();
	char *csv_path = pearl_path_join(dir, "pretrain.csv");
	FILE *csv = NULL;
	size_t n_params;
	int rc = -1;

	if (!csv_path) {
		snprintf(err, err_size, "out of memory");
		goto out;
	}
	if (collect_value_samples(env, set, o->verbose, &vs, err,
				  err_size) < 0)
		goto out;
	acfg.lr = o->pretrain_lr;
	acfg.max_grad_norm = o->max_grad_norm;
	pearl_policy_get_params(policy, &n_params);
	adam = pearl_adam_alloc(n_params, &acfg, err, err_size);
	csv = fopen(csv_path, "w");
	if (!adam || !csv || best_epoch_init(&best, policy, INFINITY) < 0) {
		if (!csv)
			snprintf(err, err_size, "cannot write %s", csv_path);
		else if (adam)
			snprintf(err, err_size, "out of memory");
		goto out;
	}
	rc = pretrain_epochs(policy, adam, &vs, o, rng, csv, &best, t0, err,
			     err_size);
out:
	free(best.copy);
	if (csv)
		fclose(csv);
	free(csv_path);
	value_samples_clear(&vs);
	pearl_adam_free(adam);
	return rc;
}

/* A policy blob (--init-model, --distill-teacher): actions it has no
 * weights for (an older action space) start at the mean bias of the
 * others, with a line saying so. NULL with a message in err. */
static pearl_policy *load_policy(const char *path, char *err,
				 size_t err_size)
{
	pearl_policy *policy = pearl_policy_load_file(path, err, err_size);
	int n_opened = policy ? pearl_policy_open_new_actions(policy) : 0;

	if (n_opened)
		fprintf(stderr, "pearl-train: %s has no weights for %d actions "
				"(a blob of an older action space); they "
				"start at the mean bias of the others\n",
			path, n_opened);
	return policy;
}

/* ---- PPO ---------------------------------------------------------------- */

/* What the episodes of one PPO iteration did. */
struct iteration_stats {
	int episodes, decisions;
	double reward, log4_speedup;
	int queries, memo_hits, failures;
};

/* Opens DIR/curve.csv to append to (with the header if it is new);
 * NULL with a message in err. */
static FILE *open_curve(const char *csv_path, char *err, size_t err_size)
{
	struct stat sb;
	int fresh = stat(csv_path, &sb) != 0;
	FILE *csv = fopen(csv_path, "a");

	if (!csv) {
		snprintf(err, err_size, "cannot write %s", csv_path);
		return NULL;
	}
	if (fresh)
		fprintf(csv, "iteration,steps,episodes,mean_reward,"
			     "mean_log4_speedup,geomean_speedup,"
			     "memo_hit_rate,steps_per_second,entropy_coef,"
			     "policy_loss,value_loss,entropy,approx_kl,"
			     "clip_fraction,seconds\n");
	return csv;
}

/* Episodes of the sampling agent on the programs in `order` (from
 * st->cursor on, cycling) until the batch holds o->batch decisions;
 * their outcomes added to *it. 0, or -1 with a message in err. */
static int collect_batch(pearl_env *env, struct program_set *set,
			 const int *order, pearl_policy *policy,
			 struct state *st, const struct options *o,
			 struct pearl_ppo_batch *batch,
			 struct iteration_stats *it, char *err,
			 size_t err_size)
{
	while (batch->n_steps < o->batch) {
		struct pearl_agent_options ao;
		struct episode_result res;
		pearl_env_program *p = set->p[order[st->cursor % set->n]];

		ao = o->agent;
		ao.sample = 1;
		ao.seed = pearl_splitmix64(&st->rng);
		if (episode_run(env, p, policy, &ao, o->reward, batch, &res,
				err, err_size) < 0)
			return -1;
		st->cursor++;
		it->episodes++;
		it->decisions += res.n_decisions;
		it->reward += res.reward;
		it->log4_speedup += log(res.speedup) / log(4.0);
		it->queries += res.queries;
		it->memo_hits += res.memo_hits;
		it->failures += res.status != PEARL_ENV_OK;
		if (o->verbose)
			fprintf(stderr, "  %-10s %6.2fx reward %+.3f %s%s%s\n",
				pearl_env_program_name(p), res.speedup,
				res.reward, res.schedule[0] ? "" : "(none)",
				res.schedule,
				res.status == PEARL_ENV_OK ? "" : " [failed]");
	}
	return 0;
}

/* The iteration's line on stderr and in curve.csv (dt: its seconds). */
static void report_iteration(const struct state *st, const struct options *o,
			     const struct iteration_stats *it,
			     const struct pearl_ppo_stats *ps,
			     const struct pearl_ppo_config *cfg, int n_steps,
			     double dt, FILE *csv)
{
	double mr = it->reward / it->episodes;
	double ms = it->log4_speedup / it->episodes;
	double hit = it->queries ? (double)it->memo_hits / it->queries : 0;

	fprintf(stderr,
		"pearl-train: iter %ld | steps %ld/%ld | episodes %ld | mean "
		"reward %+.3f | mean speedup %.2fx | memo hit %.0f%% | %.2f "
		"steps/s | entropy %.3f (coef %.3f) | kl %.4f clip %.2f | "
		"failed %d\n",
		st->iteration, st->steps, o->steps, st->episodes, mr,
		pow(4.0, ms), 100 * hit, n_steps / dt, ps->entropy,
		cfg->entropy_coef, ps->approx_kl, ps->clip_fraction,
		it->failures);
	fprintf(csv,
		"%ld,%ld,%ld,%.5f,%.5f,%.4f,%.4f,%.3f,%.4f,%.5f,%.5f,%.5f,"
		"%.5f,%.4f,%.1f\n",
		st->iteration, st->steps, st->episodes, mr, ms, pow(4.0, ms),
		hit, n_steps / dt, cfg->entropy_coef, ps->policy_loss,
		ps->value_loss, ps->entropy, ps->approx_kl, ps->clip_fraction,
		st->seconds);
	fflush(csv);
}

/* One PPO iteration: a batch of episodes, the update (entropy coefficient
 * decayed linearly over o->steps), the report and the checkpoint. 0, or
 * -1 with a message in err. */
static int ppo_iteration(pearl_env *env, struct program_set *set,
			 const int *order, pearl_policy *policy,
			 pearl_adam *adam, struct state *st,
			 const struct options *o, FILE *csv, char *err,
			 size_t err_size)
{
	struct pearl_ppo_batch batch;
	struct iteration_stats it;
	struct pearl_ppo_stats ps;
	struct pearl_ppo_config cfg = o->ppo;
	double t0 = pearl_now(), frac;
	int rc = -1;

	memset(&it, 0, sizeof(it));
	pearl_ppo_batch_init(&batch, PEARL_N_ACTIONS);
	if (collect_batch(env, set, order, policy, st, o, &batch, &it, err,
			  err_size) < 0)
		goto out;
	frac = o->steps > 0 ? (double)st->steps / o->steps : 1;
	cfg.entropy_coef = (float)(o->entropy_start +
				   (o->entropy_end - o->entropy_start) *
				       (frac < 1 ? frac : 1));
	pearl_ppo_batch_finish(&batch, cfg.gamma, cfg.lambda);
	if (pearl_ppo_update(policy, adam, &batch, &cfg, &st->rng, &ps, err,
			     err_size) < 0)
		goto out;
	st->iteration++;
	st->steps += batch.n_steps;
	st->episodes += it.episodes;
	st->seconds += pearl_now() - t0;
	report_iteration(st, o, &it, &ps, &cfg, batch.n_steps,
			 pearl_now() - t0, csv);
	rc = 0;
out:
	pearl_ppo_batch_clear(&batch);
	if (rc == 0 &&
	    save_checkpoint(o->out, policy, adam, st, err, err_size) < 0)
		rc = -1;
	return rc;
}

/* PPO until o->steps decisions, in iterations of o->batch decisions over
 * a fixed shuffled order of the programs, cycled through; checkpointed
 * and plotted after every iteration. 0, or -1 with a message in err. */
static int train(pearl_env *env, struct program_set *set,
		 pearl_policy *policy, pearl_adam *adam, struct state *st,
		 const struct options *o, char *err, size_t err_size)
{
	int *order = malloc(set->n * sizeof(*order));
	char *csv_path = pearl_path_join(o->out, "curve.csv");
	FILE *csv = NULL;
	int rc = -1;
	uint64_t order_rng = o->seed ^ 0x5eedULL;

	if (!order || !csv_path) {
		snprintf(err, err_size, "out of memory");
		goto out;
	}
	pearl_shuffle_indices(order, set->n, &order_rng);
	csv = open_curve(csv_path, err, err_size);
	if (!csv)
		goto out;
	while (st->steps < o->steps) {
		if (ppo_iteration(env, set, order, policy, adam, st, o, csv,
				  err, err_size) < 0)
			goto out;
		plot_curve(o->out);
	}
	rc = 0;
out:
	if (csv)
		fclose(csv);
	free(csv_path);
	free(order);
	return rc;
}

/* ---- main --------------------------------------------------------------- */

/* The environment the options describe (the memo in DIR unless --memo;
 * *memo owns its path); NULL with a message in err. */
static pearl_env *open_env(const struct options *o, char **memo, char *err,
			   size_t err_size)
{
	struct pearl_env_options eo;
	pearl_env *env;

	*memo = o->memo ? strdup(o->memo) : pearl_path_join(o->out, "memo.sqlite");
	eo = o->env;
	eo.memo_path = *memo;
	env = pearl_env_create(&eo, err, err_size);
	if (env)
		fprintf(stderr, "pearl-train: machine \"%s\", memo %s\n",
			pearl_env_machine(env), *memo);
	return env;
}

/* Says which programs of a family (--matmul-programs, --gemm-programs,
 * --chain-programs, --matvec-programs, --sweep-programs,
 * --doitgen-programs) are among those trained on, if any. */
static void say_family(enum pearl_gen_family family, uint64_t first,
		       int count)
{
	char a[64], b[64];

	if (count > 0)
		fprintf(stderr, "pearl-train: of them the %s family's "
				"%s..%s\n",
			pearl_gen_family_name(family),
			pearl_gen_program_name(family, first, a, sizeof(a)),
			pearl_gen_program_name(family, first + count - 1, b,
					       sizeof(b)));
}

/* The programs to train on into *set: the random ones, then each
 * family's (--matmul-programs ... --doitgen-programs) in this order; 0, or
 * -1 with a message in err. */
static int load_programs(pearl_env *env, const struct options *o,
			 struct program_set *set, char *err, size_t err_size)
{
	const struct {
		enum pearl_gen_family family;
		uint64_t first;
		int count;
	} sets[] = {
		{ pearl_gen_family_any, o->first_program, o->programs },
		{ pearl_gen_family_matmul, o->first_matmul, o->matmul_programs },
		{ pearl_gen_family_gemm, o->first_gemm, o->gemm_programs },
		{ pearl_gen_family_chain, o->first_chain, o->chain_programs },
		{ pearl_gen_family_matvec, o->first_matvec,
		  o->matvec_programs },
		{ pearl_gen_family_sweep, o->first_sweep, o->sweep_programs },
		{ pearl_gen_family_doitgen, o->first_doitgen,
		  o->doitgen_programs },
	};
	size_t i, n_sets = sizeof(sets) / sizeof(sets[0]);

	for (i = 0; i < n_sets; ++i)
		if (program_set_add_generated(set, env, sets[i].first,
					      sets[i].count, o->scale,
					      sets[i].family, o->verbose, err,
					      err_size) < 0)
			return -1;
	if (o->programs > 0)
		fprintf(stderr, "pearl-train: %d programs (seeds %llu..%llu, "
				"%s), %d skipped\n",
			set->n, (unsigned long long)o->first_program,
			(unsigned long long)(o->first_program + o->programs -
					     1),
			pearl_gen_scale_name(o->scale), set->skipped);
	else
		fprintf(stderr, "pearl-train: %d programs (no random ones, "
				"%s), %d skipped\n",
			set->n, pearl_gen_scale_name(o->scale), set->skipped);
	for (i = 1; i < n_sets; ++i)
		say_family(sets[i].family, sets[i].first, sets[i].count);
	if (set->n == 0) {
		snprintf(err, err_size, "no program to train on");
		return -1;
	}
	return 0;
}

/* --resume: the state, the policy and (once pre-training is done, if it
 * was kept) Adam's moments of the checkpoint in DIR; NULL with a message
 * in err. */
static pearl_policy *resume(const struct options *o, struct state *st,
			    pearl_adam **adam, char *err, size_t err_size)
{
	pearl_policy *policy;
	char *path;

	if (load_state(o->out, st) < 0) {
		snprintf(err, err_size, "no checkpoint in %s", o->out);
		return NULL;
	}
	path = pearl_path_join(o->out, "policy.bin");
	policy = pearl_policy_load_file(path, err, err_size);
	free(path);
	if (!policy)
		return NULL;
	if (st->pretrained) {
		path = pearl_path_join(o->out, "adam.bin");
		*adam = pearl_adam_load_file(path, err, err_size);
		free(path);
		/* A checkpoint kept without its optimizer state (the
		 * committed one) resumes with fresh moments. */
		if (!*adam && st->iteration > 0)
			fprintf(stderr, "pearl-train: %s; Adam starts with "
					"fresh moments\n", err);
		err[0] = 0;
	}
	fprintf(stderr, "pearl-train: resuming at iteration %ld, %ld steps\n",
		st->iteration, st->steps);
	return policy;
}

/* A fresh start: the policy of --init-model (its actions without weights
 * opened) or of the seed; NULL with a message in err. */
static pearl_policy *start(const struct options *o, struct state *st,
			   char *err, size_t err_size)
{
	struct pearl_policy_config cfg = pearl_policy_default_config();

	st->rng = o->seed;
	return o->init_model
		   ? load_policy(o->init_model, err, err_size)
		   : pearl_policy_init_random(&cfg, o->seed, err, err_size);
}

/* Imitation (imitate.h), with --distill-teacher's policy as the teacher
 * if given. 0, or -1 with a message in err. */
static int imitate_with_teacher(pearl_env *env, struct program_set *set,
				pearl_policy *policy, const struct options *o,
				struct state *st, char *err, size_t err_size)
{
	pearl_policy *teacher = NULL;
	int rc;

	if (o->distill_teacher) {
		teacher = load_policy(o->distill_teacher, err, err_size);
		if (!teacher)
			return -1;
	}
	rc = imitate(env, set, policy, teacher, o, &st->rng, o->out, err,
		     err_size);
	pearl_policy_free(teacher);
	return rc;
}

/* Pre-training and imitation (each if asked for), then a checkpoint;
 * 0, or -1 with a message in err. */
static int pretrain_phases(pearl_env *env, struct program_set *set,
			   pearl_policy *policy, const struct options *o,
			   struct state *st, char *err, size_t err_size)
{
	if (o->pretrain_epochs > 0 &&
	    pretrain(env, set, policy, o, &st->rng, o->out, err,
		     err_size) < 0)
		return -1;
	if (o->imitate_epochs > 0 && imitate_with_teacher(env, set, policy, o,
							  st, err, err_size) < 0)
		return -1;
	st->pretrained = 1;
	return save_checkpoint(o->out, policy, NULL, st, err, err_size);
}

/* PPO's optimizer: the resumed one with --lr, or a fresh one; NULL with a
 * message in err. */
static pearl_adam *ppo_optimizer(pearl_policy *policy, pearl_adam *resumed,
				 const struct options *o, char *err,
				 size_t err_size)
{
	struct pearl_adam_config acfg = pearl_adam_default_config();
	size_t n_params;

	if (resumed) {
		pearl_adam_set_lr(resumed, o->lr);
		return resumed;
	}
	acfg.lr = o->lr;
	acfg.max_grad_norm = o->max_grad_norm;
	pearl_policy_get_params(policy, &n_params);
	return pearl_adam_alloc(n_params, &acfg, err, err_size);
}

static void print_done(const pearl_env *env, const struct state *st)
{
	struct pearl_env_stats s;

	pearl_env_get_stats(env, &s);
	fprintf(stderr,
		"pearl-train: done: %ld steps, %ld episodes; environment: %ld "
		"queries, %ld memo hits, %ld misses, %ld compilations, %ld "
		"executions, %ld timeouts, %ld wrong outputs, %ld measured "
		"again on a contended machine, %ld contended answers not "
		"memoized",
		st->steps, st->episodes, s.queries, s.memo_hits,
		s.memo_misses, s.compilations, s.executions, s.timeouts,
		s.wrong_outputs, s.contention_retries, s.contended);
	if (s.bases_rechecked > 0)
		fprintf(stderr, ", %ld memoized bases measured again at a "
			"median %.2fx", s.bases_rechecked, s.base_drift);
	if (s.code_twins > 0)
		fprintf(stderr, ", %ld answered by the run of a schedule with "
			"the same code", s.code_twins);
	if (s.also_hits > 0 || s.also_moved > 0)
		fprintf(stderr, ", %ld answered by another machine's rows "
			"(--memo-also), %ld programs moved to this machine",
			s.also_hits, s.also_moved);
	fputc('\n', stderr);
}

/* The whole run: 0, or 1 after an error (said on stderr). */
static int run(const struct options *o)
{
	struct state st;
	struct program_set set;
	pearl_env *env = NULL;
	pearl_policy *policy = NULL;
	pearl_adam *adam = NULL;
	char err[1024] = "", *memo = NULL;
	int rc = 1;

	memset(&set, 0, sizeof(set));
	memset(&st, 0, sizeof(st));
	env = open_env(o, &memo, err, sizeof(err));
	if (!env || load_programs(env, o, &set, err, sizeof(err)) < 0)
		goto out;
	policy = o->resume ? resume(o, &st, &adam, err, sizeof(err))
			   : start(o, &st, err, sizeof(err));
	if (!policy)
		goto out;
	if (!st.pretrained &&
	    pretrain_phases(env, &set, policy, o, &st, err, sizeof(err)) < 0)
		goto out;
	adam = ppo_optimizer(policy, adam, o, err, sizeof(err));
	if (!adam ||
	    train(env, &set, policy, adam, &st, o, err, sizeof(err)) < 0)
		goto out;
	print_done(env, &st);
	rc = 0;
out:
	if (rc)
		fprintf(stderr, "pearl-train: %s\n", err);
	program_set_clear(&set);
	pearl_adam_free(adam);
	pearl_policy_free(policy);
	pearl_env_free(env);
	free(memo);
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
	if ((o.distill_programs > 0 || o.distill_teacher) &&
	    (o.distill <= 0 || o.imitate_epochs <= 0)) {
		fprintf(stderr, "pearl-train: --distill-programs and "
				"--distill-teacher need --distill and "
				"--imitate-epochs\n");
		return pearl_exit_usage;
	}
	if (o.imitate_average > o.imitate_epochs) {
		fprintf(stderr, "pearl-train: --imitate-average %d is after "
				"the last epoch (--imitate-epochs %d)\n",
			o.imitate_average, o.imitate_epochs);
		return pearl_exit_usage;
	}
	if (mkdir(o.out, 0777) < 0 && errno != EEXIST) {
		fprintf(stderr, "pearl-train: cannot create %s\n", o.out);
		return 1;
	}
	return run(&o);
}
