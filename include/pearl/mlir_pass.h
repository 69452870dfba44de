/*
 * pearl/mlir_pass.h - the pearl-schedule pass body, in C over the MLIR C API.
 *
 * The C++ registration shim (passes/mlir/PearlPass.cpp) owns the pass
 * options and calls pearl_mlir_run_on_function for each func.func. The
 * pass writes its remarks with pearl_mlir_emit_remark (pearl/mlir_codegen.h).
 */
#ifndef PEARL_MLIR_PASS_H
#define PEARL_MLIR_PASS_H

#include <mlir-c/IR.h>
#include <stdint.h>

#include "pearl/mlir_codegen.h"
#include "pearl/policy.h"
#include "pearl/schedule_file.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How regions without an explicit schedule are scheduled. */
enum pearl_mlir_agent {
	pearl_mlir_agent_greedy, /* the policy's most likely legal actions */
	pearl_mlir_agent_sample, /* sampled from the policy (seeded) */
	pearl_mlir_agent_none,   /* not at all: model (and print) only */
	pearl_mlir_agent_heuristic /* the rules-only baseline, no network
				    * (pearl/baselines.h): for comparison */
};

struct pearl_mlir_options {
	int print_model;                  /* print each region's model */
	int print_schedule;               /* print the transformed schedule */
	int print_graph;                  /* print the policy's input graph */
	const char *schedule;             /* explicit schedule, "" if none */
	int regenerate;                   /* rewrite even without actions */
	int regenerate_kept;              /* rewrite a region the agent or
					   * the heuristic kept as it was */
	unsigned long isl_max_operations; /* isl quota per region, 0: none */
	double time_limit;                /* seconds per action's checks and
					   * per AST generation, 0: none */
	int no_ast_check;                 /* trust isl's AST unchecked (see
					   * pearl_ctx_set_check_ast) */
	enum pearl_mlir_agent agent;      /* when there is no schedule */
	uint64_t seed;                    /* of the sampling agent */
	int max_branch_steps;             /* actions per branch */
	long min_parallel_work;           /* pearl_agent_options' */
	int uniform_parallel;             /* pearl_agent_options' */
	int fill_parallel;                /* pearl_agent_options' */
	int copies;                       /* pearl_agent_options' */
	/* The policy (kept; shared by every thread), or NULL when it could
	 * not be loaded: then `policy_error` says why, and regions that
	 * would need it are left unchanged with a warning. */
	const pearl_policy *policy;
	const char *policy_error;
	/* The critic of the critic's beam (kept; NULL: the agent alone; see
	 * pearl/agent.h), its width and decisions per state. */
	const pearl_policy *critic;
	int beam_width, beam_top_k;
	double beam_seconds;
	/* The schedule file (schedule-file=; NULL path without the option).
	 * A region with an entry whose fingerprint fits is scheduled by it
	 * (never by the policy); others as without the file. `schedule_file`
	 * is kept and shared by every thread; NULL when it could not be
	 * loaded: then `schedule_file_error` says why, and every region keeps
	 * its code, with a warning. */
	const char *schedule_file_path;
	const pearl_schedule_file *schedule_file;
	const char *schedule_file_error;
};

/* Models every region of `func` (kept). Regions that cannot be modeled get
 * a remark and are left untouched. Returns 0, or -1 if the pass must fail
 * (out of memory). */
int pearl_mlir_run_on_function(MlirOperation func,
			       const struct pearl_mlir_options *opts);

/* Registers pearl-schedule, pearl-lower-affine and the pipeline
 * pearl-lower with MLIR's pass registry (C++ shims). */
void pearl_mlir_register_passes(void);
/* Registers pearl-lower-affine and pearl-lower only (passes/mlir/
 * LowerPass.cpp). */
void pearl_mlir_register_lower_passes(void);

#ifdef __cplusplus
}
#endif

#endif
