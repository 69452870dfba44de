/* Alias scopes for the memref arguments of rewritten functions
 * (pearl/mlir_alias_scopes.h). */
#include <stdio.h>
#include <stdlib.h>

#include <mlir-c/BuiltinAttributes.h>

#include "mlir_util.h"
#include "pearl/grow.h"
#include "pearl/mlir_alias_scopes.h"

/* Steps followed back from an address before giving up. */
#define MAX_TRACE_STEPS 256

static MlirStringRef str(const char *s)
{
	return mlirStringRefCreateFromCString(s);
}

void pearl_mark_noalias_memref_args(MlirOperation func)
{
	mlirOperationSetDiscardableAttributeByName(
	    func, str(PEARL_NOALIAS_ATTR),
	    mlirUnitAttrGet(mlirOperationGetContext(func)));
}

/* The single index of the `position` of llvm.extractvalue/insertvalue
 * `op`, or -1 if it has several (a nested field) or none. */
static long single_position(MlirOperation op)
{
	MlirAttribute pos = mlirOperationGetInherentAttributeByName(
	    op, str("position"));

	if (mlirAttributeIsNull(pos) || !mlirAttributeIsADenseI64Array(pos) ||
	    mlirDenseArrayGetNumElements(pos) != 1)
		return -1;
	return (long)mlirDenseI64ArrayGetElement(pos, 0);
}

/* The operation defining `v`, or a null operation for a block argument. */
static MlirOperation defining_op(MlirValue v)
{
	if (mlirValueIsAOpResult(v))
		return mlirOpResultGetOwner(v);
	return (MlirOperation){NULL};
}

/* The value inserted at field `field` of the aggregate `v` by the chain of
 * llvm.insertvalue that builds it, or a null value. */
static MlirValue field_of(MlirValue v, long field, int *steps)
{
	while (++*steps < MAX_TRACE_STEPS) {
		MlirOperation op = defining_op(v);

		if (mlirOperationIsNull(op) ||
		    !pearl_mlir_op_is(op, "llvm.insertvalue") ||
		    mlirOperationGetNumOperands(op) != 2)
			break;
		if (single_position(op) == field)
			return mlirOperationGetOperand(op, 1);
		v = mlirOperationGetOperand(op, 0);
	}
	return (MlirValue){NULL};
}

/* The number of the argument of `entry` (a function's entry block) that
 * the address `v` points into as the aligned pointer of a memref
 * descriptor (field 1), through llvm.getelementptr and the descriptors'
 * llvm.extractvalue / llvm.insertvalue, or -1. A pointer argument used
 * directly (not through a descriptor) is not traced. */
static long traced_argument(MlirValue v, MlirBlock entry)
{
	int steps = 0, via_descriptor = 0;

	while (++steps < MAX_TRACE_STEPS) {
		MlirOperation op = defining_op(v);

		if (mlirOperationIsNull(op)) {
			if (!via_descriptor ||
			    !mlirBlockEqual(mlirBlockArgumentGetOwner(v), entry))
				return -1;
			return (long)mlirBlockArgumentGetArgNumber(v);
		}
		if (pearl_mlir_op_is(op, "llvm.getelementptr") &&
		    mlirOperationGetNumOperands(op) >= 1) {
			v = mlirOperationGetOperand(op, 0);
		} else if (pearl_mlir_op_is(op, "llvm.extractvalue") &&
			   mlirOperationGetNumOperands(op) == 1 &&
			   single_position(op) == 1) {
			v = field_of(mlirOperationGetOperand(op, 0), 1, &steps);
			if (mlirValueIsNull(v))
				return -1;
			via_descriptor = 1;
		} else {
			return -1;
		}
	}
	return -1;
}

/* The accesses of one function, with the argument each one is traced to. */
struct access {
	MlirOperation op;
	long arg;
};

struct func_walk {
	MlirBlock entry;
	struct access *access; /* owned */
	int n, cap;
	int failed; /* out of memory */
};

static MlirWalkResult collect_access(MlirOperation op, void *user)
{
	struct func_walk *w = user;
	MlirValue addr;
	long arg;

	if (pearl_mlir_op_is(op, "llvm.load") && mlirOperationGetNumOperands(op) == 1)
		addr = mlirOperationGetOperand(op, 0);
	else if (pearl_mlir_op_is(op, "llvm.store") &&
		 mlirOperationGetNumOperands(op) == 2)
		addr = mlirOperationGetOperand(op, 1);
	else
		return MlirWalkResultAdvance;
	arg = traced_argument(addr, w->entry);
	if (arg < 0)
		return MlirWalkResultAdvance;
	if (pearl_grow(&w->access, &w->cap, w->n + 1, sizeof(*w->access)) <
	    0) {
		w->failed = 1;
		return MlirWalkResultInterrupt;
	}
	w->access[w->n++] = (struct access){op, arg};
	return MlirWalkResultAdvance;
}

/* One alias scope per argument of `func` (kept) with `n_args` arguments,
 * in one domain of the function's own: an array attribute whose element
 * `i` is argument i's scope, or a null attribute if it cannot be built. */
static MlirAttribute argument_scopes(MlirOperation func, intptr_t n_args)
{
	static const char domain[] =
	    "#llvm.alias_scope_domain<id = distinct[0]<>, description = "
	    "\"" PEARL_NOALIAS_ATTR "\">";
	size_t size = 2 + (size_t)n_args * (sizeof(domain) + 128);
	MlirAttribute scopes;
	char *text = malloc(size);
	size_t len = 0;
	intptr_t i;

	if (!text)
		return (MlirAttribute){NULL};
	text[len++] = '[';
	for (i = 0; i < n_args; ++i)
		len += (size_t)snprintf(
		    text + len, size - len,
		    "%s#llvm.alias_scope<id = distinct[%ld]<>, domain = %s, "
		    "description = \"argument %ld\">",
		    i ? ", " : "", (long)i + 1, domain, (long)i);
	snprintf(text + len, size - len, "]");
	scopes = mlirAttributeParseGet(mlirOperationGetContext(func),
				       str(text));
	free(text);
	return scopes;
}

/* Sets the scopes of the accesses `w` collected in `func` (kept), if they
 * reach at least two arguments. Returns the number of accesses annotated,
 * or -1 if the scopes cannot be built. */
static long annotate_function(MlirOperation func, const struct func_walk *w)
{
	MlirContext ctx = mlirOperationGetContext(func);
	intptr_t n_args = mlirBlockGetNumArguments(w->entry);
	MlirAttribute scopes, *others;
	char *used;
	int k;
	long n_used = 0;
	intptr_t i;

	used = calloc((size_t)n_args + 1, 1);
	others = malloc(((size_t)n_args + 1) * sizeof(*others));
	if (!used || !others) {
		free(used);
		free(others);
		return -1;
	}
	for (k = 0; k < w->n; ++k)
		if (!used[w->access[k].arg]) {
			used[w->access[k].arg] = 1;
			n_used++;
		}
	if (n_used < 2) {
		free(used);
		free(others);
		return 0;
	}
	scopes = argument_scopes(func, n_args);
	if (mlirAttributeIsNull(scopes)) {
		free(used);
		free(others);
		return -1;
	}
	for (k = 0; k < w->n; ++k) {
		long arg = w->access[k].arg;
		MlirAttribute own = mlirArrayAttrGetElement(scopes, arg);
		intptr_t n_others = 0;

		for (i = 0; i < n_args; ++i)
			if (used[i] && i != arg)
				others[n_others++] =
				    mlirArrayAttrGetElement(scopes, i);
		mlirOperationSetInherentAttributeByName(
		    w->access[k].op, str("alias_scopes"),
		    mlirArrayAttrGet(ctx, 1, &own));
		mlirOperationSetInherentAttributeByName(
		    w->access[k].op, str("noalias_scopes"),
		    mlirArrayAttrGet(ctx, n_others, others));
	}
	free(used);
	free(others);
	return (long)w->n;
}

struct module_walk {
	long annotated;
	int failed;
};

static MlirWalkResult visit_function(MlirOperation op, void *user)
{
	struct module_walk *m = user;
	struct func_walk w = {{NULL}, NULL, 0, 0, 0};
	MlirRegion body;
	long n;

	if (!pearl_mlir_op_is(op, "llvm.func") ||
	    mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(
		op, str(PEARL_NOALIAS_ATTR))))
		return MlirWalkResultAdvance;
	body = mlirOperationGetFirstRegion(op);
	w.entry = mlirRegionIsNull(body) ? (MlirBlock){NULL}
					 : mlirRegionGetFirstBlock(body);
	if (mlirBlockIsNull(w.entry))
		return MlirWalkResultSkip;
	mlirOperationWalk(op, collect_access, &w, MlirWalkPreOrder);
	n = w.failed ? -1 : annotate_function(op, &w);
	free(w.access);
	if (n < 0)
		m->failed = 1;
	else
		m->annotated += n;
	return MlirWalkResultSkip;
}

long pearl_alias_scopes_apply(MlirOperation top)
{
	struct module_walk m = {0, 0};

	mlirOperationWalk(top, visit_function, &m, MlirWalkPreOrder);
	return m.failed ? -1 : m.annotated;
}
