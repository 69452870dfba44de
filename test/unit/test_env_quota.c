/* The isl operations quota of a program in the environment: every
 * pearl_env_program_sched gets the whole quota again, whatever earlier
 * work on the program's context used up. An episode, a search's root or a
 * critic's sample would otherwise find the quota spent by the work before
 * it, and read its refusals as illegal actions. */
#include <stdio.h>
#include <stdlib.h>

#include "pearl/ctx.h"
#include "pearl/env.h"
#include "pearl/transform.h"

#include "check.h"

/* A 32x32 matmul in the kernel contract. */
static const char *matmul =
	"// outputs: 2\n"
	"func.func @init(%A: memref<32x32xf64>, %B: memref<32x32xf64>,\n"
	"                %C: memref<32x32xf64>) {\n"
	"  return\n"
	"}\n"
	"func.func @kernel(%A: memref<32x32xf64>, %B: memref<32x32xf64>,\n"
	"                  %C: memref<32x32xf64>) {\n"
	"  affine.for %i = 0 to 32 {\n"
	"    affine.for %j = 0 to 32 {\n"
	"      affine.for %k = 0 to 32 {\n"
	"        %a = affine.load %A[%i, %k] : memref<32x32xf64>\n"
	"        %b = affine.load %B[%k, %j] : memref<32x32xf64>\n"
	"        %c = affine.load %C[%i, %j] : memref<32x32xf64>\n"
	"        %p = arith.mulf %a, %b : f64\n"
	"        %s = arith.addf %c, %p : f64\n"
	"        affine.store %s, %C[%i, %j] : memref<32x32xf64>\n"
	"      }\n"
	"    }\n"
	"  }\n"
	"  return\n"
	"}\n";

/* Applies "T(0,1,8,8)" to branch 0 of `sched` (kept): pearl_stat_ok if it
 * was applied. */
static pearl_stat apply_tile(pearl_sched *sched)
{
	pearl_ctx *ctx = pearl_program_get_ctx(pearl_sched_get_program(sched));
	struct pearl_action *acts = NULL;
	pearl_stat st = pearl_stat_error;

	if (pearl_actions_parse(ctx, "T(0,1,8,8)", &acts) == 1)
		st = pearl_sched_apply(sched, 0, &acts[0]);
	free(acts);
	return st;
}

/* A fresh model of p: a tiling of it applied with `max_ops` as the quota
 * (0: the quota the environment gives) is `want` (pearl_stat_ok or not),
 * and a refused one is the quota's doing. */
static void check_tile(pearl_env_program *p, unsigned long max_ops,
		       pearl_stat want)
{
	char err[512] = "";
	pearl_sched *sched = pearl_env_program_sched(p, err, sizeof(err));
	pearl_ctx *ctx;

	CHECK(sched != NULL);
	if (!sched) {
		fprintf(stderr, "pearl_env_program_sched: %s\n", err);
		return;
	}
	pearl_sched_set_explain(sched, 0);
	ctx = pearl_program_get_ctx(pearl_sched_get_program(sched));
	CHECK(!pearl_ctx_quota_exceeded(ctx));
	if (max_ops)
		pearl_ctx_set_max_operations(ctx, max_ops);
	CHECK(apply_tile(sched) == want);
	CHECK((want == pearl_stat_ok) == !pearl_ctx_quota_exceeded(ctx));
	pearl_sched_free(sched);
}

int main(void)
{
	char err[512] = "";
	pearl_env *env = pearl_env_create(NULL, err, sizeof(err));
	pearl_env_program *p = NULL;

	if (!env) {
		fprintf(stderr, "pearl_env_create: %s\n", err);
		return 1;
	}
	p = pearl_env_program_load(env, matmul, "matmul", err, sizeof(err));
	CHECK(p != NULL);
	if (!p) {
		fprintf(stderr, "pearl_env_program_load: %s\n", err);
		pearl_env_free(env);
		return 1;
	}
	/* The tiling is legal with the whole quota; refused once the quota
	 * is spent, and the context says it was the quota; legal again on
	 * the next model, whose quota is whole and error state clear. */
	check_tile(p, 0, pearl_stat_ok);
	check_tile(p, 1, pearl_stat_error);
	check_tile(p, 0, pearl_stat_ok);

	pearl_env_program_free(p);
	pearl_env_free(env);
	return check_done("env_quota");
}
