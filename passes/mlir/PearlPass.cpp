//===- PearlPass.cpp - registration shim for the pearl-schedule pass ------===//
//
// The only C++ of the MLIR pass: MLIR's C API cannot declare pass options,
// emit remarks or unroll loops, so this file declares the pass with its
// options, forwards each func.func to the C pass body, and exposes remark
// emission and MLIR's affine loop unroller (with versioning of max / min
// bounds) to C.
//
//===----------------------------------------------------------------------===//

#include "mlir/CAPI/IR.h"
#include "mlir/Dialect/Affine/Analysis/AffineAnalysis.h"
#include "mlir/Dialect/Affine/Analysis/AffineStructures.h"
#include "mlir/Dialect/Affine/Analysis/LoopAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/LoopUtils.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
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
  // The code generator hints loops with #llvm.loop_annotation attributes.
  void getDependentDialects(mlir::DialectRegistry &registry) const override {
    registry.insert<mlir::LLVM::LLVMDialect>();
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
  Option<unsigned long> minParallelWork{
      *this, "min-parallel-work",
      llvm::cl::desc("The agent runs no loop in parallel whose one execution "
                     "has fewer innermost iterations (0: no limit)"),
      llvm::cl::init(static_cast<unsigned long>(
          PEARL_AGENT_MIN_PARALLEL_WORK))};
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
    std::shared_ptr<const LoadedPolicy> policy;
    opts.print_model = printModel;
    opts.print_schedule = printSchedule;
    opts.print_graph = printGraph;
    opts.schedule = schedule.getValue().c_str();
    opts.regenerate = regenerate;
    opts.isl_max_operations = islMaxOperations;
    opts.time_limit = timeLimit;
    opts.agent = agent;
    opts.seed = seed;
    opts.max_branch_steps = static_cast<int>(maxBranchSteps);
    opts.min_parallel_work = static_cast<long>(minParallelWork);
    opts.policy = nullptr;
    opts.policy_error = nullptr;
    opts.schedule_file_path = nullptr;
    opts.schedule_file = nullptr;
    opts.schedule_file_error = nullptr;
    if (loadedScheduleFile) {
      opts.schedule_file_path = scheduleFile.getValue().c_str();
      opts.schedule_file = loadedScheduleFile->file;
      opts.schedule_file_error = loadedScheduleFile->error.c_str();
    }
    if (schedule.getValue().empty() && agent != pearl_mlir_agent_none) {
      policy = loadPolicy(model.getValue());
      opts.policy = policy->policy;
      opts.policy_error = policy->error.c_str();
    }
    if (pearl_mlir_run_on_function(wrap(getOperation().getOperation()),
                                   &opts) != 0)
      signalPassFailure();
  }

private:
  std::shared_ptr<const LoadedScheduleFile> loadedScheduleFile;
};
} // namespace

extern "C" void pearl_mlir_emit_remark(MlirLocation loc, const char *msg) {
  mlir::emitRemark(unwrap(loc)) << msg;
}

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

// The affine.for, affine.parallel and affine.if operations around `op`
// whose constraints hold where `op` runs, outermost first, in `ops` (an
// affine.if only if `op` is in its then block; nothing beyond the affine
// scope).
void enclosingConstraints(mlir::Operation *op,
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

// Whether `forOp` provably never runs with its upper bound a step or more
// below its lower bound (a negative trip count) under the loops and
// conditions around it: for no lower bound result k and upper bound
// result l can ub_l <= lb_k - step hold (exact for a max / min, whose
// trip count is negative iff some pair is). False when it cannot tell.
bool tripCountNeverNegative(mlir::affine::AffineForOp forOp) {
  using namespace mlir;
  using presburger::BoundType;
  AffineMap lb = forOp.getLowerBoundMap(), ub = forOp.getUpperBoundMap();
  int64_t step = forOp.getStepAsInt();
  SmallVector<Operation *, 8> ops;
  affine::FlatAffineValueConstraints domain;

  enclosingConstraints(forOp, ops);
  if (failed(affine::getIndexSet(ops, &domain)))
    return false;
  for (unsigned k = 0; k < lb.getNumResults(); ++k)
    for (unsigned l = 0; l < ub.getNumResults(); ++l) {
      // t = lb_k and t >= ub_l + step: empty if the pair never gives a
      // negative trip count.
      affine::FlatAffineValueConstraints cst(domain);
      unsigned t = cst.appendDimVar(1);
      AffineMap above = AffineMap::get(ub.getNumDims(), ub.getNumSymbols(),
                                       ub.getResult(l) + step);
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
void guardNonEmpty(mlir::affine::AffineForOp forOp) {
  using namespace mlir;
  AffineMap lb = forOp.getLowerBoundMap(), ub = forOp.getUpperBoundMap();
  unsigned ld = lb.getNumDims(), ls = lb.getNumSymbols();
  unsigned ud = ub.getNumDims(), us = ub.getNumSymbols();
  SmallVector<Value> lbOps(forOp.getLowerBoundOperands());
  SmallVector<Value> ubOps(forOp.getUpperBoundOperands());
  SmallVector<Value> ifOps;
  SmallVector<AffineExpr> cons;
  ifOps.append(lbOps.begin(), lbOps.begin() + ld);
  ifOps.append(ubOps.begin(), ubOps.begin() + ud);
  ifOps.append(lbOps.begin() + ld, lbOps.end());
  ifOps.append(ubOps.begin() + ud, ubOps.end());
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
  if (cons.empty())
    return;
  set = IntegerSet::get(set.getNumDims(), set.getNumSymbols(), cons,
                        SmallVector<bool>(cons.size(), false));
  affine::canonicalizeSetAndOperands(&set, &ifOps);
  OpBuilder b(forOp);
  auto ifOp = affine::AffineIfOp::create(b, forOp.getLoc(), set, ifOps,
                                         /*withElseRegion=*/false);
  forOp->moveBefore(ifOp.getThenBlock()->getTerminator());
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
  SmallVector<Value> ifOps;
  ifOps.append(lbOps.begin(), lbOps.begin() + ld);
  ifOps.append(ubOps.begin(), ubOps.begin() + ud);
  ifOps.append(lbOps.begin() + ld, lbOps.end());
  ifOps.append(ubOps.begin() + ud, ubOps.end());
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
      !tripCountNeverNegative(forOp))
    guardNonEmpty(forOp);
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

extern "C" void pearl_mlir_emit_warning(MlirLocation loc, const char *msg) {
  mlir::emitWarning(unwrap(loc)) << msg;
}

extern "C" void pearl_mlir_register_passes(void) {
  mlir::PassRegistration<PearlSchedulePass>();
  pearl_mlir_register_lower_passes();
}
