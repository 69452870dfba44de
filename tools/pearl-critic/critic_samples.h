/*
 * critic_samples.h - what the critic learns from: every schedule the memo
 * database holds a measurement of, as the graph of the schedule applied to
 * its program (no branch in focus) and its log2 speedup over the
 * unscheduled program. A schedule that timed out counts at the limit it
 * passed (an upper bound of its speedup).
 *
 * The samples of one program are contiguous, so that they can be ranked
 * against each other (critic_rank.h). Ownership follows isl: the set owns
 * its graphs and names.
 */
#ifndef PEARL_CRITIC_SAMPLES_H
#define PEARL_CRITIC_SAMPLES_H

#include <stddef.h>

#include "pearl/env.h"
#include "pearl/graph.h"

struct critic_program {
	char *name;  /* owned */
	int first;   /* its samples: first .. first + n - 1 */
	int n;
	float best;  /* the largest target among them */
};

struct critic_samples {
	struct pearl_graph **graphs; /* n, owned */
	float *targets;              /* n: log2(base seconds / seconds) */
	int n, cap;
	struct critic_program *programs; /* n_programs, owned */
	int n_programs, cap_programs;
	/* Measured schedules left out: they no longer apply to the program
	 * (an action refused now, or one that does not parse). */
	int stale;
};

/* Adds program `p` (kept) with the memo answers rows[0..n_rows-1] (kept;
 * pearl_env_memo_results): one sample per answer but the unscheduled
 * program's, whose time is the base, and one for the unscheduled program
 * itself (target 0). Adds nothing if no base time is among the rows, or
 * if fewer than two schedules apply. Returns the number of samples added,
 * or -1 with a message in err. */
int critic_samples_add(struct critic_samples *s, pearl_env_program *p,
		       const struct pearl_env_memo_result *rows, int n_rows,
		       char *err, size_t err_size);

void critic_samples_clear(struct critic_samples *s);

#endif
