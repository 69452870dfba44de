//===- loop_guard.cpp - conditions on an affine loop's bounds -------------===//
//
// See loop_guard.h.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/Affine/Analysis/AffineAnalysis.h"
#include "mlir/Dialect/Affine/Analysis/AffineStructures.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IntegerSet.h"

#include "loop_guard.h"

#include <algorithm>

// The affine.for, affine.parallel and affine.if operations around `op`
// whose constraints hold where `op` runs, outermost first, in `ops` (an
// affine.if only if `op` is in its then block; nothing beyond the affine
// scope).
void pearl::enclosingConstraints(mlir::Operation *op,
                          llvm::SmallVectorImpl<mlir::Operation *> &ops) {
  using namespace mlir;
  Operation *child = op;
  for (Operation *parent = op->getParentOp();
       parent && !parent->hasTrait<OpTrait::AffineScope>();
       child = parent, parent = parent->getParentOp()) {
    auto ifOp = dyn_cast<affine::AffineIfOp>(parent);
    if (isa<affine::AffineForOp, affine::AffineParallelOp>(parent) ||
        (ifOp && child->getParentRegion() == &ifOp.getThenRegion()))
      ops.push_back(parent);
  }
  std::reverse(ops.begin(), ops.end());
}

// The operands of a condition on both bounds of `forOp`: the dimensions of
// its lower and upper bound maps, then their symbols (the upper bound's
// results shifted by the lower bound's counts, as in the conditions below).
llvm::SmallVector<mlir::Value> pearl::boundOperands(mlir::affine::AffineForOp forOp) {
  unsigned ld = forOp.getLowerBoundMap().getNumDims();
  unsigned ud = forOp.getUpperBoundMap().getNumDims();
  llvm::SmallVector<mlir::Value> lbOps(forOp.getLowerBoundOperands());
  llvm::SmallVector<mlir::Value> ubOps(forOp.getUpperBoundOperands());
  llvm::SmallVector<mlir::Value> ops;
  ops.append(lbOps.begin(), lbOps.begin() + ld);
  ops.append(ubOps.begin(), ubOps.begin() + ud);
  ops.append(lbOps.begin() + ld, lbOps.end());
  ops.append(ubOps.begin() + ud, ubOps.end());
  return ops;
}

bool pearl::boundsStayApart(mlir::affine::AffineForOp forOp, int64_t gap) {
  using namespace mlir;
  using presburger::BoundType;
  AffineMap lb = forOp.getLowerBoundMap(), ub = forOp.getUpperBoundMap();
  SmallVector<Operation *, 8> ops;
  affine::FlatAffineValueConstraints domain;

  enclosingConstraints(forOp, ops);
  if (failed(affine::getIndexSet(ops, &domain)))
    return false;
  for (unsigned k = 0; k < lb.getNumResults(); ++k)
    for (unsigned l = 0; l < ub.getNumResults(); ++l) {
      // t = lb_k and t >= ub_l + gap: empty if the pair never comes
      // that close.
      affine::FlatAffineValueConstraints cst(domain);
      unsigned t = cst.appendDimVar(1);
      AffineMap above = AffineMap::get(ub.getNumDims(), ub.getNumSymbols(),
                                       ub.getResult(l) + gap);
      if (failed(cst.addBound(BoundType::EQ, t, lb.getSubMap({k}),
                              forOp.getLowerBoundOperands())) ||
          failed(cst.addBound(BoundType::LB, t, above,
                              forOp.getUpperBoundOperands())) ||
          !cst.isIntegerEmpty())
        return false;
    }
  return true;
}

// Puts `forOp` under an affine.if that holds when it runs at least once:
// ub_l - lb_k >= 1 for every lower bound result k and upper bound result
// l (its operands are laid out as versionBounds's). Inside, the loop's
// trip count is positive.
void pearl::guardNonEmpty(mlir::affine::AffineForOp forOp) {
  using namespace mlir;
  AffineMap lb = forOp.getLowerBoundMap(), ub = forOp.getUpperBoundMap();
  unsigned ld = lb.getNumDims(), ls = lb.getNumSymbols();
  unsigned ud = ub.getNumDims(), us = ub.getNumSymbols();
  SmallVector<Value> ifOps = boundOperands(forOp);
  SmallVector<AffineExpr> cons;
  for (unsigned k = 0; k < lb.getNumResults(); ++k)
    for (unsigned l = 0; l < ub.getNumResults(); ++l)
      cons.push_back(ub.getResult(l).shiftDims(ud, ld).shiftSymbols(us, ls) -
                     lb.getResult(k) - 1);
  IntegerSet set = IntegerSet::get(ld + ud, ls + us, cons,
                                   SmallVector<bool>(cons.size(), false));
  // Once the operands the bounds share are merged, a pair whose distance
  // is a constant (at least 1) needs no test.
  affine::canonicalizeSetAndOperands(&set, &ifOps);
  cons.clear();
  for (AffineExpr e : set.getConstraints()) {
    e = simplifyAffineExpr(e, set.getNumDims(), set.getNumSymbols());
    auto c = dyn_cast<AffineConstantExpr>(e);
    if (!c || c.getValue() < 0)
      cons.push_back(e);
  }
  if (cons.empty() || boundsStayApart(forOp, 0))
    return;
  set = IntegerSet::get(set.getNumDims(), set.getNumSymbols(), cons,
                        SmallVector<bool>(cons.size(), false));
  affine::canonicalizeSetAndOperands(&set, &ifOps);
  OpBuilder b(forOp);
  auto ifOp = affine::AffineIfOp::create(b, forOp.getLoc(), set, ifOps,
                                         /*withElseRegion=*/false);
  forOp->moveBefore(ifOp.getThenBlock()->getTerminator());
}

