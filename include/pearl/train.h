/*
 * pearl/train.h - what training the policy network needs, in plain C:
 * writable parameters, gradients with the weights' layout, a forward pass
 * that keeps its activations (a tape) and the backward pass over it, Adam,
 * and the masked log-softmax and entropy of the policy's distribution with
 * their gradients. tools/pearl-train builds PPO and the actor-critic
 * pre-training on these.
 *
 * Parameters and gradients are one flat float array each, in the order of
 * the weight blob (lib/Policy/blob.h); pearl_policy_get_tensor names the
 * tensors and gives their offsets in that array.
 *
 * Threads: pearl_policy_forward and pearl_policy_backward only read the
 * policy, so several threads may run them on one policy at once, each with
 * its own tape and gradient buffer (sum the buffers afterwards with
 * pearl_policy_grad_add). Writing the parameters (pearl_policy_get_params,
 * pearl_adam_step) must not overlap any evaluation of that policy
 * (pearl_policy_eval included) nor the lifetime of a tape taken from it.
 *
 * Ownership follows isl: "__isl_give" results belong to the caller, who
 * frees them with the matching _free (which accepts NULL and returns NULL);
 * "__isl_keep" arguments are only read for the duration of the call unless
 * said otherwise. Functions that can fail return NULL or -1 and write a
 * message into err (err_size bytes, NUL-terminated; err may be NULL);
 * nothing here exits or aborts.
 */
#ifndef PEARL_TRAIN_H
#define PEARL_TRAIN_H

#include <stddef.h>
#include <stdint.h>

#include "pearl/graph.h"
#include "pearl/policy.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Parameters --------------------------------------------------------- */

/* The policy's parameters (__isl_keep: owned by the policy, valid until it
 * is freed), *n_floats of them, writable in place: the way to update the
 * weights. See the thread rule above. NULL if policy is NULL. */
float *pearl_policy_get_params(pearl_policy *policy, size_t *n_floats);
/* The same, read-only. */
const float *pearl_policy_get_params_const(const pearl_policy *policy,
					   size_t *n_floats);

/* One tensor of the parameter array. */
struct pearl_param_tensor {
	const char *name; /* "w_src", ..., "mlp.w1", ...; static storage */
	int layer;        /* the GATv2 layer of a "gat" tensor, else -1 */
	int rows, cols;   /* a vector has rows = 1 */
	int is_matrix;    /* a weight matrix (else a bias vector) */
	size_t offset;    /* in floats from the start of the array */
};

/* The number of tensors of the policy's parameter array (8 per GATv2 layer
 * and 16 more), in blob order; 0 if policy is NULL. */
int pearl_policy_n_tensors(const pearl_policy *policy);
/* Tensor t (0 <= t < pearl_policy_n_tensors) into *tensor; 0, or -1 if t
 * is out of range. */
int pearl_policy_get_tensor(const pearl_policy *policy, int t,
			    struct pearl_param_tensor *tensor);

/* ---- Gradients ---------------------------------------------------------- */

/* dL/dW for every parameter of a policy: one float array with the layout
 * of pearl_policy_get_params. */
typedef struct pearl_policy_grad pearl_policy_grad;

/* A zeroed gradient buffer shaped like policy's parameters (__isl_give);
 * NULL with a message if memory is exhausted. */
pearl_policy_grad *pearl_policy_grad_alloc(const pearl_policy *policy,
					   char *err, size_t err_size);
/* Accepts NULL; returns NULL. */
pearl_policy_grad *pearl_policy_grad_free(pearl_policy_grad *grad);
/* Sets every gradient to 0. */
void pearl_policy_grad_zero(pearl_policy_grad *grad);
/* The gradient array (__isl_keep: owned by grad), *n_floats long. */
float *pearl_policy_grad_data(pearl_policy_grad *grad, size_t *n_floats);
const float *pearl_policy_grad_data_const(const pearl_policy_grad *grad,
					  size_t *n_floats);
/* grad *= s (e.g. 1 / minibatch size). */
void pearl_policy_grad_scale(pearl_policy_grad *grad, float s);
/* grad += other (__isl_keep); -1 with a message if their shapes differ. */
int pearl_policy_grad_add(pearl_policy_grad *grad,
			  const pearl_policy_grad *other, char *err,
			  size_t err_size);
/* The L2 norm of the whole gradient (summed in double). */
double pearl_policy_grad_norm(const pearl_policy_grad *grad);

/* ---- Forward with a tape, backward -------------------------------------- */

/* The activations of one forward pass, kept for the backward pass. */
typedef struct pearl_policy_tape pearl_policy_tape;

/* The forward pass of pearl_policy_eval on graph (__isl_keep; copied, so
 * it may be freed at once), with the same checks and errors and
 * bit-identical logits[n_actions] and *value, keeping the activations the
 * backward pass needs: (3 heads + 1) hidden floats per node and layer,
 * plus a copy of the features. Returns the tape (__isl_give), which
 * refers to policy (__isl_keep): the policy must outlive the tape and its
 * weights must not change before the last pearl_policy_backward on it.
 * NULL with a message in err on an invalid graph or if memory is
 * exhausted. */
pearl_policy_tape *pearl_policy_forward(const pearl_policy *policy,
					const struct pearl_graph *graph,
					float *logits, float *value,
					char *err, size_t err_size);
/* Accepts NULL; returns NULL. */
pearl_policy_tape *pearl_policy_tape_free(pearl_policy_tape *tape);

/* The backward pass: given the tape (__isl_keep) of a forward pass and
 * dL/dlogits (d_logits[n_actions], __isl_keep; NULL means all zero) and
 * dL/dvalue, ADDS dL/dW to grad (so gradients of several graphs
 * accumulate; zero it first for one). The input features get no gradient.
 * Non-differentiable points take one side's derivative: LeakyReLU and SELU
 * at 0 take the negative side's (the forward tests x > 0); max pooling
 * sends a column's gradient to the node holding its maximum, the first
 * such node (lowest index) on ties, as the forward pass picks it. The tape
 * may be used for several backward passes. Returns 0, or -1 with a message
 * if grad does not match the tape's policy or memory is exhausted (grad
 * is then unchanged or partly updated: discard it). */
int pearl_policy_backward(const pearl_policy_tape *tape,
			  const float *d_logits, float d_value,
			  pearl_policy_grad *grad, char *err,
			  size_t err_size);

/* ---- Adam --------------------------------------------------------------- */

struct pearl_adam_config {
	float lr;            /* learning rate */
	float beta1, beta2;  /* moment decay rates */
	float eps;           /* added to sqrt of the second moment */
	float max_grad_norm; /* clip the gradient's global L2 norm to this
			      * before the update; <= 0: no clipping */
	float weight_decay;  /* decoupled weight decay (AdamW): every step
			      * first shrinks each parameter by
			      * lr * weight_decay of itself; 0: none */
};

/* lr 1e-4 (the PPO setting, lib/README.md, "Training settings"),
 * beta1 0.9, beta2 0.999, eps 1e-8, no clipping, no weight decay. */
struct pearl_adam_config pearl_adam_default_config(void);

/* Adam (Kingma & Ba) over a flat array of n parameters: its first and
 * second moments and step count. */
typedef struct pearl_adam pearl_adam;

/* Moments zeroed, step 0 (__isl_give); cfg __isl_keep, copied. NULL with a
 * message if n is 0, lr, eps, a beta or the weight decay is out of range
 * (lr > 0, 0 <= beta < 1, eps > 0, 0 <= weight_decay, lr * weight_decay
 * < 1, all finite), or memory is exhausted. */
pearl_adam *pearl_adam_alloc(size_t n, const struct pearl_adam_config *cfg,
			     char *err, size_t err_size);
/* Accepts NULL; returns NULL. */
pearl_adam *pearl_adam_free(pearl_adam *adam);

/* The configuration (__isl_keep); lr may be changed between steps with
 * pearl_adam_set_lr (schedules). */
const struct pearl_adam_config *pearl_adam_get_config(const pearl_adam *adam);
int pearl_adam_set_lr(pearl_adam *adam, float lr);
/* Steps taken so far. */
uint64_t pearl_adam_get_step(const pearl_adam *adam);

/* One update of params[n] (__isl_keep, written in place) with grad[n]
 * (__isl_keep, read only; clipping is applied to a scaled copy in effect,
 * grad itself is unchanged): with g = grad scaled by
 * min(1, max_grad_norm / (||grad|| + 1e-6)) if clipping is on,
 *   t += 1, m = b1 m + (1 - b1) g, v = b2 v + (1 - b2) g^2,
 *   p -= lr weight_decay p (decoupled, before the gradient's step),
 *   p -= lr (m / (1 - b1^t)) / (sqrt(v / (1 - b2^t)) + eps).
 * The norm of grad before clipping goes to *grad_norm if not NULL.
 * Returns 0, or -1 with a message (nothing updated) if n is not the
 * optimizer's size or the gradient is not finite. */
int pearl_adam_step(pearl_adam *adam, float *params, const float *grad,
		    size_t n, double *grad_norm, char *err, size_t err_size);

/*
 * Optimizer state for checkpoints, a little-endian blob like the weight
 * blob (lib/Policy/blob.h):
 *
 *   offset size  field
 *        0    4  magic "PRLA"
 *        4    4  uint32 version (1)
 *        8    8  uint64 n: the number of parameters
 *       16    8  uint64 step
 *       24    4  fp32 lr
 *       28    4  fp32 beta1
 *       32    4  fp32 beta2
 *       36    4  fp32 eps
 *       40    4  fp32 max_grad_norm
 *       44    4  fp32 weight_decay (0 in states written before it)
 *       48    8  uint64 checksum: FNV-1a (as the weight blob's) of the
 *                8 n payload bytes
 *       56  8 n  payload: m[n], then v[n], IEEE-754 binary32
 */
#define PEARL_ADAM_STATE_VERSION 1u

/* The state as a malloc'd blob of *size bytes (__isl_give; NULL if memory
 * is exhausted). */
void *pearl_adam_to_blob(const pearl_adam *adam, size_t *size);
/* An optimizer from a blob (__isl_keep, copied); NULL with a message if it
 * is truncated, has another magic or version, trailing data, a bad
 * checksum, an invalid configuration or non-finite moments. */
pearl_adam *pearl_adam_from_blob(const void *data, size_t size, char *err,
				 size_t err_size);
/* The same through a file: 0 / the optimizer, or -1 / NULL with a
 * message. */
int pearl_adam_save_file(const pearl_adam *adam, const char *path, char *err,
			 size_t err_size);
pearl_adam *pearl_adam_load_file(const char *path, char *err,
				 size_t err_size);

/* ---- Minibatches -------------------------------------------------------- */

/* What a minibatch pass does with one sample: its forward pass, its loss
 * and the backward pass into `grad` (__isl_keep), the gradient scaled by
 * 1 / size (the size of its minibatch) so that grad ends up holding the
 * minibatch's mean. `sample` is the sample's number (0..n-1). Returns 0,
 * or -1 with a message in err. */
typedef int (*pearl_minibatch_sample_fn)(void *user, int sample, int size,
					 pearl_policy_grad *grad, char *err,
					 size_t err_size);

/* One pass over n samples (n >= 1, minibatch >= 1): order[0..n-1] (room
 * for n ints, overwritten) becomes a permutation drawn from *rng (which
 * advances, pearl_shuffle_indices), cut into minibatches of `minibatch`
 * samples (the last may be smaller); for each: grad (__isl_keep) zeroed,
 * add_sample(user, ...) for its samples in order, then one Adam step of
 * the policy's parameters (policy and adam __isl_keep, updated in place).
 * The norm of each step's gradient before clipping is added to
 * *grad_norm_sum and each step counted in *adam_steps (either may be
 * NULL). Returns 0, or -1 with a message (the policy may then be partly
 * updated). */
int pearl_minibatch_pass(pearl_policy *policy, pearl_adam *adam,
			 pearl_policy_grad *grad, int *order, int n,
			 int minibatch, uint64_t *rng,
			 pearl_minibatch_sample_fn add_sample, void *user,
			 double *grad_norm_sum, int *adam_steps, char *err,
			 size_t err_size);

/* ---- The masked action distribution ------------------------------------- */

/*
 * mask[i] != 0 marks action i as masked (pearl/agent.h's convention).
 * Masked actions are excluded exactly: the distribution is the softmax
 * over the unmasked logits only, which is the limit of softmax(logits -
 * 1e8 mask) (the reference implementation's masking, lib/README.md,
 * "Training settings") without its rounding; masked actions have
 * probability 0, log-probability -INFINITY and zero gradient. A NULL mask
 * masks nothing. At least one action must be unmasked.
 */

/* The unmasked action of largest x[n] (logits or log-probabilities), the
 * lowest number on ties, as the greedy agent picks; -1 if every action is
 * masked. */
int pearl_masked_argmax(const float *x, const unsigned char *mask, int n);
/* log pi into logp[n] (-INFINITY for masked actions), computed in double
 * with the maximum subtracted. Returns 0, or -1 if n < 1, every action is
 * masked or a logit is not finite (logp untouched). */
int pearl_masked_log_softmax(float *logp, const float *logits,
			     const unsigned char *mask, int n);
/* d logp[action] / d logits, times scale, ADDED to d_logits[n]:
 * scale (onehot(action) - pi) on unmasked entries, 0 on masked ones.
 * logp is pearl_masked_log_softmax's output; action must be unmasked. */
void pearl_masked_log_softmax_grad(float *d_logits, const float *logp,
				   const unsigned char *mask, int n,
				   int action, float scale);
/* d (sum_j target[j] logp[j]) / d logits, times scale, ADDED to
 * d_logits[n]: scale (target_i - pi_i sum_j target[j]) on unmasked
 * entries, 0 on masked ones (where target must be 0). With target the
 * one-hot of an action it is pearl_masked_log_softmax_grad; with a
 * distribution, the gradient of minus the cross-entropy to it. */
void pearl_masked_expected_log_softmax_grad(float *d_logits,
					    const float *logp,
					    const unsigned char *mask, int n,
					    const float *target, float scale);
/* The entropy -sum pi log pi of the masked distribution (masked actions
 * contribute 0), from logp as above. */
float pearl_masked_entropy(const float *logp, const unsigned char *mask,
			   int n);
/* d entropy / d logits, times scale, ADDED to d_logits[n]:
 * -scale pi_i (logp_i + entropy) on unmasked entries, 0 on masked ones. */
void pearl_masked_entropy_grad(float *d_logits, const float *logp,
			       const unsigned char *mask, int n, float scale);

#ifdef __cplusplus
}
#endif

#endif
