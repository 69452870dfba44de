/*
 * pearl/ppo.h - proximal policy optimization (Schulman et al. 2017) of the
 * policy network over recorded episodes, as Pearl trains its agent
 * (lib/README.md, "Training settings"), and the value-only regression
 * used for actor-critic pre-training (Pearl paper section 5.2).
 *
 * A batch holds whole episodes, step after step: the graph the policy saw,
 * the mask the action was chosen under, the action, its log-probability and
 * the value estimate at the time, and the reward the environment gave.
 * pearl_ppo_batch_finish computes generalized advantage estimates (GAE) and
 * returns; pearl_ppo_update then runs epochs of minibatch Adam steps on
 *
 *   L = -min(r A, clip(r, 1 - eps, 1 + eps) A) + c_v (V - R)^2 - c_e H
 *
 * averaged over the minibatch, with r = exp(log pi(a|s) - log pi_old(a|s))
 * (the ratio of probabilities, exponentiated), log pi the masked
 * log-softmax (the mask applies in the update as in the rollout: masked
 * actions have probability 0 and get no gradient) and H the entropy of the
 * masked distribution.
 *
 * Ownership follows isl: "__isl_take" arguments are taken over,
 * "__isl_keep" ones only read. Functions that can fail return -1 with a
 * message in err (err_size bytes); nothing here exits or aborts.
 */
#ifndef PEARL_PPO_H
#define PEARL_PPO_H

#include <stddef.h>
#include <stdint.h>

#include "pearl/graph.h"
#include "pearl/policy.h"
#include "pearl/train.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PEARL_PPO_MAX_ACTIONS 128

/* One decision of an episode. */
struct pearl_ppo_step {
	struct pearl_graph *graph; /* owned by the batch */
	unsigned char mask[PEARL_PPO_MAX_ACTIONS]; /* 1: masked */
	int action;
	float logp_old;  /* log pi_old(action | graph, mask) */
	float value_old; /* V_old(graph) */
	float reward;
	int episode_end; /* the last step of its episode */
	float advantage; /* filled by pearl_ppo_batch_finish */
	float ret;       /* advantage + value_old: the value target */
	float weight;    /* imitation only: the decision's share of the
			  * loss (1 from pearl_ppo_batch_add; pearl-train
			  * splits a program's weight among near-best
			  * schedules); PPO ignores it */
	float *target;   /* imitation only: the distribution to learn
			  * instead of the one-hot `action` (n_actions
			  * floats, 0 where masked, summing to 1; owned by
			  * the batch), or NULL; PPO ignores it */
};

struct pearl_ppo_batch {
	struct pearl_ppo_step *steps;
	int n_steps, cap;
	int n_actions; /* the policy's action count */
};

/* An empty batch for a policy with n_actions actions
 * (<= PEARL_PPO_MAX_ACTIONS). */
void pearl_ppo_batch_init(struct pearl_ppo_batch *batch, int n_actions);
/* Frees the graphs and the steps; the batch is empty afterwards. */
void pearl_ppo_batch_clear(struct pearl_ppo_batch *batch);
/* Frees the steps from `n` on (their graphs and targets); the batch then
 * holds its first n steps (n <= n_steps). */
void pearl_ppo_batch_truncate(struct pearl_ppo_batch *batch, int n);
/* Appends a step; takes the graph (__isl_take), copies the mask (n_actions
 * bytes). Returns 0, or -1 if memory is exhausted (the graph is freed). */
int pearl_ppo_batch_add(struct pearl_ppo_batch *batch,
			struct pearl_graph *graph, const unsigned char *mask,
			int action, float logp_old, float value_old);

/* Gives step k of `batch` the distribution `target` (n_actions floats,
 * copied) to imitate instead of its action (pearl/imitation.h). Returns
 * 0, or -1 if memory is exhausted (the step is unchanged). */
int pearl_ppo_step_set_target(struct pearl_ppo_batch *batch, int k,
			      const float *target);

/* GAE(gamma, lambda) over each episode (ended by episode_end; the value
 * after an episode's last step is 0): advantage and ret of every step. */
void pearl_ppo_batch_finish(struct pearl_ppo_batch *batch, float gamma,
			    float lambda);

struct pearl_ppo_config {
	float clip;          /* eps of the clipped ratio (Pearl: 0.3) */
	float gamma, lambda; /* discount and GAE (0.99, 0.95) */
	float value_coef;    /* c_v (2) */
	float entropy_coef;  /* c_e (decayed from 0.1 to 0 by the trainer) */
	int epochs;          /* passes over the batch (5) */
	int minibatch;       /* steps per Adam step (64) */
	int normalize_advantages; /* per batch, to mean 0 and std 1 (1) */
};
/* Pearl's hyperparameters (Pearl paper table 2;
 * lib/README.md, "Training settings"). */
struct pearl_ppo_config pearl_ppo_default_config(void);

/* What an update did, averaged over its minibatch steps. */
struct pearl_ppo_stats {
	double policy_loss, value_loss, entropy;
	double approx_kl;     /* mean of logp_old - logp */
	double clip_fraction; /* steps whose ratio was clipped */
	double grad_norm;     /* before clipping */
	int adam_steps;
};

/* The PPO loss of one step and dL/dlogits, dL/dvalue (for tests and for
 * pearl_ppo_update): logits[n] and value are the network's outputs on the
 * step's graph, adv the (normalized) advantage. d_logits is overwritten.
 * Fills loss parts into *stats-like outputs: pol, val, ent, kl, clipped.
 * Returns 0, or -1 if the mask leaves nothing or a logit is not finite. */
int pearl_ppo_step_loss(const struct pearl_ppo_step *step, int n,
			const float *logits, float value, float adv,
			const struct pearl_ppo_config *cfg, float *d_logits,
			float *d_value, double *pol, double *val, double *ent,
			double *kl, int *clipped);

/* Runs cfg->epochs passes over the batch (finished), in minibatches of
 * shuffled steps (shuffle seeded by *rng, which advances), one Adam step
 * each, updating policy's parameters in place (policy and adam kept; adam
 * sized for the policy). Returns 0, or -1 with a message (the policy may
 * then be partly updated). */
int pearl_ppo_update(pearl_policy *policy, pearl_adam *adam,
		     struct pearl_ppo_batch *batch,
		     const struct pearl_ppo_config *cfg, uint64_t *rng,
		     struct pearl_ppo_stats *stats, char *err,
		     size_t err_size);

/* One epoch of value regression for pre-training: for each (graph[i],
 * target[i]), L = (V(graph) - target)^2, averaged over minibatches of
 * `minibatch` shuffled samples, one Adam step each. Only the value's
 * dependencies get gradients (the GATv2 layers, the MLP and the value
 * head; the policy head is untouched). The mean squared error before each
 * step, averaged, goes to *mse. Returns 0 or -1 with a message. */
int pearl_value_regression_epoch(pearl_policy *policy, pearl_adam *adam,
				 struct pearl_graph *const *graphs,
				 const float *targets, int n, int minibatch,
				 uint64_t *rng, double *mse, char *err,
				 size_t err_size);

#ifdef __cplusplus
}
#endif

#endif
