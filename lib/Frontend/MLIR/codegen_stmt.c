/* A statement of isl's AST at its new place (codegen_state.h): its
 * original iterators recomputed from the new ones by affine.apply, then the
 * operations that compute its stored value and the store cloned, with the
 * loop's private buffers (privatize.h) expanded. */
#include <isl/id.h>
#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdlib.h>

#include "codegen_state.h"
#include "mlir_util.h"
#include "pearl/grow.h"

struct value_map {
	MlirValue *from, *to;
	int n, cap;
};

static int map_find(struct value_map *m, MlirValue v)
{
	int i;

	for (i = 0; i < m->n; ++i)
		if (mlirValueEqual(m->from[i], v))
			return i;
	return -1;
}

static int map_add(struct value_map *m, MlirValue from, MlirValue to)
{
	int cap = m->cap; /* the room of both arrays */

	if (pearl_grow(&m->from, &cap, m->n + 1, sizeof(*m->from)) < 0 ||
	    pearl_grow(&m->to, &m->cap, m->n + 1, sizeof(*m->to)) < 0)
		return -1;
	m->from[m->n] = from;
	m->to[m->n++] = to;
	return 0;
}

/* 1 if `op` lies inside one of the region's loops or conditions (so it
 * must be cloned), 0 if it is outside them (its values can be used as
 * they are). */
static int inside_nest(struct gen *g, MlirOperation op)
{
	MlirOperation top = pearl_mlir_region_ancestor(g->region, op);

	return !mlirOperationIsNull(top) && !mlirOperationEqual(top, op);
}

/* 1 if `v` is defined inside the region's loops: an iterator or a result
 * of an operation nested in them. */
static int defined_in_nest(struct gen *g, MlirValue v)
{
	if (mlirValueIsABlockArgument(v))
		return !mlirOperationIsNull(pearl_mlir_region_ancestor(
		    g->region,
		    mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(v))));
	return inside_nest(g, mlirOpResultGetOwner(v));
}

/* Marks in `need` (a list) the operations inside the nest that `op`
 * depends on, `op` included. */
static int collect(struct gen *g, MlirOperation op, MlirOperation **need,
		   int *n, int *cap)
{
	intptr_t i;
	int k;

	for (k = 0; k < *n; ++k)
		if (mlirOperationEqual((*need)[k], op))
			return 0;
	if (pearl_grow(need, cap, *n + 1, sizeof(**need)) < 0)
		return -1;
	(*need)[(*n)++] = op;
	for (i = 0; i < mlirOperationGetNumOperands(op); ++i) {
		MlirValue v = mlirOperationGetOperand(op, i);
		MlirOperation def;

		if (!mlirValueIsAOpResult(v))
			continue;
		def = mlirOpResultGetOwner(v);
		if (inside_nest(g, def) && collect(g, def, need, n, cap) < 0)
			return -1;
	}
	return 0;
}

/* The expanded buffer of private p: a memref.alloca of the loop's trip
 * count, made from the original one (a clone placed after it) on first
 * use. */
static MlirValue private_buffer(struct gen *g, int p)
{
	const struct pearl_mlir_private *priv = &g->privates[p];
	MlirOperation orig, alloca;
	MlirType type, elem;

	if (!mlirValueIsNull(g->private_value[p]))
		return g->private_value[p];
	orig = mlirOpResultGetOwner(priv->memref);
	type = mlirValueGetType(priv->memref);
	elem = mlirShapedTypeGetElementType(type);
	alloca = mlirOperationClone(orig);
	mlirValueSetType(mlirOperationGetResult(alloca, 0),
			 mlirMemRefTypeContiguousGet(
			     elem, 1, &priv->trip,
			     mlirMemRefTypeGetMemorySpace(type)));
	mlirBlockInsertOwnedOperationAfter(mlirOperationGetBlock(orig), orig,
					   alloca);
	g->private_value[p] = mlirOperationGetResult(alloca, 0);
	return g->private_value[p];
}

/* A copy of access `op` to private p reading or writing element i - lb of
 * the expanded buffer, i the original iterator of p's loop (remapped like
 * every operand by the caller). */
static MlirOperation private_access(struct gen *g, MlirOperation op, int p)
{
	const struct pearl_mlir_private *priv = &g->privates[p];
	int is_store = pearl_mlir_op_is(op, "affine.store");
	MlirValue operands[3];
	MlirAffineExpr index;
	MlirOperationState st;
	MlirNamedAttribute map;
	MlirType result;
	int n = 0;

	if (is_store)
		operands[n++] = mlirOperationGetOperand(op, 0);
	operands[n++] = private_buffer(g, p);
	operands[n++] = mlirBlockGetArgument(pearl_mlir_body(priv->loop, 0), 0);
	index = mlirAffineAddExprGet(
	    mlirAffineDimExprGet(g->mctx, 0),
	    mlirAffineConstantExprGet(g->mctx, -priv->lb));
	map = cg_named(g, "map",
		       mlirAffineMapAttrGet(
			   mlirAffineMapGet(g->mctx, 1, 0, 1, &index)));
	st = mlirOperationStateGet(
	    mlirStringRefCreateFromCString(is_store ? "affine.store"
						    : "affine.load"),
	    mlirOperationGetLocation(op));
	mlirOperationStateAddOperands(&st, n, operands);
	mlirOperationStateAddAttributes(&st, 1, &map);
	if (!is_store) {
		result = mlirValueGetType(mlirOperationGetResult(op, 0));
		mlirOperationStateAddResults(&st, 1, &result);
	}
	return mlirOperationCreate(&st);
}

/* A copy of `op` for the new nest: a clone, or for an access to a private
 * buffer an access to its expanded buffer. */
static MlirOperation copy_op(struct gen *g, MlirOperation op)
{
	MlirValue memref = { NULL };
	int p = -1;

	if (pearl_mlir_op_is(op, "affine.load"))
		memref = mlirOperationGetOperand(op, 0);
	else if (pearl_mlir_op_is(op, "affine.store"))
		memref = mlirOperationGetOperand(op, 1);
	if (!mlirValueIsNull(memref))
		p = pearl_mlir_private_index(g->privates, g->n_privates,
					     memref);
	return p >= 0 ? private_access(g, op, p) : mlirOperationClone(op);
}

/* Clones the operations of `need` found in program order from `first` to
 * `last` (inclusive; a null `last`: to the end of the block) and in the
 * blocks under them. The walk stops at `last`: the code generated so far
 * lies after the region in the same block, and walking it for every
 * statement instance made code generation quadratic in the generated
 * code (minutes on a fuzzer-found schedule, gen-100833). */
static void clone_in_order(struct gen *g, MlirOperation first,
			   MlirOperation last, MlirOperation *need, int n,
			   struct value_map *m)
{
	MlirOperation op, end = mlirOperationIsNull(last)
				    ? last
				    : mlirOperationGetNextInBlock(last);
	intptr_t i, r;
	int k;

	for (op = first; !mlirOperationIsNull(op) && !g->failed &&
			 !(!mlirOperationIsNull(end) &&
			   mlirOperationEqual(op, end));
	     op = mlirOperationGetNextInBlock(op)) {
		for (k = 0; k < n; ++k)
			if (mlirOperationEqual(need[k], op))
				break;
		if (k < n) {
			MlirOperation c = copy_op(g, op);

			for (i = 0; i < mlirOperationGetNumOperands(c); ++i) {
				MlirValue v = mlirOperationGetOperand(c, i);
				int j = map_find(m, v);

				if (j >= 0)
					mlirOperationSetOperand(c, i, m->to[j]);
				else if (defined_in_nest(g, v))
					cg_fail(g,
						"an operand defined inside the "
						"nest is not available");
			}
			cg_insert(g, c);
			for (i = 0; i < mlirOperationGetNumResults(op); ++i)
				if (map_add(m, mlirOperationGetResult(op, i),
					    mlirOperationGetResult(c, i)) < 0)
					cg_fail(g, "out of memory");
			continue;
		}
		for (r = 0; r < mlirOperationGetNumRegions(op); ++r) {
			MlirBlock b = pearl_mlir_body(op, (int)r);
			if (!mlirBlockIsNull(b))
				clone_in_order(g, mlirBlockGetFirstOperation(b),
					       (MlirOperation){NULL}, need, n,
					       m);
		}
	}
}

/* The original loops of statement `store` inside the region, innermost
 * first, in loops[]; returns their number. */
static int original_loops(struct gen *g, MlirOperation store,
			  MlirOperation *loops)
{
	MlirOperation op;
	int depth = 0;

	for (op = mlirOperationGetParentOperation(store);
	     inside_nest(g, op) || pearl_mlir_op_is(op, "affine.for") ||
	     pearl_mlir_op_is(op, "affine.if");
	     op = mlirOperationGetParentOperation(op)) {
		if (pearl_mlir_op_is(op, "affine.for") && depth < MAX_LOOPS)
			loops[depth++] = op;
		if (!inside_nest(g, op))
			break;
	}
	return depth;
}

/* Each original iterator of the statement of `call` (kept; its arguments
 * after the name are the values of the statement's original loops from
 * the outermost, loops[depth - 1] .. loops[0]) as an affine.apply of the
 * new ones, recorded in *m. */
static void apply_iterators(struct gen *g, __isl_keep isl_ast_expr *call,
			    MlirOperation *loops, int depth,
			    struct value_map *m)
{
	MlirValue ops[MAX_LOOPS + MAX_PARAMS];
	MlirType index = mlirIndexTypeGet(g->mctx);
	int nops = cg_map_operands(g, ops), k;

	for (k = 0; k < depth && !g->failed; ++k) {
		isl_ast_expr *arg = isl_ast_expr_op_get_arg(call, k + 1);
		MlirAffineExpr e = cg_affine_expr(g, arg);
		MlirOperation loop = loops[depth - 1 - k];
		MlirOperationState st;
		MlirNamedAttribute attr;
		MlirOperation apply;

		isl_ast_expr_free(arg);
		if (mlirAffineExprIsNull(e) ||
		    cg_check_ranges(g, &e, 1,
				    "an iterator of a statement at "
				    "depth %d") < 0)
			break;
		st = mlirOperationStateGet(
		    mlirStringRefCreateFromCString("affine.apply"), g->loc);
		attr = cg_named(g, "map",
				mlirAffineMapAttrGet(cg_make_map(g, &e, 1)));
		mlirOperationStateAddAttributes(&st, 1, &attr);
		mlirOperationStateAddOperands(&st, nops, ops);
		mlirOperationStateAddResults(&st, 1, &index);
		apply = mlirOperationCreate(&st);
		cg_insert(g, apply);
		if (map_add(m, mlirBlockGetArgument(pearl_mlir_body(loop, 0), 0),
			    mlirOperationGetResult(apply, 0)) < 0)
			cg_fail(g, "out of memory");
	}
}

void cg_call(struct gen *g, isl_ast_expr **exprs, void *user)
{
	isl_ast_expr *call = exprs[0];
	isl_ast_expr *name = isl_ast_expr_op_get_arg(call, 0);
	isl_id *id = isl_ast_expr_id_get_id(name);
	int s = pearl_program_find_stmt(g->prog, id);
	isl_size nargs = isl_ast_expr_op_get_n_arg(call);
	struct value_map m = { NULL, NULL, 0, 0 };
	MlirOperation store = { pearl_program_stmt_user(g->prog, s) };
	MlirOperation loops[MAX_LOOPS], *need = NULL;
	int depth, n = 0, cap = 0;

	(void)user;
	isl_id_free(id);
	isl_ast_expr_free(name);
	if (s < 0 || mlirOperationIsNull(store)) {
		cg_fail(g, "unknown statement");
		return;
	}
	depth = original_loops(g, store, loops);
	if (depth != nargs - 1)
		cg_fail(g, "statement %s has %d loops but %d arguments",
			isl_id_get_name(pearl_program_stmt_id(g->prog, s)),
			depth, (int)nargs - 1);
	else
		apply_iterators(g, call, loops, depth, &m);
	if (!g->failed && collect(g, store, &need, &n, &cap) < 0)
		cg_fail(g, "out of memory");
	if (!g->failed)
		clone_in_order(g, g->region->first, g->region->last, need, n,
			       &m);
	free(need);
	free(m.from);
	free(m.to);
}
