/* The agent's rules of parallelism after the episode (uniform_parallel.c):
 * parallel fill, then the rule against sequential loops that mix parallel
 * and serial nests; pearl_agent_run's last step when opts->fill_parallel
 * or opts->uniform_parallel is set. */
#ifndef PEARL_AGENT_UNIFORM_PARALLEL_H
#define PEARL_AGENT_UNIFORM_PARALLEL_H

#include "pearl/agent.h"

/* Applies to the episode's schedule `sched` (kept, transformed) the rule
 * of parallel fill (if opts->fill_parallel) and then makes every
 * sequential loop uniform (if opts->uniform_parallel), as pearl/agent.h's
 * rules say, starting from `initial` (kept: the schedule before the
 * episode, not changed), and rewrites trace->steps to the episode that
 * now makes `sched` (its counts of the rules' steps too). If a changed
 * episode does not replay, the schedule and the trace stay as they were
 * before that change. pearl_stat_error only if memory is exhausted or isl
 * fails, with a message in the program's context. */
pearl_stat agent_parallel_rules(pearl_sched *initial, pearl_sched *sched,
				const struct pearl_agent_options *opts,
				struct pearl_agent_trace *trace);

/* Whether one execution of the loop at `level` runs fewer than `min`
 * innermost iterations: the product of extent[level..n_extent) (unknown,
 * so not too small, if one of them is symbolic: -1). The agent's work
 * mask (agent.c). */
int agent_too_little_work(const long *extent, int n_extent, int level,
			  long min);

/* The extents of a branch's loops `row[0..n)` (kept: their feature rows
 * in the graph, outermost first) into extent[]: the feature's extent (-1
 * where symbolic), which spans the loop's whole range, bounded by what
 * one execution of the loops around runs. A tile loop of size s (a
 * tiling's, or the outer loop of J's copies) inside a tile loop of size
 * t > s over the same iterators runs at most ceil(t / s) values per
 * execution: after T(0,1,32,32) J(2,4), the outer loop of J's copies of a
 * 82-iteration loop spans 21 groups of 4, but each tile of 32 holds 8. */
void agent_loop_extents(const float *const *row, int n, long *extent);

#endif
