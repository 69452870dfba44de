/*
 * train_options.h - pearl-train's options, shared by its phases
 * (pearl-train.c: pre-training, PPO, checkpoints; imitate.c: the
 * candidates imitated; imitation_fit.c: imitation's epochs). pearl-train's
 * usage text says what each option does.
 */
#ifndef PEARL_TRAIN_OPTIONS_H
#define PEARL_TRAIN_OPTIONS_H

#include <stdint.h>

#include "episode.h"
#include "kind_recall.h"
#include "pearl/agent.h"
#include "pearl/env.h"
#include "pearl/gen.h"
#include "pearl/ppo.h"
#include "pearl/search.h"

struct options {
	const char *out;
	const char *memo;
	const char *init_model; /* NULL: random init with seed */
	uint64_t seed;
	uint64_t first_program;
	int programs;
	uint64_t first_matmul; /* --first-matmul-program */
	int matmul_programs;
	uint64_t first_gemm; /* --first-gemm-program */
	int gemm_programs;
	uint64_t first_chain; /* --first-chain-program */
	int chain_programs;
	uint64_t first_matvec; /* --first-matvec-program */
	int matvec_programs;
	uint64_t first_sweep; /* --first-sweep-program */
	int sweep_programs;
	uint64_t first_doitgen; /* --first-doitgen-program */
	int doitgen_programs;
	enum pearl_gen_scale scale;
	long steps;
	int batch;
	int pretrain_epochs;
	int imitate_epochs, imitate_samples, imitate_prune;
	int imitate_near_max;
	long imitate_search; /* search budget per program (0: no search) */
	enum pearl_search_nests search_nests; /* --search-nests */
	const char *imitate_targets; /* a campaign's schedule files, or NULL */
	float imitate_lr, imitate_margin, imitate_near;
	float imitate_weight_decay; /* --imitate-weight-decay X (0: none) */
	float imitate_likely; /* --imitate-likely X (0: the fastest) */
	int imitate_select_speed; /* --imitate-select speed */
	/* --imitate-kind-weight: factors of the imitated decisions' weights
	 * by kind of action (kind_recall.h; all 1 without it) */
	float imitate_kind_weight[KIND_RECALL_KINDS];
	int imitate_average;      /* --imitate-average FROM (0: off) */
	int imitate_save_epochs;  /* --imitate-save-epochs: DIR/epoch-K.bin */
	long long fit_seed;       /* --fit-seed S (-1: the --seed stream) */
	float distill; /* a distilled decision's weight (0: no distillation) */
	float distill_temperature;
	int distill_programs, distill_samples; /* unmeasured distillation */
	const char *distill_teacher; /* NULL: the starting policy */
	uint64_t first_distill;                /* --first-distill-program */
	float lr, pretrain_lr;
	float entropy_start, entropy_end;
	float max_grad_norm;
	/* The episodes' options: sample and seed are set per episode. */
	struct pearl_agent_options agent;
	enum episode_reward reward;
	int resume;
	/* The environment's options: memo_path is set when it is opened. */
	struct pearl_env_options env;
	int verbose;
	struct pearl_ppo_config ppo;
};

#endif
