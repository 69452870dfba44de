/* The critic's beam (beam.c): pearl_agent_run with opts->critic set. */
#ifndef PEARL_AGENT_BEAM_H
#define PEARL_AGENT_BEAM_H

#include "pearl/agent.h"

pearl_stat agent_run_beam(pearl_sched *sched, const pearl_policy *policy,
			  const struct pearl_agent_options *opts,
			  struct pearl_agent_trace *trace);

#endif
