/*
 * critic_rank.h - how well a critic ranks the measured schedules of each
 * program: the questions a search guided by it would ask.
 */
#ifndef PEARL_CRITIC_RANK_H
#define PEARL_CRITIC_RANK_H

#include <stddef.h>

#include "critic_samples.h"
#include "pearl/policy.h"

#define CRITIC_TOP_K 5

struct critic_rank {
	double mse;     /* of the value against the targets, all samples */
	/* Geomeans over the programs, as fractions of the fastest measured
	 * schedule's speedup: */
	double pick;    /* the schedule the critic ranks first */
	double top_k;   /* the fastest of its first CRITIC_TOP_K */
	double random;  /* a schedule drawn at random (expected) */
	/* Pairs of one program whose speedups differ by more than
	 * CRITIC_PAIR_MARGIN, ordered as the critic orders them. */
	double pairs;
	int programs;
};

/* log2 of 1.1: pairs closer than 10% are not counted. */
#define CRITIC_PAIR_MARGIN 0.1375

/* Evaluates `critic` (kept) on every sample of `s` (kept) into *r. 0, or
 * -1 with a message in err (the network failed). */
int critic_rank(const pearl_policy *critic, const struct critic_samples *s,
		struct critic_rank *r, char *err, size_t err_size);

#endif
