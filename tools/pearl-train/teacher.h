/*
 * teacher.h - the decisions that lead the agent to a given schedule: the
 * schedule string (Pearl's notation, "N" between branches, as episodes and
 * the baselines write it) is replayed on a fresh model of the program
 * branch by branch, under the agent's masks (pearl_agent_mask), and every
 * decision is recorded as the agent would have seen it: the graph with the
 * branch in focus, the mask, the action; then N on every branch (also on
 * those the schedule leaves alone). pearl-train imitates these decisions
 * (pearl/imitation.h). The masks use the default limit on parallel loops
 * (PEARL_AGENT_MIN_PARALLEL_WORK), as the baselines do; pearl-train's
 * --min-parallel-work applies to its own episodes only.
 */
#ifndef PEARL_TRAIN_TEACHER_H
#define PEARL_TRAIN_TEACHER_H

#include <stddef.h>

#include "pearl/env.h"
#include "pearl/ppo.h"

/* Appends the decisions of `schedule` on `p` (both kept) to `batch`
 * (logp_old, value_old and rewards are 0; the last one ends an episode).
 * Returns the number of decisions appended; 0 (nothing appended) if the
 * agent could not reach the schedule: an action its masks exclude, or one
 * the dependences refuse (the reason in err); -1 with a message on
 * errors. */
int teacher_record(pearl_env_program *p, const char *schedule,
		   struct pearl_ppo_batch *batch, char *err, size_t err_size);

#endif
