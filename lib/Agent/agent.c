/* The episode driver (pearl/agent.h): masks, choices, branches, Next. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "beam.h"
#include "pearl/agent.h"
#include "pearl/clock.h"
#include "pearl/features.h"
#include "pearl/grow.h"
#include "pearl/random.h"
#include "pearl/str.h"
#include "pearl/transform.h"
#include "uniform_parallel.h"

void pearl_agent_options_init(struct pearl_agent_options *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->max_branch_steps = 8;
	opts->max_steps = 64;
	opts->min_parallel_work = PEARL_AGENT_MIN_PARALLEL_WORK;
	opts->beam_width = 4;
	opts->beam_top_k = 3;
	opts->uniform_parallel = 1;
	opts->fill_parallel = 1;
}

void pearl_branch_state_init(struct pearl_branch_state *state)
{
	memset(state->tried, 0, sizeof(state->tried));
	state->phase = -1;
	state->tiled = 0;
	state->min_parallel_work = PEARL_AGENT_MIN_PARALLEL_WORK;
	state->copies = 1;
	state->jam_rules = 0;
	state->jammed = 0;
}

void agent_branch_state_init(struct pearl_branch_state *state,
			     const struct pearl_agent_options *opts)
{
	pearl_branch_state_init(state);
	state->min_parallel_work = opts->min_parallel_work;
	state->copies = opts->copies;
	state->jam_rules = 1;
}

/* The bit of loop `level` in pearl_branch_state.jammed, 0 for a level
 * the mask cannot hold (no jam is recorded or masked there). */
static unsigned jammed_bit(int level)
{
	return level >= 0 && level < 32 ? 1u << level : 0;
}

void pearl_branch_state_applied(struct pearl_branch_state *state, int id)
{
	struct pearl_action a;

	state->tried[id] = 1;
	if ((int)pearl_action_space_phase(id) > state->phase)
		state->phase = pearl_action_space_phase(id);
	state->tiled |= pearl_action_space_phase(id) == pearl_phase_tile;
	if (pearl_action_space_decode(id, &a) == 0 &&
	    a.kind == pearl_action_unroll_jam)
		state->jammed |= jammed_bit(a.level[0]);
}

void pearl_agent_trace_clear(struct pearl_agent_trace *trace)
{
	free(trace->steps);
	memset(trace, 0, sizeof(*trace));
}

/* Whether some loop in focus has feature `feature` set. */
static int focus_loop_has(const struct pearl_graph *graph, int feature)
{
	int i;

	for (i = 0; i < graph->n_nodes; ++i) {
		const float *f = graph->x + (size_t)i * graph->n_features;

		if (f[PEARL_F_KIND + 1] > 0 && f[PEARL_F_FOCUS] > 0 &&
		    f[feature] > 0)
			return 1;
	}
	return 0;
}

/* The tile size of the loop of feature row `f` (kept), 0 if it is not a
 * tile loop. */
static long tile_size(const float *f)
{
	return f[PEARL_F_TILE] > 0 ? lround(exp2(f[PEARL_F_TILE + 1] * 8)) : 0;
}

/* Whether the loops of feature rows `a` and `b` (kept) run over the same
 * iterators alike (the same row of coefficients). */
static int same_row(const float *a, const float *b)
{
	return memcmp(a + PEARL_F_ROW, b + PEARL_F_ROW,
		      (PEARL_GRAPH_MAX_DEPTH + 1) * sizeof(float)) == 0;
}

void agent_loop_extents(const float *const *row, int n, long *extent)
{
	int m, t;

	for (m = 0; m < n; ++m) {
		long s = tile_size(row[m]);

		extent[m] = row[m][PEARL_F_SYMBOLIC] > 0
				? -1
				: lround(exp2(row[m][PEARL_F_EXTENT] * 16) - 1);
		for (t = 0; s > 0 && t < m; ++t) {
			long size = tile_size(row[t]), most;

			if (size <= s || !same_row(row[t], row[m]))
				continue;
			most = (size + s - 1) / s;
			if (extent[m] < 0 || extent[m] > most)
				extent[m] = most;
		}
	}
}

/* The extents of the loops in focus, outermost first, into extent[]
 * (agent_loop_extents), and the tile size of each tile loop into tile[]
 * (0 for the others); returns their number. */
static int focus_extents(const struct pearl_graph *graph, long *extent,
			 long *tile, int cap)
{
	const float *row[64];
	int i, n = 0;

	if (cap > 64)
		cap = 64;
	for (i = 0; i < graph->n_nodes && n < cap; ++i) {
		const float *f = graph->x + (size_t)i * graph->n_features;

		if (f[PEARL_F_KIND + 1] <= 0 || f[PEARL_F_FOCUS] <= 0)
			continue;
		tile[n] = tile_size(f);
		row[n++] = f;
	}
	agent_loop_extents(row, n, extent);
	return n;
}

int agent_too_little_work(const long *extent, int n_extent, int level,
			  long min)
{
	long work = 1;
	int l;

	if (min <= 0 || level >= n_extent)
		return 0;
	for (l = level; l < n_extent && work < min; ++l) {
		if (extent[l] < 0)
			return 0;
		work *= extent[l] > 0 ? extent[l] : 1;
	}
	for (; l < n_extent; ++l) /* a symbolic extent further in */
		if (extent[l] < 0)
			return 0;
	return work < min;
}

/* Whether `size` iterations do not fit in a loop of `extent`. */
static int too_large(long size, long extent)
{
	return extent >= 0 && size > extent;
}

/* Whether a V action was tried on the branch already. */
static int vectorize_tried(const struct pearl_branch_state *state)
{
	struct pearl_action a;
	int id;

	for (id = 0; id < PEARL_ACTION_SPACE_SIZE; ++id)
		if (state->tried[id] &&
		    pearl_action_space_decode(id, &a) == 0 &&
		    a.kind == pearl_action_vectorize)
			return 1;
	return 0;
}

int pearl_agent_mask(pearl_sched *sched, int b,
		     const struct pearl_branch_state *state,
		     const struct pearl_graph *graph, unsigned char *mask)
{
	int depth = pearl_sched_branch_depth(sched, b);
	int parallel = focus_loop_has(graph, PEARL_F_PARALLEL);
	int unrolled = focus_loop_has(graph, PEARL_F_UNROLL);
	int tiled = focus_loop_has(graph, PEARL_F_TILE) ||
		    focus_loop_has(graph, PEARL_F_POINT);
	long extent[64];
	long tile[64];
	int n_extent = focus_extents(graph, extent, tile, 64);
	int id;

	if (depth < 0)
		return -1;
	for (id = 0; id < PEARL_ACTION_SPACE_SIZE; ++id) {
		enum pearl_action_phase phase = pearl_action_space_phase(id);
		struct pearl_action a;
		int m = state->tried[id];

		pearl_action_space_decode(id, &a);
		m |= pearl_action_space_max_level(id) >= depth;
		m |= (int)phase < state->phase;
		/* loops tiled (here or through a shared loop): no reordering */
		m |= phase == pearl_phase_reorder && tiled;
		switch (a.kind) {
		case pearl_action_tile:
			m |= state->tiled;
			if (a.level[1] < n_extent)
				m |= too_large(a.size[0], extent[a.level[0]]) ||
				     too_large(a.size[1], extent[a.level[1]]);
			break;
		case pearl_action_parallel:
			m |= parallel;
			m |= agent_too_little_work(extent, n_extent, a.level[0],
					     state->min_parallel_work);
			/* one iteration: no loop to run in parallel */
			if (a.level[0] < n_extent)
				m |= extent[a.level[0]] == 1;
			break;
		case pearl_action_skew:
			m |= parallel;
			break;
		case pearl_action_unroll:
			m |= unrolled || depth == 0;
			if (n_extent > 0)
				m |= too_large(a.factor[0],
					       extent[n_extent - 1]);
			break;
		case pearl_action_unroll_jam:
			/* J's copies need a loop of more than its factor */
			m |= unrolled;
			/* the policy's: once per loop, and not on a tile
			 * loop whose values step by at least the factor (a
			 * group of J's copies holds one value: the same
			 * code, or with a factor that does not divide the
			 * step the same loops with other bounds) */
			if (state->jam_rules)
				m |= (state->jammed &
				      jammed_bit(a.level[0])) != 0 ||
				     (a.level[0] < n_extent &&
				      tile[a.level[0]] >= a.factor[0]);
			if (a.level[0] < n_extent)
				m |= extent[a.level[0]] >= 0 &&
				     extent[a.level[0]] <= a.factor[0];
			break;
		case pearl_action_vectorize:
			/* one width per branch */
			m |= depth == 0 || vectorize_tried(state);
			break;
		case pearl_action_copy:
			/* refused anyway: not worth a legality check */
			m |= !pearl_sched_get_copies_made(sched);
			m |= !state->copies;
			break;
		case pearl_action_next:
			m = 0;
			break;
		default:
			break;
		}
		mask[id] = (unsigned char)(m != 0);
	}
	return 0;
}

/* The softmax probabilities of the unmasked logits into prob[]. */
static void masked_softmax(const float *logits, const unsigned char *mask,
			   double *prob)
{
	double max = -INFINITY, sum = 0;
	int id;

	for (id = 0; id < PEARL_ACTION_SPACE_SIZE; ++id)
		if (!mask[id] && logits[id] > max)
			max = logits[id];
	for (id = 0; id < PEARL_ACTION_SPACE_SIZE; ++id) {
		prob[id] = mask[id] ? 0 : exp(logits[id] - max);
		sum += prob[id];
	}
	for (id = 0; id < PEARL_ACTION_SPACE_SIZE; ++id)
		prob[id] /= sum;
}

/* The choice among the unmasked actions (N is never masked, so there is
 * one): the argmax (lowest number on ties), or a sample. */
static int choose(const double *prob, const unsigned char *mask, int sample,
		  uint64_t *rng)
{
	double u, acc = 0;
	int id, best = PEARL_ACTION_NEXT;

	if (!sample) {
		for (id = 0; id < PEARL_ACTION_SPACE_SIZE; ++id)
			if (!mask[id] && prob[id] > prob[best])
				best = id;
		return best;
	}
	u = pearl_random_unit(rng);
	for (id = 0; id < PEARL_ACTION_SPACE_SIZE; ++id) {
		if (mask[id])
			continue;
		acc += prob[id];
		best = id;
		if (u < acc)
			break;
	}
	return best;
}

/* The actions refused since the loops or the order of execution last
 * changed, each with the loops it touches (loop tree nodes of levels 0 to
 * its deepest level, on the branch it was refused on). An action
 * transforms those loops and what they hold, whichever branch through
 * them names it, so it is refused on every such branch: PolyBench's
 * deriche, whose 34 branches pass through a few loops, asked the
 * dependences 32 times whether D(0) may distribute them (5 ms each).
 * Actions that only mark loops (U, V, P) keep the loop tree and the order,
 * and only add what a later schedule must keep: what was refused stays
 * refused (adi at LARGE asked three times whether D(0) may distribute its
 * time loop, around unrolls). */
#define REFUSAL_MAX_LEVELS 8
struct refusal {
	int id;
	int n;
	int node[REFUSAL_MAX_LEVELS];
};
struct refusals {
	struct refusal *r;
	int n, cap;
};

/* The key of action `id` on branch b of `sched` into *key: 0, or -1 if
 * the action has no loop level (U, V, N) or goes deeper than the key
 * holds (not remembered). */
static int refusal_key(pearl_sched *sched, int b, int id, struct refusal *key)
{
	int path[64], n, m = pearl_action_space_max_level(id);

	if (m < 0 || m >= REFUSAL_MAX_LEVELS)
		return -1;
	n = pearl_sched_branch_loops(sched, b, path, 64);
	if (n <= m)
		return -1;
	key->id = id;
	key->n = m + 1;
	memcpy(key->node, path, key->n * sizeof(key->node[0]));
	return 0;
}

static int refusal_same(const struct refusal *a, const struct refusal *b)
{
	return a->id == b->id && a->n == b->n &&
	       !memcmp(a->node, b->node, a->n * sizeof(a->node[0]));
}

/* Whether action `id` on branch b was refused through the same loops. */
static int refused_before(const struct refusals *refusals,
			  pearl_sched *sched, int b, int id)
{
	struct refusal key;
	int i;

	if (!refusals || refusal_key(sched, b, id, &key) < 0)
		return 0;
	for (i = 0; i < refusals->n; ++i)
		if (refusal_same(&refusals->r[i], &key))
			return 1;
	return 0;
}

/* Remembers that action `id` was refused on branch b (if it has a key
 * and memory allows: forgetting only costs a check). */
static void remember_refusal(struct refusals *refusals, pearl_sched *sched,
			     int b, int id)
{
	struct refusal key;

	if (!refusals || refusal_key(sched, b, id, &key) < 0 ||
	    pearl_grow(&refusals->r, &refusals->cap, refusals->n + 1,
		       sizeof(*refusals->r)) < 0)
		return;
	refusals->r[refusals->n++] = key;
}

/* Whether action `id` only marks loops (parallel, unroll, vector width):
 * the loop tree and the order of execution stay as they were. */
static int marks_only(int id)
{
	struct pearl_action a;

	if (pearl_action_space_decode(id, &a) < 0)
		return 0;
	return a.kind == pearl_action_parallel ||
	       a.kind == pearl_action_unroll ||
	       a.kind == pearl_action_vectorize;
}

static int add_step(struct pearl_agent_trace *trace,
		    const struct pearl_agent_step *step, int *cap)
{
	if (pearl_grow(&trace->steps, cap, trace->n_steps + 1,
		       sizeof(*trace->steps)) < 0)
		return -1;
	trace->steps[trace->n_steps++] = *step;
	return 0;
}

/* Reports a decision to the options' observer, if any. */
static pearl_stat observe(const struct pearl_agent_options *opts,
			  pearl_ctx *ctx, const struct pearl_graph *graph,
			  const unsigned char *mask,
			  const struct pearl_agent_step *step)
{
	if (!opts->observe ||
	    opts->observe(opts->observe_user, graph, mask, step) == 0)
		return pearl_stat_ok;
	return pearl_ctx_error(ctx, "agent: the observer stopped the episode");
}

/* One decision on branch b: evaluates the policy (through `cache`, which
 * holds the previous decision's pass), then chooses until a legal action
 * (or N) is found, applying it; fills *step. An action `refusals` holds
 * is refused without a check; refusals are added to it, and it is
 * emptied when an action changes the schedule. `*graph` is the graph of
 * the current schedule if not NULL (any focus); it is built if needed,
 * and dropped when an action changes the schedule. */
static pearl_stat decide(pearl_sched *sched, const pearl_policy *policy,
			 pearl_policy_cache *cache, struct refusals *refusals,
			 int b,
			 struct pearl_branch_state *state, int forced,
			 const struct pearl_agent_options *opts, uint64_t *rng,
			 struct pearl_agent_trace *trace,
			 struct pearl_graph **graph, struct pearl_agent_step *step)
{
	double t0 = pearl_now(), t1, t2;
	pearl_ctx *ctx = pearl_program_get_ctx(pearl_sched_get_program(sched));
	float logits[PEARL_ACTION_SPACE_SIZE];
	unsigned char mask[PEARL_ACTION_SPACE_SIZE];
	double prob[PEARL_ACTION_SPACE_SIZE];
	char err[256];
	int id, ok;

	memset(step, 0, sizeof(*step));
	step->branch = b;
	if (*graph)
		pearl_graph_set_focus(*graph, b);
	else
		*graph = pearl_graph_build(sched, b);
	if (!*graph)
		return pearl_stat_error;
	t1 = pearl_now();
	trace->seconds_graph += t1 - t0;
	if (pearl_policy_eval_cached(policy, cache, *graph, logits,
				     &step->value, err, sizeof(err)) < 0) {
		trace->policy_failed = 1;
		return pearl_ctx_error(ctx, "policy: %s", err);
	}
	t2 = pearl_now();
	trace->seconds_policy += t2 - t1;
	if (pearl_agent_mask(sched, b, state, *graph, mask) < 0)
		return pearl_stat_error;
	if (forced) {
		memset(mask, 1, sizeof(mask));
		mask[PEARL_ACTION_NEXT] = 0;
		step->forced = 1;
	}
	for (;;) {
		struct pearl_action a;

		masked_softmax(logits, mask, prob);
		id = choose(prob, mask, opts->sample, rng);
		step->action = id;
		step->prob = (float)prob[id];
		if (id == PEARL_ACTION_NEXT)
			return observe(opts, ctx, *graph, mask, step);
		pearl_action_space_decode(id, &a);
		state->tried[id] = 1;
		mask[id] = 1;
		t0 = pearl_now();
		if (refused_before(refusals, sched, b, id)) {
			ok = 0;
		} else {
			ok = pearl_sched_apply(sched, b, &a) == pearl_stat_ok;
			if (!ok)
				remember_refusal(refusals, sched, b, id);
		}
		trace->seconds_legality += pearl_now() - t0;
		if (ok)
			break;
		pearl_ctx_clear_error(ctx);
		step->n_illegal++;
	}
	if (refusals && !marks_only(id))
		refusals->n = 0; /* the loops or the order changed */
	mask[id] = 0; /* as it was when id was chosen */
	if (observe(opts, ctx, *graph, mask, step) != pearl_stat_ok)
		return pearl_stat_error;
	*graph = pearl_graph_free(*graph); /* the schedule changed */
	pearl_branch_state_applied(state, id);
	return pearl_stat_ok;
}

/* The policy's episode, one decision after the other (greedy or
 * sampled). */
static pearl_stat agent_run_episode(pearl_sched *sched,
				    const pearl_policy *policy,
				    const struct pearl_agent_options *opts,
				    struct pearl_agent_trace *trace)
{
	double start = pearl_now();
	uint64_t rng = opts->seed;
	struct pearl_graph *graph = NULL;
	struct refusals refusals = { NULL, 0, 0 };
	pearl_policy_cache *cache;
	int b, cap = 0, n_branch, total = 0;
	pearl_stat stat = pearl_stat_ok;
	int explain = pearl_sched_get_explain(sched);

	memset(trace, 0, sizeof(*trace));
	n_branch = pearl_sched_n_branch(sched);
	if (n_branch < 0)
		return pearl_stat_error;
	/* Consecutive decisions see graphs that differ in a few nodes. */
	cache = pearl_policy_cache_alloc();
	if (!cache)
		return pearl_ctx_error(pearl_program_get_ctx(
					   pearl_sched_get_program(sched)),
				       "out of memory");
	/* Refusals are not reported: skip describing violations. */
	pearl_sched_set_explain(sched, 0);
	trace->n_branches = n_branch;
	for (b = 0; b < n_branch && stat == pearl_stat_ok; ++b) {
		struct pearl_branch_state state;
		int steps = 0;

		agent_branch_state_init(&state, opts);
		for (;;) {
			struct pearl_agent_step step;
			int forced = steps >= opts->max_branch_steps ||
				     total >= opts->max_steps;

			stat = decide(sched, policy, cache, &refusals, b,
				      &state, forced, opts, &rng, trace,
				      &graph, &step);
			if (stat != pearl_stat_ok)
				break;
			trace->n_illegal += step.n_illegal;
			if (add_step(trace, &step, &cap) < 0) {
				stat = pearl_ctx_error(
				    pearl_program_get_ctx(
					pearl_sched_get_program(sched)),
				    "out of memory");
				break;
			}
			if (step.action == PEARL_ACTION_NEXT)
				break;
			++steps;
			++total;
		}
	}
	free(refusals.r);
	pearl_graph_free(graph);
	pearl_policy_cache_free(cache);
	pearl_sched_set_explain(sched, explain);
	trace->seconds = pearl_now() - start;
	return stat;
}

pearl_stat pearl_agent_run(pearl_sched *sched, const pearl_policy *policy,
			   const struct pearl_agent_options *opts,
			   struct pearl_agent_trace *trace)
{
	pearl_sched *initial = NULL;
	pearl_stat stat;
	double start;
	int explain;

	if (opts->uniform_parallel || opts->fill_parallel) {
		initial = pearl_sched_copy(sched);
		if (!initial) {
			memset(trace, 0, sizeof(*trace));
			return pearl_ctx_error(pearl_program_get_ctx(
						   pearl_sched_get_program(sched)),
					       "out of memory");
		}
	}
	stat = opts->critic ? agent_run_beam(sched, policy, opts, trace)
			    : agent_run_episode(sched, policy, opts, trace);
	if (stat == pearl_stat_ok && initial) {
		start = pearl_now();
		explain = pearl_sched_get_explain(sched);
		pearl_sched_set_explain(sched, 0);
		pearl_sched_set_explain(initial, 0);
		stat = agent_parallel_rules(initial, sched, opts, trace);
		pearl_sched_set_explain(sched, explain);
		trace->seconds_legality += pearl_now() - start;
		trace->seconds += pearl_now() - start;
	}
	pearl_sched_free(initial);
	return stat;
}

int pearl_agent_trace_actions(const struct pearl_agent_trace *trace,
			      struct pearl_action **actions)
{
	int i, n = 0, pending_next = 0;

	*actions = malloc((trace->n_steps + 1) * sizeof(**actions));
	if (!*actions)
		return -1;
	for (i = 0; i < trace->n_steps; ++i) {
		const struct pearl_agent_step *s = &trace->steps[i];

		if (s->action == PEARL_ACTION_NEXT) {
			++pending_next;
			continue;
		}
		/* N only between branches that are followed by an action. */
		for (; pending_next > 0; --pending_next)
			pearl_action_space_decode(PEARL_ACTION_NEXT,
						  &(*actions)[n++]);
		pearl_action_space_decode(s->action, &(*actions)[n++]);
	}
	return n;
}

char *pearl_agent_schedule(pearl_sched *sched, const pearl_policy *policy,
			   const struct pearl_agent_options *opts)
{
	pearl_ctx *ctx = pearl_program_get_ctx(pearl_sched_get_program(sched));
	struct pearl_agent_trace trace;
	struct pearl_action *acts = NULL;
	pearl_str out = PEARL_STR_INIT;
	char *text = NULL;
	int n;

	if (pearl_agent_run(sched, policy, opts, &trace) != pearl_stat_ok) {
		pearl_agent_trace_clear(&trace);
		return NULL;
	}
	n = pearl_agent_trace_actions(&trace, &acts);
	pearl_agent_trace_clear(&trace);
	if (n >= 0) {
		pearl_actions_format(&out, acts, n);
		text = pearl_str_take(&out);
	}
	free(acts);
	if (!text)
		pearl_ctx_error(ctx, "out of memory");
	return text;
}
