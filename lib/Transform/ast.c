/* The isl AST of a transformed schedule, with parallel loops and loops to
 * unroll marked. */
#include <isl/aff.h>
#include <isl/ast.h>
#include <isl/ast_build.h>
#include <isl/options.h>
#include <isl/id.h>
#include <isl/printer.h>
#include <isl/schedule_node.h>
#include <isl/union_set.h>
#include <isl/val.h>
#include <stdint.h>
#include <stdlib.h>

#include "pearl/deps.h"
#include "sched_internal.h"

/* Wraps every parallel band in a PEARL_PARALLEL_MARK mark, and every band
 * to unroll (the factor in its options, see pearl_band_unroll_factor) in a
 * PEARL_UNROLL_MARK mark, outside the parallel mark if both. The mark's
 * factor is negated for a loop that carries no dependence: LLVM's loop
 * vectorizer takes such a loop and unrolls it itself (its interleave
 * count), while unrolling it in MLIR first makes LLVM vectorize across the
 * unrolled copies with strided accesses instead (PolyBench gemm, j loop:
 * 0.4x of the plain loop). This is a heuristic: it does not check that the
 * accesses are contiguous. The code generator unrolls the loop; isl does
 * not. */
static __isl_give isl_schedule_node *mark_bands(
    __isl_take isl_schedule_node *node, void *user)
{
	pearl_sched *sched = user;
	isl_ctx *ctx = isl_schedule_node_get_ctx(node);
	intptr_t f;
	int parallel;

	if (isl_schedule_node_get_type(node) != isl_schedule_node_band)
		return node;
	f = pearl_band_unroll_factor(node);
	if (f > 1 && pearl_deps_loop_parallel(sched->deps, node, 0, &parallel,
					      NULL) == pearl_stat_ok &&
	    parallel)
		f = -f;
	if (isl_schedule_node_band_member_get_coincident(node, 0) ==
	    isl_bool_true)
		node = isl_schedule_node_insert_mark(
		    node, isl_id_alloc(ctx, PEARL_PARALLEL_MARK, NULL));
	if (f > 1 || f < -1)
		node = isl_schedule_node_insert_mark(
		    node, isl_id_alloc(ctx, PEARL_UNROLL_MARK, (void *)f));
	return node;
}

__isl_give isl_ast_node *pearl_sched_build_ast(pearl_sched *sched)
{
	isl_schedule *s = isl_schedule_copy(sched->schedule);
	isl_union_set *dom = isl_schedule_get_domain(s);
	isl_ctx *ctx = isl_schedule_get_ctx(s);
	int allow_or = isl_options_get_ast_build_allow_or(ctx);
	isl_ast_build *build;
	isl_ast_node *tree;

	/* affine.if takes conjunctions only: no disjunctive conditions (the
	 * context's setting is restored, it may be borrowed). */
	isl_options_set_ast_build_allow_or(ctx, 0);
	s = isl_schedule_map_schedule_node_bottom_up(s, mark_bands, sched);
	build = isl_ast_build_from_context(isl_set_universe(
	    isl_union_set_get_space(dom)));
	isl_union_set_free(dom);
	tree = isl_ast_build_node_from_schedule(build, s);
	isl_ast_build_free(build);
	isl_options_set_ast_build_allow_or(ctx, allow_or);
	if (!tree)
		pearl_ctx_isl_error(pearl_sched_ctx(sched), "AST generation");
	return tree;
}

char *pearl_sched_ast_to_str(pearl_sched *sched)
{
	isl_ast_node *tree = pearl_sched_build_ast(sched);
	isl_printer *p;
	char *text;

	if (!tree)
		return NULL;
	p = isl_printer_to_str(isl_ast_node_get_ctx(tree));
	p = isl_printer_set_output_format(p, ISL_FORMAT_C);
	p = isl_printer_print_ast_node(p, tree);
	text = isl_printer_get_str(p);
	isl_printer_free(p);
	isl_ast_node_free(tree);
	return text;
}
