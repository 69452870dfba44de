/*
 * label_conflicts.h - how accurate any policy could be on imitation's
 * decisions. Two decisions whose states the network sees as the same (the
 * same graph, features and edges, and the same mask) get the same
 * distribution, whatever the weights: if their targets name different
 * actions, one of them is missed by every fit. pearl-train counts such
 * decisions before imitation's epochs, so that a low training accuracy can
 * be told apart as underfitting (the ceiling is high) or as features that
 * do not tell the programs apart (the ceiling is low).
 *
 * Only the decisions without a target distribution count (the imitated
 * actions; the distilled ones learn a distribution, not an action).
 */
#ifndef PEARL_TRAIN_LABEL_CONFLICTS_H
#define PEARL_TRAIN_LABEL_CONFLICTS_H

#include <stddef.h>

#include "pearl/ppo.h"

struct label_conflicts {
	int decisions;   /* imitated decisions (no target distribution) */
	int states;      /* distinct states among them */
	int shared;      /* states two or more of the decisions reach */
	int conflicting; /* states whose decisions name different actions */
	int missed;      /* decisions any policy misses: in each state, all
			  * but those of its most frequent action */
	double ceiling;  /* 1 - missed / decisions (1 without decisions) */
};

/* Counts the label conflicts of batch's imitated decisions into *out
 * (batch kept). States are compared by a 64-bit hash of the graph and the
 * mask, and equal hashes by their contents. 0, or -1 with a message in
 * err if memory is exhausted. */
int label_conflicts_count(const struct pearl_ppo_batch *batch,
			  struct label_conflicts *out, char *err,
			  size_t err_size);

#endif
