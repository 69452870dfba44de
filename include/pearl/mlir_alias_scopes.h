/*
 * pearl/mlir_alias_scopes.h - the no-alias assumption of a rewritten
 * function, stated to LLVM.
 *
 * Pearl's model, like MLIR's affine analyses, assumes that distinct memref
 * values do not alias (README, "What is modeled"): a schedule that
 * reorders the accesses of two memref arguments is only correct if they do
 * not overlap where one of them is written. The code generator
 * (pearl_mlir_codegen, for the pass and the environment alike) marks every
 * function whose region it rewrote with PEARL_NOALIAS_ATTR, a unit
 * attribute that lowering keeps on the llvm.func. At the end of Pearl's lowering
 * (pearl/mlir_lowering.h), pearl_alias_scopes_apply gives each llvm.load
 * and llvm.store of such a function whose address is an element of a
 * memref argument an alias scope of that argument, and declares it not to
 * alias the other arguments' scopes. LLVM then keeps a register tile of a
 * written array in registers across a loop that reads other arrays (LICM
 * promotes it), also in the bodies of parallel loops, which OpenMP
 * outlines into functions that no `noalias` argument attribute would
 * reach.
 *
 * Accesses whose address is not traced to a memref argument (local
 * buffers, raw pointers) get no scope: LLVM assumes nothing about them.
 * Functions without the attribute are left as they are.
 */
#ifndef PEARL_MLIR_ALIAS_SCOPES_H
#define PEARL_MLIR_ALIAS_SCOPES_H

#include <mlir-c/IR.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PEARL_NOALIAS_ATTR "pearl.noalias_memref_args"

/* Marks `func` (a func.func, kept) with PEARL_NOALIAS_ATTR. */
void pearl_mark_noalias_memref_args(MlirOperation func);

/* Gives alias scopes to the memref-argument accesses of every llvm.func
 * under `top` (kept) that carries PEARL_NOALIAS_ATTR. Returns the number
 * of accesses annotated, or -1 if an attribute could not be built (then
 * the functions annotated so far keep their scopes, the others have none:
 * the code is correct either way). */
long pearl_alias_scopes_apply(MlirOperation top);

#ifdef __cplusplus
}
#endif

#endif
