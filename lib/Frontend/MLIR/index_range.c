/* The values an affine expression takes in 64-bit index arithmetic (see
 * index_range.h). Each subexpression gets an interval; one whose interval
 * does not fit in int64 (or whose lowering would negate INT64_MIN) is an
 * overflow. */
#include "index_range.h"

static int64_t floor_div(int64_t a, int64_t c)
{
	int64_t q = a / c;

	return (a % c != 0 && a < 0) ? q - 1 : q;
}

static int64_t ceil_div(int64_t a, int64_t c)
{
	int64_t q = a / c;

	return (a % c != 0 && a > 0) ? q + 1 : q;
}

/* The interval of a + b into *r; -1 if it leaves int64. */
static int range_add(struct pearl_index_range a, struct pearl_index_range b,
		     struct pearl_index_range *r)
{
	if (__builtin_add_overflow(a.lo, b.lo, &r->lo) ||
	    __builtin_add_overflow(a.hi, b.hi, &r->hi))
		return -1;
	return 0;
}

/* The interval of c * a into *r; -1 if it leaves int64. */
static int range_scale(struct pearl_index_range a, int64_t c,
		       struct pearl_index_range *r)
{
	int64_t x, y;

	if (__builtin_mul_overflow(a.lo, c, &x) ||
	    __builtin_mul_overflow(a.hi, c, &y))
		return -1;
	r->lo = x < y ? x : y;
	r->hi = x < y ? y : x;
	return 0;
}

/* a mod c (c > 0), in [0, c). */
static int64_t floor_mod(int64_t a, int64_t c)
{
	int64_t r = a % c;

	return r < 0 ? r + c : r;
}

/* The interval of a mod c (c > 0) into *r. */
static void range_mod(struct pearl_index_range a, int64_t c,
		      struct pearl_index_range *r)
{
	if (floor_div(a.lo, c) == floor_div(a.hi, c)) {
		r->lo = floor_mod(a.lo, c);
		r->hi = floor_mod(a.hi, c);
	} else {
		r->lo = 0;
		r->hi = c - 1;
	}
}

/* The interval of lhs op c for a division or remainder by the positive
 * constant c, lhs in `a`, into *r; -1 if the lowering could overflow. */
static int range_div(MlirAffineExpr expr, struct pearl_index_range a,
		     int64_t c, struct pearl_index_range *r)
{
	if (mlirAffineExprIsAFloorDiv(expr)) {
		r->lo = floor_div(a.lo, c);
		r->hi = floor_div(a.hi, c);
	} else if (mlirAffineExprIsACeilDiv(expr)) {
		/* lowered with -a for a <= 0 */
		if (a.lo == INT64_MIN)
			return -1;
		r->lo = ceil_div(a.lo, c);
		r->hi = ceil_div(a.hi, c);
	} else {
		range_mod(a, c, r);
	}
	return 0;
}

/* The interval of binary expression `expr` into *r. */
static int range_binary(MlirAffineExpr expr,
			const struct pearl_index_range *dims, int n_dims,
			struct pearl_index_range *r)
{
	MlirAffineExpr lhs = mlirAffineBinaryOpExprGetLHS(expr);
	MlirAffineExpr rhs = mlirAffineBinaryOpExprGetRHS(expr);
	struct pearl_index_range a, b;
	int64_t c;

	if (pearl_index_range_of(lhs, dims, n_dims, &a) < 0 ||
	    pearl_index_range_of(rhs, dims, n_dims, &b) < 0)
		return -1;
	if (mlirAffineExprIsAAdd(expr))
		return range_add(a, b, r);
	if (mlirAffineExprIsAMul(expr)) {
		if (mlirAffineExprIsAConstant(rhs))
			return range_scale(a, b.lo, r);
		if (mlirAffineExprIsAConstant(lhs))
			return range_scale(b, a.lo, r);
		return -1;
	}
	if (!mlirAffineExprIsAConstant(rhs))
		return -1;
	c = b.lo;
	if (c <= 0)
		return -1;
	return range_div(expr, a, c, r);
}

int pearl_index_range_of(MlirAffineExpr expr,
			 const struct pearl_index_range *dims, int n_dims,
			 struct pearl_index_range *range)
{
	intptr_t pos;

	if (mlirAffineExprIsAConstant(expr)) {
		range->lo = range->hi = mlirAffineConstantExprGetValue(expr);
		return 0;
	}
	if (mlirAffineExprIsADim(expr)) {
		pos = mlirAffineDimExprGetPosition(expr);
		if (pos < 0 || pos >= n_dims)
			return -1;
		*range = dims[pos];
		return 0;
	}
	if (mlirAffineExprIsASymbol(expr)) {
		range->lo = -PEARL_INDEX_SYMBOL_BOUND;
		range->hi = PEARL_INDEX_SYMBOL_BOUND;
		return 0;
	}
	if (mlirAffineExprIsABinary(expr))
		return range_binary(expr, dims, n_dims, range);
	return -1;
}
