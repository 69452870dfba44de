/* Finds the one-element buffers of a region that are private to a loop
 * (see privatize.h). */
#include <mlir-c/AffineMap.h>
#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdlib.h>
#include <string.h>

#include "mlir_util.h"
#include "privatize.h"
#include "pearl/grow.h"

#define MAX_NEST 64

/* The memref operand of affine.load / affine.store `op`, null otherwise. */
static MlirValue accessed_memref(MlirOperation op)
{
	if (pearl_mlir_op_is(op, "affine.load"))
		return mlirOperationGetOperand(op, 0);
	if (pearl_mlir_op_is(op, "affine.store"))
		return mlirOperationGetOperand(op, 1);
	return (MlirValue){ NULL };
}

/* 1 if `op` is an access to the memref *user points to. */
static int is_access_to(MlirOperation op, void *user)
{
	MlirValue m = accessed_memref(op);

	return !mlirValueIsNull(m) && mlirValueEqual(m, *(MlirValue *)user);
}

/* 1 if `op` or an operation nested in it accesses `memref`. */
static int accesses(MlirOperation op, MlirValue memref)
{
	return pearl_mlir_op_any(op, is_access_to, &memref);
}

/* 1 if `v` is the result of an operand-free memref.alloca of static shape
 * with one element. */
static int is_scalar_alloca(MlirValue v)
{
	MlirType type = mlirValueGetType(v);
	MlirOperation def;
	intptr_t d;

	if (!mlirValueIsAOpResult(v))
		return 0;
	def = mlirOpResultGetOwner(v);
	if (!pearl_mlir_op_is(def, "memref.alloca") ||
	    mlirOperationGetNumOperands(def) != 0 ||
	    !mlirTypeIsAMemRef(type) || !mlirShapedTypeHasStaticShape(type))
		return 0;
	for (d = 0; d < mlirShapedTypeGetRank(type); ++d)
		if (mlirShapedTypeGetDimSize(type, d) != 1)
			return 0;
	return 1;
}

/* The affine.for operations around `op` inside `region`, outermost first,
 * in loops[]; returns their number. */
static int loops_around(const pearl_mlir_region *region, MlirOperation op,
			MlirOperation *loops)
{
	MlirOperation inner[MAX_NEST];
	int n = 0, i;

	for (op = mlirOperationGetParentOperation(op);
	     !mlirOperationIsNull(op) &&
	     !mlirOperationIsNull(pearl_mlir_region_ancestor(region, op)) &&
	     n < MAX_NEST;
	     op = mlirOperationGetParentOperation(op))
		if (pearl_mlir_op_is(op, "affine.for"))
			inner[n++] = op;
	for (i = 0; i < n; ++i)
		loops[i] = inner[n - 1 - i];
	return n;
}

/* The innermost affine.for around every use of `memref`, each the memref of
 * an access inside `region`; null if a use is something else, lies outside
 * the region or no loop is around them all. */
static MlirOperation common_loop(const pearl_mlir_region *region,
				 MlirValue memref)
{
	MlirOperation common[MAX_NEST], around[MAX_NEST];
	MlirOpOperand use;
	int n_common = -1, n, i;

	for (use = mlirValueGetFirstUse(memref); !mlirOpOperandIsNull(use);
	     use = mlirOpOperandGetNextUse(use)) {
		MlirOperation user = mlirOpOperandGetOwner(use);
		MlirValue m = accessed_memref(user);

		if (mlirValueIsNull(m) || !mlirValueEqual(m, memref) ||
		    mlirOpOperandGetOperandNumber(use) !=
			(pearl_mlir_op_is(user, "affine.load") ? 0 : 1) ||
		    mlirOperationIsNull(pearl_mlir_region_ancestor(region, user)))
			return (MlirOperation){ NULL };
		n = loops_around(region, user, around);
		if (n_common < 0) {
			for (i = 0; i < n; ++i)
				common[i] = around[i];
			n_common = n;
		}
		for (i = 0; i < n_common && i < n; ++i)
			if (!mlirOperationEqual(common[i], around[i]))
				break;
		n_common = i;
	}
	return n_common > 0 ? common[n_common - 1] : (MlirOperation){ NULL };
}

/* The constant of the single-constant affine map attribute `name` of
 * `op` in *value; 0 if it is not one. */
static int constant_bound(MlirOperation op, const char *name, int64_t *value)
{
	MlirAttribute attr = pearl_mlir_attr(op, name);
	MlirAffineMap map;

	if (mlirAttributeIsNull(attr) || !mlirAttributeIsAAffineMap(attr))
		return 0;
	map = mlirAffineMapAttrGetValue(attr);
	if (mlirAffineMapGetNumInputs(map) != 0 ||
	    !mlirAffineMapIsSingleConstant(map))
		return 0;
	*value = mlirAffineMapGetSingleConstantResult(map);
	return 1;
}

/* 1 if each iteration of `loop` writes `memref` before it reads it: the
 * first operation of its body that accesses the buffer is a store to it. */
static int written_first(MlirOperation loop, MlirValue memref)
{
	MlirBlock body = pearl_mlir_body(loop, 0);
	MlirOperation op;

	for (op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
	     op = mlirOperationGetNextInBlock(op))
		if (accesses(op, memref))
			return pearl_mlir_op_is(op, "affine.store");
	return 0;
}

/* Fills *p if `memref` is private to a loop of `region`; returns 1 then. */
static int private_to_loop(const pearl_mlir_region *region, MlirValue memref,
			   struct pearl_mlir_private *p)
{
	MlirAttribute step;
	int64_t lb, ub;

	if (!is_scalar_alloca(memref))
		return 0;
	p->memref = memref;
	p->loop = common_loop(region, memref);
	if (mlirOperationIsNull(p->loop))
		return 0;
	step = pearl_mlir_attr(p->loop, "step");
	if (mlirAttributeIsNull(step) || !mlirAttributeIsAInteger(step) ||
	    mlirIntegerAttrGetValueInt(step) != 1 ||
	    !constant_bound(p->loop, "lowerBoundMap", &lb) ||
	    !constant_bound(p->loop, "upperBoundMap", &ub) || ub <= lb ||
	    ub - lb > PEARL_PRIVATE_MAX_TRIP)
		return 0;
	p->lb = lb;
	p->trip = ub - lb;
	return written_first(p->loop, memref);
}

int pearl_mlir_private_index(const struct pearl_mlir_private *privates,
			     int n, MlirValue memref)
{
	int i;

	for (i = 0; i < n; ++i)
		if (mlirValueEqual(privates[i].memref, memref))
			return i;
	return -1;
}

struct search {
	const pearl_mlir_region *region;
	struct pearl_mlir_private *found;
	int n, cap;
	MlirValue *seen; /* buffers already judged */
	int n_seen, cap_seen;
	int failed;
};

/* Appends the `size` bytes of `elem` to *array (*n elements of room for
 * *cap), growing it; 0, or -1 if memory is exhausted. */
static int push(void **array, int *n, int *cap, size_t size, const void *elem)
{
	if (pearl_grow(array, cap, *n + 1, size) < 0)
		return -1;
	memcpy((char *)*array + *n * size, elem, size);
	(*n)++;
	return 0;
}

/* Judges the buffer accessed by `op` (if any, and not judged before). */
static void judge(struct search *s, MlirOperation op)
{
	MlirValue m = accessed_memref(op);
	struct pearl_mlir_private p;
	int i;

	if (mlirValueIsNull(m))
		return;
	for (i = 0; i < s->n_seen; ++i)
		if (mlirValueEqual(s->seen[i], m))
			return;
	if (push((void **)&s->seen, &s->n_seen, &s->cap_seen, sizeof(m),
		 &m) < 0 ||
	    (private_to_loop(s->region, m, &p) &&
	     push((void **)&s->found, &s->n, &s->cap, sizeof(p), &p) < 0))
		s->failed = 1;
}

/* Judges `op` for the search *user (pearl_mlir_op_any's predicate: a
 * failure stops the walk). */
static int judge_op(MlirOperation op, void *user)
{
	struct search *s = user;

	judge(s, op);
	return s->failed;
}

int pearl_mlir_find_privates(const pearl_mlir_region *region,
			     struct pearl_mlir_private **out)
{
	struct search s = { region, NULL, 0, 0, NULL, 0, 0, 0 };
	MlirOperation op;

	for (op = region->first; !mlirOperationIsNull(op) && !s.failed;
	     op = mlirOperationGetNextInBlock(op)) {
		pearl_mlir_op_any(op, judge_op, &s);
		if (mlirOperationEqual(op, region->last))
			break;
	}
	free(s.seen);
	if (s.failed) {
		free(s.found);
		*out = NULL;
		return -1;
	}
	*out = s.found;
	return s.n;
}
