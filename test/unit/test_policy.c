/* The policy network: blobs, random initialization, the forward pass and
 * the graph's text format (no isl, no MLIR). */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pearl/graph.h"
#include "pearl/policy.h"

#define N_ACTIONS PEARL_N_ACTIONS

/* A small tree: root 0 -> loop 1 -> loop 2 -> statements 3, 4; features
 * pseudo-random and sparse, scaled by `scale`. */
static struct pearl_graph *make_tree(float scale)
{
	struct pearl_graph *g = pearl_graph_alloc(5, PEARL_GRAPH_N_FEATURES, 4);
	unsigned state = 12345;
	int i, j;

	if (!g)
		return NULL;
	for (i = 0; i < g->n_nodes; ++i) {
		float *row = g->x + (size_t)i * g->n_features;
		row[i == 0 ? 0 : i < 3 ? 1 : 2] = 1.0f;
		for (j = 3; j < g->n_features; ++j) {
			state = state * 1103515245u + 12345u;
			if ((state >> 16) % 10 == 0)
				row[j] = scale *
					 ((float)((state >> 8) % 2001) / 1000.0f -
					  1.0f);
		}
	}
	g->src[0] = 0, g->dst[0] = 1;
	g->src[1] = 1, g->dst[1] = 2;
	g->src[2] = 2, g->dst[2] = 3;
	g->src[3] = 2, g->dst[3] = 4;
	g->n_edges = 4;
	return g;
}

static int all_finite(const float *v, int n)
{
	int i;

	for (i = 0; i < n; ++i)
		if (!isfinite(v[i]))
			return 0;
	return 1;
}

static pearl_policy *random_policy(uint64_t seed)
{
	struct pearl_policy_config cfg = pearl_policy_default_config();
	char err[256];
	pearl_policy *p = pearl_policy_init_random(&cfg, seed, err, sizeof(err));

	if (!p)
		fprintf(stderr, "init_random: %s\n", err);
	return p;
}

static void test_config(void)
{
	struct pearl_policy_config cfg = pearl_policy_default_config(), bad;
	char err[256] = "";
	pearl_policy *p;

	CHECK(cfg.n_features == PEARL_GRAPH_N_FEATURES);
	CHECK(cfg.hidden == 128 && cfg.heads == 4 && cfg.n_layers == 2);
	CHECK(cfg.n_actions == 86);
	bad = cfg;
	bad.heads = 0;
	p = pearl_policy_init_random(&bad, 1, err, sizeof(err));
	CHECK(!p);
	CHECK_STR(err, "invalid configuration: heads = 0 (must be in 1..64)");
	CHECK(!pearl_policy_init_random(NULL, 1, err, sizeof(err)));
	CHECK(pearl_policy_free(NULL) == NULL);
}

/* A smaller network evaluates; its blob is refused by the loader, which
 * takes only the dimensions of this build. */
static void test_small_config(void)
{
	struct pearl_policy_config cfg = { 6, 8, 2, 3, 5, 0 };
	struct pearl_graph *g = pearl_graph_alloc(3, 6, 2);
	pearl_policy *p = pearl_policy_init_random(&cfg, 1, NULL, 0);
	float l[5], v;
	char err[256];
	size_t n;
	void *blob;

	CHECK(p && g);
	if (!p || !g)
		goto out;
	g->x[0] = 1.0f;
	g->x[7] = -0.5f;
	g->x[14] = 2.0f;
	g->src[0] = 0, g->dst[0] = 1;
	g->src[1] = 0, g->dst[1] = 2;
	g->n_edges = 2;
	CHECK(pearl_policy_eval(p, g, l, &v, err, sizeof(err)) == 0);
	CHECK(all_finite(l, 5) && isfinite(v));
	blob = pearl_policy_to_blob(p, &n);
	CHECK(blob && n == 40 + 4 * (size_t)(
	    /* layer 0 */ 2 * (6 * 16 + 16) + 16 + 16 + 16 * 8 + 8 +
	    /* layers 1, 2 */ 2 * (2 * (8 * 16 + 16) + 16 + 16 + 16 * 8 + 8) +
	    /* mlp */ 48 * 8 + 8 + 8 * 8 + 8 +
	    /* heads */ 2 * (8 * 8 + 8) * 2 + 8 * 5 + 5 + 8 + 1));
	CHECK(blob && !pearl_policy_from_blob(blob, n, err, sizeof(err)));
	CHECK_STR(err, "dimension mismatch: blob has n_features = 6, this "
		       "build of Pearl expects 537");
	free(blob);
out:
	pearl_policy_free(p);
	pearl_graph_free(g);
}

/* init -> blob -> load gives the same bytes and the same outputs; the
 * same seed gives the same blob, another seed another one. */
/* The policy a blob of `old` (kept) loads as, the blob's size in *n. */
static pearl_policy *reloaded(const pearl_policy *old, size_t *n)
{
	char err[256];
	void *blob = old ? pearl_policy_to_blob(old, n) : NULL;
	pearl_policy *wide = blob ? pearl_policy_from_blob(blob, *n, err,
							   sizeof(err))
				  : NULL;

	free(blob);
	return wide;
}

/* `wide` on `g` gives the logits and the value `old` gives on `g_old`, for
 * the first n_old actions, and PEARL_NEW_ACTION_BIAS for the others. */
static void check_same_choices(const pearl_policy *old,
			       const struct pearl_graph *g_old,
			       const pearl_policy *wide,
			       const struct pearl_graph *g, int n_old)
{
	float lo[N_ACTIONS], lw[N_ACTIONS], vo = 0, vw = 1;
	char err[256];
	int id, same = 1;

	if (!old || !wide || !g_old || !g ||
	    pearl_policy_eval(old, g_old, lo, &vo, err, sizeof(err)) < 0 ||
	    pearl_policy_eval(wide, g, lw, &vw, err, sizeof(err)) < 0) {
		CHECK(!"evaluated");
		return;
	}
	for (id = 0; id < n_old; ++id)
		same &= lo[id] == lw[id];
	for (; id < PEARL_N_ACTIONS; ++id)
		same &= lw[id] == PEARL_NEW_ACTION_BIAS;
	CHECK(same);
	CHECK(vo == vw);
}

/* A blob of the first 56 actions (a policy trained before the action
 * space v2) loads widened: the same logits for those, the value, and
 * PEARL_NEW_ACTION_BIAS for the new actions. */
static void test_widened_blob(void)
{
	struct pearl_policy_config cfg = pearl_policy_default_config();
	struct pearl_graph *g = make_tree(1.0f);
	pearl_policy *old, *wide;
	char err[256] = "";
	size_t n = 0;

	cfg.n_actions = PEARL_N_ACTIONS_V1;
	old = pearl_policy_init_random(&cfg, 7, err, sizeof(err));
	wide = reloaded(old, &n);
	CHECK(n == 40 + 4 * (size_t)1135801);
	CHECK(wide && pearl_policy_get_config(wide)->n_actions == 86);
	check_same_choices(old, g, wide, g, PEARL_N_ACTIONS_V1);
	pearl_policy_free(old);
	pearl_policy_free(wide);
	/* the same for a policy of the action space v2 (70 actions) */
	cfg.n_actions = PEARL_N_ACTIONS_V2;
	old = pearl_policy_init_random(&cfg, 8, err, sizeof(err));
	wide = reloaded(old, &n);
	CHECK(n == 40 + 4 * ((size_t)1135801 + 14 * 129));
	CHECK(wide && pearl_policy_get_config(wide)->n_actions == 86);
	check_same_choices(old, g, wide, g, PEARL_N_ACTIONS_V2);
	pearl_policy_free(old);
	pearl_policy_free(wide);
	pearl_graph_free(g);
}

/* A blob of the first PEARL_GRAPH_N_FEATURES_V1 features (a policy trained
 * before the memory features) loads widened: on any graph it gives the
 * logits and the value the old policy gives on the graph without those
 * features, whatever their values. */
static void test_widened_features(void)
{
	struct pearl_policy_config cfg = pearl_policy_default_config();
	struct pearl_graph *g = make_tree(1.0f), *narrow = NULL;
	pearl_policy *old, *wide;
	char err[256] = "";
	size_t n = 0;
	int i, f, any_memory = 0;

	cfg.n_features = PEARL_GRAPH_N_FEATURES_V1;
	old = pearl_policy_init_random(&cfg, 11, err, sizeof(err));
	wide = reloaded(old, &n);
	CHECK(wide && pearl_policy_get_config(wide)->n_features ==
			  PEARL_GRAPH_N_FEATURES);
	if (g)
		narrow = pearl_graph_alloc(g->n_nodes,
					   PEARL_GRAPH_N_FEATURES_V1,
					   g->n_edges);
	for (i = 0; narrow && i < g->n_nodes; ++i) {
		const float *row = g->x + (size_t)i * g->n_features;

		memcpy(narrow->x + (size_t)i * PEARL_GRAPH_N_FEATURES_V1, row,
		       PEARL_GRAPH_N_FEATURES_V1 * sizeof(float));
		for (f = PEARL_F_MEM; f < PEARL_GRAPH_N_FEATURES; ++f)
			any_memory |= row[f] != 0;
	}
	CHECK(any_memory); /* the new features are not all 0 */
	if (narrow) {
		memcpy(narrow->src, g->src, (size_t)g->n_edges * sizeof(int));
		memcpy(narrow->dst, g->dst, (size_t)g->n_edges * sizeof(int));
		narrow->n_edges = g->n_edges;
	}
	check_same_choices(old, narrow, wide, g, PEARL_N_ACTIONS);
	pearl_policy_free(old);
	pearl_policy_free(wide);
	pearl_graph_free(g);
	pearl_graph_free(narrow);
}

/* A blob of version 1 (a readout without focus loops) loads widened: on a
 * graph whose branch in focus has loops at depths 0 and 1 it gives the
 * logits and the value of the old policy; its blob is of version 2. */
static void test_widened_focus(void)
{
	struct pearl_policy_config cfg = pearl_policy_default_config();
	struct pearl_graph *g = make_tree(1.0f);
	pearl_policy *old, *wide;
	unsigned char *blob = NULL;
	char err[256] = "";
	size_t n = 0;
	int i;

	for (i = 1; g && i < 3; ++i) {
		float *row = g->x + (size_t)i * g->n_features;

		memset(row + PEARL_F_LEVEL, 0,
		       PEARL_GRAPH_N_LEVELS * sizeof(float));
		row[PEARL_F_LEVEL + i - 1] = 1.0f;
		row[PEARL_F_FOCUS] = 1.0f;
	}
	cfg.focus_levels = 0;
	old = pearl_policy_init_random(&cfg, 12, err, sizeof(err));
	blob = old ? pearl_policy_to_blob(old, &n) : NULL;
	CHECK(blob && n == 40 + 4 * (size_t)975831 && blob[4] == 1);
	free(blob);
	wide = reloaded(old, &n);
	CHECK(wide && pearl_policy_get_config(wide)->focus_levels ==
			  PEARL_POLICY_FOCUS_LEVELS);
	check_same_choices(old, g, wide, g, PEARL_N_ACTIONS);
	blob = wide ? pearl_policy_to_blob(wide, &n) : NULL;
	CHECK(blob && n == 40 + 4 * (size_t)1139671 && blob[4] == 2);
	free(blob);
	/* focus loops need the features that name them */
	cfg.focus_levels = 1;
	cfg.n_features = PEARL_F_FOCUS;
	CHECK(!pearl_policy_init_random(&cfg, 1, err, sizeof(err)));
	CHECK_STR(err, "invalid configuration: focus loops need the kind, "
		       "level and focus features (n_features > 16, not 16)");
	cfg.focus_levels = PEARL_GRAPH_N_LEVELS + 1;
	cfg.n_features = PEARL_GRAPH_N_FEATURES;
	CHECK(!pearl_policy_init_random(&cfg, 1, err, sizeof(err)));
	CHECK_STR(err, "invalid configuration: focus_levels = 9 (must be in "
		       "0..8)");
	pearl_policy_free(old);
	pearl_policy_free(wide);
	pearl_graph_free(g);
}

/* A policy of 56 actions (before the action space v2; the compiled-in
 * one until the nineteenth session), widened, opens its 30 new actions to
 * training: their logits become one finite value near the others' instead
 * of PEARL_NEW_ACTION_BIAS, the old logits stay; a second call, a policy
 * trained on every action and the compiled-in one (trained on all 86)
 * open nothing. */
static void test_open_new_actions(void)
{
	struct pearl_policy_config cfg = pearl_policy_default_config();
	char err[256] = "";
	struct pearl_graph *g = make_tree(1.0f);
	pearl_policy *old, *p, *r = random_policy(5);
	pearl_policy *builtin = pearl_policy_load_builtin(err, sizeof(err));
	float before[N_ACTIONS], after[N_ACTIONS], v;
	size_t n = 0;
	int id, same = 1;

	cfg.n_actions = PEARL_N_ACTIONS_V1;
	old = pearl_policy_init_random(&cfg, 9, err, sizeof(err));
	p = reloaded(old, &n);
	pearl_policy_free(old);
	CHECK(g && p && r && builtin);
	if (!g || !p || !r || !builtin)
		goto out;
	CHECK(pearl_policy_open_new_actions(builtin) == 0);
	CHECK(pearl_policy_eval(p, g, before, &v, err, sizeof(err)) == 0);
	CHECK(pearl_policy_open_new_actions(p) ==
	      PEARL_N_ACTIONS - PEARL_N_ACTIONS_V1);
	CHECK(pearl_policy_eval(p, g, after, &v, err, sizeof(err)) == 0);
	for (id = 0; id < PEARL_N_ACTIONS_V1; ++id)
		same &= before[id] == after[id];
	for (; id < PEARL_N_ACTIONS; ++id)
		same &= after[id] == after[PEARL_N_ACTIONS_V1] &&
			before[id] == PEARL_NEW_ACTION_BIAS;
	CHECK(same);
	CHECK(isfinite(after[PEARL_N_ACTIONS_V1]) &&
	      after[PEARL_N_ACTIONS_V1] > -10 &&
	      after[PEARL_N_ACTIONS_V1] < 10);
	CHECK(pearl_policy_open_new_actions(p) == 0);
	CHECK(pearl_policy_open_new_actions(r) == 0);
out:
	pearl_policy_free(p);
	pearl_policy_free(r);
	pearl_policy_free(builtin);
	pearl_graph_free(g);
}

static void test_round_trip(void)
{
	pearl_policy *a = random_policy(42), *b, *c, *other = random_policy(43);
	struct pearl_graph *g = make_tree(1.0f);
	float la[N_ACTIONS], lb[N_ACTIONS], va, vb;
	size_t na, nb, nc, no;
	void *ba, *bb, *bc, *bo;
	char err[256];
	const char *path = "test_policy.tmp.bin";

	CHECK(a && other && g);
	if (!a || !other || !g)
		goto out;
	ba = pearl_policy_to_blob(a, &na);
	CHECK(ba && na == 40 + 4 * (size_t)1139671);
	b = pearl_policy_from_blob(ba, na, err, sizeof(err));
	CHECK(b);
	bb = b ? pearl_policy_to_blob(b, &nb) : NULL;
	CHECK(bb && nb == na && !memcmp(ba, bb, na));
	CHECK(pearl_policy_eval(a, g, la, &va, err, sizeof(err)) == 0);
	CHECK(b && pearl_policy_eval(b, g, lb, &vb, err, sizeof(err)) == 0);
	CHECK(!memcmp(la, lb, sizeof(la)) && va == vb);
	CHECK(all_finite(la, N_ACTIONS) && isfinite(va));

	/* Through a file. */
	CHECK(pearl_policy_save_file(a, path, err, sizeof(err)) == 0);
	c = pearl_policy_load_file(path, err, sizeof(err));
	CHECK(c);
	bc = c ? pearl_policy_to_blob(c, &nc) : NULL;
	CHECK(bc && nc == na && !memcmp(ba, bc, na));
	remove(path);

	/* Same seed, same blob; another seed, another blob. */
	bo = pearl_policy_to_blob(other, &no);
	CHECK(bo && no == na && memcmp(ba, bo, na) != 0);
	pearl_policy_free(b);
	b = random_policy(42);
	free(bb);
	bb = b ? pearl_policy_to_blob(b, &nb) : NULL;
	CHECK(bb && nb == na && !memcmp(ba, bb, na));

	free(ba);
	free(bb);
	free(bc);
	free(bo);
	pearl_policy_free(b);
	pearl_policy_free(c);
out:
	pearl_policy_free(a);
	pearl_policy_free(other);
	pearl_graph_free(g);
}

/* The built-in blob loads, has the default dimensions and round-trips. */
static void test_builtin(void)
{
	char err[256];
	pearl_policy *p = pearl_policy_load_builtin(err, sizeof(err));
	pearl_policy *r = random_policy(1);
	const struct pearl_policy_config *cfg;
	size_t np, nr;
	void *bp, *br;

	CHECK(p && r);
	if (!p || !r)
		goto out;
	cfg = pearl_policy_get_config(p);
	CHECK(cfg->n_features == PEARL_GRAPH_N_FEATURES &&
	      cfg->n_actions == N_ACTIONS);
	bp = pearl_policy_to_blob(p, &np);
	br = pearl_policy_to_blob(r, &nr);
	/* Trained (models/README.md): same shape as an initialization, other
	 * weights; its blob loads back to the same bytes. */
	CHECK(bp && br && np == nr && memcmp(bp, br, np) != 0);
	if (bp) {
		pearl_policy *again = pearl_policy_from_blob(bp, np, err,
							     sizeof(err));
		size_t na;
		void *ba = again ? pearl_policy_to_blob(again, &na) : NULL;

		CHECK(ba && na == np && !memcmp(ba, bp, np));
		free(ba);
		pearl_policy_free(again);
	}
	free(bp);
	free(br);
out:
	pearl_policy_free(p);
	pearl_policy_free(r);
}

/* Evaluating twice, or after another graph, gives identical outputs. */
static void test_deterministic(void)
{
	pearl_policy *p = random_policy(7);
	struct pearl_graph *g = make_tree(1.0f), *h = make_tree(0.5f);
	float l1[N_ACTIONS], l2[N_ACTIONS], l3[N_ACTIONS], v1, v2, v3;
	char err[256];

	CHECK(p && g && h);
	if (!p || !g || !h)
		goto out;
	CHECK(pearl_policy_eval(p, g, l1, &v1, err, sizeof(err)) == 0);
	CHECK(pearl_policy_eval(p, h, l3, &v3, err, sizeof(err)) == 0);
	CHECK(pearl_policy_eval(p, g, l2, &v2, err, sizeof(err)) == 0);
	CHECK(!memcmp(l1, l2, sizeof(l1)) && v1 == v2);
	CHECK(memcmp(l1, l3, sizeof(l1)) != 0);
	/* The direction and order of edges do not matter. */
	g->src[0] = 2, g->dst[0] = 4;
	g->src[2] = 3, g->dst[2] = 2;
	g->src[3] = 1, g->dst[3] = 0;
	CHECK(pearl_policy_eval(p, g, l2, &v2, err, sizeof(err)) == 0);
	CHECK(!memcmp(l1, l2, sizeof(l1)) && v1 == v2);
out:
	pearl_policy_free(p);
	pearl_graph_free(g);
	pearl_graph_free(h);
}

/* The embedding: 2 * hidden * n_layers floats, finite, the same for the
 * same graph (whatever the edges' direction and order), different for
 * another; bad graphs are refused as by pearl_policy_eval. */
static void test_embedding(void)
{
	pearl_policy *p = random_policy(7);
	struct pearl_graph *g = make_tree(1.0f), *h = make_tree(0.5f);
	float *e1 = NULL, *e2 = NULL, *e3 = NULL;
	int n = 0;
	char err[256];

	CHECK(p && g && h);
	if (!p || !g || !h)
		goto out;
	n = pearl_policy_embedding_size(p);
	CHECK(n == 2 * 128 * 2);
	e1 = calloc(n, sizeof(float));
	e2 = calloc(n, sizeof(float));
	e3 = calloc(n, sizeof(float));
	CHECK(e1 && e2 && e3);
	if (!e1 || !e2 || !e3)
		goto out;
	CHECK(pearl_policy_embed(p, g, e1, err, sizeof(err)) == 0);
	CHECK(all_finite(e1, n));
	CHECK(pearl_policy_embed(p, h, e3, err, sizeof(err)) == 0);
	CHECK(memcmp(e1, e3, n * sizeof(float)) != 0);
	g->src[0] = 2, g->dst[0] = 4;
	g->src[2] = 3, g->dst[2] = 2;
	g->src[3] = 1, g->dst[3] = 0;
	CHECK(pearl_policy_embed(p, g, e2, err, sizeof(err)) == 0);
	CHECK(!memcmp(e1, e2, n * sizeof(float)));
	g->n_features = 3;
	CHECK(pearl_policy_embed(p, g, e2, err, sizeof(err)) < 0);
	CHECK(strstr(err, "features") != NULL);
	g->n_features = PEARL_GRAPH_N_FEATURES;
out:
	free(e1);
	free(e2);
	free(e3);
	pearl_policy_free(p);
	pearl_graph_free(g);
	pearl_graph_free(h);
}

/* A tree of n nodes (node i > 0 is a child of (i - 1) / 3), features
 * pseudo-random and sparse as in make_tree. */
static struct pearl_graph *make_wide_tree(int n)
{
	struct pearl_graph *g =
	    pearl_graph_alloc(n, PEARL_GRAPH_N_FEATURES, n - 1);
	unsigned state = 777;
	int i, j;

	if (!g)
		return NULL;
	for (i = 0; i < n; ++i) {
		float *row = g->x + (size_t)i * g->n_features;
		row[i == 0 ? 0 : i < n / 2 ? 1 : 2] = 1.0f;
		for (j = 3; j < g->n_features; ++j) {
			state = state * 1103515245u + 12345u;
			if ((state >> 16) % 10 == 0)
				row[j] = (float)((state >> 8) % 2001) / 1000.0f -
					 1.0f;
		}
		if (i > 0) {
			g->src[i - 1] = (i - 1) / 3;
			g->dst[i - 1] = i;
		}
	}
	g->n_edges = n - 1;
	return g;
}

/* Whether the cached pass gives the values of a full pass on g (compared
 * as values: a zero's sign may differ). */
static int cached_equals_full(pearl_policy *p, pearl_policy_cache *c,
			      const struct pearl_graph *g, float *logits)
{
	float full[N_ACTIONS], vf, vc;
	char err[256];
	int i;

	if (pearl_policy_eval(p, g, full, &vf, err, sizeof(err)) < 0 ||
	    pearl_policy_eval_cached(p, c, g, logits, &vc, err,
				     sizeof(err)) < 0)
		return 0;
	for (i = 0; i < N_ACTIONS; ++i)
		if (!(full[i] == logits[i]))
			return 0;
	return vf == vc;
}

/* The incremental pass equals the full one after changes of a few rows,
 * of no row, of the edges, of the node count and of the policy. */
static void test_cached(void)
{
	pearl_policy *p = pearl_policy_load_builtin(NULL, 0);
	pearl_policy *q = random_policy(3);
	pearl_policy_cache *c = pearl_policy_cache_alloc();
	struct pearl_graph *g = make_wide_tree(60), *small = make_tree(1.0f);
	float a[N_ACTIONS], b[N_ACTIONS], v;
	char err[256];
	float *row;

	CHECK(p && q && c && g && small);
	if (!p || !q || !c || !g || !small)
		goto out;
	CHECK(cached_equals_full(p, c, g, a));
	CHECK(cached_equals_full(p, c, g, b)); /* nothing changed */
	CHECK(!memcmp(a, b, sizeof(a)));
	/* a focus moved: one leaf (the root is two hops away) and an inner
	 * node */
	g->x[(size_t)59 * g->n_features + PEARL_F_FOCUS] = 1.0f;
	g->x[(size_t)4 * g->n_features + PEARL_F_PARALLEL] = 1.0f;
	CHECK(cached_equals_full(p, c, g, b));
	CHECK(memcmp(a, b, sizeof(a)) != 0);
	/* the root */
	g->x[PEARL_F_EXTENT] = 0.5f;
	CHECK(cached_equals_full(p, c, g, a));
	/* another policy through the same cache, then back */
	CHECK(cached_equals_full(q, c, g, a));
	CHECK(cached_equals_full(p, c, g, a));
	/* the same nodes, another edge */
	g->src[58] = 0;
	CHECK(cached_equals_full(p, c, g, a));
	/* another graph, smaller, then the large one again */
	CHECK(cached_equals_full(p, c, small, a));
	row = g->x + (size_t)30 * g->n_features;
	row[PEARL_F_FOCUS] = 1.0f;
	CHECK(cached_equals_full(p, c, g, a));
	/* an invalid graph fails and leaves the cache usable */
	row[PEARL_F_UNROLL] = NAN;
	CHECK(pearl_policy_eval_cached(p, c, g, a, &v, err, sizeof(err)) < 0);
	row[PEARL_F_UNROLL] = 1.0f;
	CHECK(cached_equals_full(p, c, g, a));
	/* a cleared cache computes everything again */
	pearl_policy_cache_clear(c);
	CHECK(cached_equals_full(p, c, g, b));
	CHECK(!memcmp(a, b, sizeof(a)));
	/* no cache: a plain pass */
	CHECK(cached_equals_full(p, NULL, g, b));
out:
	pearl_policy_cache_free(c);
	pearl_policy_free(p);
	pearl_policy_free(q);
	pearl_graph_free(g);
	pearl_graph_free(small);
}

static void test_bad_graphs(void)
{
	pearl_policy *p = random_policy(1);
	struct pearl_graph *narrow = pearl_graph_alloc(2, 10, 1);
	struct pearl_graph *g = make_tree(1.0f);
	struct pearl_graph *empty = pearl_graph_alloc(0, PEARL_GRAPH_N_FEATURES,
						      0);
	float l[N_ACTIONS], v;
	char err[256];

	CHECK(p && narrow && g && empty);
	if (!p || !narrow || !g || !empty)
		goto out;
	CHECK(pearl_policy_eval(p, narrow, l, &v, err, sizeof(err)) < 0);
	CHECK_STR(err, "graph has 10 features per node, the policy expects 537");
	CHECK(pearl_policy_eval(p, empty, l, &v, err, sizeof(err)) < 0);
	CHECK_STR(err, "graph has no nodes");
	CHECK(pearl_policy_eval(p, NULL, l, &v, err, sizeof(err)) < 0);
	CHECK_STR(err, "no graph");

	g->dst[3] = 5;
	CHECK(pearl_policy_eval(p, g, l, &v, err, sizeof(err)) < 0);
	CHECK_STR(err, "edge 3 (2 -> 5) names a missing node (the graph has 5 "
		       "nodes)");
	g->dst[3] = -1;
	CHECK(pearl_policy_eval(p, g, l, &v, err, sizeof(err)) < 0);
	CHECK_STR(err, "edge 3 (2 -> -1) names a missing node (the graph has 5 "
		       "nodes)");
	g->dst[3] = 4;
	g->x[3 * g->n_features + 7] = NAN;
	CHECK(pearl_policy_eval(p, g, l, &v, err, sizeof(err)) < 0);
	CHECK_STR(err, "feature 7 of node 3 is not finite");
	g->x[3 * g->n_features + 7] = 0.0f;
	CHECK(pearl_policy_eval(p, g, l, &v, err, sizeof(err)) == 0);
	/* A tiny error buffer is truncated, never overrun. */
	CHECK(pearl_policy_eval(p, narrow, l, &v, err, 6) < 0);
	CHECK_STR(err, "graph");
	CHECK(pearl_policy_eval(p, narrow, l, &v, NULL, 0) < 0);
out:
	pearl_policy_free(p);
	pearl_graph_free(narrow);
	pearl_graph_free(g);
	pearl_graph_free(empty);
}

/* Several threads evaluating one policy at once get the sequential
 * results (the policy is immutable, the scratch memory per call). */
struct eval_job {
	const pearl_policy *policy;
	const struct pearl_graph *graph;
	const float *want_logits;
	float want_value;
	int mismatches;
};

static void *eval_thread(void *arg)
{
	struct eval_job *job = arg;
	float l[N_ACTIONS], v;
	char err[256];
	int i;

	for (i = 0; i < 10; ++i)
		if (pearl_policy_eval(job->policy, job->graph, l, &v, err,
				      sizeof(err)) < 0 ||
		    memcmp(l, job->want_logits, sizeof(l)) != 0 ||
		    v != job->want_value)
			job->mismatches++;
	return NULL;
}

static void test_threads(void)
{
	pearl_policy *p = random_policy(21);
	struct pearl_graph *g = make_tree(1.0f);
	struct eval_job jobs[4];
	pthread_t tid[4];
	float want[N_ACTIONS], v;
	char err[256];
	int t, started = 0;

	CHECK(p && g);
	if (!p || !g ||
	    pearl_policy_eval(p, g, want, &v, err, sizeof(err)) < 0)
		goto out;
	for (t = 0; t < 4; ++t) {
		jobs[t] = (struct eval_job){ p, g, want, v, 0 };
		if (pthread_create(&tid[t], NULL, eval_thread, &jobs[t]) != 0)
			break;
		started++;
	}
	CHECK(started == 4);
	for (t = 0; t < started; ++t) {
		pthread_join(tid[t], NULL);
		CHECK(jobs[t].mismatches == 0);
	}
out:
	pearl_policy_free(p);
	pearl_graph_free(g);
}

/* One node (only its self-loop), and one node with edges to itself. */
static void test_single_node(void)
{
	pearl_policy *p = random_policy(3);
	struct pearl_graph *g = pearl_graph_alloc(1, PEARL_GRAPH_N_FEATURES, 2);
	float l1[N_ACTIONS], l2[N_ACTIONS], v1, v2;
	char err[256];

	CHECK(p && g);
	if (!p || !g)
		goto out;
	g->x[0] = 1.0f;
	g->x[10] = 0.5f;
	CHECK(pearl_policy_eval(p, g, l1, &v1, err, sizeof(err)) == 0);
	CHECK(all_finite(l1, N_ACTIONS) && isfinite(v1));
	g->src[0] = g->dst[0] = 0;
	g->src[1] = g->dst[1] = 0;
	g->n_edges = 2;
	CHECK(pearl_policy_eval(p, g, l2, &v2, err, sizeof(err)) == 0);
	CHECK(!memcmp(l1, l2, sizeof(l1)) && v1 == v2);
out:
	pearl_policy_free(p);
	pearl_graph_free(g);
}

/* Large feature values make attention scores far beyond expf's range: the
 * softmax subtracts the maximum, so nothing overflows to NaN. */
static void test_large_values(void)
{
	pearl_policy *p = random_policy(5);
	struct pearl_graph *g = make_tree(1e4f);
	float l[N_ACTIONS], v;
	char err[256];

	CHECK(p && g);
	if (!p || !g)
		goto out;
	CHECK(pearl_policy_eval(p, g, l, &v, err, sizeof(err)) == 0);
	CHECK(all_finite(l, N_ACTIONS) && isfinite(v));
out:
	pearl_policy_free(p);
	pearl_graph_free(g);
}

/* Corrupt blobs in memory: each is refused with its message. */
static void test_bad_blobs(void)
{
	pearl_policy *p = random_policy(9), *q;
	unsigned char *blob;
	size_t n;
	char err[256];

	blob = p ? pearl_policy_to_blob(p, &n) : NULL;
	CHECK(blob);
	if (!blob)
		goto out;
	CHECK(!pearl_policy_from_blob(NULL, 0, err, sizeof(err)));
	CHECK_STR(err, "truncated blob: expected at least 40 bytes (the "
		       "header), got 0");
	CHECK(!pearl_policy_from_blob(blob, n - 4, err, sizeof(err)));
	CHECK_STR(err, "truncated blob: expected 4558724 bytes, got 4558720");
	blob[0] = 'X';
	CHECK(!pearl_policy_from_blob(blob, n, err, sizeof(err)));
	CHECK_STR(err, "bad magic: not a Pearl weight blob (expected \"PRLW\")");
	blob[0] = 'P';
	blob[8] = 10; /* n_features = 10 + 2 * 256 = 522 */
	CHECK(!pearl_policy_from_blob(blob, n, err, sizeof(err)));
	CHECK_STR(err, "dimension mismatch: blob has n_features = 522, this "
		       "build of Pearl expects 537");
	blob[8] = 25; /* 537 */
	blob[n - 1] ^= 1;
	q = pearl_policy_from_blob(blob, n, err, sizeof(err));
	CHECK(!q && !strncmp(err, "checksum mismatch", 17));
	pearl_policy_free(q);
	blob[n - 1] ^= 1;
	q = pearl_policy_from_blob(blob, n, err, sizeof(err));
	CHECK(q);
	pearl_policy_free(q);
	CHECK(!pearl_policy_load_file("/nonexistent/pearl.bin", err,
				      sizeof(err)));
	CHECK_STR(err, "cannot open /nonexistent/pearl.bin: No such file or "
		       "directory");
	free(blob);
out:
	pearl_policy_free(p);
}

/* Every single-bit flip of the header, and every truncation within it,
 * is refused or accepted without a crash; only flips that leave the
 * header meaning the same could load, and none does. */
static void test_header_flips(void)
{
	pearl_policy *p = random_policy(11), *q;
	unsigned char *blob;
	size_t n, i;
	int bit, loaded = 0;
	char err[256];

	blob = p ? pearl_policy_to_blob(p, &n) : NULL;
	CHECK(blob);
	if (!blob)
		goto out;
	for (i = 0; i < 40; ++i)
		for (bit = 0; bit < 8; ++bit) {
			blob[i] ^= (unsigned char)(1 << bit);
			q = pearl_policy_from_blob(blob, n, err, sizeof(err));
			loaded += q != NULL;
			pearl_policy_free(q);
			blob[i] ^= (unsigned char)(1 << bit);
		}
	CHECK(loaded == 0);
	for (i = 0; i < 100; ++i) {
		q = pearl_policy_from_blob(blob, i, err, sizeof(err));
		CHECK(!q);
		pearl_policy_free(q);
	}
	free(blob);
out:
	pearl_policy_free(p);
}

/* Garbage text never crashes the graph reader. */
static void test_graph_garbage(void)
{
	static const char *inputs[] = {
		"", "\n", "graph", "graph 1", "graph 1 1", "graph 1 1 0",
		"graph 1 1 0\n", "graph 1 1 0\n5\n", "graph -1 1 0\n",
		"graph 1 1 1\n0\n0 0 0\n", "graph 1 1 1\n0\n0\n",
		"graph 2 1 1\n0\n1\n0 1 \n\n\n",
		"graph 1 1 0\n1e999\n", "graph 1 1 0\n0x1p3\n",
		"graph 99999999999 1 0\n", "graph 1 1 -5\n0\n",
		"graph 1 2 0\n1 2 3\n", "graph 1 1 0\n\t 7 \n",
	};
	static const int ok[] = { 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1,
				  1, 1, 0, 0, 0, 1 };
	size_t i;
	char err[256];

	for (i = 0; i < sizeof(inputs) / sizeof(inputs[0]); ++i) {
		FILE *f = tmpfile();
		struct pearl_graph *g;

		if (!f)
			continue;
		fputs(inputs[i], f);
		rewind(f);
		err[0] = '\0';
		g = pearl_graph_read(f, err, sizeof(err));
		if ((g != NULL) != ok[i])
			fprintf(stderr, "input %zu: %s\n", i, err);
		CHECK((g != NULL) == ok[i]);
		CHECK(g || err[0]);
		pearl_graph_free(g);
		fclose(f);
	}
}

/* pearl_graph_print and pearl_graph_read round-trip exactly. */
static void test_graph_text(void)
{
	struct pearl_graph *g = make_tree(3.0f), *h = NULL;
	char err[256];
	FILE *f = tmpfile();

	CHECK(g && f);
	if (!g || !f)
		goto out;
	g->x[7] = 1.0f / 3.0f;
	g->x[8] = -1e-30f;
	CHECK(pearl_graph_print(f, g) == 0);
	rewind(f);
	h = pearl_graph_read(f, err, sizeof(err));
	CHECK(h);
	if (!h)
		goto out;
	CHECK(h->n_nodes == g->n_nodes && h->n_features == g->n_features &&
	      h->n_edges == g->n_edges);
	CHECK(!memcmp(h->x, g->x,
		      sizeof(float) * (size_t)g->n_nodes * g->n_features));
	CHECK(!memcmp(h->src, g->src, sizeof(int) * (size_t)g->n_edges));
	CHECK(!memcmp(h->dst, g->dst, sizeof(int) * (size_t)g->n_edges));
	CHECK(!pearl_graph_alloc(-1, 3, 0));
	CHECK(!pearl_graph_alloc(1, 0, 0));
	CHECK(!pearl_graph_alloc(1, 3, -1));
	CHECK(pearl_graph_free(NULL) == NULL);
out:
	if (f)
		fclose(f);
	pearl_graph_free(g);
	pearl_graph_free(h);
}

int main(void)
{
	test_config();
	test_widened_blob();
	test_widened_features();
	test_widened_focus();
	test_open_new_actions();
	test_round_trip();
	test_small_config();
	test_builtin();
	test_deterministic();
	test_embedding();
	test_cached();
	test_bad_graphs();
	test_single_node();
	test_threads();
	test_large_values();
	test_bad_blobs();
	test_header_flips();
	test_graph_garbage();
	test_graph_text();
	return check_done("test_policy");
}
