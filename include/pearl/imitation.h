/*
 * pearl/imitation.h - supervised training of the policy head on chosen
 * actions (behaviour cloning): for recorded decisions (graph, mask,
 * action), minimize the cross-entropy
 *
 *   L = -log pi(action | graph, mask)
 *
 * of the masked distribution (masked actions have probability 0 and get no
 * gradient, as in PPO). pearl-train uses it to imitate, program by program,
 * the best schedule measured so far (its own greedy one, the rules-only
 * heuristic's, or none at all) before PPO continues from there.
 *
 * The decisions live in a pearl_ppo_batch (graph, mask, action and weight
 * are read; the other fields are ignored). Each decision's loss counts
 * with its weight: decisions on one graph with different actions, their
 * weights summing to 1, imitate a distribution over those actions (the
 * near-best schedules of a program). A decision may instead carry a
 * distribution to learn (its `target`, e.g. another policy's, for
 * distillation): its loss is the cross-entropy -sum_i t_i log pi_i and its
 * accuracy t of the argmax, exactly what the decision split into one-hot
 * decisions of weights t_i would give. Losses and accuracies are
 * weighted means. Ownership follows isl: "__isl_keep"
 * arguments are only read. Functions that can fail return -1 with a
 * message in err (err_size bytes); nothing here exits or aborts.
 */
#ifndef PEARL_IMITATION_H
#define PEARL_IMITATION_H

#include <stddef.h>
#include <stdint.h>

#include "pearl/policy.h"
#include "pearl/ppo.h"
#include "pearl/train.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One epoch over `batch` (__isl_keep): minibatches of `minibatch` shuffled
 * decisions (shuffle seeded by *rng, which advances), one Adam step each
 * on the sum of weight x cross-entropy over the minibatch's size,
 * updating the policy in place (policy and adam kept; adam sized for the
 * policy). Only the logits' dependencies get
 * gradients (the value head is untouched). The mean loss before each step
 * goes to *loss, the fraction of decisions whose action was the argmax
 * under its mask to *accuracy (either may be NULL). Returns 0, or -1 with
 * a message (the policy may then be partly updated). */
int pearl_imitation_epoch(pearl_policy *policy, pearl_adam *adam,
			  const struct pearl_ppo_batch *batch, int minibatch,
			  uint64_t *rng, double *loss, double *accuracy,
			  char *err, size_t err_size);

/* The same loss and accuracy over `batch` without training (a validation
 * set). Returns 0 or -1 with a message. */
int pearl_imitation_evaluate(const pearl_policy *policy,
			     const struct pearl_ppo_batch *batch,
			     double *loss, double *accuracy, char *err,
			     size_t err_size);

/* The parts of a batch pearl_imitation_evaluate_parts scores apart. */
enum pearl_imitation_part {
	pearl_imitation_all,
	pearl_imitation_actions, /* those without a target: imitated actions */
	pearl_imitation_targets, /* those with one (distillation) */
	pearl_imitation_n_parts
};

/* The loss and accuracy of pearl_imitation_evaluate over some decisions,
 * and their number; loss and accuracy NAN if there are none. */
struct pearl_imitation_score {
	double loss, accuracy;
	int n;
};

/* pearl_imitation_evaluate over the whole batch and over each part, in
 * one pass: score[part] for every enum pearl_imitation_part (an empty
 * batch is no error here: every part is then empty). Returns 0 or -1 with
 * a message. */
int pearl_imitation_evaluate_parts(
	const pearl_policy *policy, const struct pearl_ppo_batch *batch,
	struct pearl_imitation_score score[pearl_imitation_n_parts],
	char *err, size_t err_size);

#ifdef __cplusplus
}
#endif

#endif
