/*
 * distill.h - what a policy would do, as decisions to imitate
 * (distillation). Imitating searched targets moves the policy towards
 * them on the programs that have one, and away from what it knew
 * everywhere else: the kernels it scheduled well before come out slower.
 * Distillation keeps it there. The decisions that lead the agent along a
 * schedule of the teacher (its greedy one) are recorded as teacher.h
 * records them, and each carries the teacher's whole distribution under
 * that decision's mask as its target (pearl/imitation.h): learning it
 * keeps the teacher's order of preference, not only its argmax.
 */
#ifndef PEARL_TRAIN_DISTILL_H
#define PEARL_TRAIN_DISTILL_H

#include <stddef.h>

#include "pearl/agent.h"
#include "pearl/env.h"
#include "pearl/policy.h"
#include "pearl/ppo.h"

/* Appends to `batch` the decisions of `schedule` on `p` (teacher_record),
 * each with the distribution of `teacher` (__isl_keep) on its graph and
 * mask at `temperature` (> 0; the logits divided by it: below 1 sharper,
 * 1 the teacher's own) as target, and `weight`. Returns the number of decisions
 * appended; 0 (nothing appended) if the agent cannot reach the schedule
 * (the reason in err); -1 with a message on errors (nothing appended). */
int distill_record(pearl_env_program *p, const char *schedule,
		   const pearl_policy *teacher, float temperature, float weight,
		   struct pearl_ppo_batch *batch, char *err, size_t err_size);

/* Appends to `batch` the decisions of one episode of `actor` (__isl_keep)
 * under `opts` (its observer replaced; greedy or sampled) on a fresh model
 * of `p`, nothing timed, each with the distribution of `teacher`
 * (__isl_keep) at `temperature` as target and `weight`. With the teacher
 * as actor, these are the states the teacher reaches; with the student,
 * the states the student reaches, labelled by the teacher (DAgger).
 * Returns the number of decisions appended (0 if the episode had none to
 * make); -1 with a message on errors (nothing appended). */
int distill_rollout(pearl_env_program *p, const pearl_policy *actor,
		    const struct pearl_agent_options *opts,
		    const pearl_policy *teacher, float temperature,
		    float weight, struct pearl_ppo_batch *batch, char *err,
		    size_t err_size);

#endif
