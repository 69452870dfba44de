/* Affine expressions, maps and integer sets of MLIR as isl objects. */
#ifndef PEARL_AFFINE_TO_ISL_H
#define PEARL_AFFINE_TO_ISL_H

#include <isl/ctx.h>
#include <isl/aff.h>
#include <mlir-c/AffineExpr.h>
#include <mlir-c/IntegerSet.h>

/* `expr` as a function on the set space `domain` (kept), with its dims and
 * symbols bound to `inputs` (kept; dims first, then symbols, all functions
 * on `domain`). NULL for a semi-affine expression or an isl error. */
__isl_give isl_pw_aff *pearl_affine_expr_to_pw_aff(MlirAffineExpr expr,
						   __isl_keep isl_space *domain,
						   isl_pw_aff **inputs, int n_dims);

/* The points of `domain` (kept) where `set` holds, inputs as above. */
__isl_give isl_set *pearl_integer_set_to_set(MlirIntegerSet set,
					     __isl_keep isl_space *domain,
					     isl_pw_aff **inputs);

#endif
