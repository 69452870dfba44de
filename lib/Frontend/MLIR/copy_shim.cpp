//===- copy_shim.cpp - local copies of the arrays a loop only reads (K) ---===//
//
// The code generator (codegen_region.c) copies, before a loop under a copy mark
// (K(l)), the elements of every memref the loop reads and does not write
// into a new buffer, with MLIR's affine copy generation, which has no C
// API: pearl_mlir_copy_read_only (pearl/mlir_codegen.h).
//
//===----------------------------------------------------------------------===//

#include "mlir/CAPI/IR.h"
#include "mlir/Dialect/Affine/Analysis/AffineAnalysis.h"
#include "mlir/Dialect/Affine/Analysis/Utils.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/IR/AffineValueMap.h"
#include "mlir/Dialect/Affine/LoopUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/IntegerSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

#include "pearl/mlir_codegen.h"

#include <cstdint>
#include <memory>
#include <optional>

namespace {
using namespace mlir;

// The memrefs that `loop` reads with affine loads, in the order of their
// first load, and those it writes in any way.
void loopMemRefs(Operation *loop, llvm::SetVector<Value> &read,
                 llvm::SmallPtrSetImpl<Value> &written) {
  loop->walk([&](Operation *op) {
    if (auto load = dyn_cast<affine::AffineReadOpInterface>(op))
      read.insert(load.getMemRef());
    else if (auto store = dyn_cast<affine::AffineWriteOpInterface>(op))
      written.insert(store.getMemRef());
  });
}

// Whether every use of `memref` inside `loop` is an affine load (the only
// accesses the copy generation redirects to the buffer).
bool onlyAffineLoadsIn(Operation *loop, Value memref) {
  for (Operation *user : memref.getUsers())
    if (loop->isProperAncestor(user) &&
        !isa<affine::AffineReadOpInterface>(user))
      return false;
  return true;
}

// The most terms (bound map results, condition constraints, access
// results) the constraints of one load may have for its region to be
// computed: the elimination of the inner loops' iterators grows with them.
constexpr unsigned kMaxRegionTerms = 48;

// Whether `e` uses mod, floordiv or ceildiv (local variables in the
// region's constraints).
bool usesDivisions(AffineExpr e) {
  bool found = false;
  e.walk([&](AffineExpr sub) {
    found |= sub.getKind() == AffineExprKind::Mod ||
             sub.getKind() == AffineExprKind::FloorDiv ||
             sub.getKind() == AffineExprKind::CeilDiv;
  });
  return found;
}

bool usesDivisions(AffineMap map) {
  return llvm::any_of(map.getResults(),
                      [](AffineExpr e) { return usesDivisions(e); });
}

// Whether the region of `load` can be computed at a bounded cost: no
// division or remainder in its access, in the bounds of the loops around
// it or in the conditions it is under (up to the affine scope), and at most
// kMaxRegionTerms terms in all. Fourier-Motzkin elimination over the
// divisions of skewed, tiled and jammed schedules exhausted the memory
// (pearl-gen --seed 500081 --size-scale small, "N N S(1,2,-1,1) K(1) I(2,0)
// J(0,3) I(0,1) S(2,3,3,-2) S(1,2)", found by fuzzing).
bool regionIsCheap(affine::AffineReadOpInterface load) {
  affine::MemRefAccess access(load);
  affine::AffineValueMap accessMap;
  access.getAccessMap(&accessMap);
  AffineMap map = accessMap.getAffineMap();
  unsigned terms = map.getNumResults();
  if (usesDivisions(map))
    return false;
  for (Operation *op = load->getParentOp();
       op && !op->hasTrait<OpTrait::AffineScope>(); op = op->getParentOp()) {
    llvm::SmallVector<AffineMap, 4> maps;
    if (auto forOp = dyn_cast<affine::AffineForOp>(op)) {
      maps = {forOp.getLowerBoundMap(), forOp.getUpperBoundMap()};
    } else if (auto parOp = dyn_cast<affine::AffineParallelOp>(op)) {
      maps = {parOp.getLowerBoundsMap(), parOp.getUpperBoundsMap()};
    } else if (auto ifOp = dyn_cast<affine::AffineIfOp>(op)) {
      IntegerSet set = ifOp.getIntegerSet();
      terms += set.getNumConstraints();
      for (AffineExpr e : set.getConstraints())
        if (usesDivisions(e))
          return false;
    }
    for (AffineMap m : maps) {
      terms += m.getNumResults();
      if (usesDivisions(m))
        return false;
    }
  }
  return terms <= kMaxRegionTerms;
}

// The box of the elements of `memref` that `loop` loads, as a function of
// the loops around it (each load's region, unioned); null if one has no
// affine description or one that is costly to compute (regionIsCheap), or
// the box has no constant size.
std::unique_ptr<affine::MemRefRegion> loadedBox(Operation *loop,
                                                Value memref) {
  unsigned depth = affine::getNestingDepth(loop);
  std::unique_ptr<affine::MemRefRegion> box;
  bool ok = true;

  loop->walk([&](affine::AffineReadOpInterface load) {
    if (!ok || load.getMemRef() != memref)
      return;
    if (!regionIsCheap(load)) {
      ok = false;
      return;
    }
    auto region = std::make_unique<affine::MemRefRegion>(load->getLoc());
    if (failed(region->compute(load, depth)))
      ok = false;
    else if (!box)
      box = std::move(region);
    else if (failed(box->unionBoundingBox(*region)))
      ok = false;
  });
  if (!ok || !box || !box->getConstantBoundingSizeAndShape())
    return nullptr;
  return box;
}
// Whether `load` reads inside its memref (of static shape) at every
// iteration of all the loops around it: the elements it reads, over those
// iterations, have constant bounds within the shape. False when a bound
// is not constant or the region cannot be computed.
bool readsInside(affine::AffineReadOpInterface load) {
  auto type = dyn_cast<MemRefType>(load.getMemRef().getType());
  affine::MemRefRegion region(load->getLoc());
  if (!type || !type.hasStaticShape() ||
      failed(region.compute(load, /*loopDepth=*/0, /*sliceState=*/nullptr,
                            /*addMemRefDimBounds=*/false)))
    return false;
  for (unsigned d = 0; d < type.getRank(); ++d) {
    std::optional<int64_t> lb = region.getConstraints()->getConstantBound64(
        presburger::BoundType::LB, d);
    std::optional<int64_t> ub = region.getConstraints()->getConstantBound64(
        presburger::BoundType::UB, d);
    if (!lb || !ub || *lb < 0 || *ub >= type.getDimSize(d))
      return false;
  }
  return true;
}

// Whether every load of `memref` in the copy nest `nest` reads inside it
// (readsInside). MLIR's copy generation can make copy loops that read past
// the array: on a 51 x 51 array whose loads are all inside it under an
// affine.if, the loop copying its rows ran to 82 (pearl-gen --seed 38
// --size-scale cache, "N T(0,1,32,32) K(1)", found by training; MLIR's
// boundCheckLoadOrStoreOp passed that load).
bool copyStaysInside(Operation *nest, Value memref) {
  bool inside = true;
  nest->walk([&](affine::AffineReadOpInterface load) {
    if (inside && load.getMemRef() == memref && !readsInside(load))
      inside = false;
  });
  return inside;
}

// What copyOne did with one memref.
enum class CopyOutcome { Copied, NotCopied, ReadsOutside };

// Copies the elements of `memref` that `loop` loads into a new buffer
// before it, and redirects the loop's loads to the buffer. NotCopied (and
// nothing changed) if the memref has another use in the loop or its box
// is not computable; ReadsOutside if the copy loops MLIR made read outside
// the array: the loads are redirected already, and cannot be taken back.
CopyOutcome copyOne(Operation *loop, Value memref) {
  // Point-wise copies into a buffer in the same memory space (0): no DMA,
  // no capacity limit (the schedule chose where the copies go).
  affine::AffineCopyOptions options = {/*generateDma=*/false,
                                       /*slowMemorySpace=*/0,
                                       /*fastMemorySpace=*/0,
                                       /*tagMemorySpace=*/0,
                                       /*fastMemCapacityBytes=*/UINT64_MAX};
  std::unique_ptr<affine::MemRefRegion> box;
  affine::CopyGenerateResult result;

  if (!onlyAffineLoadsIn(loop, memref) || !(box = loadedBox(loop, memref)) ||
      failed(affine::generateCopyForMemRegion(*box, loop, options, result)))
    return CopyOutcome::NotCopied;
  if (!result.copyNest || !copyStaysInside(result.copyNest, memref))
    return CopyOutcome::ReadsOutside;
  return CopyOutcome::Copied;
}

// The ancestor of `op` directly in a builtin.module (its function), or
// its outermost ancestor if there is no module; null if `op` has no
// parent. Found by the operations' names: getParentWithTrait with
// IsIsolatedFromAbove returned null on the code generator's loops (why
// was not looked into).
Operation *outermostBelowModule(Operation *op) {
  Operation *top = op->getParentOp();

  while (top && top->getParentOp() &&
         top->getParentOp()->getName().getStringRef() != "builtin.module")
    top = top->getParentOp();
  return top;
}

// The operation of `clone` (a clone of `top`) at the place of `op` (in
// `top`) in a walk of each: the clone's operations are made in the same
// order. Null if there is none.
Operation *sameOperationIn(Operation *top, Operation *op, Operation *clone) {
  long index = -1, n = 0;
  Operation *found = nullptr;

  top->walk<WalkOrder::PreOrder>([&](Operation *o) {
    if (o == op)
      index = n;
    ++n;
  });
  n = 0;
  clone->walk<WalkOrder::PreOrder>([&](Operation *o) {
    if (n++ == index)
      found = o;
  });
  return found && found->getName() == op->getName() ? found : nullptr;
}

// The memrefs of `read` whose copies before `loop` would read outside
// their arrays: the copies are tried, in the same order, on a clone of
// the operation around the loop directly in the module (its function),
// detached (the pass may run on several functions of a module at once,
// whose block must not change) and erased after the trial. A memref's
// copy does not change the loads of another, so the trial's outcomes are
// those of the copies made on the loop itself. All of them if the loop
// has no parent. Nothing is cloned when there is nothing to copy.
void copiesReadingOutside(Operation *loop, ArrayRef<Value> read,
                          llvm::SmallPtrSetImpl<Value> &outside) {
  Operation *top = outermostBelowModule(loop);
  IRMapping map;
  Operation *clone, *loopClone;

  if (read.empty())
    return;
  if (!top) {
    outside.insert(read.begin(), read.end());
    return;
  }
  clone = top->clone(map);
  loopClone = sameOperationIn(top, loop, clone);
  for (Value memref : read)
    if (!loopClone || copyOne(loopClone, map.lookupOrDefault(memref)) ==
                          CopyOutcome::ReadsOutside)
      outside.insert(memref);
  clone->erase();
}
} // namespace

int pearl_mlir_copy_read_only(MlirOperation op, int *n_failed,
                              int *n_outside) {
  Operation *loop = unwrap(op);
  llvm::SetVector<Value> read;
  llvm::SmallPtrSet<Value, 8> written, outside;
  llvm::SmallVector<Value> candidates;
  int copied = 0;

  *n_failed = 0;
  *n_outside = 0;
  if (!isa<affine::AffineForOp, affine::AffineParallelOp>(loop))
    return 0;
  // The copies are memref.alloc, arith.constant and affine operations:
  // building an operation of a dialect the context has not loaded does not
  // fail cleanly (the pass declares them as dependent dialects).
  MLIRContext *ctx = loop->getContext();
  if (!ctx->getLoadedDialect<memref::MemRefDialect>() ||
      !ctx->getLoadedDialect<arith::ArithDialect>()) {
    *n_failed = 1;
    return 0;
  }
  loopMemRefs(loop, read, written);
  for (Value memref : read)
    if (!written.contains(memref))
      candidates.push_back(memref);
  copiesReadingOutside(loop, candidates, outside);
  for (Value memref : candidates) {
    if (outside.contains(memref)) {
      ++*n_outside;
      continue;
    }
    switch (copyOne(loop, memref)) {
    case CopyOutcome::Copied:
      ++copied;
      break;
    case CopyOutcome::NotCopied:
      ++*n_failed;
      break;
    case CopyOutcome::ReadsOutside:
      // the trial said otherwise: the loads are redirected already, the
      // caller discards the code
      return -1;
    }
  }
  return copied;
}
