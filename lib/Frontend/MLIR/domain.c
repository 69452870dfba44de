/* Iteration domains and access relations of statements. */
#include <isl/local_space.h>
#include <isl/val.h>
#include <mlir-c/BuiltinAttributes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "affine_to_isl.h"
#include "extractor.h"
#include "mlir_util.h"

/* The set space of a statement `name` at the current loop depth. */
__isl_give isl_space *ex_stmt_space(struct extractor *ex, const char *name)
{
	isl_space *space = isl_space_set_alloc(ex->isl, 0, ex->depth);
	char dim[16];
	int k;

	space = isl_space_set_tuple_name(space, isl_dim_set, name);
	for (k = 0; k < ex->depth; ++k) {
		snprintf(dim, sizeof(dim), "i%d", k);
		space = isl_space_set_dim_name(space, isl_dim_set, k, dim);
	}
	return space;
}

/* Constraints of enclosing loop k on the points of `space`. */
static __isl_give isl_set *loop_constraints(struct extractor *ex, int k,
					    __isl_keep isl_space *space)
{
	MlirOperation loop = ex->loops[k];
	MlirAttribute lb_attr = pearl_mlir_attr(loop, "lowerBoundMap");
	MlirAttribute step_attr = pearl_mlir_attr(loop, "step");
	isl_pw_aff **lb, **ub, *iv, *lb_max = NULL;
	isl_set *set = isl_set_universe(isl_space_copy(space));
	int i, n_lb, n_ub, first_ub;
	int64_t step;

	if (mlirAttributeIsNull(lb_attr) || mlirAttributeIsNull(step_attr) ||
	    !mlirAttributeIsAInteger(step_attr)) {
		ex_fail(ex, loop, "affine.for without bounds or step");
		return isl_set_free(set);
	}
	first_ub = (int)mlirAffineMapGetNumInputs(
	    mlirAffineMapAttrGetValue(lb_attr));
	n_lb = ex_map_results(ex, loop, "lowerBoundMap", 0, space, &lb);
	n_ub = n_lb < 0 ? -1
			: ex_map_results(ex, loop, "upperBoundMap", first_ub,
				      space, &ub);
	if (n_lb <= 0 || n_ub <= 0) {
		if (n_lb >= 0)
			ex_free_results(lb, n_lb);
		if (n_ub >= 0 && n_lb >= 0)
			ex_free_results(ub, n_ub);
		ex_fail(ex, loop, "affine.for without bounds");
		return isl_set_free(set);
	}
	iv = isl_pw_aff_var_on_domain(
	    isl_local_space_from_space(isl_space_copy(space)), isl_dim_set, k);
	for (i = 0; i < n_lb; ++i) {
		set = isl_set_intersect(set, isl_pw_aff_ge_set(
		    isl_pw_aff_copy(iv), isl_pw_aff_copy(lb[i])));
		lb_max = lb_max ? isl_pw_aff_max(lb_max, lb[i]) : lb[i];
	}
	free(lb);
	for (i = 0; i < n_ub; ++i)
		set = isl_set_intersect(set, isl_pw_aff_lt_set(
		    isl_pw_aff_copy(iv), ub[i]));
	free(ub);
	step = mlirIntegerAttrGetValueInt(step_attr);
	if (step > 1) {
		isl_pw_aff *off = isl_pw_aff_sub(isl_pw_aff_copy(iv), lb_max);
		off = isl_pw_aff_mod_val(off, isl_val_int_from_si(ex->isl, step));
		set = isl_set_intersect(set, isl_pw_aff_zero_set(off));
	} else {
		isl_pw_aff_free(lb_max);
	}
	isl_pw_aff_free(iv);
	return set;
}

/* The condition of an open affine.if on the points of `space`. */
static __isl_give isl_set *cond_set(struct extractor *ex, MlirOperation op,
				    __isl_keep isl_space *space)
{
	MlirAttribute attr = pearl_mlir_attr(op, "condition");
	MlirIntegerSet iset;
	isl_pw_aff **inputs;
	isl_set *set = NULL;
	int i, n, ok = 1;

	if (mlirAttributeIsNull(attr) || !mlirAttributeIsAIntegerSet(attr)) {
		ex_fail(ex, op, "affine.if without condition");
		return NULL;
	}
	iset = mlirIntegerSetAttrGetValue(attr);
	n = (int)mlirIntegerSetGetNumInputs(iset);
	inputs = calloc(n + 1, sizeof(*inputs));
	if (!inputs) {
		ex_fail(ex, op, "out of memory");
		return NULL;
	}
	for (i = 0; i < n && ok; ++i) {
		inputs[i] = ex_value_aff(ex, mlirOperationGetOperand(op, i), space,
				      op);
		ok = inputs[i] != NULL;
	}
	if (ok)
		set = pearl_integer_set_to_set(iset, space, inputs);
	for (i = 0; i < n; ++i)
		isl_pw_aff_free(inputs[i]);
	free(inputs);
	if (ok && !set)
		ex_fail(ex, op, "affine.if condition is not representable");
	return set;
}

/* The iteration domain of a statement at the current position. */
__isl_give isl_set *ex_stmt_domain(struct extractor *ex,
				   __isl_keep isl_space *space)
{
	isl_set *dom = isl_set_universe(isl_space_copy(space));
	int k;

	for (k = 0; k < ex->depth && !ex->failed; ++k)
		dom = isl_set_intersect(dom, loop_constraints(ex, k, space));
	for (k = 0; k < ex->n_conds && !ex->failed; ++k) {
		isl_set *c = cond_set(ex, ex->conds[k].op, space);
		dom = ex->conds[k].negate ? isl_set_subtract(dom, c)
					  : isl_set_intersect(dom, c);
	}
	if (ex->failed)
		return isl_set_free(dom);
	return isl_set_coalesce(dom);
}

/* The access to element i_k - lb of the expanded buffer of private p
 * (privatize.h), where i_k is the iterator of p's loop. */
static __isl_give isl_pw_aff_list *private_index(struct extractor *ex,
						 int p, MlirOperation op,
						 __isl_keep isl_space *space)
{
	const struct pearl_mlir_private *priv = &ex->privates[p];
	isl_aff *index;
	int k;

	for (k = ex->depth - 1; k >= 0; --k)
		if (mlirOperationEqual(ex->loops[k], priv->loop))
			break;
	if (k < 0) {
		ex_fail(ex, op, "access to a private buffer outside its loop");
		return NULL;
	}
	index = isl_aff_var_on_domain(
	    isl_local_space_from_space(isl_space_copy(space)), isl_dim_set, k);
	index = isl_aff_add_constant_si(index, -priv->lb);
	return isl_pw_aff_list_from_pw_aff(isl_pw_aff_from_aff(index));
}

/* The id of the expanded buffer of private p, named after the buffer
 * with "_priv" appended (__isl_keep; NULL after ex_fail). */
static isl_id *private_id(struct extractor *ex, int p, MlirOperation op)
{
	isl_id *id;
	char *name;

	if (ex->private_ids[p])
		return ex->private_ids[p];
	id = ex_memref_id(ex, ex->privates[p].memref, op);
	name = id ? malloc(strlen(isl_id_get_name(id)) + 6) : NULL;
	if (!name) {
		ex_fail(ex, op, "out of memory");
		return NULL;
	}
	sprintf(name, "%s_priv", isl_id_get_name(id));
	ex->private_ids[p] = isl_id_alloc(ex->isl, name, NULL);
	free(name);
	return ex->private_ids[p];
}

/* The access relation of affine.load / affine.store `op` whose memref is
 * operand `mem` (indices follow it) from the points of `space`; an access
 * to a private buffer is one to its element in the expanded buffer. */
__isl_give isl_map *ex_access(struct extractor *ex, MlirOperation op, int mem,
			      __isl_keep isl_space *space)
{
	MlirValue memref = mlirOperationGetOperand(op, mem);
	int p = pearl_mlir_private_index(ex->privates, ex->n_privates, memref);
	isl_id *id = p >= 0 ? private_id(ex, p, op)
			    : ex_memref_id(ex, memref, op);
	isl_pw_aff **res;
	isl_pw_aff_list *list;
	isl_space *range, *mspace;
	int i, n;

	if (!id)
		return NULL;
	if (p >= 0) {
		list = private_index(ex, p, op, space);
		if (!list)
			return NULL;
		n = 1;
	} else {
		n = ex_map_results(ex, op, "map", mem + 1, space, &res);
		if (n < 0)
			return NULL;
		list = isl_pw_aff_list_alloc(ex->isl, n);
		for (i = 0; i < n; ++i)
			list = isl_pw_aff_list_add(list, res[i]);
		free(res);
	}
	range = isl_space_set_alloc(ex->isl, 0, n);
	range = isl_space_set_tuple_id(range, isl_dim_set, isl_id_copy(id));
	mspace = isl_space_map_from_domain_and_range(isl_space_copy(space),
						     range);
	return isl_map_from_multi_pw_aff(
	    isl_multi_pw_aff_from_pw_aff_list(mspace, list));
}
