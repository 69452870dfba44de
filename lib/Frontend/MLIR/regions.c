/* Finding the regions of a function that Pearl can model. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

#include "mlir_util.h"
#include "pearl/grow.h"
#include "pearl/mlir_frontend.h"

/* Operations that may appear inside a modeled nest besides loops and ifs. */
static int is_modeled_value_op(MlirOperation op)
{
	return pearl_mlir_op_is(op, "affine.load") ||
	       pearl_mlir_op_is(op, "affine.store") ||
	       pearl_mlir_op_is(op, "affine.apply") ||
	       pearl_mlir_op_is(op, "affine.min") ||
	       pearl_mlir_op_is(op, "affine.max") ||
	       pearl_mlir_op_in_dialect(op, "arith.") ||
	       pearl_mlir_op_in_dialect(op, "math.");
}

/* Operations that may sit between two nests of one region: statements,
 * loads and value computations. An index computation breaks the region, so
 * that a loop bound defined between two nests becomes a parameter of the
 * second region. */
static int is_region_filler(MlirOperation op)
{
	intptr_t i;

	if (!is_modeled_value_op(op) || pearl_mlir_op_is(op, "affine.apply") ||
	    pearl_mlir_op_is(op, "affine.min") ||
	    pearl_mlir_op_is(op, "affine.max"))
		return 0;
	if (pearl_mlir_op_is(op, "arith.constant"))
		return 1;
	for (i = 0; i < mlirOperationGetNumResults(op); ++i)
		if (mlirTypeIsAIndex(mlirValueGetType(
			mlirOperationGetResult(op, i))))
			return 0;
	return 1;
}

/* Why `op` (inside a nest) cannot be modeled, written to buf; *bad is set to
 * the operation responsible. Returns 0 if the whole subtree is supported. */
static int check_op(MlirOperation op, char *buf, size_t size,
		    MlirOperation *bad);

static int check_block(MlirBlock block, char *buf, size_t size,
		       MlirOperation *bad)
{
	MlirOperation op;

	for (op = mlirBlockGetFirstOperation(block); !mlirOperationIsNull(op);
	     op = mlirOperationGetNextInBlock(op))
		if (check_op(op, buf, size, bad))
			return 1;
	return 0;
}

static int check_op(MlirOperation op, char *buf, size_t size,
		    MlirOperation *bad)
{
	char name[128];
	intptr_t r;

	*bad = op;
	pearl_mlir_op_name(op, name, sizeof(name));
	if (pearl_mlir_op_is(op, "affine.for") ||
	    pearl_mlir_op_is(op, "affine.if")) {
		if (mlirOperationGetNumResults(op) > 0) {
			snprintf(buf, size, "%s carries values across "
				 "iterations (iter_args or results)", name);
			return 1;
		}
		for (r = 0; r < mlirOperationGetNumRegions(op); ++r) {
			MlirBlock b = pearl_mlir_body(op, (int)r);
			if (!mlirBlockIsNull(b) && check_block(b, buf, size, bad))
				return 1;
		}
		return 0;
	}
	if (pearl_mlir_op_is(op, "affine.yield"))
		return 0;
	if (is_modeled_value_op(op))
		return 0;
	if (pearl_mlir_op_is(op, "memref.load") ||
	    pearl_mlir_op_is(op, "memref.store"))
		snprintf(buf, size, "non-affine access (%s)", name);
	else if (pearl_mlir_op_is(op, "func.call")) {
		MlirAttribute callee = pearl_mlir_attr(op, "callee");
		char callee_name[128] = "?";

		if (!mlirAttributeIsNull(callee)) {
			MlirStringRef s = mlirSymbolRefAttrGetRootReference(callee);
			size_t n = s.length < sizeof(callee_name) - 1
				       ? s.length : sizeof(callee_name) - 1;
			memcpy(callee_name, s.data, n);
			callee_name[n] = '\0';
		}
		snprintf(buf, size, "call to @%s", callee_name);
	} else if (pearl_mlir_op_in_dialect(op, "func."))
		snprintf(buf, size, "call (%s)", name);
	else if (pearl_mlir_op_in_dialect(op, "scf.") ||
		 pearl_mlir_op_in_dialect(op, "cf."))
		snprintf(buf, size, "non-affine control flow (%s)", name);
	else if (pearl_mlir_op_is(op, "affine.vector_load") ||
		 pearl_mlir_op_is(op, "affine.vector_store"))
		snprintf(buf, size, "vector accesses (%s) are not modeled", name);
	else if (pearl_mlir_op_is(op, "affine.parallel"))
		snprintf(buf, size, "affine.parallel loops are not modeled");
	else
		snprintf(buf, size, "operation '%s' with unknown memory effects",
			 name);
	return 1;
}

struct finder {
	pearl_mlir_region *regions;
	int n, cap;
	int failed;
	pearl_mlir_skip_fn skip;
	void *user;
};

static void add_region(struct finder *f, MlirOperation first,
		       MlirOperation last)
{
	if (pearl_grow(&f->regions, &f->cap, f->n + 1,
		       sizeof(*f->regions)) < 0) {
		f->failed = 1;
		return;
	}
	f->regions[f->n].first = first;
	f->regions[f->n].last = last;
	f->n++;
}

static void scan_op_regions(struct finder *f, MlirOperation op);

/* Finds runs of supported nests in `block`; recurses into other ops. */
static void scan_block(struct finder *f, MlirBlock block)
{
	MlirOperation op, first = { NULL }, last = { NULL };
	char reason[256];

	for (op = mlirBlockGetFirstOperation(block); !mlirOperationIsNull(op);
	     op = mlirOperationGetNextInBlock(op)) {
		MlirOperation bad;

		if (pearl_mlir_op_is(op, "affine.for") ||
		    pearl_mlir_op_is(op, "affine.if")) {
			if (!check_op(op, reason, sizeof(reason), &bad)) {
				if (mlirOperationIsNull(first))
					first = op;
				last = op;
				continue;
			}
			if (f->skip)
				f->skip(mlirOperationGetLocation(bad), reason,
					f->user);
		} else if (!mlirOperationIsNull(first) &&
			   is_region_filler(op)) {
			continue; /* may sit between two nests */
		} else {
			scan_op_regions(f, op);
		}
		if (!mlirOperationIsNull(first))
			add_region(f, first, last);
		first.ptr = last.ptr = NULL;
	}
	if (!mlirOperationIsNull(first))
		add_region(f, first, last);
}

static void scan_op_regions(struct finder *f, MlirOperation op)
{
	intptr_t r;

	for (r = 0; r < mlirOperationGetNumRegions(op); ++r) {
		MlirBlock b;

		for (b = pearl_mlir_body(op, (int)r); !mlirBlockIsNull(b);
		     b = mlirBlockGetNextInRegion(b))
			scan_block(f, b);
	}
}

int pearl_mlir_find_regions(MlirOperation func, pearl_mlir_region **regions,
			    pearl_mlir_skip_fn skip, void *user)
{
	struct finder f = { NULL, 0, 0, 0, skip, user };

	scan_op_regions(&f, func);
	if (f.failed) {
		free(f.regions);
		*regions = NULL;
		return -1;
	}
	*regions = f.regions;
	return f.n;
}
