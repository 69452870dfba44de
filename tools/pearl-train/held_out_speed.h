/*
 * held_out_speed.h - how fast the policy's own schedules are on the
 * programs imitation holds out (every tenth of its program set): the
 * geometric mean, over those programs, of the speedup of the greedy
 * agent's schedule over the unscheduled program, as the environment
 * measures it (memoized: a schedule measured once is not measured again).
 *
 * This is what pearl-train --imitate-select speed keeps the best epoch
 * by. The held-out imitation loss says how closely the policy follows the
 * targets' decisions; it does not say what the decisions it gets wrong
 * cost, and runs kept by it were slower on the benchmark than earlier
 * epochs (the model card, "Replays from expert 4").
 */
#ifndef PEARL_TRAIN_HELD_OUT_SPEED_H
#define PEARL_TRAIN_HELD_OUT_SPEED_H

#include <stddef.h>
#include <stdio.h>

#include "pearl/agent.h"
#include "pearl/env.h"
#include "programs.h"

struct held_out_speed {
	double geomean; /* of the speedups; 1 if no program ran */
	int programs;   /* held-out programs whose unscheduled form runs */
	int failed;     /* of which the greedy schedule did not run (timed
			 * out, failed, or computed other outputs; counted
			 * as 1x) */
	int queries, memo_hits;
};

/* Whether program number i of an imitation set is held out. */
static inline int held_out_program(int i)
{
	return i % 10 == 9;
}

/* Runs `policy` greedily (`opts`, kept; sampling off) on the held-out
 * programs of `set` and times each final schedule into *out; if `csv` is
 * not NULL, one line per program is written to it: `epoch` (a label: the
 * epoch's number, or "mean" for pearl-train's mean of epochs), the program,
 * the speedup (1 if the schedule did not run), its status and the
 * schedule (held_out_speed_csv_header first). Returns 0, or -1 with a
 * message in err (environment errors). */
int held_out_speed_measure(pearl_env *env, const struct program_set *set,
			   const pearl_policy *policy,
			   const struct pearl_agent_options *opts,
			   const char *epoch, FILE *csv,
			   struct held_out_speed *out, char *err, size_t err_size);

/* The header line of held_out_speed_measure's CSV. */
extern const char held_out_speed_csv_header[];

#endif
