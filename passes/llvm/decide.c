/* The clang plugin's decision for one Scop: an explicit schedule or the
 * agent's, both applied to the program's schedule (see decide.h). */
#include <stdlib.h>
#include <string.h>

#include <isl/id.h>
#include <isl/schedule_node.h>

#include "decide.h"
#include "pearl/agent.h"
#include "pearl/deps.h"
#include "pearl/str.h"
#include "pearl/transform.h"

void pearl_llvm_decision_init(struct pearl_llvm_decision *d)
{
	memset(d, 0, sizeof(*d));
}

void pearl_llvm_decision_clear(struct pearl_llvm_decision *d)
{
	isl_schedule_free(d->schedule);
	free(d->actions);
	free(d->remark);
	free(d->refused);
	pearl_llvm_decision_init(d);
}

/* Collects the outcome of an explicit schedule's actions: the applied ones
 * (in order, with N between branches) and the refusals with reasons. */
struct outcome {
	pearl_str applied;
	pearl_str refused;
	int branch; /* branch of the last applied action, -1 before any */
};

static void note_action(int branch, const struct pearl_action *action,
			int applied, const char *reason, void *user)
{
	struct outcome *o = user;
	char name[64];
	int b;

	pearl_action_format(action, name, sizeof(name));
	if (!applied) {
		pearl_str_printf(&o->refused, "%sbranch %d: refused %s (%s)",
				 o->refused.len ? "; " : "", branch, name,
				 reason);
		return;
	}
	if (o->branch >= 0)
		for (b = o->branch; b < branch; ++b)
			pearl_str_append(&o->applied, " N");
	else
		for (b = 0; b < branch; ++b)
			pearl_str_append(&o->applied, b ? " N" : "N");
	pearl_str_printf(&o->applied, "%s%s", o->applied.len ? " " : "", name);
	o->branch = branch;
}

static pearl_stat decide_explicit(pearl_ctx *ctx, pearl_sched *sched,
				  const char *text,
				  struct pearl_llvm_decision *out)
{
	struct outcome o = { PEARL_STR_INIT, PEARL_STR_INIT, -1 };
	struct pearl_action *actions;
	pearl_str msg = PEARL_STR_INIT;
	int n;

	n = pearl_actions_parse(ctx, text, &actions);
	if (n < 0)
		return pearl_stat_error;
	out->n_applied = pearl_sched_apply_sequence(sched, actions, n,
						    note_action, &o);
	free(actions);
	out->actions = pearl_str_take(&o.applied);
	if (!out->actions)
		out->actions = strdup("");
	if (o.refused.len) {
		char *refused = pearl_str_take(&o.refused);

		pearl_str_printf(&msg, "pearl-schedule: %s",
				 refused ? refused : "");
		free(refused);
		out->refused = pearl_str_take(&msg);
	}
	pearl_str_clear(&o.refused);
	if (!out->actions)
		return pearl_ctx_error(ctx, "out of memory");
	pearl_str_printf(&msg, "pearl-schedule: explicit schedule: applied \"%s\"",
			 out->actions);
	out->remark = pearl_str_take(&msg);
	return out->remark ? pearl_stat_ok : pearl_ctx_error(ctx, "out of memory");
}

/* Runs the agent on `sched` and words the remark like the MLIR pass. The
 * episode changes `sched` itself: each action it takes goes through
 * pearl_sched_apply, the path of explicit schedules, so replaying the
 * chosen actions on a copy would rebuild the same schedule and only check
 * them a second time (as in the MLIR pass; test/LLVM/equivalence.test
 * compares the two). On failure `sched` may hold part of the episode: the
 * caller then leaves the Scop unchanged. */
static pearl_stat decide_policy(pearl_ctx *ctx, pearl_sched *sched,
				const struct pearl_llvm_request *req,
				struct pearl_llvm_decision *out)
{
	struct pearl_agent_options opts;
	struct pearl_agent_trace trace;
	struct pearl_action *actions = NULL;
	pearl_str msg = PEARL_STR_INIT, list = PEARL_STR_INIT;
	pearl_stat st = pearl_stat_error;
	int n = -1, i;

	pearl_agent_options_init(&opts);
	if (req->max_branch_steps >= 0)
		opts.max_branch_steps = req->max_branch_steps;
	opts.min_parallel_work = req->min_parallel_work;
	opts.uniform_parallel = req->uniform_parallel;
	opts.fill_parallel = req->fill_parallel;
	if (req->critic) {
		opts.critic = req->critic;
		opts.beam_width = req->beam_width;
		opts.beam_top_k = req->beam_top_k;
		opts.beam_seconds = req->beam_seconds;
	}
	memset(&trace, 0, sizeof(trace));
	if (pearl_agent_run(sched, req->policy, &opts, &trace) ==
	    pearl_stat_ok) {
		n = pearl_agent_trace_actions(&trace, &actions);
		if (n < 0)
			pearl_ctx_error(ctx, "out of memory");
	} else if (!*pearl_ctx_last_error(ctx)) {
		pearl_ctx_error(ctx, "the agent failed");
	}
	if (n < 0)
		goto done;
	for (i = 0; i < n; ++i)
		out->n_applied += actions[i].kind != pearl_action_next;
	pearl_actions_format(&list, actions, n);
	out->actions = pearl_str_take(&list);
	if (!out->actions)
		out->actions = strdup("");
	pearl_agent_format_remark(&msg, &trace, actions, n, 0);
	out->remark = pearl_str_take(&msg);
	st = out->remark && out->actions ? pearl_stat_ok
					 : pearl_ctx_error(ctx, "out of memory");
done:
	free(actions);
	pearl_agent_trace_clear(&trace);
	return st;
}

pearl_stat pearl_llvm_decide(pearl_program *prog,
			     const struct pearl_llvm_request *req,
			     struct pearl_llvm_decision *out)
{
	pearl_ctx *ctx = pearl_program_get_ctx(prog);
	pearl_deps *deps;
	pearl_sched *sched = NULL;
	pearl_stat st = pearl_stat_error;

	pearl_ctx_set_max_operations(ctx, req->max_operations);
	deps = pearl_deps_compute(prog);
	if (deps)
		sched = pearl_sched_alloc(prog, deps);
	/* Polly's code generator makes no copies of arrays (K) */
	if (sched)
		pearl_sched_set_copies_made(sched, 0);
	if (sched && req->schedule && *req->schedule)
		st = decide_explicit(ctx, sched, req->schedule, out);
	else if (sched && req->policy)
		st = decide_policy(ctx, sched, req, out);
	else if (sched)
		pearl_ctx_error(ctx, "no policy");
	if (st == pearl_stat_ok && out->n_applied > 0) {
		out->schedule = isl_schedule_copy(pearl_sched_peek(sched));
		if (!out->schedule)
			st = pearl_ctx_isl_error(ctx, "schedule");
	}
	pearl_sched_free(sched);
	pearl_deps_free(deps);
	pearl_ctx_set_max_operations(ctx, 0);
	return st;
}

/* Wraps a band node with a coincident member in the mark `user` names. */
static __isl_give isl_schedule_node *mark_band(
    __isl_take isl_schedule_node *node, void *user)
{
	const char *mark = user;
	isl_size n;
	int i, any = 0;

	if (isl_schedule_node_get_type(node) != isl_schedule_node_band)
		return node;
	n = isl_schedule_node_band_n_member(node);
	for (i = 0; i < n; ++i)
		any |= isl_schedule_node_band_member_get_coincident(node, i) ==
		       isl_bool_true;
	if (!any)
		return node;
	return isl_schedule_node_insert_mark(
	    node, isl_id_alloc(isl_schedule_node_get_ctx(node), mark, NULL));
}

__isl_give isl_schedule *pearl_llvm_mark_parallel(
    __isl_take isl_schedule *schedule, const char *mark)
{
	return isl_schedule_map_schedule_node_bottom_up(schedule, mark_band,
							(void *)mark);
}
