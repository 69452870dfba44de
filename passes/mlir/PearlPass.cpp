//===- PearlPass.cpp - registration shim for the pearl-schedule pass ------===//
//
// The only C++ of the MLIR pass: MLIR's C API cannot declare pass options,
// emit remarks or unroll loops, so this file declares the pass with its
// options, forwards each func.func to the C pass body, and exposes remark
// emission and MLIR's affine loop unroller to C.
//
//===----------------------------------------------------------------------===//

#include "mlir/CAPI/IR.h"
#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/LoopUtils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

#include "pearl/mlir_codegen.h"
#include "pearl/mlir_pass.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace {
// A loaded policy, or why it could not be loaded. Policies are loaded once
// per model path ("" is the compiled-in one) and shared by every pass
// instance and thread: pearl_policy is immutable once loaded.
struct LoadedPolicy {
  pearl_policy *policy = nullptr;
  std::string error;
  ~LoadedPolicy() { pearl_policy_free(policy); }
};

std::shared_ptr<const LoadedPolicy> loadPolicy(const std::string &path) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const LoadedPolicy>> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = cache.find(path);
  if (it != cache.end())
    return it->second;
  auto loaded = std::make_shared<LoadedPolicy>();
  char err[512] = "";
  loaded->policy = path.empty()
                       ? pearl_policy_load_builtin(err, sizeof(err))
                       : pearl_policy_load_file(path.c_str(), err, sizeof(err));
  if (!loaded->policy)
    loaded->error = path.empty() ? std::string("compiled-in model: ") + err
                                 : "model '" + path + "': " + err;
  cache.emplace(path, loaded);
  return loaded;
}

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
  Option<bool> printGraph{
      *this, "print-graph",
      llvm::cl::desc("Print the policy's input graph (Pearl's AST graph) at "
                     "every decision of the agent"),
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
  Option<pearl_mlir_agent> agent{
      *this, "agent",
      llvm::cl::desc("How regions without an explicit schedule are "
                     "scheduled"),
      llvm::cl::init(pearl_mlir_agent_greedy),
      llvm::cl::values(
          clEnumValN(pearl_mlir_agent_greedy, "greedy",
                     "the policy's most likely legal action at each step"),
          clEnumValN(pearl_mlir_agent_sample, "sample",
                     "actions sampled from the policy (see seed)"),
          clEnumValN(pearl_mlir_agent_none, "none",
                     "no scheduling: model (and print) only"))};
  Option<std::string> model{
      *this, "model",
      llvm::cl::desc("Policy weights to use instead of the compiled-in "
                     "model (a blob written by pearl-model or pearl-train)"),
      llvm::cl::init("")};
  Option<unsigned long> seed{
      *this, "seed", llvm::cl::desc("Seed of agent=sample"),
      llvm::cl::init(0UL)};
  Option<unsigned> maxBranchSteps{
      *this, "max-branch-steps",
      llvm::cl::desc("Actions the agent may take on one branch before it "
                     "moves on"),
      llvm::cl::init(8U)};
  Option<unsigned long> islMaxOperations{
      *this, "isl-max-operations",
      llvm::cl::desc("Bound on isl operations per region (0: unbounded); a "
                     "region that exceeds it is left unchanged"),
      llvm::cl::init(20000000UL)};

  void runOnOperation() override {
    pearl_mlir_options opts;
    std::shared_ptr<const LoadedPolicy> policy;
    opts.print_model = printModel;
    opts.print_schedule = printSchedule;
    opts.print_graph = printGraph;
    opts.schedule = schedule.getValue().c_str();
    opts.regenerate = regenerate;
    opts.isl_max_operations = islMaxOperations;
    opts.agent = agent;
    opts.seed = seed;
    opts.max_branch_steps = static_cast<int>(maxBranchSteps);
    opts.policy = nullptr;
    opts.policy_error = nullptr;
    if (schedule.getValue().empty() && agent != pearl_mlir_agent_none) {
      policy = loadPolicy(model.getValue());
      opts.policy = policy->policy;
      opts.policy_error = policy->error.c_str();
    }
    if (pearl_mlir_run_on_function(wrap(getOperation().getOperation()),
                                   &opts) != 0)
      signalPassFailure();
  }
};
} // namespace

extern "C" void pearl_mlir_emit_remark(MlirLocation loc, const char *msg) {
  mlir::emitRemark(unwrap(loc)) << msg;
}

extern "C" int pearl_mlir_unroll_loop(MlirOperation op, int factor) {
  auto forOp = llvm::dyn_cast<mlir::affine::AffineForOp>(unwrap(op));
  if (!forOp)
    return 0;
  uint64_t f = static_cast<uint64_t>(factor > 1 ? factor : 1);
  std::optional<uint64_t> trip = mlir::affine::getConstantTripCount(forOp);
  if (trip && *trip <= f)
    return mlir::succeeded(mlir::affine::loopUnrollFull(forOp));
  if (factor > 1 &&
      mlir::succeeded(mlir::affine::loopUnrollByFactor(forOp, f)))
    return 1;
  // Not mlir::affine::separateFullTiles for strips bounded by a min: it
  // assumes the strip starts at its tile's origin and miscompiles the
  // shifted point loops isl generates (jacobi-2d, checked by execution).
  return 0;
}

extern "C" void pearl_mlir_emit_warning(MlirLocation loc, const char *msg) {
  mlir::emitWarning(unwrap(loc)) << msg;
}

extern "C" void pearl_mlir_register_passes(void) {
  mlir::PassRegistration<PearlSchedulePass>();
}
