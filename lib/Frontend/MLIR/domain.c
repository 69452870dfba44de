/* Iteration domains and access relations of statements. */
#include <isl/local_space.h>
#include <isl/val.h>
#include <mlir-c/BuiltinAttributes.h>
#include <stdio.h>
#include <stdlib.h>

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

/* The access relation of affine.load / affine.store `op` whose memref is
 * operand `mem` (indices follow it) from the points of `space`. */
__isl_give isl_map *ex_access(struct extractor *ex, MlirOperation op, int mem,
			      __isl_keep isl_space *space)
{
	MlirValue memref = mlirOperationGetOperand(op, mem);
	isl_id *id = ex_memref_id(ex, memref, op);
	isl_pw_aff **res;
	isl_pw_aff_list *list;
	isl_space *range, *mspace;
	int i, n;

	if (!id)
		return NULL;
	n = ex_map_results(ex, op, "map", mem + 1, space, &res);
	if (n < 0)
		return NULL;
	list = isl_pw_aff_list_alloc(ex->isl, n);
	for (i = 0; i < n; ++i)
		list = isl_pw_aff_list_add(list, res[i]);
	free(res);
	range = isl_space_set_alloc(ex->isl, 0, n);
	range = isl_space_set_tuple_id(range, isl_dim_set, isl_id_copy(id));
	mspace = isl_space_map_from_domain_and_range(isl_space_copy(space),
						     range);
	return isl_map_from_multi_pw_aff(
	    isl_multi_pw_aff_from_pw_aff_list(mspace, list));
}
