/* The region around the walk of the code generator (codegen_state.h):
 * the state at its start; after the walk, the copies of K, unrolling,
 * promotion to registers, the size check and verification, then the old
 * code replaced by the new one or the new one discarded; the remarks. */
#include <isl/id.h>
#include <isl/space.h>
#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen_state.h"
#include "mlir_util.h"

void cg_start(struct gen *g, pearl_ctx *ctx, const pearl_mlir_region *region,
	      pearl_program *prog, __isl_keep isl_space *space)
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
		cg_fail(g, "region shape not supported");
	g->n_privates = pearl_mlir_find_privates(region, &g->privates);
	g->private_value =
	    g->n_privates > 0 ? calloc(g->n_privates, sizeof(*g->private_value))
			      : NULL;
	if (g->n_privates < 0 || (g->n_privates > 0 && !g->private_value))
		cg_fail(g, "out of memory");
	for (i = 0; i < g->n_param && !g->failed; ++i) {
		g->param[i] = isl_space_get_dim_id(space, isl_dim_param, i);
		g->param_value[i].ptr = isl_id_get_user(g->param[i]);
		isl_id_free(g->param[i]); /* the domain keeps it alive */
		if (!g->param_value[i].ptr)
			cg_fail(g, "parameter %s has no value",
				isl_id_get_name(g->param[i]));
	}
}

void cg_copy(struct gen *g, int *copied, int *not_copied, int *outside)
{
	int i, failed, out;

	for (i = 0; i < g->n_copy && !g->failed; ++i) {
		int n = pearl_mlir_copy_read_only(g->copy_op[i], &failed, &out);

		if (n < 0)
			cg_fail(g, "a copy of K would read outside its array "
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

void cg_unroll(struct gen *g, int *vect, int *kept)
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
		cg_fail(g, "out of memory");
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

void cg_promote(struct gen *g)
{
	MlirOperation op, next, end = g->anchor;

	/* `op` itself may be replaced (a loop with iter_args, under a
	 * condition), in its place: the next one is taken first. */
	for (op = mlirOperationGetNextInBlock(g->region->last);
	     !g->failed && !mlirOperationEqual(op, end); op = next) {
		int by_stride;

		next = mlirOperationGetNextInBlock(op);
		pearl_mlir_promote_invariant(op, &by_stride);
		g->n_stride_promoted += by_stride;
	}
}

static MlirWalkResult count_op(MlirOperation op, void *user)
{
	(void)op;
	++*(long *)user;
	return MlirWalkResultAdvance;
}

void cg_check_size(struct gen *g)
{
	long n = 0;

	if (g->failed)
		return;
	walk_new_code(g, count_op, &n, MlirWalkPreOrder);
	if (n > MAX_UNROLLED_OPS)
		cg_fail(g, "the unrolled code would exceed %d operations (%ld)",
			MAX_UNROLLED_OPS, n);
}

void cg_verify(struct gen *g)
{
	MlirOperation op, end = g->anchor;
	MlirDiagnosticHandlerID handler;
	int ok = 1;

	handler =
	    mlirContextAttachDiagnosticHandler(g->mctx, cg_quiet, NULL, NULL);
	for (op = mlirOperationGetNextInBlock(g->region->last);
	     !g->failed && !mlirOperationEqual(op, end);
	     op = mlirOperationGetNextInBlock(op))
		if (!mlirOperationVerify(op))
			ok = 0;
	mlirContextDetachDiagnosticHandler(g->mctx, handler);
	if (!g->failed && !ok)
		cg_fail(g, "the generated operations do not verify");
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

MlirOperation cg_enclosing_function(MlirOperation op)
{
	for (op = mlirOperationGetParentOperation(op);
	     !mlirOperationIsNull(op);
	     op = mlirOperationGetParentOperation(op))
		if (pearl_mlir_op_is(op, "func.func"))
			return op;
	return (MlirOperation){ NULL };
}

void cg_discard(struct gen *g)
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

void cg_replace(struct gen *g)
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

void cg_report_unrolls(struct gen *g, int vect, int kept)
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

void cg_report_copies(struct gen *g, int copied, int not_copied, int outside)
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
