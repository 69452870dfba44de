/*
 * nn.h - the layers of the policy network, forward only (internal to
 * lib/Policy). Every tensor is row-major float; a matrix W is [in, out] and
 * a linear layer computes y = x W + b. A backward pass would mirror these
 * functions one by one.
 */
#ifndef PEARL_POLICY_NN_H
#define PEARL_POLICY_NN_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

/* Versions of the dense kernels for AVX2 and for any x86-64, chosen when
 * the library is loaded (GCC's function multi-versioning). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define PEARL_NN_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define PEARL_NN_CLONES
#endif

#include "weights.h"

/* SELU constants (Klambauer et al.). */
#define PEARL_SELU_LAMBDA 1.0507009873554805f
#define PEARL_SELU_ALPHA 1.6732632423543772f
#define PEARL_GAT_NEG_SLOPE 0.2f

/* In place over x[0..n-1] (n >= 1): x[e] = exp(x[e] - max x), the
 * numerators of softmax(x) with the maximum subtracted against overflow;
 * returns their sum, the denominator. The forward and the backward pass
 * both call it, so that their attention coefficients are the same bits. */
static inline float pearl_nn_exp_minus_max(float *x, int n)
{
	float max = x[0], sum = 0.0f;
	int e;

	for (e = 1; e < n; ++e)
		max = x[e] > max ? x[e] : max;
	for (e = 0; e < n; ++e) {
		x[e] = expf(x[e] - max);
		sum += x[e];
	}
	return sum;
}

/* y[n, d_out] = x[n, d_in] w[d_in, d_out] + b[d_out]; y must not alias x.
 * Zero inputs are skipped (node features are sparse). */
void pearl_nn_linear(float *y, const float *x, const float *w, const float *b,
		     int n, int d_in, int d_out);

/* In place: x = lambda * (x > 0 ? x : alpha * (exp(x) - 1)). */
void pearl_nn_selu(float *x, size_t n);

/* concat(mean over the n rows of h[n, d], max over them) into pooled[2 d]. */
void pearl_nn_pool(float *pooled, const float *h, int n, int d);

/*
 * The graph's neighbourhoods in compressed form: the sources of target i
 * are src[start[i] .. start[i + 1]), sorted, without duplicates, always
 * including i itself (the self-loop).
 */
struct pearl_nn_adjacency {
	int n_nodes;
	int *start; /* n_nodes + 1 */
	int *src;   /* start[n_nodes] */
	int max_degree;
};

/*
 * One GATv2 attention layer (PyG GATv2Conv, share_weights=False,
 * concat=True, no dropout) on x[n, d_in]: with x_l = x w_src + b_src and
 * x_r = x w_dst + b_dst ([n, H*d] each), for every target i and head k
 *   e_ij = att_k . LeakyReLU_0.2(x_l[j]_k + x_r[i]_k)   for j in N(i),
 *   alpha_ij = softmax_j(e_ij),  out[i]_k = sum_j alpha_ij x_l[j]_k,
 * and out[i] += bias. Writes out[n, H*d]; xl and xr are scratch of
 * n*H*d floats, scores of adj->max_degree floats.
 */
void pearl_nn_gatv2(float *out, const float *x, int d_in,
		    const struct pearl_gat_weights *g, int heads, int hidden,
		    const struct pearl_nn_adjacency *adj, float *xl, float *xr,
		    float *scores);

/* The part of pearl_nn_gatv2 for target i alone: out row oi[H*d] from the
 * projections xl and xr (the rows of i and of its neighbours must be
 * current); scores as for pearl_nn_gatv2. Same bits as the row
 * pearl_nn_gatv2 writes. */
void pearl_nn_gatv2_target(float *oi, int i, const float *xl,
			   const float *xr, const struct pearl_gat_weights *g,
			   int heads, int hidden,
			   const struct pearl_nn_adjacency *adj,
			   float *scores);

/* The activations of the readout (d floats each): the MLP's two layers,
 * the policy head's and the value head's two hidden layers. */
struct pearl_nn_readout_acts {
	float *a, *b;   /* MLP */
	float *pt, *pu; /* policy head */
	float *vt, *vu; /* value head */
};

/* Points act's six vectors of d floats at f[0 .. 6 d); returns f + 6 d. */
float *pearl_nn_readout_acts_carve(struct pearl_nn_readout_acts *act,
				   float *f, size_t d);

/* The activations a pass that keeps them (the training tape, the cache of
 * incremental passes) holds of the GATv2 layers over n nodes: the input
 * rows and, per layer, both projections and the layer's output. */
struct pearl_nn_layer_acts {
	float *x;                           /* [n, F] the node features */
	float *xl[PEARL_POLICY_MAX_LAYERS]; /* [n, D] x w_src + b_src */
	float *xr[PEARL_POLICY_MAX_LAYERS]; /* [n, D] x w_dst + b_dst */
	float *h[PEARL_POLICY_MAX_LAYERS];  /* [n, d] after Linear, SELU */
};

/* The number of floats of those arrays for n nodes under cfg. */
uint64_t pearl_nn_layer_acts_floats(const struct pearl_policy_config *cfg,
				    size_t n);

/* Points acts's arrays for n nodes under cfg at f onwards (as many floats
 * as pearl_nn_layer_acts_floats says); returns the float after them. */
float *pearl_nn_layer_acts_carve(struct pearl_nn_layer_acts *acts,
				 const struct pearl_policy_config *cfg,
				 size_t n, float *f);

/* One allocation of n_floats floats, then n_ints ints, then n_bytes bytes,
 * for its caller to carve (free with free); NULL if out of memory or if
 * its size would come near SIZE_MAX. */
void *pearl_nn_block_alloc(uint64_t n_floats, uint64_t n_ints,
			   uint64_t n_bytes);

/* The readout's input (readin): the pooled states of every layer
 * (2 d each, at 2 d l), then the focus loops' states of every layer
 * (focus_levels * d each, at pearl_nn_focus_offset). Its width in
 * floats. */
size_t pearl_nn_readin_size(const struct pearl_policy_config *cfg);
/* Where layer l's focus rows start in the readin. */
size_t pearl_nn_focus_offset(const struct pearl_policy_config *cfg, int l);

/* The focus loops of a graph of n nodes with features x (n_features
 * each): nodes[k], k < cfg->focus_levels, is the first node whose kind is
 * loop, whose [FOCUS] is set (> 0.5) and whose largest [LEVEL] entry
 * (the first of equal ones) is entry k; -1 if there is none. */
void pearl_nn_focus_nodes(int *nodes, const struct pearl_policy_config *cfg,
			  const float *x, int n);
/* out[k d .. (k + 1) d) = row nodes[k] of h (n rows of d), or zeros if
 * nodes[k] is -1, for k < levels. */
void pearl_nn_focus_gather(float *out, const float *h, const int *nodes,
			   int levels, int d);

/* Layer l's share of the readin from its node states h (n rows of d):
 * the pooling (pearl_nn_pool) and the rows of the focus loops `focus`
 * (pearl_nn_focus_nodes, pearl_nn_focus_gather). */
void pearl_nn_readin_layer(float *readin,
			   const struct pearl_policy_config *cfg, int l,
			   const float *h, int n, const int *focus);

/* The readout MLP and both heads on readin (pearl_nn_readin_size floats):
 * the raw logits (n_actions) and the value, keeping the activations in
 * *act. */
void pearl_nn_readout(const struct pearl_policy_config *cfg,
		      const struct pearl_policy_weights *w,
		      const float *readin, struct pearl_nn_readout_acts *act,
		      float *logits, float *value);

#endif
