/* Delta debugging of a failing schedule (fuzz.h, fuzz_minimize).
 *
 * Two steps, repeated until neither changes anything or the budget of
 * tests runs out:
 *   drop      runs of actions, halving the run length down to one action
 *             (ddmin's complements, in order);
 *   simplify  each action in turn: a 3-d tiling becomes a 2-d one, a skew
 *             with factors the solver's, levels go down towards 0, tile
 *             sizes towards 1, unroll factors towards 2, skew factors
 *             towards (1, 0) and positive signs.
 * A candidate is accepted when still_fails says it fails; every candidate
 * is strictly simpler than the schedule it comes from (fewer actions, or
 * one action of lower cost), so the process ends even without a budget.
 * The empty schedule is never tried: it is the unscheduled program, the
 * reference itself. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

char *fuzz_actions_str(const struct pearl_action *acts, int n)
{
	pearl_str s = PEARL_STR_INIT;
	char *text;

	pearl_actions_format(&s, acts, n);
	text = pearl_str_take(&s);
	return text;
}

struct minimizer {
	fuzz_still_fails_fn still_fails;
	void *user;
	int max_tests;
	int tests;
	int stopped;
	struct pearl_action *cur; /* the current failing schedule */
	int n;
	struct pearl_action *cand; /* room for a candidate (n actions) */
};

/* Tests cand[0..k-1]; if it fails, it becomes the current schedule.
 * Returns 1 if accepted. */
static int try_candidate(struct minimizer *m, int k)
{
	int r;

	if (m->stopped || k == 0)
		return 0;
	if (m->tests >= m->max_tests) {
		m->stopped = 1;
		return 0;
	}
	m->tests++;
	r = m->still_fails(m->cand, k, m->user);
	if (r < 0) {
		m->stopped = 1;
		return 0;
	}
	if (r == 0)
		return 0;
	memcpy(m->cur, m->cand, (size_t)k * sizeof(*m->cur));
	m->n = k;
	return 1;
}

/* Drops runs of `len` actions, from the front; 1 if any was dropped. */
static int drop_runs_of(struct minimizer *m, int len)
{
	int i = 0, k, changed = 0;

	while (i < m->n && !m->stopped) {
		int end = i + len < m->n ? i + len : m->n;

		memcpy(m->cand, m->cur, (size_t)i * sizeof(*m->cand));
		memcpy(m->cand + i, m->cur + end,
		       (size_t)(m->n - end) * sizeof(*m->cand));
		k = m->n - (end - i);
		if (try_candidate(m, k))
			changed = 1;
		else
			i = end;
	}
	return changed;
}

/* The drop step; 1 if any action went. */
static int drop_step(struct minimizer *m)
{
	int len, changed = 0;

	for (len = m->n / 2; len >= 1; len /= 2)
		changed |= drop_runs_of(m, len);
	return changed;
}

/* How far v is from the simplest value `target`. */
static long distance(int v, int target)
{
	long d = (long)v - target;

	return d < 0 ? -d : d;
}

/* The cost of a skew's factors: 0 for the solver's, else their size and
 * signs. */
static long skew_cost(const struct pearl_action *a)
{
	if (a->factor[0] == 0 && a->factor[1] == 0)
		return 0;
	return 1 + distance(a->factor[0], 0) + distance(a->factor[1], 0) +
	       (a->factor[0] < 0) + (a->factor[1] < 0);
}

/* How complex an action is: a candidate must cost less than its origin. */
static long action_cost(const struct pearl_action *a)
{
	long c = 0;
	int i;

	for (i = 0; i < a->n_level; ++i)
		c += distance(a->level[i], 0);
	switch (a->kind) {
	case pearl_action_tile:
		c += 100000000L * a->n_level;
		for (i = 0; i < a->n_level; ++i)
			c += distance(a->size[i], 1);
		break;
	case pearl_action_skew:
		c += skew_cost(a);
		break;
	case pearl_action_unroll:
		c += distance(a->factor[0], 2);
		break;
	default:
		break;
	}
	return c;
}

/* Values to try instead of v, simplest first: the target, its neighbour,
 * halfway, one step closer, and -v for a negative v. Returns how many. */
static int closer_values(int v, int target, int *out)
{
	int n = 0;

	out[n++] = target;
	out[n++] = target + 1;
	out[n++] = target + (v - target) / 2;
	out[n++] = v > target ? v - 1 : v + 1;
	if (v < 0)
		out[n++] = -v;
	return n;
}

/* Appends `a` to out[*n] if it is simpler than `orig`. */
static void add_if_simpler(const struct pearl_action *orig,
			   const struct pearl_action *a,
			   struct pearl_action *out, int *n, int max)
{
	if (*n < max && action_cost(a) < action_cost(orig))
		out[(*n)++] = *a;
}

/* Variants of a with its consecutive levels shifted to start lower. */
static void lower_levels(const struct pearl_action *a,
			 struct pearl_action *out, int *n, int max)
{
	struct pearl_action v;
	int vals[5], k, i, j, consecutive;

	consecutive = a->kind == pearl_action_tile ||
		      a->kind == pearl_action_skew;
	for (i = 0; i < a->n_level; ++i) {
		if (consecutive && i > 0)
			break;
		k = closer_values(a->level[i], 0, vals);
		for (j = 0; j < k; ++j) {
			int shift = vals[j] - a->level[i], l;

			v = *a;
			if (consecutive)
				for (l = 0; l < v.n_level; ++l)
					v.level[l] += shift;
			else
				v.level[i] = vals[j];
			add_if_simpler(a, &v, out, n, max);
		}
	}
}

/* Variants of a tiling: 2-d from 3-d (either pair), smaller sizes. */
static void simpler_tiles(const struct pearl_action *a,
			  struct pearl_action *out, int *n, int max)
{
	struct pearl_action v;
	int vals[5], k, i, j;

	if (a->n_level == 3) {
		v = *a;
		v.n_level = 2;
		v.size[2] = 0;
		add_if_simpler(a, &v, out, n, max);
		v = *a;
		v.n_level = 2;
		v.level[0] = a->level[1];
		v.level[1] = a->level[2];
		v.size[0] = a->size[1];
		v.size[1] = a->size[2];
		v.level[2] = v.size[2] = 0;
		add_if_simpler(a, &v, out, n, max);
	}
	for (i = 0; i < a->n_level; ++i) {
		k = closer_values(a->size[i], 1, vals);
		for (j = 0; j < k; ++j) {
			v = *a;
			v.size[i] = vals[j];
			add_if_simpler(a, &v, out, n, max);
		}
	}
}

/* Variants of a skew: the solver's factors, then simpler explicit ones. */
static void simpler_skews(const struct pearl_action *a,
			  struct pearl_action *out, int *n, int max)
{
	static const int simple[][2] = { { 1, 0 }, { 0, 1 }, { 1, 1 },
					 { 1, -1 }, { -1, 1 } };
	struct pearl_action v;
	int vals[5], k, i, j;

	v = *a;
	v.factor[0] = v.factor[1] = 0;
	add_if_simpler(a, &v, out, n, max);
	for (i = 0; i < 5; ++i) {
		v = *a;
		v.factor[0] = simple[i][0];
		v.factor[1] = simple[i][1];
		add_if_simpler(a, &v, out, n, max);
	}
	for (i = 0; i < 2; ++i) {
		k = closer_values(a->factor[i], 0, vals);
		for (j = 0; j < k; ++j) {
			v = *a;
			v.factor[i] = vals[j];
			add_if_simpler(a, &v, out, n, max);
		}
	}
}

/* Variants of an unrolling: smaller factors, towards 2. */
static void simpler_unrolls(const struct pearl_action *a,
			    struct pearl_action *out, int *n, int max)
{
	struct pearl_action v;
	int vals[5], k, j;

	k = closer_values(a->factor[0], 2, vals);
	for (j = 0; j < k; ++j) {
		v = *a;
		v.factor[0] = vals[j];
		add_if_simpler(a, &v, out, n, max);
	}
}

#define MAX_VARIANTS 48

/* The simpler variants of a, structural changes first. */
static int simpler_variants(const struct pearl_action *a,
			    struct pearl_action *out)
{
	int n = 0;

	if (a->kind == pearl_action_tile)
		simpler_tiles(a, out, &n, MAX_VARIANTS);
	if (a->kind == pearl_action_skew)
		simpler_skews(a, out, &n, MAX_VARIANTS);
	if (a->kind == pearl_action_unroll)
		simpler_unrolls(a, out, &n, MAX_VARIANTS);
	lower_levels(a, out, &n, MAX_VARIANTS);
	return n;
}

/* Simplifies action i as far as it goes; 1 if it changed. */
static int simplify_action(struct minimizer *m, int i)
{
	struct pearl_action variants[MAX_VARIANTS];
	int k, j, changed = 0, accepted = 1;

	while (accepted && !m->stopped) {
		accepted = 0;
		k = simpler_variants(&m->cur[i], variants);
		for (j = 0; j < k && !accepted; ++j) {
			memcpy(m->cand, m->cur, (size_t)m->n * sizeof(*m->cand));
			m->cand[i] = variants[j];
			accepted = try_candidate(m, m->n);
		}
		changed |= accepted;
	}
	return changed;
}

/* The simplify step; 1 if any action changed. */
static int simplify_step(struct minimizer *m)
{
	int i, changed = 0;

	for (i = 0; i < m->n && !m->stopped; ++i)
		changed |= simplify_action(m, i);
	return changed;
}

int fuzz_minimize(const struct pearl_action *acts, int n,
		  fuzz_still_fails_fn still_fails, void *user, int max_tests,
		  struct fuzz_min_result *res)
{
	struct minimizer m = { .still_fails = still_fails,
			       .user = user,
			       .max_tests = max_tests,
			       .n = n };
	int changed = 1;

	memset(res, 0, sizeof(*res));
	m.cur = malloc((size_t)(n > 0 ? n : 1) * sizeof(*m.cur));
	m.cand = malloc((size_t)(n > 0 ? n : 1) * sizeof(*m.cand));
	if (!m.cur || !m.cand) {
		free(m.cur);
		free(m.cand);
		return -1;
	}
	memcpy(m.cur, acts, (size_t)n * sizeof(*m.cur));
	while (changed && !m.stopped) {
		changed = drop_step(&m);
		changed |= simplify_step(&m);
	}
	free(m.cand);
	res->acts = m.cur;
	res->n = m.n;
	res->tests = m.tests;
	res->stopped = m.stopped;
	return 0;
}
