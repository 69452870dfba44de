/* SSA values of a region as isl functions: iterators, constants, affine
 * maps, parameters and buffer ids. */
#include <ctype.h>
#include <isl/val.h>
#include <mlir-c/BuiltinAttributes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "affine_to_isl.h"
#include "extractor.h"
#include "mlir_util.h"

/* Records the extraction's first failure, at `op`: an isl error pending
 * (the quota run out, or another) is reported as such, with `msg` saying
 * what failed. */
static void report(struct extractor *ex, MlirOperation op, const char *msg)
{
	ex->where = op;
	switch (isl_ctx_last_error(ex->isl)) {
	case isl_error_none:
		pearl_ctx_error(ex->ctx, "%s", msg);
		break;
	case isl_error_quota:
		pearl_ctx_isl_error(ex->ctx, "model extraction");
		break;
	default:
		pearl_ctx_isl_error(ex->ctx, msg);
	}
}

void ex_fail(struct extractor *ex, MlirOperation op, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	if (pearl_mlir_first_failure(&ex->failed, msg, sizeof(msg), fmt, ap))
		report(ex, op, msg);
	va_end(ap);
}

/* An isl-friendly name for an SSA value: "%arg0" -> "arg0", "%0" -> "v0". */
static char *value_name(struct extractor *ex, MlirValue v)
{
	char *text = pearl_mlir_value_str(v, ex->asm_state);
	char *name, *p;
	size_t i, n;

	if (!text)
		return NULL;
	n = strlen(text);
	name = malloc(n + 2);
	if (!name) {
		free(text);
		return NULL;
	}
	p = name;
	i = text[0] == '%' ? 1 : 0;
	if (i < n && !isalpha((unsigned char)text[i]))
		*p++ = 'v';
	for (; i < n; ++i)
		*p++ = isalnum((unsigned char)text[i]) ? text[i] : '_';
	*p = '\0';
	free(text);
	return name;
}

/* The isl id naming value `v` (a memref or a parameter) (__isl_keep). */
static isl_id *name_of(struct extractor *ex, MlirValue v)
{
	struct named_value *names;
	char *name;
	int i;

	for (i = 0; i < ex->n_names; ++i)
		if (mlirValueEqual(ex->names[i].value, v))
			return ex->names[i].id;
	names = realloc(ex->names, (ex->n_names + 1) * sizeof(*names));
	if (!names)
		return NULL;
	ex->names = names;
	name = value_name(ex, v);
	if (!name)
		return NULL;
	names[ex->n_names].value = v;
	/* The value rides along as the id's user pointer (code generation
	 * maps parameters back to values with it). */
	names[ex->n_names].id = isl_id_alloc(ex->isl, name, (void *)v.ptr);
	free(name);
	return names[ex->n_names++].id;
}

static const char *const view_ops[] = {
	"memref.subview", "memref.view", "memref.reinterpret_cast",
	"memref.cast", "memref.collapse_shape", "memref.expand_shape",
	"memref.transpose", "memref.memory_space_cast", NULL
};

/* The id of the buffer behind memref value `v` (__isl_keep). */
isl_id *ex_memref_id(struct extractor *ex, MlirValue v, MlirOperation user)
{
	if (mlirValueIsAOpResult(v)) {
		MlirOperation def = mlirOpResultGetOwner(v);
		int i;

		for (i = 0; view_ops[i]; ++i)
			if (pearl_mlir_op_is(def, view_ops[i])) {
				ex_fail(ex, user, "memref defined by %s may alias "
				     "another buffer", view_ops[i]);
				return NULL;
			}
	}
	return name_of(ex, v);
}

/* The results of the affine map attribute `attr_name` of `op`, applied to
 * `n` operands of `op` starting at `first`, as functions on `space`.
 * Returns the number of results (stored in *out, caller frees) or -1. */
int ex_map_results(struct extractor *ex, MlirOperation op,
		   const char *attr_name, int first,
		   __isl_keep isl_space *space, isl_pw_aff ***out)
{
	MlirAttribute attr = pearl_mlir_attr(op, attr_name);
	MlirAffineMap map;
	isl_pw_aff **inputs, **results;
	int i, n_in, n_out, ok = 1;

	*out = NULL;
	if (mlirAttributeIsNull(attr) || !mlirAttributeIsAAffineMap(attr)) {
		ex_fail(ex, op, "missing affine map '%s'", attr_name);
		return -1;
	}
	map = mlirAffineMapAttrGetValue(attr);
	n_in = (int)mlirAffineMapGetNumInputs(map);
	n_out = (int)mlirAffineMapGetNumResults(map);
	inputs = calloc(n_in + 1, sizeof(*inputs));
	results = calloc(n_out + 1, sizeof(*results));
	if (!inputs || !results) {
		free(inputs);
		free(results);
		ex_fail(ex, op, "out of memory");
		return -1;
	}
	for (i = 0; i < n_in && ok; ++i) {
		inputs[i] = ex_value_aff(ex, mlirOperationGetOperand(op, first + i),
				      space, op);
		ok = inputs[i] != NULL;
	}
	for (i = 0; i < n_out && ok; ++i) {
		results[i] = pearl_affine_expr_to_pw_aff(
		    mlirAffineMapGetResult(map, i), space, inputs,
		    (int)mlirAffineMapGetNumDims(map));
		ok = results[i] != NULL;
	}
	for (i = 0; i < n_in; ++i)
		isl_pw_aff_free(inputs[i]);
	free(inputs);
	if (!ok) {
		for (i = 0; i < n_out; ++i)
			isl_pw_aff_free(results[i]);
		free(results);
		ex_fail(ex, op, "affine map %s is not representable", attr_name);
		return -1;
	}
	*out = results;
	return n_out;
}

void ex_free_results(isl_pw_aff **res, int n)
{
	int i;

	for (i = 0; i < n; ++i)
		isl_pw_aff_free(res[i]);
	free(res);
}

/* min (is_min) or max of the results of the "map" of an affine.apply,
 * affine.min or affine.max operation. */
static __isl_give isl_pw_aff *fold_results(struct extractor *ex,
					   MlirOperation def,
					   __isl_keep isl_space *space,
					   int is_min)
{
	isl_pw_aff **res, *pa;
	int i, n = ex_map_results(ex, def, "map", 0, space, &res);

	if (n <= 0) {
		if (n == 0)
			ex_fail(ex, def, "affine map without results");
		ex_free_results(res, n < 0 ? 0 : n);
		return NULL;
	}
	pa = res[0];
	for (i = 1; i < n; ++i)
		pa = is_min ? isl_pw_aff_min(pa, res[i])
			    : isl_pw_aff_max(pa, res[i]);
	free(res);
	return pa;
}

/* `v` (an index used by `user`) as a function on the statement space
 * `space`: an enclosing loop's iterator, a constant, an affine.apply /
 * min / max of such values, or a parameter defined outside the region. */
__isl_give isl_pw_aff *ex_value_aff(struct extractor *ex, MlirValue v,
				    __isl_keep isl_space *space,
				    MlirOperation user)
{
	isl_size dims = isl_space_dim(space, isl_dim_set);
	MlirOperation def, anc;
	isl_id *id;
	int k;

	if (mlirValueIsABlockArgument(v)) {
		MlirOperation owner = mlirBlockGetParentOperation(
		    mlirBlockArgumentGetOwner(v));

		for (k = 0; k < dims && k < ex->depth; ++k)
			if (mlirOperationEqual(owner, ex->loops[k]))
				return isl_pw_aff_var_on_domain(
				    isl_local_space_from_space(
					isl_space_copy(space)),
				    isl_dim_set, k);
		def = owner;
	} else {
		def = mlirOpResultGetOwner(v);
		if (pearl_mlir_op_is(def, "arith.constant")) {
			MlirAttribute c = pearl_mlir_attr(def, "value");
			if (!mlirAttributeIsNull(c) && mlirAttributeIsAInteger(c))
				return isl_pw_aff_from_aff(isl_aff_val_on_domain(
				    isl_local_space_from_space(
					isl_space_copy(space)),
				    isl_val_int_from_si(
					ex->isl, mlirIntegerAttrGetValueInt(c))));
		}
		if (pearl_mlir_op_is(def, "affine.apply"))
			return fold_results(ex, def, space, 0);
		if (pearl_mlir_op_is(def, "affine.min"))
			return fold_results(ex, def, space, 1);
		if (pearl_mlir_op_is(def, "affine.max"))
			return fold_results(ex, def, space, 0);
	}
	anc = pearl_mlir_region_ancestor(ex->region, def);
	if (!mlirOperationIsNull(anc)) {
		char name[128];

		pearl_mlir_op_name(def, name, sizeof(name));
		ex_fail(ex, user, "index computed by %s inside the region is not "
		     "affine in the loop iterators", name);
		return NULL;
	}
	id = name_of(ex, v);
	if (!id) {
		ex_fail(ex, user, "out of memory");
		return NULL;
	}
	return isl_pw_aff_param_on_domain_id(isl_set_universe(
	    isl_space_copy(space)), isl_id_copy(id));
}
