/* Helpers over isl AST expressions for the MLIR code generator: finding
 * and resolving the conditional expressions (select) that affine maps
 * cannot hold. */
#ifndef PEARL_MLIR_AST_EXPR_H
#define PEARL_MLIR_AST_EXPR_H

#include <isl/ast.h>

/* The first conditional subexpression of `expr` (kept), "c ? a : b"
 * (isl_ast_expr_op_select or isl_ast_expr_op_cond), outermost first, then
 * from the left (__isl_give); NULL if it has none (or on error). */
__isl_give isl_ast_expr *pearl_ast_expr_find_select(
    __isl_keep isl_ast_expr *expr);

/* `expr` (taken) with every subexpression equal to `what` (kept) replaced
 * by `by` (kept); NULL on error. */
__isl_give isl_ast_expr *pearl_ast_expr_replace(__isl_take isl_ast_expr *expr,
						__isl_keep isl_ast_expr *what,
						__isl_keep isl_ast_expr *by);

#endif
