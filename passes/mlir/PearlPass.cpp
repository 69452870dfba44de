//===- PearlPass.cpp - registration shim for the pearl-schedule pass ------===//
//
// The only C++ of the MLIR pass: MLIR's C API cannot declare pass options,
// so this file declares the pass with its options and forwards each
// func.func to the C pass body. (Remarks and the loop unroller, which have
// no C API either, are the frontend's shims: lib/Frontend/MLIR.)
//
//===----------------------------------------------------------------------===//

#include "mlir/CAPI/IR.h"
#include "mlir/Dialect/Affine/Analysis/AffineAnalysis.h"
#include "mlir/Dialect/Affine/Analysis/AffineStructures.h"
#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/LoopUtils.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

#include "pearl/agent.h"
#include "pearl/ctx.h"
#include "pearl/mlir_codegen.h"
#include "pearl/mlir_pass.h"
#include "pearl/transform.h"

#include <algorithm>
#include <climits>
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

// A schedule file loaded for one run of the pass, or why it could not be.
// Loaded when the pass is initialized (so that a file rewritten between two
// runs in one process is read again) and shared by the copies of the pass
// that run on other threads.
struct LoadedScheduleFile {
  pearl_schedule_file *file = nullptr;
  std::string error;
  ~LoadedScheduleFile() { pearl_schedule_file_free(file); }
};

std::shared_ptr<const LoadedScheduleFile>
loadScheduleFile(const std::string &path) {
  auto loaded = std::make_shared<LoadedScheduleFile>();
  char err[1024] = "";
  loaded->file = pearl_schedule_file_load(path.c_str(), err, sizeof(err));
  if (!loaded->file)
    loaded->error = err;
  return loaded;
}

struct PearlSchedulePass
    : public mlir::PassWrapper<PearlSchedulePass,
                               mlir::OperationPass<mlir::func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(PearlSchedulePass)

  PearlSchedulePass() = default;
  PearlSchedulePass(const PearlSchedulePass &other)
      : PassWrapper(other), loadedScheduleFile(other.loadedScheduleFile) {}

  llvm::StringRef getArgument() const final { return "pearl-schedule"; }
  // The code generator hints loops with #llvm.loop_annotation attributes;
  // the copies of K(l) allocate buffers (memref) and index constants
  // (arith).
  void getDependentDialects(mlir::DialectRegistry &registry) const override {
    registry.insert<mlir::LLVM::LLVMDialect, mlir::memref::MemRefDialect,
                    mlir::arith::ArithDialect>();
  }
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
  Option<std::string> scheduleFile{
      *this, "schedule-file",
      llvm::cl::desc("Schedule file (written by pearl-tune, or by hand): "
                     "one schedule per (function, region), applied where "
                     "the region's fingerprint fits; other regions are "
                     "scheduled by the policy"),
      llvm::cl::init("")};
  Option<bool> regenerate{
      *this, "regenerate",
      llvm::cl::desc("Regenerate every modeled region from its schedule, even "
                     "when no action applies (tests the code generator)"),
      llvm::cl::init(false)};
  Option<bool> regenerateKept{
      *this, "regenerate-kept",
      llvm::cl::desc("Regenerate a modeled region whose schedule the agent "
                     "(or the heuristic) keeps, or changes in nothing the "
                     "code generator acts on, so that its function still "
                     "gets Pearl's lowering and no-alias marking (false: "
                     "such a region keeps its code)"),
      llvm::cl::init(true)};
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
                     "no scheduling: model (and print) only"),
          clEnumValN(pearl_mlir_agent_heuristic, "heuristic",
                     "the rules-only baseline (tile the outermost legal "
                     "pair 32x32, parallelize the outermost legal loop, "
                     "unroll the innermost by 4), for comparison"))};
  Option<std::string> model{
      *this, "model",
      llvm::cl::desc("Policy weights to use instead of the compiled-in "
                     "model (a blob written by pearl-model or pearl-train)"),
      llvm::cl::init("")};
  Option<std::string> critic{
      *this, "critic",
      llvm::cl::desc("Critic weights (pearl-critic's critic.bin): agent=greedy "
                     "then runs the critic's beam, which applies the "
                     "episode the critic values highest if it values it "
                     "above the greedy one"),
      llvm::cl::init("")};
  Option<unsigned> beamWidth{
      *this, "beam-width",
      llvm::cl::desc("Episodes the critic's beam keeps per step"),
      llvm::cl::init(4U)};
  Option<unsigned> beamTopK{
      *this, "beam-top-k",
      llvm::cl::desc("The policy's best legal decisions the critic's beam "
                     "tries per episode and step"),
      llvm::cl::init(3U)};
  Option<double> beamSeconds{
      *this, "beam-seconds",
      llvm::cl::desc("Seconds the critic's beam may take after the greedy "
                     "episode (0: no limit; with a limit the choice depends "
                     "on the machine's speed)"),
      llvm::cl::init(0.0)};
  Option<unsigned long> seed{
      *this, "seed", llvm::cl::desc("Seed of agent=sample"),
      llvm::cl::init(0UL)};
  Option<unsigned> maxBranchSteps{
      *this, "max-branch-steps",
      llvm::cl::desc("Actions the agent may take on one branch before it "
                     "moves on"),
      llvm::cl::init(8U)};
  Option<unsigned long> minParallelWork{
      *this, "min-parallel-work",
      llvm::cl::desc("The agent runs no loop in parallel whose one execution "
                     "has fewer innermost iterations (0: no limit)"),
      llvm::cl::init(static_cast<unsigned long>(
          PEARL_AGENT_MIN_PARALLEL_WORK))};
  Option<bool> uniformParallel{
      *this, "uniform-parallel",
      llvm::cl::desc("After the agent's episode, make every sequential loop "
                     "run its nests all in parallel (split alike) or all "
                     "serially (false: the episode as the policy chose it)"),
      llvm::cl::init(true)};
  Option<bool> fillParallel{
      *this, "fill-parallel",
      llvm::cl::desc("After the agent's episode, run in parallel the "
                     "outermost loop of each nest the policy left serial "
                     "that the dependences and min-parallel-work allow "
                     "(false: the episode as the policy chose it)"),
      llvm::cl::init(true)};
  Option<bool> copies{
      *this, "copies",
      llvm::cl::desc("Let the policy choose K (copies of the data a loop "
                     "touches into a local buffer); false, the default, "
                     "masks K for the policy: measured, it mostly slows "
                     "schedules down"),
      llvm::cl::init(false)};
  Option<unsigned long> islMaxOperations{
      *this, "isl-max-operations",
      llvm::cl::desc("Bound on isl operations per region (0: unbounded); a "
                     "region that exceeds it is left unchanged"),
      llvm::cl::init(20000000UL)};
  Option<double> timeLimit{
      *this, "time-limit",
      llvm::cl::desc("Seconds each action's legality checks and the AST "
                     "generation of a region may take (0: no limit); a "
                     "region that exceeds it is left unchanged"),
      llvm::cl::init(PEARL_TIME_LIMIT)};
  Option<bool> checkAst{
      *this, "check-ast",
      llvm::cl::desc("Check that isl's AST runs each statement instance "
                     "exactly once, and leave a region whose AST fails the "
                     "check unchanged (false: trust the AST; for tests of "
                     "the code generator on schedules whose check exceeds "
                     "the time limit)"),
      llvm::cl::init(true)};

  // Rejects option values the pass cannot honour, with a message, before
  // the pipeline runs: numbers beyond the C fields they go to, and an
  // explicit empty schedule (MLIR's option parser trims `schedule=" "` to
  // "", which would otherwise silently mean "no schedule: run the policy").
  mlir::LogicalResult initializeOptions(
      llvm::StringRef options,
      llvm::function_ref<mlir::LogicalResult(const llvm::Twine &)>
          errorHandler) override {
    if (mlir::failed(Pass::initializeOptions(options, errorHandler)))
      return mlir::failure();
    if (maxBranchSteps > static_cast<unsigned>(INT_MAX))
      return errorHandler("pearl-schedule: max-branch-steps=" +
                          llvm::Twine(maxBranchSteps.getValue()) +
                          " is out of range (at most " +
                          llvm::Twine(INT_MAX) + ")");
    if (minParallelWork > static_cast<unsigned long>(LONG_MAX))
      return errorHandler("pearl-schedule: min-parallel-work=" +
                          llvm::Twine(minParallelWork.getValue()) +
                          " is out of range (at most " +
                          llvm::Twine(LONG_MAX) + ")");
    if (schedule.hasValue() && llvm::StringRef(schedule).trim().empty())
      return errorHandler(
          "pearl-schedule: schedule= is empty: an explicit schedule needs "
          "at least one action (leave the option out to schedule with the "
          "policy, or use agent=none to model only)");
    if (scheduleFile.hasValue() &&
        llvm::StringRef(scheduleFile).trim().empty())
      return errorHandler(
          "pearl-schedule: schedule-file= is empty: give the path of a "
          "schedule file");
    if (beamWidth < 1 || beamWidth > 64 || beamTopK < 1 || beamTopK > 16)
      return errorHandler("pearl-schedule: beam-width= must be from 1 to 64 "
                          "and beam-top-k= from 1 to 16");
    if (!(beamSeconds >= 0) || beamSeconds > 1e6)
      return errorHandler("pearl-schedule: beam-seconds= must be a number of "
                          "seconds from 0 (no limit) to 1e6");
    if (!(timeLimit >= 0) || timeLimit > 1e6)
      return errorHandler(
          "pearl-schedule: time-limit= must be a number of seconds from 0 "
          "(no limit) to 1e6");
    if (schedule.hasValue() && scheduleFile.hasValue())
      return errorHandler(
          "pearl-schedule: schedule= and schedule-file= exclude each other: "
          "give the schedules either on the command line or in the file");
    return mlir::success();
  }

  // Reads the schedule file once per run of the pass manager.
  mlir::LogicalResult initialize(mlir::MLIRContext *) override {
    loadedScheduleFile = nullptr;
    if (scheduleFile.hasValue())
      loadedScheduleFile = loadScheduleFile(scheduleFile.getValue());
    return mlir::success();
  }

  void runOnOperation() override {
    pearl_mlir_options opts;
    std::shared_ptr<const LoadedPolicy> policy, criticPolicy;
    opts.print_model = printModel;
    opts.print_schedule = printSchedule;
    opts.print_graph = printGraph;
    opts.schedule = schedule.getValue().c_str();
    opts.regenerate = regenerate;
    opts.regenerate_kept = regenerateKept;
    opts.isl_max_operations = islMaxOperations;
    opts.time_limit = timeLimit;
    opts.no_ast_check = !checkAst;
    opts.agent = agent;
    opts.seed = seed;
    opts.max_branch_steps = static_cast<int>(maxBranchSteps);
    opts.min_parallel_work = static_cast<long>(minParallelWork);
    opts.uniform_parallel = uniformParallel;
    opts.fill_parallel = fillParallel;
    opts.copies = copies;
    opts.policy = nullptr;
    opts.policy_error = nullptr;
    opts.critic = nullptr;
    opts.beam_width = static_cast<int>(beamWidth);
    opts.beam_top_k = static_cast<int>(beamTopK);
    opts.beam_seconds = beamSeconds;
    opts.schedule_file_path = nullptr;
    opts.schedule_file = nullptr;
    opts.schedule_file_error = nullptr;
    if (loadedScheduleFile) {
      opts.schedule_file_path = scheduleFile.getValue().c_str();
      opts.schedule_file = loadedScheduleFile->file;
      opts.schedule_file_error = loadedScheduleFile->error.c_str();
    }
    if (schedule.getValue().empty() && agent != pearl_mlir_agent_none &&
        agent != pearl_mlir_agent_heuristic) {
      policy = loadPolicy(model.getValue());
      opts.policy = policy->policy;
      opts.policy_error = policy->error.c_str();
      if (!critic.getValue().empty() && opts.policy) {
        // A critic that does not load stops scheduling as a model that
        // does not load does: every region gets the remark.
        criticPolicy = loadPolicy(critic.getValue());
        opts.critic = criticPolicy->policy;
        if (!opts.critic) {
          opts.policy = nullptr;
          opts.policy_error = criticPolicy->error.c_str();
        }
      }
    }
    if (pearl_mlir_run_on_function(wrap(getOperation().getOperation()),
                                   &opts) != 0)
      signalPassFailure();
  }

private:
  std::shared_ptr<const LoadedScheduleFile> loadedScheduleFile;
};
} // namespace

extern "C" void pearl_mlir_register_passes(void) {
  mlir::PassRegistration<PearlSchedulePass>();
  pearl_mlir_register_lower_passes();
}
