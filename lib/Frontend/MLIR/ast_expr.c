/* Helpers over isl AST expressions for the MLIR code generator (see
 * ast_expr.h). */
#include "ast_expr.h"

/* Whether `expr` (kept) is a conditional expression "c ? a : b". */
static int is_select(__isl_keep isl_ast_expr *expr)
{
	enum isl_ast_expr_op_type type;

	if (isl_ast_expr_get_type(expr) != isl_ast_expr_op)
		return 0;
	type = isl_ast_expr_op_get_type(expr);
	return type == isl_ast_expr_op_select || type == isl_ast_expr_op_cond;
}

__isl_give isl_ast_expr *pearl_ast_expr_find_select(
    __isl_keep isl_ast_expr *expr)
{
	isl_ast_expr *found = NULL;
	isl_size n, i;

	if (!expr || isl_ast_expr_get_type(expr) != isl_ast_expr_op)
		return NULL;
	if (is_select(expr))
		return isl_ast_expr_copy(expr);
	n = isl_ast_expr_op_get_n_arg(expr);
	for (i = 0; i < n && !found; ++i) {
		isl_ast_expr *arg = isl_ast_expr_op_get_arg(expr, i);

		found = pearl_ast_expr_find_select(arg);
		isl_ast_expr_free(arg);
	}
	return found;
}

__isl_give isl_ast_expr *pearl_ast_expr_replace(__isl_take isl_ast_expr *expr,
						__isl_keep isl_ast_expr *what,
						__isl_keep isl_ast_expr *by)
{
	isl_size n, i;

	if (!expr)
		return NULL;
	if (isl_ast_expr_is_equal(expr, what) == isl_bool_true) {
		isl_ast_expr_free(expr);
		return isl_ast_expr_copy(by);
	}
	if (isl_ast_expr_get_type(expr) != isl_ast_expr_op)
		return expr;
	n = isl_ast_expr_op_get_n_arg(expr);
	for (i = 0; i < n && expr; ++i) {
		isl_ast_expr *arg = isl_ast_expr_op_get_arg(expr, i);

		arg = pearl_ast_expr_replace(arg, what, by);
		expr = isl_ast_expr_set_op_arg(expr, i, arg);
	}
	return expr;
}
