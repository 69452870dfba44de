/* Dependences and loop parallelism of time-iterated stencils; the quota. */
#include <stdlib.h>

#include "check.h"
#include "helpers.h"
#include "pearl/deps.h"
#include "pearl/loop_tree.h"

/* jacobi-1d: for t { for i: B[i] = A[i-1]+A[i]+A[i+1]; for i: A[i] = B[i] } */
static pearl_program *jacobi1d(pearl_ctx *ctx)
{
	static const char *r0[] = { "[T, N] -> { S0[t, i] -> A[i - 1] }",
				    "[T, N] -> { S0[t, i] -> A[i] }",
				    "[T, N] -> { S0[t, i] -> A[i + 1] }", NULL };
	static const char *r1[] = { "[T, N] -> { S1[t, i] -> B[i] }", NULL };
	pearl_program *prog = pearl_program_alloc(ctx, "jacobi1d");

	add_stmt_str(prog, "[T, N] -> { S0[t, i] : 0 <= t < T and 1 <= i < N - 1 }",
		     "[T, N] -> { S0[t, i] -> B[i] }", r0);
	add_stmt_str(prog, "[T, N] -> { S1[t, i] : 0 <= t < T and 1 <= i < N - 1 }",
		     "[T, N] -> { S1[t, i] -> A[i] }", r1);
	set_schedule_str(prog,
		"{ domain: \"[T, N] -> { S0[t, i] : 0 <= t < T and 1 <= i < N - 1; "
		"S1[t, i] : 0 <= t < T and 1 <= i < N - 1 }\", "
		"child: { schedule: \"[T, N] -> [{ S0[t, i] -> [(t)]; S1[t, i] -> [(t)] }]\", "
		"child: { sequence: [ "
		"{ filter: \"[T, N] -> { S0[t, i] }\", child: { schedule: \"[T, N] -> [{ S0[t, i] -> [(i)] }]\" } }, "
		"{ filter: \"[T, N] -> { S1[t, i] }\", child: { schedule: \"[T, N] -> [{ S1[t, i] -> [(i)] }]\" } } "
		"] } } }");
	return prog;
}

/* seidel-2d-like: for t, i, j: A[i][j] = A[i-1][j] + A[i][j-1] + A[i+1][j] + A[i][j+1] */
static pearl_program *seidel(pearl_ctx *ctx)
{
	static const char *r[] = { "{ S0[t, i, j] -> A[i - 1, j] }",
				   "{ S0[t, i, j] -> A[i, j - 1] }",
				   "{ S0[t, i, j] -> A[i + 1, j] }",
				   "{ S0[t, i, j] -> A[i, j + 1] }", NULL };
	pearl_program *prog = pearl_program_alloc(ctx, "seidel");

	add_stmt_str(prog, "{ S0[t, i, j] : 0 <= t < 10 and 1 <= i < 19 and 1 <= j < 19 }",
		     "{ S0[t, i, j] -> A[i, j] }", r);
	set_schedule_str(prog,
		"{ domain: \"{ S0[t, i, j] : 0 <= t < 10 and 1 <= i < 19 and 1 <= j < 19 }\", "
		"child: { schedule: \"[{ S0[t, i, j] -> [(t)] }]\", "
		"child: { schedule: \"[{ S0[t, i, j] -> [(i)] }]\", "
		"child: { schedule: \"[{ S0[t, i, j] -> [(j)] }]\" } } } }");
	return prog;
}

/* The parallel flags of the loops of `prog` in pre-order, as "PpP" etc. */
static void loop_flags(pearl_program *prog, pearl_deps *deps, char *out,
		       isl_set **first_distances)
{
	pearl_loop_tree *tree = pearl_loop_tree_from_schedule(
	    prog, pearl_program_peek_schedule(prog));
	int i;

	*out = '\0';
	for (i = 0; tree && i < tree->n_nodes; ++i) {
		struct pearl_tree_node *n = &tree->nodes[i];
		struct pearl_loop_deps ld;

		if (n->kind != pearl_node_loop)
			continue;
		if (pearl_deps_analyze_loop(deps, n->band, n->member, &ld) < 0) {
			strcat(out, "!");
			continue;
		}
		strcat(out, ld.parallel ? "P" : "s");
		if (first_distances && !*first_distances)
			*first_distances = ld.distances;
		else
			isl_set_free(ld.distances);
	}
	pearl_loop_tree_free(tree);
}

static void test_jacobi1d(pearl_ctx *ctx)
{
	pearl_program *prog = jacobi1d(ctx);
	pearl_deps *deps = pearl_deps_compute(prog);
	isl_set *dist = NULL, *want;
	char flags[16];

	CHECK(deps != NULL);
	/* S1 reads B[i] written by S0 at the same t. */
	CHECK(umap_equals(pearl_deps_get(deps, pearl_dep_raw),
		"[T, N] -> { S0[t, i] -> S1[t', i] : 0 <= t <= t' < T and 1 <= i < N - 1; "
		"S1[t, i] -> S0[t', i'] : 0 <= t < t' < T and 1 <= i < N - 1 and "
		"i - 1 <= i' <= i + 1 and 1 <= i' < N - 1 }"));
	loop_flags(prog, deps, flags, &dist);
	CHECK_STR(flags, "sPP");
	/* The time loop carries distance 1 and more (memory-based). */
	want = isl_set_read_from_str(pearl_ctx_get_isl(ctx),
				     "[T, N] -> { [d] : 0 <= d < T and N >= 3 }");
	CHECK(dist && isl_set_is_equal(dist, want) == isl_bool_true);
	isl_set_free(want);
	isl_set_free(dist);
	pearl_deps_free(deps);
	pearl_program_free(prog);
}

static void test_seidel(pearl_ctx *ctx)
{
	pearl_program *prog = seidel(ctx);
	pearl_deps *deps = pearl_deps_compute(prog);
	char flags[16];

	CHECK(deps != NULL);
	loop_flags(prog, deps, flags, NULL);
	CHECK_STR(flags, "sss");
	pearl_deps_free(deps);
	pearl_program_free(prog);
}

static void test_quota(void)
{
	pearl_ctx *ctx = pearl_ctx_alloc();
	pearl_program *prog = seidel(ctx);
	pearl_deps *deps;

	pearl_ctx_set_max_operations(ctx, 10);
	deps = pearl_deps_compute(prog);
	CHECK(deps == NULL);
	CHECK(strstr(pearl_ctx_last_error(ctx), "quota") != NULL);
	/* The context is usable again once the quota is lifted. */
	pearl_ctx_set_max_operations(ctx, 0);
	deps = pearl_deps_compute(prog);
	CHECK(deps != NULL);
	pearl_deps_free(deps);
	pearl_program_free(prog);
	pearl_ctx_free(ctx);
}

int main(void)
{
	pearl_ctx *ctx = pearl_ctx_alloc();

	test_jacobi1d(ctx);
	test_seidel(ctx);
	pearl_ctx_free(ctx);
	test_quota();
	return check_done("test_deps");
}
