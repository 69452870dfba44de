/*
 * weights.h - the policy's weights (llama2.c style): a Weights struct of
 * pointers into one float array, laid out by a single walk in blob order
 * (blob.h), and the policy object itself. Internal to lib/Policy.
 *
 * Shapes use d = hidden, H = heads, D = H * d, F = n_features; matrices are
 * row-major [in, out] (y = x W + b).
 */
#ifndef PEARL_POLICY_WEIGHTS_H
#define PEARL_POLICY_WEIGHTS_H

#include <stddef.h>
#include <stdint.h>

#include "pearl/error.h"
#include "pearl/policy.h"

#define PEARL_POLICY_MAX_LAYERS 8

/* One GATv2 layer and the projection that follows it. */
struct pearl_gat_weights {
	const float *w_src; /* [d_in, D] x_l = x w_src + b_src (messages) */
	const float *b_src; /* [D] */
	const float *w_dst; /* [d_in, D] x_r = x w_dst + b_dst (targets) */
	const float *b_dst; /* [D] */
	const float *att;   /* [H, d] attention vector per head */
	const float *bias;  /* [D] added to the concatenated heads */
	const float *w_lin; /* [D, d] Linear(D -> d), then SELU */
	const float *b_lin; /* [d] */
};

struct pearl_policy_weights {
	struct pearl_gat_weights gat[PEARL_POLICY_MAX_LAYERS]; /* n_layers */
	const float *mlp_w1; /* [2 d n_layers, d] readout MLP, SELU */
	const float *mlp_b1; /* [d] */
	const float *mlp_w2; /* [d, d] SELU */
	const float *mlp_b2; /* [d] */
	const float *pi_w1;  /* [d, d] policy head, SELU */
	const float *pi_b1;  /* [d] */
	const float *pi_w2;  /* [d, d] SELU */
	const float *pi_b2;  /* [d] */
	const float *pi_w3;  /* [d, n_actions] logits */
	const float *pi_b3;  /* [n_actions] */
	const float *v_w1;   /* [d, d] value head, SELU */
	const float *v_b1;   /* [d] */
	const float *v_w2;   /* [d, d] SELU */
	const float *v_b2;   /* [d] */
	const float *v_w3;   /* [d, 1] value */
	const float *v_b3;   /* [1] */
};

struct pearl_policy {
	struct pearl_policy_config cfg;
	struct pearl_policy_weights w; /* pointers into data */
	float *data;                   /* owned; n_floats values */
	size_t n_floats;
};

/* One tensor of the blob, as recorded by the walk. */
struct pearl_tensor {
	const char *name; /* "w_src", "mlp.w1", ... */
	int layer;        /* GATv2 layer, or -1 */
	int rows, cols;   /* a vector has rows = 1 */
	int is_matrix;    /* Xavier-initialized (else a bias: zeros) */
	size_t offset;    /* in floats from the start of the payload */
};

#define PEARL_POLICY_MAX_TENSORS (8 * PEARL_POLICY_MAX_LAYERS + 16)

/* 0 if cfg is a configuration this code can hold (every dimension positive
 * and bounded, at most PEARL_POLICY_MAX_LAYERS layers, fewer than 2^32
 * floats); else -1 with a message in err. */
int pearl_policy_config_check(const struct pearl_policy_config *cfg,
			      char *err, size_t err_size);

/* Walks the blob order for cfg (which must pass pearl_policy_config_check).
 * If base is not NULL, points w's fields into base; if tab is not NULL,
 * records up to PEARL_POLICY_MAX_TENSORS tensors there and their number in
 * *n_tensors. Returns the total number of floats. */
uint64_t pearl_policy_walk(const struct pearl_policy_config *cfg,
			   const float *base, struct pearl_policy_weights *w,
			   struct pearl_tensor *tab, int *n_tensors);

/* A policy for cfg (checked) with n_floats uninitialized weights mapped;
 * NULL with a message in err. */
pearl_policy *pearl_policy_alloc(const struct pearl_policy_config *cfg,
				 char *err, size_t err_size);

#endif
