/* The agent's rules of parallelism after the episode (pearl/agent.h,
 * uniform_parallel.h): parallel fill, then uniform parallelism.
 *
 * Parallel fill: each branch with no parallel loop gets P on its
 * outermost loop that the action space has, the work mask allows, holds
 * no other branch's parallel loop and the dependences permit (the first
 * that applies), branch by branch; a P on a loop that other branches
 * share makes them parallel too. A loop around another branch's parallel
 * loop stays sequential: PolyBench's syrk and syr2k at LARGE, where the
 * policy runs the update's j loop in parallel inside the rows, ran at 0.7
 * times the speed with the rows (a triangle) in parallel instead. The
 * changed episode is replayed from the schedule before it, as below.
 *
 * Uniform parallelism. Why: inside a time loop, a nest that runs in parallel
 * leaves its data in the caches of all threads, and a serial nest beside it
 * reads it from the other cores' caches, every step. On a 2-core machine,
 * PolyBench's fdtd-2d at MEDIUM (pearl-env, three repetitions each) ran at
 * 0.40-0.53x of the original with only its last stencil nest in parallel, at
 * 0.84-1.00x with none and at 1.5x with all three over their rows. Spinning
 * workers (KMP_BLOCKTIME=infinite, OMP_WAIT_POLICY=active) did not change the
 * mixed cases much. Parallel nests that split their rows differently cost less:
 * all three in parallel, one of them by tiles of 32 rows, 0.80-0.96x.
 *
 * What: a sequential loop L (no loop around it runs in parallel) mixes if
 * among the branches through it that do enough work below it (one
 * execution of their loops below L runs at least min_parallel_work
 * innermost iterations) some run a loop below L in parallel and some
 * none. For the outermost L that mixes, the rule tries to parallelize the
 * serial branches (P on their loops below L, outermost first, that the
 * action space has and the work mask allows; the dependences decide). If
 * that leaves none serial and every parallel branch splits its loop among
 * the threads alike (same_split), it keeps that; otherwise it removes P
 * from L's parallel branches instead, and L runs its nests serially. A
 * loop whose branches the policy ran all in parallel is left as it is,
 * split alike or not (on generated sweep programs, the policy's parallel
 * nests over different dimensions beat running them serially). The
 * changed episode is replayed from the schedule before it (an added P
 * goes before the branch's unrolling, vectorization and copies, as the
 * order rules want), and the next loop that mixes is taken, until none
 * does.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "uniform_parallel.h"
#include "pearl/features.h"
#include "pearl/grow.h"
#include "pearl/loop_tree.h"

/* Loops that mix: a bound on the rule's rounds. */
#define MAX_ROUNDS 16
/* Loops of a branch the rule looks at (a deeper branch is left alone). */
#define MAX_LOOPS 64

/* One branch of the schedule: its loops (tree nodes, outermost first),
 * their extents (-1: symbolic) and the level of its outermost parallel
 * loop (-1: none). */
struct branch {
	int n;
	int loop[MAX_LOOPS];
	long extent[MAX_LOOPS];
	int first_parallel;
};

/* What a branch is to the loop find_mixing_loop found. */
enum role { role_none = 0, role_parallel, role_serial };

/* The branches of `sched` (kept) into br[0..n) (n: its branch count; a
 * branch of more than MAX_LOOPS loops gets none), with extents from
 * `graph` (kept; NULL: extents unknown), which is the graph of `sched` or
 * of a schedule with the same loop tree but for parallel marks. Returns
 * 0; 1 if the loop tree is not the graph's; -1 if it cannot be built
 * (error in the context). */
static int read_branches(pearl_sched *sched, const struct pearl_graph *graph,
			 struct branch *br, int n)
{
	pearl_loop_tree *tree = pearl_sched_peek_loop_tree(sched);
	int k;

	if (!tree)
		return -1;
	if (graph && graph->n_nodes != tree->n_nodes)
		return 1;
	for (k = 0; k < n; ++k) {
		struct branch *b = &br[k];
		const float *row[MAX_LOOPS];
		int j, m = pearl_sched_branch_loops(sched, k, b->loop,
						    MAX_LOOPS);

		b->first_parallel = -1;
		b->n = m > 0 ? m : 0;
		for (j = 0; graph && j < b->n; ++j)
			row[j] = graph->x +
				 (size_t)b->loop[j] * graph->n_features;
		if (graph)
			agent_loop_extents(row, b->n, b->extent);
		for (j = 0; j < b->n; ++j) {
			const struct pearl_tree_node *node =
			    &tree->nodes[b->loop[j]];

			if (!graph)
				b->extent[j] = -1;
			if (b->first_parallel >= 0 ||
			    isl_schedule_node_band_member_get_coincident(
				node->band, node->member) != isl_bool_true)
				continue;
			b->first_parallel = j;
		}
	}
	return 0;
}

/* Reports exhausted memory in the context of `sched`'s program. */
static void no_memory(pearl_sched *sched)
{
	pearl_ctx_error(pearl_program_get_ctx(pearl_sched_get_program(sched)),
			"out of memory");
}

/* Whether branch `b` does enough work below level `d`: it has loops
 * there, and one execution of loop d + 1 is not too little work. */
static int enough_work_below(const struct branch *b, int d, long min)
{
	return b->n > d + 1 &&
	       !agent_too_little_work(b->extent, b->n, d + 1, min);
}

/* Whether the parallel loops of branches a and b (both with one) split
 * their iterations alike among 2 or 4 threads. OpenMP's static schedule
 * gives thread k of T the iterations from ceil(k n / T) of a loop of n
 * (each a row, or a tile of rows for a tile loop); the splits are alike
 * if every such fraction ceil(k n / T) / n is within 5% for both loops
 * (unknown extents: alike). Tiles of 32 rows of 200 split at row 128,
 * rows at 100: not alike; rows unrolled and jammed by 4 split at 100. */
static int same_split(const struct branch *a, const struct branch *b)
{
	long na = a->extent[a->first_parallel];
	long nb = b->extent[b->first_parallel];
	int t, k;

	if (na <= 0 || nb <= 0)
		return 1;
	for (t = 2; t <= 4; t += 2)
		for (k = 1; k < t; ++k) {
			double fa = (double)((k * na + t - 1) / t) / na;
			double fb = (double)((k * nb + t - 1) / t) / nb;

			if (fabs(fa - fb) > 0.05)
				return 0;
		}
	return 1;
}

/* The outermost loop (tree node) that mixes parallel and serial branches
 * (and, if `split`, also the one whose parallel branches split their
 * loops differently, same_split), with the role of each branch under it
 * in role[0..n); -1 if there is none. */
static int find_mixing_loop(pearl_loop_tree *tree,
				const struct branch *br, int n, long min,
				int split, enum role *role)
{
	int node, b;

	for (node = 1; node < tree->n_nodes; ++node) {
		int d = tree->nodes[node].depth, n_ser = 0, first = -1;
		int alike = 1;

		if (tree->nodes[node].kind != pearl_node_loop)
			continue;
		for (b = 0; b < n; ++b) {
			role[b] = role_none;
			if (br[b].n <= d || br[b].loop[d] != node)
				continue;
			/* L or a loop around it parallel: one thread runs
			 * all of it */
			if (br[b].first_parallel >= 0 &&
			    br[b].first_parallel <= d)
				break;
			if (!enough_work_below(&br[b], d, min))
				continue;
			if (br[b].first_parallel < 0) {
				role[b] = role_serial;
				++n_ser;
				continue;
			}
			role[b] = role_parallel;
			if (first < 0)
				first = b;
			else if (split)
				alike &= same_split(&br[first], &br[b]);
		}
		if (b == n && first >= 0 && (n_ser > 0 || !alike))
			return node;
	}
	return -1;
}

/* The episode's steps being rewritten. */
struct episode {
	struct pearl_agent_step *steps; /* owned */
	int n, cap;
};

static void episode_clear(struct episode *e)
{
	free(e->steps);
	memset(e, 0, sizeof(*e));
}

/* A copy of steps[0..n) into *e (steps may be NULL if n is 0: an
 * episode with no step, which the rule of parallel fill sees on a single
 * branch); -1 if memory is exhausted. */
static int episode_init(struct episode *e,
			const struct pearl_agent_step *steps, int n)
{
	e->cap = n + 1;
	e->n = n;
	e->steps = malloc(e->cap * sizeof(*e->steps));
	if (!e->steps)
		return -1;
	if (n > 0)
		memcpy(e->steps, steps, n * sizeof(*e->steps));
	return 0;
}

static int episode_from_trace(struct episode *e,
			      const struct pearl_agent_trace *trace)
{
	return episode_init(e, trace->steps, trace->n_steps);
}

static int episode_copy(struct episode *e, const struct episode *from)
{
	return episode_init(e, from->steps, from->n);
}

/* Inserts action `id` of rule `rule` (a pearl_agent_rule) on branch b
 * before the branch's first step of the unrolling phase or later (its N
 * at the latest; after its last step if it has none). Returns 0, or -1 if
 * memory is exhausted. */
static int episode_insert(struct episode *e, int b, int id, int rule)
{
	struct pearl_agent_step step = { 0 };
	int i;

	for (i = 0; i < e->n; ++i)
		if (e->steps[i].branch == b &&
		    (e->steps[i].action == PEARL_ACTION_NEXT ||
		     pearl_action_space_phase(e->steps[i].action) >
			 pearl_phase_parallel))
			break;
	if (pearl_grow(&e->steps, &e->cap, e->n + 1, sizeof(*e->steps)) < 0)
		return -1;
	memmove(e->steps + i + 1, e->steps + i,
		(e->n - i) * sizeof(*e->steps));
	step.branch = b;
	step.action = id;
	step.prob = 1;
	step.rule = rule;
	e->steps[i] = step;
	e->n++;
	return 0;
}

/* Removes the P steps of the branches whose role is role_parallel;
 * returns how many of them the policy chose (not a rule). */
static int episode_drop_parallel(struct episode *e, const enum role *role)
{
	int i, k = 0, dropped = 0;

	for (i = 0; i < e->n; ++i) {
		const struct pearl_agent_step *s = &e->steps[i];

		if (s->action != PEARL_ACTION_NEXT &&
		    pearl_action_space_phase(s->action) ==
			pearl_phase_parallel &&
		    role[s->branch] == role_parallel) {
			dropped += s->rule == pearl_agent_rule_none;
			continue;
		}
		e->steps[k++] = *s;
	}
	e->n = k;
	return dropped;
}

/* The schedule `initial` (kept) with the episode's actions applied (a
 * new schedule), or NULL if one of them is refused (the error is
 * cleared), a step's branch is not the one its N steps lead to, or on
 * error (*failed set, message in the context). */
static pearl_sched *replay(pearl_sched *initial, const struct episode *e,
			   int *failed)
{
	pearl_ctx *ctx =
	    pearl_program_get_ctx(pearl_sched_get_program(initial));
	pearl_sched *s = pearl_sched_copy(initial);
	int i, b = 0;

	if (!s) {
		*failed = 1;
		pearl_ctx_error(ctx, "out of memory");
		return NULL;
	}
	for (i = 0; i < e->n; ++i) {
		struct pearl_action a;

		/* the episode's notation counts branches by its N */
		if (e->steps[i].branch != b)
			return pearl_sched_free(s);
		if (e->steps[i].action == PEARL_ACTION_NEXT) {
			++b;
			continue;
		}
		pearl_action_space_decode(e->steps[i].action, &a);
		if (pearl_sched_apply(s, b, &a) != pearl_stat_ok) {
			pearl_ctx_clear_error(ctx);
			return pearl_sched_free(s);
		}
	}
	return s;
}

/* Whether loop `l` of branch b holds a parallel loop of another branch
 * of br[0..n) (that loop is shared with it). */
static int holds_parallel_loop(const struct branch *br, int n, int b, int l)
{
	int c;

	for (c = 0; c < n; ++c)
		if (c != b && br[c].n > l && br[c].loop[l] == br[b].loop[l] &&
		    br[c].first_parallel > l)
			return 1;
	return 0;
}

/* Tries P on the loops of branch b of `work` (br[0..n) are its branches)
 * from level `first` on, outermost first: the first that the action space
 * has, the work mask allows, holds no other branch's parallel loop
 * (unless `around_parallel`) and the dependences permit is applied to
 * `work` and inserted into `e` as a step of rule `rule`. Returns 1 if one
 * was, 0 if none, -1 if memory is exhausted (message in the context). */
static int parallelize_branch(pearl_sched *work, const struct branch *br,
			      int n, int b, int first, long min,
			      int around_parallel, int rule, struct episode *e)
{
	pearl_ctx *ctx = pearl_program_get_ctx(pearl_sched_get_program(work));
	int l;

	for (l = first; l < br[b].n; ++l) {
		struct pearl_action a = { .kind = pearl_action_parallel,
					  .level = { l },
					  .n_level = 1 };
		int id = pearl_action_space_encode(&a);

		if (id < 0 ||
		    agent_too_little_work(br[b].extent, br[b].n, l, min) ||
		    (!around_parallel && holds_parallel_loop(br, n, b, l)))
			continue;
		if (pearl_sched_apply(work, b, &a) != pearl_stat_ok) {
			pearl_ctx_clear_error(ctx);
			continue;
		}
		if (episode_insert(e, b, id, rule) < 0) {
			no_memory(work);
			return -1;
		}
		return 1;
	}
	return 0;
}

/* Tries to parallelize the serial branches (role_serial in role[0..n),
 * which it changes) under the loop `node` at depth d of `sched` (kept;
 * `graph` is its graph), on a copy: for each, P on its loops below d that
 * the action space has and the work mask allows, outermost first. Adds
 * the P it applied to `e`. Returns 1 if that leaves no branch under
 * `node` serial and all split alike, 0 if not, -1 on error. */
static int parallelize_serial(pearl_sched *sched,
			      const struct pearl_graph *graph, int node,
			      int d, const struct branch *br0, int n, long min,
			      enum role *role, struct episode *e)
{
	pearl_sched *work = pearl_sched_copy(sched);
	struct branch *br = malloc(n * sizeof(*br));
	unsigned char *tried = calloc(n, 1);
	int b, r, rc = -1;

	if (!work || !br || !tried) {
		no_memory(sched);
		goto out;
	}
	memcpy(br, br0, n * sizeof(*br));
	for (;;) {
		pearl_loop_tree *tree;

		for (b = 0; b < n; ++b)
			if (role[b] == role_serial && !tried[b])
				break;
		if (b == n) {
			rc = 0; /* serial ones are left */
			break;
		}
		tried[b] = 1;
		if (parallelize_branch(work, br, n, b, d + 1, min, 1,
				       pearl_agent_rule_uniform, e) < 0)
			goto out;
		/* the other branches of a nest it parallelized are no
		 * longer serial either */
		r = read_branches(work, graph, br, n);
		if (r != 0) {
			rc = r < 0 ? -1 : 0;
			break;
		}
		tree = pearl_sched_peek_loop_tree(work);
		if (find_mixing_loop(tree, br, n, min, 0, role) != node) {
			/* no serial branch left: the splits must be alike */
			rc = find_mixing_loop(tree, br, n, min, 1, role) !=
			     node;
			break;
		}
	}
out:
	free(tried);
	free(br);
	pearl_sched_free(work);
	return rc;
}

/* One round: makes the outermost loop of `sched` that mixes (kept; its
 * state replaced by the new schedule's) uniform, with the episode `e`
 * (rewritten). Returns 1 if it did, 0 if no loop mixes or the changed
 * episode does not replay or still mixes there, -1 on error. */
static int uniform_round(pearl_sched *initial, pearl_sched *sched,
			 struct episode *e, long min, int n,
			 struct pearl_agent_trace *trace)
{
	struct branch *br = malloc(n * sizeof(*br));
	enum role *role = malloc(n * sizeof(*role));
	struct pearl_graph *graph = NULL;
	struct episode changed = { 0 };
	pearl_sched *fresh = NULL;
	pearl_loop_tree *tree;
	int node, r, rc = -1, failed = 0, dropped = 0;

	if (!br || !role) {
		no_memory(sched);
		goto out;
	}
	/* most schedules: no loop mixes even when every branch counts as
	 * enough work (extents unknown), and no graph to build */
	if (read_branches(sched, NULL, br, n) < 0)
		goto out;
	tree = pearl_sched_peek_loop_tree(sched);
	rc = 0;
	if (find_mixing_loop(tree, br, n, min, 0, role) < 0)
		goto out;
	rc = -1;
	graph = pearl_graph_build(sched, 0);
	if (!graph || read_branches(sched, graph, br, n) != 0)
		goto out;
	node = find_mixing_loop(tree, br, n, min, 0, role);
	rc = 0;
	if (node < 0)
		goto out;
	rc = -1;
	if (episode_copy(&changed, e) < 0) {
		no_memory(sched);
		goto out;
	}
	r = parallelize_serial(sched, graph, node, tree->nodes[node].depth,
			       br, n, min, role, &changed);
	if (r < 0)
		goto out;
	if (!r) {
		/* not uniform with all parallel: all serial */
		episode_clear(&changed);
		if (episode_copy(&changed, e) < 0) {
			no_memory(sched);
			goto out;
		}
		find_mixing_loop(tree, br, n, min, 0, role);
		dropped = episode_drop_parallel(&changed, role);
	}
	fresh = replay(initial, &changed, &failed);
	if (failed)
		goto out;
	rc = 0;
	if (!fresh)
		goto out;
	/* the loop must be uniform now (if the replay differs, stop) */
	r = read_branches(fresh, graph, br, n);
	if (r != 0) {
		rc = r < 0 ? -1 : 0;
		goto out;
	}
	if (find_mixing_loop(pearl_sched_peek_loop_tree(fresh), br, n,
				 min, 0, role) == node)
		goto out;
	pearl_sched_swap(sched, fresh);
	episode_clear(e);
	*e = changed;
	changed = (struct episode){ 0 };
	trace->n_uniform_dropped += dropped;
	trace->n_uniform_loops++;
	rc = 1;
out:
	pearl_sched_free(fresh);
	pearl_graph_free(graph);
	episode_clear(&changed);
	free(role);
	free(br);
	return rc;
}

/* The rule of parallel fill (pearl/agent.h): P on the outermost loop of
 * each serial branch of `sched` (kept; its state replaced by the new
 * schedule's) that the action space has, the work mask allows, holds no
 * parallel loop of another branch and the dependences permit, with the
 * episode `e` (rewritten) replayed from `initial`. Returns 1 if it added
 * one, 0 if not (none allowed, or the changed episode does not replay),
 * -1 on error. */
static int fill_serial_branches(pearl_sched *initial, pearl_sched *sched,
				struct episode *e, long min, int n)
{
	struct branch *br = malloc(n * sizeof(*br));
	struct pearl_graph *graph = NULL;
	struct episode changed = { 0 };
	pearl_sched *work = NULL, *fresh = NULL;
	int b, r, rc = -1, failed = 0, added = 0, serial = 0, stale = 1;

	if (!br) {
		no_memory(sched);
		goto out;
	}
	if (read_branches(sched, NULL, br, n) < 0)
		goto out;
	for (b = 0; b < n; ++b)
		serial |= br[b].n > 0 && br[b].first_parallel < 0;
	rc = 0;
	if (!serial)
		goto out; /* most schedules: no graph to build */
	rc = -1;
	graph = pearl_graph_build(sched, 0);
	if (!graph)
		goto out;
	work = pearl_sched_copy(sched);
	if (!work || episode_copy(&changed, e) < 0) {
		no_memory(sched);
		goto out;
	}
	for (b = 0; b < n; ++b) {
		/* a P added on a loop this branch shares counts (read
		 * again from `work`) */
		r = stale ? read_branches(work, graph, br, n) : 0;
		if (r != 0) {
			rc = r < 0 ? -1 : 0;
			goto out;
		}
		stale = 0;
		if (br[b].first_parallel >= 0)
			continue;
		r = parallelize_branch(work, br, n, b, 0, min, 0,
				       pearl_agent_rule_fill, &changed);
		if (r < 0)
			goto out;
		added += r;
		stale = r;
	}
	rc = 0;
	if (!added)
		goto out;
	rc = -1;
	fresh = replay(initial, &changed, &failed);
	if (failed)
		goto out;
	rc = 0;
	if (!fresh)
		goto out; /* the changed episode does not replay: kept */
	pearl_sched_swap(sched, fresh);
	episode_clear(e);
	*e = changed;
	changed = (struct episode){ 0 };
	rc = 1;
out:
	pearl_sched_free(fresh);
	pearl_sched_free(work);
	pearl_graph_free(graph);
	episode_clear(&changed);
	free(br);
	return rc;
}

/* The rules' steps of trace's episode counted in trace. */
static void count_rule_steps(struct pearl_agent_trace *trace)
{
	int i;

	trace->n_uniform_added = 0;
	trace->n_fill_added = 0;
	for (i = 0; i < trace->n_steps; ++i) {
		trace->n_uniform_added +=
		    trace->steps[i].rule == pearl_agent_rule_uniform;
		trace->n_fill_added +=
		    trace->steps[i].rule == pearl_agent_rule_fill;
	}
}

pearl_stat agent_parallel_rules(pearl_sched *initial, pearl_sched *sched,
				const struct pearl_agent_options *opts,
				struct pearl_agent_trace *trace)
{
	pearl_ctx *ctx = pearl_program_get_ctx(pearl_sched_get_program(sched));
	struct episode e = { 0 };
	long min = opts->min_parallel_work;
	int n = pearl_sched_n_branch(sched), round, r = 0, changed = 0;
	int uniform = opts->uniform_parallel && n >= 2;

	if (n < 0)
		return pearl_stat_error;
	if (!opts->fill_parallel && !uniform)
		return pearl_stat_ok;
	if (episode_from_trace(&e, trace) < 0)
		return pearl_ctx_error(ctx, "out of memory");
	if (opts->fill_parallel) {
		r = fill_serial_branches(initial, sched, &e, min, n);
		changed = r == 1;
	}
	for (round = 0; uniform && r >= 0 && round < MAX_ROUNDS; ++round) {
		r = uniform_round(initial, sched, &e, min, n, trace);
		if (r != 1)
			break;
		changed = 1;
	}
	if (r >= 0 && changed) {
		free(trace->steps);
		trace->steps = e.steps;
		trace->n_steps = e.n;
		e.steps = NULL;
		count_rule_steps(trace);
	}
	episode_clear(&e);
	return r < 0 ? pearl_stat_error : pearl_stat_ok;
}
