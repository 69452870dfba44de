/*
 * pearl/mlir_lowering.h - Pearl's lowering to the LLVM dialect, written
 * once: pearl-exec and the environment run it (lib/Exec/exec_jit.c), and
 * the plugin registers it for stock mlir-opt as the pipeline `pearl-lower`
 * (passes/mlir/LowerPass.cpp).
 *
 *   PEARL_LOWER_FIRST, then lower-affine with the loops' hints carried over
 *   it (pearl-lower-affine in the plugin), then PEARL_LOWER_REST, then the
 *   alias scopes of the functions Pearl rewrote (pearl_alias_scopes_apply,
 *   pearl/mlir_alias_scopes.h; pearl-alias-scopes in the plugin).
 *
 * expand-strided-metadata comes first so that views (memref.subview,
 * expand/collapse_shape, reinterpret_cast) lower too: it rewrites them into
 * affine.apply and memref.reinterpret_cast, which the later passes handle;
 * without it they end as unrealized casts that LLVM IR translation
 * rejects. lower-affine turns affine.parallel into scf.parallel, which
 * convert-scf-to-openmp makes an omp.parallel + omp.wsloop; the rest goes
 * to the LLVM dialect (convert-scf-to-cf turns the loop hints,
 * `loop_annotation`, into llvm.loop metadata).
 */
#ifndef PEARL_MLIR_LOWERING_H
#define PEARL_MLIR_LOWERING_H

#define PEARL_LOWER_FIRST "expand-strided-metadata"
#define PEARL_LOWER_REST                                                     \
	"convert-scf-to-openmp,finalize-memref-to-llvm,convert-scf-to-cf,"   \
	"convert-to-llvm,reconcile-unrealized-casts"

#endif
