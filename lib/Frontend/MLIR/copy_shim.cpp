//===- copy_shim.cpp - local copies of the arrays a loop only reads (K) ---===//
//
// The code generator (codegen.c) copies, before a loop under a copy mark
// (K(l)), the elements of every memref the loop reads and does not write
// into a new buffer, with MLIR's affine copy generation, which has no C
// API: pearl_mlir_copy_read_only (pearl/mlir_codegen.h).
//
//===----------------------------------------------------------------------===//

#include "mlir/CAPI/IR.h"
#include "mlir/Dialect/Affine/Analysis/Utils.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/LoopUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

#include "pearl/mlir_codegen.h"

#include <cstdint>
#include <memory>

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

// The box of the elements of `memref` that `loop` loads, as a function of
// the loops around it (each load's region, unioned); null if one has no
// affine description or the box has no constant size.
std::unique_ptr<affine::MemRefRegion> loadedBox(Operation *loop,
                                                Value memref) {
  unsigned depth = affine::getNestingDepth(loop);
  std::unique_ptr<affine::MemRefRegion> box;
  bool ok = true;

  loop->walk([&](affine::AffineReadOpInterface load) {
    if (!ok || load.getMemRef() != memref)
      return;
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
} // namespace

int pearl_mlir_copy_read_only(MlirOperation op, int *n_failed) {
  Operation *loop = unwrap(op);
  llvm::SetVector<Value> read;
  llvm::SmallPtrSet<Value, 8> written;
  // Point-wise copies into a buffer in the same memory space (0): no DMA,
  // no capacity limit (the schedule chose where the copies go).
  affine::AffineCopyOptions options = {/*generateDma=*/false,
                                       /*slowMemorySpace=*/0,
                                       /*fastMemorySpace=*/0,
                                       /*tagMemorySpace=*/0,
                                       /*fastMemCapacityBytes=*/UINT64_MAX};
  int copied = 0;

  *n_failed = 0;
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
  for (Value memref : read) {
    if (written.contains(memref))
      continue;
    std::unique_ptr<affine::MemRefRegion> box;
    affine::CopyGenerateResult result;
    if (!onlyAffineLoadsIn(loop, memref) ||
        !(box = loadedBox(loop, memref)) ||
        failed(affine::generateCopyForMemRegion(*box, loop, options,
                                                result))) {
      ++*n_failed;
      continue;
    }
    ++copied;
  }
  return copied;
}
