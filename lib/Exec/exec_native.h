/*
 * exec_native.h (private to lib/Exec) - a lowered module compiled ahead of
 * time by clang into a shared object and loaded with dlopen: the code
 * users get from Pearl's output (pearl-bench compiles it the same way),
 * where the ExecutionEngine's JIT gives code that can run faster or
 * slower.  The module's C interfaces get the packed wrappers
 * `_mlir_<name>(void **args)` the ExecutionEngine would give them
 * (exec_jit.h), so both kinds of code are called alike.
 *
 * Ownership follows isl's conventions; errors return NULL with a message
 * in err; nothing here exits.
 */
#ifndef PEARL_EXEC_NATIVE_H
#define PEARL_EXEC_NATIVE_H

#include <mlir-c/IR.h>

#include "pearl/exec_args.h"

struct exec_native;

/* Translates `module` (__isl_keep; lowered to the LLVM dialect) to LLVM
 * IR, compiles it with `clang -O3 -fopenmp CFLAGS -shared` (cflags:
 * words separated by spaces, may be NULL) in a fresh directory under
 * $TMPDIR, and loads it (the files are removed once loaded). Returns the
 * loaded code (__isl_give; free with exec_native_free), or NULL with the
 * reason in err (clang's first message included). */
struct exec_native *exec_native_build(MlirOperation module, const char *clang,
				      const char *cflags,
				      struct exec_err *err);

/* The packed wrapper of function `name` (e.g. "_mlir_ciface_kernel"), or
 * NULL; valid until `n` is freed. */
void *exec_native_lookup_packed(struct exec_native *n, const char *name);
/* The symbol `name` of the code or of the libraries it loaded (libomp),
 * or NULL. */
void *exec_native_lookup(struct exec_native *n, const char *name);

/* Unloads the code (__isl_take); accepts NULL. */
void exec_native_free(struct exec_native *n);

#endif
