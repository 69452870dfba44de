//===- LowerPass.cpp - Pearl's lowering for stock mlir-opt -----------------===//
//
// Registration shim of `pearl-lower-affine` (upstream lower-affine that keeps
// the loops' `loop_annotation` hints, carried over in C by
// pearl/mlir_loop_hints.h), of `pearl-alias-scopes` (the alias scopes of
// rewritten functions, in C in pearl/mlir_alias_scopes.h) and of the
// pipeline `pearl-lower`, the lowering
// pearl-exec --lower-only and pearl-bench use, so that a user of stock
// mlir-opt gets the same code:
//
//   mlir-opt --load-pass-plugin=PearlPlugin.so
//     --pass-pipeline='builtin.module(func.func(pearl-schedule))' in.mlir
//   | mlir-opt --load-pass-plugin=PearlPlugin.so --pearl-lower
//
//===----------------------------------------------------------------------===//

#include "mlir/CAPI/IR.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "pearl/mlir_alias_scopes.h"
#include "pearl/mlir_loop_hints.h"
#include "pearl/mlir_lowering.h"
#include "pearl/mlir_pass.h"

namespace {
// lower-affine, with the loops' hints carried over it.
struct PearlLowerAffinePass
    : public mlir::PassWrapper<PearlLowerAffinePass,
                               mlir::OperationPass<mlir::ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(PearlLowerAffinePass)

  llvm::StringRef getArgument() const final { return "pearl-lower-affine"; }
  llvm::StringRef getDescription() const final {
    return "lower-affine that keeps the loops' loop_annotation hints "
           "(Pearl's point-loop hints survive to llvm.loop metadata)";
  }

  // lower-affine, as a pipeline of its own.
  static mlir::OpPassManager lowerAffine() {
    mlir::OpPassManager pm(mlir::ModuleOp::getOperationName());
    pm.addPass(mlir::createLowerAffinePass());
    return pm;
  }

  // The dialects lower-affine creates must be loaded before the pass runs.
  void getDependentDialects(mlir::DialectRegistry &registry) const override {
    lowerAffine().getDependentDialects(registry);
  }

  void runOnOperation() override {
    MlirOperation top = wrap(getOperation().getOperation());
    pearl_loop_hints *hints = pearl_loop_hints_collect(top);
    mlir::OpPassManager pm = lowerAffine();

    if (!hints || mlir::failed(runPipeline(pm, getOperation()))) {
      pearl_loop_hints_free(hints);
      return signalPassFailure();
    }
    pearl_loop_hints_apply(top, hints);
    pearl_loop_hints_free(hints);
  }
};

// The alias scopes of the memref arguments of functions Pearl rewrote, on
// the LLVM dialect (pearl/mlir_alias_scopes.h).
struct PearlAliasScopesPass
    : public mlir::PassWrapper<PearlAliasScopesPass,
                               mlir::OperationPass<mlir::ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(PearlAliasScopesPass)

  llvm::StringRef getArgument() const final { return "pearl-alias-scopes"; }
  llvm::StringRef getDescription() const final {
    return "alias scopes on the memref-argument loads and stores of the "
           "llvm.func ops pearl-schedule rewrote (" PEARL_NOALIAS_ATTR ")";
  }

  void runOnOperation() override {
    if (pearl_alias_scopes_apply(wrap(getOperation().getOperation())) < 0)
      signalPassFailure();
  }
};
} // namespace

// Pearl's lowering (pearl/mlir_lowering.h, as pearl-exec runs it), with
// pearl-lower-affine for lower-affine.
static void buildPearlLowering(mlir::OpPassManager &pm) {
  if (mlir::failed(mlir::parsePassPipeline(
          PEARL_LOWER_FIRST ",pearl-lower-affine," PEARL_LOWER_REST
                            ",pearl-alias-scopes",
          pm,
          llvm::errs())))
    llvm::errs() << "pearl-lower: Pearl's lowering pipeline does not "
                    "parse (a pass it names is not registered)\n";
}

extern "C" void pearl_mlir_register_lower_passes(void) {
  mlir::PassRegistration<PearlLowerAffinePass>();
  mlir::PassRegistration<PearlAliasScopesPass>();
  mlir::PassPipelineRegistration<>(
      "pearl-lower",
      "Pearl's lowering to the LLVM dialect (as pearl-exec --lower-only): "
      "affine -> scf -> OpenMP -> LLVM, keeping the loop hints",
      buildPearlLowering);
}
