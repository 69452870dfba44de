/*
 * imitation_fit.h - imitation's epochs (pearl-train --imitate-epochs):
 * the policy learns the decisions imitate.c recorded, with a fresh Adam,
 * and is judged after every epoch on the held-out decisions (loss,
 * accuracy) and, with --imitate-select speed, on the held-out programs'
 * greedy schedules (held_out_speed.h). The epoch kept is the best by that
 * score (best_epoch.h), or with --imitate-average the mean of the epochs'
 * weights (weight_average.h).
 */
#ifndef PEARL_TRAIN_IMITATION_FIT_H
#define PEARL_TRAIN_IMITATION_FIT_H

#include <stdint.h>
#include <stdio.h>

#include "pearl/env.h"
#include "pearl/policy.h"
#include "pearl/ppo.h"
#include "programs.h"
#include "train_options.h"

/* What imitation's epochs learn from and are judged on. */
struct imitation_data {
	struct pearl_ppo_batch train; /* decisions trained on */
	struct pearl_ppo_batch val;   /* the held-out programs' decisions */
	/* Where --imitate-select speed times the held-out programs' greedy
	 * schedules (both kept; not owned), and the file of their speedups
	 * (imitate-select.csv, or NULL without speed; kept). */
	pearl_env *env;
	const struct program_set *programs;
	FILE *select_csv;
};

/* Trains `policy` on d's decisions for --imitate-epochs epochs and keeps
 * the best held-out epoch's parameters (or the epochs' mean), one row per
 * epoch in ecsv (imitate-epochs.csv, its header included): epoch 0 is the
 * starting policy's held-out figures, the baseline of the epochs'. t0 is
 * when imitation started, for the log. 0, or -1 with a message in err. */
int imitation_fit(pearl_policy *policy, const struct imitation_data *d,
		  const struct options *o, uint64_t *rng, FILE *ecsv, double t0,
		  char *err, size_t err_size);

#endif
