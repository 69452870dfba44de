/* Helpers over isl AST expressions for the MLIR code generator: finding
 * and resolving the conditional expressions (select) that affine maps
 * cannot hold, and taking apart the conditions with disjunctions that an
 * affine.if cannot hold. */
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

/* Whether `expr` (kept) is a disjunction "a || b" (isl_ast_expr_op_or or
 * isl_ast_expr_op_or_else). */
int pearl_ast_expr_is_or(__isl_keep isl_ast_expr *expr);

/* Whether `expr` (kept) is a conjunction "a && b" (isl_ast_expr_op_and or
 * isl_ast_expr_op_and_then). */
int pearl_ast_expr_is_and(__isl_keep isl_ast_expr *expr);

/* Whether `expr` (kept) has a disjunction in it, itself included. */
isl_bool pearl_ast_expr_has_or(__isl_keep isl_ast_expr *expr);

/* Splits the conjunction `expr` (kept; its nested conjunctions flattened)
 * into *pure, the conjunction of its conjuncts without a disjunction, and
 * *rest, the conjunction of the others, each in their order (NULL where
 * there are none). 0, or -1 on error (both NULL). */
int pearl_ast_expr_split_and(__isl_keep isl_ast_expr *expr,
			     __isl_give isl_ast_expr **pure,
			     __isl_give isl_ast_expr **rest);

#endif
