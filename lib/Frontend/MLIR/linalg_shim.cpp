//===- linalg_shim.cpp - linalg queries and expansion for the C frontend -===//
//
// MLIR's C API can neither tell a structured linalg op's inputs from its
// outputs nor expand it into loops; these two functions do (see
// pearl/mlir_linalg.h). Everything else about linalg ops is C.
//
//===----------------------------------------------------------------------===//

#include "mlir/CAPI/IR.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "pearl/mlir_linalg.h"

#include "llvm/ADT/SmallVector.h"

extern "C" MlirAttribute pearl_mlir_linalg_maps(MlirOperation op,
                                                int *n_inputs,
                                                int *n_outputs) {
  auto linalgOp = llvm::dyn_cast<mlir::linalg::LinalgOp>(unwrap(op));
  if (!linalgOp)
    return MlirAttribute{nullptr};
  *n_inputs = static_cast<int>(linalgOp.getNumDpsInputs());
  *n_outputs = static_cast<int>(linalgOp.getNumDpsInits());
  return wrap(static_cast<mlir::Attribute>(linalgOp.getIndexingMaps()));
}

extern "C" int pearl_mlir_linalg_lower(MlirOperation op, MlirOperation *first,
                                       MlirOperation *last) {
  mlir::Operation *o = unwrap(op);
  auto linalgOp = llvm::dyn_cast<mlir::linalg::LinalgOp>(o);
  if (!linalgOp || !linalgOp.hasPureBufferSemantics())
    return -1;
  mlir::Block *block = o->getBlock();
  mlir::Operation *prev = o->getPrevNode();
  mlir::IRRewriter rewriter(o->getContext());
  rewriter.setInsertionPoint(o);
  if (mlir::failed(mlir::linalg::linalgOpToAffineLoops(rewriter, linalgOp))) {
    // Erase whatever was built before the failure.
    while (o->getPrevNode() != prev)
      o->getPrevNode()->erase();
    return -1;
  }
  // The expansion computes every index with an affine.apply; fold them
  // into the loads and stores (as convert-linalg-to-affine-loops does), so
  // that the nest is the one that pass writes.
  mlir::Operation *begin = prev ? prev->getNextNode() : &block->front();
  llvm::SmallVector<mlir::Operation *> ops, nested;
  for (mlir::Operation *it = begin; it != o; it = it->getNextNode())
    it->walk([&](mlir::Operation *n) {
      if (llvm::isa<mlir::affine::AffineApplyOp, mlir::affine::AffineLoadOp,
                    mlir::affine::AffineStoreOp>(n))
        nested.push_back(n);
    });
  mlir::MLIRContext *ctx = o->getContext();
  mlir::RewritePatternSet patterns(ctx);
  mlir::affine::AffineApplyOp::getCanonicalizationPatterns(patterns, ctx);
  mlir::affine::AffineLoadOp::getCanonicalizationPatterns(patterns, ctx);
  mlir::affine::AffineStoreOp::getCanonicalizationPatterns(patterns, ctx);
  (void)mlir::applyOpPatternsGreedily(nested, std::move(patterns));
  // Dead index computations at the top (folded constants) go too, last
  // first; unused loads inside the loops stay (the model ignores them).
  begin = prev ? prev->getNextNode() : &block->front();
  for (mlir::Operation *it = begin; it != o; it = it->getNextNode())
    ops.push_back(it);
  for (auto it = ops.rbegin(); it != ops.rend(); ++it)
    if (mlir::isOpTriviallyDead(*it))
      (*it)->erase();
  begin = prev ? prev->getNextNode() : &block->front();
  if (begin == o)
    return 0;
  int n = 0;
  for (mlir::Operation *it = begin; it != o; it = it->getNextNode())
    ++n;
  *first = wrap(begin);
  *last = wrap(o->getPrevNode());
  return n;
}
