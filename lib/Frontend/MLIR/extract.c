/* Builds the pearl_program of one region of affine loops (MLIR C API). */
#include <ctype.h>
#include <isl/aff.h>
#include <isl/id.h>
#include <isl/map.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>
#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "affine_to_isl.h"
#include "mlir_util.h"
#include "pearl/builder.h"
#include "pearl/mlir_frontend.h"

#define MAX_DEPTH 64

/* An affine.if whose then (negate = 0) or else (negate = 1) branch is open. */
struct cond {
	MlirOperation op;
	int negate;
};

struct named_value {
	MlirValue value;
	isl_id *id;
};

struct extractor {
	pearl_ctx *ctx;
	isl_ctx *isl;
	const pearl_mlir_region *region;
	MlirAsmState asm_state;
	pearl_builder *b;
	MlirOperation loops[MAX_DEPTH];
	int depth;
	struct cond conds[MAX_DEPTH];
	int n_conds;
	struct named_value *names; /* memrefs and parameters */
	int n_names;
	int failed;
	MlirOperation where;
};

static void fail(struct extractor *ex, MlirOperation op, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void fail(struct extractor *ex, MlirOperation op, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (ex->failed)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ex->failed = 1;
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

/* The ancestor of `op` that is a top-level operation of the region, or a
 * null operation if `op` lies outside the region. */
static MlirOperation region_ancestor(struct extractor *ex, MlirOperation op)
{
	MlirBlock block = mlirOperationGetBlock(ex->region->first);

	for (; !mlirOperationIsNull(op);
	     op = mlirOperationGetParentOperation(op)) {
		MlirOperation it;

		if (!mlirBlockEqual(mlirOperationGetBlock(op), block))
			continue;
		for (it = ex->region->first; !mlirOperationIsNull(it);
		     it = mlirOperationGetNextInBlock(it)) {
			if (mlirOperationEqual(it, op))
				return op;
			if (mlirOperationEqual(it, ex->region->last))
				break;
		}
		break;
	}
	return (MlirOperation){ NULL };
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
	names[ex->n_names].id = isl_id_alloc(ex->isl, name, NULL);
	free(name);
	return names[ex->n_names++].id;
}

static const char *const view_ops[] = {
	"memref.subview", "memref.view", "memref.reinterpret_cast",
	"memref.cast", "memref.collapse_shape", "memref.expand_shape",
	"memref.transpose", "memref.memory_space_cast", NULL
};

/* The id of the buffer behind memref value `v` (__isl_keep). */
static isl_id *memref_id(struct extractor *ex, MlirValue v, MlirOperation user)
{
	if (mlirValueIsAOpResult(v)) {
		MlirOperation def = mlirOpResultGetOwner(v);
		int i;

		for (i = 0; view_ops[i]; ++i)
			if (pearl_mlir_op_is(def, view_ops[i])) {
				fail(ex, user, "memref defined by %s may alias "
				     "another buffer", view_ops[i]);
				return NULL;
			}
	}
	return name_of(ex, v);
}

static __isl_give isl_pw_aff *value_aff(struct extractor *ex, MlirValue v,
					__isl_keep isl_space *space,
					MlirOperation user);

/* The results of the affine map attribute `attr_name` of `op`, applied to
 * `n` operands of `op` starting at `first`, as functions on `space`.
 * Returns the number of results (stored in *out, caller frees) or -1. */
static int map_results(struct extractor *ex, MlirOperation op,
		       const char *attr_name, int first,
		       __isl_keep isl_space *space, isl_pw_aff ***out)
{
	MlirAttribute attr = pearl_mlir_attr(op, attr_name);
	MlirAffineMap map;
	isl_pw_aff **inputs, **results;
	int i, n_in, n_out, ok = 1;

	*out = NULL;
	if (mlirAttributeIsNull(attr) || !mlirAttributeIsAAffineMap(attr)) {
		fail(ex, op, "missing affine map '%s'", attr_name);
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
		fail(ex, op, "out of memory");
		return -1;
	}
	for (i = 0; i < n_in && ok; ++i) {
		inputs[i] = value_aff(ex, mlirOperationGetOperand(op, first + i),
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
		fail(ex, op, "affine map %s is not representable", attr_name);
		return -1;
	}
	*out = results;
	return n_out;
}

static void free_results(isl_pw_aff **res, int n)
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
	int i, n = map_results(ex, def, "map", 0, space, &res);

	if (n <= 0) {
		if (n == 0)
			fail(ex, def, "affine map without results");
		free_results(res, n < 0 ? 0 : n);
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
static __isl_give isl_pw_aff *value_aff(struct extractor *ex, MlirValue v,
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
	anc = region_ancestor(ex, def);
	if (!mlirOperationIsNull(anc)) {
		char name[128];

		pearl_mlir_op_name(def, name, sizeof(name));
		fail(ex, user, "index computed by %s inside the region is not "
		     "affine in the loop iterators", name);
		return NULL;
	}
	id = name_of(ex, v);
	if (!id) {
		fail(ex, user, "out of memory");
		return NULL;
	}
	return isl_pw_aff_param_on_domain_id(isl_set_universe(
	    isl_space_copy(space)), isl_id_copy(id));
}

/* The set space of a statement `name` at the current loop depth. */
static __isl_give isl_space *stmt_space(struct extractor *ex, const char *name)
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
		fail(ex, loop, "affine.for without bounds or step");
		return isl_set_free(set);
	}
	first_ub = (int)mlirAffineMapGetNumInputs(
	    mlirAffineMapAttrGetValue(lb_attr));
	n_lb = map_results(ex, loop, "lowerBoundMap", 0, space, &lb);
	n_ub = n_lb < 0 ? -1
			: map_results(ex, loop, "upperBoundMap", first_ub,
				      space, &ub);
	if (n_lb <= 0 || n_ub <= 0) {
		if (n_lb >= 0)
			free_results(lb, n_lb);
		if (n_ub >= 0 && n_lb >= 0)
			free_results(ub, n_ub);
		fail(ex, loop, "affine.for without bounds");
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
		fail(ex, op, "affine.if without condition");
		return NULL;
	}
	iset = mlirIntegerSetAttrGetValue(attr);
	n = (int)mlirIntegerSetGetNumInputs(iset);
	inputs = calloc(n + 1, sizeof(*inputs));
	if (!inputs) {
		fail(ex, op, "out of memory");
		return NULL;
	}
	for (i = 0; i < n && ok; ++i) {
		inputs[i] = value_aff(ex, mlirOperationGetOperand(op, i), space,
				      op);
		ok = inputs[i] != NULL;
	}
	if (ok)
		set = pearl_integer_set_to_set(iset, space, inputs);
	for (i = 0; i < n; ++i)
		isl_pw_aff_free(inputs[i]);
	free(inputs);
	if (ok && !set)
		fail(ex, op, "affine.if condition is not representable");
	return set;
}

/* The iteration domain of a statement at the current position. */
static __isl_give isl_set *stmt_domain(struct extractor *ex,
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
static __isl_give isl_map *access(struct extractor *ex, MlirOperation op,
				  int mem, __isl_keep isl_space *space)
{
	MlirValue memref = mlirOperationGetOperand(op, mem);
	isl_id *id = memref_id(ex, memref, op);
	isl_pw_aff **res;
	isl_pw_aff_list *list;
	isl_space *range, *mspace;
	int i, n;

	if (!id)
		return NULL;
	n = map_results(ex, op, "map", mem + 1, space, &res);
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

/* 1 if `op` or an operation nested in it stores to `memref`. */
static int stores_to(MlirOperation op, MlirValue memref)
{
	intptr_t r;

	if (pearl_mlir_op_is(op, "affine.store"))
		return mlirValueEqual(mlirOperationGetOperand(op, 1), memref);
	for (r = 0; r < mlirOperationGetNumRegions(op); ++r) {
		MlirBlock b = pearl_mlir_body(op, (int)r);
		MlirOperation it;

		for (it = mlirBlockIsNull(b) ? (MlirOperation){ NULL }
					     : mlirBlockGetFirstOperation(b);
		     !mlirOperationIsNull(it); it = mlirOperationGetNextInBlock(it))
			if (stores_to(it, memref))
				return 1;
	}
	return 0;
}

/* A statement executes its loads when it stores; reject loads whose value
 * could differ at that point because the buffer is written in between. */
static void check_load_use(struct extractor *ex, MlirOperation load,
			   MlirOperation store)
{
	MlirValue memref = mlirOperationGetOperand(load, 0);
	MlirOperation it;

	if (mlirBlockEqual(mlirOperationGetBlock(load),
			   mlirOperationGetBlock(store))) {
		for (it = mlirOperationGetNextInBlock(load);
		     !mlirOperationEqual(it, store);
		     it = mlirOperationGetNextInBlock(it))
			if (stores_to(it, memref))
				goto hazard;
		return;
	}
	for (it = ex->region->first;; it = mlirOperationGetNextInBlock(it)) {
		if (stores_to(it, memref))
			goto hazard;
		if (mlirOperationEqual(it, ex->region->last))
			return;
	}
hazard:
	fail(ex, load, "loaded value is used after its buffer is written "
	     "(the load cannot be moved to its statement)");
}

struct slice {
	MlirOperation *seen;
	int n, cap;
};

static int seen_before(struct slice *s, MlirOperation op)
{
	MlirOperation *seen;
	int i;

	for (i = 0; i < s->n; ++i)
		if (mlirOperationEqual(s->seen[i], op))
			return 1;
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		seen = realloc(s->seen, s->cap * sizeof(*seen));
		if (!seen)
			return 1;
		s->seen = seen;
	}
	s->seen[s->n++] = op;
	return 0;
}

/* Adds the reads and operation counts of the computation of `v`. */
static void walk_value(struct extractor *ex, struct slice *sl, MlirValue v,
		       int stmt, MlirOperation store,
		       __isl_keep isl_space *space)
{
	pearl_program *prog = pearl_builder_program(ex->b);
	MlirOperation def;
	char name[128];
	intptr_t i;

	if (ex->failed || !mlirValueIsAOpResult(v))
		return;
	def = mlirOpResultGetOwner(v);
	if (mlirOperationIsNull(region_ancestor(ex, def)) ||
	    seen_before(sl, def))
		return;
	if (pearl_mlir_op_is(def, "affine.load")) {
		check_load_use(ex, def, store);
		if (!ex->failed &&
		    pearl_program_add_read(prog, stmt,
					   access(ex, def, 0, space)) < 0)
			fail(ex, def, "read access");
		return;
	}
	if (pearl_mlir_op_is(def, "arith.constant") ||
	    pearl_mlir_op_is(def, "affine.apply") ||
	    pearl_mlir_op_is(def, "affine.min") ||
	    pearl_mlir_op_is(def, "affine.max"))
		return;
	pearl_mlir_op_name(def, name, sizeof(name));
	if (pearl_program_add_op_count(prog, stmt, name, 1) < 0)
		fail(ex, def, "out of memory");
	for (i = 0; i < mlirOperationGetNumOperands(def); ++i)
		walk_value(ex, sl, mlirOperationGetOperand(def, i), stmt, store,
			   space);
}

static void add_stmt(struct extractor *ex, MlirOperation store)
{
	pearl_program *prog = pearl_builder_program(ex->b);
	MlirValue value = mlirOperationGetOperand(store, 0);
	struct slice sl = { NULL, 0, 0 };
	char name[32], *type;
	isl_space *space;
	isl_set *dom;
	isl_map *write;
	int idx;

	snprintf(name, sizeof(name), "S%d", pearl_program_n_stmt(prog));
	space = stmt_space(ex, name);
	dom = stmt_domain(ex, space);
	write = dom ? access(ex, store, 1, space) : NULL;
	type = pearl_mlir_type_str(mlirValueGetType(value));
	if (ex->failed || !dom || !write || !type) {
		fail(ex, store, "statement");
		isl_set_free(dom);
		isl_map_free(write);
		goto done;
	}
	idx = pearl_builder_add_stmt(ex->b, dom, write, type, store.ptr);
	if (idx < 0) {
		fail(ex, store, "%s", pearl_ctx_last_error(ex->ctx));
		goto done;
	}
	walk_value(ex, &sl, value, idx, store, space);
done:
	free(sl.seen);
	free(type);
	isl_space_free(space);
}

static void visit(struct extractor *ex, MlirOperation op);

static void visit_block(struct extractor *ex, MlirBlock block)
{
	MlirOperation op;

	if (mlirBlockIsNull(block))
		return;
	for (op = mlirBlockGetFirstOperation(block);
	     !mlirOperationIsNull(op) && !ex->failed;
	     op = mlirOperationGetNextInBlock(op))
		visit(ex, op);
}

static void visit(struct extractor *ex, MlirOperation op)
{
	if (pearl_mlir_op_is(op, "affine.for")) {
		if (ex->depth == MAX_DEPTH) {
			fail(ex, op, "loop nest deeper than %d", MAX_DEPTH);
			return;
		}
		ex->loops[ex->depth++] = op;
		pearl_builder_enter_loop(ex->b);
		visit_block(ex, pearl_mlir_body(op, 0));
		if (pearl_builder_leave_loop(ex->b) < 0)
			fail(ex, op, "%s", pearl_ctx_last_error(ex->ctx));
		ex->depth--;
	} else if (pearl_mlir_op_is(op, "affine.if")) {
		int neg;

		if (ex->n_conds == MAX_DEPTH) {
			fail(ex, op, "more than %d nested conditions", MAX_DEPTH);
			return;
		}
		for (neg = 0; neg < 2; ++neg) {
			ex->conds[ex->n_conds++] = (struct cond){ op, neg };
			visit_block(ex, pearl_mlir_body(op, neg));
			ex->n_conds--;
		}
	} else if (pearl_mlir_op_is(op, "affine.store")) {
		add_stmt(ex, op);
	}
}

pearl_program *pearl_mlir_extract(pearl_ctx *ctx, MlirOperation func,
				  const pearl_mlir_region *region,
				  MlirLocation *where)
{
	MlirAttribute sym = pearl_mlir_attr(func, "sym_name");
	MlirOpPrintingFlags flags;
	struct extractor ex = { 0 };
	pearl_program *prog = NULL;
	char fname[256] = "?";
	MlirOperation op;
	int i;

	if (!mlirAttributeIsNull(sym) && mlirAttributeIsAString(sym)) {
		MlirStringRef s = mlirStringAttrGetValue(sym);
		size_t n = s.length < sizeof(fname) - 1 ? s.length
							: sizeof(fname) - 1;
		memcpy(fname, s.data, n);
		fname[n] = '\0';
	}
	ex.ctx = ctx;
	ex.isl = pearl_ctx_get_isl(ctx);
	ex.region = region;
	flags = mlirOpPrintingFlagsCreate();
	ex.asm_state = mlirAsmStateCreateForOperation(func, flags);
	mlirOpPrintingFlagsDestroy(flags);
	ex.b = pearl_builder_alloc(ctx, fname);
	if (!ex.b)
		fail(&ex, region->first, "out of memory");
	for (op = region->first; !ex.failed;
	     op = mlirOperationGetNextInBlock(op)) {
		visit(&ex, op);
		if (mlirOperationEqual(op, region->last))
			break;
	}
	if (!ex.failed) {
		prog = pearl_builder_finish(ex.b);
		if (!prog)
			fail(&ex, region->first, "%s",
			     pearl_ctx_last_error(ctx));
	}
	if (!ex.failed && pearl_program_n_stmt(prog) == 0)
		fail(&ex, region->first, "no affine.store to schedule");
	if (ex.failed) {
		prog = pearl_program_free(prog);
		*where = mlirOperationGetLocation(ex.where);
	}
	pearl_builder_free(ex.b);
	for (i = 0; i < ex.n_names; ++i)
		isl_id_free(ex.names[i].id);
	free(ex.names);
	mlirAsmStateDestroy(ex.asm_state);
	return prog;
}
