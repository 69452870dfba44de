//===- unroll_shim.cpp - MLIR's affine loop unroller for the code generator ===//
//
// The code generator (codegen_region.c) unrolls the loops under an unroll mark
// with MLIR's affine unroller, which has no C API: pearl_mlir_unroll_loop
// (pearl/mlir_codegen.h), with versioning of max / min bounds and the
// hoisting of the version condition.
//
//===----------------------------------------------------------------------===//

#include "mlir/CAPI/IR.h"
#include "mlir/Dialect/Affine/Analysis/AffineAnalysis.h"
#include "mlir/Dialect/Affine/Analysis/AffineStructures.h"
#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/LoopUtils.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IntegerSet.h"

#include "pearl/mlir_codegen.h"

#include "loop_guard.h"

#include <climits>

namespace {
// Loops whose bounds are a max / min of more than this many combinations
// are left as they are rather than versioned.
constexpr unsigned kMaxUnrollVersions = 4;

// Unrolls a loop MLIR's unroller takes: completely if it runs at most `f`
// times, else by `f` (with a cleanup loop when `f` does not divide the trip
// count; MLIR refuses that for max / min bounds).
bool unrollOne(mlir::affine::AffineForOp forOp, uint64_t f) {
  std::optional<uint64_t> trip = mlir::affine::getConstantTripCount(forOp);
  if (trip && *trip <= f)
    return mlir::succeeded(mlir::affine::loopUnrollFull(forOp));
  return mlir::succeeded(mlir::affine::loopUnrollByFactor(forOp, f));
}

// Whether MLIR's unroller can unroll `forOp` by `f` as it is: single-result
// bounds, or a constant trip count that `f` divides or that is at most `f`.
bool unrollerTakes(mlir::affine::AffineForOp forOp, uint64_t f) {
  if (forOp.getLowerBoundMap().getNumResults() == 1 &&
      forOp.getUpperBoundMap().getNumResults() == 1)
    return true;
  std::optional<uint64_t> trip = mlir::affine::getConstantTripCount(forOp);
  return trip && (*trip <= f || *trip % f == 0);
}

// Replaces `forOp`, whose lower bound is a max of nl results and upper
// bound a min of nu, by nl * nu versions with single-result bounds, in a
// chain of affine.if / else: version (k, l) runs when result k is the
// largest lower bound and result l the smallest upper bound (ties run the
// first version that holds; the last version runs when no other does, and
// then its condition holds). Each version is exactly the original loop.
// Returns the versions, and the outermost affine.if in *outer.
llvm::SmallVector<mlir::affine::AffineForOp, kMaxUnrollVersions>
versionBounds(mlir::affine::AffineForOp forOp,
              mlir::affine::AffineIfOp *outer) {
  using namespace mlir;
  AffineMap lb = forOp.getLowerBoundMap(), ub = forOp.getUpperBoundMap();
  unsigned nl = lb.getNumResults(), nu = ub.getNumResults();
  unsigned ld = lb.getNumDims(), ls = lb.getNumSymbols();
  unsigned ud = ub.getNumDims(), us = ub.getNumSymbols();
  SmallVector<Value> lbOps(forOp.getLowerBoundOperands());
  SmallVector<Value> ubOps(forOp.getUpperBoundOperands());
  // The condition's operands: the dimensions of both maps, then their
  // symbols; the upper bound's results are shifted accordingly.
  SmallVector<Value> ifOps = pearl::boundOperands(forOp);
  auto lower = [&](unsigned k) { return lb.getResult(k); };
  auto upper = [&](unsigned k) {
    return ub.getResult(k).shiftDims(ud, ld).shiftSymbols(us, ls);
  };
  SmallVector<affine::AffineForOp, kMaxUnrollVersions> versions;
  OpBuilder b(forOp);
  for (unsigned v = 0; v < nl * nu; ++v) {
    unsigned k = v / nu, l = v % nu;
    affine::AffineForOp copy;
    if (v + 1 < nl * nu) {
      SmallVector<AffineExpr> cons;
      for (unsigned j = 0; j < nl; ++j)
        if (j != k)
          cons.push_back(lower(k) - lower(j));
      for (unsigned j = 0; j < nu; ++j)
        if (j != l)
          cons.push_back(upper(j) - upper(l));
      IntegerSet set = IntegerSet::get(ld + ud, ls + us, cons,
                                       SmallVector<bool>(cons.size(), false));
      auto ifOp = affine::AffineIfOp::create(b, forOp.getLoc(), set, ifOps,
                                             /*withElseRegion=*/true);
      if (v == 0)
        *outer = ifOp;
      OpBuilder tb = ifOp.getThenBodyBuilder();
      copy = cast<affine::AffineForOp>(tb.clone(*forOp));
      b = ifOp.getElseBodyBuilder();
    } else {
      copy = cast<affine::AffineForOp>(b.clone(*forOp));
    }
    copy.setLowerBound(lbOps, AffineMap::get(ld, ls, lb.getResult(k)));
    copy.setUpperBound(ubOps, AffineMap::get(ud, us, ub.getResult(l)));
    versions.push_back(copy);
  }
  forOp.erase();
  return versions;
}
} // namespace

// Whether the loop around `ifOp` (if any) holds nothing but `ifOp`.
static bool holdsOnly(mlir::affine::AffineIfOp ifOp) {
  auto parent = ifOp->getParentOfType<mlir::affine::AffineForOp>();
  if (!parent)
    return true;
  mlir::Block *body = parent.getBody();
  return &body->front() == ifOp.getOperation() &&
         ifOp->getNextNode() == body->getTerminator();
}

// The ops of `branch` (a block of an affine.if, without its terminator)
// moved before `at`.
static void spliceBranch(mlir::Block *branch, mlir::Operation *at) {
  auto &ops = branch->getOperations();
  at->getBlock()->getOperations().splice(mlir::Block::iterator(at), ops,
                                         ops.begin(), std::prev(ops.end()));
}

// Moves `ifOp` out of the loop around it while that loop holds nothing
// else and the condition does not use its iterator or anything defined
// inside it: `for i { if (c) A else B }` becomes
// `if (c) { for i A } else { for i B }`. MLIR's hoistAffineIfOp does the
// same, but first runs the greedy pattern driver on the affine.if, which
// in MLIR 22 also erased dead operations beside the generated code (the
// region's anchor among them: a crash, pearl-tune's test module, a
// memref.dim after an unroll-and-jammed loop).
static void hoistOutOfSoleLoops(mlir::affine::AffineIfOp ifOp) {
  for (;;) {
    auto parent =
        llvm::dyn_cast<mlir::affine::AffineForOp>(ifOp->getParentOp());
    if (!parent || !holdsOnly(ifOp))
      return;
    for (mlir::Value v : ifOp.getOperands())
      if (parent.getRegion().isAncestor(v.getParentRegion()))
        return;
    mlir::OpBuilder b(parent);
    auto hoisted = mlir::affine::AffineIfOp::create(
        b, ifOp.getLoc(), ifOp.getIntegerSet(), ifOp.getOperands(),
        ifOp.hasElse());
    // The else side runs a copy of the loop with the else branch; the
    // loop itself moves to the then side (a loop recorded to be unrolled
    // stays valid, as with MLIR's hoisting).
    if (ifOp.hasElse()) {
      b.setInsertionPointToStart(hoisted.getElseBlock());
      auto copy = llvm::cast<mlir::affine::AffineForOp>(b.clone(*parent));
      auto inner =
          llvm::cast<mlir::affine::AffineIfOp>(copy.getBody()->front());
      spliceBranch(inner.getElseBlock(), inner);
      inner.erase();
    }
    parent->moveBefore(hoisted.getThenBlock()->getTerminator());
    spliceBranch(ifOp.getThenBlock(), ifOp);
    ifOp.erase();
    ifOp = hoisted;
  }
}

extern "C" int pearl_mlir_unroll_loop(MlirOperation op, int factor) {
  auto forOp = llvm::dyn_cast<mlir::affine::AffineForOp>(unwrap(op));
  if (!forOp || factor < 2)
    return 0;
  uint64_t f = static_cast<uint64_t>(factor);
  bool takes = unrollerTakes(forOp, f);
  // A max lower or min upper bound: MLIR cannot express the cleanup
  // loop's lower bound, so the loop is versioned by which bound is active
  // and each version is unrolled (below), up to kMaxUnrollVersions.
  if (!takes && forOp.getLowerBoundMap().getNumResults() *
                        forOp.getUpperBoundMap().getNumResults() >
                    kMaxUnrollVersions)
    return 0;
  // MLIR's unroller (loopUnrollByFactor, MLIR 22) takes the trip count tc
  // to be ceildiv(ub - lb, step), never clamped at 0, and ends the main
  // loop and starts the cleanup loop at lb + floor(tc / f) * f * step: for
  // a loop that runs with ub a step or more below lb (tc < 0) and f not
  // dividing tc, that is below ub, and the cleanup loop runs up to f - 1
  // iterations the loop never had (mlir-opt --affine-loop-unroll turns
  // `affine.for %i = 5 to %n` by 3 into a cleanup loop that runs i = 2, 3
  // for n = 4). isl leaves a loop empty rather than guard it when its
  // bounds make it so, and the versions below run with the pair of bounds
  // that is active, which cross when the loop is empty (a skewed tile's
  // point loop, max(0, x + 1) to min(3, x + 11): WRONG_OUTPUT). A loop
  // that may run with a negative trip count is unrolled under a condition
  // that it runs at least once.
  if (!mlir::affine::getConstantTripCount(forOp) &&
      !pearl::boundsStayApart(forOp, forOp.getStepAsInt()))
    pearl::guardNonEmpty(forOp);
  if (takes)
    return unrollOne(forOp, f);
  // The versions (not mlir::affine::separateFullTiles: it assumes the
  // strip starts at its tile's origin and miscompiles the shifted point
  // loops isl generates for tiles, jacobi-2d).
  int all = 1;
  mlir::affine::AffineIfOp outer;
  for (mlir::affine::AffineForOp version : versionBounds(forOp, &outer))
    all &= unrollOne(version, f);
  // The condition depends on the loops the bounds use, rarely on all the
  // enclosing ones: move it out of the others (e.g. the point loop of the
  // tile around), so that the loop LLVM vectorizes is not split by it.
  // Only the outermost condition of a chain is hoisted, and only out of
  // a loop that holds nothing else: hoisting versions the loop it leaves,
  // so anything beside the condition would be copied into both versions,
  // and with several unrolled loops in one nest the code doubled at each
  // (pearl-gen --seed 100294 --size-scale small, "R(0) N I(2,1) T(1,2,8,8)
  // T(3,4,5,5) T(3,4,4,5) S(6,7,1,1) U(5) S(3,4) S(5,6) S(6,7,-1,-1)":
  // 280,000 operations after ten unrolled loops, and minutes).
  mlir::IntegerSet set = outer.getIntegerSet();
  llvm::SmallVector<mlir::Value> ops(outer.getOperands());
  mlir::affine::canonicalizeSetAndOperands(&set, &ops);
  outer.setConditional(set, ops);
  hoistOutOfSoleLoops(outer);
  return all;
}

