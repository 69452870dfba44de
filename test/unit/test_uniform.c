/* The agent's rules of parallelism (lib/Agent/uniform_parallel.c):
 * episodes given in Pearl's notation, as the policy could have chosen
 * them, and what the rules make of them. */
#include <stdlib.h>
#include <string.h>

#include "Agent/uniform_parallel.h"
#include "check.h"
#include "helpers.h"
#include "pearl/agent.h"

/* A time loop t around two nests over i, j (i from 1 to ni - 1, j below
 * 128): S0 writes B from three rows of A, S1 writes A, from B if
 * `in_place` is 0, else from its own neighbours A[i - 1, j] and
 * A[i, j - 1] (no loop of its nest can run in parallel). */
static pearl_program *time_loop(pearl_ctx *ctx, int ni, int in_place)
{
	static const char *r0[] = { "{ S0[t, i, j] -> A[i - 1, j] }",
				    "{ S0[t, i, j] -> A[i, j] }",
				    "{ S0[t, i, j] -> A[i + 1, j] }", NULL };
	static const char *r1[] = { "{ S1[t, i, j] -> B[i, j] }", NULL };
	static const char *r1_in_place[] = { "{ S1[t, i, j] -> A[i - 1, j] }",
					     "{ S1[t, i, j] -> A[i, j - 1] }",
					     NULL };
	pearl_program *prog = pearl_program_alloc(ctx, "time_loop");
	char d0[128], d1[128], sched[1024];

	snprintf(d0, sizeof(d0),
		 "S0[t, i, j] : 0 <= t < 4 and 1 <= i < %d and 0 <= j < 128",
		 ni);
	snprintf(d1, sizeof(d1),
		 "S1[t, i, j] : 0 <= t < 4 and 1 <= i < %d and 1 <= j < 128",
		 ni);
	snprintf(sched, sizeof(sched), "{ %s }", d0);
	add_stmt_str(prog, sched, "{ S0[t, i, j] -> B[i, j] }", r0);
	snprintf(sched, sizeof(sched), "{ %s }", d1);
	add_stmt_str(prog, sched, "{ S1[t, i, j] -> A[i, j] }",
		     in_place ? r1_in_place : r1);
	snprintf(sched, sizeof(sched),
		 "{ domain: \"{ %s; %s }\", child: { schedule: \"[{ S0[t, i, j] "
		 "-> [(t)]; S1[t, i, j] -> [(t)] }]\", child: { sequence: [ "
		 "{ filter: \"{ S0[t, i, j] }\", child: { schedule: \"[{ "
		 "S0[t, i, j] -> [(i)] }]\", child: { schedule: \"[{ S0[t, "
		 "i, j] -> [(j)] }]\" } } }, { filter: \"{ S1[t, i, j] }\", "
		 "child: { schedule: \"[{ S1[t, i, j] -> [(i)] }]\", child: "
		 "{ schedule: \"[{ S1[t, i, j] -> [(j)] }]\" } } } ] } } }",
		 d0, d1);
	set_schedule_str(prog, sched);
	return prog;
}

/* The episode `text` as the agent would have run it (every branch ends
 * with N) on a copy of `initial`, then the rules (parallel fill only if
 * `fill`); returns the episode the rules leave in Pearl's notation
 * (malloc'd; NULL if the episode does not apply or a rule fails) and its
 * counts in *trace (cleared by the caller). Checks that the schedule is
 * the one the returned episode makes. */
static char *rules(pearl_sched *initial, const char *text, int fill,
		   struct pearl_agent_trace *trace)
{
	pearl_ctx *ctx =
	    pearl_program_get_ctx(pearl_sched_get_program(initial));
	struct pearl_agent_options opts;
	struct pearl_action *a = NULL, *out = NULL;
	pearl_sched *s = pearl_sched_copy(initial), *again = NULL;
	int n = pearl_actions_parse(ctx, text, &a);
	int nb = pearl_sched_n_branch(initial), b = 0, i, m;
	pearl_str str = PEARL_STR_INIT;
	char *result = NULL;

	memset(trace, 0, sizeof(*trace));
	pearl_agent_options_init(&opts);
	opts.fill_parallel = fill;
	trace->steps = calloc(n + nb + 1, sizeof(*trace->steps));
	if (n < 0 || !s || !trace->steps)
		goto out;
	for (i = 0; i < n; ++i) {
		struct pearl_agent_step *step = &trace->steps[trace->n_steps++];

		step->branch = b;
		step->action = pearl_action_space_encode(&a[i]);
		if (step->action == PEARL_ACTION_NEXT) {
			++b;
			continue;
		}
		if (step->action < 0 ||
		    pearl_sched_apply(s, b, &a[i]) != pearl_stat_ok)
			goto out;
	}
	for (; b < nb; ++b) {
		struct pearl_agent_step *step = &trace->steps[trace->n_steps++];

		step->branch = b;
		step->action = PEARL_ACTION_NEXT;
	}
	if (agent_parallel_rules(initial, s, &opts, trace) != pearl_stat_ok)
		goto out;
	m = pearl_agent_trace_actions(trace, &out);
	if (m < 0)
		goto out;
	pearl_actions_format(&str, out, m);
	result = pearl_str_take(&str);
	/* the schedule is the returned episode's */
	again = pearl_sched_copy(initial);
	CHECK(again && pearl_sched_apply_sequence(again, out, m, NULL,
						  NULL) >= 0);
	CHECK(again && isl_schedule_plain_is_equal(pearl_sched_peek(s),
						   pearl_sched_peek(again)) ==
			   isl_bool_true);
out:
	pearl_sched_free(again);
	pearl_sched_free(s);
	free(out);
	free(a);
	return result;
}

/* The rule of uniform parallelism alone. */
static char *rule(pearl_sched *initial, const char *text,
		  struct pearl_agent_trace *trace)
{
	return rules(initial, text, 0, trace);
}

/* rules() on a fresh time_loop(ctx, ni, in_place) (freed before
 * returning): for the cases that need a program of their own. */
static char *rules_on(pearl_ctx *ctx, int ni, int in_place, const char *text,
		      int fill, struct pearl_agent_trace *trace)
{
	pearl_program *prog = time_loop(ctx, ni, in_place);
	pearl_deps *deps = pearl_deps_compute(prog);
	pearl_sched *initial = pearl_sched_alloc(prog, deps);
	char *got = rules(initial, text, fill, trace);

	pearl_sched_free(initial);
	pearl_deps_free(deps);
	pearl_program_free(prog);
	return got;
}

static void test_rule(pearl_ctx *ctx)
{
	pearl_program *prog = time_loop(ctx, 200, 0);
	pearl_deps *deps = pearl_deps_compute(prog);
	pearl_sched *initial = pearl_sched_alloc(prog, deps);
	struct pearl_agent_trace trace;
	char *got;

	/* one nest parallel, the other serial: both parallel */
	got = rule(initial, "N P(1) U(4)", &trace);
	CHECK_STR(got, "P(1) N P(1) U(4)");
	CHECK(trace.n_uniform_loops == 1 && trace.n_uniform_added == 1 &&
	      trace.n_uniform_dropped == 0);
	/* the added step is the rule's, before the branch's unrolling */
	got = (free(got), pearl_agent_trace_clear(&trace),
	       rule(initial, "U(2) N P(1)", &trace));
	CHECK_STR(got, "P(1) U(2) N P(1)");
	CHECK(trace.n_steps == 5 && trace.steps[0].rule == 1 &&
	      trace.steps[1].rule == 0);
	/* uniform already: left alone */
	got = (free(got), pearl_agent_trace_clear(&trace),
	       rule(initial, "P(1) N P(1)", &trace));
	CHECK_STR(got, "P(1) N P(1)");
	CHECK(trace.n_uniform_loops == 0);
	got = (free(got), pearl_agent_trace_clear(&trace),
	       rule(initial, "U(4) N T(1,2,32,32)", &trace));
	CHECK_STR(got, "U(4) N T(1,2,32,32)");
	CHECK(trace.n_uniform_loops == 0);
	/* all parallel, even split differently (tiles of 32 rows, rows):
	 * left alone */
	got = (free(got), pearl_agent_trace_clear(&trace),
	       rule(initial, "P(1) N T(1,2,32,32) P(1)", &trace));
	CHECK_STR(got, "P(1) N T(1,2,32,32) P(1)");
	CHECK(trace.n_uniform_loops == 0);
	/* the serial nest parallelized would split its rows differently
	 * (at row 100 of 199 rather than 129): both serial */
	got = (free(got), pearl_agent_trace_clear(&trace),
	       rule(initial, "N T(1,2,32,32) P(1)", &trace));
	CHECK_STR(got, "N T(1,2,32,32)");
	CHECK(trace.n_uniform_dropped == 1);
	/* rows unrolled and jammed by 4 split as the rows do: both
	 * parallel */
	got = (free(got), pearl_agent_trace_clear(&trace),
	       rule(initial, "N J(1,4) P(1)", &trace));
	CHECK_STR(got, "P(1) N J(1,4) P(1)");
	CHECK(trace.n_uniform_added == 1);
	/* both tiled alike: both parallel */
	got = (free(got), pearl_agent_trace_clear(&trace),
	       rule(initial, "T(1,2,32,32) N T(1,2,32,32) P(1)", &trace));
	CHECK_STR(got, "T(1,2,32,32) P(1) N T(1,2,32,32) P(1)");
	free(got);
	pearl_agent_trace_clear(&trace);
	pearl_sched_free(initial);
	pearl_deps_free(deps);
	pearl_program_free(prog);

	/* nests too small to run in parallel (19 x 128 iterations per
	 * step): they do not count */
	got = rules_on(ctx, 20, 0, "N P(1)", 0, &trace);
	CHECK_STR(got, "N P(1)");
	CHECK(trace.n_uniform_loops == 0);
	free(got);
	pearl_agent_trace_clear(&trace);

	/* the second nest cannot run in parallel: neither does the first */
	got = rules_on(ctx, 200, 1, "P(1) U(4) N", 0, &trace);
	CHECK_STR(got, "U(4)");
	CHECK(trace.n_uniform_loops == 1 && trace.n_uniform_dropped == 1 &&
	      trace.n_uniform_added == 0);
	free(got);
	pearl_agent_trace_clear(&trace);
}

/* Parallel fill, then uniform parallelism (the defaults). */
static void test_fill(pearl_ctx *ctx)
{
	pearl_program *prog = time_loop(ctx, 200, 0);
	pearl_deps *deps = pearl_deps_compute(prog);
	pearl_sched *initial = pearl_sched_alloc(prog, deps);
	struct pearl_agent_trace trace;
	char *got;

	/* both nests left serial: each gets P on its rows (t carries the
	 * stencil's dependence), before its unrolling */
	got = rules(initial, "N U(4)", 1, &trace);
	CHECK_STR(got, "P(1) N P(1) U(4)");
	CHECK(trace.n_fill_added == 2 && trace.n_uniform_added == 0 &&
	      trace.n_uniform_loops == 0);
	CHECK(trace.n_steps == 5 && trace.steps[0].rule == pearl_agent_rule_fill &&
	      trace.steps[2].rule == pearl_agent_rule_fill &&
	      trace.steps[3].rule == pearl_agent_rule_none);
	/* the rows of a tiling: its tile loop; a branch the policy ran in
	 * parallel is left as it is */
	got = (free(got), pearl_agent_trace_clear(&trace),
	       rules(initial, "T(1,2,32,32) N P(1)", 1, &trace));
	CHECK_STR(got, "T(1,2,32,32) P(1) N P(1)");
	CHECK(trace.n_fill_added == 1);
	/* all parallel already: nothing to fill */
	got = (free(got), pearl_agent_trace_clear(&trace),
	       rules(initial, "P(1) N P(1)", 1, &trace));
	CHECK_STR(got, "P(1) N P(1)");
	CHECK(trace.n_fill_added == 0);
	free(got);
	pearl_agent_trace_clear(&trace);
	pearl_sched_free(initial);
	pearl_deps_free(deps);
	pearl_program_free(prog);

	/* 19 x 128 iterations per step, below min_parallel_work: left
	 * serial */
	got = rules_on(ctx, 20, 0, "N", 1, &trace);
	CHECK_STR(got, "");
	CHECK(trace.n_fill_added == 0);
	free(got);
	pearl_agent_trace_clear(&trace);

	/* the second nest cannot run in parallel: the first one's P, added
	 * by the fill, goes again with the rule of uniform parallelism */
	got = rules_on(ctx, 200, 1, "U(4) N", 1, &trace);
	CHECK_STR(got, "U(4)");
	CHECK(trace.n_fill_added == 0 && trace.n_uniform_loops == 1 &&
	      trace.n_uniform_dropped == 0);
	free(got);
	pearl_agent_trace_clear(&trace);
}

int main(void)
{
	pearl_ctx *ctx = pearl_ctx_alloc();

	test_rule(ctx);
	test_fill(ctx);
	pearl_ctx_free(ctx);
	return check_done("test_uniform");
}
