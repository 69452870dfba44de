/*
 * nn_grad.h - the backward passes of the layers in nn.h, one by one
 * (internal to lib/Policy). Each takes dL/d(output) and the forward pass's
 * saved tensors, ADDS dL/d(weights) into gradient tensors laid out like
 * the weights, and ADDS dL/d(input) into dx when dx is not NULL (the
 * callers zero what must start at 0). Shapes and conventions as in nn.h.
 */
#ifndef PEARL_POLICY_NN_GRAD_H
#define PEARL_POLICY_NN_GRAD_H

#include <stddef.h>

#include "nn.h"
#include "pearl/train.h"

/* The gradients of one GATv2 layer: struct pearl_gat_weights, writable. */
struct pearl_gat_grads {
	float *w_src, *b_src, *w_dst, *b_dst, *att, *bias, *w_lin, *b_lin;
};

/* Writable views of the gradient tensors of every GATv2 layer and of the
 * rest, pointing into data (laid out by pearl_policy_walk for cfg). */
struct pearl_policy_grads {
	struct pearl_gat_grads gat[PEARL_POLICY_MAX_LAYERS];
	float *mlp_w1, *mlp_b1, *mlp_w2, *mlp_b2;
	float *pi_w1, *pi_b1, *pi_w2, *pi_b2, *pi_w3, *pi_b3;
	float *v_w1, *v_b1, *v_w2, *v_b2, *v_w3, *v_b3;
};
void pearl_policy_grads_map(struct pearl_policy_grads *gw,
			    const struct pearl_policy_config *cfg,
			    float *data);

/* pearl/train.h's gradient buffer. */
struct pearl_policy_grad {
	struct pearl_policy_config cfg;
	size_t n_floats;
	float data[]; /* n_floats values, laid out as the weights; one
		       * allocation with the struct */
};

/* y = x w + b over n rows: dw[d_in, d_out] += x^T dy, db[d_out] += the sum
 * of dy's rows, dx[n, d_in] += dy w^T (dx may be NULL). Zero inputs are
 * skipped as in the forward pass. */
void pearl_nn_linear_backward(float *dx, float *dw, float *db,
			      const float *dy, const float *x, const float *w,
			      int n, int d_in, int d_out);

/* y = selu(x) in place: dy[i] *= selu'(x[i]), written from y alone
 * (lambda where y > 0, that is x > 0; else y + lambda alpha, which is
 * lambda alpha exp(x)). */
void pearl_nn_selu_backward(float *dy, const float *y, size_t n);

/* pooled = concat(mean, max) of h[n, d]: dh[n, d] += dmean / n, and
 * dmax[c] to the row holding the maximum of column c, the first such row
 * on ties (the one the forward pass keeps). */
void pearl_nn_pool_backward(float *dh, const float *dpooled, const float *h,
			    int n, int d);

/* The focus rows (pearl_nn_focus_gather): dh row nodes[k] += dout[k d ..
 * (k + 1) d) for k < levels with nodes[k] >= 0. */
void pearl_nn_focus_scatter(float *dh, const float *dout, const int *nodes,
			    int levels, int d);

/*
 * The GATv2 layer of pearl_nn_gatv2 (without the projection that follows):
 * dout[n, H*d] is dL/dout; x, xl, xr are the forward pass's input and
 * transforms. Adds into dg's w_src, b_src, w_dst, b_dst, att and bias (not
 * w_lin, b_lin) and into dx[n, d_in] if not NULL. Scratch: dxl and dxr of
 * n*H*d floats, alpha and dalpha of adj->max_degree floats.
 */
void pearl_nn_gatv2_backward(float *dx, const struct pearl_gat_grads *dg,
			     const float *dout, const float *x, int d_in,
			     const struct pearl_gat_weights *g, int heads,
			     int hidden, const struct pearl_nn_adjacency *adj,
			     const float *xl, const float *xr, float *dxl,
			     float *dxr, float *alpha, float *dalpha);

#endif
