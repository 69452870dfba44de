//===- PearlPass.cpp - registration shim for the pearl-schedule pass ------===//
//
// The only C++ of the MLIR pass: MLIR's C API cannot declare pass options or
// emit remarks, so this file declares the pass with its options, forwards
// each func.func to the C pass body, and exposes remark emission to C.
//
//===----------------------------------------------------------------------===//

#include "mlir/CAPI/IR.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

#include "pearl/mlir_pass.h"

namespace {
struct PearlSchedulePass
    : public mlir::PassWrapper<PearlSchedulePass,
                               mlir::OperationPass<mlir::func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(PearlSchedulePass)

  PearlSchedulePass() = default;
  PearlSchedulePass(const PearlSchedulePass &other) : PassWrapper(other) {}

  llvm::StringRef getArgument() const final { return "pearl-schedule"; }
  llvm::StringRef getDescription() const final {
    return "Model affine loop nests polyhedrally and schedule them (Pearl)";
  }

  Option<bool> printModel{
      *this, "print-model",
      llvm::cl::desc("Print the polyhedral model of every region: domains, "
                     "accesses, loop tree, schedule tree and dependences"),
      llvm::cl::init(false)};
  Option<bool> printSchedule{
      *this, "print-schedule",
      llvm::cl::desc("Print the transformed schedule tree and its loop "
                     "structure (isl AST) for every region"),
      llvm::cl::init(false)};
  Option<std::string> schedule{
      *this, "schedule",
      llvm::cl::desc("Explicit schedule in Pearl's notation, e.g. "
                     "\"I(0,1) T(0,1,32,32) P(0) U(4)\"; N moves to the next "
                     "branch, ';' to the next region of the function"),
      llvm::cl::init("")};
  Option<bool> regenerate{
      *this, "regenerate",
      llvm::cl::desc("Regenerate every modeled region from its schedule, even "
                     "when no action applies (tests the code generator)"),
      llvm::cl::init(false)};
  Option<unsigned long> islMaxOperations{
      *this, "isl-max-operations",
      llvm::cl::desc("Bound on isl operations per region (0: unbounded); a "
                     "region that exceeds it is left unchanged"),
      llvm::cl::init(20000000UL)};

  void runOnOperation() override {
    pearl_mlir_options opts;
    opts.print_model = printModel;
    opts.print_schedule = printSchedule;
    opts.schedule = schedule.getValue().c_str();
    opts.regenerate = regenerate;
    opts.isl_max_operations = islMaxOperations;
    if (pearl_mlir_run_on_function(wrap(getOperation().getOperation()),
                                   &opts) != 0)
      signalPassFailure();
  }
};
} // namespace

extern "C" void pearl_mlir_emit_remark(MlirLocation loc, const char *msg) {
  mlir::emitRemark(unwrap(loc)) << msg;
}

extern "C" void pearl_mlir_register_passes(void) {
  mlir::PassRegistration<PearlSchedulePass>();
}
