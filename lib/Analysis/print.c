/* The stable text form of a program model (see pearl/print.h). */
#include "pearl/print.h"

#include <isl/printer.h>
#include <isl/schedule.h>
#include <stdlib.h>
#include <string.h>

#include "pearl/loop_tree.h"
#include "pearl/str.h"

/* The parameters of the domains and accesses, in isl's order. */
static void print_params(pearl_str *out, pearl_program *prog)
{
	isl_union_set *dom = pearl_program_get_domain(prog);
	isl_union_map *reads = pearl_program_get_reads(prog);
	isl_space *space = isl_union_set_get_space(dom);
	isl_size n;
	int i;

	space = isl_space_align_params(space, isl_union_map_get_space(reads));
	n = isl_space_dim(space, isl_dim_param);
	isl_union_map_free(reads);

	pearl_str_append(out, "  parameters: [");
	for (i = 0; i < n; ++i)
		pearl_str_printf(out, "%s%s", i ? ", " : "",
				 isl_space_get_dim_name(space, isl_dim_param, i));
	pearl_str_append(out, "]\n");
	isl_space_free(space);
	isl_union_set_free(dom);
}

static void print_stmts(pearl_str *out, pearl_program *prog)
{
	int i, k, n = pearl_program_n_stmt(prog);

	pearl_str_append(out, "  statements:\n");
	for (i = 0; i < n; ++i) {
		int nops = pearl_program_stmt_n_op(prog, i);

		pearl_str_printf(out, "    %s %s ops:",
				 isl_id_get_name(pearl_program_stmt_id(prog, i)),
				 pearl_program_stmt_type(prog, i));
		if (nops == 0)
			pearl_str_append(out, " none");
		for (k = 0; k < nops; ++k)
			pearl_str_printf(out, " %s x%d",
					 pearl_program_stmt_op_name(prog, i, k),
					 pearl_program_stmt_op_count(prog, i, k));
		if (pearl_program_stmt_is_reduction(prog, i) == 1)
			pearl_str_append(out, " reduction");
		pearl_str_append(out, "\n      domain: ");
		pearl_str_append_take(out, isl_set_to_str(
		    pearl_program_stmt_domain(prog, i)));
		for (k = 0; k < pearl_program_stmt_n_write(prog, i); ++k) {
			pearl_str_append(out, "\n      write:  ");
			pearl_str_append_take(out, isl_map_to_str(
			    pearl_program_stmt_write_at(prog, i, k)));
		}
		pearl_str_append(out, "\n");
		for (k = 0; k < pearl_program_stmt_n_read(prog, i); ++k) {
			pearl_str_append(out, "      read:   ");
			pearl_str_append_take(out, isl_map_to_str(
			    pearl_program_stmt_read(prog, i, k)));
			pearl_str_append(out, "\n");
		}
	}
}

static pearl_stat print_loop(pearl_str *out, pearl_deps *deps,
			     pearl_loop_tree *tree, int id, int indent)
{
	struct pearl_tree_node *node = &tree->nodes[id];
	isl_set *range = pearl_loop_tree_range(tree, id);
	struct pearl_loop_deps ld;
	int k;

	if (!range ||
	    pearl_deps_analyze_loop(deps, node->band, node->member, &ld) < 0)
		return pearl_stat_error;
	pearl_str_indent(out, indent);
	pearl_str_printf(out, "L%d ", node->loop_id);
	pearl_str_append_take(out, isl_set_to_str(range));
	if (ld.parallel)
		pearl_str_append(out, " parallel");
	if (ld.carried) {
		pearl_str_append(out, " carries");
		for (k = 0; k < PEARL_DEP_KINDS; ++k)
			if (ld.carried & (1u << k))
				pearl_str_printf(out, " %s",
						 pearl_dep_kind_name(k));
	}
	pearl_str_append(out, "\n");
	if (ld.distances) {
		pearl_str_indent(out, indent + 2);
		pearl_str_append(out, "distances: ");
		pearl_str_append_take(out, isl_set_to_str(ld.distances));
		pearl_str_append(out, "\n");
		isl_set_free(ld.distances);
	}
	return pearl_stat_ok;
}

static pearl_stat print_tree(pearl_str *out, pearl_program *prog,
			     pearl_deps *deps, pearl_loop_tree *tree, int id,
			     int indent)
{
	struct pearl_tree_node *node = &tree->nodes[id];
	int c;

	if (node->kind == pearl_node_loop &&
	    print_loop(out, deps, tree, id, indent) < 0)
		return pearl_stat_error;
	if (node->kind == pearl_node_stmt) {
		pearl_str_indent(out, indent);
		pearl_str_printf(out, "%s\n", isl_id_get_name(
		    pearl_program_stmt_id(prog, node->stmt)));
	}
	for (c = 0; c < node->n_children; ++c)
		if (print_tree(out, prog, deps, tree, node->children[c],
			       indent + (node->kind == pearl_node_root ? 0 : 2)) < 0)
			return pearl_stat_error;
	return pearl_stat_ok;
}

char *pearl_schedule_to_str(__isl_keep isl_schedule *sched)
{
	isl_printer *p;
	char *text;

	p = isl_printer_to_str(isl_schedule_get_ctx(sched));
	p = isl_printer_set_yaml_style(p, ISL_YAML_STYLE_BLOCK);
	p = isl_printer_print_schedule(p, sched);
	text = isl_printer_get_str(p);
	isl_printer_free(p);
	return text;
}

/* The schedule tree in isl's block YAML, indented by `indent`. */
static void print_schedule(pearl_str *out, __isl_keep isl_schedule *sched,
			   int indent)
{
	char *text = pearl_schedule_to_str(sched);

	if (!text) {
		out->failed = 1;
		return;
	}
	pearl_str_append_indented(out, text, indent);
	free(text);
}

char *pearl_program_to_str(pearl_program *prog, pearl_deps *deps)
{
	pearl_ctx *ctx = pearl_program_get_ctx(prog);
	isl_schedule *sched = pearl_program_peek_schedule(prog);
	pearl_str out = PEARL_STR_INIT;
	pearl_loop_tree *tree;
	char *text;
	int k;

	tree = pearl_loop_tree_from_schedule(prog, sched);
	if (!tree)
		return NULL;
	pearl_str_printf(&out, "model @%s\n", pearl_program_get_name(prog));
	print_params(&out, prog);
	print_stmts(&out, prog);
	pearl_str_append(&out, "  loop tree:\n");
	if (print_tree(&out, prog, deps, tree, 0, 4) < 0) {
		pearl_loop_tree_free(tree);
		pearl_str_clear(&out);
		return NULL;
	}
	pearl_loop_tree_free(tree);
	pearl_str_append(&out, "  schedule:\n");
	print_schedule(&out, sched, 4);
	pearl_str_append(&out, "  dependences:\n");
	for (k = 0; k < PEARL_DEP_KINDS; ++k) {
		isl_union_map *dep = pearl_deps_get(deps, k);

		pearl_str_printf(&out, "    %s: ", pearl_dep_kind_name(k));
		pearl_str_append_take(&out, isl_union_map_to_str(dep));
		pearl_str_append(&out, "\n");
		isl_union_map_free(dep);
	}
	text = pearl_str_take(&out);
	if (!text)
		pearl_ctx_isl_error(ctx, "printing the model");
	return text;
}
