/*
 * imitate.h - pearl-train's imitation phase (--imitate-epochs): for every
 * program the environment times the candidates (the policy's greedy
 * schedule, --imitate-samples sampled ones, the rules-only heuristic's,
 * with --imitate-prune their pruned forms, with --imitate-search the
 * search's best, with --imitate-targets a campaign's target); the
 * decisions that lead to the fastest are recorded (none unless one beats
 * the unscheduled program by --imitate-margin), or with --distill the
 * policy's own greedy decisions under the teacher's distributions where no
 * measurement says better (distill.h). Every tenth program is held out.
 * Then imitation_fit.h's epochs train the policy on them.
 */
#ifndef PEARL_TRAIN_IMITATE_H
#define PEARL_TRAIN_IMITATE_H

#include <stddef.h>
#include <stdint.h>

#include "pearl/env.h"
#include "pearl/policy.h"
#include "programs.h"
#include "train_options.h"

/* Imitation on the programs of `set`, training `policy` in place (the
 * teacher of distillation: `teacher`, kept, or the starting policy if
 * NULL). DIR gets imitate.csv (what each program imitated),
 * imitate-epochs.csv (how the epochs went) and with --imitate-select
 * speed imitate-select.csv. 0, or -1 with a message in err. */
int imitate(pearl_env *env, struct program_set *set, pearl_policy *policy,
	    const pearl_policy *teacher, const struct options *o,
	    uint64_t *rng, const char *dir, char *err, size_t err_size);

#endif
