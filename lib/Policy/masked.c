/* The masked action distribution of the policy: its most likely action,
 * log-softmax and entropy over the unmasked logits, and their gradients
 * (pearl/train.h). */
#include <math.h>

#include "pearl/train.h"

#define MASKED(mask, i) ((mask) && (mask)[i])

int pearl_masked_argmax(const float *x, const unsigned char *mask, int n)
{
	int i, best = -1;

	for (i = 0; i < n; ++i)
		if (!MASKED(mask, i) && (best < 0 || x[i] > x[best]))
			best = i;
	return best;
}

int pearl_masked_log_softmax(float *logp, const float *logits,
			     const unsigned char *mask, int n)
{
	double max = -INFINITY, sum = 0.0, lse;
	int i, any = 0;

	if (!logp || !logits || n < 1)
		return -1;
	for (i = 0; i < n; ++i) {
		if (MASKED(mask, i))
			continue;
		if (!isfinite(logits[i]))
			return -1;
		if (!any || logits[i] > max)
			max = logits[i];
		any = 1;
	}
	if (!any)
		return -1;
	for (i = 0; i < n; ++i)
		if (!MASKED(mask, i))
			sum += exp((double)logits[i] - max);
	lse = max + log(sum);
	for (i = 0; i < n; ++i)
		logp[i] = MASKED(mask, i) ? -INFINITY
					  : (float)((double)logits[i] - lse);
	return 0;
}

void pearl_masked_log_softmax_grad(float *d_logits, const float *logp,
				   const unsigned char *mask, int n,
				   int action, float scale)
{
	int i;

	for (i = 0; i < n; ++i) {
		if (MASKED(mask, i))
			continue;
		d_logits[i] -= scale * expf(logp[i]);
		if (i == action)
			d_logits[i] += scale;
	}
}

void pearl_masked_expected_log_softmax_grad(float *d_logits,
					    const float *logp,
					    const unsigned char *mask, int n,
					    const float *target, float scale)
{
	double mass = 0.0;
	int i;

	for (i = 0; i < n; ++i)
		if (!MASKED(mask, i))
			mass += target[i];
	for (i = 0; i < n; ++i)
		if (!MASKED(mask, i))
			d_logits[i] += (float)(scale * ((double)target[i] -
							exp((double)logp[i]) *
							    mass));
}

float pearl_masked_entropy(const float *logp, const unsigned char *mask,
			   int n)
{
	double h = 0.0;
	int i;

	for (i = 0; i < n; ++i)
		if (!MASKED(mask, i))
			h -= exp((double)logp[i]) * logp[i];
	return (float)h;
}

void pearl_masked_entropy_grad(float *d_logits, const float *logp,
			       const unsigned char *mask, int n, float scale)
{
	double h = pearl_masked_entropy(logp, mask, n);
	int i;

	for (i = 0; i < n; ++i)
		if (!MASKED(mask, i))
			d_logits[i] -= (float)(scale * exp((double)logp[i]) *
					       ((double)logp[i] + h));
}
