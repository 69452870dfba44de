/*
 * The training pass of the policy network: a forward pass that keeps its
 * activations on a tape (the layers of nn.h called exactly as forward.c
 * calls them, so the outputs are pearl_policy_eval's bit for bit), and the
 * backward pass over the tape with the layers of nn_grad.h in reverse.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "adjacency.h"
#include "nn.h"
#include "nn_grad.h"
#include "weights.h"

struct pearl_policy_tape {
	const pearl_policy *policy; /* not owned */
	int n;                      /* nodes */
	void *mem;                  /* everything below lives here */
	struct pearl_nn_adjacency adj;
	/* per GATv2 layer */
	struct pearl_nn_layer_acts layers;   /* input, projections, output */
	float *agg[PEARL_POLICY_MAX_LAYERS]; /* [n, D] attention output */
	float *readin;                       /* [pearl_nn_readin_size] */
	struct pearl_nn_readout_acts act;    /* [d] each: MLP and heads */
	int focus[PEARL_GRAPH_N_LEVELS];     /* pearl_nn_focus_nodes */
};

/* Carves the tape's arrays out of one allocation (-1 if too large or out
 * of memory). */
static int tape_alloc(struct pearl_policy_tape *t,
		      const struct pearl_policy_config *cfg, int n,
		      int n_edges)
{
	size_t d = (size_t)cfg->hidden, D = d * (size_t)cfg->heads;
	size_t L = (size_t)cfg->n_layers;
	size_t N = (size_t)n, nE = (size_t)n_edges, l;
	uint64_t n_floats, n_ints;
	float *f;

	/* Dimensions are bounded by pearl_policy_config_check (D < 2^18,
	 * F <= 2^16) and n, n_edges are ints: no overflow in 64 bits. */
	n_floats = pearl_nn_layer_acts_floats(cfg, N) + (uint64_t)L * N * D +
		   pearl_nn_readin_size(cfg) + 6 * d;
	n_ints = (uint64_t)N + 1 + N + 2 * (uint64_t)nE;
	t->mem = pearl_nn_block_alloc(n_floats, n_ints, 0);
	if (!t->mem)
		return -1;
	f = pearl_nn_layer_acts_carve(&t->layers, cfg, N, t->mem);
	for (l = 0; l < L; ++l)
		t->agg[l] = f, f += N * D;
	t->readin = f, f += pearl_nn_readin_size(cfg);
	f = pearl_nn_readout_acts_carve(&t->act, f, d);
	t->adj.start = (int *)f;
	t->adj.src = t->adj.start + N + 1;
	return 0;
}

pearl_policy_tape *pearl_policy_forward(const pearl_policy *policy,
					const struct pearl_graph *graph,
					float *logits, float *value,
					char *err, size_t err_size)
{
	const struct pearl_policy_config *cfg;
	const struct pearl_policy_weights *w;
	pearl_policy_tape *t;
	float *scores;
	int n, d, D, l;

	if (!policy || !logits || !value) {
		pearl_error_printf(err, err_size,
				   "no policy or no output buffer");
		return NULL;
	}
	cfg = &policy->cfg;
	w = &policy->w;
	if (pearl_policy_check_graph(policy, graph, err, err_size) < 0)
		return NULL;
	n = graph->n_nodes;
	d = cfg->hidden;
	D = cfg->heads * d;
	t = calloc(1, sizeof(*t));
	if (!t || tape_alloc(t, cfg, n, graph->n_edges) < 0) {
		free(t);
		pearl_error_printf(err, err_size,
				   "out of memory recording a graph of %d "
				   "nodes", n);
		return NULL;
	}
	/* The attention scores need max_degree <= n + 2 n_edges floats. */
	scores = malloc(((size_t)n + 2 * (size_t)graph->n_edges) *
			sizeof(float));
	if (!scores) {
		pearl_policy_tape_free(t);
		pearl_error_printf(err, err_size,
				   "out of memory recording a graph of %d "
				   "nodes", n);
		return NULL;
	}
	t->policy = policy;
	t->n = n;
	memcpy(t->layers.x, graph->x,
	       (size_t)n * (size_t)cfg->n_features * sizeof(float));
	pearl_nn_adjacency_build(&t->adj, graph);
	pearl_nn_focus_nodes(t->focus, cfg, graph->x, n);

	for (l = 0; l < cfg->n_layers; ++l) {
		const float *in = l == 0 ? t->layers.x : t->layers.h[l - 1];
		int d_in = l == 0 ? cfg->n_features : d;

		pearl_nn_gatv2(t->agg[l], in, d_in, &w->gat[l], cfg->heads, d,
			       &t->adj, t->layers.xl[l], t->layers.xr[l],
			       scores);
		pearl_nn_linear(t->layers.h[l], t->agg[l], w->gat[l].w_lin,
				w->gat[l].b_lin, n, D, d);
		pearl_nn_selu(t->layers.h[l], (size_t)n * d);
		pearl_nn_readin_layer(t->readin, cfg, l, t->layers.h[l], n,
				      t->focus);
	}
	free(scores);

	pearl_nn_readout(cfg, w, t->readin, &t->act, logits, value);
	return t;
}

pearl_policy_tape *pearl_policy_tape_free(pearl_policy_tape *tape)
{
	if (tape) {
		free(tape->mem);
		free(tape);
	}
	return NULL;
}

/* Backward through Linear + SELU: dy (dL/d(output), clobbered) to dx
 * (added) and the layer's gradients. */
static void dense_selu_backward(float *dx, float *dw, float *db, float *dy,
				const float *y, const float *x,
				const float *w, int d_in, int d_out)
{
	pearl_nn_selu_backward(dy, y, (size_t)d_out);
	pearl_nn_linear_backward(dx, dw, db, dy, x, w, 1, d_in, d_out);
}

/* The backward pass's scratch memory. */
struct bscratch {
	void *mem;
	float *dxl, *dxr, *dagg; /* [n, D] */
	float *dh, *dprev;       /* [n, d] */
	float *dreadin;          /* [pearl_nn_readin_size] */
	float *da, *db, *dt, *du; /* [d] */
	float *alpha, *dalpha;   /* [max_degree] */
};

static int bscratch_alloc(struct bscratch *s,
			  const struct pearl_policy_config *cfg, int n,
			  int max_degree)
{
	size_t d = (size_t)cfg->hidden, D = d * (size_t)cfg->heads;
	size_t N = (size_t)n, off = 0, n_floats;
	float *f;

	n_floats = 3 * N * D + 2 * N * d + pearl_nn_readin_size(cfg) +
		   4 * d + 2 * (size_t)max_degree;
	s->mem = calloc(n_floats, sizeof(float));
	if (!s->mem)
		return -1;
	f = s->mem;
	s->dxl = f + off, off += N * D;
	s->dxr = f + off, off += N * D;
	s->dagg = f + off, off += N * D;
	s->dh = f + off, off += N * d;
	s->dprev = f + off, off += N * d;
	s->dreadin = f + off, off += pearl_nn_readin_size(cfg);
	s->da = f + off, off += d;
	s->db = f + off, off += d;
	s->dt = f + off, off += d;
	s->du = f + off, off += d;
	s->alpha = f + off, off += (size_t)max_degree;
	s->dalpha = f + off;
	return 0;
}

int pearl_policy_backward(const pearl_policy_tape *tape,
			  const float *d_logits, float d_value,
			  pearl_policy_grad *grad, char *err,
			  size_t err_size)
{
	const pearl_policy *policy;
	const struct pearl_policy_config *cfg;
	const struct pearl_policy_weights *w;
	const struct pearl_nn_readout_acts *act;
	struct pearl_policy_grads g;
	struct bscratch s;
	int n, d, D, A, l;

	if (!tape || !grad)
		return pearl_error_printf(err, err_size,
					  "no tape or no gradient buffer");
	policy = tape->policy;
	cfg = &policy->cfg;
	w = &policy->w;
	act = &tape->act;
	if (grad->n_floats != policy->n_floats ||
	    memcmp(&grad->cfg, cfg, sizeof(*cfg)) != 0)
		return pearl_error_printf(err, err_size,
					  "the gradient buffer (%zu floats) "
					  "does not match the policy (%zu)",
					  grad->n_floats, policy->n_floats);
	n = tape->n;
	d = cfg->hidden;
	D = cfg->heads * d;
	A = cfg->n_actions;
	if (bscratch_alloc(&s, cfg, n, tape->adj.max_degree) < 0)
		return pearl_error_printf(err, err_size,
					  "out of memory in the backward pass "
					  "of a graph of %d nodes", n);
	pearl_policy_grads_map(&g, cfg, grad->data);

	/* Value head: value = vu v_w3 + v_b3. */
	pearl_nn_linear_backward(s.du, g.v_w3, g.v_b3, &d_value, act->vu,
				 w->v_w3, 1, d, 1);
	dense_selu_backward(s.dt, g.v_w2, g.v_b2, s.du, act->vu, act->vt,
			    w->v_w2, d, d);
	dense_selu_backward(s.db, g.v_w1, g.v_b1, s.dt, act->vt, act->b,
			    w->v_w1, d, d);

	/* Policy head, into the same d(b). */
	if (d_logits) {
		memset(s.du, 0, (size_t)d * sizeof(float));
		memset(s.dt, 0, (size_t)d * sizeof(float));
		pearl_nn_linear_backward(s.du, g.pi_w3, g.pi_b3, d_logits,
					 act->pu, w->pi_w3, 1, d, A);
		dense_selu_backward(s.dt, g.pi_w2, g.pi_b2, s.du, act->pu,
				    act->pt, w->pi_w2, d, d);
		dense_selu_backward(s.db, g.pi_w1, g.pi_b1, s.dt, act->pt,
				    act->b, w->pi_w1, d, d);
	}

	/* Readout MLP, down to its input. */
	dense_selu_backward(s.da, g.mlp_w2, g.mlp_b2, s.db, act->b, act->a,
			    w->mlp_w2, d, d);
	dense_selu_backward(s.dreadin, g.mlp_w1, g.mlp_b1, s.da, act->a,
			    tape->readin, w->mlp_w1,
			    (int)pearl_nn_readin_size(cfg), d);

	/* GATv2 layers, last first; s.dh holds dL/dh[l] (from layer l + 1's
	 * input so far; the shares of the pooling and of the focus rows are
	 * added here). */
	for (l = cfg->n_layers - 1; l >= 0; --l) {
		const float *in =
		    l == 0 ? tape->layers.x : tape->layers.h[l - 1];
		int d_in = l == 0 ? cfg->n_features : d;
		float *tmp;

		pearl_nn_pool_backward(s.dh, s.dreadin + (size_t)2 * d * l,
				       tape->layers.h[l], n, d);
		pearl_nn_focus_scatter(s.dh,
				       s.dreadin + pearl_nn_focus_offset(cfg, l),
				       tape->focus, cfg->focus_levels, d);
		pearl_nn_selu_backward(s.dh, tape->layers.h[l], (size_t)n * d);
		memset(s.dagg, 0, (size_t)n * D * sizeof(float));
		pearl_nn_linear_backward(s.dagg, g.gat[l].w_lin,
					 g.gat[l].b_lin, s.dh, tape->agg[l],
					 w->gat[l].w_lin, n, D, d);
		memset(s.dprev, 0, (size_t)n * d * sizeof(float));
		pearl_nn_gatv2_backward(l > 0 ? s.dprev : NULL, &g.gat[l],
					s.dagg, in, d_in, &w->gat[l],
					cfg->heads, d, &tape->adj,
					tape->layers.xl[l], tape->layers.xr[l],
					s.dxl, s.dxr, s.alpha, s.dalpha);
		tmp = s.dh, s.dh = s.dprev, s.dprev = tmp;
	}
	free(s.mem);
	return 0;
}
