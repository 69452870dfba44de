/* Structured linalg ops as affine regions (see pearl/mlir_linalg.h):
 * which ops are taken, their expansion in place, and putting back the ops
 * whose region was not rewritten. */
#include <mlir-c/AffineMap.h>
#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "mlir_util.h"
#include "pearl/grow.h"
#include "pearl/mlir_linalg.h"

struct expanded {
	MlirOperation op;    /* the original, detached (owned) */
	MlirOperation first; /* its expansion: first..last of the block */
	MlirOperation last;
	int region;          /* of the regions holding its nest, or -1 */
};

struct pearl_mlir_linalg {
	struct expanded *ops;
	int n, cap;
};

struct collect {
	MlirOperation *ops;
	int n, cap, failed;
};

static MlirWalkResult collect_op(MlirOperation op, void *user)
{
	struct collect *c = user;
	int n_in, n_out;

	if (!pearl_mlir_op_in_dialect(op, "linalg."))
		return MlirWalkResultAdvance;
	if (mlirAttributeIsNull(pearl_mlir_linalg_maps(op, &n_in, &n_out)))
		return MlirWalkResultAdvance;
	if (pearl_grow(&c->ops, &c->cap, c->n + 1, sizeof(*c->ops)) < 0) {
		c->failed = 1;
		return MlirWalkResultInterrupt;
	}
	c->ops[c->n++] = op;
	return MlirWalkResultSkip; /* nothing to take in its payload */
}

/* 1 if `t` is a tensor type. */
static int is_tensor(MlirType t)
{
	return mlirTypeIsARankedTensor(t) || mlirTypeIsAUnrankedTensor(t);
}

/* Why structured op `op` cannot be expanded and modeled, in buf; 0 if it
 * can. Indexing maps of verified linalg ops have no symbols and are
 * affine (MLIR rejects semi-affine maps without symbols), so every input
 * map, sums and constants included (conv's d1 + d4), is something the core
 * takes. */
static int why_not(MlirOperation op, char *buf, size_t size)
{
	char name[64];
	MlirAttribute maps;
	intptr_t i;
	int n_in, n_out, k;

	pearl_mlir_op_name(op, name, sizeof(name));
	maps = pearl_mlir_linalg_maps(op, &n_in, &n_out);
	if (mlirOperationGetNumResults(op) > 0)
		goto tensor;
	for (i = 0; i < mlirOperationGetNumOperands(op); ++i) {
		MlirType t = mlirValueGetType(mlirOperationGetOperand(op, i));

		if (is_tensor(t))
			goto tensor;
		if (mlirTypeIsAUnrankedMemRef(t) ||
		    (mlirTypeIsAMemRef(t) && !mlirShapedTypeHasStaticShape(t))) {
			snprintf(buf, size, "%s has dynamic shapes (only static "
				 "shapes are modeled)", name);
			return 1;
		}
	}
	if (!mlirAttributeIsAArray(maps) ||
	    mlirArrayAttrGetNumElements(maps) != n_in + n_out) {
		snprintf(buf, size, "%s: indexing maps not found", name);
		return 1;
	}
	for (k = 0; k < n_out; ++k) {
		MlirAttribute a = mlirArrayAttrGetElement(maps, n_in + k);
		MlirAffineMap m = mlirAffineMapAttrGetValue(a);

		if (!mlirAffineMapIsProjectedPermutation(m)) {
			snprintf(buf, size, "%s: the indexing map of output %d is "
				 "not a projected permutation", name, k);
			return 1;
		}
		if (mlirAffineMapGetNumDims(m) == 0) {
			snprintf(buf, size, "%s has no loops", name);
			return 1;
		}
	}
	return 0;
tensor:
	snprintf(buf, size, "%s has tensor semantics (not bufferized)", name);
	return 1;
}

static int add(pearl_mlir_linalg *lin, struct expanded e)
{
	if (pearl_grow(&lin->ops, &lin->cap, lin->n + 1, sizeof(*lin->ops)) < 0)
		return -1;
	lin->ops[lin->n++] = e;
	return 0;
}

/* Erases first..last (operations of one block), last first: later
 * operations may use earlier ones' results, never the reverse. */
static void erase_range(MlirOperation first, MlirOperation last)
{
	MlirOperation *ops = NULL, op;
	int n = 0, cap = 0, i;

	for (op = first;; op = mlirOperationGetNextInBlock(op)) {
		if (pearl_grow(&ops, &cap, n + 1, sizeof(*ops)) < 0) {
			free(ops);
			return; /* leaks the expansion; IR stays valid */
		}
		ops[n++] = op;
		if (mlirOperationEqual(op, last))
			break;
	}
	for (i = n - 1; i >= 0; --i)
		mlirOperationDestroy(ops[i]);
	free(ops);
}

/* Puts `e`'s op back before its expansion and erases the expansion. */
static void restore(struct expanded *e)
{
	mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(e->first),
					    e->first, e->op);
	erase_range(e->first, e->last);
}

pearl_mlir_linalg *pearl_mlir_linalg_expand(MlirOperation func,
					    pearl_mlir_skip_fn skip,
					    void *user)
{
	pearl_mlir_linalg *lin = calloc(1, sizeof(*lin));
	struct collect c = { NULL, 0, 0, 0 };
	char reason[256];
	int i;

	if (!lin)
		return NULL;
	mlirOperationWalk(func, collect_op, &c, MlirWalkPreOrder);
	if (c.failed) {
		free(c.ops);
		free(lin);
		return NULL;
	}
	for (i = 0; i < c.n; ++i) {
		struct expanded e = { c.ops[i], { NULL }, { NULL }, -1 };
		int n;

		if (why_not(e.op, reason, sizeof(reason))) {
			if (skip)
				skip(mlirOperationGetLocation(e.op), reason, user);
			continue;
		}
		n = pearl_mlir_linalg_lower(e.op, &e.first, &e.last);
		if (n <= 0) {
			char name[64];

			pearl_mlir_op_name(e.op, name, sizeof(name));
			snprintf(reason, sizeof(reason), "%s: expansion into "
				 "affine loops failed", name);
			if (skip)
				skip(mlirOperationGetLocation(e.op), reason, user);
			continue;
		}
		if (add(lin, e) < 0) {
			/* Out of memory: undo this one, keep the others. */
			erase_range(e.first, e.last);
			pearl_mlir_linalg_settle(lin, NULL);
			free(c.ops);
			return NULL;
		}
		mlirOperationRemoveFromParent(e.op);
	}
	free(c.ops);
	return lin;
}

int pearl_mlir_linalg_n_ops(pearl_mlir_linalg *lin)
{
	return lin ? lin->n : 0;
}

/* 1 if `op` is one of region's top-level operations. */
static int in_region(const pearl_mlir_region *region, MlirOperation op)
{
	MlirOperation it;

	if (!mlirBlockEqual(mlirOperationGetBlock(region->first),
			    mlirOperationGetBlock(op)))
		return 0;
	for (it = region->first; !mlirOperationIsNull(it);
	     it = mlirOperationGetNextInBlock(it)) {
		if (mlirOperationEqual(it, op))
			return 1;
		if (mlirOperationEqual(it, region->last))
			break;
	}
	return 0;
}

void pearl_mlir_linalg_assign(pearl_mlir_linalg *lin,
			      const pearl_mlir_region *regions, int n)
{
	int i, r;

	for (i = 0; lin && i < lin->n; ++i) {
		struct expanded *e = &lin->ops[i];
		MlirOperation nest;

		/* The nest: the expansion's first loop (index constants may
		 * come before it, outside every region). */
		for (nest = e->first; !pearl_mlir_op_is(nest, "affine.for") &&
				      !mlirOperationEqual(nest, e->last);
		     nest = mlirOperationGetNextInBlock(nest))
			;
		e->region = -1;
		for (r = 0; r < n && e->region < 0; ++r)
			if (in_region(&regions[r], nest))
				e->region = r;
	}
}

void pearl_mlir_linalg_settle(pearl_mlir_linalg *lin, const int *rewritten)
{
	int i;

	if (!lin)
		return;
	for (i = 0; i < lin->n; ++i) {
		struct expanded *e = &lin->ops[i];

		if (rewritten && e->region >= 0 && rewritten[e->region])
			mlirOperationDestroy(e->op);
		else
			restore(e);
	}
	free(lin->ops);
	free(lin);
}
