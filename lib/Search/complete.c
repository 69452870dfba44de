/* The completion of a state whose last action reordered or tiled its
 * loops (search_internal.h): its outermost loop that may run in parallel
 * in parallel, its innermost loop vectorized. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pearl/action_space.h"
#include "search_internal.h"

/* The vector width of the completion: 16 lanes, one AVX-512 vector of
 * floats or two of doubles (the width matmul's best schedules take). */
#define COMPLETION_WIDTH 16

int search_completable(const struct search_state *s)
{
	return s->measured && s->speedup > 0 &&
	       (s->last_kind == pearl_action_interchange ||
		s->last_kind == pearl_action_tile ||
		s->last_kind == pearl_action_unroll_jam) &&
	       s->branch_state.phase < pearl_phase_parallel;
}

/* Into *child, the child of `s` whose outermost loop the rules and the
 * dependences let run in parallel, among the P(l) of the policy's action
 * space (P(0), P(1)): the search proposes no other P, and a schedule the
 * agent cannot take is no target for its training. 1, 0 if none, -1 on
 * errors. */
static int parallel_child(const struct search_state *s,
			  struct search_state *child,
			  struct search_counts *counts, char *err,
			  size_t err_size)
{
	int depth = pearl_sched_branch_depth(s->sched, s->branch), l, r;
	struct pearl_action a;

	for (l = 0; l < depth; ++l) {
		memset(&a, 0, sizeof(a));
		a.kind = pearl_action_parallel;
		a.level[0] = l;
		a.n_level = 1;
		if (pearl_action_space_encode(&a) < 0)
			break;
		r = search_child(s, &a, child, counts, err, err_size);
		if (r != 0)
			return r;
	}
	return 0;
}

int search_completion(const struct search_state *s, char **schedule,
		      struct search_counts *counts, char *err,
		      size_t err_size)
{
	struct search_state par = {0}, vec = {0};
	const struct search_state *last = NULL;
	struct pearl_action a;
	int r;

	*schedule = NULL;
	if (!search_completable(s))
		return 0;
	r = parallel_child(s, &par, counts, err, err_size);
	if (r < 0)
		return -1;
	if (r)
		last = &par;
	memset(&a, 0, sizeof(a));
	a.kind = pearl_action_vectorize;
	a.factor[0] = COMPLETION_WIDTH;
	r = search_child(last ? last : s, &a, &vec, counts, err, err_size);
	if (r > 0)
		last = &vec;
	if (r >= 0 && last) {
		*schedule = strdup(last->schedule);
		if (!*schedule) {
			snprintf(err, err_size, "search: out of memory");
			r = -1;
		}
	}
	search_state_clear(&par);
	search_state_clear(&vec);
	if (r < 0)
		return -1;
	return *schedule != NULL;
}
