/*
 * kind_recall.c - the policy's recall of imitated actions by kind
 * (kind_recall.h).
 */
#include "kind_recall.h"

#include <stdlib.h>
#include <string.h>

#include "pearl/action_space.h"
#include "pearl/train.h"
#include "pearl/transform.h"

_Static_assert(pearl_action_copy + 1 == KIND_RECALL_KINDS,
	       "one entry per enum pearl_action_kind");

/* The letter of each kind, in the order of enum pearl_action_kind. */
static const char kind_letter[KIND_RECALL_KINDS] = {
	'I', 'R', 'S', 'T', 'U', 'P', 'N', 'D', 'F', 'J', 'V', 'K'
};

/* The kind of action `id`, or -1. */
static int kind_of(int id)
{
	struct pearl_action a;

	if (pearl_action_space_decode(id, &a) < 0 || (int)a.kind < 0 ||
	    (int)a.kind >= KIND_RECALL_KINDS)
		return -1;
	return a.kind;
}

int kind_recall_measure(const pearl_policy *policy,
			const struct pearl_ppo_batch *batch,
			struct kind_recall *r, char *err, size_t err_size)
{
	int k;

	memset(r, 0, sizeof(*r));
	if (batch->n_actions > PEARL_PPO_MAX_ACTIONS) {
		snprintf(err, err_size, "kind recall: too many actions");
		return -1;
	}
	for (k = 0; k < batch->n_steps; ++k) {
		const struct pearl_ppo_step *s = &batch->steps[k];
		float logits[PEARL_PPO_MAX_ACTIONS], value;
		int best, want, got;

		if (s->target)
			continue;
		if (pearl_policy_eval(policy, s->graph, logits, &value, err,
				      err_size) < 0)
			return -1;
		best = pearl_masked_argmax(logits, s->mask, batch->n_actions);
		want = kind_of(s->action);
		got = best < 0 ? -1 : kind_of(best);
		if (want < 0 || got < 0)
			continue;
		r->n[want]++;
		r->weight[want] += s->weight;
		r->picked[want][got] += s->weight;
		if (best == s->action)
			r->exact[want] += s->weight;
	}
	return 0;
}

void kind_recall_print(FILE *f, const char *prefix,
		       const struct kind_recall *r)
{
	int k, j;

	for (k = 0; k < KIND_RECALL_KINDS; ++k) {
		double w = r->weight[k] > 0 ? r->weight[k] : 1;
		int first = -1, second = -1;

		if (!r->n[k])
			continue;
		for (j = 0; j < KIND_RECALL_KINDS; ++j) {
			if (j == k || r->picked[k][j] <= 0)
				continue;
			if (first < 0 || r->picked[k][j] > r->picked[k][first]) {
				second = first;
				first = j;
			} else if (second < 0 ||
				   r->picked[k][j] > r->picked[k][second]) {
				second = j;
			}
		}
		fprintf(f, "%s%c: %6d decisions, the action picked %.3f, its "
			   "kind %.3f", prefix, kind_letter[k], r->n[k],
			r->exact[k] / w, r->picked[k][k] / w);
		if (first >= 0)
			fprintf(f, "; instead %c %.3f", kind_letter[first],
				r->picked[k][first] / w);
		if (second >= 0)
			fprintf(f, ", %c %.3f", kind_letter[second],
				r->picked[k][second] / w);
		fputc('\n', f);
	}
}

int kind_weights_parse(const char *spec, float *w)
{
	const char *p = spec;
	int k;

	for (k = 0; k < KIND_RECALL_KINDS; ++k)
		w[k] = 1;
	while (*p) {
		const char *letter = memchr(kind_letter, p[0], KIND_RECALL_KINDS);
		char *end;
		double x;

		if (!p[0] || !letter || p[1] != '=')
			return -1;
		x = strtod(p + 2, &end);
		if (end == p + 2 || !(x > 0 && x <= 100))
			return -1;
		w[letter - kind_letter] = (float)x;
		p = end;
		if (*p == ',' && p[1])
			++p;
		else if (*p)
			return -1;
	}
	return p == spec ? -1 : 0;
}

void kind_weights_apply(struct pearl_ppo_batch *batch, const float *w)
{
	int k, kind;

	for (k = 0; k < batch->n_steps; ++k) {
		struct pearl_ppo_step *s = &batch->steps[k];

		if (s->target || (kind = kind_of(s->action)) < 0)
			continue;
		s->weight *= w[kind];
	}
}
