/*
 * label_conflicts.c - the decisions no policy can all get right: the same
 * state, different actions (label_conflicts.h).
 */
#include "label_conflicts.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pearl/graph.h"

/* One imitated decision: its state's hash, the step (kept) and the
 * number of mask bytes that count. */
struct decision {
	uint64_t hash;
	const struct pearl_ppo_step *step;
	int n_actions;
};

static uint64_t fnv1a(uint64_t h, const void *data, size_t size)
{
	const unsigned char *p = data;
	size_t i;

	for (i = 0; i < size; ++i) {
		h ^= p[i];
		h *= 1099511628211ULL;
	}
	return h;
}

/* The hash of a step's graph and mask (its state as the network sees it,
 * bit for bit). */
static uint64_t state_hash(const struct pearl_ppo_step *s, int n_actions)
{
	const struct pearl_graph *g = s->graph;
	uint64_t h = 14695981039346656037ULL;
	int dims[3] = { g->n_nodes, g->n_features, g->n_edges };

	h = fnv1a(h, dims, sizeof(dims));
	h = fnv1a(h, g->x, sizeof(float) * (size_t)g->n_nodes * g->n_features);
	h = fnv1a(h, g->src, sizeof(int) * (size_t)g->n_edges);
	h = fnv1a(h, g->dst, sizeof(int) * (size_t)g->n_edges);
	return fnv1a(h, s->mask, (size_t)n_actions);
}

static int cmp_int(int a, int b)
{
	return a < b ? -1 : a > b;
}

/* A total order of states: by hash, then by contents (bitwise), so that
 * equal states are adjacent after sorting even if two hashes collide. */
static int state_cmp(const struct decision *a, const struct decision *b)
{
	const struct pearl_graph *ga = a->step->graph, *gb = b->step->graph;
	int c;

	if (a->hash != b->hash)
		return a->hash < b->hash ? -1 : 1;
	if ((c = cmp_int(ga->n_nodes, gb->n_nodes)) ||
	    (c = cmp_int(ga->n_features, gb->n_features)) ||
	    (c = cmp_int(ga->n_edges, gb->n_edges)))
		return c;
	if ((c = memcmp(ga->x, gb->x, sizeof(float) * (size_t)ga->n_nodes *
					      ga->n_features)) ||
	    (c = memcmp(ga->src, gb->src, sizeof(int) * (size_t)ga->n_edges)) ||
	    (c = memcmp(ga->dst, gb->dst, sizeof(int) * (size_t)ga->n_edges)))
		return c;
	return memcmp(a->step->mask, b->step->mask, (size_t)a->n_actions);
}

/* States first, then actions within a state. */
static int decision_cmp(const void *pa, const void *pb)
{
	const struct decision *a = pa, *b = pb;
	int c = state_cmp(a, b);

	return c ? c : cmp_int(a->step->action, b->step->action);
}

/* Adds the run d[0..n) of one state to *out. */
static void count_state(const struct decision *d, int n,
			struct label_conflicts *out)
{
	int i, run = 1, most = 1;

	for (i = 1; i < n; ++i) {
		run = d[i].step->action == d[i - 1].step->action ? run + 1 : 1;
		if (run > most)
			most = run;
	}
	out->states++;
	out->shared += n > 1;
	out->conflicting += most < n;
	out->missed += n - most;
}

int label_conflicts_count(const struct pearl_ppo_batch *batch,
			  struct label_conflicts *out, char *err,
			  size_t err_size)
{
	struct decision *d;
	int k, n = 0, start;

	memset(out, 0, sizeof(*out));
	out->ceiling = 1;
	d = malloc(sizeof(*d) * (size_t)(batch->n_steps ? batch->n_steps : 1));
	if (!d) {
		snprintf(err, err_size, "label conflicts: out of memory");
		return -1;
	}
	for (k = 0; k < batch->n_steps; ++k) {
		const struct pearl_ppo_step *s = &batch->steps[k];

		if (s->target || !s->graph)
			continue;
		d[n].step = s;
		d[n].n_actions = batch->n_actions;
		d[n].hash = state_hash(s, batch->n_actions);
		n++;
	}
	qsort(d, (size_t)n, sizeof(*d), decision_cmp);
	for (start = 0, k = 1; k <= n; ++k)
		if (k == n || state_cmp(&d[start], &d[k]) != 0) {
			count_state(d + start, k - start, out);
			start = k;
		}
	out->decisions = n;
	if (n > 0)
		out->ceiling = 1 - (double)out->missed / n;
	free(d);
	return 0;
}
