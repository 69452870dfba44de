/* Parse, lower, JIT-compile and call one MLIR module. */
#include "pearl/exec_jit.h"
#include "pearl/mlir_alias_scopes.h"
#include "pearl/mlir_loop_hints.h"
#include "pearl/mlir_lowering.h"

#include "exec_native.h"

#include <mlir-c/AffineMap.h>
#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <mlir-c/Diagnostics.h>
#include <mlir-c/ExecutionEngine.h>
#include <mlir-c/Pass.h>
#include <mlir-c/RegisterEverything.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef PEARL_EXEC_LIBOMP
#define PEARL_EXEC_LIBOMP "/usr/lib/llvm-22/lib/libomp.so"
#endif
#ifndef PEARL_EXEC_RUNNER_UTILS
#define PEARL_EXEC_RUNNER_UTILS "/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so"
#endif

/* Pearl's lowering (pearl/mlir_lowering.h) as one pipeline on the module.
 * It runs in two parts: lower-affine drops the attributes of the loops it
 * rewrites, and the loop hints are carried over from each affine.for to
 * its scf.for in between (lower, below). */
static const char exec_pipeline_affine[] =
    "builtin.module(" PEARL_LOWER_FIRST ",lower-affine)";
static const char exec_pipeline_rest[] =
    "builtin.module(" PEARL_LOWER_REST ")";
const char exec_pipeline[] =
    "builtin.module(" PEARL_LOWER_FIRST ",lower-affine," PEARL_LOWER_REST
    ")";

struct exec_module {
	MlirContext ctx;		/* borrowed */
	char *path;			/* owned */
	MlirModule module;		/* owned */
	MlirOperation entry;		/* in module */
	char *name;			/* owned; the entry's symbol name */
	MlirExecutionEngine jit;	/* owned; null until compiled */
	struct exec_native *native;	/* owned; or compiled by clang */
	exec_packed_fn fn;		/* in jit or native */
};

MlirContext exec_context_create(void)
{
	static int passes_registered;
	MlirDialectRegistry registry;
	MlirContext ctx;

	if (!passes_registered) {
		mlirRegisterAllPasses();
		passes_registered = 1;
	}
	ctx = mlirContextCreate();
	/* The pass manager would otherwise start a thread pool, which buys
	 * nothing on one small module. */
	mlirContextEnableMultithreading(ctx, false);
	registry = mlirDialectRegistryCreate();
	mlirRegisterAllDialects(registry);
	mlirContextAppendDialectRegistry(ctx, registry);
	mlirDialectRegistryDestroy(registry);
	mlirRegisterAllLLVMTranslations(ctx);
	return ctx;
}

static char *dup_ref(MlirStringRef ref)
{
	char *s = malloc(ref.length + 1);

	if (!s)
		return NULL;
	memcpy(s, ref.data, ref.length);
	s[ref.length] = '\0';
	return s;
}

static int ref_is(MlirStringRef ref, const char *s)
{
	return ref.length == strlen(s) && memcmp(ref.data, s, ref.length) == 0;
}

static MlirAttribute attr(MlirOperation op, const char *name)
{
	return mlirOperationGetAttributeByName(
	    op, mlirStringRefCreateFromCString(name));
}

/* 1 if op is a func.func with a body (not a declaration). */
static int is_defined_func(MlirOperation op)
{
	MlirRegion body;

	if (!ref_is(mlirIdentifierStr(mlirOperationGetName(op)), "func.func"))
		return 0;
	body = mlirOperationGetRegion(op, 0);
	return !mlirBlockIsNull(mlirRegionGetFirstBlock(body));
}

static int is_public(MlirOperation op)
{
	MlirAttribute vis = attr(op, "sym_visibility");

	return mlirAttributeIsNull(vis) ||
	       ref_is(mlirStringAttrGetValue(vis), "public");
}

int exec_func_is_defined(MlirOperation op)
{
	return is_defined_func(op);
}

int exec_func_is_public(MlirOperation op)
{
	return is_defined_func(op) && is_public(op);
}

/* The entry: the function named `name`, or the first public one. */
MlirOperation exec_find_func(MlirModule module, const char *name)
{
	MlirOperation op;
	MlirStringRef sym;

	op = mlirBlockGetFirstOperation(mlirModuleGetBody(module));
	for (; !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
		if (!is_defined_func(op))
			continue;
		sym = mlirStringAttrGetValue(attr(op, "sym_name"));
		if (name ? ref_is(sym, name) : is_public(op))
			return op;
	}
	return (MlirOperation){NULL};
}

struct exec_module *exec_module_wrap(MlirContext ctx, MlirModule module,
				     const char *label, const char *entry,
				     struct exec_err *err)
{
	struct exec_module *mod;
	MlirStringRef name;

	mod = calloc(1, sizeof(*mod));
	if (!mod || !(mod->path = strdup(label))) {
		free(mod);
		mlirModuleDestroy(module);
		exec_fail(err, "out of memory");
		return NULL;
	}
	mod->ctx = ctx;
	mod->module = module;
	mod->entry = exec_find_func(mod->module, entry);
	if (mlirOperationIsNull(mod->entry)) {
		if (entry)
			exec_fail(err, "%s: no func.func @%s with a body",
				  label, entry);
		else
			exec_fail(err, "%s: no public func.func with a body",
				  label);
		exec_module_free(mod);
		return NULL;
	}
	name = mlirStringAttrGetValue(attr(mod->entry, "sym_name"));
	mod->name = dup_ref(name);
	if (!mod->name) {
		exec_fail(err, "out of memory");
		exec_module_free(mod);
		return NULL;
	}
	return mod;
}

struct exec_module *exec_module_load(MlirContext ctx, const char *path,
				     const char *entry, struct exec_err *err)
{
	MlirModule module;

	if (access(path, R_OK) != 0) {
		exec_fail(err, "cannot read %s", path);
		return NULL;
	}
	module = mlirModuleCreateParseFromFile(
	    ctx, mlirStringRefCreateFromCString(path));
	if (mlirModuleIsNull(module)) {
		exec_fail(err, "%s: cannot parse the module", path);
		return NULL;
	}
	return exec_module_wrap(ctx, module, path, entry, err);
}

void exec_module_free(struct exec_module *mod)
{
	if (!mod)
		return;
	if (!mlirExecutionEngineIsNull(mod->jit))
		mlirExecutionEngineDestroy(mod->jit);
	exec_native_free(mod->native);
	if (!mlirModuleIsNull(mod->module))
		mlirModuleDestroy(mod->module);
	free(mod->name);
	free(mod->path);
	free(mod);
}

const char *exec_module_entry(const struct exec_module *mod)
{
	return mod->name;
}

MlirOperation exec_module_op(const struct exec_module *mod)
{
	return mlirModuleGetOperation(mod->module);
}

/* Appends MLIR's printed text to a malloc'd string (*user). */
static void append_text(MlirStringRef ref, void *user)
{
	char **s = user, *grown;
	size_t len;

	if (!*s)
		return;
	len = strlen(*s);
	grown = realloc(*s, len + ref.length + 1);
	if (!grown) {
		free(*s);
		*s = NULL;
		return;
	}
	memcpy(grown + len, ref.data, ref.length);
	grown[len + ref.length] = '\0';
	*s = grown;
}

/* The MLIR spelling of type (malloc'd; NULL if memory is exhausted). */
static char *type_spelling(MlirType type)
{
	char *s = calloc(1, 1);

	mlirTypePrint(type, append_text, &s);
	return s;
}

/* The kind of a scalar type, or of a memref element type if `in_memref`;
 * -1 if not supported there. */
static int elem_kind(MlirType t, int in_memref, enum exec_elem *elem)
{
	unsigned width;

	if (mlirTypeIsAF32(t))
		*elem = exec_f32;
	else if (mlirTypeIsAF64(t))
		*elem = exec_f64;
	else if (mlirTypeIsAIndex(t) && !in_memref)
		*elem = exec_index;
	else if (mlirTypeIsAInteger(t) && mlirIntegerTypeIsSignless(t)) {
		width = mlirIntegerTypeGetWidth(t);
		if (width == 32)
			*elem = exec_i32;
		else if (width == 64)
			*elem = exec_i64;
		else if (in_memref && width == 8)
			*elem = exec_i8;
		else if (in_memref && width == 16)
			*elem = exec_i16;
		else
			return -1;
	} else
		return -1;
	return 0;
}

/* A memref with the identity layout in the default memory space. */
static int memref_type(MlirType t, struct exec_type *type)
{
	int d;

	if (!mlirAttributeIsNull(mlirMemRefTypeGetMemorySpace(t)) ||
	    !mlirAffineMapIsIdentity(mlirMemRefTypeGetAffineMap(t)))
		return -1;
	if (elem_kind(mlirShapedTypeGetElementType(t), 1, &type->elem) < 0)
		return -1;
	type->is_memref = 1;
	type->rank = (int)mlirShapedTypeGetRank(t);
	type->shape = calloc(type->rank + 1, sizeof(*type->shape));
	if (!type->shape)
		return -1;
	for (d = 0; d < type->rank; ++d)
		type->shape[d] = mlirShapedTypeIsDynamicDim(t, d)
				     ? -1
				     : mlirShapedTypeGetDimSize(t, d);
	return 0;
}

#define EXEC_SUPPORTED                                                        \
	"memref of f32, f64, i8, i16, i32 or i64 with the identity layout; "  \
	"index, f32, f64, i32, i64"

/* Converts the type of argument (or result) `pos` of function `fname`
 * (in `label`). */
static int convert_type(const char *label, const char *fname, MlirType t,
			const char *what, int pos, struct exec_type *type,
			struct exec_err *err)
{
	int ok;

	type->spelling = type_spelling(t);
	if (!type->spelling)
		return exec_fail(err, "out of memory");
	if (mlirTypeIsAMemRef(t))
		ok = memref_type(t, type) == 0 && strcmp(what, "result") != 0;
	else
		ok = elem_kind(t, 0, &type->elem) == 0;
	if (!ok)
		return exec_fail(err,
				 "%s: @%s: %s %d has unsupported type %s "
				 "(supported: %s)",
				 label, fname, what, pos,
				 type->spelling, EXEC_SUPPORTED);
	return 0;
}

int exec_func_signature(MlirOperation func, const char *label,
			struct exec_sig *sig, struct exec_err *err)
{
	MlirType fty = mlirTypeAttrGetValue(attr(func, "function_type"));
	MlirStringRef ref = mlirStringAttrGetValue(attr(func, "sym_name"));
	char *fname = dup_ref(ref);
	int i, n_args, n_results, ret = -1;

	if (!fname)
		return exec_fail(err, "out of memory");
	n_args = (int)mlirFunctionTypeGetNumInputs(fty);
	n_results = (int)mlirFunctionTypeGetNumResults(fty);
	if (n_results > 1) {
		exec_fail(err, "%s: @%s has %d results (at most one "
			  "scalar result is supported)",
			  label, fname, n_results);
		goto done;
	}
	sig->args = calloc(n_args + 1, sizeof(*sig->args));
	sig->results = calloc(n_results + 1, sizeof(*sig->results));
	if (!sig->args || !sig->results) {
		exec_fail(err, "out of memory");
		goto done;
	}
	sig->n_args = n_args;
	sig->n_results = n_results;
	for (i = 0; i < n_args; ++i)
		if (convert_type(label, fname, mlirFunctionTypeGetInput(fty, i),
				 "argument", i, &sig->args[i], err) < 0)
			goto done;
	for (i = 0; i < n_results; ++i)
		if (convert_type(label, fname,
				 mlirFunctionTypeGetResult(fty, i), "result",
				 i, &sig->results[i], err) < 0)
			goto done;
	ret = 0;
done:
	free(fname);
	return ret;
}

int exec_module_signature(const struct exec_module *mod, struct exec_sig *sig,
			  struct exec_err *err)
{
	return exec_func_signature(mod->entry, mod->path, sig, err);
}

/* Collects the message of a pipeline parse error into an exec_err. */
static void pipeline_error(MlirStringRef msg, void *user)
{
	struct exec_err *err = user;
	size_t len = strlen(err->msg), n = msg.length;

	if (n > sizeof(err->msg) - 1 - len)
		n = sizeof(err->msg) - 1 - len;
	memcpy(err->msg + len, msg.data, n);
	err->msg[len + n] = '\0';
}

/* The first operation the pipeline left outside the LLVM and OpenMP
 * dialects: a cast that could not be reconciled only if nothing else. */
struct leftover {
	MlirOperation op;
	int is_cast;
};

static MlirWalkResult find_leftover(MlirOperation op, void *user)
{
	struct leftover *left = user;
	MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
	int is_cast;

	if (ref_is(name, "builtin.module") ||
	    (name.length > 5 && !memcmp(name.data, "llvm.", 5)) ||
	    (name.length > 4 && !memcmp(name.data, "omp.", 4)))
		return MlirWalkResultAdvance;
	is_cast = ref_is(name, "builtin.unrealized_conversion_cast");
	if (mlirOperationIsNull(left->op) || (left->is_cast && !is_cast)) {
		left->op = op;
		left->is_cast = is_cast;
	}
	return is_cast ? MlirWalkResultAdvance : MlirWalkResultInterrupt;
}

/* Fails, naming the operation, if the module is not all LLVM (and OpenMP)
 * dialect: the translation to LLVM IR would fail with a less useful
 * message. */
static int check_lowered(struct exec_module *mod, struct exec_err *err)
{
	struct leftover left = {{NULL}, 0};
	char *name;

	mlirOperationWalk(mlirModuleGetOperation(mod->module), find_leftover,
			  &left, MlirWalkPreOrder);
	if (mlirOperationIsNull(left.op))
		return 0;
	name = dup_ref(mlirIdentifierStr(mlirOperationGetName(left.op)));
	mlirEmitError(mlirOperationGetLocation(left.op),
		      "not lowered to the LLVM dialect");
	exec_fail(err, "%s: %s was not lowered to the LLVM dialect",
		  mod->path, name ? name : "an operation");
	free(name);
	return -1;
}

/* Runs `pipeline` on the module. */
static int run_pipeline(struct exec_module *mod, const char *pipeline,
			struct exec_err *err)
{
	MlirPassManager pm = mlirPassManagerCreate(mod->ctx);
	MlirLogicalResult res;
	int ret = 0;

	exec_fail(err, "invalid pass pipeline: ");
	res = mlirParsePassPipeline(mlirPassManagerGetAsOpPassManager(pm),
				    mlirStringRefCreateFromCString(pipeline),
				    pipeline_error, err);
	if (mlirLogicalResultIsFailure(res))
		ret = -1;
	else if (mlirLogicalResultIsFailure(mlirPassManagerRunOnOp(
		     pm, mlirModuleGetOperation(mod->module))))
		ret = exec_fail(err, "%s: lowering to the LLVM dialect failed",
				mod->path);
	mlirPassManagerDestroy(pm);
	return ret;
}

/* Runs exec_pipeline on the module, carrying the loop hints over
 * lower-affine. If the loops after lower-affine do not match those before
 * one to one, no hint is carried (the code is the same, only unhinted).
 * Then the memref accesses of functions Pearl rewrote get their alias
 * scopes (pearl/mlir_alias_scopes.h). */
static int lower(struct exec_module *mod, struct exec_err *err)
{
	MlirOperation top = mlirModuleGetOperation(mod->module);
	pearl_loop_hints *hints = pearl_loop_hints_collect(top);
	int ret;

	if (!hints)
		return exec_fail(err, "out of memory");
	ret = run_pipeline(mod, exec_pipeline_affine, err);
	if (ret == 0)
		pearl_loop_hints_apply(top, hints);
	pearl_loop_hints_free(hints);
	if (ret == 0)
		ret = run_pipeline(mod, exec_pipeline_rest, err);
	if (ret == 0)
		ret = check_lowered(mod, err);
	if (ret == 0 && pearl_alias_scopes_apply(top) < 0)
		ret = exec_fail(err, "out of memory");
	return ret;
}

/* Makes `func` callable from C: a public symbol with a C interface
 * wrapper `_mlir_ciface_NAME` that takes each memref as one pointer to its
 * descriptor. */
static void mark_c_interface(MlirContext ctx, MlirOperation func)
{
	mlirOperationRemoveAttributeByName(
	    func, mlirStringRefCreateFromCString("sym_visibility"));
	mlirOperationSetAttributeByName(
	    func, mlirStringRefCreateFromCString("llvm.emit_c_interface"),
	    mlirUnitAttrGet(ctx));
}

int exec_module_export(struct exec_module *mod, const char *name,
		       struct exec_err *err)
{
	MlirOperation func = exec_find_func(mod->module, name);

	if (mlirOperationIsNull(func))
		return exec_fail(err, "%s: no func.func @%s with a body",
				 mod->path, name);
	mark_c_interface(mod->ctx, func);
	return 0;
}

exec_packed_fn exec_module_lookup(struct exec_module *mod, const char *name)
{
	char sym[1024];

	snprintf(sym, sizeof(sym), "_mlir_ciface_%s", name);
	if (mod->native)
		return (exec_packed_fn)exec_native_lookup_packed(mod->native,
								 sym);
	if (mlirExecutionEngineIsNull(mod->jit))
		return NULL;
	return (exec_packed_fn)mlirExecutionEngineLookupPacked(
	    mod->jit, mlirStringRefCreateFromCString(sym));
}

/* Creates the execution engine and finds the packed C interface wrapper. */
static int jit(struct exec_module *mod, struct exec_err *err)
{
	const char *libs[] = {PEARL_EXEC_LIBOMP, PEARL_EXEC_RUNNER_UTILS};
	MlirStringRef paths[2];
	char sym[1024];
	int i;

	for (i = 0; i < 2; ++i) {
		if (access(libs[i], R_OK) != 0)
			return exec_fail(err, "cannot read %s", libs[i]);
		paths[i] = mlirStringRefCreateFromCString(libs[i]);
	}
	mod->jit = mlirExecutionEngineCreate(mod->module, 3, 2, paths, false,
					     false);
	if (mlirExecutionEngineIsNull(mod->jit))
		return exec_fail(err, "%s: JIT compilation failed", mod->path);
	mlirExecutionEngineInitialize(mod->jit);
	snprintf(sym, sizeof(sym), "_mlir_ciface_%s", mod->name);
	mod->fn = (exec_packed_fn)mlirExecutionEngineLookupPacked(
	    mod->jit, mlirStringRefCreateFromCString(sym));
	if (!mod->fn)
		return exec_fail(err, "%s: no symbol %s after JIT compilation",
				 mod->path, sym);
	return 0;
}

int exec_module_lower(struct exec_module *mod, struct exec_err *err)
{
	return lower(mod, err);
}

int exec_module_compile(struct exec_module *mod, struct exec_err *err)
{
	mark_c_interface(mod->ctx, mod->entry);
	if (lower(mod, err) < 0)
		return -1;
	return jit(mod, err);
}

int exec_module_compile_native(struct exec_module *mod, const char *clang,
			       const char *cflags, struct exec_err *err)
{
	struct exec_err why;

	mark_c_interface(mod->ctx, mod->entry);
	if (lower(mod, err) < 0)
		return -1;
	mod->native = exec_native_build(mlirModuleGetOperation(mod->module),
					clang, cflags, &why);
	if (!mod->native)
		return exec_fail(err, "%s: %s", mod->path, why.msg);
	mod->fn = exec_module_lookup(mod, mod->name);
	if (!mod->fn)
		return exec_fail(err, "%s: no C interface of %s after "
				 "compilation", mod->path, mod->name);
	return 0;
}

void exec_module_run(struct exec_module *mod, struct exec_frame *frame)
{
	mod->fn(exec_frame_packed(frame));
}

/* omp_pause_resource_all(omp_pause_hard) of OpenMP 5.0. */
void exec_module_stop_openmp(struct exec_module *mod)
{
	typedef int (*pause_fn)(int kind);
	const int omp_pause_hard = 2;
	pause_fn pause;

	if (mod->native)
		pause = (pause_fn)exec_native_lookup(mod->native,
						     "omp_pause_resource_all");
	else if (!mlirExecutionEngineIsNull(mod->jit))
		pause = (pause_fn)mlirExecutionEngineLookup(
		    mod->jit,
		    mlirStringRefCreateFromCString("omp_pause_resource_all"));
	else
		return;
	if (pause)
		pause(omp_pause_hard);
}
