/* Builds the pearl_program of one region of affine loops (MLIR C API):
 * walks the region, forms one statement per affine.store with the reads and
 * operations of the value it stores. */
#include <mlir-c/BuiltinAttributes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extractor.h"
#include "mlir_util.h"
#include "pearl/grow.h"

/* 1 if `op` is an affine.store to the memref *user points to. */
static int is_store_to(MlirOperation op, void *user)
{
	return pearl_mlir_op_is(op, "affine.store") &&
	       mlirValueEqual(mlirOperationGetOperand(op, 1),
			      *(MlirValue *)user);
}

/* 1 if `op` or an operation nested in it stores to `memref`. */
static int stores_to(MlirOperation op, MlirValue memref)
{
	return pearl_mlir_op_any(op, is_store_to, &memref);
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
	ex_fail(ex, load, "loaded value is used after its buffer is written "
	     "(the load cannot be moved to its statement)");
}

struct slice {
	MlirOperation *seen;
	int n, cap;
};

static int seen_before(struct slice *s, MlirOperation op)
{
	int i;

	for (i = 0; i < s->n; ++i)
		if (mlirOperationEqual(s->seen[i], op))
			return 1;
	if (pearl_grow(&s->seen, &s->cap, s->n + 1, sizeof(*s->seen)) < 0)
		return 1;
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
	if (mlirOperationIsNull(pearl_mlir_region_ancestor(ex->region, def)) ||
	    seen_before(sl, def))
		return;
	if (pearl_mlir_op_is(def, "affine.load")) {
		check_load_use(ex, def, store);
		if (!ex->failed &&
		    pearl_program_add_read(prog, stmt,
					   ex_access(ex, def, 0, space)) < 0)
			ex_fail(ex, def, "read access");
		return;
	}
	if (pearl_mlir_op_is(def, "arith.constant") ||
	    pearl_mlir_op_is(def, "affine.apply") ||
	    pearl_mlir_op_is(def, "affine.min") ||
	    pearl_mlir_op_is(def, "affine.max"))
		return;
	pearl_mlir_op_name(def, name, sizeof(name));
	if (pearl_program_add_op_count(prog, stmt, name, 1) < 0)
		ex_fail(ex, def, "out of memory");
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
	space = ex_stmt_space(ex, name);
	dom = ex_stmt_domain(ex, space);
	write = dom ? ex_access(ex, store, 1, space) : NULL;
	type = pearl_mlir_type_str(mlirValueGetType(value));
	if (ex->failed || !dom || !write || !type) {
		ex_fail(ex, store, "statement");
		isl_set_free(dom);
		isl_map_free(write);
		goto done;
	}
	idx = pearl_builder_add_stmt(ex->b, dom, write, type, store.ptr);
	if (idx < 0) {
		ex_fail(ex, store, "%s", pearl_ctx_last_error(ex->ctx));
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
			ex_fail(ex, op, "loop nest deeper than %d", MAX_DEPTH);
			return;
		}
		ex->loops[ex->depth++] = op;
		pearl_builder_enter_loop(ex->b);
		visit_block(ex, pearl_mlir_body(op, 0));
		if (pearl_builder_leave_loop(ex->b) < 0)
			ex_fail(ex, op, "%s", pearl_ctx_last_error(ex->ctx));
		ex->depth--;
	} else if (pearl_mlir_op_is(op, "affine.if")) {
		int neg;

		if (ex->n_conds == MAX_DEPTH) {
			ex_fail(ex, op, "more than %d nested conditions", MAX_DEPTH);
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
	ex.n_privates = pearl_mlir_find_privates(region, &ex.privates);
	ex.private_ids = ex.n_privates > 0
			     ? calloc(ex.n_privates, sizeof(*ex.private_ids))
			     : NULL;
	if (!ex.b || ex.n_privates < 0 ||
	    (ex.n_privates > 0 && !ex.private_ids))
		ex_fail(&ex, region->first, "out of memory");
	for (op = region->first; !ex.failed;
	     op = mlirOperationGetNextInBlock(op)) {
		visit(&ex, op);
		if (mlirOperationEqual(op, region->last))
			break;
	}
	if (!ex.failed) {
		prog = pearl_builder_finish(ex.b);
		if (!prog)
			ex_fail(&ex, region->first, "%s",
			     pearl_ctx_last_error(ctx));
	}
	if (!ex.failed && pearl_program_n_stmt(prog) == 0)
		ex_fail(&ex, region->first, "no affine.store to schedule");
	if (ex.failed) {
		prog = pearl_program_free(prog);
		*where = mlirOperationGetLocation(ex.where);
	}
	pearl_builder_free(ex.b);
	for (i = 0; i < ex.n_names; ++i)
		isl_id_free(ex.names[i].id);
	free(ex.names);
	for (i = 0; i < ex.n_privates && ex.private_ids; ++i)
		isl_id_free(ex.private_ids[i]);
	free(ex.private_ids);
	free(ex.privates);
	mlirAsmStateDestroy(ex.asm_state);
	return prog;
}
