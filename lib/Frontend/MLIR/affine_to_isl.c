#include "affine_to_isl.h"

#include <isl/local_space.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>

static __isl_give isl_pw_aff *binary(MlirAffineExpr expr,
				     __isl_keep isl_space *domain,
				     isl_pw_aff **inputs, int n_dims)
{
	MlirAffineExpr l = mlirAffineBinaryOpExprGetLHS(expr);
	MlirAffineExpr r = mlirAffineBinaryOpExprGetRHS(expr);
	isl_pw_aff *lhs, *rhs;
	isl_ctx *ctx;
	isl_val *c;

	lhs = pearl_affine_expr_to_pw_aff(l, domain, inputs, n_dims);
	if (mlirAffineExprIsAAdd(expr))
		return isl_pw_aff_add(lhs, pearl_affine_expr_to_pw_aff(
					       r, domain, inputs, n_dims));
	if (mlirAffineExprIsAMul(expr)) {
		rhs = pearl_affine_expr_to_pw_aff(r, domain, inputs, n_dims);
		if (!mlirAffineExprIsAConstant(r) &&
		    !mlirAffineExprIsAConstant(l)) {
			/* Semi-affine d0 * d1: not in the polyhedral model. */
			isl_pw_aff_free(lhs);
			isl_pw_aff_free(rhs);
			return NULL;
		}
		return isl_pw_aff_mul(lhs, rhs);
	}
	/* mod, floordiv and ceildiv by a positive constant. */
	if (!lhs || !mlirAffineExprIsAConstant(r) ||
	    mlirAffineConstantExprGetValue(r) <= 0)
		return isl_pw_aff_free(lhs);
	ctx = isl_pw_aff_get_ctx(lhs);
	c = isl_val_int_from_si(ctx, mlirAffineConstantExprGetValue(r));
	if (mlirAffineExprIsAMod(expr))
		return isl_pw_aff_mod_val(lhs, c);
	lhs = isl_pw_aff_scale_down_val(lhs, c);
	if (mlirAffineExprIsAFloorDiv(expr))
		return isl_pw_aff_floor(lhs);
	if (mlirAffineExprIsACeilDiv(expr))
		return isl_pw_aff_ceil(lhs);
	return isl_pw_aff_free(lhs);
}

__isl_give isl_pw_aff *pearl_affine_expr_to_pw_aff(MlirAffineExpr expr,
						   __isl_keep isl_space *domain,
						   isl_pw_aff **inputs, int n_dims)
{
	if (mlirAffineExprIsADim(expr))
		return isl_pw_aff_copy(
		    inputs[mlirAffineDimExprGetPosition(expr)]);
	if (mlirAffineExprIsASymbol(expr))
		return isl_pw_aff_copy(
		    inputs[n_dims + mlirAffineSymbolExprGetPosition(expr)]);
	if (mlirAffineExprIsAConstant(expr)) {
		isl_val *v = isl_val_int_from_si(isl_space_get_ctx(domain),
			mlirAffineConstantExprGetValue(expr));
		return isl_pw_aff_from_aff(isl_aff_val_on_domain(
		    isl_local_space_from_space(isl_space_copy(domain)), v));
	}
	if (mlirAffineExprIsABinary(expr))
		return binary(expr, domain, inputs, n_dims);
	return NULL;
}

__isl_give isl_set *pearl_integer_set_to_set(MlirIntegerSet set,
					     __isl_keep isl_space *domain,
					     isl_pw_aff **inputs)
{
	intptr_t i, n = mlirIntegerSetGetNumConstraints(set);
	int n_dims = (int)mlirIntegerSetGetNumDims(set);
	isl_set *res = isl_set_universe(isl_space_copy(domain));

	for (i = 0; i < n; ++i) {
		MlirAffineExpr e = mlirIntegerSetGetConstraint(set, i);
		isl_pw_aff *pa = pearl_affine_expr_to_pw_aff(e, domain, inputs,
							 n_dims);

		if (!pa)
			return isl_set_free(res);
		res = isl_set_intersect(res, mlirIntegerSetIsConstraintEq(set, i)
						 ? isl_pw_aff_zero_set(pa)
						 : isl_pw_aff_nonneg_set(pa));
	}
	return res;
}
