/* The critic's loss with a ranking term (critic_loss.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "critic_loss.h"
#include "pearl/ppo.h"

/* log(1 + exp(x)), without overflow. */
static double softplus(double x)
{
	return (x > 0 ? x : 0) + log1p(exp(-fabs(x)));
}

static double sigmoid(double x)
{
	return x >= 0 ? 1 / (1 + exp(-x)) : exp(x) / (1 + exp(x));
}

double critic_program_loss(const float *v, const float *t, int n,
			   float pair_weight, float margin, float scale,
			   float *dv, struct critic_loss_terms *terms)
{
	double se = 0, pair = 0;
	long pairs = 0;
	int i, j;

	for (i = 0; i < n; ++i) {
		double d = (double)v[i] - t[i];

		se += d * d;
		if (dv)
			dv[i] += (float)(scale * 2 * d / n);
	}
	if (pair_weight != 0) {
		for (i = 0; i < n; ++i)
			for (j = 0; j < n; ++j)
				pairs += t[i] - t[j] > margin;
		for (i = 0; i < n && pairs; ++i)
			for (j = 0; j < n; ++j) {
				double x, g;

				if (!(t[i] - t[j] > margin))
					continue;
				/* i is the faster: its value should be the
				 * larger */
				x = (double)v[j] - v[i];
				pair += softplus(x);
				if (!dv)
					continue;
				g = scale * pair_weight * sigmoid(x) / pairs;
				dv[i] -= (float)g;
				dv[j] += (float)g;
			}
	}
	if (pairs)
		pair /= pairs;
	if (terms) {
		terms->sq = se;
		terms->pair = pair;
		terms->pairs = pairs;
	}
	return (n > 0 ? se / n : 0) + pair_weight * pair;
}

/* The epoch's pass (pearl_minibatch_sample_fn over programs). */
struct pair_pass {
	pearl_policy *critic;
	const struct critic_samples *s;
	float pair_weight, margin;
	float *v, *dv;                /* room for the largest program */
	pearl_policy_tape **tapes;    /* idem, NULL between programs */
	double sq, pair_loss;
	long pairs, samples;
	int with_pairs;               /* programs that had pairs */
};

static int add_program(void *user, int program, int size,
		       pearl_policy_grad *grad, char *err, size_t err_size)
{
	struct pair_pass *p = user;
	const struct critic_program *prog = &p->s->programs[program];
	const float *t = p->s->targets + prog->first;
	float logits[PEARL_PPO_MAX_ACTIONS];
	struct critic_loss_terms terms;
	int i, rc = -1;

	if (prog->n < 2)
		return 0;
	for (i = 0; i < prog->n; ++i) {
		p->tapes[i] = pearl_policy_forward(
		    p->critic, p->s->graphs[prog->first + i], logits, &p->v[i],
		    err, err_size);
		if (!p->tapes[i])
			goto out;
		p->dv[i] = 0;
	}
	critic_program_loss(p->v, t, prog->n, p->pair_weight, p->margin,
			    1.0f / size, p->dv, &terms);
	p->sq += terms.sq;
	p->samples += prog->n;
	if (terms.pairs) {
		p->pair_loss += terms.pair;
		p->pairs += terms.pairs;
		p->with_pairs++;
	}
	for (i = 0; i < prog->n; ++i)
		if (pearl_policy_backward(p->tapes[i], NULL, p->dv[i], grad,
					  err, err_size) < 0)
			goto out;
	rc = 0;
out:
	for (i = 0; i < prog->n; ++i)
		p->tapes[i] = pearl_policy_tape_free(p->tapes[i]);
	return rc;
}

int critic_pair_epoch(pearl_policy *critic, pearl_adam *adam,
		      const struct critic_samples *s, int programs_per_step,
		      float pair_weight, float margin, uint64_t *rng,
		      struct critic_epoch *stats, char *err, size_t err_size)
{
	struct pair_pass pass = {0};
	pearl_policy_grad *grad = NULL;
	int *order = NULL, largest = 1, i, rc = -1;

	pass.critic = critic;
	pass.s = s;
	pass.pair_weight = pair_weight;
	pass.margin = margin;
	if (s->n_programs < 1 || programs_per_step < 1 || pair_weight <= 0) {
		snprintf(err, err_size, "critic: no programs to train on, or "
			 "no ranking term");
		return -1;
	}
	for (i = 0; i < s->n_programs; ++i)
		if (s->programs[i].n > largest)
			largest = s->programs[i].n;
	pass.v = malloc(largest * sizeof(*pass.v));
	pass.dv = malloc(largest * sizeof(*pass.dv));
	pass.tapes = calloc(largest, sizeof(*pass.tapes));
	order = malloc(s->n_programs * sizeof(*order));
	if (!pass.v || !pass.dv || !pass.tapes || !order) {
		snprintf(err, err_size, "critic: out of memory");
		goto out;
	}
	grad = pearl_policy_grad_alloc(critic, err, err_size);
	if (!grad)
		goto out;
	if (pearl_minibatch_pass(critic, adam, grad, order, s->n_programs,
				 programs_per_step, rng, add_program, &pass,
				 NULL, NULL, err, err_size) < 0)
		goto out;
	stats->mse = pass.samples ? pass.sq / pass.samples : NAN;
	stats->pair_loss = pass.with_pairs ? pass.pair_loss / pass.with_pairs
					   : NAN;
	stats->pairs = pass.pairs;
	rc = 0;
out:
	pearl_policy_grad_free(grad);
	free(order);
	free(pass.tapes);
	free(pass.dv);
	free(pass.v);
	return rc;
}
