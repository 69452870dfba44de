/* Internal to the MLIR frontend: scalar buffers modeled and generated as
 * one element per iteration of a loop (scalar expansion).
 *
 * Front ends write a scalar that a loop body recomputes from scratch as a
 * one-element buffer (PolyBench's `temp2` in symm, `nrm` in gramschmidt as
 * Polygeist and our kernels emit them: memref.alloca() : memref<1xf64>).
 * Every iteration of the loop reuses the one element, so the model would
 * see dependences from each iteration to the next (WAR, WAW) that forbid
 * running the iterations in another order, though no value flows between
 * them. When every iteration writes the element before it reads it, the
 * element is private to the iteration: Pearl models the buffer as one
 * element per iteration of that loop, and code generation gives the
 * rewritten nest such a buffer (a memref.alloca of the loop's trip count
 * placed after the original one). The dependences are then exact, and a
 * nest left as it was keeps the original buffer.
 *
 * A buffer is private to loop L of a region when
 * - it is the result of a memref.alloca without operands, of static shape
 *   with one element;
 * - every use of it in the function is the memref of an affine.load or
 *   affine.store inside the region (so no value enters or leaves the
 *   region through it);
 * - L is the innermost affine.for around all of those accesses, with
 *   constant bounds, step 1 and between 1 and PEARL_PRIVATE_MAX_TRIP
 *   iterations;
 * - the first operation of L's body that accesses the buffer is an
 *   affine.store to it (so each iteration writes it before any read).
 */
#ifndef PEARL_MLIR_PRIVATIZE_H
#define PEARL_MLIR_PRIVATIZE_H

#include <mlir-c/IR.h>
#include <stdint.h>

#include "pearl/mlir_frontend.h"

/* The expanded buffer's largest number of elements (its place is the
 * stack, where the original one was). */
#define PEARL_PRIVATE_MAX_TRIP 16384

struct pearl_mlir_private {
	MlirValue memref;   /* the one-element buffer */
	MlirOperation loop; /* the affine.for it is private to */
	int64_t lb;	    /* the loop's lower bound */
	int64_t trip;	    /* and trip count: element i - lb for i */
};

/* The buffers private to a loop of `region`, in the order the region
 * first accesses them, through *out (the caller frees the array with
 * free(); NULL when there are none). Returns their number, or -1 if
 * memory is exhausted. */
int pearl_mlir_find_privates(const pearl_mlir_region *region,
			     struct pearl_mlir_private **out);

/* The index in `privates` (n of them) of the entry of `memref`, -1 if the
 * buffer is not private. */
int pearl_mlir_private_index(const struct pearl_mlir_private *privates,
			     int n, MlirValue memref);

#endif
