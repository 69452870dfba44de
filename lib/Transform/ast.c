/* The isl AST of a transformed schedule, with parallel loops marked. */
#include <isl/ast.h>
#include <isl/ast_build.h>
#include <isl/id.h>
#include <isl/printer.h>
#include <isl/schedule_node.h>
#include <isl/union_set.h>
#include <stdlib.h>

#include "sched_internal.h"

/* Wraps every parallel band in a mark node named "parallel". */
static __isl_give isl_schedule_node *mark_parallel(
    __isl_take isl_schedule_node *node, void *user)
{
	(void)user;
	if (isl_schedule_node_get_type(node) != isl_schedule_node_band ||
	    isl_schedule_node_band_member_get_coincident(node, 0) !=
		isl_bool_true)
		return node;
	return isl_schedule_node_insert_mark(
	    node, isl_id_alloc(isl_schedule_node_get_ctx(node),
			       PEARL_PARALLEL_MARK, NULL));
}

__isl_give isl_ast_node *pearl_sched_build_ast(pearl_sched *sched)
{
	isl_schedule *s = isl_schedule_copy(sched->schedule);
	isl_union_set *dom = isl_schedule_get_domain(s);
	isl_ast_build *build;
	isl_ast_node *tree;

	s = isl_schedule_map_schedule_node_bottom_up(s, mark_parallel, NULL);
	build = isl_ast_build_from_context(isl_set_universe(
	    isl_union_set_get_space(dom)));
	isl_union_set_free(dom);
	tree = isl_ast_build_node_from_schedule(build, s);
	isl_ast_build_free(build);
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
