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

/* Whether `expr` (kept) is an operation of type `a` or `b`. */
static int is_op(__isl_keep isl_ast_expr *expr, enum isl_ast_expr_op_type a,
		 enum isl_ast_expr_op_type b)
{
	enum isl_ast_expr_op_type type;

	if (isl_ast_expr_get_type(expr) != isl_ast_expr_op)
		return 0;
	type = isl_ast_expr_op_get_type(expr);
	return type == a || type == b;
}

int pearl_ast_expr_is_or(__isl_keep isl_ast_expr *expr)
{
	return is_op(expr, isl_ast_expr_op_or, isl_ast_expr_op_or_else);
}

int pearl_ast_expr_is_and(__isl_keep isl_ast_expr *expr)
{
	return is_op(expr, isl_ast_expr_op_and, isl_ast_expr_op_and_then);
}

isl_bool pearl_ast_expr_has_or(__isl_keep isl_ast_expr *expr)
{
	isl_bool found = isl_bool_false;
	isl_size n, i;

	if (!expr)
		return isl_bool_error;
	if (isl_ast_expr_get_type(expr) != isl_ast_expr_op)
		return isl_bool_false;
	if (pearl_ast_expr_is_or(expr))
		return isl_bool_true;
	n = isl_ast_expr_op_get_n_arg(expr);
	if (n < 0)
		return isl_bool_error;
	for (i = 0; i < n && found == isl_bool_false; ++i) {
		isl_ast_expr *arg = isl_ast_expr_op_get_arg(expr, i);

		found = pearl_ast_expr_has_or(arg);
		isl_ast_expr_free(arg);
	}
	return found;
}

/* *acc && `expr` (taken) into *acc (`expr` alone if *acc is NULL); 0, or
 * -1 on error. */
static int add_conjunct(isl_ast_expr **acc, __isl_take isl_ast_expr *expr)
{
	if (!expr)
		return -1;
	*acc = *acc ? isl_ast_expr_and(*acc, expr) : expr;
	return *acc ? 0 : -1;
}

/* Adds the conjuncts of `expr` (kept) to *pure or *rest (see
 * pearl_ast_expr_split_and); 0, or -1 on error. */
static int split_and(__isl_keep isl_ast_expr *expr, isl_ast_expr **pure,
		     isl_ast_expr **rest)
{
	isl_bool has_or;
	isl_size n, i;
	int r = 0;

	if (!pearl_ast_expr_is_and(expr)) {
		has_or = pearl_ast_expr_has_or(expr);
		if (has_or < 0)
			return -1;
		return add_conjunct(has_or ? rest : pure,
				    isl_ast_expr_copy(expr));
	}
	n = isl_ast_expr_op_get_n_arg(expr);
	if (n < 0)
		return -1;
	for (i = 0; i < n && r == 0; ++i) {
		isl_ast_expr *arg = isl_ast_expr_op_get_arg(expr, i);

		r = arg ? split_and(arg, pure, rest) : -1;
		isl_ast_expr_free(arg);
	}
	return r;
}

int pearl_ast_expr_split_and(__isl_keep isl_ast_expr *expr,
			     __isl_give isl_ast_expr **pure,
			     __isl_give isl_ast_expr **rest)
{
	*pure = NULL;
	*rest = NULL;
	if (split_and(expr, pure, rest) == 0)
		return 0;
	*pure = isl_ast_expr_free(*pure);
	*rest = isl_ast_expr_free(*rest);
	return -1;
}
