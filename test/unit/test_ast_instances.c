/* pearl_ast_runs_schedule: the instances an isl AST runs, read back and
 * compared with a schedule's domain. ASTs are built by isl from one
 * schedule and checked against another to make them run too few, too
 * many or repeated instances. */
#include <isl/aff.h>
#include <isl/ast.h>
#include <isl/ast_build.h>
#include <isl/ctx.h>
#include <isl/options.h>
#include <isl/schedule.h>
#include <isl/schedule_node.h>
#include <isl/set.h>
#include <isl/union_map.h>
#include <isl/union_set.h>
#include <isl/val.h>

#include "check.h"
#include "pearl/transform.h"

/* The schedule of `domain` by `map` (both isl strings) as one band. */
static isl_schedule *band_schedule(isl_ctx *ctx, const char *domain,
				   const char *map)
{
	isl_schedule *s = isl_schedule_from_domain(
	    isl_union_set_read_from_str(ctx, domain));
	isl_schedule_node *node = isl_schedule_get_root(s);
	isl_union_map *umap = isl_union_map_read_from_str(ctx, map);

	isl_schedule_free(s);
	node = isl_schedule_node_child(node, 0);
	node = isl_schedule_node_insert_partial_schedule(
	    node, isl_multi_union_pw_aff_from_union_map(umap));
	s = isl_schedule_node_get_schedule(node);
	isl_schedule_node_free(node);
	return s;
}

/* The AST isl builds from `s` (kept). */
static isl_ast_node *ast_of(isl_schedule *s)
{
	isl_ast_build *build = isl_ast_build_alloc(isl_schedule_get_ctx(s));
	isl_ast_node *tree;

	tree = isl_ast_build_node_from_schedule(build, isl_schedule_copy(s));
	isl_ast_build_free(build);
	return tree;
}

/* Whether the AST built from `built` runs the instances of `checked`
 * once each. */
static int runs(isl_ctx *ctx, const char *built_domain, const char *built,
		const char *checked_domain, const char *checked)
{
	isl_schedule *a = band_schedule(ctx, built_domain, built);
	isl_schedule *b = band_schedule(ctx, checked_domain, checked);
	isl_ast_node *tree = ast_of(a);
	int r = pearl_ast_runs_schedule(tree, b, NULL);

	isl_ast_node_free(tree);
	isl_schedule_free(a);
	isl_schedule_free(b);
	return r;
}

static void test_plain_and_tiled(isl_ctx *ctx)
{
	const char *d = "{ S[i, j] : 0 <= i < 10 and 0 <= j < 7; "
			"T[i] : 0 <= i < 5 }";
	const char *m = "{ S[i, j] -> [i, j]; T[i] -> [i, 10] }";
	isl_schedule *s = band_schedule(ctx, d, m);
	isl_schedule_node *node;
	isl_ast_node *tree;

	CHECK(runs(ctx, d, m, d, m) == 1);
	/* tiled by 4 x 3: tile loops, then point loops */
	node = isl_schedule_node_child(isl_schedule_get_root(s), 0);
	node = isl_schedule_node_band_tile(
	    node, isl_multi_val_read_from_str(ctx, "{ [4, 3] }"));
	isl_schedule_free(s);
	s = isl_schedule_node_get_schedule(node);
	isl_schedule_node_free(node);
	tree = ast_of(s);
	CHECK(pearl_ast_runs_schedule(tree, s, NULL) == 1);
	isl_ast_node_free(tree);
	isl_schedule_free(s);
}

/* isl scales a loop down by its stride: the iterator is then i, not the
 * band value 3i, and the check falls back to isl's injectivity test. */
static void test_scaled_stride(isl_ctx *ctx)
{
	const char *d = "{ S[i] : 0 <= i < 5 }";
	const char *m = "{ S[i] -> [3i] }";

	CHECK(runs(ctx, d, m, d, m) == 1);
}

/* Instances missing or extra: the AST of one domain against another. */
static void test_lost_and_extra(isl_ctx *ctx)
{
	const char *small = "{ S[i, j] : 0 <= i < 10 and 0 <= j < 7 }";
	const char *large = "{ S[i, j] : 0 <= i < 12 and 0 <= j < 7 }";
	const char *m = "{ S[i, j] -> [i, j] }";

	CHECK(runs(ctx, small, m, large, m) == 0);
	CHECK(runs(ctx, large, m, small, m) == 0);
}

/* Instances run twice: a block of the same AST twice. */
static void test_repeated(isl_ctx *ctx)
{
	isl_schedule *s = band_schedule(ctx, "{ S[i] : 0 <= i < 4 }",
					"{ S[i] -> [i] }");
	isl_ast_node *tree = ast_of(s);
	isl_ast_node_list *twice = isl_ast_node_list_alloc(ctx, 2);

	twice = isl_ast_node_list_add(twice, isl_ast_node_copy(tree));
	twice = isl_ast_node_list_add(twice, tree);
	tree = isl_ast_node_block_from_children(twice);
	CHECK(pearl_ast_runs_schedule(tree, s, NULL) == 0);
	isl_ast_node_free(tree);
	isl_schedule_free(s);
}

/* Parameters: under the context N >= 1, the AST need not test N. */
static void test_parameters(isl_ctx *ctx)
{
	const char *d = "[N] -> { S[i] : 0 <= i < N }";
	const char *m = "[N] -> { S[i] -> [i] }";
	isl_schedule *s = band_schedule(ctx, d, m);
	isl_set *context = isl_set_read_from_str(ctx, "[N] -> { : N >= 1 }");
	isl_ast_node *tree = ast_of(s);

	CHECK(pearl_ast_runs_schedule(tree, s, NULL) == 1);
	CHECK(pearl_ast_runs_schedule(tree, s, context) == 1);
	isl_ast_node_free(tree);
	isl_set_free(context);
	isl_schedule_free(s);
}

int main(void)
{
	isl_ctx *ctx = isl_ctx_alloc();

	isl_options_set_on_error(ctx, ISL_ON_ERROR_CONTINUE);
	test_plain_and_tiled(ctx);
	test_scaled_stride(ctx);
	test_lost_and_extra(ctx);
	test_repeated(ctx);
	test_parameters(ctx);
	isl_ctx_free(ctx);
	return check_done("test_ast_instances");
}
