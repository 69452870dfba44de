/* Ranking quality of a critic (critic_rank.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "critic_rank.h"

/* The ranking figures of one program (samples first..first+n-1), from the
 * critic's values v (all samples): log2 fractions of the best added to
 * *pick, *top_k, *random; pairs counted into *agree and *pairs. */
static void rank_program(const struct critic_samples *s,
			 const struct critic_program *p, const float *v,
			 double *pick, double *top_k, double *random,
			 long *agree, long *pairs)
{
	const float *t = s->targets + p->first, *pv = v + p->first;
	float best_of_top = -INFINITY;
	double mean = 0;
	int i, j, k, first = 0;

	for (i = 0; i < p->n; ++i) {
		mean += t[i];
		if (pv[i] > pv[first])
			first = i;
	}
	*pick += t[first] - p->best;
	*random += mean / p->n - p->best;
	/* the fastest among the CRITIC_TOP_K highest values */
	for (i = 0; i < p->n; ++i) {
		int above = 0;

		for (k = 0; k < p->n; ++k)
			above += pv[k] > pv[i] || (pv[k] == pv[i] && k < i);
		if (above < CRITIC_TOP_K && t[i] > best_of_top)
			best_of_top = t[i];
	}
	*top_k += best_of_top - p->best;
	for (i = 0; i < p->n; ++i)
		for (j = i + 1; j < p->n; ++j) {
			if (fabsf(t[i] - t[j]) <= CRITIC_PAIR_MARGIN)
				continue;
			++*pairs;
			*agree += (t[i] > t[j]) == (pv[i] > pv[j]);
		}
}

int critic_rank(const pearl_policy *critic, const struct critic_samples *s,
		struct critic_rank *r, char *err, size_t err_size)
{
	float *v = malloc((s->n > 0 ? s->n : 1) * sizeof(*v));
	float logits[PEARL_N_ACTIONS];
	double pick = 0, top_k = 0, random = 0, se = 0;
	long agree = 0, pairs = 0;
	int i;

	if (!v) {
		snprintf(err, err_size, "out of memory");
		return -1;
	}
	for (i = 0; i < s->n; ++i) {
		if (pearl_policy_eval(critic, s->graphs[i], logits, &v[i], err,
				      err_size) < 0) {
			free(v);
			return -1;
		}
		se += (v[i] - s->targets[i]) * (v[i] - s->targets[i]);
	}
	for (i = 0; i < s->n_programs; ++i)
		rank_program(s, &s->programs[i], v, &pick, &top_k, &random,
			     &agree, &pairs);
	free(v);
	r->programs = s->n_programs;
	r->mse = s->n ? se / s->n : NAN;
	r->pick = s->n_programs ? exp2(pick / s->n_programs) : NAN;
	r->top_k = s->n_programs ? exp2(top_k / s->n_programs) : NAN;
	r->random = s->n_programs ? exp2(random / s->n_programs) : NAN;
	r->pairs = pairs ? (double)agree / pairs : NAN;
	return 0;
}
