/* The code generator's basic steps (codegen_state.h): failing, inserting
 * an operation at the insertion point, building attributes and loop
 * bodies, and the loop hints for LLVM. */
#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "codegen_state.h"
#include "mlir_util.h"

void cg_fail(struct gen *g, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	if (pearl_mlir_first_failure(&g->failed, msg, sizeof(msg), fmt, ap))
		pearl_ctx_error(g->ctx, "code generation: %s", msg);
	va_end(ap);
}

void cg_insert(struct gen *g, MlirOperation op)
{
	/* inserted all the same: the caller may still read it, and the
	 * generated code goes as a whole on failure */
	mlirBlockInsertOwnedOperationBefore(g->block, g->anchor, op);
	if (++g->n_inserted > MAX_GENERATED_OPS)
		cg_fail(g,
			"the code would exceed %d operations (isl's "
			"conditional expressions resolved into copies of the "
			"statements)",
			MAX_GENERATED_OPS);
}

MlirNamedAttribute cg_named(struct gen *g, const char *name, MlirAttribute attr)
{
	return mlirNamedAttributeGet(
	    mlirIdentifierGet(g->mctx, mlirStringRefCreateFromCString(name)),
	    attr);
}

MlirRegion cg_body_region(struct gen *g, int n_args, MlirBlock *body)
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

void cg_hint_no_unroll(struct gen *g, MlirOperation op)
{
	MlirDiagnosticHandlerID handler;

	if (mlirAttributeIsNull(g->no_unroll)) {
		handler = mlirContextAttachDiagnosticHandler(g->mctx, cg_quiet,
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

void cg_hint_vectorize(struct gen *g, MlirOperation op, int width,
		       int no_unroll)
{
	MlirDiagnosticHandlerID handler;
	MlirAttribute attr;
	char text[160];

	snprintf(text, sizeof(text),
		 "#llvm.loop_annotation<%svectorize = <disable = false, "
		 "width = %d : i32>>",
		 no_unroll ? "unroll = <disable = true>, " : "", width);
	handler =
	    mlirContextAttachDiagnosticHandler(g->mctx, cg_quiet, NULL, NULL);
	attr = mlirAttributeParseGet(g->mctx,
				     mlirStringRefCreateFromCString(text));
	mlirContextDetachDiagnosticHandler(g->mctx, handler);
	if (!mlirAttributeIsNull(attr))
		mlirOperationSetDiscardableAttributeByName(
		    op, mlirStringRefCreateFromCString("loop_annotation"),
		    attr);
}

MlirLogicalResult cg_quiet(MlirDiagnostic diag, void *user)
{
	(void)diag;
	(void)user;
	return mlirLogicalResultSuccess();
}
