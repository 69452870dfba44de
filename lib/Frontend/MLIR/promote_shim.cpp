//===- promote_shim.cpp - register promotion for the code generator -------===//
//
// pearl_mlir_promote_invariant (pearl/mlir_codegen.h): the elements an
// innermost loop updates at the same place in every iteration (C[i][j] in
// the k loop of a matrix product, once J has unrolled the i and j point
// loops inside it) are loaded once before the loop, carried through it as
// iter_args and stored once after it. LLVM does the same (LICM's scalar
// promotion) only when it can prove that nothing else in the loop touches
// those elements, which it often cannot for the address arithmetic of
// large unrolled bodies. MLIR's affine analysis, which has no C API here,
// proves it for us: every other access of the array in the loop is at a
// constant distance from the promoted one, or, failing that, has no
// dependence with it within a run of the loop (LU's A[i][j] -= A[i][k] *
// A[k][j] over k < i <= j), the loop's step taken into account (the main
// loop of an unrolled one).
//
//===----------------------------------------------------------------------===//

#include "mlir/CAPI/IR.h"
#include "mlir/Dialect/Affine/Analysis/AffineAnalysis.h"
#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Affine/Analysis/Utils.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/IR/AffineValueMap.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "pearl/mlir_codegen.h"

#include "loop_guard.h"

namespace {
using namespace mlir;

// An affine load or store of a loop body with its fully composed access
// map, computed once (composing walks the chains of affine.apply, and an
// unrolled body compares every access with every element).
struct Access {
  Operation *op;
  Value memref;
  AffineMap map;
  SmallVector<Value, 8> operands;

  explicit Access(Operation *memOp) : op(memOp) {
    affine::MemRefAccess access(memOp);
    affine::AffineValueMap composed;
    access.getAccessMap(&composed);
    memref = access.memref;
    map = composed.getAffineMap();
    operands.assign(composed.getOperands().begin(),
                    composed.getOperands().end());
  }
  bool isStore() const { return isa<affine::AffineStoreOp>(op); }
};

// The accesses of one element: one or more loads and stores of a loop body
// whose fully composed access maps are equal and loop-invariant.
struct Element {
  Access first;                     // the first access, in body order
  SmallVector<Operation *, 4> ops;  // every access, in body order
  bool written = false;
};

// Whether the access uses only values defined outside `loop`.
bool isInvariant(const Access &access, affine::AffineForOp loop) {
  for (Value v : access.operands)
    if (!loop.isDefinedOutsideOfLoop(v))
      return false;
  return true;
}

// The difference of two accesses' composed maps, result by result,
// simplified. Accesses over the same operands (the elements of an unrolled
// body) are subtracted directly; others through
// AffineValueMap::difference, which first merges their operands.
SmallVector<AffineExpr, 4> distance(const Access &a, const Access &b) {
  SmallVector<AffineExpr, 4> diff;
  AffineMap d;
  if (a.operands == b.operands && a.map.getNumDims() == b.map.getNumDims()) {
    d = a.map;
    for (unsigned i = 0; i < a.map.getNumResults(); ++i)
      diff.push_back(a.map.getResult(i) - b.map.getResult(i));
  } else {
    affine::AffineValueMap ma(a.map, a.operands), mb(b.map, b.operands), vd;
    affine::AffineValueMap::difference(ma, mb, &vd);
    d = vd.getAffineMap();
    diff.assign(d.getResults().begin(), d.getResults().end());
  }
  for (AffineExpr &e : diff)
    e = simplifyAffineExpr(e, d.getNumDims(), d.getNumSymbols());
  return diff;
}

// Whether two accesses of one memref touch the same element: their
// composed maps are equal.
bool sameElement(const Access &a, const Access &b) {
  for (AffineExpr e : distance(a, b))
    if (auto c = dyn_cast<AffineConstantExpr>(e); !c || c.getValue() != 0)
      return false;
  return true;
}

// Whether two accesses of one memref never touch the same element: their
// composed maps differ by a nonzero constant in some dimension.
bool provablyDisjoint(const Access &a, const Access &b) {
  for (AffineExpr e : distance(a, b))
    if (auto c = dyn_cast<AffineConstantExpr>(e); c && c.getValue() != 0)
      return true;
  return false;
}

// Dependence checks between two accesses allowed per loop (each is an
// integer feasibility problem).
constexpr unsigned kMaxDependenceChecks = 256;

// Whether accesses `a` and `b` (of one memref, in `loop`'s body, at loop
// depth `depth`) never touch the same element in one run of the loop:
// no dependence between them carried by the loop or within one of its
// iterations, in either direction (MLIR's affine dependence analysis, over
// the loops and conditions around them). Two loads never conflict.
bool neverMeetInLoop(const affine::MemRefAccess &a,
                     const affine::MemRefAccess &b, unsigned depth,
                     unsigned &checks) {
  if (!a.isStore() && !b.isStore())
    return true;
  for (unsigned d : {depth, depth + 1})
    for (int order = 0; order < 2; ++order) {
      if (++checks > kMaxDependenceChecks)
        return false;
      affine::DependenceResult r = affine::checkMemrefAccessDependence(
          order ? b : a, order ? a : b, d);
      if (r.value != affine::DependenceResult::NoDependence)
        return false;
    }
  return true;
}

// Whether accesses `a` and `b` of one memref, in the body of `loop`, whose
// step is greater than 1, never touch the same element in one run of the
// loop. MLIR's dependence analysis (above) drops the step of a loop whose
// lower bound is not constant: over the main loop of an unrolled one (step
// 4, lower bound N - ii, its copies at k, k + 1, k + 2, k + 3), the copy at
// k + 3 then seems to reach past the upper bound, and Nussinov's
// table[i][k + 3] to meet table[i][j]. Here the system is the index set of
// the accesses' loops and conditions, the iterator on its stride (k = lb +
// step * q, for a lower bound of one result) and the equality of the two
// composed access maps; it has no integer point when they never meet.
// Fails (false) where the system cannot be built.
bool neverMeetInStridedLoop(const Access &a, const Access &b,
                            affine::AffineForOp loop) {
  if (!a.isStore() && !b.isStore())
    return true;
  AffineMap lb = loop.getLowerBoundMap();
  if (lb.getNumResults() != 1 ||
      a.map.getNumResults() != b.map.getNumResults())
    return false;
  SmallVector<Operation *, 4> ops;
  affine::getEnclosingAffineOps(*a.op, &ops);
  affine::FlatAffineValueConstraints cst;
  unsigned ivPos;
  if (failed(affine::getIndexSet(ops, &cst)) ||
      !cst.findVar(loop.getInductionVar(), &ivPos))
    return false;
  unsigned lbPos = cst.appendDimVar(), qPos = cst.appendDimVar();
  if (failed(cst.addBound(presburger::BoundType::EQ, lbPos, lb,
                          loop.getLowerBoundOperands())))
    return false;
  SmallVector<int64_t, 16> stride(cst.getNumCols(), 0);
  stride[ivPos] = 1;
  stride[lbPos] = -1;
  stride[qPos] = -loop.getStepAsInt();
  cst.addEquality(stride);
  for (unsigned r = 0; r < a.map.getNumResults(); ++r) {
    unsigned at = cst.appendDimVar();
    if (failed(cst.addBound(presburger::BoundType::EQ, at,
                            a.map.getSubMap({r}), a.operands)) ||
        failed(cst.addBound(presburger::BoundType::EQ, at,
                            b.map.getSubMap({r}), b.operands)))
      return false;
  }
  return cst.isEmpty();
}

// The elements of `loop`'s body to promote: per memref written in the
// body, the elements written at a loop-invariant place, when no other
// access of the memref in the loop may touch them: the other invariant
// elements at a constant distance, and the accesses that move with the
// loop (or elements at a symbolic distance) proved apart by the
// dependence analysis. Fails (empty) when the body holds anything but
// affine loads and stores, affine.apply and operations without memory
// effects. `byStride` says whether an element promoted needed the loop's
// stride (neverMeetInStridedLoop) to be proved apart.
SmallVector<Element> promotable(affine::AffineForOp loop, bool &byStride) {
  llvm::MapVector<Value, SmallVector<Element>> byMemref;
  llvm::DenseMap<Value, SmallVector<Operation *>> moving;
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (isa<affine::AffineLoadOp, affine::AffineStoreOp>(op)) {
      Access access(&op);
      if (!isInvariant(access, loop)) {
        moving[access.memref].push_back(&op);
        continue;
      }
      SmallVector<Element> &elements = byMemref[access.memref];
      Element *found = nullptr;
      for (Element &e : elements)
        if (sameElement(e.first, access))
          found = &e;
      if (!found) {
        elements.push_back(Element{access, {}, false});
        found = &elements.back();
      }
      found->ops.push_back(&op);
      found->written |= access.isStore();
      continue;
    }
    if (op.getNumRegions() != 0 || !isMemoryEffectFree(&op))
      return {};
  }
  unsigned depth = affine::getNestingDepth(loop) + 1, checks = 0;
  bool strided = loop.getStepAsInt() > 1, stride = false;
  auto apartInLoop = [&](Operation *x, Operation *y) {
    if (neverMeetInLoop(affine::MemRefAccess(x), affine::MemRefAccess(y),
                        depth, checks))
      return true;
    if (!strided || ++checks > kMaxDependenceChecks ||
        !neverMeetInStridedLoop(Access(x), Access(y), loop))
      return false;
    stride = true;
    return true;
  };
  SmallVector<Element> result;
  byStride = false;
  for (auto &[memref, elements] : byMemref) {
    const SmallVector<Operation *> &others = moving.lookup(memref);
    bool apart = true;
    stride = false;
    for (size_t i = 0; i < elements.size() && apart; ++i) {
      for (size_t j = i + 1; j < elements.size() && apart; ++j)
        if (!provablyDisjoint(elements[i].first, elements[j].first))
          for (Operation *x : elements[i].ops)
            for (Operation *y : elements[j].ops)
              apart = apart && apartInLoop(x, y);
      for (Operation *o : others)
        for (Operation *x : elements[i].ops)
          apart = apart && apartInLoop(x, o);
    }
    if (!apart)
      continue;
    for (Element &e : elements)
      if (e.written) {
        result.push_back(e);
        byStride |= stride;
      }
  }
  return result;
}

// Promotes `elements` of `loop`: returns whether the loop was rewritten.
bool promote(affine::AffineForOp loop, ArrayRef<Element> elements) {
  IRRewriter rewriter(loop.getContext());
  Location loc = loop.getLoc();
  SmallVector<Value> inits;
  rewriter.setInsertionPoint(loop);
  for (const Element &e : elements)
    inits.push_back(affine::AffineLoadOp::create(
        rewriter, loc, e.first.memref, e.first.map, e.first.operands));
  // The loop's hints (loop_annotation) stay with it; the old loop is
  // erased by the replacement.
  DictionaryAttr hints = loop->getDiscardableAttrDictionary();
  // The new iter_args are yielded unchanged first; the body is rewritten
  // to carry the elements below.
  FailureOr<LoopLikeOpInterface> replaced = loop.replaceWithAdditionalYields(
      rewriter, inits, /*replaceInitOperandUsesInLoop=*/false,
      [](OpBuilder &, Location, ArrayRef<BlockArgument> args) {
        return SmallVector<Value>(args.begin(), args.end());
      });
  if (failed(replaced)) {
    for (Value v : inits)
      rewriter.eraseOp(v.getDefiningOp());
    return false;
  }
  auto newLoop = cast<affine::AffineForOp>(replaced->getOperation());
  newLoop->setDiscardableAttrs(hints);
  unsigned first = newLoop.getNumRegionIterArgs() - elements.size();
  auto yield = cast<affine::AffineYieldOp>(newLoop.getBody()->getTerminator());
  rewriter.setInsertionPointAfter(newLoop);
  for (size_t k = 0; k < elements.size(); ++k) {
    Value current = newLoop.getRegionIterArgs()[first + k];
    for (Operation *op : elements[k].ops) {
      if (auto load = dyn_cast<affine::AffineLoadOp>(op)) {
        rewriter.replaceAllUsesWith(load.getResult(), current);
      } else {
        current = cast<affine::AffineStoreOp>(op).getValueToStore();
      }
    }
    yield->setOperand(first + k, current);
    const Access &at = elements[k].first;
    affine::AffineStoreOp::create(rewriter, loc, newLoop.getResult(first + k),
                                  at.memref, at.map, at.operands);
  }
  for (const Element &e : elements)
    for (Operation *op : e.ops)
      rewriter.eraseOp(op);
  return true;
}
} // namespace

extern "C" int pearl_mlir_promote_invariant(MlirOperation top,
                                            int *n_by_stride) {
  // Innermost affine.for loops (no loop, parallel loop or condition
  // inside), collected first: promotion replaces them.
  SmallVector<affine::AffineForOp> loops;
  unwrap(top)->walk([&](affine::AffineForOp loop) {
    bool innermost = true;
    loop.getBody()->walk([&](Operation *op) {
      if (isa<affine::AffineForOp, affine::AffineParallelOp,
              affine::AffineIfOp>(op))
        innermost = false;
    });
    if (innermost)
      loops.push_back(loop);
  });
  int promoted = 0;
  if (n_by_stride)
    *n_by_stride = 0;
  for (affine::AffineForOp loop : loops) {
    std::optional<uint64_t> trip = affine::getConstantTripCount(loop);
    if ((trip && *trip < 1) || loop.getNumIterOperands() != 0)
      continue;
    bool byStride = false;
    SmallVector<Element> elements = promotable(loop, byStride);
    if (elements.empty())
      continue;
    // The store after the loop writes back what the loop wrote; a loop
    // that does not run wrote nothing (another thread may own the element
    // then), so a loop that may not run is promoted under a condition
    // that it runs.
    if (!trip)
      pearl::guardNonEmpty(loop);
    if (promote(loop, elements)) {
      promoted += static_cast<int>(elements.size());
      if (n_by_stride && byStride)
        ++*n_by_stride;
    }
  }
  return promoted;
}
