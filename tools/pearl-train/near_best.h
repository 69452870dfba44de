/*
 * near_best.h - the schedules imitation learns from on one program: the
 * fastest measured and those within a tolerance of it. Measurements a few
 * percent apart do not rank schedules (one compiled schedule measures up
 * to 10% apart from one run to the next), so imitating the fastest alone
 * teaches the policy the luck of one measurement: which of V(8) and
 * V(16), or of two tile sizes, happened to win. Imitating each of the
 * near-best with an equal share of the program's weight teaches a
 * distribution over choices that are as good as one another
 * (pearl/imitation.h, the decisions' weights).
 *
 * The set keeps the NEAR_BEST_MAX fastest distinct schedules noted, with
 * their speedups; ownership follows isl (strings noted are copied).
 */
#ifndef PEARL_TRAIN_NEAR_BEST_H
#define PEARL_TRAIN_NEAR_BEST_H

#include <stddef.h>

#include "pearl/env.h"
#include "pearl/ppo.h"

#define NEAR_BEST_MAX 8

struct near_best {
	int n;
	char *schedule[NEAR_BEST_MAX]; /* malloc'd; fastest first */
	double speedup[NEAR_BEST_MAX];
};

/* An empty set. */
void near_best_init(struct near_best *nb);
/* Frees the schedules; the set is empty afterwards. */
void near_best_clear(struct near_best *nb);

/* Notes `schedule` (kept), measured at `speedup`: kept if it is among the
 * NEAR_BEST_MAX fastest distinct schedules noted ("" and speedups <= 0
 * are not; a schedule noted again keeps its faster speedup). 0, or -1 if
 * memory is exhausted. */
int near_best_note(struct near_best *nb, const char *schedule,
		   double speedup);

/* Appends to `batch` the decisions (teacher.h) of `best` (kept), the
 * schedule imitation chose, and, unless best is "" (none), of the other
 * schedules of `nb` with a speedup of at least `min_speedup` that the agent
 * can reach, at most `max` schedules in all (best first, then the
 * fastest). Each schedule's decisions get the weight 1/k, k the number
 * recorded, so that the program weighs as one schedule. Returns k (0: `best` is out of the
 * agent's reach, nothing appended, the reason in err), or -1 with a
 * message in err. */
int near_best_record(const struct near_best *nb, pearl_env_program *p,
		     const char *best, double min_speedup, int max,
		     struct pearl_ppo_batch *batch, char *err,
		     size_t err_size);

#endif
