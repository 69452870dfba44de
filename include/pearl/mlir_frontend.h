/*
 * pearl/mlir_frontend.h - the MLIR frontend: finds the loop regions of a
 * function that Pearl can model and builds their pearl_program.
 *
 * A region is a maximal run of consecutive operations of one block that
 * starts and ends with an affine.for or affine.if and contains only
 * modelable operations: affine.for / affine.if / affine.load / affine.store /
 * affine.apply / affine.min / affine.max, and the arith and math dialects.
 * Statements are affine.store operations (with the operations computing the
 * stored value); values defined outside a region's loops are parameters.
 *
 * Memrefs are identified by SSA value; distinct memref values are assumed
 * not to alias (as MLIR's affine analyses assume), except that memrefs
 * produced by view-like operations make the region unsupported.
 */
#ifndef PEARL_MLIR_FRONTEND_H
#define PEARL_MLIR_FRONTEND_H

#include <mlir-c/IR.h>

#include "pearl/program.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A region: the operations first..last (inclusive) of one block. */
typedef struct pearl_mlir_region {
	MlirOperation first;
	MlirOperation last;
} pearl_mlir_region;

/* Receives one reason why a nest is left alone, at the location of the
 * operation responsible. */
typedef void (*pearl_mlir_skip_fn)(MlirLocation loc, const char *reason,
				   void *user);

/* The regions of `func` (kept), in textual order, through *regions (the
 * caller frees the array with free()). Each nest that cannot be modeled is
 * reported to `skip`. Returns the number of regions, or -1 if out of memory. */
int pearl_mlir_find_regions(MlirOperation func, pearl_mlir_region **regions,
			    pearl_mlir_skip_fn skip, void *user);

/* The model of `region` of `func`, named after the function (__isl_give).
 * On failure returns NULL with the reason in `ctx` and, in *where, the
 * location of the operation responsible. */
pearl_program *pearl_mlir_extract(pearl_ctx *ctx, MlirOperation func,
				  const pearl_mlir_region *region,
				  MlirLocation *where);

#ifdef __cplusplus
}
#endif

#endif
