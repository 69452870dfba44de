/* PPO and value regression over the policy network (pearl/ppo.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pearl/grow.h"
#include "pearl/ppo.h"

void pearl_ppo_batch_init(struct pearl_ppo_batch *batch, int n_actions)
{
	memset(batch, 0, sizeof(*batch));
	batch->n_actions = n_actions;
}

void pearl_ppo_batch_clear(struct pearl_ppo_batch *batch)
{
	pearl_ppo_batch_truncate(batch, 0);
	free(batch->steps);
	batch->steps = NULL;
	batch->n_steps = batch->cap = 0;
}

int pearl_ppo_batch_add(struct pearl_ppo_batch *batch,
			struct pearl_graph *graph, const unsigned char *mask,
			int action, float logp_old, float value_old)
{
	struct pearl_ppo_step *s;

	if (pearl_grow(&batch->steps, &batch->cap, batch->n_steps + 1,
		       sizeof(*batch->steps)) < 0) {
		pearl_graph_free(graph);
		return -1;
	}
	s = &batch->steps[batch->n_steps++];
	memset(s, 0, sizeof(*s));
	s->graph = graph;
	memcpy(s->mask, mask, batch->n_actions);
	s->action = action;
	s->logp_old = logp_old;
	s->value_old = value_old;
	s->weight = 1;
	return 0;
}

void pearl_ppo_batch_truncate(struct pearl_ppo_batch *batch, int n)
{
	int i;

	for (i = n; i < batch->n_steps; ++i) {
		pearl_graph_free(batch->steps[i].graph);
		free(batch->steps[i].target);
	}
	batch->n_steps = n;
}

int pearl_ppo_step_set_target(struct pearl_ppo_batch *batch, int k,
			      const float *target)
{
	size_t size = batch->n_actions * sizeof(*target);
	float *copy = malloc(size);

	if (!copy)
		return -1;
	memcpy(copy, target, size);
	free(batch->steps[k].target);
	batch->steps[k].target = copy;
	return 0;
}

void pearl_ppo_batch_finish(struct pearl_ppo_batch *batch, float gamma,
			    float lambda)
{
	double gae = 0, next_value = 0;
	int i;

	for (i = batch->n_steps - 1; i >= 0; --i) {
		struct pearl_ppo_step *s = &batch->steps[i];
		double delta;

		if (s->episode_end) {
			gae = 0;
			next_value = 0;
		}
		delta = s->reward + gamma * next_value - s->value_old;
		gae = delta + gamma * lambda * gae;
		s->advantage = (float)gae;
		s->ret = (float)(gae + s->value_old);
		next_value = s->value_old;
	}
}

struct pearl_ppo_config pearl_ppo_default_config(void)
{
	struct pearl_ppo_config cfg;

	cfg.clip = 0.3f;
	cfg.gamma = 0.99f;
	cfg.lambda = 0.95f;
	cfg.value_coef = 2.0f;
	cfg.entropy_coef = 0.1f;
	cfg.epochs = 5;
	cfg.minibatch = 64;
	cfg.normalize_advantages = 1;
	return cfg;
}

int pearl_ppo_step_loss(const struct pearl_ppo_step *step, int n,
			const float *logits, float value, float adv,
			const struct pearl_ppo_config *cfg, float *d_logits,
			float *d_value, double *pol, double *val, double *ent,
			double *kl, int *clipped)
{
	float logp[PEARL_PPO_MAX_ACTIONS];
	double ratio, lo = 1.0 - cfg->clip, hi = 1.0 + cfg->clip;
	double surr1, surr2;
	float h;
	int a = step->action;

	if (n > PEARL_PPO_MAX_ACTIONS || a < 0 || a >= n || step->mask[a] ||
	    pearl_masked_log_softmax(logp, logits, step->mask, n) < 0)
		return -1;
	ratio = exp((double)logp[a] - step->logp_old);
	surr1 = ratio * adv;
	surr2 = (ratio < lo ? lo : ratio > hi ? hi : ratio) * adv;
	*pol = -(surr1 < surr2 ? surr1 : surr2);
	*kl = (double)step->logp_old - logp[a];
	memset(d_logits, 0, n * sizeof(*d_logits));
	/* min() takes the clipped term, whose derivative in the ratio is 0,
	 * exactly when the ratio is outside the range on the side the
	 * advantage pushes it to. */
	*clipped = (adv > 0 && ratio > hi) || (adv < 0 && ratio < lo);
	if (!*clipped) /* d(-r A)/dlogp = -r A */
		pearl_masked_log_softmax_grad(d_logits, logp, step->mask, n, a,
					      (float)(-ratio * adv));
	h = pearl_masked_entropy(logp, step->mask, n);
	*ent = h;
	pearl_masked_entropy_grad(d_logits, logp, step->mask, n,
				  -cfg->entropy_coef);
	*val = ((double)value - step->ret) * ((double)value - step->ret);
	*d_value = (float)(2.0 * cfg->value_coef * ((double)value - step->ret));
	return 0;
}

/* Normalized advantages of the batch (or the raw ones) into adv[]. */
static void advantages(const struct pearl_ppo_batch *batch, int normalize,
		       float *adv)
{
	double mean = 0, var = 0, sd;
	int i, n = batch->n_steps;

	for (i = 0; i < n; ++i)
		mean += batch->steps[i].advantage;
	mean /= n;
	for (i = 0; i < n; ++i) {
		double d = batch->steps[i].advantage - mean;
		var += d * d;
	}
	sd = n > 1 ? sqrt(var / (n - 1)) : 0;
	for (i = 0; i < n; ++i)
		adv[i] = normalize ? (float)((batch->steps[i].advantage - mean) /
					     (sd + 1e-8))
				   : batch->steps[i].advantage;
}

/* One PPO update's pass over a batch: the batch, its advantages and the
 * sums of the losses of the steps seen (pearl_minibatch_sample_fn). */
struct ppo_pass {
	pearl_policy *policy;
	const struct pearl_ppo_batch *batch;
	const struct pearl_ppo_config *cfg;
	const float *adv;
	struct pearl_ppo_stats *stats;
	long count; /* steps whose losses are in stats */
};

static int ppo_add_step(void *user, int sample, int size,
			pearl_policy_grad *grad, char *err, size_t err_size)
{
	struct ppo_pass *p = user;
	const struct pearl_ppo_step *s = &p->batch->steps[sample];
	int na = p->batch->n_actions;
	float logits[PEARL_PPO_MAX_ACTIONS], value;
	float d_logits[PEARL_PPO_MAX_ACTIONS], d_value;
	double pol, val, ent, kl;
	int clipped, i, rc;
	pearl_policy_tape *tape;

	tape = pearl_policy_forward(p->policy, s->graph, logits, &value, err,
				    err_size);
	if (!tape)
		return -1;
	if (pearl_ppo_step_loss(s, na, logits, value, p->adv[sample], p->cfg,
				d_logits, &d_value, &pol, &val, &ent, &kl,
				&clipped) < 0) {
		pearl_policy_tape_free(tape);
		snprintf(err, err_size, "ppo: step %d: invalid action, mask or "
					"logits", sample);
		return -1;
	}
	p->stats->policy_loss += pol;
	p->stats->value_loss += val;
	p->stats->entropy += ent;
	p->stats->approx_kl += kl;
	p->stats->clip_fraction += clipped;
	++p->count;
	for (i = 0; i < na; ++i)
		d_logits[i] /= (float)size;
	d_value /= (float)size;
	rc = pearl_policy_backward(tape, d_logits, d_value, grad, err,
				   err_size);
	pearl_policy_tape_free(tape);
	return rc < 0 ? -1 : 0;
}

int pearl_ppo_update(pearl_policy *policy, pearl_adam *adam,
		     struct pearl_ppo_batch *batch,
		     const struct pearl_ppo_config *cfg, uint64_t *rng,
		     struct pearl_ppo_stats *stats, char *err,
		     size_t err_size)
{
	int n = batch->n_steps, na = batch->n_actions, epoch, rc = -1;
	int *idx = malloc((n > 0 ? n : 1) * sizeof(*idx));
	float *adv = malloc((n > 0 ? n : 1) * sizeof(*adv));
	pearl_policy_grad *grad = pearl_policy_grad_alloc(policy, err, err_size);
	struct ppo_pass pass = { policy, batch, cfg, adv, stats, 0 };

	memset(stats, 0, sizeof(*stats));
	if (!idx || !adv || !grad) {
		if (idx && adv)
			goto out; /* grad_alloc wrote the message */
		snprintf(err, err_size, "ppo: out of memory");
		goto out;
	}
	if (n == 0 || cfg->minibatch < 1 || na > PEARL_PPO_MAX_ACTIONS) {
		snprintf(err, err_size, "ppo: empty batch or bad minibatch size");
		goto out;
	}
	advantages(batch, cfg->normalize_advantages, adv);
	for (epoch = 0; epoch < cfg->epochs; ++epoch)
		if (pearl_minibatch_pass(policy, adam, grad, idx, n,
					 cfg->minibatch, rng, ppo_add_step,
					 &pass, &stats->grad_norm,
					 &stats->adam_steps, err, err_size) < 0)
			goto out;
	rc = 0;
out:
	if (pass.count > 0) {
		stats->policy_loss /= pass.count;
		stats->value_loss /= pass.count;
		stats->entropy /= pass.count;
		stats->approx_kl /= pass.count;
		stats->clip_fraction /= pass.count;
	}
	if (stats->adam_steps > 0)
		stats->grad_norm /= stats->adam_steps;
	pearl_policy_grad_free(grad);
	free(idx);
	free(adv);
	return rc;
}

/* Value regression's pass: the graphs, their targets and the sum of the
 * squared errors seen (pearl_minibatch_sample_fn). */
struct regression_pass {
	pearl_policy *policy;
	struct pearl_graph *const *graphs;
	const float *targets;
	double sum;
};

static int regression_add_sample(void *user, int sample, int size,
				 pearl_policy_grad *grad, char *err,
				 size_t err_size)
{
	struct regression_pass *p = user;
	float logits[PEARL_PPO_MAX_ACTIONS], value;
	pearl_policy_tape *tape;
	double d;
	int rc;

	tape = pearl_policy_forward(p->policy, p->graphs[sample], logits,
				    &value, err, err_size);
	if (!tape)
		return -1;
	d = (double)value - p->targets[sample];
	p->sum += d * d;
	rc = pearl_policy_backward(tape, NULL, (float)(2 * d / size), grad,
				   err, err_size);
	pearl_policy_tape_free(tape);
	return rc < 0 ? -1 : 0;
}

int pearl_value_regression_epoch(pearl_policy *policy, pearl_adam *adam,
				 struct pearl_graph *const *graphs,
				 const float *targets, int n, int minibatch,
				 uint64_t *rng, double *mse, char *err,
				 size_t err_size)
{
	int *idx = malloc((n > 0 ? n : 1) * sizeof(*idx));
	pearl_policy_grad *grad = pearl_policy_grad_alloc(policy, err, err_size);
	struct regression_pass pass = { policy, graphs, targets, 0 };
	int rc = -1;

	*mse = 0;
	if (!idx || !grad) {
		if (!idx)
			snprintf(err, err_size, "pretrain: out of memory");
		goto out;
	}
	if (n < 1 || minibatch < 1) {
		snprintf(err, err_size, "pretrain: no samples");
		goto out;
	}
	if (pearl_minibatch_pass(policy, adam, grad, idx, n, minibatch, rng,
				 regression_add_sample, &pass, NULL, NULL, err,
				 err_size) < 0)
		goto out;
	*mse = pass.sum / n;
	rc = 0;
out:
	pearl_policy_grad_free(grad);
	free(idx);
	return rc;
}
