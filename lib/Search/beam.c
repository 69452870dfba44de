/* The choice of the next beam among a level's measured children
 * (search_internal.h). */
#include <stdlib.h>
#include <string.h>

#include "search_internal.h"

/* The speedup `s` is ranked by: its own, or its completion's if larger
 * (0 if it failed). */
static double rank(const struct search_state *s)
{
	if (s->speedup <= 0)
		return 0;
	return s->completed > s->speedup ? s->completed : s->speedup;
}

/* Orders measured states fastest first. */
static int by_speed(const void *a, const void *b)
{
	const struct search_state *x = a, *y = b;

	if (rank(x) != rank(y))
		return rank(x) > rank(y) ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Moves child `c` (measured, OK) into `beam`; 0, or -1 if memory is
 * exhausted. */
static int keep(struct search_states *beam, struct search_state *c)
{
	if (search_states_push(beam, c) < 0)
		return -1;
	memset(c, 0, sizeof(*c)); /* moved: its schedule is NULL now */
	return 0;
}

/* Whether some state of `beam` ends with an action of kind `kind`. */
static int kind_kept(const struct search_states *beam, int kind)
{
	int i;

	for (i = 0; i < beam->n; ++i)
		if (beam->s[i].last_kind == kind)
			return 1;
	return 0;
}

/* The number of the first children, sorted fastest first, that are
 * measured and OK. */
static int n_ok(const struct search_states *children)
{
	int n = 0;

	while (n < children->n && children->s[n].measured &&
	       children->s[n].speedup > 0)
		n++;
	return n;
}

/* A place kept for diversity goes only to a state at least this
 * fraction as fast as the fastest child (by rank): j-i-k matmul's beam
 * kept `J(0,4) J(1,4) J(2,4)` at 4x beside 60x states for its jam, and
 * spent a sixth of its budget on its descendants. */
#define DIVERSITY_FLOOR 0.25

int search_select_beam(struct search_states *children, int width,
		       int diversity, struct search_states *beam)
{
	int diverse = diversity < width ? diversity : width, n, i;
	double min_rank;

	search_states_clear(beam);
	for (i = 0; i < children->n; ++i)
		if (!children->s[i].measured)
			children->s[i].speedup = 0;
	qsort(children->s, children->n, sizeof(*children->s), by_speed);
	n = n_ok(children);
	min_rank = n > 0 ? DIVERSITY_FLOOR * rank(&children->s[0]) : 0;
	for (i = 0; i < n && beam->n < width - diverse; ++i)
		if (keep(beam, &children->s[i]) < 0)
			return -1;
	for (; i < n && beam->n < width; ++i) {
		struct search_state *c = &children->s[i];

		if (rank(c) >= min_rank && !kind_kept(beam, c->last_kind) &&
		    keep(beam, c) < 0)
			return -1;
	}
	for (i = 0; i < n && beam->n < width; ++i)
		if (children->s[i].schedule && keep(beam, &children->s[i]) < 0)
			return -1;
	search_states_clear(children);
	return 0;
}

