/*
 * pearl/exec_jit.h - one MLIR module run by pearl-exec and the training
 * environment: parsed with the MLIR C API, lowered in-process to the LLVM
 * dialect (affine -> scf -> OpenMP -> LLVM), JIT-compiled by MLIR's
 * ExecutionEngine and called through the packed wrapper of its entry
 * function's C interface (see pearl/exec_args.h).
 *
 * Why `_mlir_ciface_NAME` through its packed wrapper: the entry is marked
 * llvm.emit_c_interface, so the lowering adds `_mlir_ciface_NAME`, which
 * takes each memref as one pointer to a descriptor struct and scalars by
 * value.  The ExecutionEngine wraps every function in a packed form
 * `void _mlir_<fn>(void **args)`, so mlirExecutionEngineLookupPacked on
 * "_mlir_ciface_NAME" gives a function that a C program can call for any
 * signature without libffi, one pointer per argument.  The packed wrapper of
 * NAME itself would take every descriptor field (allocated and aligned
 * pointers, offset, each size and stride) as a separate argument, which
 * depends on how the lowering expands memrefs; the C interface is MLIR's
 * documented C-compatible ABI (the one the Python bindings' invoke uses).
 * The pointer is looked up once, so timed runs call it directly.
 *
 * Ownership follows isl's conventions (__isl_give: the caller frees the
 * result; __isl_take: consumed; __isl_keep: borrowed); MLIR handles are
 * values, and who destroys the object behind one is said at each function.
 * Errors: functions return -1 (or NULL) and leave a message in a
 * struct exec_err; MLIR's own diagnostics (parse and lowering errors) are
 * printed to stderr by the context.  Nothing here exits.
 */
#ifndef PEARL_EXEC_JIT_H
#define PEARL_EXEC_JIT_H

#include <mlir-c/IR.h>

#include "pearl/exec_args.h"

/* The packed wrapper of a C interface: void fn(void **args), one pointer per
 * argument (exec_frame_packed). */
typedef void (*exec_packed_fn)(void **args);

/* The lowering pipeline, as an MLIR pass pipeline string. The module is
 * lowered by it in two parts, with the loops' `loop_annotation` hints
 * carried over lower-affine (which drops them) in between. */
extern const char exec_pipeline[];

/* A new context (__isl_give) with every upstream dialect and the LLVM IR
 * translations registered, and every upstream pass registered globally
 * (once). The caller destroys it with mlirContextDestroy after freeing
 * every module. */
MlirContext exec_context_create(void);

struct exec_module;

/* Parses the file at `path` into ctx (__isl_keep; must outlive the module)
 * and finds its entry: the func.func named `entry`, or, if entry is NULL,
 * the first public func.func with a body.  Returns a new module
 * (__isl_give; free with exec_module_free), or NULL (message in err) if
 * the file does not parse or has no such function. */
struct exec_module *exec_module_load(MlirContext ctx, const char *path,
				     const char *entry, struct exec_err *err);
/* Wraps `module` (__isl_take; it lives in ctx, which must outlive it) like
 * exec_module_load does a parsed file; `label` names it in messages.
 * Returns a new module (__isl_give; free with exec_module_free). On
 * failure the module is destroyed and NULL returned (message in err). */
struct exec_module *exec_module_wrap(MlirContext ctx, MlirModule module,
				     const char *label, const char *entry,
				     struct exec_err *err);
/* Frees `mod` (__isl_take) and the MLIR module it holds; accepts NULL. */
void exec_module_free(struct exec_module *mod);

/* The func.func named `name` with a body in `module` (__isl_keep), or, if
 * name is NULL, the first public one; a null operation if there is none.
 * The operation belongs to the module (__isl_keep). */
MlirOperation exec_find_func(MlirModule module, const char *name);

/* 1 if `op` (__isl_keep) is a func.func with a body (not a declaration). */
int exec_func_is_defined(MlirOperation op);
/* 1 if `op` (__isl_keep) is a public func.func with a body, the functions
 * exec_find_func(module, NULL) chooses from; else 0. */
int exec_func_is_public(MlirOperation op);

/* Fills sig (zeroed; cleared by the caller with exec_sig_clear) with the
 * signature of `func` (__isl_keep), a func.func; `label` names it in
 * messages. */
int exec_func_signature(MlirOperation func, const char *label,
			struct exec_sig *sig, struct exec_err *err);

/* Makes the function `name` of `mod` (__isl_keep) callable too (besides
 * the entry): gives it a C interface that exec_module_lookup finds after
 * compilation.  Call before exec_module_compile. */
int exec_module_export(struct exec_module *mod, const char *name,
		       struct exec_err *err);
/* The packed C interface of exported function `name` (or of the entry) of
 * the compiled module (__isl_keep: valid until the module is freed), NULL
 * if there is none. */
exec_packed_fn exec_module_lookup(struct exec_module *mod, const char *name);

/* The name of the entry function (__isl_keep, lives as long as mod). */
const char *exec_module_entry(const struct exec_module *mod);

/* The module's top operation (__isl_keep: owned by the module): the
 * program as loaded, or its LLVM dialect form after exec_module_compile. */
MlirOperation exec_module_op(const struct exec_module *mod);

/* Fills sig (which must be zeroed; the caller clears it with
 * exec_sig_clear) with the entry's signature.  Fails with a message naming
 * the first unsupported argument or result type. */
int exec_module_signature(const struct exec_module *mod, struct exec_sig *sig,
			  struct exec_err *err);

/* Lowers the module with exec_pipeline (the loop hints carried over
 * lower-affine), and nothing else: no C interface, no compilation (to
 * print it, exec_module_op; the module cannot be compiled afterwards). */
int exec_module_lower(struct exec_module *mod, struct exec_err *err);

/* Marks the entry with llvm.emit_c_interface, lowers the module with
 * exec_pipeline and JIT-compiles it at -O3 with libomp and the MLIR C runner
 * utilities loaded.  Call once, before exec_module_run. */
int exec_module_compile(struct exec_module *mod, struct exec_err *err);

/* As exec_module_compile, but compiled ahead of time by `clang` (a path)
 * as users compile Pearl's output: `clang -O3 -fopenmp CFLAGS -shared`
 * (cflags: words separated by spaces; NULL: none) on the module's LLVM
 * IR, the shared object loaded with dlopen.  The JIT's code and clang's
 * can differ in speed (not in outputs): this is the user's.  Call once,
 * before exec_module_run. */
int exec_module_compile_native(struct exec_module *mod, const char *clang,
			       const char *cflags, struct exec_err *err);

/* Calls the compiled entry of `mod` (__isl_keep) once with the arguments
 * of `frame` (__isl_keep; its buffers are written). */
void exec_module_run(struct exec_module *mod, struct exec_frame *frame);

/* Stops the threads of the OpenMP runtime the compiled module loaded (all
 * modules share one runtime), if it is compiled.  libomp otherwise keeps its
 * workers until the process exits; stopping them first means no thread
 * outlives the engines, and lets LeakSanitizer scan the process at exit (its
 * scan of the workers' dynamic TLS crashes).  Later parallel regions would
 * restart the runtime. */
void exec_module_stop_openmp(struct exec_module *mod);

#endif
