/*
 * pearl/mlir_linalg.h - linalg ops as loop regions of the MLIR frontend.
 *
 * Pearl models loops, so a structured linalg op (linalg.generic and the
 * named ops: matmul, batch_matmul, conv_2d_*, pooling_*, add, map, fill,
 * transpose, ...) on buffers is first expanded in place into the affine
 * loops of its iteration domain, as `convert-linalg-to-affine-loops` does:
 * one affine.for per loop dimension over the ranges the indexing maps give
 * the static operand shapes, an affine.load per input and output operand
 * read by the payload (indices = the indexing map of the operand), the
 * payload's operations, and an affine.store of each yielded value through
 * the output's indexing map. The expanded nests are then ordinary affine
 * regions (pearl/mlir_frontend.h): consecutive linalg ops and affine loops
 * of one block form one multi-nest program, and the policy sees exactly the
 * graph it sees for the equivalent hand-written affine loops.
 *
 * The original op is detached, not erased: when the region holding its
 * nest is not rewritten (not modeled, nothing applied, code generation
 * failed), pearl_mlir_linalg_settle puts it back and erases the expansion,
 * so the function is exactly as it was.
 *
 * Left alone with a remark: ops with tensor semantics (not bufferized),
 * dynamic shapes, output indexing maps that are not projected permutations
 * (an output cell written by several points of a parallel dimension),
 * ops without loops, and ops the expansion rejects.
 */
#ifndef PEARL_MLIR_LINALG_H
#define PEARL_MLIR_LINALG_H

#include <mlir-c/IR.h>

#include "pearl/mlir_frontend.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The expanded linalg ops of one function. */
typedef struct pearl_mlir_linalg pearl_mlir_linalg;

/* Expands every supported linalg op of `func` (kept) into affine loops in
 * place (originals detached and kept in the result); unsupported ones are
 * reported to `skip` and stay. Returns the set (possibly empty), or NULL if
 * out of memory (then nothing was changed). */
pearl_mlir_linalg *pearl_mlir_linalg_expand(MlirOperation func,
					    pearl_mlir_skip_fn skip,
					    void *user);

/* Number of ops expanded. */
int pearl_mlir_linalg_n_ops(pearl_mlir_linalg *lin);

/* Records which of `regions` (n of them, as found after the expansion)
 * holds each expanded op's nest. To be called before any region is
 * rewritten. */
void pearl_mlir_linalg_assign(pearl_mlir_linalg *lin,
			      const pearl_mlir_region *regions, int n);

/* Settles every expanded op and frees `lin` (taken; NULL accepted):
 * ops whose region was rewritten (rewritten[region] != 0) are erased for
 * good; the others are put back where they were and their expansion is
 * erased. `rewritten` may be NULL (nothing was rewritten). */
void pearl_mlir_linalg_settle(pearl_mlir_linalg *lin, const int *rewritten);

/* ---- implemented by the C++ shim (no C API exists for these) ---- */

/* If `op` implements linalg's structured-op interface: its indexing maps
 * (an array attribute of affine maps, one per operand: inputs first, then
 * outputs) with *n_inputs / *n_outputs set. A null attribute otherwise. */
MlirAttribute pearl_mlir_linalg_maps(MlirOperation op, int *n_inputs,
				     int *n_outputs);

/* Expands `op` (a structured linalg op on buffers, kept) into affine loops
 * inserted right before it (MLIR's linalg-to-affine lowering), erasing the
 * expansion's dead operations. The new operations are *first..*last of
 * op's block. Returns their number (0: nothing was built), or -1 if the
 * expansion failed (nothing was built). The op itself is not changed. */
int pearl_mlir_linalg_lower(MlirOperation op, MlirOperation *first,
			    MlirOperation *last);

#ifdef __cplusplus
}
#endif

#endif
