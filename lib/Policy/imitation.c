/* Behaviour cloning of the policy head (pearl/imitation.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pearl/imitation.h"

/* Whether `t` is a distribution over the actions `mask` leaves (n
 * entries, finite, >= 0, 0 where masked, summing to 1 within 1e-3). */
static int is_distribution(const float *t, const unsigned char *mask, int n)
{
	double sum = 0;
	int i;

	for (i = 0; i < n; ++i) {
		if (!isfinite(t[i]) || t[i] < 0 || (mask[i] && t[i] > 0))
			return 0;
		sum += t[i];
	}
	return fabs(sum - 1) <= 1e-3;
}

/* The loss of one decision from its logits: -log pi(a), or with a target
 * distribution t the cross-entropy -sum t_i log pi_i (which is what the
 * decision split into one-hot decisions of weights t_i would give). Its
 * gradient times `scale` (the decision's weight included by the caller)
 * is added to d_logits (if not NULL). *hit is whether the argmax under
 * the mask (lowest number on ties, as the agent picks) is a, or with t,
 * t of that argmax. Returns -1 if the action is masked, the mask leaves
 * nothing or t is no distribution over the unmasked actions. */
static int decision_loss(const struct pearl_ppo_step *s, int n,
			 const float *logits, float *d_logits, float scale,
			 double *loss, double *hit)
{
	float logp[PEARL_PPO_MAX_ACTIONS];
	const float *t = s->target;
	int a = s->action, i, best;

	if (n > PEARL_PPO_MAX_ACTIONS || a < 0 || a >= n || s->mask[a] ||
	    (t && !is_distribution(t, s->mask, n)) ||
	    pearl_masked_log_softmax(logp, logits, s->mask, n) < 0)
		return -1;
	best = pearl_masked_argmax(logp, s->mask, n);
	if (!t) {
		*loss = -(double)logp[a];
		*hit = best == a;
		if (d_logits) /* d(-logp[a]) = -(onehot(a) - pi) */
			pearl_masked_log_softmax_grad(d_logits, logp, s->mask,
						      n, a, -scale);
		return 0;
	}
	*loss = 0;
	for (i = 0; i < n; ++i)
		if (t[i] > 0)
			*loss -= t[i] * (double)logp[i];
	*hit = t[best];
	if (d_logits)
		pearl_masked_expected_log_softmax_grad(d_logits, logp, s->mask,
						       n, t, -scale);
	return 0;
}

/* The sum of the decisions' weights of `batch` (at least one decision; 1
 * if they sum to 0, so that means stay finite). */
static double total_weight(const struct pearl_ppo_batch *batch)
{
	double w = 0;
	int k;

	for (k = 0; k < batch->n_steps; ++k)
		w += batch->steps[k].weight;
	return w > 0 ? w : 1;
}

/* An imitation epoch's pass: the decisions and the sums of their losses
 * and hits seen (pearl_minibatch_sample_fn). */
struct imitation_pass {
	pearl_policy *policy;
	const struct pearl_ppo_batch *batch;
	double sum, hits; /* weighted */
};

static int imitation_add_decision(void *user, int sample, int size,
				  pearl_policy_grad *grad, char *err,
				  size_t err_size)
{
	struct imitation_pass *p = user;
	const struct pearl_ppo_step *s = &p->batch->steps[sample];
	float logits[PEARL_PPO_MAX_ACTIONS], value;
	float d_logits[PEARL_PPO_MAX_ACTIONS];
	pearl_policy_tape *tape;
	double l, hit;
	int rc;

	tape = pearl_policy_forward(p->policy, s->graph, logits, &value, err,
				    err_size);
	if (!tape)
		return -1;
	memset(d_logits, 0, sizeof(d_logits));
	if (decision_loss(s, p->batch->n_actions, logits, d_logits,
			  s->weight / (float)size, &l, &hit) < 0) {
		pearl_policy_tape_free(tape);
		snprintf(err, err_size, "imitation: decision %d: masked "
					"action, empty mask or bad target",
			 sample);
		return -1;
	}
	p->sum += s->weight * l;
	p->hits += s->weight * hit;
	rc = pearl_policy_backward(tape, d_logits, 0, grad, err, err_size);
	pearl_policy_tape_free(tape);
	return rc < 0 ? -1 : 0;
}

int pearl_imitation_epoch(pearl_policy *policy, pearl_adam *adam,
			  const struct pearl_ppo_batch *batch, int minibatch,
			  uint64_t *rng, double *loss, double *accuracy,
			  char *err, size_t err_size)
{
	int n = batch->n_steps, na = batch->n_actions, rc = -1;
	int *idx = malloc((n > 0 ? n : 1) * sizeof(*idx));
	pearl_policy_grad *grad = pearl_policy_grad_alloc(policy, err, err_size);
	struct imitation_pass pass = { policy, batch, 0, 0 };
	double weight;

	if (!idx || !grad) {
		if (!idx)
			snprintf(err, err_size, "imitation: out of memory");
		goto out;
	}
	if (n < 1 || minibatch < 1 || na > PEARL_PPO_MAX_ACTIONS) {
		snprintf(err, err_size, "imitation: no decisions or bad "
					"minibatch size");
		goto out;
	}
	if (pearl_minibatch_pass(policy, adam, grad, idx, n, minibatch, rng,
				 imitation_add_decision, &pass, NULL, NULL,
				 err, err_size) < 0)
		goto out;
	weight = total_weight(batch);
	if (loss)
		*loss = pass.sum / weight;
	if (accuracy)
		*accuracy = pass.hits / weight;
	rc = 0;
out:
	pearl_policy_grad_free(grad);
	free(idx);
	return rc;
}

/* The part of the decisions without a target (imitated actions) or with
 * one (distilled distributions) that decision s belongs to. */
static enum pearl_imitation_part part_of(const struct pearl_ppo_step *s)
{
	return s->target ? pearl_imitation_targets : pearl_imitation_actions;
}

/* Weighted sums of losses and hits, and the weight and number of
 * decisions, of one part. */
struct part_sums {
	double loss, hits, weight;
	int n;
};

int pearl_imitation_evaluate_parts(
	const pearl_policy *policy, const struct pearl_ppo_batch *batch,
	struct pearl_imitation_score score[pearl_imitation_n_parts],
	char *err, size_t err_size)
{
	struct part_sums sums[pearl_imitation_n_parts] = {{0}};
	int k, i, parts[2];

	if (batch->n_actions > PEARL_PPO_MAX_ACTIONS) {
		snprintf(err, err_size, "imitation: too many actions");
		return -1;
	}
	for (k = 0; k < batch->n_steps; ++k) {
		const struct pearl_ppo_step *s = &batch->steps[k];
		float logits[PEARL_PPO_MAX_ACTIONS], value;
		double l, hit;

		if (pearl_policy_eval(policy, s->graph, logits, &value, err,
				      err_size) < 0)
			return -1;
		if (decision_loss(s, batch->n_actions, logits, NULL, 0, &l,
				  &hit) < 0) {
			snprintf(err, err_size, "imitation: decision %d: "
				 "masked action, empty mask or bad target",
				 k);
			return -1;
		}
		parts[0] = pearl_imitation_all;
		parts[1] = part_of(s);
		for (i = 0; i < 2; ++i) {
			struct part_sums *p = &sums[parts[i]];

			p->loss += s->weight * l;
			p->hits += s->weight * hit;
			p->weight += s->weight;
			p->n++;
		}
	}
	for (i = 0; i < pearl_imitation_n_parts; ++i) {
		/* a weight of 0 counts as 1, as in total_weight */
		double w = sums[i].weight > 0 ? sums[i].weight : 1;

		score[i].n = sums[i].n;
		score[i].loss = sums[i].n ? sums[i].loss / w : NAN;
		score[i].accuracy = sums[i].n ? sums[i].hits / w : NAN;
	}
	return 0;
}

int pearl_imitation_evaluate(const pearl_policy *policy,
			     const struct pearl_ppo_batch *batch,
			     double *loss, double *accuracy, char *err,
			     size_t err_size)
{
	struct pearl_imitation_score score[pearl_imitation_n_parts];

	if (batch->n_steps < 1) {
		snprintf(err, err_size, "imitation: no decisions");
		return -1;
	}
	if (pearl_imitation_evaluate_parts(policy, batch, score, err,
					   err_size) < 0)
		return -1;
	if (loss)
		*loss = score[pearl_imitation_all].loss;
	if (accuracy)
		*accuracy = score[pearl_imitation_all].accuracy;
	return 0;
}
