/* The critic's beam (beam.c): pearl_agent_run with opts->critic set. */
#ifndef PEARL_AGENT_BEAM_H
#define PEARL_AGENT_BEAM_H

#include "pearl/agent.h"

pearl_stat agent_run_beam(pearl_sched *sched, const pearl_policy *policy,
			  const struct pearl_agent_options *opts,
			  struct pearl_agent_trace *trace);

/* Initializes `state` for a branch the agent decides (the episode and the
 * beam): pearl_branch_state_init's defaults, then the rules the policy
 * keeps and the search does not: min_parallel_work and copies from
 * `opts`, and the jam rules (jam_rules). Defined in agent.c. */
void agent_branch_state_init(struct pearl_branch_state *state,
			     const struct pearl_agent_options *opts);

#endif
