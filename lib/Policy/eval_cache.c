/*
 * Incremental forward passes (pearl_policy_eval_cached): a graph with the
 * nodes and edges of the previous one recomputes only what its changed
 * feature rows reach.
 *
 * A GATv2 layer's projections x_l, x_r of node j depend on node j's input
 * row alone, and its output at target i on the projections of i and of
 * i's neighbours. So after a change of some input rows (the dirty set),
 * the projections of the dirty rows are recomputed, then the outputs (and
 * the Linear + SELU after them) of every node that is dirty or has a dirty
 * neighbour; those rows are the next layer's dirty set. Pooling, the
 * focus loops' rows and the readout always run in full (n x d and a few d x d products). Each row
 * is computed by the same functions in the same order as in a full pass,
 * so the outputs are the same values (only the sign of a zero can differ:
 * a full pass may add 0 * w where a row alone skips the zero input).
 *
 * Between two decisions of the agent only the focus features change (a
 * move to the next branch), or the marks of one loop (P, U, R): a few rows
 * out of the whole function's graph.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "adjacency.h"
#include "nn.h"
#include "weights.h"

struct pearl_policy_cache {
	const pearl_policy *policy; /* of the cached pass; not owned */
	int n, n_edges, cap_n, cap_edges; /* nodes, edges; room for them */
	void *mem;                  /* everything below lives here */
	int *src, *dst;             /* [n_edges] its edges */
	struct pearl_nn_adjacency adj;
	/* layers.x: the previous graph's features */
	struct pearl_nn_layer_acts layers;
	float *agg;                 /* [n, D] rows being recomputed */
	float *rows_in;             /* [n, max(F, D)] gathered input rows */
	float *rows_out;            /* [n, D] their outputs */
	float *readin;              /* [pearl_nn_readin_size] */
	struct pearl_nn_readout_acts act; /* [d] each */
	float *scores;              /* [n + 2 n_edges] */
	unsigned char *dirty, *next; /* [n] */
	int *rows;                  /* [n] indices of the rows recomputed */
};

pearl_policy_cache *pearl_policy_cache_alloc(void)
{
	return calloc(1, sizeof(pearl_policy_cache));
}

pearl_policy_cache *pearl_policy_cache_free(pearl_policy_cache *cache)
{
	if (cache)
		free(cache->mem);
	free(cache);
	return NULL;
}

void pearl_policy_cache_clear(pearl_policy_cache *cache)
{
	if (cache)
		cache->policy = NULL;
}

/* Room for a graph of n nodes and n_edges edges (the cache is then
 * invalid); -1 if too large or out of memory. */
static int cache_reserve(pearl_policy_cache *c,
			 const struct pearl_policy_config *cfg, int n,
			 int n_edges)
{
	size_t d = (size_t)cfg->hidden, D = d * (size_t)cfg->heads;
	size_t F = (size_t)cfg->n_features;
	size_t N = (size_t)n, E = (size_t)n_edges;
	size_t W = F > D ? F : D; /* the widest input row */
	uint64_t n_floats, n_ints;
	float *f;

	c->policy = NULL;
	if (n <= c->cap_n && n_edges <= c->cap_edges && c->mem)
		return 0;
	/* Dimensions are bounded by the blob checks (D < 2^18, F <= 2^16)
	 * and n, n_edges are ints: no overflow in 64 bits. */
	n_floats = pearl_nn_layer_acts_floats(cfg, N) + 2 * N * D + N * W +
		   pearl_nn_readin_size(cfg) + 6 * d + N + 2 * E;
	n_ints = 2 * E + (N + 1) + (N + 2 * E) + N;
	free(c->mem);
	c->cap_n = c->cap_edges = 0;
	c->mem = pearl_nn_block_alloc(n_floats, n_ints, 2 * N);
	if (!c->mem)
		return -1;
	f = pearl_nn_layer_acts_carve(&c->layers, cfg, N, c->mem);
	c->agg = f, f += N * D;
	c->rows_in = f, f += N * W;
	c->rows_out = f, f += N * D;
	c->readin = f, f += pearl_nn_readin_size(cfg);
	f = pearl_nn_readout_acts_carve(&c->act, f, d);
	c->scores = f, f += N + 2 * E;
	c->src = (int *)f;
	c->dst = c->src + E;
	c->adj.start = c->dst + E;
	c->adj.src = c->adj.start + N + 1;
	c->rows = c->adj.src + N + 2 * E;
	c->dirty = (unsigned char *)(c->rows + N);
	c->next = c->dirty + N;
	c->cap_n = n;
	c->cap_edges = n_edges;
	return 0;
}

/* Whether the cache holds a pass of `policy` over a graph with the nodes
 * and edges of `graph`. */
static int same_structure(const pearl_policy_cache *c,
			  const pearl_policy *policy,
			  const struct pearl_graph *graph)
{
	size_t E = (size_t)graph->n_edges * sizeof(int);

	return c->policy == policy && c->n == graph->n_nodes &&
	       c->n_edges == graph->n_edges &&
	       (E == 0 || (memcmp(c->src, graph->src, E) == 0 &&
			   memcmp(c->dst, graph->dst, E) == 0));
}

/* y rows `rows[0..n_rows)` = x rows (of width d_in) W + b, through one
 * gather into c->rows_in and one scatter out of c->rows_out. */
static void linear_rows(pearl_policy_cache *c, float *y, const float *x,
			const float *w, const float *b, const int *rows,
			int n_rows, int d_in, int d_out)
{
	int r;

	for (r = 0; r < n_rows; ++r)
		memcpy(c->rows_in + (size_t)r * d_in,
		       x + (size_t)rows[r] * d_in, (size_t)d_in * sizeof(float));
	pearl_nn_linear(c->rows_out, c->rows_in, w, b, n_rows, d_in, d_out);
	for (r = 0; r < n_rows; ++r)
		memcpy(y + (size_t)rows[r] * d_out,
		       c->rows_out + (size_t)r * d_out,
		       (size_t)d_out * sizeof(float));
}

/* The indices i with flag[i] set into c->rows; returns their number. */
static int collect(pearl_policy_cache *c, const unsigned char *flag)
{
	int i, k = 0;

	for (i = 0; i < c->n; ++i)
		if (flag[i])
			c->rows[k++] = i;
	return k;
}

/* Layer l on the dirty rows of its input (c->dirty); leaves in c->dirty
 * the rows of c->layers.h[l] it changed. */
static void layer(pearl_policy_cache *c, const struct pearl_policy_config *cfg,
		  const struct pearl_gat_weights *g, const float *in, int d_in,
		  int l)
{
	int d = cfg->hidden, D = cfg->heads * d, n = c->n;
	int i, e, r, n_rows;

	n_rows = collect(c, c->dirty);
	if (n_rows == 0)
		return;
	linear_rows(c, c->layers.xl[l], in, g->w_src, g->b_src, c->rows, n_rows,
		    d_in, D);
	linear_rows(c, c->layers.xr[l], in, g->w_dst, g->b_dst, c->rows, n_rows,
		    d_in, D);
	/* Targets with a dirty node in their neighbourhood (self included). */
	for (i = 0; i < n; ++i) {
		c->next[i] = 0;
		for (e = c->adj.start[i]; e < c->adj.start[i + 1]; ++e)
			if (c->dirty[c->adj.src[e]]) {
				c->next[i] = 1;
				break;
			}
	}
	memcpy(c->dirty, c->next, (size_t)n);
	n_rows = collect(c, c->dirty);
	for (r = 0; r < n_rows; ++r)
		pearl_nn_gatv2_target(c->agg + (size_t)r * D, c->rows[r],
				      c->layers.xl[l], c->layers.xr[l], g,
				      cfg->heads, d, &c->adj, c->scores);
	pearl_nn_linear(c->rows_out, c->agg, g->w_lin, g->b_lin, n_rows, D,
			d);
	pearl_nn_selu(c->rows_out, (size_t)n_rows * d);
	for (r = 0; r < n_rows; ++r)
		memcpy(c->layers.h[l] + (size_t)c->rows[r] * d,
		       c->rows_out + (size_t)r * d, (size_t)d * sizeof(float));
}

int pearl_policy_eval_cached(const pearl_policy *policy,
			     pearl_policy_cache *cache,
			     const struct pearl_graph *graph, float *logits,
			     float *value, char *err, size_t err_size)
{
	const struct pearl_policy_config *cfg;
	int focus[PEARL_GRAPH_N_LEVELS];
	size_t F, E;
	int n, d, l, i;

	if (!cache)
		return pearl_policy_eval(policy, graph, logits, value, err,
					 err_size);
	if (!policy || !logits || !value)
		return pearl_error_printf(err, err_size,
					  "no policy or no output buffer");
	if (pearl_policy_check_graph(policy, graph, err, err_size) < 0)
		return -1;
	cfg = &policy->cfg;
	n = graph->n_nodes;
	d = cfg->hidden;
	F = (size_t)cfg->n_features;
	E = (size_t)graph->n_edges;
	if (same_structure(cache, policy, graph)) {
		for (i = 0; i < n; ++i)
			cache->dirty[i] =
			    memcmp(cache->layers.x + (size_t)i * F,
				   graph->x + (size_t)i * F,
				   F * sizeof(float)) != 0;
	} else {
		if (cache_reserve(cache, cfg, n, graph->n_edges) < 0)
			return pearl_error_printf(
			    err, err_size,
			    "out of memory evaluating a graph of %d nodes", n);
		cache->n = n;
		cache->n_edges = graph->n_edges;
		memcpy(cache->src, graph->src, E * sizeof(int));
		memcpy(cache->dst, graph->dst, E * sizeof(int));
		pearl_nn_adjacency_build(&cache->adj, graph);
		memset(cache->dirty, 1, (size_t)n);
	}
	memcpy(cache->layers.x, graph->x, (size_t)n * F * sizeof(float));
	/* From here on the cache holds this graph's pass. */
	cache->policy = policy;
	pearl_nn_focus_nodes(focus, cfg, graph->x, n);
	for (l = 0; l < cfg->n_layers; ++l) {
		layer(cache, cfg, &policy->w.gat[l],
		      l == 0 ? cache->layers.x : cache->layers.h[l - 1],
		      l == 0 ? cfg->n_features : d, l);
		pearl_nn_readin_layer(cache->readin, cfg, l,
				      cache->layers.h[l], n, focus);
	}
	pearl_nn_readout(cfg, &policy->w, cache->readin, &cache->act, logits,
			 value);
	return pearl_policy_check_outputs(logits, cfg->n_actions, *value, err,
					  err_size);
}
