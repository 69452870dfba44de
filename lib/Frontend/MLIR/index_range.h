/* The values an affine expression takes in 64-bit index arithmetic, for
 * the MLIR code generator's check that what it emits cannot overflow. */
#ifndef PEARL_MLIR_INDEX_RANGE_H
#define PEARL_MLIR_INDEX_RANGE_H

#include <mlir-c/AffineExpr.h>
#include <stdint.h>

/* A range [lo, hi] of index values. */
struct pearl_index_range {
	int64_t lo, hi;
};

/* The range assumed of a symbol (a value defined outside the region, an
 * isl parameter): [-2^40, 2^40]. Generated code is only known not to
 * overflow for symbols in this range; they are sizes, far below it. */
#define PEARL_INDEX_SYMBOL_BOUND ((int64_t)1 << 40)

/* The range of `expr` with its dimensions in dims[0..n_dims) and its
 * symbols in PEARL_INDEX_SYMBOL_BOUND, into *range. Returns 0 if every
 * subexpression, as MLIR's lowering of affine maps computes it, stays
 * within int64 (so no multiplication, addition or negation overflows);
 * -1 if one could leave it, or the expression is not affine. */
int pearl_index_range_of(MlirAffineExpr expr,
			 const struct pearl_index_range *dims, int n_dims,
			 struct pearl_index_range *range);

#endif
