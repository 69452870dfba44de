/*
 * best_epoch.c - the parameters of the best held-out epoch (best_epoch.h).
 */
#include "best_epoch.h"

#include <stdlib.h>
#include <string.h>

#include "pearl/train.h"

int best_epoch_init(struct best_epoch *b, pearl_policy *policy, double score)
{
	b->params = pearl_policy_get_params(policy, &b->n);
	b->copy = malloc(b->n * sizeof(*b->copy));
	b->score = score;
	b->epoch = 0;
	if (!b->copy)
		return -1;
	memcpy(b->copy, b->params, b->n * sizeof(*b->copy));
	return 0;
}

void best_epoch_offer(struct best_epoch *b, int epoch, double score)
{
	if (!(score < b->score))
		return;
	b->score = score;
	b->epoch = epoch;
	memcpy(b->copy, b->params, b->n * sizeof(*b->copy));
}

void best_epoch_restore(const struct best_epoch *b)
{
	memcpy(b->params, b->copy, b->n * sizeof(*b->copy));
}
