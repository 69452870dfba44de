/*
 * kind_recall.h - which kinds of imitated actions the policy learns: for
 * the decisions of each kind of action (I, T, J, V, N, ...), the share
 * whose action the policy's most likely one is, and what it picks
 * instead. Imitation's accuracy is a mean over all decisions; a kind of
 * action that is rare among them, or that comes last in a branch (V after
 * P), can be missed nearly always while the mean stays high. pearl-train
 * prints the table before and after imitation's epochs.
 *
 * Only the decisions without a target distribution count (the imitated
 * actions; the distilled ones learn a distribution, not an action), with
 * their weights. --imitate-kind-weight scales the weights of some kinds'
 * decisions before the epochs (kind_weights_*).
 */
#ifndef PEARL_TRAIN_KIND_RECALL_H
#define PEARL_TRAIN_KIND_RECALL_H

#include <stddef.h>
#include <stdio.h>

#include "pearl/policy.h"
#include "pearl/ppo.h"

/* Kinds of pearl_action_kind (transform.h), K the last. */
#define KIND_RECALL_KINDS 12

struct kind_recall {
	int n[KIND_RECALL_KINDS];           /* decisions imitating the kind */
	double weight[KIND_RECALL_KINDS];   /* their summed weight */
	/* picked[k][j]: weight of the decisions imitating kind k whose
	 * most likely action (under the mask) is of kind j */
	double picked[KIND_RECALL_KINDS][KIND_RECALL_KINDS];
	double exact[KIND_RECALL_KINDS];    /* ... whose it is the action */
};

/* Fills *r for `policy` on batch's imitated decisions (both kept). 0, or
 * -1 with a message in err. */
int kind_recall_measure(const pearl_policy *policy,
			const struct pearl_ppo_batch *batch,
			struct kind_recall *r, char *err, size_t err_size);

/* One line per kind with decisions, on f, each starting with `prefix`:
 * the kind's letter, its decisions, the share picked exactly, the share
 * picked of the same kind, and the two kinds most often picked instead. */
void kind_recall_print(FILE *f, const char *prefix,
		       const struct kind_recall *r);

/* --imitate-kind-weight: "V=4" or "V=4,D=2" into w[] (KIND_RECALL_KINDS
 * factors, each kind not named 1): the letter of a kind of action and a
 * factor in (0, 100]. 0, or -1 if `spec` is not such a list. */
int kind_weights_parse(const char *spec, float *w);

/* Multiplies the weight of every imitated decision of batch (those
 * without a target distribution) by w[] of its action's kind: imitation
 * then counts the kinds the policy misses (kind_recall_print) more. */
void kind_weights_apply(struct pearl_ppo_batch *batch, const float *w);

#endif
