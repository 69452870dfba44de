/* Regenerates a region of affine loops from an isl AST (see
 * pearl/mlir_codegen.h): for -> affine.for / affine.parallel, if ->
 * affine.if, user -> the statement's operations cloned with its iterators
 * recomputed from the new ones. */
#include <isl/ast.h>
#include <isl/id.h>
#include <isl/space.h>
#include <isl/union_set.h>
#include <isl/val.h>
#include <mlir-c/AffineExpr.h>
#include <mlir-c/AffineMap.h>
#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <mlir-c/Diagnostics.h>
#include <mlir-c/IntegerSet.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast_expr.h"
#include "index_range.h"
#include "mlir_util.h"
#include "privatize.h"
#include "pearl/grow.h"
#include "pearl/mlir_alias_scopes.h"
#include "pearl/mlir_codegen.h"
#include "pearl/ast_marks.h"

#define MAX_LOOPS 64
#define MAX_PARAMS 64
#define MAX_RESULTS 32

struct value_map {
	MlirValue *from, *to;
	int n, cap;
};

#define MAX_UNROLL 512
/* Loops recorded under copy marks (K) per region; a loop beyond them gets
 * no copies. */
#define MAX_COPY_LOOPS 512
/* Operations the generator may insert for one region (statement copies,
 * loops, conditions, before unrolling): the benchmark kernels need a few
 * hundred. isl's conditional expressions "c ? a : b" are resolved by
 * copying the statement into each arm, so a call with several such
 * arguments, each a chain of them, multiplies the copies (a fuzzer-found
 * schedule, gen-100833: 80 calls of 15 chained conditions each, minutes
 * of generation and verification); past the limit the region is left
 * unchanged. */
#define MAX_GENERATED_OPS 100000
/* Operations of a region's new code after unrolling: the largest hand
 * schedule of the benchmark kernels (3mm's v2-rt624) makes about 12,500;
 * a fuzzer-found sequence of five unrolls (gen-700034) made 48,000,
 * which LLVM's -O3 did not compile in 5 minutes. Past the limit the
 * region is left unchanged. */
#define MAX_UNROLLED_OPS 30000

struct gen {
	pearl_ctx *ctx;
	pearl_program *prog;
	const pearl_mlir_region *region;
	MlirContext mctx;
	MlirLocation loc;
	/* AST iterators in scope, outermost first, and their values. */
	isl_id *iter[MAX_LOOPS];
	MlirValue iv[MAX_LOOPS];
	struct pearl_index_range range[MAX_LOOPS]; /* the values of iv */
	int depth;
	/* Parameters: symbols of every map. */
	isl_id *param[MAX_PARAMS];
	MlirValue param_value[MAX_PARAMS];
	int n_param;
	/* Where new operations go: before `anchor` in `block`. */
	MlirBlock block;
	MlirOperation anchor;
	/* Loops to unroll once built (those right under an unroll mark) and
	 * their factors; the factor of the enclosing unroll mark. */
	MlirOperation unroll_op[MAX_UNROLL];
	int unroll_factor[MAX_UNROLL];
	int n_unroll;
	int pending_unroll;
	/* The loops below are innermost point loops (PEARL_POINT_MARK);
	 * loops created so far; the hint they get (null until needed). */
	int pending_point;
	int n_loops;
	MlirAttribute no_unroll;
	/* The vector width of the loop below (PEARL_VECTOR_MARK), 0 if
	 * none. */
	int pending_vector;
	/* Loops to precede with copies of their read-only arrays once built
	 * (those right under a copy mark, K); whether the loop below is one. */
	MlirOperation copy_op[MAX_COPY_LOOPS];
	int n_copy;
	int pending_copy;
	long n_inserted; /* operations inserted so far */
	/* The region's buffers private to a loop (privatize.h) and their
	 * expanded buffers, created on first use (null before). */
	struct pearl_mlir_private *privates;
	MlirValue *private_value;
	int n_privates;
	/* The function's entry block and its first operation before the
	 * copies (K): MLIR's copy generation puts the constants it needs at
	 * the top of the function, where gen_discard finds them. */
	MlirBlock entry;
	MlirOperation entry_first;
	int failed;
};

static void fail(struct gen *g, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static MlirLogicalResult quiet(MlirDiagnostic diag, void *user);

static void fail(struct gen *g, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	if (pearl_mlir_first_failure(&g->failed, msg, sizeof(msg), fmt, ap))
		pearl_ctx_error(g->ctx, "code generation: %s", msg);
	va_end(ap);
}

static void insert(struct gen *g, MlirOperation op)
{
	/* inserted all the same: the caller may still read it, and the
	 * generated code goes as a whole on failure */
	mlirBlockInsertOwnedOperationBefore(g->block, g->anchor, op);
	if (++g->n_inserted > MAX_GENERATED_OPS)
		fail(g, "the code would exceed %d operations (isl's "
		     "conditional expressions resolved into copies of the "
		     "statements)", MAX_GENERATED_OPS);
}

/* ---- isl_ast_expr -> MlirAffineExpr over (iterators; parameters) ---- */

static int n_dims(struct gen *g)
{
	return g->depth;
}

static MlirAffineExpr affine_expr(struct gen *g, __isl_keep isl_ast_expr *e);

static MlirAffineExpr null_expr(void)
{
	return (MlirAffineExpr){ NULL };
}

static MlirAffineExpr id_expr(struct gen *g, __isl_keep isl_id *id)
{
	int i;

	for (i = g->depth - 1; i >= 0; --i)
		if (g->iter[i] == id)
			return mlirAffineDimExprGet(g->mctx, i);
	for (i = 0; i < g->n_param; ++i)
		if (g->param[i] == id)
			return mlirAffineSymbolExprGet(g->mctx, i);
	fail(g, "unknown identifier %s", isl_id_get_name(id));
	return null_expr();
}

/* x mod c (c > 0), non-negative, written x + ceildiv(-x, c) * c, without
 * MLIR's `mod`: MLIR 22's folding of affine.for bounds (run by every
 * greedy rewrite, e.g. canonicalize or expand-strided-metadata) bounds
 * `x mod c` from below by the remainder of x's lower bound, which is
 * wrong whenever x spans more than one period, and then replaces a bound
 * `d0 mod 3` over d0 in [-16, 64) by the constant 2. MLIR recognizes
 * x - floordiv(x, c) * c as a mod; this form it does not, and it bounds
 * ceildiv correctly. */
static MlirAffineExpr remainder_expr(struct gen *g, MlirAffineExpr x,
				     MlirAffineExpr c)
{
	MlirAffineExpr minus_one = mlirAffineConstantExprGet(g->mctx, -1);
	MlirAffineExpr q;

	q = mlirAffineCeilDivExprGet(mlirAffineMulExprGet(x, minus_one), c);
	return mlirAffineAddExprGet(x, mlirAffineMulExprGet(q, c));
}

static MlirAffineExpr op_expr(struct gen *g, __isl_keep isl_ast_expr *e)
{
	enum isl_ast_expr_op_type type = isl_ast_expr_op_get_type(e);
	isl_size n = isl_ast_expr_op_get_n_arg(e);
	MlirAffineExpr a[2];
	int i;

	if (n < 1 || n > 2) {
		fail(g, "expression with %d arguments", (int)n);
		return null_expr();
	}
	for (i = 0; i < n; ++i) {
		isl_ast_expr *arg = isl_ast_expr_op_get_arg(e, i);
		a[i] = affine_expr(g, arg);
		isl_ast_expr_free(arg);
		if (mlirAffineExprIsNull(a[i]))
			return null_expr();
	}
	switch (type) {
	case isl_ast_expr_op_minus:
		return mlirAffineMulExprGet(a[0],
					    mlirAffineConstantExprGet(g->mctx, -1));
	case isl_ast_expr_op_add:
		return mlirAffineAddExprGet(a[0], a[1]);
	case isl_ast_expr_op_sub:
		return mlirAffineAddExprGet(
		    a[0], mlirAffineMulExprGet(
			      a[1], mlirAffineConstantExprGet(g->mctx, -1)));
	case isl_ast_expr_op_mul:
		if (!mlirAffineExprIsAConstant(a[0]) &&
		    !mlirAffineExprIsAConstant(a[1]))
			break;
		return mlirAffineMulExprGet(a[0], a[1]);
	case isl_ast_expr_op_div:    /* exact */
	case isl_ast_expr_op_fdiv_q: /* floor */
	case isl_ast_expr_op_pdiv_q: /* non-negative dividend */
		if (!mlirAffineExprIsAConstant(a[1]) ||
		    mlirAffineConstantExprGetValue(a[1]) <= 0)
			break;
		return mlirAffineFloorDivExprGet(a[0], a[1]);
	case isl_ast_expr_op_pdiv_r:
	case isl_ast_expr_op_zdiv_r: /* only compared with 0 */
		if (!mlirAffineExprIsAConstant(a[1]) ||
		    mlirAffineConstantExprGetValue(a[1]) <= 0)
			break;
		return remainder_expr(g, a[0], a[1]);
	default:
		break;
	}
	fail(g, "expression is not affine (isl operation %d)", (int)type);
	return null_expr();
}

/* The integer `v` (kept) as an index value in *out: 0, or -1 after
 * fail() if it is not an integer or does not fit in 64 bits (never a
 * wrapped or truncated number). */
static int val_to_index(struct gen *g, __isl_keep isl_val *v, int64_t *out)
{
	isl_ctx *ctx = isl_val_get_ctx(v);
	isl_val *min = isl_val_int_from_si(ctx, INT64_MIN);
	isl_val *max = isl_val_int_from_si(ctx, INT64_MAX);
	int fits = isl_val_is_int(v) == isl_bool_true &&
		   isl_val_ge(v, min) == isl_bool_true &&
		   isl_val_le(v, max) == isl_bool_true;
	char *text;

	isl_val_free(min);
	isl_val_free(max);
	if (fits) {
		*out = isl_val_get_num_si(v);
		return 0;
	}
	text = isl_val_to_str(v);
	fail(g, "the constant %s does not fit in 64-bit index arithmetic",
	     text ? text : "?");
	free(text);
	return -1;
}

/* 0 if `e` (over the iterators in scope) cannot overflow 64-bit index
 * arithmetic, its values in *range; else -1 after fail(), naming `e` as
 * `what` (a printf format with its arguments). */
static int check_range(struct gen *g, MlirAffineExpr e,
		       struct pearl_index_range *range, const char *what, ...)
    __attribute__((format(printf, 4, 5)));

static int check_range(struct gen *g, MlirAffineExpr e,
		       struct pearl_index_range *range, const char *what, ...)
{
	char name[128];
	va_list ap;

	if (pearl_index_range_of(e, g->range, g->depth, range) == 0)
		return 0;
	va_start(ap, what);
	vsnprintf(name, sizeof(name), what, ap);
	va_end(ap);
	fail(g, "%s could overflow 64-bit index arithmetic (with the loops' "
	     "values and symbols within +-2^40)", name);
	return -1;
}

static MlirAffineExpr affine_expr(struct gen *g, __isl_keep isl_ast_expr *e)
{
	MlirAffineExpr r = null_expr();
	isl_id *id;
	isl_val *v;
	int64_t c;

	switch (isl_ast_expr_get_type(e)) {
	case isl_ast_expr_id:
		id = isl_ast_expr_id_get_id(e);
		r = id_expr(g, id);
		isl_id_free(id);
		return r;
	case isl_ast_expr_int:
		v = isl_ast_expr_int_get_val(e);
		if (val_to_index(g, v, &c) == 0)
			r = mlirAffineConstantExprGet(g->mctx, c);
		isl_val_free(v);
		return r;
	case isl_ast_expr_op:
		return op_expr(g, e);
	default:
		fail(g, "unexpected expression");
		return null_expr();
	}
}

/* The results of bound `e`: the arguments of a min (upper) or max (lower)
 * at its top, flattened, each plus `add`. Returns the count or -1. */
static int bound_results(struct gen *g, __isl_keep isl_ast_expr *e,
			 enum isl_ast_expr_op_type fold, long add,
			 MlirAffineExpr *res, int max)
{
	int i, n = 0;

	if (isl_ast_expr_get_type(e) == isl_ast_expr_op &&
	    isl_ast_expr_op_get_type(e) == fold) {
		isl_size args = isl_ast_expr_op_get_n_arg(e);
		for (i = 0; i < args && !g->failed; ++i) {
			isl_ast_expr *arg = isl_ast_expr_op_get_arg(e, i);
			int k = bound_results(g, arg, fold, add, res + n,
					      max - n);
			isl_ast_expr_free(arg);
			if (k < 0)
				return -1;
			n += k;
		}
		return g->failed ? -1 : n;
	}
	if (max < 1) {
		fail(g, "too many bounds");
		return -1;
	}
	res[0] = affine_expr(g, e);
	if (mlirAffineExprIsNull(res[0]))
		return -1;
	if (add)
		res[0] = mlirAffineAddExprGet(
		    res[0], mlirAffineConstantExprGet(g->mctx, add));
	return 1;
}

static MlirAffineMap make_map(struct gen *g, MlirAffineExpr *res, int n)
{
	return mlirAffineMapGet(g->mctx, n_dims(g), g->n_param, n, res);
}

/* The operands of every map: the iterators in scope, then the parameters. */
static int map_operands(struct gen *g, MlirValue *ops)
{
	int i, n = 0;

	for (i = 0; i < g->depth; ++i)
		ops[n++] = g->iv[i];
	for (i = 0; i < g->n_param; ++i)
		ops[n++] = g->param_value[i];
	return n;
}

/* ---- condition expressions -> integer set constraints ---- */

/* Whether the constant condition `e` (kept, an isl_ast_expr_int, which
 * isl writes e.g. as "if (1)") holds: 1 or 0, or -1 on failure. */
static int condition_holds(struct gen *g, __isl_keep isl_ast_expr *e)
{
	isl_val *v = isl_ast_expr_int_get_val(e);
	isl_bool zero = isl_val_is_zero(v);

	isl_val_free(v);
	if (zero < 0) {
		fail(g, "out of memory");
		return -1;
	}
	return !zero;
}

/* Adds the constraints of `e` (a conjunction of comparisons and constants)
 * as e >= 0 /
 * e == 0 to cons / eq; returns the new count or -1. */
static int conditions(struct gen *g, __isl_keep isl_ast_expr *e,
		      MlirAffineExpr *cons, bool *eq, int n, int max)
{
	enum isl_ast_expr_op_type t;
	isl_ast_expr *l, *r;
	MlirAffineExpr lr[MAX_RESULTS], rr[MAX_RESULTS];
	int nl, nr, i, j;
	long shift = 0;
	int swap = 0, is_eq = 0;

	if (isl_ast_expr_get_type(e) == isl_ast_expr_int) {
		/* A constant conjunct: true adds nothing, false adds -1 >= 0. */
		int holds = condition_holds(g, e);

		if (holds < 0)
			return -1;
		if (holds)
			return n;
		if (n == max) {
			fail(g, "too many constraints");
			return -1;
		}
		cons[n] = mlirAffineConstantExprGet(g->mctx, -1);
		eq[n++] = false;
		return n;
	}
	if (isl_ast_expr_get_type(e) != isl_ast_expr_op) {
		fail(g, "condition is not a comparison");
		return -1;
	}
	t = isl_ast_expr_op_get_type(e);
	if (t == isl_ast_expr_op_and || t == isl_ast_expr_op_and_then) {
		l = isl_ast_expr_op_get_arg(e, 0);
		r = isl_ast_expr_op_get_arg(e, 1);
		n = conditions(g, l, cons, eq, n, max);
		if (n >= 0)
			n = conditions(g, r, cons, eq, n, max);
		isl_ast_expr_free(l);
		isl_ast_expr_free(r);
		return n;
	}
	switch (t) {
	case isl_ast_expr_op_eq: is_eq = 1; break;
	case isl_ast_expr_op_ge: break;               /* l - r >= 0 */
	case isl_ast_expr_op_gt: shift = -1; break;   /* l - r - 1 >= 0 */
	case isl_ast_expr_op_le: swap = 1; break;     /* r - l >= 0 */
	case isl_ast_expr_op_lt: swap = 1; shift = -1; break;
	default:
		fail(g, "condition with isl operation %d (e.g. a disjunction)",
		     (int)t);
		return -1;
	}
	l = isl_ast_expr_op_get_arg(e, swap);
	r = isl_ast_expr_op_get_arg(e, !swap);
	/* big >= small: a max on the right or a min on the left splits. */
	nl = bound_results(g, l, isl_ast_expr_op_min, 0, lr, MAX_RESULTS);
	nr = nl < 0 ? -1 : bound_results(g, r, isl_ast_expr_op_max, 0, rr,
					 MAX_RESULTS);
	isl_ast_expr_free(l);
	isl_ast_expr_free(r);
	if (nl < 0 || nr < 0)
		return -1;
	if (is_eq && (nl > 1 || nr > 1)) {
		fail(g, "equality with min/max");
		return -1;
	}
	for (i = 0; i < nl; ++i)
		for (j = 0; j < nr; ++j) {
			if (n == max) {
				fail(g, "too many constraints");
				return -1;
			}
			cons[n] = mlirAffineAddExprGet(
			    mlirAffineAddExprGet(
				lr[i], mlirAffineMulExprGet(
					   rr[j], mlirAffineConstantExprGet(
						      g->mctx, -1))),
			    mlirAffineConstantExprGet(g->mctx, shift));
			eq[n++] = is_eq;
		}
	return n;
}

/* ---- operation builders ---- */

static MlirNamedAttribute named(struct gen *g, const char *name,
				MlirAttribute attr)
{
	return mlirNamedAttributeGet(
	    mlirIdentifierGet(g->mctx, mlirStringRefCreateFromCString(name)),
	    attr);
}

/* A region holding one block with `n_args` index arguments and an
 * affine.yield; the block is returned in *body. */
static MlirRegion body_region(struct gen *g, int n_args, MlirBlock *body)
{
	MlirType index = mlirIndexTypeGet(g->mctx);
	MlirType types[1] = { index };
	MlirLocation locs[1] = { g->loc };
	MlirRegion region = mlirRegionCreate();
	MlirOperationState st;
	MlirBlock block;

	block = mlirBlockCreate(n_args, types, locs);
	mlirRegionAppendOwnedBlock(region, block);
	st = mlirOperationStateGet(mlirStringRefCreateFromCString("affine.yield"),
				   g->loc);
	mlirBlockAppendOwnedOperation(block, mlirOperationCreate(&st));
	*body = block;
	return region;
}

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

/* Asks LLVM not to unroll loop `op` (an affine.for, an innermost point
 * loop): the standard `loop_annotation` attribute, which MLIR's lowering
 * of scf.for turns into llvm.loop metadata. A point loop's trip count is
 * at most its tile size, and LLVM unrolls such a short loop completely
 * before its loop vectorizer runs, then does not vectorize the copies
 * (PolyBench gemm MEDIUM, 32 x 32 tiles: 0.65x of the untiled code, 1.0x
 * with the hint). MLIR's lower-affine drops the attribute; Pearl's own
 * lowering (lib/Env) carries it over to the scf.for. Nothing is added if
 * the context cannot parse it (the LLVM dialect is not loaded). */
static void hint_no_unroll(struct gen *g, MlirOperation op)
{
	MlirDiagnosticHandlerID handler;

	if (mlirAttributeIsNull(g->no_unroll)) {
		handler = mlirContextAttachDiagnosticHandler(g->mctx, quiet,
							     NULL, NULL);
		g->no_unroll = mlirAttributeParseGet(
		    g->mctx, mlirStringRefCreateFromCString(
				 "#llvm.loop_annotation<unroll = "
				 "<disable = true>>"));
		mlirContextDetachDiagnosticHandler(g->mctx, handler);
	}
	if (!mlirAttributeIsNull(g->no_unroll))
		mlirOperationSetDiscardableAttributeByName(
		    op, mlirStringRefCreateFromCString("loop_annotation"),
		    g->no_unroll);
}

/* Asks LLVM's loop vectorizer to vectorize loop `op` (an affine.for, an
 * innermost loop) by `width` lanes, and not to unroll it first if
 * `no_unroll` (an innermost point loop, see hint_no_unroll): the
 * `loop_annotation` attribute, as hint_no_unroll. */
static void hint_vectorize(struct gen *g, MlirOperation op, int width,
			   int no_unroll)
{
	MlirDiagnosticHandlerID handler;
	MlirAttribute attr;
	char text[160];

	snprintf(text, sizeof(text),
		 "#llvm.loop_annotation<%svectorize = <disable = false, "
		 "width = %d : i32>>",
		 no_unroll ? "unroll = <disable = true>, " : "", width);
	handler = mlirContextAttachDiagnosticHandler(g->mctx, quiet, NULL,
						     NULL);
	attr = mlirAttributeParseGet(g->mctx,
				     mlirStringRefCreateFromCString(text));
	mlirContextDetachDiagnosticHandler(g->mctx, handler);
	if (!mlirAttributeIsNull(attr))
		mlirOperationSetDiscardableAttributeByName(
		    op, mlirStringRefCreateFromCString("loop_annotation"),
		    attr);
}

/* ---- conditions ---- */

/* 0 if the n expressions cannot overflow (check_range), named `what` (a
 * format taking the depth); else -1 after fail(). */
static int check_ranges(struct gen *g, MlirAffineExpr *e, int n,
			const char *what)
{
	struct pearl_index_range r;
	int i;

	for (i = 0; i < n; ++i)
		if (check_range(g, e[i], &r, what, g->depth) < 0)
			return -1;
	return 0;
}

/* Creates an affine.if on `cond` (kept, a conjunction of comparisons) at
 * the insertion point, with an else block if `with_else`. Returns its
 * blocks in *then_body and *else_body (null without else), or -1 on
 * failure. */
static int create_if(struct gen *g, __isl_keep isl_ast_expr *cond,
		     int with_else, MlirBlock *then_body, MlirBlock *else_body)
{
	MlirAffineExpr cons[MAX_RESULTS];
	bool eq[MAX_RESULTS];
	MlirValue ops[MAX_LOOPS + MAX_PARAMS];
	MlirRegion regions[2];
	MlirOperationState st;
	MlirNamedAttribute attr;
	MlirOperation op;
	int n, nops;

	*else_body = (MlirBlock){ NULL };
	n = conditions(g, cond, cons, eq, 0, MAX_RESULTS);
	if (n == 0) { /* only true constants: an integer set needs 0 >= 0 */
		cons[n] = mlirAffineConstantExprGet(g->mctx, 0);
		eq[n++] = false;
	}
	if (n < 0 || check_ranges(g, cons, n, "a condition at depth %d") < 0)
		return -1;
	nops = map_operands(g, ops);
	regions[0] = body_region(g, 0, then_body);
	regions[1] = with_else ? body_region(g, 0, else_body)
			       : mlirRegionCreate();
	st = mlirOperationStateGet(mlirStringRefCreateFromCString("affine.if"),
				   g->loc);
	attr = named(g, "condition", mlirIntegerSetAttrGet(mlirIntegerSetGet(
	    g->mctx, n_dims(g), g->n_param, n, cons, eq)));
	mlirOperationStateAddAttributes(&st, 1, &attr);
	mlirOperationStateAddOperands(&st, nops, ops);
	mlirOperationStateAddOwnedRegions(&st, 2, regions);
	op = mlirOperationCreate(&st);
	if (mlirOperationIsNull(op)) {
		fail(g, "could not create a condition");
		return -1;
	}
	insert(g, op);
	return 0;
}

/* Generates what a decision leads to, at the insertion point. */
typedef void (*gen_leaf_fn)(struct gen *g, void *user);

/* At most this many copies of what one condition leads to (a conjunction
 * of disjunctions multiplies them). */
#define MAX_COPIES 64

/* A decision: test `cond` (kept, a condition of isl's AST without
 * conditional expressions), then go on with `yes` where it holds and with
 * `no` where it does not; or, with a null `cond`, a leaf that calls
 * fn(g, user) (nothing if fn is null). *copies counts the leaves generated
 * for one condition of the AST. */
struct decision {
	isl_ast_expr *cond;
	const struct decision *yes, *no;
	gen_leaf_fn fn;
	void *user;
	int *copies;
};

static void gen_decision(struct gen *g, const struct decision *d);

/* Whether decision `d` generates anything. */
static int decision_is_empty(const struct decision *d)
{
	return !d->cond && !d->fn;
}

/* gen_decision of `d` inside `body`. */
static void gen_decision_in(struct gen *g, MlirBlock body,
			    const struct decision *d)
{
	MlirBlock saved_block = g->block;
	MlirOperation saved_anchor = g->anchor;

	g->block = body;
	g->anchor = mlirBlockGetTerminator(body);
	gen_decision(g, d);
	g->block = saved_block;
	g->anchor = saved_anchor;
}

/* Generates the leaf `d`, unless the condition it belongs to has been
 * copied too often. */
static void gen_leaf(struct gen *g, const struct decision *d)
{
	if (!d->fn)
		return;
	if (++*d->copies > MAX_COPIES)
		fail(g, "a condition whose disjunctions need more than %d "
		     "copies of what it guards", MAX_COPIES);
	else
		d->fn(g, d->user);
}

/* Decision `d` on a condition without disjunction (a conjunction of
 * comparisons): one affine.if, with an else block unless `no` is empty. */
static void gen_test(struct gen *g, const struct decision *d)
{
	int with_else = !decision_is_empty(d->no);
	MlirBlock then_body, else_body;

	if (create_if(g, d->cond, with_else, &then_body, &else_body) < 0)
		return;
	gen_decision_in(g, then_body, d->yes);
	if (with_else && !g->failed)
		gen_decision_in(g, else_body, d->no);
}

/* Decision `d` on "a || b" or "a && b" (`is_or`): a tested first, then b
 * where a does not hold (or) or where it holds (and). What `d` leads to is
 * generated once per path: each instance runs once. */
static void gen_binary(struct gen *g, const struct decision *d, int is_or)
{
	isl_ast_expr *a = NULL, *b = NULL;
	struct decision second = *d, first = *d;

	if (isl_ast_expr_op_get_n_arg(d->cond) != 2)
		fail(g, "condition with %d operands",
		     (int)isl_ast_expr_op_get_n_arg(d->cond));
	else if (!(a = isl_ast_expr_op_get_arg(d->cond, 0)) ||
		 !(b = isl_ast_expr_op_get_arg(d->cond, 1)))
		fail(g, "out of memory");
	if (!g->failed) {
		second.cond = b;
		first.cond = a;
		if (is_or)
			first.no = &second;
		else
			first.yes = &second;
		gen_decision(g, &first);
	}
	isl_ast_expr_free(a);
	isl_ast_expr_free(b);
}

/* Decision `d` on a conjunction with a disjunction in it: its conjuncts
 * without disjunction in one affine.if, and the others inside it; if all
 * have one, one conjunct after the other. */
static void gen_and(struct gen *g, const struct decision *d)
{
	isl_ast_expr *pure, *rest;
	struct decision second = *d, first = *d;

	if (pearl_ast_expr_split_and(d->cond, &pure, &rest) < 0) {
		fail(g, "out of memory");
		return;
	}
	if (!pure) {
		gen_binary(g, d, 0);
	} else {
		second.cond = rest;
		first.cond = pure;
		first.yes = &second;
		gen_decision(g, &first);
	}
	isl_ast_expr_free(pure);
	isl_ast_expr_free(rest);
}

/* Generates decision `d`: a disjunction, or a conjunction with one in it,
 * which an affine.if cannot hold, becomes nested affine.ifs on its parts,
 * e.g. "if (a || b) S" becomes "if (a) S else if (b) S" and
 * "if (a && (b || c)) S else T" becomes
 * "if (a) { if (b) S else if (c) S else T } else T". */
static void gen_decision(struct gen *g, const struct decision *d)
{
	isl_bool has_or;

	if (g->failed)
		return;
	if (!d->cond) {
		gen_leaf(g, d);
		return;
	}
	if (isl_ast_expr_get_type(d->cond) == isl_ast_expr_int) {
		int holds = condition_holds(g, d->cond);

		if (holds >= 0)
			gen_decision(g, holds ? d->yes : d->no);
		return;
	}
	has_or = pearl_ast_expr_has_or(d->cond);
	if (has_or < 0)
		fail(g, "out of memory");
	else if (!has_or)
		gen_test(g, d);
	else if (pearl_ast_expr_is_or(d->cond))
		gen_binary(g, d, 1);
	else if (pearl_ast_expr_is_and(d->cond))
		gen_and(g, d);
	else
		fail(g, "condition with a disjunction inside an operand");
}

/* Generates what holds where `cond` (kept) holds with yes(g, yes_user),
 * and where it does not with no(g, no_user) (nothing if `no` is null). */
static void gen_cond(struct gen *g, __isl_keep isl_ast_expr *cond,
		     gen_leaf_fn yes, void *yes_user, gen_leaf_fn no,
		     void *no_user)
{
	int copies = 0;
	struct decision then = { NULL, NULL, NULL, yes, yes_user, &copies };
	struct decision other = { NULL, NULL, NULL, no, no_user, &copies };
	struct decision root = { cond, &then, &other, NULL, NULL, &copies };

	gen_decision(g, &root);
}

/* ---- conditional expressions ---- */

/* Generates one AST node from expressions (kept) whose conditional
 * expressions are resolved. */
typedef void (*gen_exprs_fn)(struct gen *g, isl_ast_expr **exprs,
			     void *user);

#define MAX_EXPRS 4

static void gen_resolved(struct gen *g, isl_ast_expr **exprs, int n,
			 gen_exprs_fn fn, void *user);

/* One value of a conditional expression: the n expressions with `sel`
 * replaced by `by` (all kept), and what to generate from them. */
struct select_arm {
	isl_ast_expr **exprs;
	int n;
	isl_ast_expr *sel, *by;
	gen_exprs_fn fn;
	void *user;
};

/* gen_resolved on the expressions of `user` (a struct select_arm) with
 * its conditional expression replaced by its value. */
static void gen_arm(struct gen *g, void *user)
{
	struct select_arm *arm = user;
	isl_ast_expr *copy[MAX_EXPRS];
	int i;

	for (i = 0; i < arm->n; ++i)
		if (!(copy[i] = pearl_ast_expr_replace(
			  isl_ast_expr_copy(arm->exprs[i]), arm->sel, arm->by)))
			fail(g, "out of memory");
	if (!g->failed)
		gen_resolved(g, copy, arm->n, arm->fn, arm->user);
	for (i = 0; i < arm->n; ++i)
		isl_ast_expr_free(copy[i]);
}

/* Calls fn on the n expressions (kept) once their conditional expressions
 * "c ? a : b" (which affine maps cannot hold: isl writes them, e.g., for
 * the value of a loop that runs once, defined piecewise) are resolved:
 * each becomes an affine.if on c (gen_cond), with the expressions taking a
 * in its then block and b in its else block, and fn called in both. */
static void gen_resolved(struct gen *g, isl_ast_expr **exprs, int n,
			 gen_exprs_fn fn, void *user)
{
	struct select_arm arm[2];
	isl_ast_expr *sel = NULL, *cond;
	int i;

	for (i = 0; i < n && !sel; ++i)
		sel = pearl_ast_expr_find_select(exprs[i]);
	if (!sel) {
		fn(g, exprs, user);
		return;
	}
	cond = isl_ast_expr_op_get_arg(sel, 0);
	for (i = 0; i < 2; ++i)
		arm[i] = (struct select_arm){ exprs, n, sel,
			isl_ast_expr_op_get_arg(sel, 1 + i), fn, user };
	if (!cond || !arm[0].by || !arm[1].by)
		fail(g, "out of memory");
	else
		gen_cond(g, cond, gen_arm, &arm[0], gen_arm, &arm[1]);
	for (i = 0; i < 2; ++i)
		isl_ast_expr_free(arm[i].by);
	isl_ast_expr_free(cond);
	isl_ast_expr_free(sel);
}

/* ---- loops and conditions ---- */

/* The bounds of the loop with iterator `iter`, condition `cond`, initial
 * value `init` and increment `inc` (all kept): lb[0..*nlb) (a max) and
 * ub[0..*nub) (a min, exclusive), and its step in *step. 0, or -1 after
 * fail(). */
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
		fail(g, "loops nested too deeply");
	else if (!v || val_to_index(g, v, step) < 0 || *step < 1)
		fail(g, "loop step is not a positive constant");
	else if (ct != isl_ast_expr_op_le && ct != isl_ast_expr_op_lt)
		fail(g, "loop condition is not an upper bound");
	isl_val_free(v);
	if (g->failed)
		return -1;
	lhs = isl_ast_expr_op_get_arg(cond, 0);
	if (isl_ast_expr_is_equal(lhs, iter) != isl_bool_true)
		fail(g, "loop condition does not bound the iterator");
	isl_ast_expr_free(lhs);
	upper = isl_ast_expr_op_get_arg(cond, 1);
	*nlb = g->failed ? -1 : bound_results(g, init, isl_ast_expr_op_max, 0,
					      lb, MAX_RESULTS);
	*nub = *nlb < 0 ? -1 : bound_results(g, upper, isl_ast_expr_op_min,
					     ct == isl_ast_expr_op_le ? 1 : 0,
					     ub, MAX_RESULTS);
	isl_ast_expr_free(upper);
	return *nlb > 0 && *nub > 0 && !g->failed ? 0 : -1;
}

/* The values of the iterator of the loop at the current depth with bounds
 * lb[0..nlb) (a max) and ub[0..nub) (a min, exclusive) and step `step`,
 * into *iv; 0, or -1 after fail() if a bound or the increment past the
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
		if (check_range(g, lb[i], &r, "the lower bound of the loop at "
				"depth %d", g->depth) < 0)
			return -1;
		iv->lo = i == 0 || r.lo > iv->lo ? r.lo : iv->lo;
	}
	for (i = 0; i < nub; ++i) {
		if (check_range(g, ub[i], &r, "the upper bound of the loop at "
				"depth %d", g->depth) < 0)
			return -1;
		iv->hi = i == 0 || r.hi < iv->hi ? r.hi : iv->hi;
	}
	if (__builtin_sub_overflow(iv->hi, 1, &last) ||
	    __builtin_add_overflow(last, step, &next)) {
		fail(g, "the increment of the loop at depth %d past its last "
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
	int n = map_operands(g, ops), i;

	for (i = 0; i < n; ++i)
		ops[n + i] = ops[i];
	region = body_region(g, 1, body);
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
		attrs[0] = named(g, "lowerBoundsMap", mlirAffineMapAttrGet(
		    make_map(g, lb, nlb)));
		attrs[1] = named(g, "lowerBoundsGroups",
				 mlirDenseElementsAttrInt32Get(groups, 1, &nl));
		attrs[2] = named(g, "upperBoundsMap", mlirAffineMapAttrGet(
		    make_map(g, ub, nub)));
		attrs[3] = named(g, "upperBoundsGroups",
				 mlirDenseElementsAttrInt32Get(groups, 1, &nu));
		attrs[4] = named(g, "steps", mlirArrayAttrGet(g->mctx, 1, &s));
		attrs[5] = named(g, "reductions",
				 mlirArrayAttrGet(g->mctx, 0, NULL));
		mlirOperationStateAddAttributes(&st, 6, attrs);
	} else {
		int32_t seg[3] = { n, n, 0 };

		st = mlirOperationStateGet(mlirStringRefCreateFromCString(
					       "affine.for"), g->loc);
		attrs[0] = named(g, "lowerBoundMap", mlirAffineMapAttrGet(
		    make_map(g, lb, nlb)));
		attrs[1] = named(g, "upperBoundMap", mlirAffineMapAttrGet(
		    make_map(g, ub, nub)));
		attrs[2] = named(g, "step", mlirIntegerAttrGet(
		    mlirIndexTypeGet(g->mctx), step));
		attrs[3] = named(g, "operandSegmentSizes",
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

	insert(g, op);
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
		hint_vectorize(g, op, vector,
			       point && !parallel && g->n_loops == loops_so_far);
	else if (point && !parallel && g->n_loops == loops_so_far)
		hint_no_unroll(g, op);
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
			fail(g, "could not create a loop");
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
	gen_resolved(g, exprs, 2, gen_loop, &f);
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

	gen_cond(g, exprs[0], gen_then, node, has_else ? gen_else : NULL,
		 node);
}

static void gen_if(struct gen *g, __isl_keep isl_ast_node *node)
{
	isl_ast_expr *cond = isl_ast_node_if_get_cond(node);

	gen_resolved(g, &cond, 1, gen_if_cond, node);
	isl_ast_expr_free(cond);
}

/* ---- statements ---- */

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
	map = named(g, "map", mlirAffineMapAttrGet(mlirAffineMapGet(
				  g->mctx, 1, 0, 1, &index)));
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
					fail(g, "an operand defined inside the "
					     "nest is not available");
			}
			insert(g, c);
			for (i = 0; i < mlirOperationGetNumResults(op); ++i)
				if (map_add(m, mlirOperationGetResult(op, i),
					    mlirOperationGetResult(c, i)) < 0)
					fail(g, "out of memory");
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
	int nops = map_operands(g, ops), k;

	for (k = 0; k < depth && !g->failed; ++k) {
		isl_ast_expr *arg = isl_ast_expr_op_get_arg(call, k + 1);
		MlirAffineExpr e = affine_expr(g, arg);
		MlirOperation loop = loops[depth - 1 - k];
		MlirOperationState st;
		MlirNamedAttribute attr;
		MlirOperation apply;

		isl_ast_expr_free(arg);
		if (mlirAffineExprIsNull(e) ||
		    check_ranges(g, &e, 1, "an iterator of a statement at "
				 "depth %d") < 0)
			break;
		st = mlirOperationStateGet(
		    mlirStringRefCreateFromCString("affine.apply"), g->loc);
		attr = named(g, "map", mlirAffineMapAttrGet(make_map(g, &e, 1)));
		mlirOperationStateAddAttributes(&st, 1, &attr);
		mlirOperationStateAddOperands(&st, nops, ops);
		mlirOperationStateAddResults(&st, 1, &index);
		apply = mlirOperationCreate(&st);
		insert(g, apply);
		if (map_add(m, mlirBlockGetArgument(pearl_mlir_body(loop, 0), 0),
			    mlirOperationGetResult(apply, 0)) < 0)
			fail(g, "out of memory");
	}
}

/* Generates the statement call exprs[0] (kept, without conditional
 * expressions): its original iterators recomputed from the new ones, then
 * the operations that compute the stored value and the store, cloned. */
static void gen_call(struct gen *g, isl_ast_expr **exprs, void *user)
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
		fail(g, "unknown statement");
		return;
	}
	depth = original_loops(g, store, loops);
	if (depth != nargs - 1)
		fail(g, "statement %s has %d loops but %d arguments",
		     isl_id_get_name(pearl_program_stmt_id(g->prog, s)), depth,
		     (int)nargs - 1);
	else
		apply_iterators(g, call, loops, depth, &m);
	if (!g->failed && collect(g, store, &need, &n, &cap) < 0)
		fail(g, "out of memory");
	if (!g->failed)
		clone_in_order(g, g->region->first, g->region->last, need, n,
			       &m);
	free(need);
	free(m.from);
	free(m.to);
}

static void gen_user(struct gen *g, __isl_keep isl_ast_node *node)
{
	isl_ast_expr *call = isl_ast_node_user_get_expr(node);

	gen_resolved(g, &call, 1, gen_call, NULL);
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
		fail(g, "unexpected AST node");
	}
}

/* Swallows diagnostics while the new operations are verified. */
static MlirLogicalResult quiet(MlirDiagnostic diag, void *user)
{
	(void)diag;
	(void)user;
	return mlirLogicalResultSuccess();
}

/* The generator's state for `region` of `prog`: where the new operations
 * go, the region's private buffers, the values of the parameters of
 * `space` (the domain's).  Failures are recorded in g. */
static void gen_start(struct gen *g, pearl_ctx *ctx,
		      const pearl_mlir_region *region, pearl_program *prog,
		      __isl_keep isl_space *space)
{
	MlirOperation first = region->first, last = region->last;
	int i;

	g->ctx = ctx;
	g->prog = prog;
	g->region = region;
	g->mctx = mlirOperationGetContext(first);
	g->loc = mlirOperationGetLocation(first);
	g->block = mlirOperationGetBlock(first);
	g->anchor = mlirOperationGetNextInBlock(last);
	g->n_param = isl_space_dim(space, isl_dim_param);
	if (g->n_param > MAX_PARAMS || mlirOperationIsNull(g->anchor))
		fail(g, "region shape not supported");
	g->n_privates = pearl_mlir_find_privates(region, &g->privates);
	g->private_value =
	    g->n_privates > 0 ? calloc(g->n_privates, sizeof(*g->private_value))
			      : NULL;
	if (g->n_privates < 0 || (g->n_privates > 0 && !g->private_value))
		fail(g, "out of memory");
	for (i = 0; i < g->n_param && !g->failed; ++i) {
		g->param[i] = isl_space_get_dim_id(space, isl_dim_param, i);
		g->param_value[i].ptr = isl_id_get_user(g->param[i]);
		isl_id_free(g->param[i]); /* the domain keeps it alive */
		if (!g->param_value[i].ptr)
			fail(g, "parameter %s has no value",
			     isl_id_get_name(g->param[i]));
	}
}

/* Copies the read-only arrays of the loops recorded under copy marks (K)
 * into local buffers, before the loops are unrolled: unrolling may replace
 * the loops recorded for the copies, while the copies only add operations
 * around their loop and redirect loads inside it. Counts the arrays
 * copied in *copied, those left as they were in *not_copied, of which
 * those whose copy would read outside the array in *outside. */
static void gen_copy(struct gen *g, int *copied, int *not_copied,
		     int *outside)
{
	int i, failed, out;

	for (i = 0; i < g->n_copy && !g->failed; ++i) {
		int n = pearl_mlir_copy_read_only(g->copy_op[i], &failed, &out);

		if (n < 0)
			fail(g, "a copy of K would read outside its array "
			     "(MLIR's copy generation)");
		else
			*copied += n;
		*not_copied += failed + out;
		*outside += out;
	}
}

/* The attribute that marks a loop to unroll, with its factor, while
 * gen_unroll runs. */
#define UNROLL_ATTR "pearl.unroll"
/* Rounds of gen_unroll: each unrolls the marked loops it finds, and the
 * copies of marked loops made meanwhile wait for the next round. */
#define MAX_UNROLL_ROUNDS 8

/* The marked loops under the new code, inner first (post-order). */
struct marked {
	MlirOperation op[MAX_UNROLL];
	int n;
};

static MlirWalkResult collect_marked(MlirOperation op, void *user)
{
	struct marked *m = user;

	if (m->n < MAX_UNROLL &&
	    !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(
		op, mlirStringRefCreateFromCString(UNROLL_ATTR))))
		m->op[m->n++] = op;
	return MlirWalkResultAdvance;
}

/* Walks every operation of the new code (between the region and the
 * anchor, nested ones included) with `fn`, in `order`. */
static void walk_new_code(struct gen *g, MlirOperationWalkCallback fn,
			  void *user, MlirWalkOrder order)
{
	MlirOperation op;

	for (op = mlirOperationGetNextInBlock(g->region->last);
	     !mlirOperationEqual(op, g->anchor);
	     op = mlirOperationGetNextInBlock(op))
		mlirOperationWalk(op, fn, user, order);
}

/* Collects the marked loops of the new code in *m. */
static void find_marked(struct gen *g, struct marked *m)
{
	m->n = 0;
	walk_new_code(g, collect_marked, m, MlirWalkPostOrder);
}

/* Unrolls the loops recorded under unroll marks, before the new code is
 * verified, so that the unrolled code is verified. The loops are marked
 * with UNROLL_ATTR and unrolled inner first, round by round: unrolling
 * an inner loop first keeps the outer one (unrolling the outer loop
 * first would leave the inner loop's record dangling: two
 * unroll-and-jams of one nest, J(1,4) then J(0,5), a crash found by
 * fuzzing, gen-140003), and versioning an inner loop's bounds may copy
 * the loops around it (the condition hoisted out of them), copies that
 * keep the mark and are unrolled in the next round (without that, the
 * full tiles of `J(0,6) J(1,16)` kept their i loop). Counts the loops
 * left to LLVM's vectorizer in *vect, those kept as loops in *kept. */
static void gen_unroll(struct gen *g, int *vect, int *kept)
{
	MlirStringRef name = mlirStringRefCreateFromCString(UNROLL_ATTR);
	MlirType i64 = mlirIntegerTypeGet(g->mctx, 64);
	struct marked *m;
	int i, round;

	for (i = 0; i < g->n_unroll; ++i)
		if (g->unroll_factor[i] < 0)
			(*vect)++;
		else if (mlirOperationIsNull(g->unroll_op[i]))
			(*kept)++;
		else
			mlirOperationSetDiscardableAttributeByName(
			    g->unroll_op[i], name,
			    mlirIntegerAttrGet(i64, g->unroll_factor[i]));
	m = malloc(sizeof(*m));
	if (!m) {
		fail(g, "out of memory");
		return;
	}
	for (round = 0; round < MAX_UNROLL_ROUNDS && !g->failed; ++round) {
		find_marked(g, m);
		if (m->n == 0)
			break;
		for (i = 0; i < m->n; ++i) {
			MlirAttribute f =
			    mlirOperationGetDiscardableAttributeByName(
				m->op[i], name);

			mlirOperationRemoveDiscardableAttributeByName(
			    m->op[i], name);
			if (!pearl_mlir_unroll_loop(
				m->op[i], (int)mlirIntegerAttrGetValueInt(f)) &&
			    *kept < g->n_unroll)
				(*kept)++;
		}
	}
	/* Marks left after the last round go; their loops stay loops. */
	find_marked(g, m);
	for (i = 0; i < m->n; ++i)
		mlirOperationRemoveDiscardableAttributeByName(m->op[i], name);
	free(m);
}

/* Keeps the elements the innermost loops of the new code update in place
 * in registers across those loops (pearl_mlir_promote_invariant), after
 * unrolling: an unroll-and-jam's copies then update their elements of C
 * in registers across the k loop. */
static void gen_promote(struct gen *g)
{
	MlirOperation op, next, end = g->anchor;

	/* `op` itself may be replaced (a loop with iter_args, under a
	 * condition), in its place: the next one is taken first. */
	for (op = mlirOperationGetNextInBlock(g->region->last);
	     !g->failed && !mlirOperationEqual(op, end); op = next) {
		next = mlirOperationGetNextInBlock(op);
		pearl_mlir_promote_invariant(op);
	}
}

static MlirWalkResult count_op(MlirOperation op, void *user)
{
	(void)op;
	++*(long *)user;
	return MlirWalkResultAdvance;
}

/* Fails if the new code (between the region and the anchor) holds more
 * than MAX_UNROLLED_OPS operations. */
static void gen_check_size(struct gen *g)
{
	long n = 0;

	if (g->failed)
		return;
	walk_new_code(g, count_op, &n, MlirWalkPreOrder);
	if (n > MAX_UNROLLED_OPS)
		fail(g, "the unrolled code would exceed %d operations (%ld)",
		     MAX_UNROLLED_OPS, n);
}

/* Fails unless every new operation (between the region and the anchor)
 * verifies; the diagnostics of the verifier are swallowed. */
static void gen_verify(struct gen *g)
{
	MlirOperation op, end = g->anchor;
	MlirDiagnosticHandlerID handler;
	int ok = 1;

	handler = mlirContextAttachDiagnosticHandler(g->mctx, quiet, NULL,
						     NULL);
	for (op = mlirOperationGetNextInBlock(g->region->last);
	     !g->failed && !mlirOperationEqual(op, end);
	     op = mlirOperationGetNextInBlock(op))
		if (!mlirOperationVerify(op))
			ok = 0;
	mlirContextDetachDiagnosticHandler(g->mctx, handler);
	if (!g->failed && !ok)
		fail(g, "the generated operations do not verify");
}

/* Whether no result of `op` has a use. */
static int unused(MlirOperation op)
{
	intptr_t i, n = mlirOperationGetNumResults(op);

	for (i = 0; i < n; ++i)
		if (!mlirOpOperandIsNull(mlirValueGetFirstUse(
			mlirOperationGetResult(op, i))))
			return 0;
	return 1;
}

/* After a failure: the operations the copies (K) put at the top of the
 * function before its first one, now unused, go. */
static void discard_entry_constants(struct gen *g)
{
	MlirOperation op;

	if (mlirBlockIsNull(g->entry) || mlirOperationIsNull(g->entry_first))
		return;
	while (!mlirOperationEqual(op = mlirBlockGetFirstOperation(g->entry),
				   g->entry_first) &&
	       pearl_mlir_op_is(op, "arith.constant") && unused(op))
		mlirOperationDestroy(op);
}

/* The func.func around `op` (kept), or a null operation. */
static MlirOperation enclosing_function(MlirOperation op)
{
	for (op = mlirOperationGetParentOperation(op);
	     !mlirOperationIsNull(op);
	     op = mlirOperationGetParentOperation(op))
		if (pearl_mlir_op_is(op, "func.func"))
			return op;
	return (MlirOperation){ NULL };
}

/* After a failure: the new operations and expanded private buffers go,
 * the region stays as it was. */
static void gen_discard(struct gen *g)
{
	MlirOperation op, next;
	int i;

	/* Last first: an operation goes after every operation that uses its
	 * results (K's buffer is allocated in the block, before the loop
	 * that reads it; destroying the allocation first left that loop's
	 * loads with a freed operand, and the heap corrupt). The C API has no
	 * previous operation: the last is found from the first each time
	 * (a failure path, over the few operations of the region's block). */
	while (!mlirOperationEqual(
	    op = mlirOperationGetNextInBlock(g->region->last), g->anchor)) {
		while (!mlirOperationEqual(
		    next = mlirOperationGetNextInBlock(op), g->anchor))
			op = next;
		mlirOperationDestroy(op);
	}
	for (i = 0; i < g->n_privates && g->private_value; ++i)
		if (!mlirValueIsNull(g->private_value[i]))
			mlirOperationDestroy(
			    mlirOpResultGetOwner(g->private_value[i]));
	discard_entry_constants(g);
}

/* After a success: the old loops, conditions and stores go (the values
 * computed between them stay: they may be used later), and so do the
 * private buffers replaced by expanded ones. */
static void gen_replace(struct gen *g)
{
	MlirOperation op, next;
	int i;

	for (op = g->region->first;; op = next) {
		int stop = mlirOperationEqual(op, g->region->last);

		next = mlirOperationGetNextInBlock(op);
		if (pearl_mlir_op_is(op, "affine.for") ||
		    pearl_mlir_op_is(op, "affine.if") ||
		    pearl_mlir_op_is(op, "affine.store"))
			mlirOperationDestroy(op);
		if (stop)
			break;
	}
	/* A private buffer's every use was in the old nest. */
	for (i = 0; i < g->n_privates; ++i)
		if (!mlirValueIsNull(g->private_value[i]) &&
		    mlirOpOperandIsNull(
			mlirValueGetFirstUse(g->privates[i].memref)))
			mlirOperationDestroy(
			    mlirOpResultGetOwner(g->privates[i].memref));
}

/* The remarks on the loops to unroll that were not unrolled. */
static void gen_report_unrolls(struct gen *g, int vect, int kept)
{
	char msg[160];

	if (vect) {
		snprintf(msg, sizeof(msg), "pearl-schedule: %d of %d loops to "
			 "unroll left to LLVM's vectorizer (no carried "
			 "dependence)", vect, g->n_unroll);
		pearl_mlir_emit_remark(g->loc, msg);
	}
	if (kept) {
		snprintf(msg, sizeof(msg), "pearl-schedule: %d of %d loops to "
			 "unroll kept as loops (parallel, or bounds with too "
			 "many max/min terms)", kept, g->n_unroll);
		pearl_mlir_emit_remark(g->loc, msg);
	}
}

/* The remark on the copies of K, if the schedule asked for any. */
static void gen_report_copies(struct gen *g, int copied, int not_copied,
			      int outside)
{
	char msg[300];

	if (!g->n_copy)
		return;
	if (outside)
		snprintf(msg, sizeof(msg), "pearl-schedule: %d array(s) copied "
			 "before %d loop(s) (K), %d not, of which %d because "
			 "the copy MLIR would make may read outside the array "
			 "(e.g. the box of a partial tile)", copied, g->n_copy,
			 not_copied, outside);
	else if (not_copied)
		snprintf(msg, sizeof(msg), "pearl-schedule: %d array(s) copied "
			 "before %d loop(s) (K), %d not: another use in the "
			 "loop, a box of no constant size or one too costly "
			 "to compute", copied, g->n_copy, not_copied);
	else
		snprintf(msg, sizeof(msg), "pearl-schedule: %d array(s) copied "
			 "before %d loop(s) (K)", copied, g->n_copy);
	pearl_mlir_emit_remark(g->loc, msg);
}

pearl_stat pearl_mlir_codegen(pearl_ctx *ctx, const pearl_mlir_region *region,
			      pearl_program *prog,
			      __isl_keep isl_ast_node *tree)
{
	isl_union_set *dom = pearl_program_get_domain(prog);
	isl_space *space = isl_union_set_get_space(dom);
	struct gen g = { 0 };
	int kept = 0, vect = 0, copied = 0, not_copied = 0, outside = 0;
	MlirOperation func;

	gen_start(&g, ctx, region, prog, space);
	gen_node(&g, tree, 0);
	func = enclosing_function(g.anchor);
	if (!mlirOperationIsNull(func)) {
		g.entry = mlirRegionGetFirstBlock(
		    mlirOperationGetRegion(func, 0));
		g.entry_first = mlirBlockGetFirstOperation(g.entry);
	}
	gen_copy(&g, &copied, &not_copied, &outside);
	gen_unroll(&g, &vect, &kept);
	gen_check_size(&g);
	gen_promote(&g);
	gen_verify(&g);
	if (g.failed)
		gen_discard(&g);
	else
		gen_replace(&g);
	/* The rewritten code relies on the model's no-alias rule: the
	 * function says so, for the lowering's alias scopes
	 * (pearl/mlir_alias_scopes.h). */
	if (!g.failed && !mlirOperationIsNull(func))
		pearl_mark_noalias_memref_args(func);
	free(g.privates);
	free(g.private_value);
	if (!g.failed) {
		gen_report_unrolls(&g, vect, kept);
		gen_report_copies(&g, copied, not_copied, outside);
	}
	isl_space_free(space);
	isl_union_set_free(dom);
	return g.failed ? pearl_stat_error : pearl_stat_ok;
}
