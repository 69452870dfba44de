/*
 * likelihood.h - how likely a policy finds a schedule: the sum, over the
 * decisions that lead the agent to it (teacher.h), of the log-probability
 * of each decision's action under its mask. pearl-train's --imitate-likely
 * imitates, among schedules measured as fast as one another, the one the
 * starting policy finds the most likely: the least it has to unlearn.
 */
#ifndef PEARL_TRAIN_LIKELIHOOD_H
#define PEARL_TRAIN_LIKELIHOOD_H

#include <stddef.h>

#include "pearl/env.h"
#include "pearl/policy.h"

/* The log-likelihood of `schedule` on p under `policy` (all kept) into
 * *loglik (<= 0). 1, 0 if the agent cannot reach the schedule (the reason
 * in err), or -1 with a message in err. */
int schedule_log_likelihood(pearl_env_program *p, const char *schedule,
			    const pearl_policy *policy, double *loglik,
			    char *err, size_t err_size);

#endif
