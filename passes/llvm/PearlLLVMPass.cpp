//===- PearlLLVMPass.cpp - Pearl's schedules for clang, through Polly -----===//
//
// `clang -O3 -fpass-plugin=PearlLLVMPlugin.so` runs this function pass at
// the vectorizer-start extension point. It drives Polly's phases itself
// (the loop of Polly's PhaseManager): code preparation, region info, Scop
// detection, ScopInfo, then for every maximal Scop dependences and the
// simplification phases; instead of Polly's scheduler it adapts the Scop
// into a pearl_program (scop_model.cpp), lets the agent or an explicit
// schedule decide (decide.c), checks the result with Polly's own
// Dependences::isValidSchedule, installs it, and lets Polly's AST and code
// generation emit the loops (OpenMP for the loop the agent parallelized).
// Anything that fails leaves the Scop's code as clang made it, with a
// missed remark.
//
//===----------------------------------------------------------------------===//

#include "polly/CodeGen/CodeGeneration.h"
#include "polly/CodeGen/IslAst.h"
#include "polly/CodePreparation.h"
#include "polly/DeLICM.h"
#include "polly/DependenceInfo.h"
#include "polly/ForwardOpTree.h"
#include "polly/ScopDetection.h"
#include "polly/ScopDetectionDiagnostic.h"
#include "polly/ScopInfo.h"
#include "polly/Options.h"
#include "polly/Simplify.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/RegionInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include "isl/ast.h"
#include "isl/id.h"

#include "decide.h"
#include "loop_hints.h"
#include "pearl/agent.h"
#include "pearl/deps.h"
#include "pearl/fingerprint.h"
#include "pearl/print.h"
#include "pearl/transform.h"
#include "scop_model.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <memory>
#include <string>

using namespace llvm;
using namespace polly;

namespace {

cl::opt<bool> PearlEnable("pearl-enable", cl::init(true),
                          cl::desc("Pearl: schedule Scops (on by default "
                                   "when the plugin is loaded)"));
cl::opt<std::string> PearlSchedule(
    "pearl-schedule", cl::init(""),
    cl::desc("Pearl: explicit schedule in Pearl's notation instead of the "
             "policy; ';' separates the Scops of a function"));
cl::opt<std::string> PearlScheduleFile(
    "pearl-schedule-file", cl::init(""),
    cl::desc("Pearl: schedule file (written by pearl-tune, or by hand): one "
             "schedule per (function, Scop), applied where the Scop's model "
             "has the entry's fingerprint; the policy decides for the "
             "others"));
cl::opt<std::string> PearlOnlyFunc(
    "pearl-only-func", cl::init(""),
    cl::desc("Pearl: schedule only the function with this name"));
cl::opt<std::string> PearlModel(
    "pearl-model", cl::init(""),
    cl::desc("Pearl: weight blob to use instead of the compiled-in model"));
cl::opt<std::string> PearlCritic(
    "pearl-critic", cl::init(""),
    cl::desc("Pearl: critic weights (pearl-critic's critic.bin); the policy "
             "then runs the critic's beam"));
cl::opt<unsigned> PearlBeamWidth(
    "pearl-beam-width", cl::init(4),
    cl::desc("Pearl: episodes the critic's beam keeps per step (1-64)"));
cl::opt<unsigned> PearlBeamTopK(
    "pearl-beam-top-k", cl::init(3),
    cl::desc("Pearl: decisions the critic's beam tries per episode and step "
             "(1-16)"));
cl::opt<double> PearlBeamSeconds(
    "pearl-beam-seconds", cl::init(0.0),
    cl::desc("Pearl: seconds the critic's beam may take after the greedy "
             "episode (0: no limit)"));
cl::opt<std::string> PearlReport(
    "pearl-report", cl::init(""),
    cl::desc("Pearl: append one line per Scop (function, index, outcome, "
             "actions or reason) to this file"));
cl::opt<bool> PearlPrintModel(
    "pearl-print-model", cl::init(false),
    cl::desc("Pearl: print the program model of every Scop to stdout"));
cl::opt<bool> PearlPrintScop(
    "pearl-print-scop", cl::init(false),
    cl::desc("Pearl: print every Scop (after Polly's simplification) to "
             "stdout"));
cl::opt<int> PearlMaxBranchSteps(
    "pearl-max-branch-steps", cl::init(8),
    cl::desc("Pearl: actions the agent may take on one branch"));
cl::opt<long> PearlMinParallelWork(
    "pearl-min-parallel-work", cl::init(PEARL_AGENT_MIN_PARALLEL_WORK),
    cl::desc("Pearl: the agent runs no loop in parallel whose one execution "
             "has fewer innermost iterations (0: no limit)"));
cl::opt<bool> PearlUniformParallel(
    "pearl-uniform-parallel", cl::init(true),
    cl::desc("Pearl: after the agent's episode, make every sequential loop "
             "run its nests all in parallel (split alike) or all serially "
             "(false: the episode as the policy chose it)"));
cl::opt<bool> PearlFillParallel(
    "pearl-fill-parallel", cl::init(true),
    cl::desc("Pearl: after the agent's episode, run in parallel the "
             "outermost loop of each nest the policy left serial that the "
             "dependences and -pearl-min-parallel-work allow (false: the "
             "episode as the policy chose it)"));
cl::opt<unsigned> PearlMaxOperations(
    "pearl-isl-max-operations", cl::init(20000000),
    cl::desc("Pearl: isl operations allowed per Scop (0: unbounded)"));
cl::opt<double> PearlTimeLimit(
    "pearl-time-limit", cl::init(PEARL_TIME_LIMIT),
    cl::desc("Pearl: seconds each action's legality checks and the AST "
             "generation of a Scop (Polly's, on Pearl's schedule) may take "
             "(0: no limit); a Scop that exceeds it keeps clang's code"));

constexpr const char *PassName = "pearl";
constexpr const char *ParallelMark = "pearl.parallel";

// The policy, loaded once per process (clang runs one module at a time).
struct LoadedPolicy {
  pearl_policy *Policy = nullptr;
  std::string Error;
  ~LoadedPolicy() { pearl_policy_free(Policy); }
};

const LoadedPolicy &getPolicy() {
  static LoadedPolicy Loaded = [] {
    LoadedPolicy L;
    char Err[512] = "";
    L.Policy = PearlModel.empty()
                   ? pearl_policy_load_builtin(Err, sizeof(Err))
                   : pearl_policy_load_file(PearlModel.c_str(), Err,
                                            sizeof(Err));
    if (!L.Policy)
      L.Error = std::string(PearlModel.empty() ? "compiled-in model"
                                               : "model '" + PearlModel +
                                                     "'") +
                ": " + Err;
    return L;
  }();
  return Loaded;
}

// The critic of -pearl-critic (none without it), loaded once per process.
const LoadedPolicy &getCritic() {
  static LoadedPolicy Loaded = [] {
    LoadedPolicy L;
    char Err[512] = "";
    if (PearlCritic.empty())
      return L;
    L.Policy = pearl_policy_load_file(PearlCritic.c_str(), Err, sizeof(Err));
    if (!L.Policy)
      L.Error = "critic '" + PearlCritic + "': " + Err;
    return L;
  }();
  return Loaded;
}

// The schedule file, loaded once per process (clang runs one module at a
// time), or why it could not be loaded.
struct LoadedScheduleFile {
  pearl_schedule_file *File = nullptr;
  std::string Error;
  ~LoadedScheduleFile() { pearl_schedule_file_free(File); }
};

const LoadedScheduleFile &getScheduleFile() {
  static LoadedScheduleFile Loaded = [] {
    LoadedScheduleFile L;
    char Err[1024] = "";
    L.File = pearl_schedule_file_load(PearlScheduleFile.c_str(), Err,
                                      sizeof(Err));
    if (!L.File)
      L.Error = Err;
    return L;
  }();
  return Loaded;
}

// 1 if `Text` holds nothing but white space.
bool isBlank(const std::string &Text) {
  for (char C : Text)
    if (!std::isspace(static_cast<unsigned char>(C)))
      return false;
  return true;
}

// The number of ';'-separated parts of -pearl-schedule.
int schedulePartCount() {
  return 1 + static_cast<int>(std::count(PearlSchedule.begin(),
                                         PearlSchedule.end(), ';'));
}

// What is wrong with the schedule file option: blank, given with
// -pearl-schedule, or a file that cannot be read or is malformed. Empty if
// nothing is (or the option is not given).
std::string scheduleFileError() {
  if (PearlScheduleFile.getNumOccurrences() && isBlank(PearlScheduleFile))
    return "-pearl-schedule-file is blank: give the path of a schedule file";
  if (PearlScheduleFile.empty())
    return "";
  if (!PearlSchedule.empty())
    return "-pearl-schedule and -pearl-schedule-file exclude each other: "
           "give the schedules either on the command line or in the file";
  if (!getScheduleFile().File)
    return "schedule file: " + getScheduleFile().Error;
  return "";
}

// `Seconds` as the remarks write it: "4 s", "0.5 s".
std::string formatSeconds(double Seconds) {
  char Buf[32];
  snprintf(Buf, sizeof(Buf), "%g s", Seconds);
  return Buf;
}

// What is wrong with the plugin's options, checked once per process: an
// explicit schedule that is blank or does not parse, a schedule file that
// cannot be used, negative numbers (the option parser refuses numbers
// beyond an int's range).
// Empty if nothing is.
const std::string &optionError() {
  static const std::string Error = []() -> std::string {
    if (std::string Why = scheduleFileError(); !Why.empty())
      return Why;
    if (PearlMaxBranchSteps < 0)
      return "-pearl-max-branch-steps=" +
             std::to_string(PearlMaxBranchSteps) +
             " is negative (0: the agent takes no action)";
    if (!(PearlTimeLimit >= 0) || PearlTimeLimit > 1e6)
      return "-pearl-time-limit=" + std::to_string(PearlTimeLimit) +
             " is out of range (0 to 1000000 seconds; 0: no limit)";
    if (PearlBeamWidth < 1 || PearlBeamWidth > 64 || PearlBeamTopK < 1 ||
        PearlBeamTopK > 16 || !(PearlBeamSeconds >= 0) ||
        PearlBeamSeconds > 1e6)
      return "-pearl-beam-width must be from 1 to 64, -pearl-beam-top-k "
             "from 1 to 16 and -pearl-beam-seconds from 0 to 1000000";
    if (PearlMinParallelWork < 0)
      return "-pearl-min-parallel-work=" +
             std::to_string(PearlMinParallelWork) +
             " is negative (0: no limit)";
    if (PearlSchedule.empty())
      return "";
    if (isBlank(PearlSchedule))
      return "-pearl-schedule is blank: give actions in Pearl's notation, "
             "or leave the option out to let the policy decide";
    pearl_ctx *Ctx = pearl_ctx_alloc();
    if (!Ctx)
      return "out of memory";
    std::string Why;
    for (int I = 0, N = schedulePartCount(); I < N && Why.empty(); ++I) {
      char *Part = pearl_schedule_part(PearlSchedule.c_str(), I);
      struct pearl_action *Actions = nullptr;
      if (!Part)
        Why = "out of memory";
      else if (pearl_actions_parse(Ctx, Part, &Actions) < 0)
        Why = std::string("-pearl-schedule: ") + pearl_ctx_last_error(Ctx);
      free(Actions);
      free(Part);
    }
    pearl_ctx_free(Ctx);
    return Why;
  }();
  return Error;
}

// A warning clang prints whatever -R flags are given (once per process:
// the options are the same for every function).
void warnOnce(Function &F, const std::string &Msg) {
  static bool Warned = false;
  if (Warned)
    return;
  Warned = true;
  F.getContext().diagnose(DiagnosticInfoGeneric(
      "pearl: " + Msg + "; loop nests are left unchanged", DS_Warning));
}

// Sets a Polly option (by name, it is not exported) for the lifetime of
// this object and restores it after.
class ScopedBoolOption {
  cl::opt<bool> *Opt = nullptr;
  bool Saved = false;

public:
  ScopedBoolOption(const char *Name, bool Value) {
    auto &Map = cl::getRegisteredOptions();
    auto It = Map.find(Name);
    if (It == Map.end())
      return;
    Opt = static_cast<cl::opt<bool> *>(It->second);
    Saved = Opt->getValue();
    Opt->setValue(Value);
  }
  ~ScopedBoolOption() {
    if (Opt)
      Opt->setValue(Saved);
  }
};

// Polly's OpenMP code uses the LLVM runtime's __kmpc_* entry points unless
// the user chose otherwise.
void useLLVMOpenMPBackend() {
  auto &Map = cl::getRegisteredOptions();
  auto It = Map.find("polly-omp-backend");
  if (It != Map.end() && It->second->getNumOccurrences() == 0)
    It->second->addOccurrence(0, "polly-omp-backend", "LLVM");
}

// ForwardOpTree and DeLICM give up on a Scop once their isl analyses take
// more than 1,000,000 operations (their defaults), and then the loads LICM
// hoisted out of inner loops stay scalars passed between statements, which
// the model refuses (an i-k-j matmul beside two other nests is enough).
// Unless the user set them, they get 4,000,000: on 30 generated C programs
// (pearl-gen --lang c, train scale) 18 kernels are scheduled instead of 13,
// as with 20,000,000, for 1.3 s of compilation each instead of 0.5 s
// (20,000,000: 6.4 s each on average, one program 10 s).
constexpr unsigned SimplificationMaxOps = 4000000;

void raiseSimplificationQuotas() {
  auto &Map = cl::getRegisteredOptions();
  std::string Ops = std::to_string(SimplificationMaxOps);
  for (const char *Name : {"polly-optree-max-ops", "polly-delicm-max-ops"}) {
    auto It = Map.find(Name);
    if (It != Map.end() && It->second->getNumOccurrences() == 0)
      It->second->addOccurrence(0, Name, Ops);
  }
}

// GVN's load PRE across loop back edges turns the reuse of a stencil's
// loads (A[i][j+1] read again as A[i][j] one iteration later) into scalars
// carried around the loop, which Polly can only model as extra writes: no
// stencil would reach the agent. When the plugin is enabled it turns that
// one transformation off, unless the user set the option; code it leaves
// alone is then what `clang -O3 -mllvm -enable-load-in-loop-pre=false`
// makes.
void keepLoopLoadsForPolly() {
  auto &Map = cl::getRegisteredOptions();
  auto It = Map.find("enable-load-in-loop-pre");
  if (It != Map.end() && It->second->getNumOccurrences() == 0)
    static_cast<cl::opt<bool> *>(It->second)->setValue(false);
}

// Loop idiom recognition turns copy and fill loops into memcpy, memmove and
// memset calls, which Pearl's model does not cover: a nest with one of
// them (a Jacobi's copy back, a reset inside a time loop) would be left
// whole to clang. When the plugin is enabled those loops stay loops
// (LLVM's vectorizer then compiles them), unless the user set the
// options; code it leaves alone is then what `clang -O3 -mllvm
// -enable-load-in-loop-pre=false -mllvm -disable-loop-idiom-memcpy -mllvm
// -disable-loop-idiom-memset` makes.
void keepCopyLoopsForPolly() {
  auto &Map = cl::getRegisteredOptions();
  for (const char *Name :
       {"disable-loop-idiom-memcpy", "disable-loop-idiom-memset"}) {
    auto It = Map.find(Name);
    // through the option's own parser: it keeps its value in a variable
    // of LoopIdiomRecognize's (cl::location)
    if (It != Map.end() && It->second->getNumOccurrences() == 0)
      It->second->addOccurrence(0, Name, "true");
  }
}

// A loop's location: its start, else the first located instruction of its
// header (loops inlined from headers may have no loop id).
DebugLoc loopLoc(Loop *L) {
  if (DebugLoc Loc = L->getStartLoc())
    return Loc;
  for (Instruction &I : *L->getHeader())
    if (I.getDebugLoc())
      return I.getDebugLoc();
  return DebugLoc();
}

// Where to report on a Scop: the start of its outermost loop.
struct Where {
  DebugLoc Loc;
  BasicBlock *BB;
};

Where whereOf(const Region &R, LoopInfo &LI) {
  Loop *L = LI.getLoopFor(R.getEntry());
  for (BasicBlock *BB : R.blocks())
    if (Loop *BL = LI.getLoopFor(BB); BL && R.contains(BL)) {
      L = BL;
      break;
    }
  while (L && L->getParentLoop() && R.contains(L->getParentLoop()))
    L = L->getParentLoop();
  if (L)
    return {loopLoc(L), L->getHeader()};
  return {DebugLoc(), R.getEntry()};
}

// Appends one line to the -pearl-report file; `Origin` (if not empty) is
// a fifth column saying what the schedule file did for the Scop.
void report(StringRef Fn, int Index, StringRef Outcome, StringRef Text,
            StringRef Origin = "") {
  if (PearlReport.empty())
    return;
  std::error_code EC;
  raw_fd_ostream OS(PearlReport, EC, sys::fs::OF_Append | sys::fs::OF_Text);
  if (EC)
    return;
  OS << Fn << "\t" << Index << "\t" << Outcome << "\t" << Text;
  if (!Origin.empty())
    OS << "\t" << Origin;
  OS << "\n";
}

// What the schedule file gives one Scop.
struct FileChoice {
  const pearl_schedule_entry *Entry = nullptr; // fits the Scop; else the
                                               // policy decides
  std::string Origin;                          // for -pearl-report
};

std::string hex(uint64_t FP) {
  char Buf[PEARL_FINGERPRINT_SIZE];
  pearl_fingerprint_format(FP, Buf);
  return Buf;
}

// Which loops under our parallel marks Polly will run in parallel. Polly's
// code generator runs a loop in parallel when its AST payload says it is
// the outermost parallel loop (and not a reduction-parallel one); we make
// that flag say "the loop the agent parallelized, if Polly's dependences
// prove it parallel", and clear it everywhere else, so that Polly neither
// drops nor adds parallel loops.
struct ParallelPlan {
  int Marked = 0;    // loops under our mark
  int Emitted = 0;   // of which Polly runs in parallel
  std::string Why;   // why some were not
};

void planParallel(isl_ast_node *Node, bool InParallel, bool OpenMP,
                  ParallelPlan &Plan);

void planChildren(isl_ast_node_list *List, bool InParallel, bool OpenMP,
                  ParallelPlan &Plan) {
  isl_size N = isl_ast_node_list_n_ast_node(List);
  for (isl_size I = 0; I < N; ++I) {
    isl_ast_node *Child = isl_ast_node_list_get_ast_node(List, I);
    planParallel(Child, InParallel, OpenMP, Plan);
    isl_ast_node_free(Child);
  }
  isl_ast_node_list_free(List);
}

void clearParallel(isl_ast_node *For) {
  if (auto *P = IslAstInfo::getNodePayload(isl::manage_copy(For)))
    P->IsOutermostParallel = false;
}

void planParallel(isl_ast_node *Node, bool InParallel, bool OpenMP,
                  ParallelPlan &Plan) {
  isl_ast_node *Child;
  switch (isl_ast_node_get_type(Node)) {
  case isl_ast_node_for:
    clearParallel(Node);
    Child = isl_ast_node_for_get_body(Node);
    planParallel(Child, InParallel, OpenMP, Plan);
    isl_ast_node_free(Child);
    return;
  case isl_ast_node_if:
    Child = isl_ast_node_if_get_then_node(Node);
    planParallel(Child, InParallel, OpenMP, Plan);
    isl_ast_node_free(Child);
    if (isl_ast_node_if_has_else_node(Node) == isl_bool_true) {
      Child = isl_ast_node_if_get_else_node(Node);
      planParallel(Child, InParallel, OpenMP, Plan);
      isl_ast_node_free(Child);
    }
    return;
  case isl_ast_node_block:
    planChildren(isl_ast_node_block_get_children(Node), InParallel, OpenMP,
                 Plan);
    return;
  case isl_ast_node_mark: {
    isl_id *Id = isl_ast_node_mark_get_id(Node);
    bool Ours = Id && !strcmp(isl_id_get_name(Id), ParallelMark);
    isl_id_free(Id);
    Child = isl_ast_node_mark_get_node(Node);
    // The marked loop may sit under guards isl put above it.
    while (Ours && isl_ast_node_get_type(Child) == isl_ast_node_if &&
           isl_ast_node_if_has_else_node(Child) == isl_bool_false) {
      isl_ast_node *Then = isl_ast_node_if_get_then_node(Child);
      isl_ast_node_free(Child);
      Child = Then;
    }
    if (Ours) {
      ++Plan.Marked;
      auto *P = isl_ast_node_get_type(Child) == isl_ast_node_for
                    ? IslAstInfo::getNodePayload(isl::manage_copy(Child))
                    : nullptr;
      const char *Why = nullptr;
      if (!P)
        Why = "isl generated no loop for it (a single iteration, or "
              "several loops)";
      else if (!P->IsParallel)
        Why = "Polly's dependences do not prove it parallel";
      else if (P->IsReductionParallel)
        Why = "it is parallel only by breaking a reduction";
      else if (InParallel)
        Why = "it is nested in a parallel loop";
      else if (!OpenMP)
        Why = "the module is not compiled with -fopenmp";
      if (Why) {
        if (Plan.Why.empty())
          Plan.Why = Why;
        planParallel(Child, InParallel, OpenMP, Plan);
      } else {
        ++Plan.Emitted;
        isl_ast_node *Body = isl_ast_node_for_get_body(Child);
        planParallel(Body, true, OpenMP, Plan);
        isl_ast_node_free(Body);
        P->IsOutermostParallel = true;
      }
    } else {
      planParallel(Child, InParallel, OpenMP, Plan);
    }
    isl_ast_node_free(Child);
    return;
  }
  default:
    return;
  }
}

class PearlScheduler {
  Function &F;
  FunctionAnalysisManager &FAM;
  OptimizationRemarkEmitter *ORE = nullptr;
  LoopInfo *LI = nullptr;
  bool OpenMP;

public:
  PearlScheduler(Function &F, FunctionAnalysisManager &FAM)
      : F(F), FAM(FAM),
        OpenMP(F.getParent()->getModuleFlag("openmp") != nullptr) {}

  void missed(const Where &W, const Twine &Msg) {
    ORE->emit([&] {
      return OptimizationRemarkMissed(PassName, "Unchanged", W.Loc, W.BB)
             << Msg.str();
    });
  }
  void passed(const Where &W, const Twine &Msg) {
    ORE->emit([&] {
      return OptimizationRemark(PassName, "Scheduled", W.Loc, W.BB)
             << Msg.str();
    });
  }
  void analysis(const Where &W, const Twine &Msg) {
    ORE->emit([&] {
      return OptimizationRemarkAnalysis(PassName, "ScheduleFile", W.Loc, W.BB)
             << Msg.str();
    });
  }

  // Looks Scop `Index` of the function, whose model has the fingerprint
  // `FP`, up in the schedule file. A region without an entry gets an
  // analysis remark, one whose entry was tuned for another model a missed
  // remark naming both fingerprints: the policy decides for both.
  FileChoice chooseFromFile(const Where &W, int Index, uint64_t FP) {
    FileChoice C;
    const pearl_schedule_entry *E = pearl_schedule_file_find(
        getScheduleFile().File, F.getName().str().c_str(), Index);
    if (E && pearl_schedule_entry_fits(E, FP)) {
      C.Entry = E;
      C.Origin = "schedule-file:" + std::to_string(E->line);
    } else if (E) {
      missed(W, "pearl-schedule: schedule file entry for @" + F.getName() +
                    " Scop " + Twine(Index) + " (line " + Twine(E->line) +
                    ") is for fingerprint " + hex(E->fingerprint) +
                    ", the Scop's is " + hex(FP) +
                    ": the code changed since it was tuned; the policy "
                    "decides");
      C.Origin = "policy:fingerprint-changed";
    } else {
      analysis(W, "pearl-schedule: schedule file has no entry for @" +
                      F.getName() + " Scop " + Twine(Index) +
                      ": the policy decides");
      C.Origin = "policy:no-entry";
    }
    return C;
  }

  // -pearl-print-model's text of Scop `Index`: the model, its dependences
  // and its fingerprint.
  void printModel(pearl_program *Prog, int Index, uint64_t FP) {
    pearl_deps *Deps = pearl_deps_compute(Prog);
    char *Text = Deps ? pearl_program_to_str(Prog, Deps) : nullptr;
    if (Text)
      outs() << "scop @" << F.getName() << " " << Index << ":\n"
             << Text << "  fingerprint: " << hex(FP) << "\n";
    outs().flush();
    std::free(Text);
    pearl_deps_free(Deps);
  }

  // Loops outside every Scop: say why Polly could not take them.
  void reportUndetected(ScopDetection &SD, RegionInfo &RI) {
    for (Loop *L : *LI) {
      bool Covered = false;
      for (const Region *R : SD)
        Covered |= R->contains(L);
      if (Covered)
        continue;
      std::string Reason;
      for (Region *R = RI.getRegionFor(L->getHeader()); R && Reason.empty();
           R = R->getParent()) {
        if (!R->contains(L))
          continue;
        if (const RejectLog *Log = SD.lookupRejectionLog(R))
          for (auto &RR : *Log) {
            Reason = RR->getMessage();
            break;
          }
      }
      if (Reason.empty())
        Reason = "not a static control part";
      Where W{loopLoc(L), L->getHeader()};
      missed(W, "pearl-schedule: loop nest left unchanged: Polly cannot "
                "model it: " + Reason);
      report(F.getName(), -1, "unmodeled", Reason);
    }
  }

  // A region Scop detection accepted and ScopInfo then dropped (its
  // assumptions cannot hold, or it is too complex to check at run time).
  void reportDropped(const Region &R) {
    Where W = whereOf(R, *LI);
    std::string Why = "Polly dropped the Scop after building it (its "
                      "run-time assumptions cannot hold or are too complex; "
                      "-Rpass-analysis=polly-scops says which)";
    missed(W, "pearl-schedule: loop nest left unchanged: " + Why);
    report(F.getName(), -1, "dropped", Why);
  }

  // -pearl-schedule parts past the function's last Scop are not used:
  // say so, as a warning (a schedule written for other Scops than the
  // ones Polly found is a mistake worth seeing).
  void warnUnusedParts(int NScops) {
    if (PearlSchedule.empty() || NScops == 0)
      return;
    std::string Unused;
    for (int I = NScops, N = schedulePartCount(); I < N; ++I) {
      char *Part = pearl_schedule_part(PearlSchedule.c_str(), I);
      if (Part && !isBlank(Part))
        Unused += (Unused.empty() ? "" : ", ") + std::to_string(I);
      free(Part);
    }
    if (Unused.empty())
      return;
    F.getContext().diagnose(DiagnosticInfoGeneric(
        "pearl: -pearl-schedule has actions for Scop " + Unused +
            " but function " + F.getName() + " has " +
            std::to_string(NScops) + " Scop" + (NScops > 1 ? "s" : "") +
            " (numbered from 0): those parts are not used",
        DS_Warning));
  }

  // Models, decides, installs and generates one Scop. Returns true if code
  // was generated.
  bool runOnScop(Scop &S, RegionInfo &RI, int Index) {
    Where W = whereOf(S.getRegion(), *LI);
    std::string Origin; // of the schedule, with a schedule file
    auto Unchanged = [&](const std::string &Why) {
      missed(W, "pearl-schedule: loop nest left unchanged: " + Why);
      report(F.getName(), Index, "unchanged", Why, Origin);
      return false;
    };
    // Before Pearl's model exists: no schedule could apply to this Scop.
    auto Unmodeled = [&](const std::string &Why) {
      missed(W, "pearl-schedule: loop nest left unchanged: " + Why);
      report(F.getName(), Index, "unmodeled", Why);
      return false;
    };

    DependenceAnalysis::Result DA = runDependenceAnalysis(S);
    // Polly's simplification phases, as its PhaseManager runs them: they
    // turn scalars LICM promoted back into array accesses (DeLICM).
    runSimplify(S, 0);
    bool Changed = runForwardOpTree(S);
    Changed |= runDeLICM(S);
    if (Changed)
      runSimplify(S, 1);
    if (S.getSize() == 0)
      return Unmodeled("no statement left after simplification");
    if (PearlPrintScop) {
      S.print(outs(), /*PrintInstructions=*/true);
      outs().flush();
    }

    pearl_ctx *Ctx = pearl_ctx_alloc_borrowing(S.getIslCtx().get());
    if (!Ctx)
      return Unchanged("out of memory");
    std::unique_ptr<pearl_ctx, void (*)(pearl_ctx *)> CtxOwner(
        Ctx, pearl_ctx_free);
    pearl_ctx_set_time_limit(Ctx, PearlTimeLimit);
    std::string Why;
    isl_union_pw_multi_aff *ToModel = nullptr;
    pearl_program *Prog = pearl::modelScop(Ctx, S, Why, &ToModel);
    if (!Prog)
      return Unmodeled(Why);
    isl::union_pw_multi_aff ToModelOwner = isl::manage(ToModel);
    // The fingerprint before any analysis (see pearl/fingerprint.h).
    uint64_t FP = 0;
    if ((!PearlScheduleFile.empty() || PearlPrintModel) &&
        pearl_program_fingerprint(Prog, &FP) != pearl_stat_ok) {
      pearl_program_free(Prog);
      return Unchanged(pearl_ctx_last_error(Ctx));
    }
    FileChoice FromFile;
    if (!PearlScheduleFile.empty())
      FromFile = chooseFromFile(W, Index, FP);
    Origin = FromFile.Origin;

    // With -pearl-schedule, or a schedule file entry that fits, the
    // policy is never asked: a Scop without actions of its own keeps its
    // code (as in the MLIR pass).
    const bool Explicit = !PearlSchedule.empty() || FromFile.Entry;
    const LoadedPolicy &Policy = getPolicy();
    char *Part = FromFile.Entry
                     ? strdup(FromFile.Entry->schedule)
                     : pearl_schedule_part(PearlSchedule.c_str(), Index);
    const LoadedPolicy &Critic = getCritic();
    struct pearl_llvm_request Req = {Part,
                                     Policy.Policy,
                                     PearlMaxBranchSteps,
                                     PearlMinParallelWork,
                                     PearlMaxOperations,
                                     Critic.Policy,
                                     static_cast<int>(PearlBeamWidth),
                                     static_cast<int>(PearlBeamTopK),
                                     PearlBeamSeconds,
                                     PearlUniformParallel ? 1 : 0,
                                     PearlFillParallel ? 1 : 0};
    struct pearl_llvm_decision D;
    pearl_llvm_decision_init(&D);
    pearl_stat St = pearl_stat_error;
    if (!Part)
      Why = "out of memory";
    else if (FromFile.Entry && isBlank(Part))
      return keepForFile(Prog, Part, Index, FP, W, FromFile);
    else if (Explicit && isBlank(Part))
      Why = "-pearl-schedule has no actions for Scop " +
            std::to_string(Index) + " of this function";
    else if (!Explicit && !Policy.Policy)
      Why = "cannot load the policy: " + Policy.Error;
    else if (!Explicit && !PearlCritic.empty() && !Critic.Policy)
      Why = "cannot load the " + Critic.Error;
    else if ((St = pearl_llvm_decide(Prog, &Req, &D)) != pearl_stat_ok)
      Why = pearl_ctx_last_error(Ctx);
    if (St == pearl_stat_ok && PearlPrintModel)
      printModel(Prog, Index, FP);
    free(Part);
    pearl_program_free(Prog);
    if (St != pearl_stat_ok) {
      pearl_llvm_decision_clear(&D);
      return Unchanged(Why);
    }
    if (D.refused) {
      missed(W, D.refused);
      report(F.getName(), Index, "refused", D.refused, Origin);
    }
    if (!D.schedule) {
      // Nothing applied: the Scop keeps clang's code.
      std::string Msg = D.refused ? "no action of the schedule applies"
                                  : D.remark;
      bool Kept = !D.refused;
      pearl_llvm_decision_clear(&D);
      if (!Kept)
        return Unchanged(Msg);
      passed(W, Msg);
      report(F.getName(), Index, "kept", "", Origin);
      return false;
    }

    std::string Remark = D.remark, Actions = D.actions;
    if (FromFile.Entry)
      Remark = "pearl-schedule: schedule file '" + PearlScheduleFile +
               "' line " + std::to_string(FromFile.Entry->line) +
               ": applied \"" + Actions + "\"";
    isl_schedule *Hinted = pearl::markLoopHints(D.schedule, F.getContext());
    isl::schedule Sched = isl::manage(isl_schedule_pullback_union_pw_multi_aff(
        pearl_llvm_mark_parallel(Hinted, ParallelMark), ToModelOwner.copy()));
    D.schedule = nullptr;
    pearl_llvm_decision_clear(&D);
    if (Sched.is_null())
      return Unchanged("isl error while marking parallel loops and loop "
                       "hints");

    // Computed now, on the simplified Scop (DeLICM changed its accesses).
    const Dependences &Deps =
        DA.recomputeDependences(Dependences::AL_Statement);
    if (!Deps.hasValidDependences())
      return Unchanged("Polly's dependence analysis failed (its compute "
                       "limit: -polly-dependences-computeout) before it "
                       "could check the schedule \"" +
                       Actions + "\"");
    if (!Deps.isValidSchedule(S, Sched))
      return Unchanged("Polly's dependences reject the schedule \"" +
                       Actions + "\"");
    S.setScheduleTree(Sched);
    S.markAsOptimized();

    ScopedBoolOption Parallel("polly-parallel", true);
    ScopedBoolOption Force("polly-parallel-force", true);
    // isl's AST generation can take minutes on some schedules (skewed,
    // twice tiled bands; a fuzzer-found hang of clang, pearl-gen --seed
    // 1048 --lang c): it runs under the time limit, as Pearl's own does.
    // The AST is checked as Pearl's own is (pearl_ast_runs_schedule): isl
    // has been seen to run instances twice on some tiled schedules.
    pearl_ctx_watch_start(Ctx, PearlTimeLimit);
    std::unique_ptr<IslAstInfo> Ast = runIslAstGen(S, DA);
    int Once = -1;
    if (Ast && !Ast->getAst().is_null())
      Once = pearl_ast_runs_schedule(Ast->getAst().get(), Sched.get(),
                                     S.getContext().get());
    if (pearl_ctx_watch_stop(Ctx))
      return Unchanged("Polly's AST generation and its check stopped after "
                       "the time limit of " + formatSeconds(PearlTimeLimit) +
                       " (-pearl-time-limit)");
    if (!Ast || Ast->getAst().is_null())
      return Unchanged("Polly's AST generation failed (isl error or quota)");
    if (Once == 0)
      return Unchanged("isl's AST runs some instances of the schedule \"" +
                       Actions + "\" more than once or not at all");
    if (Once < 0)
      return Unchanged("the check that isl's AST runs each instance once "
                       "failed (isl error or quota)");
    ParallelPlan Plan;
    isl::ast_node Root = Ast->getAst();
    planParallel(Root.get(), false, OpenMP, Plan);
    if (Plan.Marked > Plan.Emitted)
      Remark += "; " + std::to_string(Plan.Marked - Plan.Emitted) + " of " +
                std::to_string(Plan.Marked) +
                " parallel loops run sequentially: " + Plan.Why;
    if (!runCodeGeneration(S, RI, *Ast))
      return Unchanged("Polly's code generation declined the Scop");
    passed(W, Remark);
    report(F.getName(), Index, "scheduled", Actions, Origin);
    return true;
  }

  // A Scop the schedule file gives the empty schedule: it keeps clang's
  // code (the policy is not asked). Frees `Prog` and `Part`.
  bool keepForFile(pearl_program *Prog, char *Part, int Index, uint64_t FP,
                   const Where &W, const FileChoice &FromFile) {
    if (PearlPrintModel)
      printModel(Prog, Index, FP);
    pearl_program_free(Prog);
    free(Part);
    passed(W, "pearl-schedule: loop nest kept as it is: schedule file '" +
                  PearlScheduleFile + "' line " +
                  Twine(FromFile.Entry->line) +
                  " gives it the empty schedule");
    report(F.getName(), Index, "kept", "", FromFile.Origin);
    return false;
  }

  // Schedule file entries for Scops of this function past its last one
  // are not used: say so, as a warning (as for -pearl-schedule's parts).
  void warnUnusedEntries(int NScops) {
    const pearl_schedule_file *File =
        PearlScheduleFile.empty() ? nullptr : getScheduleFile().File;
    if (!File || NScops == 0)
      return;
    std::string Unused;
    for (int I = 0, N = pearl_schedule_file_n_entry(File); I < N; ++I) {
      const pearl_schedule_entry *E = pearl_schedule_file_get_entry(File, I);
      if (E->region >= NScops && F.getName() == E->function)
        Unused += (Unused.empty() ? "" : ", ") + std::to_string(E->region) +
                  " (line " + std::to_string(E->line) + ")";
    }
    if (Unused.empty())
      return;
    F.getContext().diagnose(DiagnosticInfoGeneric(
        "pearl: schedule file '" + PearlScheduleFile +
            "' has entries for Scop " + Unused + " but function " +
            F.getName() + " has " + std::to_string(NScops) + " Scop" +
            (NScops > 1 ? "s" : "") +
            " (numbered from 0): those entries are not used",
        DS_Warning));
  }

  bool run() {
    LI = &FAM.getResult<LoopAnalysis>(F);
    auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
    if (LI->empty())
      return false;
    BasicBlock *Entry = &F.getEntryBlock();
    bool Prepared = runCodePreparation(F, &DT, LI, nullptr);

    auto &AA = FAM.getResult<AAManager>(F);
    auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
    ORE = &FAM.getResult<OptimizationRemarkEmitterAnalysis>(F);
    bool Generated = false;
    {
      RegionInfo RI = RegionInfoAnalysis().run(F, FAM);
      ScopDetection SD(DT, SE, *LI, RI, AA, *ORE);
      auto &AC = FAM.getResult<AssumptionAnalysis>(F);
      // The agent decides what is worth transforming, not Polly's
      // profitability heuristic (which rejects, e.g., single loops): in
      // detection, and until the last Scop is built (ScopInfo builds each
      // one in getScop, and again after invalidate(), where the same
      // heuristic would drop it).
      bool SavedUnprofitable = PollyProcessUnprofitable;
      PollyProcessUnprofitable = true;
      SD.detect(F);
      ScopInfo Info(F.getParent()->getDataLayout(), SD, SE, *LI, AA, DT, AC,
                    *ORE);
      reportUndetected(SD, RI);
      SmallVector<const Region *, 4> Regions(SD.begin(), SD.end());
      // Scops are numbered as ScopInfo builds them: a region it drops
      // takes no part of -pearl-schedule.
      int Index = 0;
      for (const Region *R : Regions) {
        if (!SD.isMaxRegionInScop(*R, /*Verify=*/false))
          continue;
        Scop *S = Info.getScop(R);
        if (!S) {
          reportDropped(*R);
          continue;
        }
        if (runOnScop(*S, RI, Index++)) {
          Generated = true;
          // The other Scops refer to IR code generation changed.
          Info.invalidate();
        }
      }
      warnUnusedParts(Index);
      warnUnusedEntries(Index);
      PollyProcessUnprofitable = SavedUnprofitable;
    }
    // Nothing generated: undo the entry-block split of code preparation,
    // so that the function is exactly what clang would have compiled.
    if (Prepared && !Generated) {
      BasicBlock *Split = Entry->getSingleSuccessor();
      if (Split)
        MergeBlockIntoPredecessor(Split, nullptr, LI);
    }
    return Prepared || Generated;
  }
};

struct PearlLLVMPass : PassInfoMixin<PearlLLVMPass> {
  PreservedAnalyses run(Function &F, FunctionAnalysisManager &FAM) {
    // Polly's OpenMP subfunctions hold loops we already generated.
    if (!PearlEnable || F.isDeclaration() ||
        F.getName().ends_with("_polly_subfn") ||
        (!PearlOnlyFunc.empty() && F.getName() != PearlOnlyFunc))
      return PreservedAnalyses::all();
    // Options that cannot be honoured leave every function as clang
    // compiles it, with one warning.
    if (const std::string &Error = optionError(); !Error.empty()) {
      warnOnce(F, Error);
      return PreservedAnalyses::all();
    }
    if (PearlSchedule.empty() && !getPolicy().Policy) {
      warnOnce(F, "cannot load the " + getPolicy().Error);
      return PreservedAnalyses::all();
    }
    if (PearlSchedule.empty() && !PearlCritic.empty() && !getCritic().Policy) {
      warnOnce(F, "cannot load the " + getCritic().Error);
      return PreservedAnalyses::all();
    }
    useLLVMOpenMPBackend();
    raiseSimplificationQuotas();
    if (!PearlScheduler(F, FAM).run())
      return PreservedAnalyses::all();
    return PreservedAnalyses::none();
  }
  static bool isRequired() { return false; }
};

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK ::llvm::PassPluginLibraryInfo
llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "Pearl", LLVM_VERSION_STRING,
          [](PassBuilder &PB) {
            if (PearlEnable) {
              keepLoopLoadsForPolly();
              keepCopyLoopsForPolly();
            }
            PB.registerVectorizerStartEPCallback(
                [](FunctionPassManager &FPM, OptimizationLevel Level) {
                  if (Level.getSpeedupLevel() > 0)
                    FPM.addPass(PearlLLVMPass());
                });
            PB.registerPipelineParsingCallback(
                [](StringRef Name, FunctionPassManager &FPM,
                   ArrayRef<PassBuilder::PipelineElement>) {
                  if (Name != "pearl-schedule")
                    return false;
                  FPM.addPass(PearlLLVMPass());
                  return true;
                });
          }};
}
