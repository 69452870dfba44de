/* The original schedule tree and loop tree built from a loop walk. */
#include <stdlib.h>

#include "check.h"
#include "helpers.h"
#include "pearl/builder.h"
#include "pearl/loop_tree.h"

static isl_set *set(pearl_ctx *ctx, const char *s)
{
	return isl_set_read_from_str(pearl_ctx_get_isl(ctx), s);
}

static isl_map *map(pearl_ctx *ctx, const char *s)
{
	return isl_map_read_from_str(pearl_ctx_get_isl(ctx), s);
}

/* for i { x[i] = 0 (S0); for j { x[i] += A[i][j] (S1) } ; for k {} } y = 1 (S2) */
static void test_imperfect(pearl_ctx *ctx)
{
	pearl_builder *b = pearl_builder_alloc(ctx, "imperfect");
	pearl_program *prog;
	pearl_loop_tree *tree;
	isl_schedule *want;
	struct pearl_tree_node *n;

	CHECK(pearl_builder_enter_loop(b) == 0);
	CHECK(pearl_builder_add_stmt(b, set(ctx, "{ S0[i] : 0 <= i < 8 }"),
				     map(ctx, "{ S0[i] -> x[i] }"), "f32", NULL) == 0);
	CHECK(pearl_builder_enter_loop(b) == 0);
	CHECK(pearl_builder_add_stmt(b, set(ctx, "{ S1[i, j] : 0 <= i < 8 and 0 <= j < 4 }"),
				     map(ctx, "{ S1[i, j] -> x[i] }"), "f32", NULL) == 1);
	CHECK(pearl_builder_leave_loop(b) == 0);
	CHECK(pearl_builder_enter_loop(b) == 0); /* an empty loop is dropped */
	CHECK(pearl_builder_leave_loop(b) == 0);
	CHECK(pearl_builder_leave_loop(b) == 0);
	/* Wrong number of dimensions for the depth. */
	CHECK(pearl_builder_add_stmt(b, set(ctx, "{ S9[i] : 0 <= i < 8 }"),
				     map(ctx, "{ S9[i] -> y[] }"), "f32", NULL) == -1);
	CHECK(pearl_builder_add_stmt(b, set(ctx, "{ S2[] }"),
				     map(ctx, "{ S2[] -> y[] }"), "f32", NULL) == 2);
	CHECK(pearl_builder_leave_loop(b) == pearl_stat_error);
	prog = pearl_builder_finish(b);
	pearl_builder_free(b);
	CHECK(prog != NULL);
	if (!prog)
		return;
	want = isl_schedule_read_from_str(pearl_ctx_get_isl(ctx),
		"{ domain: \"{ S0[i] : 0 <= i < 8; S1[i, j] : 0 <= i < 8 and 0 <= j < 4; S2[] }\", "
		"child: { sequence: [ "
		"{ filter: \"{ S0[i]; S1[i, j] }\", child: { "
		"  schedule: \"[{ S0[i] -> [(i)]; S1[i, j] -> [(i)] }]\", child: { sequence: [ "
		"    { filter: \"{ S0[i] }\" }, "
		"    { filter: \"{ S1[i, j] }\", child: { schedule: \"[{ S1[i, j] -> [(j)] }]\" } } ] } } }, "
		"{ filter: \"{ S2[] }\" } ] } }");
	CHECK(isl_schedule_plain_is_equal(pearl_program_peek_schedule(prog), want)
	      == isl_bool_true);
	isl_schedule_free(want);

	tree = pearl_loop_tree_from_schedule(prog, pearl_program_peek_schedule(prog));
	CHECK(tree && tree->n_loops == 2);
	if (tree) {
		n = &tree->nodes[0];
		CHECK(n->kind == pearl_node_root && n->n_children == 2);
		CHECK(tree->nodes[n->children[0]].kind == pearl_node_loop);
		CHECK(tree->nodes[n->children[1]].kind == pearl_node_stmt &&
		      tree->nodes[n->children[1]].stmt == 2);
		n = &tree->nodes[n->children[0]];
		CHECK(n->loop_id == 0 && n->n_children == 2 && n->depth == 0);
		CHECK(tree->nodes[n->children[0]].stmt == 0);
		n = &tree->nodes[n->children[1]];
		CHECK(n->kind == pearl_node_loop && n->loop_id == 1 && n->depth == 1);
		CHECK(n->n_children == 1 && tree->nodes[n->children[0]].stmt == 1 &&
		      tree->nodes[n->children[0]].depth == 2);
	}
	pearl_loop_tree_free(tree);
	pearl_program_free(prog);
}

int main(void)
{
	pearl_ctx *ctx = pearl_ctx_alloc();

	test_imperfect(ctx);
	pearl_ctx_free(ctx);
	return check_done("test_builder");
}
