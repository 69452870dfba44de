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

#include "sched_internal.h"

static isl_stat first_piece(__isl_take isl_set *set, __isl_take isl_aff *aff,
			    void *user)
{
	isl_aff **first = user;

	isl_set_free(set);
	if (!*first)
		*first = aff;
	else
		isl_aff_free(aff);
	return isl_stat_ok;
}

static isl_stat first_pw_aff(__isl_take isl_pw_aff *pa, void *user)
{
	isl_aff **first = user;

	if (!*first)
		isl_pw_aff_foreach_piece(pa, first_piece, first);
	isl_pw_aff_free(pa);
	return isl_stat_ok;
}

/* The factor f of a strip-mined point loop, i - f * floor(i / f), from
 * `band` (kept); 0 if it cannot be read. */
static intptr_t strip_factor(__isl_keep isl_schedule_node *band)
{
	isl_multi_union_pw_aff *mupa =
	    isl_schedule_node_band_get_partial_schedule(band);
	isl_union_pw_aff *upa = isl_multi_union_pw_aff_get_at(mupa, 0);
	isl_aff *aff = NULL;
	intptr_t f = 0;

	isl_union_pw_aff_foreach_pw_aff(upa, first_pw_aff, &aff);
	if (aff && isl_aff_dim(aff, isl_dim_div) > 0) {
		isl_val *c = isl_aff_get_coefficient_val(aff, isl_dim_div, 0);

		if (isl_val_is_int(c) == isl_bool_true)
			f = -isl_val_get_num_si(c);
		isl_val_free(c);
	}
	isl_aff_free(aff);
	isl_union_pw_aff_free(upa);
	isl_multi_union_pw_aff_free(mupa);
	return f > 1 ? f : 0;
}

/* Wraps every parallel band in a PEARL_PARALLEL_MARK mark, and every band
 * to unroll in a PEARL_UNROLL_MARK mark (separated into full and partial
 * strips instead of unrolled by isl). */
static __isl_give isl_schedule_node *mark_bands(
    __isl_take isl_schedule_node *node, void *user)
{
	isl_ctx *ctx = isl_schedule_node_get_ctx(node);
	intptr_t f;

	(void)user;
	if (isl_schedule_node_get_type(node) != isl_schedule_node_band)
		return node;
	if (isl_schedule_node_band_member_get_coincident(node, 0) ==
	    isl_bool_true)
		return isl_schedule_node_insert_mark(
		    node, isl_id_alloc(ctx, PEARL_PARALLEL_MARK, NULL));
	if (isl_schedule_node_band_member_get_ast_loop_type(node, 0) !=
	    isl_ast_loop_unroll)
		return node;
	f = strip_factor(node);
	node = isl_schedule_node_band_member_set_ast_loop_type(
	    node, 0, isl_ast_loop_default);
	return isl_schedule_node_insert_mark(
	    node, isl_id_alloc(ctx, PEARL_UNROLL_MARK, (void *)f));
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
	s = isl_schedule_map_schedule_node_bottom_up(s, mark_bands, NULL);
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
