/*
 * weight_average.c - the mean of a policy's parameters over epochs
 * (weight_average.h).
 */
#include "weight_average.h"

#include <stdlib.h>
#include <string.h>

int weight_average_init(struct weight_average *a, float *params, size_t n)
{
	memset(a, 0, sizeof(*a));
	a->params = params;
	a->n = n;
	a->mean = calloc(n ? n : 1, sizeof(*a->mean));
	return a->mean ? 0 : -1;
}

void weight_average_add(struct weight_average *a, int epoch)
{
	float k;
	size_t i;

	a->count++;
	if (a->count == 1)
		a->first = epoch;
	a->last = epoch;
	/* The running mean: m_k = m_{k-1} + (p - m_{k-1}) / k. */
	k = (float)a->count;
	for (i = 0; i < a->n; ++i)
		a->mean[i] += (a->params[i] - a->mean[i]) / k;
}

void weight_average_apply(const struct weight_average *a)
{
	if (a->count > 0)
		memcpy(a->params, a->mean, a->n * sizeof(*a->params));
}

void weight_average_clear(struct weight_average *a)
{
	free(a->mean);
	memset(a, 0, sizeof(*a));
}
