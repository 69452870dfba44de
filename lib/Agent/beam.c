/* The critic's beam (pearl/agent.h, pearl_agent_run with opts->critic):
 * a breadth-first search over the agent's episodes, expanded by the
 * policy's best legal actions under the agent's masks and ranked by the
 * critic's estimate of each schedule's speedup. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "beam.h"
#include "pearl/clock.h"
#include "pearl/features.h"
#include "pearl/transform.h"

/* One episode in progress. */
struct beam_state {
	pearl_sched *sched;   /* owned */
	int b;                /* the branch in focus */
	int steps, total;     /* actions on this branch, in the episode */
	struct pearl_branch_state branch;
	int *ids;             /* the decisions so far, N included; owned */
	int n_ids;
	float value;          /* the critic's value of sched */
	/* The graph of sched the critic valued (owned; NULL until then):
	 * expanding the state only moves its focus to branch b. */
	struct pearl_graph *graph;
	int rank;             /* order of creation, to break ties */
};

/* What the search carries along. */
struct beam {
	pearl_ctx *ctx;
	const pearl_policy *policy, *critic;
	const struct pearl_agent_options *opts;
	struct pearl_agent_trace *trace;
	int n_branch, max_ids, n_created;
	double deadline;      /* pearl_now() past which no state expands */
	struct beam_state *best; /* the best complete episode; owned */
};

static struct beam_state *state_free(struct beam_state *s)
{
	if (s) {
		pearl_sched_free(s->sched);
		pearl_graph_free(s->graph);
		free(s->ids);
		free(s);
	}
	return NULL;
}

/* The critic's value of s's schedule, no branch in focus, into s->value;
 * the graph is kept in s->graph. 0, or -1 with an error in the program's
 * context. */
static int critic_value(struct beam *bm, struct beam_state *s)
{
	float logits[PEARL_ACTION_SPACE_SIZE], *value = &s->value;
	double t0 = pearl_now(), t1;
	char err[256];
	int r;

	pearl_graph_free(s->graph);
	s->graph = pearl_graph_build(s->sched, -1);
	t1 = pearl_now();
	bm->trace->seconds_graph += t1 - t0;
	if (!s->graph)
		return -1;
	r = pearl_policy_eval(bm->critic, s->graph, logits, value, err,
			      sizeof(err));
	bm->trace->seconds_policy += pearl_now() - t1;
	++bm->trace->beam_scored;
	if (r < 0 || !isfinite(*value)) {
		bm->trace->policy_failed = 1;
		pearl_ctx_error(bm->ctx, "critic: %s",
				r < 0 ? err : "a value that is not finite");
		return -1;
	}
	return 0;
}

/* A new state: `s` (kept) followed by decision `id`, with schedule
 * `sched` (taken; NULL: a copy of s's). NULL if memory is exhausted (an
 * error in the context). */
static struct beam_state *child_of(struct beam *bm,
				   const struct beam_state *s, int id,
				   pearl_sched *sched)
{
	struct beam_state *c = malloc(sizeof(*c));
	int *ids = malloc(bm->max_ids * sizeof(*ids));

	if (!sched)
		sched = pearl_sched_copy(s->sched);
	if (!c || !ids || !sched) {
		pearl_sched_free(sched);
		free(ids);
		free(c);
		pearl_ctx_error(bm->ctx, "out of memory");
		return NULL;
	}
	*c = *s;
	c->sched = sched;
	c->ids = memcpy(ids, s->ids, s->n_ids * sizeof(*ids));
	c->graph = NULL;
	c->ids[c->n_ids++] = id;
	c->rank = bm->n_created++;
	return c;
}

/* The child of `s` that moves to the next branch (same schedule, same
 * value); NULL on errors. */
static struct beam_state *next_branch(struct beam *bm,
				      const struct beam_state *s)
{
	struct beam_state *c = child_of(bm, s, PEARL_ACTION_NEXT, NULL);

	if (!c)
		return NULL;
	c->b++;
	/* the same schedule: the same graph (a failed copy is built again),
	 * needed only if a branch is left to expand */
	if (c->b < bm->n_branch && s->graph)
		c->graph = pearl_graph_copy(s->graph);
	c->steps = 0;
	agent_branch_state_init(&c->branch, bm->opts);
	return c;
}

/* The child of `s` that applies action `id` to its branch: NULL with
 * *illegal set if the dependences refuse it, NULL on errors. */
static struct beam_state *apply_child(struct beam *bm,
				      const struct beam_state *s, int id,
				      int *illegal)
{
	struct pearl_action a;
	pearl_sched *sched = pearl_sched_copy(s->sched);
	struct beam_state *c;
	double t0 = pearl_now();
	int ok;

	*illegal = 0;
	if (!sched) {
		pearl_ctx_error(bm->ctx, "out of memory");
		return NULL;
	}
	pearl_action_space_decode(id, &a);
	ok = pearl_sched_apply(sched, s->b, &a) == pearl_stat_ok;
	bm->trace->seconds_legality += pearl_now() - t0;
	if (!ok) {
		pearl_ctx_clear_error(bm->ctx);
		pearl_sched_free(sched);
		*illegal = 1;
		return NULL;
	}
	c = child_of(bm, s, id, sched);
	if (!c)
		return NULL;
	c->steps++;
	c->total++;
	pearl_branch_state_applied(&c->branch, id);
	if (critic_value(bm, c) < 0)
		return state_free(c);
	return c;
}

/* The unmasked actions of `s`'s branch, the policy's most likely first,
 * into order[] (their count returned), or -1 on errors. */
static int ranked_actions(struct beam *bm, struct beam_state *s, int *order)
{
	float logits[PEARL_ACTION_SPACE_SIZE], value;
	unsigned char mask[PEARL_ACTION_SPACE_SIZE];
	double t0 = pearl_now(), t1;
	struct pearl_graph *g;
	char err[256];
	int id, n = 0, i;

	if (s->graph) /* the critic's: only the focus differs */
		pearl_graph_set_focus(s->graph, s->b);
	else
		s->graph = pearl_graph_build(s->sched, s->b);
	g = s->graph;
	t1 = pearl_now();
	bm->trace->seconds_graph += t1 - t0;
	if (!g)
		return -1;
	if (pearl_policy_eval(bm->policy, g, logits, &value, err,
			      sizeof(err)) < 0) {
		bm->trace->policy_failed = 1;
		pearl_ctx_error(bm->ctx, "policy: %s", err);
		return -1;
	}
	bm->trace->seconds_policy += pearl_now() - t1;
	if (pearl_agent_mask(s->sched, s->b, &s->branch, g, mask) < 0)
		return -1;
	if (s->steps >= bm->opts->max_branch_steps ||
	    s->total >= bm->opts->max_steps) {
		memset(mask, 1, sizeof(mask));
		mask[PEARL_ACTION_NEXT] = 0;
	}
	for (id = 0; id < PEARL_ACTION_SPACE_SIZE; ++id) {
		if (mask[id])
			continue;
		/* insertion by logit, the lower number first on ties */
		for (i = n; i > 0 && logits[order[i - 1]] < logits[id]; --i)
			order[i] = order[i - 1];
		order[i] = id;
		++n;
	}
	return n;
}

/* Keeps `s` (taken) as the best complete episode if the critic values it
 * above the best so far (the earlier one on ties). */
static void offer_complete(struct beam *bm, struct beam_state *s)
{
	if (!bm->best || s->value > bm->best->value) {
		state_free(bm->best);
		bm->best = s;
	} else {
		state_free(s);
	}
}

/* Adds the children of `s` (kept) to kids[*n_kids..]: its top_k legal
 * decisions in the policy's order. Complete episodes go to the best
 * instead. 0, or -1 on errors. */
static int expand(struct beam *bm, struct beam_state *s,
		  struct beam_state **kids, int *n_kids)
{
	int order[PEARL_ACTION_SPACE_SIZE];
	int n = ranked_actions(bm, s, order), i, made = 0;

	if (n < 0)
		return -1;
	for (i = 0; i < n && made < bm->opts->beam_top_k; ++i) {
		struct beam_state *c;
		int illegal = 0;

		if (order[i] == PEARL_ACTION_NEXT)
			c = next_branch(bm, s);
		else
			c = apply_child(bm, s, order[i], &illegal);
		if (illegal) {
			bm->trace->n_illegal++;
			continue;
		}
		if (!c)
			return -1;
		++made;
		if (c->b == bm->n_branch)
			offer_complete(bm, c);
		else
			kids[(*n_kids)++] = c;
	}
	return 0;
}

static int by_value(const void *a, const void *b)
{
	const struct beam_state *x = *(struct beam_state *const *)a;
	const struct beam_state *y = *(struct beam_state *const *)b;

	if (x->value != y->value)
		return x->value > y->value ? -1 : 1;
	return x->rank - y->rank;
}

/* The search from `root` (taken) until no episode is left open; the best
 * complete one in bm->best. 0, or -1 on errors. */
static int search(struct beam *bm, struct beam_state *root)
{
	int width = bm->opts->beam_width, k = bm->opts->beam_top_k;
	struct beam_state **beam = calloc(width, sizeof(*beam));
	struct beam_state **kids = calloc((size_t)width * k, sizeof(*kids));
	int n = 0, n_kids, i, failed = 0;

	if (!beam || !kids) {
		free(beam);
		free(kids);
		state_free(root);
		pearl_ctx_error(bm->ctx, "out of memory");
		return -1;
	}
	beam[n++] = root;
	while (n > 0 && !failed && !bm->trace->beam_timed_out) {
		n_kids = 0;
		for (i = 0; i < n && !failed; ++i) {
			if (bm->deadline > 0 && pearl_now() > bm->deadline) {
				bm->trace->beam_timed_out = 1;
				break;
			}
			failed = expand(bm, beam[i], kids, &n_kids) < 0;
		}
		for (i = 0; i < n; ++i)
			beam[i] = state_free(beam[i]);
		n = 0;
		qsort(kids, n_kids, sizeof(*kids), by_value);
		for (i = 0; i < n_kids; ++i)
			if (i < width && !failed && !bm->trace->beam_timed_out)
				beam[n++] = kids[i];
			else
				state_free(kids[i]);
	}
	free(beam);
	free(kids);
	return failed ? -1 : 0;
}

/* The state of `sched` (taken) before any decision, not valued yet; NULL
 * on errors. */
static struct beam_state *new_state(struct beam *bm, pearl_sched *sched)
{
	struct beam_state *s = calloc(1, sizeof(*s));

	if (!s || !sched || !(s->ids = malloc(bm->max_ids * sizeof(int)))) {
		pearl_sched_free(sched);
		free(s);
		pearl_ctx_error(bm->ctx, "out of memory");
		return NULL;
	}
	s->sched = sched;
	agent_branch_state_init(&s->branch, bm->opts);
	s->rank = bm->n_created++;
	return s;
}

/* new_state, valued by the critic. */
static struct beam_state *root_state(struct beam *bm, pearl_sched *sched)
{
	struct beam_state *s = new_state(bm, sched);

	if (s && critic_value(bm, s) < 0)
		return state_free(s);
	return s;
}

/* The greedy agent's episode on a copy of `sched` (kept) as a complete
 * state valued by the critic; NULL on errors. */
static struct beam_state *greedy_state(struct beam *bm, pearl_sched *sched)
{
	struct pearl_agent_options greedy = *bm->opts;
	struct pearl_agent_trace t;
	struct beam_state *s = new_state(bm, pearl_sched_copy(sched));
	int i;

	if (!s)
		return NULL;
	greedy.critic = NULL;
	greedy.sample = 0;
	greedy.observe = NULL; /* the beam's options say it is not used */
	if (pearl_agent_run(s->sched, bm->policy, &greedy, &t) !=
	    pearl_stat_ok) {
		bm->trace->policy_failed |= t.policy_failed;
		pearl_agent_trace_clear(&t);
		return state_free(s);
	}
	bm->trace->seconds_graph += t.seconds_graph;
	bm->trace->seconds_policy += t.seconds_policy;
	bm->trace->seconds_legality += t.seconds_legality;
	bm->trace->n_illegal += t.n_illegal;
	for (i = 0; i < t.n_steps && s->n_ids < bm->max_ids; ++i)
		s->ids[s->n_ids++] = t.steps[i].action;
	pearl_agent_trace_clear(&t);
	s->b = bm->n_branch;
	if (critic_value(bm, s) < 0)
		return state_free(s);
	return s;
}

/* Applies the decisions of `s` (kept) to `sched` and records them as the
 * trace's steps. */
static pearl_stat replay(struct beam *bm, const struct beam_state *s,
			 pearl_sched *sched)
{
	struct pearl_agent_trace *trace = bm->trace;
	int i, b = 0;

	trace->steps = calloc(s->n_ids ? s->n_ids : 1, sizeof(*trace->steps));
	if (!trace->steps)
		return pearl_ctx_error(bm->ctx, "out of memory");
	for (i = 0; i < s->n_ids; ++i) {
		struct pearl_agent_step *step = &trace->steps[trace->n_steps++];
		struct pearl_action a;

		step->branch = b;
		step->action = s->ids[i];
		step->value = s->value;
		step->prob = 1;
		if (s->ids[i] == PEARL_ACTION_NEXT) {
			++b;
			continue;
		}
		pearl_action_space_decode(s->ids[i], &a);
		if (pearl_sched_apply(sched, b, &a) != pearl_stat_ok)
			return pearl_ctx_error(bm->ctx, "beam: the chosen episode "
						  "does not replay");
	}
	return pearl_stat_ok;
}

pearl_stat agent_run_beam(pearl_sched *sched, const pearl_policy *policy,
			  const struct pearl_agent_options *opts,
			  struct pearl_agent_trace *trace)
{
	struct beam bm = {0};
	struct beam_state *greedy, *root, *win;
	double start = pearl_now();
	int explain = pearl_sched_get_explain(sched);
	pearl_stat stat = pearl_stat_error;

	memset(trace, 0, sizeof(*trace));
	bm.ctx = pearl_program_get_ctx(pearl_sched_get_program(sched));
	bm.policy = policy;
	bm.critic = opts->critic;
	bm.opts = opts;
	bm.trace = trace;
	bm.n_branch = pearl_sched_n_branch(sched);
	bm.max_ids = opts->max_steps + bm.n_branch + 1;
	if (bm.n_branch < 0 || opts->beam_width < 1 || opts->beam_top_k < 1)
		return bm.n_branch < 0 ? pearl_stat_error
				       : pearl_ctx_error(bm.ctx, "beam: width "
						"and top-k must be positive");
	trace->n_branches = bm.n_branch;
	trace->beam_width = opts->beam_width;
	pearl_sched_set_explain(sched, 0);
	greedy = greedy_state(&bm, sched);
	if (opts->beam_seconds > 0)
		bm.deadline = pearl_now() + opts->beam_seconds;
	root = greedy ? root_state(&bm, pearl_sched_copy(sched)) : NULL;
	if (!root || search(&bm, root) < 0)
		goto out;
	trace->greedy_value = greedy->value;
	/* The policy's own episode stays the answer unless the critic
	 * values another one higher. */
	win = bm.best && bm.best->value > greedy->value ? bm.best : greedy;
	trace->critic_value = win->value;
	trace->beam_chose_greedy = win == greedy;
	stat = replay(&bm, win, sched);
out:
	state_free(greedy);
	state_free(bm.best);
	pearl_sched_set_explain(sched, explain);
	trace->seconds = pearl_now() - start;
	return stat;
}
