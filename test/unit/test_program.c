/* The program model and its queries on matmul, built from isl strings. */
#include <stdlib.h>

#include "check.h"
#include "helpers.h"
#include "pearl/deps.h"
#include "pearl/fingerprint.h"
#include "pearl/loop_tree.h"
#include "pearl/print.h"

static const char *matmul_reads[] = {
	"[n] -> { S0[i, j, k] -> C[i, j] }",
	"[n] -> { S0[i, j, k] -> A[i, k] }",
	"[n] -> { S0[i, j, k] -> B[k, j] }",
	NULL
};

static pearl_program *matmul(pearl_ctx *ctx)
{
	pearl_program *prog = pearl_program_alloc(ctx, "matmul");

	CHECK(add_stmt_str(prog, "[n] -> { S0[i, j, k] : 0 <= i, j, k < n }",
			   "[n] -> { S0[i, j, k] -> C[i, j] }",
			   matmul_reads) == 0);
	CHECK(pearl_program_add_op_count(prog, 0, "arith.mulf", 1) == 0);
	CHECK(pearl_program_add_op_count(prog, 0, "arith.addf", 1) == 0);
	CHECK(set_schedule_str(prog,
		"{ domain: \"[n] -> { S0[i, j, k] : 0 <= i, j, k < n }\", "
		"child: { schedule: \"[n] -> [{ S0[i, j, k] -> [(i)] }]\", "
		"child: { schedule: \"[n] -> [{ S0[i, j, k] -> [(j)] }]\", "
		"child: { schedule: \"[n] -> [{ S0[i, j, k] -> [(k)] }]\" } } } }")
	      == 0);
	return prog;
}

static void test_model(pearl_ctx *ctx)
{
	pearl_program *prog = matmul(ctx);
	isl_union_map *reads;

	CHECK(pearl_program_n_stmt(prog) == 1);
	CHECK_STR(isl_id_get_name(pearl_program_stmt_id(prog, 0)), "S0");
	CHECK(pearl_program_stmt_n_read(prog, 0) == 3);
	CHECK(pearl_program_stmt_is_reduction(prog, 0) == 1);
	CHECK(pearl_program_stmt_n_op(prog, 0) == 2);
	CHECK_STR(pearl_program_stmt_op_name(prog, 0, 1), "arith.addf");
	CHECK(pearl_program_stmt_read(prog, 0, 3) == NULL);
	CHECK(pearl_program_find_stmt(prog, pearl_program_stmt_id(prog, 0)) == 0);
	reads = pearl_program_get_reads(prog);
	CHECK(umap_equals(reads,
		"[n] -> { S0[i, j, k] -> C[i, j] : 0 <= i, j, k < n; "
		"S0[i, j, k] -> A[i, k] : 0 <= i, j, k < n; "
		"S0[i, j, k] -> B[k, j] : 0 <= i, j, k < n }"));
	pearl_program_free(prog);
}

static void test_deps_and_loops(pearl_ctx *ctx)
{
	pearl_program *prog = matmul(ctx);
	pearl_deps *deps = pearl_deps_compute(prog);
	pearl_loop_tree *tree;
	struct pearl_loop_deps ld;
	int i, loop = 0;

	CHECK(deps != NULL);
	CHECK(umap_equals(pearl_deps_get(deps, pearl_dep_raw),
		"[n] -> { S0[i, j, k] -> S0[i, j, k'] : "
		"0 <= i < n and 0 <= j < n and 0 <= k < k' < n }"));
	CHECK(umap_equals(pearl_deps_get(deps, pearl_dep_waw),
		"[n] -> { S0[i, j, k] -> S0[i, j, k'] : "
		"0 <= i < n and 0 <= j < n and 0 <= k < k' < n }"));
	tree = pearl_loop_tree_from_schedule(prog,
					     pearl_program_peek_schedule(prog));
	CHECK(tree && tree->n_loops == 3);
	for (i = 0; tree && i < tree->n_nodes; ++i) {
		struct pearl_tree_node *n = &tree->nodes[i];
		if (n->kind != pearl_node_loop)
			continue;
		CHECK(pearl_deps_analyze_loop(deps, n->band, n->member, &ld) == 0);
		CHECK(ld.parallel == (loop < 2));
		CHECK(ld.carried == (loop < 2 ? 0u : 7u));
		isl_set_free(ld.distances);
		loop++;
	}
	CHECK(loop == 3);
	pearl_loop_tree_free(tree);
	pearl_deps_free(deps);
	pearl_program_free(prog);
}

static void test_print(pearl_ctx *ctx)
{
	pearl_program *prog = matmul(ctx);
	pearl_deps *deps = pearl_deps_compute(prog);
	char *text = pearl_program_to_str(prog, deps);

	CHECK(text && strstr(text, "model @matmul\n"));
	CHECK(text && strstr(text, "S0 f64 ops: arith.mulf x1 arith.addf x1 reduction"));
	CHECK(text && strstr(text, "L2 [n] -> { [i0, i1, i2] : ") &&
	      strstr(text, "carries RAW WAR WAW"));
	free(text);
	pearl_deps_free(deps);
	pearl_program_free(prog);
}

/* bicg's nest, as clang's frontend models it: S0 adds to s[j] (its own
 * write) and to q[i] (another write; q[i] kept in a register across j).
 * `more` adds the write of q[i]; without it the model forgets it. */
static pearl_program *bicg(pearl_ctx *ctx, int more)
{
	static const char *reads[] = {
		"{ S0[i, j] -> s[j] }", "{ S0[i, j] -> q[i] }",
		"{ S0[i, j] -> A[i, j] }", "{ S0[i, j] -> r[i] }",
		"{ S0[i, j] -> p[j] }", NULL
	};
	const char *dom = "{ S0[i, j] : 0 <= i < 6 and 0 <= j < 5 }";
	pearl_program *prog = pearl_program_alloc(ctx, "bicg");
	isl_ctx *isl = pearl_ctx_get_isl(ctx);

	CHECK(add_stmt_str(prog, dom, "{ S0[i, j] -> s[j] }", reads) == 0);
	if (more)
		CHECK(pearl_program_add_write(prog, 0, isl_map_read_from_str(
		    isl, "{ S0[i, j] -> q[i] }")) == pearl_stat_ok);
	CHECK(set_schedule_str(prog,
		"{ domain: \"{ S0[i, j] : 0 <= i < 6 and 0 <= j < 5 }\", "
		"child: { schedule: \"[{ S0[i, j] -> [(i)] }]\", "
		"child: { schedule: \"[{ S0[i, j] -> [(j)] }]\" } } }") == 0);
	return prog;
}

/* 1 if loop `loop` (0 outer, 1 inner) of bicg's nest is parallel. */
static int bicg_loop_parallel(pearl_program *prog, int loop)
{
	pearl_deps *deps = pearl_deps_compute(prog);
	pearl_loop_tree *tree = pearl_loop_tree_from_schedule(
	    prog, pearl_program_peek_schedule(prog));
	struct pearl_loop_deps ld = { 0 };
	int i, k = -1;

	CHECK(deps && tree);
	for (i = 0; deps && tree && i < tree->n_nodes; ++i) {
		struct pearl_tree_node *n = &tree->nodes[i];
		if (n->kind == pearl_node_loop && ++k == loop)
			CHECK(pearl_deps_analyze_loop(deps, n->band, n->member,
						      &ld) == 0);
	}
	isl_set_free(ld.distances);
	pearl_loop_tree_free(tree);
	pearl_deps_free(deps);
	return ld.parallel;
}

/* A statement with more than one write: every write orders instances, the
 * first stays the statement's own. */
static void test_more_writes(pearl_ctx *ctx)
{
	pearl_program *one = bicg(ctx, 0), *two = bicg(ctx, 1);
	isl_ctx *isl = pearl_ctx_get_isl(ctx);
	uint64_t fp_one = 0, fp_two = 0;
	pearl_deps *deps;
	char *text;

	CHECK(pearl_program_stmt_n_write(one, 0) == 1);
	CHECK(pearl_program_stmt_n_write(two, 0) == 2);
	CHECK(pearl_program_stmt_write_at(two, 0, 0) ==
	      pearl_program_stmt_write(two, 0));
	CHECK(pearl_program_stmt_write_at(two, 0, 2) == NULL);
	CHECK(pearl_program_stmt_write_at(two, 0, -1) == NULL);
	CHECK(pearl_program_stmt_n_write(two, 1) == -1);
	CHECK(umap_equals(pearl_program_get_writes(two),
		"{ S0[i, j] -> s[j] : 0 <= i < 6 and 0 <= j < 5; "
		"S0[i, j] -> q[i] : 0 <= i < 6 and 0 <= j < 5 }"));
	/* s[j] += ... over i: the reduction of its own write. */
	CHECK(pearl_program_stmt_is_reduction(two, 0) == 1);
	/* q[i] is carried by j: forgetting the write would run j in
	 * parallel; i carries s[j] either way. */
	CHECK(bicg_loop_parallel(one, 1) == 1);
	CHECK(bicg_loop_parallel(two, 1) == 0);
	CHECK(bicg_loop_parallel(two, 0) == 0);
	/* Printed, and fingerprinted, with both writes. */
	deps = pearl_deps_compute(two);
	text = deps ? pearl_program_to_str(two, deps) : NULL;
	pearl_deps_free(deps);
	CHECK(text && strstr(text, "write:  { S0[i, j] -> s[j] }\n"
				   "      write:  { S0[i, j] -> q[i] }\n"));
	free(text);
	CHECK(pearl_program_fingerprint(one, &fp_one) == pearl_stat_ok);
	CHECK(pearl_program_fingerprint(two, &fp_two) == pearl_stat_ok);
	CHECK(fp_one != fp_two);
	/* A write from another statement's space is refused; so is a
	 * statement that does not exist. */
	CHECK(pearl_program_add_write(two, 0, isl_map_read_from_str(
	    isl, "{ S1[i, j] -> q[i] }")) == pearl_stat_error);
	CHECK(strstr(pearl_ctx_last_error(ctx), "does not match") != NULL);
	CHECK(pearl_program_add_write(two, 3, isl_map_read_from_str(
	    isl, "{ S0[i, j] -> q[i] }")) == pearl_stat_error);
	CHECK(pearl_program_add_write(two, 0, NULL) == pearl_stat_error);
	CHECK(pearl_program_stmt_n_write(two, 0) == 2);
	pearl_program_free(one);
	pearl_program_free(two);
}

static void test_errors(pearl_ctx *ctx)
{
	isl_ctx *isl = pearl_ctx_get_isl(ctx);
	pearl_program *prog = pearl_program_alloc(ctx, "bad");

	/* A write from another space than the domain. */
	CHECK(pearl_program_add_stmt(prog,
		isl_set_read_from_str(isl, "{ S0[i] : 0 <= i < 4 }"),
		isl_map_read_from_str(isl, "{ S1[i] -> A[i] }"), "f32",
		NULL) == -1);
	CHECK(strstr(pearl_ctx_last_error(ctx), "does not match") != NULL);
	/* A domain without a name. */
	CHECK(pearl_program_add_stmt(prog,
		isl_set_read_from_str(isl, "{ [i] : 0 <= i < 4 }"),
		isl_map_read_from_str(isl, "{ [i] -> A[i] }"), "f32",
		NULL) == -1);
	/* An isl parse error arrives as NULL and is reported, not fatal. */
	CHECK(pearl_program_add_stmt(prog,
		isl_set_read_from_str(isl, "{ S0[i] : 0 <= "),
		isl_map_read_from_str(isl, "{ S0[i] -> A[i] }"), "f32",
		NULL) == -1);
	CHECK(pearl_program_add_read(prog, 7, NULL) == pearl_stat_error);
	CHECK(pearl_program_n_stmt(prog) == 0);
	/* Dependences need a schedule. */
	CHECK(pearl_deps_compute(prog) == NULL);
	CHECK(strstr(pearl_ctx_last_error(ctx), "no schedule") != NULL);
	pearl_program_free(prog);
}

int main(void)
{
	pearl_ctx *ctx = pearl_ctx_alloc();

	test_model(ctx);
	test_deps_and_loops(ctx);
	test_print(ctx);
	test_more_writes(ctx);
	test_errors(ctx);
	pearl_ctx_free(ctx);
	return check_done("test_program");
}
