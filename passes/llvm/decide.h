/*
 * decide.h - what the clang plugin does with one modeled Scop: the
 * frontend-agnostic half of passes/llvm, in C.
 *
 * Given a pearl_program (built from a Polly Scop by scop_model.cpp), either
 * applies an explicit schedule in Pearl's notation or runs the agent with
 * the policy (greedy) on the program's schedule, exactly as the MLIR pass
 * does, and hands back the transformed isl schedule with the
 * remark texts. Nothing here knows about LLVM or Polly.
 */
#ifndef PEARL_LLVM_DECIDE_H
#define PEARL_LLVM_DECIDE_H

#include <isl/ctx.h>
#include <isl/schedule.h>

#include "pearl/policy.h"
#include "pearl/program.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the pass was asked to do with one Scop. */
struct pearl_llvm_request {
	const char *schedule;         /* explicit actions, NULL or "": policy */
	const pearl_policy *policy;   /* __isl_keep; used without schedule */
	int max_branch_steps;         /* agent: actions per branch */
	long min_parallel_work;       /* agent: pearl_agent_options' */
	unsigned long max_operations; /* isl quota (0: unbounded) */
	/* The critic's beam (pearl/agent.h): the critic (__isl_keep; NULL:
	 * the greedy agent alone), its width, decisions per state and
	 * seconds (0: no limit). */
	const pearl_policy *critic;
	int beam_width, beam_top_k;
	double beam_seconds;
	int uniform_parallel;         /* agent: pearl_agent_options' */
	int fill_parallel;            /* agent: pearl_agent_options' */
};

/* What was decided; every pointer is owned by the decision. */
struct pearl_llvm_decision {
	isl_schedule *schedule; /* transformed schedule; NULL if nothing applied */
	char *actions;  /* the applied actions in Pearl's notation ("" if none) */
	char *remark;   /* the "pearl-schedule: ..." text of -Rpass=pearl */
	char *refused;  /* refusals of an explicit schedule (NULL if none) */
	int n_applied;
};

void pearl_llvm_decision_init(struct pearl_llvm_decision *d);
void pearl_llvm_decision_clear(struct pearl_llvm_decision *d);

/* Computes dependences of `prog` (kept) and decides its schedule into
 * *out. pearl_stat_error with the reason in the program's context if the
 * dependences, the schedule or the agent fail (isl error or quota, a
 * schedule that does not parse); *out then holds no schedule. */
pearl_stat pearl_llvm_decide(pearl_program *prog,
			     const struct pearl_llvm_request *req,
			     struct pearl_llvm_decision *out);

/* Wraps every band whose (single) member is marked coincident in a mark
 * node named `mark` (takes `schedule`, returns the new one, NULL on error):
 * this is how the agent's P(l) reaches Polly's AST, where the loop under
 * the mark is the one to run in parallel. */
__isl_give isl_schedule *pearl_llvm_mark_parallel(
    __isl_take isl_schedule *schedule, const char *mark);

#ifdef __cplusplus
}
#endif

#endif
