/* The remark that says what the agent chose (pearl/agent.h), in the words
 * of both passes. */
#include "pearl/agent.h"

/* The critic's value of the episode's first state (its first step not
 * added by a rule). */
static double first_value(const struct pearl_agent_trace *trace)
{
	int i;

	for (i = 0; i < trace->n_steps; ++i)
		if (!trace->steps[i].rule)
			return trace->steps[i].value;
	return 0;
}

void pearl_agent_format_remark(pearl_str *out,
			       const struct pearl_agent_trace *trace,
			       const struct pearl_action *actions, int n,
			       int sample)
{
	if (trace->beam_width)
		pearl_str_printf(out, "pearl-schedule: agent (beam %d, critic) ",
				 trace->beam_width);
	else
		pearl_str_printf(out, "pearl-schedule: agent (%s) ",
				 sample ? "sample" : "greedy");
	if (n == 0) {
		pearl_str_append(out, "kept the original schedule");
	} else {
		pearl_str_append(out, "chose \"");
		pearl_actions_format(out, actions, n);
		pearl_str_append(out, "\"");
	}
	pearl_str_printf(out, " (%d branch%s, %d decisions, %d illegal "
			 "choices masked, value %.3f; decided in %.2f ms: "
			 "graphs %.2f, network %.2f, legality %.2f)",
			 trace->n_branches, trace->n_branches == 1 ? "" : "es",
			 trace->n_steps - trace->n_uniform_added -
			     trace->n_fill_added + trace->n_uniform_dropped,
			 trace->n_illegal, first_value(trace),
			 trace->seconds * 1e3, trace->seconds_graph * 1e3,
			 trace->seconds_policy * 1e3,
			 trace->seconds_legality * 1e3);
	if (trace->beam_width)
		pearl_str_printf(out, "; the critic valued %d schedules, this "
				 "one %.3f, the greedy episode's %.3f%s",
				 trace->beam_scored, trace->critic_value,
				 trace->greedy_value,
				 trace->beam_chose_greedy
				     ? ", which is kept" : "");
	if (trace->beam_timed_out)
		pearl_str_append(out, " (the beam stopped at its time limit)");
	if (trace->n_fill_added)
		pearl_str_printf(out, "; parallel fill: %d P added to nests "
				 "left serial", trace->n_fill_added);
	if (trace->n_uniform_loops)
		pearl_str_printf(out, "; uniform parallelism: %d sequential "
				 "loop%s made uniform (%d P added, %d P of "
				 "the policy dropped)",
				 trace->n_uniform_loops,
				 trace->n_uniform_loops == 1 ? "" : "s",
				 trace->n_uniform_added,
				 trace->n_uniform_dropped);
}
