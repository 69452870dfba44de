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

static int failures;

#define CHECK(cond)                                                           \
	do {                                                                  \
		if (!(cond)) {                                                \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, \
				__LINE__, #cond);                             \
			failures++;                                           \
		}                                                             \
	} while (0)

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

int main(void)
{
	char err[512] = "";
	pearl_env *env = pearl_env_create(NULL, err, sizeof(err));
	pearl_env_program *p = NULL;
	pearl_sched *sched;
	pearl_ctx *ctx;

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

	/* The tiling is legal with the whole quota. */
	sched = pearl_env_program_sched(p, err, sizeof(err));
	CHECK(sched != NULL);
	if (sched) {
		pearl_sched_set_explain(sched, 0);
		CHECK(apply_tile(sched) == pearl_stat_ok);
	}
	pearl_sched_free(sched);

	/* Spend the quota: the same tiling is refused for it, and the
	 * context says so (not illegal). */
	sched = pearl_env_program_sched(p, err, sizeof(err));
	CHECK(sched != NULL);
	if (sched) {
		pearl_sched_set_explain(sched, 0);
		ctx = pearl_program_get_ctx(pearl_sched_get_program(sched));
		pearl_ctx_set_max_operations(ctx, 1);
		CHECK(apply_tile(sched) != pearl_stat_ok);
		CHECK(pearl_ctx_quota_exceeded(ctx));
	}
	pearl_sched_free(sched);

	/* The next sched gets the whole quota back, and its error state
	 * is clear. */
	sched = pearl_env_program_sched(p, err, sizeof(err));
	CHECK(sched != NULL);
	if (sched) {
		pearl_sched_set_explain(sched, 0);
		ctx = pearl_program_get_ctx(pearl_sched_get_program(sched));
		CHECK(!pearl_ctx_quota_exceeded(ctx));
		CHECK(apply_tile(sched) == pearl_stat_ok);
	}
	pearl_sched_free(sched);

	pearl_env_program_free(p);
	pearl_env_free(env);
	if (failures)
		fprintf(stderr, "%d check(s) failed\n", failures);
	return failures != 0;
}
