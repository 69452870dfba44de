/*
 * weight_average.h - the mean of a policy's parameters over the epochs of
 * a training run (stochastic weight averaging, Izmailov et al. 2018).
 *
 * Imitation's held-out score moves by about 10% from one epoch to the
 * next while its trend rises (the model card, "Completions of
 * interchanged states"), so keeping the epoch of the best score keeps the
 * luckiest measurement as much as the best weights. The mean of the last
 * epochs' weights is one model, chosen by no noisy measurement;
 * pearl-train --imitate-average keeps it.
 */
#ifndef PEARL_TRAIN_WEIGHT_AVERAGE_H
#define PEARL_TRAIN_WEIGHT_AVERAGE_H

#include <stddef.h>

struct weight_average {
	float *params; /* the policy's parameters (__isl_keep) */
	float *mean;   /* owned; the mean of the `count` epochs added */
	size_t n;
	int count;
	int first, last; /* the epochs averaged (count > 0) */
};

/* Averages the n parameters at `params` (__isl_keep: they must outlive
 * *a); none added yet. 0, or -1 if memory is exhausted. */
int weight_average_init(struct weight_average *a, float *params, size_t n);

/* Adds the parameters as they are now, those of epoch `epoch`. */
void weight_average_add(struct weight_average *a, int epoch);

/* Writes the mean into the parameters (nothing if none was added). */
void weight_average_apply(const struct weight_average *a);

void weight_average_clear(struct weight_average *a);

#endif
