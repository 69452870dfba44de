/* Conditions of isl's AST as affine.if operations, a disjunction or a
 * negation decided by nested ifs, and isl's conditional expressions
 * "c ? a : b", which affine maps cannot hold, resolved into an affine.if
 * with a copy of what uses them in each arm (codegen_state.h). */
#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <mlir-c/IntegerSet.h>
#include <stdlib.h>

#include "ast_expr.h"
#include "codegen_state.h"

/* Creates an affine.if on `cond` (kept, a conjunction of comparisons) at
 * the insertion point, with an else block if `with_else`. Returns its
 * blocks in *then_body and *else_body (null without else), or -1 on
 * failure. */
static int create_if(struct gen *g, __isl_keep isl_ast_expr *cond,
		     int with_else, MlirBlock *then_body, MlirBlock *else_body)
{
	MlirAffineExpr cons[MAX_RESULTS];
	bool eq[MAX_RESULTS];
	MlirValue ops[MAX_LOOPS + MAX_PARAMS];
	MlirRegion regions[2];
	MlirOperationState st;
	MlirNamedAttribute attr;
	MlirOperation op;
	int n, nops;

	*else_body = (MlirBlock){ NULL };
	n = cg_conditions(g, cond, cons, eq, 0, MAX_RESULTS);
	if (n == 0) { /* only true constants: an integer set needs 0 >= 0 */
		cons[n] = mlirAffineConstantExprGet(g->mctx, 0);
		eq[n++] = false;
	}
	if (n < 0 || cg_check_ranges(g, cons, n, "a condition at depth %d") < 0)
		return -1;
	nops = cg_map_operands(g, ops);
	regions[0] = cg_body_region(g, 0, then_body);
	regions[1] =
	    with_else ? cg_body_region(g, 0, else_body) : mlirRegionCreate();
	st = mlirOperationStateGet(mlirStringRefCreateFromCString("affine.if"),
				   g->loc);
	attr = cg_named(g, "condition",
			mlirIntegerSetAttrGet(
			    mlirIntegerSetGet(g->mctx, cg_n_dims(g), g->n_param,
					      n, cons, eq)));
	mlirOperationStateAddAttributes(&st, 1, &attr);
	mlirOperationStateAddOperands(&st, nops, ops);
	mlirOperationStateAddOwnedRegions(&st, 2, regions);
	op = mlirOperationCreate(&st);
	if (mlirOperationIsNull(op)) {
		cg_fail(g, "could not create a condition");
		return -1;
	}
	cg_insert(g, op);
	return 0;
}

/* At most this many copies of what one condition leads to (a conjunction
 * of disjunctions multiplies them). */
#define MAX_COPIES 64

/* A decision: test `cond` (kept, a condition of isl's AST without
 * conditional expressions), then go on with `yes` where it holds and with
 * `no` where it does not; or, with a null `cond`, a leaf that calls
 * fn(g, user) (nothing if fn is null). *copies counts the leaves generated
 * for one condition of the AST. */
struct decision {
	isl_ast_expr *cond;
	const struct decision *yes, *no;
	gen_leaf_fn fn;
	void *user;
	int *copies;
};

static void gen_decision(struct gen *g, const struct decision *d);

/* Whether decision `d` generates anything. */
static int decision_is_empty(const struct decision *d)
{
	return !d->cond && !d->fn;
}

/* gen_decision of `d` inside `body`. */
static void gen_decision_in(struct gen *g, MlirBlock body,
			    const struct decision *d)
{
	MlirBlock saved_block = g->block;
	MlirOperation saved_anchor = g->anchor;

	g->block = body;
	g->anchor = mlirBlockGetTerminator(body);
	gen_decision(g, d);
	g->block = saved_block;
	g->anchor = saved_anchor;
}

/* Generates the leaf `d`, unless the condition it belongs to has been
 * copied too often. */
static void gen_leaf(struct gen *g, const struct decision *d)
{
	if (!d->fn)
		return;
	if (++*d->copies > MAX_COPIES)
		cg_fail(g,
			"a condition whose disjunctions need more than %d "
			"copies of what it guards",
			MAX_COPIES);
	else
		d->fn(g, d->user);
}

/* Decision `d` on a condition without disjunction (a conjunction of
 * comparisons): one affine.if, with an else block unless `no` is empty. */
static void gen_test(struct gen *g, const struct decision *d)
{
	int with_else = !decision_is_empty(d->no);
	MlirBlock then_body, else_body;

	if (create_if(g, d->cond, with_else, &then_body, &else_body) < 0)
		return;
	gen_decision_in(g, then_body, d->yes);
	if (with_else && !g->failed)
		gen_decision_in(g, else_body, d->no);
}

/* Decision `d` on "a || b" or "a && b" (`is_or`): a tested first, then b
 * where a does not hold (or) or where it holds (and). What `d` leads to is
 * generated once per path: each instance runs once. */
static void gen_binary(struct gen *g, const struct decision *d, int is_or)
{
	isl_ast_expr *a = NULL, *b = NULL;
	struct decision second = *d, first = *d;

	if (isl_ast_expr_op_get_n_arg(d->cond) != 2)
		cg_fail(g, "condition with %d operands",
			(int)isl_ast_expr_op_get_n_arg(d->cond));
	else if (!(a = isl_ast_expr_op_get_arg(d->cond, 0)) ||
		 !(b = isl_ast_expr_op_get_arg(d->cond, 1)))
		cg_fail(g, "out of memory");
	if (!g->failed) {
		second.cond = b;
		first.cond = a;
		if (is_or)
			first.no = &second;
		else
			first.yes = &second;
		gen_decision(g, &first);
	}
	isl_ast_expr_free(a);
	isl_ast_expr_free(b);
}

/* Decision `d` on a conjunction with a disjunction in it: its conjuncts
 * without disjunction in one affine.if, and the others inside it; if all
 * have one, one conjunct after the other. */
static void gen_and(struct gen *g, const struct decision *d)
{
	isl_ast_expr *pure, *rest;
	struct decision second = *d, first = *d;

	if (pearl_ast_expr_split_and(d->cond, &pure, &rest) < 0) {
		cg_fail(g, "out of memory");
		return;
	}
	if (!pure) {
		gen_binary(g, d, 0);
	} else {
		second.cond = rest;
		first.cond = pure;
		first.yes = &second;
		gen_decision(g, &first);
	}
	isl_ast_expr_free(pure);
	isl_ast_expr_free(rest);
}

/* Generates decision `d`: a disjunction, or a conjunction with one in it,
 * which an affine.if cannot hold, becomes nested affine.ifs on its parts,
 * e.g. "if (a || b) S" becomes "if (a) S else if (b) S" and
 * "if (a && (b || c)) S else T" becomes
 * "if (a) { if (b) S else if (c) S else T } else T". */
static void gen_decision(struct gen *g, const struct decision *d)
{
	isl_bool has_or;

	if (g->failed)
		return;
	if (!d->cond) {
		gen_leaf(g, d);
		return;
	}
	if (isl_ast_expr_get_type(d->cond) == isl_ast_expr_int) {
		int holds = cg_condition_holds(g, d->cond);

		if (holds >= 0)
			gen_decision(g, holds ? d->yes : d->no);
		return;
	}
	has_or = pearl_ast_expr_has_or(d->cond);
	if (has_or < 0)
		cg_fail(g, "out of memory");
	else if (!has_or)
		gen_test(g, d);
	else if (pearl_ast_expr_is_or(d->cond))
		gen_binary(g, d, 1);
	else if (pearl_ast_expr_is_and(d->cond))
		gen_and(g, d);
	else
		cg_fail(g, "condition with a disjunction inside an operand");
}

void cg_cond(struct gen *g, __isl_keep isl_ast_expr *cond, gen_leaf_fn yes,
	     void *yes_user, gen_leaf_fn no, void *no_user)
{
	int copies = 0;
	struct decision then = { NULL, NULL, NULL, yes, yes_user, &copies };
	struct decision other = { NULL, NULL, NULL, no, no_user, &copies };
	struct decision root = { cond, &then, &other, NULL, NULL, &copies };

	gen_decision(g, &root);
}

/* ---- conditional expressions ---- */


/* One value of a conditional expression: the n expressions with `sel`
 * replaced by `by` (all kept), and what to generate from them. */
struct select_arm {
	isl_ast_expr **exprs;
	int n;
	isl_ast_expr *sel, *by;
	gen_exprs_fn fn;
	void *user;
};

/* gen_resolved on the expressions of `user` (a struct select_arm) with
 * its conditional expression replaced by its value. */
static void gen_arm(struct gen *g, void *user)
{
	struct select_arm *arm = user;
	isl_ast_expr *copy[MAX_EXPRS];
	int i;

	for (i = 0; i < arm->n; ++i)
		if (!(copy[i] = pearl_ast_expr_replace(
			  isl_ast_expr_copy(arm->exprs[i]), arm->sel, arm->by)))
			cg_fail(g, "out of memory");
	if (!g->failed)
		cg_resolved(g, copy, arm->n, arm->fn, arm->user);
	for (i = 0; i < arm->n; ++i)
		isl_ast_expr_free(copy[i]);
}

void cg_resolved(struct gen *g, isl_ast_expr **exprs, int n, gen_exprs_fn fn,
		 void *user)
{
	struct select_arm arm[2];
	isl_ast_expr *sel = NULL, *cond;
	int i;

	for (i = 0; i < n && !sel; ++i)
		sel = pearl_ast_expr_find_select(exprs[i]);
	if (!sel) {
		fn(g, exprs, user);
		return;
	}
	cond = isl_ast_expr_op_get_arg(sel, 0);
	for (i = 0; i < 2; ++i)
		arm[i] = (struct select_arm){ exprs, n, sel,
			isl_ast_expr_op_get_arg(sel, 1 + i), fn, user };
	if (!cond || !arm[0].by || !arm[1].by)
		cg_fail(g, "out of memory");
	else
		cg_cond(g, cond, gen_arm, &arm[0], gen_arm, &arm[1]);
	for (i = 0; i < 2; ++i)
		isl_ast_expr_free(arm[i].by);
	isl_ast_expr_free(cond);
	isl_ast_expr_free(sel);
}
