/*
 * critic_loss.h - the critic's loss with a ranking term: within each
 * program, every pair of measured schedules whose speedups differ by more
 * than a margin adds a logistic loss on the difference of their values, so
 * that the critic learns to order one program's schedules (what the beam
 * asks of it) and not only to regress each speedup.
 *
 * For a program of n samples, values v and targets t (log2 speedups):
 *
 *   L = 1/n sum_i (v_i - t_i)^2
 *     + w / |P| sum_{(i,j) in P} log(1 + exp(-(v_i - v_j)))
 *
 * where P holds the pairs with t_i - t_j > margin (i the faster). With
 * w = 0 it is the mean squared error; the squared error stays in the loss
 * so that the values keep their scale (the beam compares a value with the
 * greedy episode's, and the remark prints them as speedups).
 */
#ifndef PEARL_CRITIC_LOSS_H
#define PEARL_CRITIC_LOSS_H

#include <stddef.h>
#include <stdint.h>

#include "critic_samples.h"
#include "pearl/train.h"

/* The two terms of one program's loss. */
struct critic_loss_terms {
	double sq;   /* the sum of the squared errors */
	double pair; /* the mean logistic loss of the pairs (0: none) */
	long pairs;  /* the pairs */
};

/* The loss above for one program: values v[0..n-1] and targets t[0..n-1]
 * (kept). Adds scale * dL/dv_i to dv[i] (dv may be NULL); its terms go to
 * *terms (may be NULL). */
double critic_program_loss(const float *v, const float *t, int n,
			   float pair_weight, float margin, float scale,
			   float *dv, struct critic_loss_terms *terms);

/* What one epoch saw. */
struct critic_epoch {
	double mse;       /* of the values against the targets, per sample */
	double pair_loss; /* mean over programs of the ranking term (no w) */
	long pairs;       /* pairs that entered it */
};

/* One epoch of the loss above over the programs of `s` (kept), in an order
 * drawn from *rng, programs_per_step programs per Adam step (each program
 * weighing the same); `critic` and `adam` (kept) are updated in place.
 * Programs with fewer than two samples are skipped. 0, or -1 with a
 * message in err. */
int critic_pair_epoch(pearl_policy *critic, pearl_adam *adam,
		      const struct critic_samples *s, int programs_per_step,
		      float pair_weight, float margin, uint64_t *rng,
		      struct critic_epoch *stats, char *err, size_t err_size);

#endif
