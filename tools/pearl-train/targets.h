/*
 * pearl-train/targets.h - the schedules a tuning campaign found, as targets
 * of expert iteration (--imitate-targets DIR): pearl-tune --out-dir DIR,
 * run on the training programs (over MPI ranks if need be), wrote
 * DIR/NAME.sched for each program NAME.
 */
#ifndef PEARL_TRAIN_TARGETS_H
#define PEARL_TRAIN_TARGETS_H

#include <stddef.h>

#include "pearl/env.h"

/* The schedule in `dir`/NAME.sched (NAME: p's name) for p's function and
 * region, if its fingerprint fits p's model (kept). 1 with *schedule
 * (malloc'd), 0 if there is none (no file, no entry, another model), -1
 * with a message in err (a file that is no schedule file). */
int target_schedule(const char *dir, pearl_env_program *p, char **schedule,
		    char *err, size_t err_size);

/* The near-best alternatives of p's target in `dir`/NAME.near
 * (near-targets.py: one schedule a line, "#" lines comments): *n
 * schedules into *schedules (malloc'd, as each string; free with
 * target_alternatives_free), none if there is no file. 0, or -1 with a
 * message in err. */
int target_alternatives(const char *dir, pearl_env_program *p,
			char ***schedules, int *n, char *err, size_t err_size);

/* Frees what target_alternatives gave. */
void target_alternatives_free(char **schedules, int n);

#endif
