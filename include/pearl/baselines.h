/*
 * baselines.h - the policies a trained model is compared with
 * (pearl-eval; the pass's agent=heuristic), driven through the same action space, masks and legality
 * checks as the agent (pearl/agent.h's pearl_agent_mask):
 *
 *   random:    on each branch, as many actions as a reference episode
 *              applied there, each drawn uniformly among the actions the
 *              masks allow and retried while the dependences refuse it;
 *   heuristic: the data-driven paper's rules on each branch: tile the
 *              outermost legal pair of loops by 32x32, run the outermost
 *              legal loop in parallel, unroll the innermost loop by 4.
 *
 * Both transform `sched` (kept) and write what they applied as a schedule
 * string in Pearl's notation ("N" between branches) into buf[size].
 * Return the number of applied actions, or -1 with an error in the
 * program's context (or if buf is too small).
 */
#ifndef PEARL_BASELINES_H
#define PEARL_BASELINES_H

#include <stddef.h>
#include <stdint.h>

#include "pearl/transform.h"

#ifdef __cplusplus
extern "C" {
#endif

/* per_branch[b] (b < n) actions on branch b; branches beyond n get 0. */
int pearl_baseline_random(pearl_sched *sched, const int *per_branch, int n,
			  uint64_t seed, char *buf, size_t size);
int pearl_baseline_heuristic(pearl_sched *sched, char *buf, size_t size);

/* The number of applied actions per branch of a schedule string: *counts
 * is malloc'd (caller frees); returns the number of branches it covers
 * (N-separated groups), or -1 if memory is exhausted. */
int pearl_baseline_count_per_branch(const char *schedule, int **counts);

#ifdef __cplusplus
}
#endif

#endif
