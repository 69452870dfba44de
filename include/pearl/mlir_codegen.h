/*
 * pearl/mlir_codegen.h - the MLIR code generator: rewrites a modeled region
 * from the isl AST of its transformed schedule.
 */
#ifndef PEARL_MLIR_CODEGEN_H
#define PEARL_MLIR_CODEGEN_H

#include <isl/ctx.h>
#include <isl/ast.h>
#include <mlir-c/IR.h>

#include "pearl/mlir_frontend.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Replaces the loops of `region` by code generated from `tree` (kept), the
 * isl AST of a schedule of `prog` (the model pearl_mlir_extract built for
 * this region): for nodes become affine.for, or affine.parallel under a
 * PEARL_PARALLEL_MARK mark, and the loops right under a PEARL_UNROLL_MARK
 * mark are unrolled (pearl_mlir_unroll_loop; parallel ones are not);
 * a sequential loop under a PEARL_POINT_MARK mark with no loop inside
 * gets a `loop_annotation` attribute that disables LLVM's unrolling (if
 * the LLVM dialect is loaded);
 * if nodes become affine.if;
 * each statement
 * instance recomputes the original iterators with affine.apply and clones
 * the statement's operations. The new operations are built after the
 * region and verified first; on any failure they are erased, the region is
 * left exactly as it was and an error is returned (message in `ctx`). On
 * success the region's affine.for, affine.if and affine.store operations are
 * erased; operations computed between nests stay. */
pearl_stat pearl_mlir_codegen(pearl_ctx *ctx, const pearl_mlir_region *region,
			      pearl_program *prog,
			      __isl_keep isl_ast_node *tree);

/* What one run of the code generator did that callers may need to know
 * beyond the code (the environment's memo, lib/Env/env_time.c). */
struct pearl_mlir_codegen_report {
	/* Innermost loops whose register promotion needed their iterator's
	 * stride (version 15's rule): an older version's code differs. */
	int n_stride_promoted;
};

/* pearl_mlir_codegen, and what it did in *report (filled on success and
 * on failure; NULL: not asked). */
pearl_stat pearl_mlir_codegen_report(pearl_ctx *ctx,
				     const pearl_mlir_region *region,
				     pearl_program *prog,
				     __isl_keep isl_ast_node *tree,
				     struct pearl_mlir_codegen_report *report);

/* Unrolls `op` (an affine.for; it may be replaced) with MLIR's affine loop
 * unroller: completely if it runs at most `factor` times (a constant trip
 * count), else by `factor` with a cleanup loop for the remaining
 * iterations. A loop whose lower bound is a max or upper bound a min
 * (MLIR's unroller cannot express the cleanup loop's bound then) is first
 * versioned, in a chain of affine.if, by which of the bounds is active
 * (at most 4 versions), and each version is unrolled. A loop that may
 * run with its upper bound below its lower bound (MLIR's affine analysis
 * of the loops and conditions around it cannot rule it out; MLIR's
 * unroller gives its cleanup loop spurious iterations then) is first put
 * under an affine.if that it runs at least once. Returns 1 if
 * unrolled, 0 if (partly) left as a loop, e.g. bounds with more max/min
 * terms (the code generator then says so in a remark). Parallel loops
 * (affine.parallel) are not unrolled.
 * Implemented by the C++ shim lib/Frontend/MLIR/unroll_shim.cpp: these
 * utilities have no C API. */
int pearl_mlir_unroll_loop(MlirOperation op, int factor);

/* K(l): for every memref that loop `op` (an affine.for or affine.parallel)
 * reads with affine loads and does not write, copies the box of elements
 * the loop reads (a function of the loops around it, of constant size)
 * into a new buffer (memref.alloc right before the loop, memref.dealloc
 * right after it, the copy loops between the alloc and the loop) and has
 * the loop's loads read the buffer (MLIR's affine copy generation, never
 * hoisted out of the loops around `op`). A memref with another use
 * inside the loop, whose box has no constant size, or whose box would be
 * costly to compute (divisions or remainders in the accesses, bounds or
 * conditions of its loads, or more than 48 terms), is left as it is and
 * counted in *n_failed; so is every memref when the context has not
 * loaded the memref and arith dialects. A copy MLIR would generate that
 * may read outside its array (checked on every load of the copy loops,
 * over all iterations of the loops around them, by Fourier-Motzkin:
 * conservative, e.g. on partial tiles) is not made, and counted in
 * *n_outside: the copies are tried first on a clone of the function.
 * Returns the number of memrefs copied, or -1 if a copy made reads
 * outside though its trial did not: the loop's loads have been
 * redirected already, so the caller must discard the code.
 * Implemented by the C++ shim lib/Frontend/MLIR/copy_shim.cpp. */
int pearl_mlir_copy_read_only(MlirOperation op, int *n_failed,
			      int *n_outside);

/* Register promotion: in every innermost affine.for under `op` (included; a
 * loop promoted is replaced in its place, `op` too)
 * whose body holds only
 * affine loads and stores, affine.apply and operations without memory
 * effects, the elements of a memref the loop writes at the same place in
 * every iteration are loaded once before the loop, carried through it as
 * iter_args, and stored once after it; only when no other access of the
 * memref in the loop can touch them: other loop-invariant elements at a
 * constant nonzero distance (the composed access maps), accesses that move
 * with the loop without a dependence on them within one run of the loop
 * (MLIR's affine dependence analysis, at most 256 checks per loop; over
 * a loop of step s > 1 with one lower bound lb, such as the main loop of
 * an unrolled one, also on the iterator's stride, lb + s * q, which MLIR's
 * analysis drops when lb is not constant). Each
 * element's operations stay in their order, so the values computed are
 * the same. A loop that may not run is promoted under an affine.if that
 * it runs (the store after it would write an element it never wrote).
 * Returns the number of elements promoted; *n_by_stride (unless NULL)
 * gets the number of loops promoted that only the stride proved apart
 * (code generator version 15's rule, pearl/codegen_version.h).
 * Implemented by the C++ shim lib/Frontend/MLIR/promote_shim.cpp. */
int pearl_mlir_promote_invariant(MlirOperation op, int *n_by_stride);

/* Emits a remark / a warning at `loc` (lib/Frontend/MLIR/diag_shim.cpp:
 * MLIR's C API emits errors only). */
void pearl_mlir_emit_remark(MlirLocation loc, const char *msg);
void pearl_mlir_emit_warning(MlirLocation loc, const char *msg);

#ifdef __cplusplus
}
#endif

#endif
