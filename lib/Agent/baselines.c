/* Random and rules-only policies (pearl/baselines.h). */
#include <stdlib.h>
#include <string.h>

#include "pearl/baselines.h"
#include "pearl/action_space.h"
#include "pearl/agent.h"
#include "pearl/features.h"
#include "pearl/grow.h"
#include "pearl/random.h"

/* The schedule text being written, with the agent's N placement: N only
 * between branches that are followed by an action. */
struct writer {
	char *buf;
	size_t size, len;
	int branch_written; /* the branch of the last action written */
	int overflow;
};

static void write_token(struct writer *w, const char *token)
{
	size_t n = strlen(token) + (w->len ? 1 : 0);

	if (w->len + n + 1 > w->size) {
		w->overflow = 1;
		return;
	}
	if (w->len)
		w->buf[w->len++] = ' ';
	strcpy(w->buf + w->len, token);
	w->len += strlen(token);
}

static void write_action(struct writer *w, int branch, int id)
{
	struct pearl_action a;
	char token[64];

	for (; w->branch_written < branch; ++w->branch_written)
		write_token(w, "N");
	pearl_action_space_decode(id, &a);
	pearl_action_format(&a, token, sizeof(token));
	write_token(w, token);
}

/* Tries action id on branch b; 1 if applied, 0 if refused, -1 on error.
 * Updates the branch state as the agent does. */
static int try_action(pearl_sched *sched, int b, int id,
		      struct pearl_branch_state *state, struct writer *w)
{
	pearl_ctx *ctx = pearl_program_get_ctx(pearl_sched_get_program(sched));
	struct pearl_action a;

	pearl_action_space_decode(id, &a);
	state->tried[id] = 1;
	if (pearl_sched_apply(sched, b, &a) != pearl_stat_ok) {
		pearl_ctx_clear_error(ctx);
		return 0;
	}
	pearl_branch_state_applied(state, id);
	write_action(w, b, id);
	return 1;
}

/* The mask of branch b in its current state. */
static int branch_mask(pearl_sched *sched, int b,
		       const struct pearl_branch_state *state,
		       unsigned char *mask)
{
	struct pearl_graph *g = pearl_graph_build(sched, b);
	int rc;

	if (!g)
		return -1;
	rc = pearl_agent_mask(sched, b, state, g, mask);
	pearl_graph_free(g);
	return rc;
}

static int finish(struct writer *w, int applied)
{
	return w->overflow ? -1 : applied;
}

int pearl_baseline_random(pearl_sched *sched, const int *per_branch, int n,
			  uint64_t seed, char *buf, size_t size)
{
	struct writer w = {buf, size, 0, 0, 0};
	int n_branch = pearl_sched_n_branch(sched), b, applied = 0;
	int explain = pearl_sched_get_explain(sched);

	if (n_branch < 0 || size == 0)
		return -1;
	buf[0] = 0;
	pearl_sched_set_explain(sched, 0);
	for (b = 0; b < n_branch && b < n; ++b) {
		struct pearl_branch_state state;
		int k;

		pearl_branch_state_init(&state);
		for (k = 0; k < per_branch[b]; ++k) {
			unsigned char mask[PEARL_ACTION_SPACE_SIZE];
			int done = 0;

			if (branch_mask(sched, b, &state, mask) < 0)
				goto error;
			mask[PEARL_ACTION_NEXT] = 1;
			while (!done) {
				int cand[PEARL_ACTION_SPACE_SIZE], nc = 0, id, r;

				for (id = 0; id < PEARL_ACTION_SPACE_SIZE; ++id)
					if (!mask[id])
						cand[nc++] = id;
				if (nc == 0)
					break;
				id = cand[pearl_splitmix64(&seed) % (uint64_t)nc];
				mask[id] = 1;
				r = try_action(sched, b, id, &state, &w);
				if (r < 0)
					goto error;
				done = r;
			}
			if (!done)
				break; /* nothing legal is left */
			++applied;
		}
	}
	pearl_sched_set_explain(sched, explain);
	return finish(&w, applied);
error:
	pearl_sched_set_explain(sched, explain);
	return -1;
}

/* The first of ids[n] that the mask allows and the dependences accept. */
static int first_legal(pearl_sched *sched, int b,
		       struct pearl_branch_state *state, const int *ids, int n,
		       struct writer *w)
{
	unsigned char mask[PEARL_ACTION_SPACE_SIZE];
	int i, r;

	if (branch_mask(sched, b, state, mask) < 0)
		return -1;
	for (i = 0; i < n; ++i) {
		if (mask[ids[i]])
			continue;
		r = try_action(sched, b, ids[i], state, w);
		if (r != 0)
			return r;
	}
	return 0;
}

int pearl_baseline_heuristic(pearl_sched *sched, char *buf, size_t size)
{
	struct writer w = {buf, size, 0, 0, 0};
	int n_branch = pearl_sched_n_branch(sched), b, applied = 0;
	int explain = pearl_sched_get_explain(sched);
	/* T(L,L+1,32,32) for L = 0..3 (size pair 0); P(0), P(1); U(4). */
	static const int tiles[] = {14, 15, 16, 17};
	static const int parallel[] = {12, 13};
	static const int unroll[] = {51};

	if (n_branch < 0 || size == 0)
		return -1;
	buf[0] = 0;
	pearl_sched_set_explain(sched, 0);
	for (b = 0; b < n_branch; ++b) {
		struct pearl_branch_state state;
		int r;

		pearl_branch_state_init(&state);
		if ((r = first_legal(sched, b, &state, tiles, 4, &w)) < 0)
			goto error;
		applied += r;
		if ((r = first_legal(sched, b, &state, parallel, 2, &w)) < 0)
			goto error;
		applied += r;
		if ((r = first_legal(sched, b, &state, unroll, 1, &w)) < 0)
			goto error;
		applied += r;
	}
	pearl_sched_set_explain(sched, explain);
	return finish(&w, applied);
error:
	pearl_sched_set_explain(sched, explain);
	return -1;
}

int pearl_baseline_count_per_branch(const char *schedule, int **counts)
{
	int n = 1, cap = 8;
	const char *p = schedule;

	*counts = calloc(cap, sizeof(**counts));
	if (!*counts)
		return -1;
	while (*p) {
		const char *end;
		size_t len;

		while (*p == ' ')
			++p;
		if (!*p)
			break;
		end = strchr(p, ' ');
		len = end ? (size_t)(end - p) : strlen(p);
		if (len == 1 && *p == 'N') {
			if (pearl_grow(counts, &cap, n + 1, sizeof(**counts)) < 0)
				return -1;
			(*counts)[n++] = 0;
		} else {
			(*counts)[n - 1]++;
		}
		p += len;
	}
	return n;
}
