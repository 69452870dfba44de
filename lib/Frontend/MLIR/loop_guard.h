//===- loop_guard.h - conditions on an affine loop's bounds ---*- C++ -*-===//
//
// Shared by the code generator's C++ shims (unroll_shim.cpp,
// promote_shim.cpp): an affine.if that holds where an affine.for runs at
// least once.
//
//===----------------------------------------------------------------------===//

#ifndef PEARL_LOOP_GUARD_H
#define PEARL_LOOP_GUARD_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "llvm/ADT/SmallVector.h"

namespace pearl {

// The operands of a condition on both bounds of `forOp`: the dimensions of
// its lower and upper bound maps, then their symbols (the upper bound's
// results shifted by the lower bound's counts).
llvm::SmallVector<mlir::Value> boundOperands(mlir::affine::AffineForOp forOp);

// The affine.for, affine.parallel and affine.if operations around `op`
// whose constraints hold where `op` runs, outermost first, in `ops` (an
// affine.if only if `op` is in its then block; nothing beyond the affine
// scope).
void enclosingConstraints(mlir::Operation *op,
                          llvm::SmallVectorImpl<mlir::Operation *> &ops);

// Whether, under the loops and conditions around `forOp`, no lower bound
// result k and upper bound result l can have lb_k >= ub_l + gap: with gap
// 0, the loop runs at least once wherever it runs; with gap = step, its
// trip count is never negative. False when it cannot tell.
bool boundsStayApart(mlir::affine::AffineForOp forOp, int64_t gap);

// Puts `forOp` under an affine.if that holds when it runs at least once
// (ub_l - lb_k >= 1 for every lower bound result k and upper bound result
// l); no condition where the bounds' distance is a constant of at least 1,
// or where the loops and conditions around it imply it
// (boundsStayApart with gap 0). Inside, the loop's trip count is positive.
void guardNonEmpty(mlir::affine::AffineForOp forOp);

} // namespace pearl

#endif
