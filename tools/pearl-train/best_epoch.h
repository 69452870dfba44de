/*
 * best_epoch.h - early stopping: a copy of a policy's parameters at the
 * epoch with the lowest held-out score so far (pearl-train's value
 * pre-training and imitation).
 */
#ifndef PEARL_TRAIN_BEST_EPOCH_H
#define PEARL_TRAIN_BEST_EPOCH_H

#include <stddef.h>

#include "pearl/policy.h"

/* The score is a loss, or minus the log of a speedup: lower is better. */
struct best_epoch {
	float *params; /* the policy's (__isl_keep) */
	float *copy;   /* owned: free() it */
	size_t n;
	double score;  /* held-out score of the copy */
	int epoch;     /* 0: the parameters before the first epoch */
};

/* The parameters of `policy` now, as epoch 0 of held-out score `score`;
 * 0, or -1 if memory is exhausted. */
int best_epoch_init(struct best_epoch *b, pearl_policy *policy, double score);

/* Keeps the parameters now if `score` (of epoch `epoch`) is the lowest. */
void best_epoch_offer(struct best_epoch *b, int epoch, double score);

/* Puts the kept parameters back into the policy. */
void best_epoch_restore(const struct best_epoch *b);

#endif
