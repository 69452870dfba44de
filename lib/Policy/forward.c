/*
 * The forward pass of the policy network (pearl_policy_eval): graph checks,
 * neighbourhoods, then the layers of nn.h in order. All scratch memory is
 * one allocation per call, so a policy can be evaluated concurrently.
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "adjacency.h"
#include "nn.h"
#include "weights.h"

int pearl_policy_check_graph(const pearl_policy *policy,
			     const struct pearl_graph *graph, char *err,
			     size_t err_size)
{
	size_t i, n_x;
	int k;

	if (!graph)
		return pearl_error_printf(err, err_size, "no graph");
	if (graph->n_features != policy->cfg.n_features)
		return pearl_error_printf(err, err_size,
					  "graph has %d features per node, "
					  "the policy expects %d",
					  graph->n_features,
					  policy->cfg.n_features);
	if (graph->n_nodes <= 0)
		return pearl_error_printf(err, err_size,
					  "graph has no nodes");
	if (!graph->x)
		return pearl_error_printf(err, err_size,
					  "graph has no feature matrix");
	if (graph->n_edges < 0 ||
	    graph->n_edges > (INT_MAX - graph->n_nodes) / 2 ||
	    (graph->n_edges > 0 && (!graph->src || !graph->dst)))
		return pearl_error_printf(err, err_size,
					  "graph has an invalid edge list "
					  "(%d edges)", graph->n_edges);
	for (k = 0; k < graph->n_edges; ++k) {
		int s = graph->src[k], d = graph->dst[k];
		if (s < 0 || s >= graph->n_nodes || d < 0 ||
		    d >= graph->n_nodes)
			return pearl_error_printf(
			    err, err_size,
			    "edge %d (%d -> %d) names a missing node (the "
			    "graph has %d nodes)",
			    k, s, d, graph->n_nodes);
	}
	n_x = (size_t)graph->n_nodes * (size_t)graph->n_features;
	for (i = 0; i < n_x; ++i)
		if (!isfinite(graph->x[i]))
			return pearl_error_printf(
			    err, err_size,
			    "feature %zu of node %zu is not finite",
			    i % (size_t)graph->n_features,
			    i / (size_t)graph->n_features);
	return 0;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* The graph's edges taken both ways, self-loops added and duplicates
 * removed (PyG: to_undirected, then GATv2Conv's self-loops). */
void pearl_nn_adjacency_build(struct pearl_nn_adjacency *adj,
			      const struct pearl_graph *graph)
{
	int n = graph->n_nodes, i, k, e, out;
	int *fill = adj->start + 1; /* used as per-node counters first */

	adj->n_nodes = n;
	for (i = 0; i <= n; ++i)
		adj->start[i] = 0;
	for (i = 0; i < n; ++i)
		fill[i] = 1;
	for (k = 0; k < graph->n_edges; ++k)
		if (graph->src[k] != graph->dst[k]) {
			fill[graph->src[k]]++;
			fill[graph->dst[k]]++;
		}
	/* Prefix sums: start[i] is where node i's list begins. */
	for (i = 0; i < n; ++i)
		adj->start[i + 1] += adj->start[i];
	/* Now place the entries, using start[i + 1] as node i's cursor. */
	for (i = n; i > 0; --i)
		adj->start[i] = adj->start[i - 1];
	for (i = 0; i < n; ++i)
		adj->src[adj->start[i + 1]++] = i;
	for (k = 0; k < graph->n_edges; ++k) {
		int s = graph->src[k], d = graph->dst[k];
		if (s == d)
			continue;
		adj->src[adj->start[d + 1]++] = s;
		adj->src[adj->start[s + 1]++] = d;
	}
	/* Sort each list, drop duplicates, compact. */
	out = 0;
	adj->max_degree = 0;
	for (i = 0; i < n; ++i) {
		int begin = adj->start[i], end = adj->start[i + 1];
		int first = out;

		qsort(adj->src + begin, (size_t)(end - begin), sizeof(int),
		      cmp_int);
		for (e = begin; e < end; ++e)
			if (e == begin || adj->src[e] != adj->src[e - 1])
				adj->src[out++] = adj->src[e];
		adj->start[i] = first;
		if (out - first > adj->max_degree)
			adj->max_degree = out - first;
		/* start[i + 1] still holds node i's end until the next
		 * iteration reads it as the next list's begin. */
	}
	adj->start[n] = out;
}

/* The per-call scratch memory, carved out of one allocation. */
struct scratch {
	void *mem;
	float *xl, *xr, *agg; /* [n, H*d] each */
	float *h;             /* [n, d] node states */
	float *readin;        /* [pearl_nn_readin_size] pooled, focus loops */
	struct pearl_nn_readout_acts act; /* [d] each */
	float *scores;        /* [max_degree] */
	struct pearl_nn_adjacency adj;
};

static int scratch_alloc(struct scratch *s, const struct pearl_policy_config *cfg,
			 int n, int n_edges)
{
	size_t nD = (size_t)n * (size_t)cfg->heads * (size_t)cfg->hidden;
	size_t d = (size_t)cfg->hidden;
	size_t n_floats, n_ints, off = 0;
	float *f;

	n_floats = 3 * nD + (size_t)n * d + pearl_nn_readin_size(cfg) +
		   6 * d + (size_t)n + 2 * (size_t)n_edges;
	n_ints = (size_t)n + 1 + (size_t)n + 2 * (size_t)n_edges;
	if (nD / (size_t)n != (size_t)cfg->heads * d ||
	    n_floats > SIZE_MAX / sizeof(float) / 2)
		return -1;
	s->mem = malloc(n_floats * sizeof(float) + n_ints * sizeof(int));
	if (!s->mem)
		return -1;
	f = s->mem;
	s->xl = f + off, off += nD;
	s->xr = f + off, off += nD;
	s->agg = f + off, off += nD;
	s->h = f + off, off += (size_t)n * d;
	s->readin = f + off, off += pearl_nn_readin_size(cfg);
	pearl_nn_readout_acts_carve(&s->act, f + off, d), off += 6 * d;
	/* max_degree <= n + 2 n_edges */
	s->scores = f + off, off += (size_t)n + 2 * (size_t)n_edges;
	s->adj.start = (int *)(f + off);
	s->adj.src = s->adj.start + n + 1;
	return 0;
}

int pearl_policy_check_outputs(const float *logits, int n, float value,
			       char *err, size_t err_size)
{
	int i;

	for (i = 0; i < n; ++i)
		if (!isfinite(logits[i]))
			return pearl_error_printf(err, err_size, "the network "
						  "gave a non-finite logit "
						  "(%g for action %d): its "
						  "weights overflow", logits[i],
						  i);
	if (!isfinite(value))
		return pearl_error_printf(err, err_size, "the network gave a "
					  "non-finite value (%g): its weights "
					  "overflow", value);
	return 0;
}

/* The GATv2 layers on `graph` (kept, checked): after each, Linear(D -> d),
 * SELU, pooling and the focus loops' rows into s->readin, which *s
 * (allocated here) holds until the caller frees s->mem. 0, or -1 with a
 * message in err. */
static int run_layers(const pearl_policy *policy,
		      const struct pearl_graph *graph, struct scratch *s,
		      char *err, size_t err_size)
{
	const struct pearl_policy_config *cfg = &policy->cfg;
	const struct pearl_policy_weights *w = &policy->w;
	int n = graph->n_nodes, d = cfg->hidden, D = cfg->heads * d, l;
	int focus[PEARL_GRAPH_N_LEVELS];

	if (scratch_alloc(s, cfg, n, graph->n_edges) < 0)
		return pearl_error_printf(err, err_size,
					  "out of memory evaluating a graph of "
					  "%d nodes", n);
	pearl_nn_adjacency_build(&s->adj, graph);
	pearl_nn_focus_nodes(focus, cfg, graph->x, n);
	for (l = 0; l < cfg->n_layers; ++l) {
		const float *in = l == 0 ? graph->x : s->h;
		int d_in = l == 0 ? cfg->n_features : d;

		pearl_nn_gatv2(s->agg, in, d_in, &w->gat[l], cfg->heads, d,
			       &s->adj, s->xl, s->xr, s->scores);
		pearl_nn_linear(s->h, s->agg, w->gat[l].w_lin,
				w->gat[l].b_lin, n, D, d);
		pearl_nn_selu(s->h, (size_t)n * d);
		pearl_nn_readin_layer(s->readin, cfg, l, s->h, n, focus);
	}
	return 0;
}

int pearl_policy_eval(const pearl_policy *policy,
		      const struct pearl_graph *graph, float *logits,
		      float *value, char *err, size_t err_size)
{
	struct scratch s;

	if (!policy || !logits || !value)
		return pearl_error_printf(err, err_size,
					  "no policy or no output buffer");
	if (pearl_policy_check_graph(policy, graph, err, err_size) < 0 ||
	    run_layers(policy, graph, &s, err, err_size) < 0)
		return -1;
	pearl_nn_readout(&policy->cfg, &policy->w, s.readin, &s.act, logits,
			 value);
	free(s.mem);
	return pearl_policy_check_outputs(logits, policy->cfg.n_actions,
					  *value, err, err_size);
}

int pearl_policy_embedding_size(const pearl_policy *policy)
{
	return 2 * policy->cfg.hidden * policy->cfg.n_layers;
}

int pearl_policy_embed(const pearl_policy *policy,
		       const struct pearl_graph *graph, float *embedding,
		       char *err, size_t err_size)
{
	struct scratch s;

	if (!policy || !embedding)
		return pearl_error_printf(err, err_size,
					  "no policy or no output buffer");
	if (pearl_policy_check_graph(policy, graph, err, err_size) < 0 ||
	    run_layers(policy, graph, &s, err, err_size) < 0)
		return -1;
	memcpy(embedding, s.readin,
	       pearl_policy_embedding_size(policy) * sizeof(float));
	free(s.mem);
	return 0;
}
