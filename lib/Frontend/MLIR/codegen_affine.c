/* isl's AST expressions as MLIR affine expressions and maps over the
 * iterators in scope and the parameters, with their overflow checks, and
 * conditions as integer set constraints (codegen_state.h). */
#include <isl/id.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "codegen_state.h"

int cg_n_dims(struct gen *g)
{
	return g->depth;
}


static MlirAffineExpr null_expr(void)
{
	return (MlirAffineExpr){ NULL };
}

static MlirAffineExpr id_expr(struct gen *g, __isl_keep isl_id *id)
{
	int i;

	for (i = g->depth - 1; i >= 0; --i)
		if (g->iter[i] == id)
			return mlirAffineDimExprGet(g->mctx, i);
	for (i = 0; i < g->n_param; ++i)
		if (g->param[i] == id)
			return mlirAffineSymbolExprGet(g->mctx, i);
	cg_fail(g, "unknown identifier %s", isl_id_get_name(id));
	return null_expr();
}

/* x mod c (c > 0), non-negative, written x + ceildiv(-x, c) * c, without
 * MLIR's `mod`: MLIR 22's folding of affine.for bounds (run by every
 * greedy rewrite, e.g. canonicalize or expand-strided-metadata) bounds
 * `x mod c` from below by the remainder of x's lower bound, which is
 * wrong whenever x spans more than one period, and then replaces a bound
 * `d0 mod 3` over d0 in [-16, 64) by the constant 2. MLIR recognizes
 * x - floordiv(x, c) * c as a mod; this form it does not, and it bounds
 * ceildiv correctly. */
static MlirAffineExpr remainder_expr(struct gen *g, MlirAffineExpr x,
				     MlirAffineExpr c)
{
	MlirAffineExpr minus_one = mlirAffineConstantExprGet(g->mctx, -1);
	MlirAffineExpr q;

	q = mlirAffineCeilDivExprGet(mlirAffineMulExprGet(x, minus_one), c);
	return mlirAffineAddExprGet(x, mlirAffineMulExprGet(q, c));
}

static MlirAffineExpr op_expr(struct gen *g, __isl_keep isl_ast_expr *e)
{
	enum isl_ast_expr_op_type type = isl_ast_expr_op_get_type(e);
	isl_size n = isl_ast_expr_op_get_n_arg(e);
	MlirAffineExpr a[2];
	int i;

	if (n < 1 || n > 2) {
		cg_fail(g, "expression with %d arguments", (int)n);
		return null_expr();
	}
	for (i = 0; i < n; ++i) {
		isl_ast_expr *arg = isl_ast_expr_op_get_arg(e, i);
		a[i] = cg_affine_expr(g, arg);
		isl_ast_expr_free(arg);
		if (mlirAffineExprIsNull(a[i]))
			return null_expr();
	}
	switch (type) {
	case isl_ast_expr_op_minus:
		return mlirAffineMulExprGet(a[0],
					    mlirAffineConstantExprGet(g->mctx, -1));
	case isl_ast_expr_op_add:
		return mlirAffineAddExprGet(a[0], a[1]);
	case isl_ast_expr_op_sub:
		return mlirAffineAddExprGet(
		    a[0], mlirAffineMulExprGet(
			      a[1], mlirAffineConstantExprGet(g->mctx, -1)));
	case isl_ast_expr_op_mul:
		if (!mlirAffineExprIsAConstant(a[0]) &&
		    !mlirAffineExprIsAConstant(a[1]))
			break;
		return mlirAffineMulExprGet(a[0], a[1]);
	case isl_ast_expr_op_div:    /* exact */
	case isl_ast_expr_op_fdiv_q: /* floor */
	case isl_ast_expr_op_pdiv_q: /* non-negative dividend */
		if (!mlirAffineExprIsAConstant(a[1]) ||
		    mlirAffineConstantExprGetValue(a[1]) <= 0)
			break;
		return mlirAffineFloorDivExprGet(a[0], a[1]);
	case isl_ast_expr_op_pdiv_r:
	case isl_ast_expr_op_zdiv_r: /* only compared with 0 */
		if (!mlirAffineExprIsAConstant(a[1]) ||
		    mlirAffineConstantExprGetValue(a[1]) <= 0)
			break;
		return remainder_expr(g, a[0], a[1]);
	default:
		break;
	}
	cg_fail(g, "expression is not affine (isl operation %d)", (int)type);
	return null_expr();
}

int cg_val_to_index(struct gen *g, __isl_keep isl_val *v, int64_t *out)
{
	isl_ctx *ctx = isl_val_get_ctx(v);
	isl_val *min = isl_val_int_from_si(ctx, INT64_MIN);
	isl_val *max = isl_val_int_from_si(ctx, INT64_MAX);
	int fits = isl_val_is_int(v) == isl_bool_true &&
		   isl_val_ge(v, min) == isl_bool_true &&
		   isl_val_le(v, max) == isl_bool_true;
	char *text;

	isl_val_free(min);
	isl_val_free(max);
	if (fits) {
		*out = isl_val_get_num_si(v);
		return 0;
	}
	text = isl_val_to_str(v);
	cg_fail(g, "the constant %s does not fit in 64-bit index arithmetic",
		text ? text : "?");
	free(text);
	return -1;
}

int cg_check_range(struct gen *g, MlirAffineExpr e,
		   struct pearl_index_range *range, const char *what, ...)
{
	char name[128];
	va_list ap;

	if (pearl_index_range_of(e, g->range, g->depth, range) == 0)
		return 0;
	va_start(ap, what);
	vsnprintf(name, sizeof(name), what, ap);
	va_end(ap);
	cg_fail(g,
		"%s could overflow 64-bit index arithmetic (with the loops' "
		"values and symbols within +-2^40)",
		name);
	return -1;
}

MlirAffineExpr cg_affine_expr(struct gen *g, __isl_keep isl_ast_expr *e)
{
	MlirAffineExpr r = null_expr();
	isl_id *id;
	isl_val *v;
	int64_t c;

	switch (isl_ast_expr_get_type(e)) {
	case isl_ast_expr_id:
		id = isl_ast_expr_id_get_id(e);
		r = id_expr(g, id);
		isl_id_free(id);
		return r;
	case isl_ast_expr_int:
		v = isl_ast_expr_int_get_val(e);
		if (cg_val_to_index(g, v, &c) == 0)
			r = mlirAffineConstantExprGet(g->mctx, c);
		isl_val_free(v);
		return r;
	case isl_ast_expr_op:
		return op_expr(g, e);
	default:
		cg_fail(g, "unexpected expression");
		return null_expr();
	}
}

int cg_bound_results(struct gen *g, __isl_keep isl_ast_expr *e,
		     enum isl_ast_expr_op_type fold, long add,
		     MlirAffineExpr *res, int max)
{
	int i, n = 0;

	if (isl_ast_expr_get_type(e) == isl_ast_expr_op &&
	    isl_ast_expr_op_get_type(e) == fold) {
		isl_size args = isl_ast_expr_op_get_n_arg(e);
		for (i = 0; i < args && !g->failed; ++i) {
			isl_ast_expr *arg = isl_ast_expr_op_get_arg(e, i);
			int k = cg_bound_results(g, arg, fold, add, res + n,
						 max - n);
			isl_ast_expr_free(arg);
			if (k < 0)
				return -1;
			n += k;
		}
		return g->failed ? -1 : n;
	}
	if (max < 1) {
		cg_fail(g, "too many bounds");
		return -1;
	}
	res[0] = cg_affine_expr(g, e);
	if (mlirAffineExprIsNull(res[0]))
		return -1;
	if (add)
		res[0] = mlirAffineAddExprGet(
		    res[0], mlirAffineConstantExprGet(g->mctx, add));
	return 1;
}

MlirAffineMap cg_make_map(struct gen *g, MlirAffineExpr *res, int n)
{
	return mlirAffineMapGet(g->mctx, cg_n_dims(g), g->n_param, n, res);
}

int cg_map_operands(struct gen *g, MlirValue *ops)
{
	int i, n = 0;

	for (i = 0; i < g->depth; ++i)
		ops[n++] = g->iv[i];
	for (i = 0; i < g->n_param; ++i)
		ops[n++] = g->param_value[i];
	return n;
}

/* ---- condition expressions -> integer set constraints ---- */

int cg_condition_holds(struct gen *g, __isl_keep isl_ast_expr *e)
{
	isl_val *v = isl_ast_expr_int_get_val(e);
	isl_bool zero = isl_val_is_zero(v);

	isl_val_free(v);
	if (zero < 0) {
		cg_fail(g, "out of memory");
		return -1;
	}
	return !zero;
}

int cg_conditions(struct gen *g, __isl_keep isl_ast_expr *e,
		  MlirAffineExpr *cons, bool *eq, int n, int max)
{
	enum isl_ast_expr_op_type t;
	isl_ast_expr *l, *r;
	MlirAffineExpr lr[MAX_RESULTS], rr[MAX_RESULTS];
	int nl, nr, i, j;
	long shift = 0;
	int swap = 0, is_eq = 0;

	if (isl_ast_expr_get_type(e) == isl_ast_expr_int) {
		/* A constant conjunct: true adds nothing, false adds -1 >= 0. */
		int holds = cg_condition_holds(g, e);

		if (holds < 0)
			return -1;
		if (holds)
			return n;
		if (n == max) {
			cg_fail(g, "too many constraints");
			return -1;
		}
		cons[n] = mlirAffineConstantExprGet(g->mctx, -1);
		eq[n++] = false;
		return n;
	}
	if (isl_ast_expr_get_type(e) != isl_ast_expr_op) {
		cg_fail(g, "condition is not a comparison");
		return -1;
	}
	t = isl_ast_expr_op_get_type(e);
	if (t == isl_ast_expr_op_and || t == isl_ast_expr_op_and_then) {
		l = isl_ast_expr_op_get_arg(e, 0);
		r = isl_ast_expr_op_get_arg(e, 1);
		n = cg_conditions(g, l, cons, eq, n, max);
		if (n >= 0)
			n = cg_conditions(g, r, cons, eq, n, max);
		isl_ast_expr_free(l);
		isl_ast_expr_free(r);
		return n;
	}
	switch (t) {
	case isl_ast_expr_op_eq: is_eq = 1; break;
	case isl_ast_expr_op_ge: break;               /* l - r >= 0 */
	case isl_ast_expr_op_gt: shift = -1; break;   /* l - r - 1 >= 0 */
	case isl_ast_expr_op_le: swap = 1; break;     /* r - l >= 0 */
	case isl_ast_expr_op_lt: swap = 1; shift = -1; break;
	default:
		cg_fail(g,
			"condition with isl operation %d (e.g. a disjunction)",
			(int)t);
		return -1;
	}
	l = isl_ast_expr_op_get_arg(e, swap);
	r = isl_ast_expr_op_get_arg(e, !swap);
	/* big >= small: a max on the right or a min on the left splits. */
	nl = cg_bound_results(g, l, isl_ast_expr_op_min, 0, lr, MAX_RESULTS);
	nr = nl < 0 ? -1
		    : cg_bound_results(g, r, isl_ast_expr_op_max, 0, rr,
				       MAX_RESULTS);
	isl_ast_expr_free(l);
	isl_ast_expr_free(r);
	if (nl < 0 || nr < 0)
		return -1;
	if (is_eq && (nl > 1 || nr > 1)) {
		cg_fail(g, "equality with min/max");
		return -1;
	}
	for (i = 0; i < nl; ++i)
		for (j = 0; j < nr; ++j) {
			if (n == max) {
				cg_fail(g, "too many constraints");
				return -1;
			}
			cons[n] = mlirAffineAddExprGet(
			    mlirAffineAddExprGet(
				lr[i], mlirAffineMulExprGet(
					   rr[j], mlirAffineConstantExprGet(
						      g->mctx, -1))),
			    mlirAffineConstantExprGet(g->mctx, shift));
			eq[n++] = is_eq;
		}
	return n;
}

int cg_check_ranges(struct gen *g, MlirAffineExpr *e, int n, const char *what)
{
	struct pearl_index_range r;
	int i;

	for (i = 0; i < n; ++i)
		if (cg_check_range(g, e[i], &r, what, g->depth) < 0)
			return -1;
	return 0;
}
