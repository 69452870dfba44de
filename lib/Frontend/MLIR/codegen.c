/* Regenerates a region of affine loops from an isl AST (see
 * pearl/mlir_codegen.h): for -> affine.for / affine.parallel, if ->
 * affine.if, user -> the statement's operations cloned with its iterators
 * recomputed from the new ones (codegen_stmt.c), marks -> what they ask of
 * the loop below. This file walks the AST; codegen_state.h says what the
 * other files do. */
#include <isl/ast.h>
#include <isl/id.h>
#include <isl/space.h>
#include <isl/union_set.h>
#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdlib.h>
#include <string.h>

#include "codegen_state.h"
#include "mlir_util.h"
#include "pearl/ast_marks.h"
#include "pearl/mlir_alias_scopes.h"

static void gen_node(struct gen *g, __isl_keep isl_ast_node *node,
		     int parallel);

/* Generates the children of a new loop or branch inside `body`. */
static void gen_inside(struct gen *g, MlirBlock body,
		       __isl_take isl_ast_node *child)
{
	MlirBlock saved_block = g->block;
	MlirOperation saved_anchor = g->anchor;

	g->block = body;
	g->anchor = mlirBlockGetTerminator(body);
	gen_node(g, child, 0);
	isl_ast_node_free(child);
	g->block = saved_block;
	g->anchor = saved_anchor;
}

/* ---- loops and conditions ---- */

/* The bounds of the loop with iterator `iter`, condition `cond`, initial
 * value `init` and increment `inc` (all kept): lb[0..*nlb) (a max) and
 * ub[0..*nub) (a min, exclusive), and its step in *step. 0, or -1 after
 * cg_fail(). */
static int loop_bounds(struct gen *g, __isl_keep isl_ast_expr *iter,
		       __isl_keep isl_ast_expr *init,
		       __isl_keep isl_ast_expr *cond,
		       __isl_keep isl_ast_expr *inc, MlirAffineExpr *lb,
		       int *nlb, MlirAffineExpr *ub, int *nub, int64_t *step)
{
	isl_val *v = isl_ast_expr_int_get_val(inc);
	isl_ast_expr *lhs, *upper;
	enum isl_ast_expr_op_type ct;

	ct = isl_ast_expr_get_type(cond) == isl_ast_expr_op
		 ? isl_ast_expr_op_get_type(cond) : isl_ast_expr_op_error;
	if (g->depth == MAX_LOOPS)
		cg_fail(g, "loops nested too deeply");
	else if (!v || cg_val_to_index(g, v, step) < 0 || *step < 1)
		cg_fail(g, "loop step is not a positive constant");
	else if (ct != isl_ast_expr_op_le && ct != isl_ast_expr_op_lt)
		cg_fail(g, "loop condition is not an upper bound");
	isl_val_free(v);
	if (g->failed)
		return -1;
	lhs = isl_ast_expr_op_get_arg(cond, 0);
	if (isl_ast_expr_is_equal(lhs, iter) != isl_bool_true)
		cg_fail(g, "loop condition does not bound the iterator");
	isl_ast_expr_free(lhs);
	upper = isl_ast_expr_op_get_arg(cond, 1);
	*nlb = g->failed ? -1 : cg_bound_results(g, init, isl_ast_expr_op_max, 0,
					      lb, MAX_RESULTS);
	*nub = *nlb < 0 ? -1 : cg_bound_results(g, upper, isl_ast_expr_op_min,
					     ct == isl_ast_expr_op_le ? 1 : 0,
					     ub, MAX_RESULTS);
	isl_ast_expr_free(upper);
	return *nlb > 0 && *nub > 0 && !g->failed ? 0 : -1;
}

/* The values of the iterator of the loop at the current depth with bounds
 * lb[0..nlb) (a max) and ub[0..nub) (a min, exclusive) and step `step`,
 * into *iv; 0, or -1 after cg_fail() if a bound or the increment past the
 * last iteration (the lowered loop computes iv + step before it compares
 * with the upper bound) could overflow 64-bit index arithmetic. */
static int loop_range(struct gen *g, MlirAffineExpr *lb, int nlb,
		      MlirAffineExpr *ub, int nub, int64_t step,
		      struct pearl_index_range *iv)
{
	struct pearl_index_range r;
	int64_t last, next;
	int i;

	for (i = 0; i < nlb; ++i) {
		if (cg_check_range(g, lb[i], &r,
				   "the lower bound of the loop at "
				   "depth %d",
				   g->depth) < 0)
			return -1;
		iv->lo = i == 0 || r.lo > iv->lo ? r.lo : iv->lo;
	}
	for (i = 0; i < nub; ++i) {
		if (cg_check_range(g, ub[i], &r,
				   "the upper bound of the loop at "
				   "depth %d",
				   g->depth) < 0)
			return -1;
		iv->hi = i == 0 || r.hi < iv->hi ? r.hi : iv->hi;
	}
	if (__builtin_sub_overflow(iv->hi, 1, &last) ||
	    __builtin_add_overflow(last, step, &next)) {
		cg_fail(g,
			"the increment of the loop at depth %d past its last "
			"iteration could overflow 64-bit index arithmetic",
			g->depth);
		return -1;
	}
	iv->hi = last < iv->lo ? iv->lo : last;
	return 0;
}

/* An affine.parallel (if `parallel`) or affine.for over the bounds (not
 * inserted), with its body block in *body; a null operation on failure. */
static MlirOperation create_loop(struct gen *g, MlirAffineExpr *lb, int nlb,
				 MlirAffineExpr *ub, int nub, int64_t step,
				 int parallel, MlirBlock *body)
{
	MlirValue ops[2 * (MAX_LOOPS + MAX_PARAMS)];
	MlirNamedAttribute attrs[6];
	MlirOperationState st;
	MlirRegion region;
	int n = cg_map_operands(g, ops), i;

	for (i = 0; i < n; ++i)
		ops[n + i] = ops[i];
	region = cg_body_region(g, 1, body);
	if (parallel) {
		int32_t nl = nlb, nu = nub;
		MlirType i32 = mlirIntegerTypeGet(g->mctx, 32);
		int64_t shape[1] = { 1 };
		MlirType groups = mlirRankedTensorTypeGet(
		    1, shape, i32, mlirAttributeGetNull());
		MlirAttribute s = mlirIntegerAttrGet(
		    mlirIntegerTypeGet(g->mctx, 64), step);

		st = mlirOperationStateGet(mlirStringRefCreateFromCString(
					       "affine.parallel"), g->loc);
		attrs[0] =
		    cg_named(g, "lowerBoundsMap",
			     mlirAffineMapAttrGet(cg_make_map(g, lb, nlb)));
		attrs[1] =
		    cg_named(g, "lowerBoundsGroups",
			     mlirDenseElementsAttrInt32Get(groups, 1, &nl));
		attrs[2] =
		    cg_named(g, "upperBoundsMap",
			     mlirAffineMapAttrGet(cg_make_map(g, ub, nub)));
		attrs[3] =
		    cg_named(g, "upperBoundsGroups",
			     mlirDenseElementsAttrInt32Get(groups, 1, &nu));
		attrs[4] =
		    cg_named(g, "steps", mlirArrayAttrGet(g->mctx, 1, &s));
		attrs[5] = cg_named(g, "reductions",
				    mlirArrayAttrGet(g->mctx, 0, NULL));
		mlirOperationStateAddAttributes(&st, 6, attrs);
	} else {
		int32_t seg[3] = { n, n, 0 };

		st = mlirOperationStateGet(mlirStringRefCreateFromCString(
					       "affine.for"), g->loc);
		attrs[0] =
		    cg_named(g, "lowerBoundMap",
			     mlirAffineMapAttrGet(cg_make_map(g, lb, nlb)));
		attrs[1] =
		    cg_named(g, "upperBoundMap",
			     mlirAffineMapAttrGet(cg_make_map(g, ub, nub)));
		attrs[2] =
		    cg_named(g, "step",
			     mlirIntegerAttrGet(mlirIndexTypeGet(g->mctx),
						step));
		attrs[3] = cg_named(g, "operandSegmentSizes",
				    mlirDenseI32ArrayGet(g->mctx, 3, seg));
		mlirOperationStateAddAttributes(&st, 4, attrs);
	}
	mlirOperationStateAddOperands(&st, 2 * n, ops);
	mlirOperationStateAddOwnedRegions(&st, 1, &region);
	return mlirOperationCreate(&st);
}

/* Inserts loop `op` (with iterator `iter`, kept, and body block `body`)
 * and generates the body of for node `node` (kept) in it, with the marks
 * that apply to the loop (unroll, point loop hint). */
static void gen_loop_body(struct gen *g, MlirOperation op, MlirBlock body,
			  __isl_keep isl_ast_expr *iter,
			  __isl_keep isl_ast_node *node, int parallel,
			  struct pearl_index_range range)
{
	isl_id *id = isl_ast_expr_id_get_id(iter);
	int unroll = g->pending_unroll;
	int point = g->pending_point;
	int vector = g->pending_vector;
	int copy = g->pending_copy;
	int loops_so_far = ++g->n_loops;

	cg_insert(g, op);
	if (copy && g->n_copy < MAX_COPY_LOOPS)
		g->copy_op[g->n_copy++] = op;
	/* a parallel loop is not unrolled (null op: counted as kept) */
	if (unroll && g->n_unroll < MAX_UNROLL) {
		g->unroll_op[g->n_unroll] =
		    parallel ? (MlirOperation){ NULL } : op;
		g->unroll_factor[g->n_unroll++] = unroll;
	}
	g->pending_unroll = 0; /* not the loops inside */
	g->pending_point = 0;
	g->pending_vector = 0;
	g->pending_copy = 0;
	g->iter[g->depth] = id;
	g->iv[g->depth] = mlirBlockGetArgument(body, 0);
	g->range[g->depth] = range;
	g->depth++;
	gen_inside(g, body, isl_ast_node_for_get_body(node));
	g->depth--;
	g->pending_unroll = unroll;
	g->pending_point = point;
	g->pending_vector = vector;
	g->pending_copy = copy;
	/* no loop was created inside (the point loop of an unroll-and-jam
	 * inside a vectorized loop is, and is unrolled away) */
	if (vector)
		cg_hint_vectorize(g, op, vector,
				  point && !parallel &&
				      g->n_loops == loops_so_far);
	else if (point && !parallel && g->n_loops == loops_so_far)
		cg_hint_no_unroll(g, op);
	isl_id_free(id);
}

/* A for node and how to generate it once its bounds are resolved. */
struct for_node {
	isl_ast_node *node; /* kept */
	int parallel;
};

/* Generates the for node of `user` (a struct for_node) from its initial
 * value exprs[0] and condition exprs[1] (kept, without conditional
 * expressions). */
static void gen_loop(struct gen *g, isl_ast_expr **exprs, void *user)
{
	struct for_node *f = user;
	isl_ast_expr *iter = isl_ast_node_for_get_iterator(f->node);
	isl_ast_expr *inc = isl_ast_node_for_get_inc(f->node);
	MlirAffineExpr lb[MAX_RESULTS], ub[MAX_RESULTS];
	struct pearl_index_range range;
	MlirOperation op;
	MlirBlock body;
	int nlb, nub;
	int64_t step;

	if (loop_bounds(g, iter, exprs[0], exprs[1], inc, lb, &nlb, ub, &nub,
			&step) == 0 &&
	    loop_range(g, lb, nlb, ub, nub, step, &range) == 0) {
		op = create_loop(g, lb, nlb, ub, nub, step, f->parallel, &body);
		if (mlirOperationIsNull(op))
			cg_fail(g, "could not create a loop");
		else
			gen_loop_body(g, op, body, iter, f->node, f->parallel,
				      range);
	}
	isl_ast_expr_free(iter);
	isl_ast_expr_free(inc);
}

static void gen_for(struct gen *g, __isl_keep isl_ast_node *node,
		    int parallel)
{
	struct for_node f = { node, parallel };
	isl_ast_expr *exprs[2];

	exprs[0] = isl_ast_node_for_get_init(node);
	exprs[1] = isl_ast_node_for_get_cond(node);
	cg_resolved(g, exprs, 2, gen_loop, &f);
	isl_ast_expr_free(exprs[0]);
	isl_ast_expr_free(exprs[1]);
}

/* Generates the then node of if node `user`, at the insertion point. */
static void gen_then(struct gen *g, void *user)
{
	isl_ast_node *child = isl_ast_node_if_get_then_node(user);

	gen_node(g, child, 0);
	isl_ast_node_free(child);
}

/* Generates the else node of if node `user`, at the insertion point. */
static void gen_else(struct gen *g, void *user)
{
	isl_ast_node *child = isl_ast_node_if_get_else_node(user);

	gen_node(g, child, 0);
	isl_ast_node_free(child);
}

/* Generates if node `user` from its condition exprs[0] (kept, without
 * conditional expressions). */
static void gen_if_cond(struct gen *g, isl_ast_expr **exprs, void *user)
{
	isl_ast_node *node = user;
	int has_else = isl_ast_node_if_has_else_node(node) == isl_bool_true;

	cg_cond(g, exprs[0], gen_then, node, has_else ? gen_else : NULL, node);
}

static void gen_if(struct gen *g, __isl_keep isl_ast_node *node)
{
	isl_ast_expr *cond = isl_ast_node_if_get_cond(node);

	cg_resolved(g, &cond, 1, gen_if_cond, node);
	isl_ast_expr_free(cond);
}


static void gen_user(struct gen *g, __isl_keep isl_ast_node *node)
{
	isl_ast_expr *call = isl_ast_node_user_get_expr(node);

	cg_resolved(g, &call, 1, cg_call, NULL);
	isl_ast_expr_free(call);
}

/* Generates `child` (kept), the node under mark `mark` (kept), with what
 * the mark asks of the loop below it set in *flag to `value` meanwhile;
 * `parallel`: whether the loop below is parallel. */
static void gen_under(struct gen *g, __isl_keep isl_ast_node *child,
		      int parallel, int *flag, int value)
{
	int saved = *flag;

	*flag = value;
	gen_node(g, child, parallel);
	*flag = saved;
}

/* Generates `child` (kept) under mark `mark` (kept), `parallel` as for
 * gen_node: an unroll mark holds the factor (negative: left to LLVM's
 * vectorizer, counted; the loops under it are not parallel), a vector
 * mark the width; copy and point marks are flags; a parallel mark makes
 * the loop below parallel. */
static void gen_mark(struct gen *g, __isl_keep isl_id *mark,
		     __isl_keep isl_ast_node *child, int parallel)
{
	const char *name = isl_id_get_name(mark);
	intptr_t user = (intptr_t)isl_id_get_user(mark);

	if (strcmp(name, PEARL_UNROLL_MARK) == 0)
		gen_under(g, child, 0, &g->pending_unroll,
			  user > 1 ? (int)user : -1);
	else if (strcmp(name, PEARL_VECTOR_MARK) == 0)
		gen_under(g, child, parallel, &g->pending_vector, (int)user);
	else if (strcmp(name, PEARL_COPY_MARK) == 0)
		gen_under(g, child, parallel, &g->pending_copy, 1);
	else if (strcmp(name, PEARL_POINT_MARK) == 0)
		gen_under(g, child, parallel, &g->pending_point, 1);
	else
		gen_node(g, child, strcmp(name, PEARL_PARALLEL_MARK) == 0);
}

static void gen_node(struct gen *g, __isl_keep isl_ast_node *node,
		     int parallel)
{
	isl_ast_node_list *list;
	isl_ast_node *child;
	isl_id *mark;
	isl_size n;
	int i;

	if (g->failed)
		return;
	switch (isl_ast_node_get_type(node)) {
	case isl_ast_node_for:
		gen_for(g, node, parallel);
		return;
	case isl_ast_node_if:
		gen_if(g, node);
		return;
	case isl_ast_node_block:
		list = isl_ast_node_block_get_children(node);
		n = isl_ast_node_list_n_ast_node(list);
		for (i = 0; i < n && !g->failed; ++i) {
			child = isl_ast_node_list_get_at(list, i);
			gen_node(g, child, 0);
			isl_ast_node_free(child);
		}
		isl_ast_node_list_free(list);
		return;
	case isl_ast_node_mark:
		mark = isl_ast_node_mark_get_id(node);
		child = isl_ast_node_mark_get_node(node);
		gen_mark(g, mark, child, parallel);
		isl_ast_node_free(child);
		isl_id_free(mark);
		return;
	case isl_ast_node_user:
		gen_user(g, node);
		return;
	default:
		cg_fail(g, "unexpected AST node");
	}
}

pearl_stat pearl_mlir_codegen(pearl_ctx *ctx, const pearl_mlir_region *region,
			      pearl_program *prog,
			      __isl_keep isl_ast_node *tree)
{
	return pearl_mlir_codegen_report(ctx, region, prog, tree, NULL);
}

pearl_stat pearl_mlir_codegen_report(pearl_ctx *ctx,
				     const pearl_mlir_region *region,
				     pearl_program *prog,
				     __isl_keep isl_ast_node *tree,
				     struct pearl_mlir_codegen_report *report)
{
	isl_union_set *dom = pearl_program_get_domain(prog);
	isl_space *space = isl_union_set_get_space(dom);
	struct gen g = { 0 };
	int kept = 0, vect = 0, copied = 0, not_copied = 0, outside = 0;
	MlirOperation func;

	cg_start(&g, ctx, region, prog, space);
	gen_node(&g, tree, 0);
	func = cg_enclosing_function(g.anchor);
	if (!mlirOperationIsNull(func)) {
		g.entry = mlirRegionGetFirstBlock(
		    mlirOperationGetRegion(func, 0));
		g.entry_first = mlirBlockGetFirstOperation(g.entry);
	}
	cg_copy(&g, &copied, &not_copied, &outside);
	cg_unroll(&g, &vect, &kept);
	cg_check_size(&g);
	cg_promote(&g);
	cg_verify(&g);
	if (g.failed)
		cg_discard(&g);
	else
		cg_replace(&g);
	/* The rewritten code relies on the model's no-alias rule: the
	 * function says so, for the lowering's alias scopes
	 * (pearl/mlir_alias_scopes.h). */
	if (!g.failed && !mlirOperationIsNull(func))
		pearl_mark_noalias_memref_args(func);
	free(g.privates);
	free(g.private_value);
	if (!g.failed) {
		cg_report_unrolls(&g, vect, kept);
		cg_report_copies(&g, copied, not_copied, outside);
	}
	if (report)
		report->n_stride_promoted = g.n_stride_promoted;
	isl_space_free(space);
	isl_union_set_free(dom);
	return g.failed ? pearl_stat_error : pearl_stat_ok;
}
