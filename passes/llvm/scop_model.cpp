//===- scop_model.cpp - a Polly Scop as a pearl_program -------------------===//
//
// See scop_model.h. The isl objects are the Scop's own (same isl_ctx), so
// only references are taken: statement tuple ids keep their ScopStmt user
// pointers and the schedule Pearl returns names the Scop's statements.
//
//===----------------------------------------------------------------------===//

#include "scop_model.h"

#include "polly/ScopInfo.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IntrinsicInst.h"

#include "isl/aff.h"
#include "isl/map.h"
#include "isl/union_map.h"
#include "isl/schedule_node.h"

#include <algorithm>

using namespace llvm;
using namespace polly;

namespace {

/// The element type in MLIR's spelling ("f64", "i32", ...).
std::string typeName(Type *T) {
  if (T->isDoubleTy())
    return "f64";
  if (T->isFloatTy())
    return "f32";
  if (T->isHalfTy())
    return "f16";
  if (T->isIntegerTy())
    return "i" + std::to_string(T->getIntegerBitWidth());
  return "other";
}

/// The MLIR operation(s) an LLVM instruction of a stored value's
/// computation stands for, appended to `Ops`. Nothing for instructions
/// that are only plumbing (freeze, bitcasts of pointers).
void opNames(Instruction *I, SmallVectorImpl<const char *> &Ops) {
  switch (I->getOpcode()) {
  case Instruction::FAdd: Ops.push_back("arith.addf"); return;
  case Instruction::Add: Ops.push_back("arith.addi"); return;
  case Instruction::FSub: Ops.push_back("arith.subf"); return;
  case Instruction::Sub: Ops.push_back("arith.subi"); return;
  case Instruction::FNeg: Ops.push_back("arith.negf"); return;
  case Instruction::FMul: Ops.push_back("arith.mulf"); return;
  case Instruction::Mul: Ops.push_back("arith.muli"); return;
  case Instruction::FDiv: Ops.push_back("arith.divf"); return;
  case Instruction::SDiv: Ops.push_back("arith.divsi"); return;
  case Instruction::UDiv: Ops.push_back("arith.divui"); return;
  case Instruction::FRem: Ops.push_back("arith.remf"); return;
  case Instruction::SRem: Ops.push_back("arith.remsi"); return;
  case Instruction::URem: Ops.push_back("arith.remui"); return;
  case Instruction::FCmp: Ops.push_back("arith.cmpf"); return;
  case Instruction::ICmp: Ops.push_back("arith.cmpi"); return;
  case Instruction::Select: Ops.push_back("arith.select"); return;
  case Instruction::SIToFP: Ops.push_back("arith.sitofp"); return;
  case Instruction::UIToFP: Ops.push_back("arith.uitofp"); return;
  case Instruction::FPToSI: Ops.push_back("arith.fptosi"); return;
  case Instruction::FPToUI: Ops.push_back("arith.fptoui"); return;
  case Instruction::FPExt: Ops.push_back("arith.extf"); return;
  case Instruction::FPTrunc: Ops.push_back("arith.truncf"); return;
  case Instruction::SExt: Ops.push_back("arith.extsi"); return;
  case Instruction::ZExt: Ops.push_back("arith.extui"); return;
  case Instruction::Trunc: Ops.push_back("arith.trunci"); return;
  case Instruction::Shl: Ops.push_back("arith.shli"); return;
  case Instruction::LShr: Ops.push_back("arith.shrui"); return;
  case Instruction::AShr: Ops.push_back("arith.shrsi"); return;
  case Instruction::And: Ops.push_back("arith.andi"); return;
  case Instruction::Or: Ops.push_back("arith.ori"); return;
  case Instruction::Xor: Ops.push_back("arith.xori"); return;
  case Instruction::Freeze:
  case Instruction::BitCast:
    return;
  default:
    break;
  }
  if (auto *II = dyn_cast<IntrinsicInst>(I)) {
    switch (II->getIntrinsicID()) {
    // clang contracts `c + a * b` into fmuladd (-ffp-contract=on); MLIR
    // kernels spell it mulf + addf: count both, as the same program.
    case Intrinsic::fmuladd:
    case Intrinsic::fma:
      Ops.push_back("arith.addf");
      Ops.push_back("arith.mulf");
      return;
    case Intrinsic::smax: Ops.push_back("arith.maxsi"); return;
    case Intrinsic::smin: Ops.push_back("arith.minsi"); return;
    case Intrinsic::umax: Ops.push_back("arith.maxui"); return;
    case Intrinsic::umin: Ops.push_back("arith.minui"); return;
    case Intrinsic::maxnum: Ops.push_back("arith.maxnumf"); return;
    case Intrinsic::minnum: Ops.push_back("arith.minnumf"); return;
    case Intrinsic::maximum: Ops.push_back("arith.maximumf"); return;
    case Intrinsic::minimum: Ops.push_back("arith.minimumf"); return;
    case Intrinsic::sqrt: Ops.push_back("math.sqrt"); return;
    case Intrinsic::exp: Ops.push_back("math.exp"); return;
    case Intrinsic::log: Ops.push_back("math.log"); return;
    case Intrinsic::pow: Ops.push_back("math.powf"); return;
    case Intrinsic::fabs: Ops.push_back("math.absf"); return;
    case Intrinsic::sin: Ops.push_back("math.sin"); return;
    case Intrinsic::cos: Ops.push_back("math.cos"); return;
    default:
      break;
    }
  }
  Ops.push_back("llvm.other");
}

/// Collects one statement's reads and operations by walking the stored
/// value's computation depth first, operands in order: the MLIR frontend's
/// walk, so that reads come in the same order (buffer ids and read slots of
/// the policy's graph depend on it).
struct StmtWalk {
  ScopStmt &Stmt;
  SmallPtrSet<Value *, 16> Seen;
  SmallVector<MemoryAccess *, 8> Reads;
  SmallVector<const char *, 16> Ops;

  explicit StmtWalk(ScopStmt &Stmt) : Stmt(Stmt) {}

  void addRead(MemoryAccess *MA) {
    if (MA && MA->isRead() && !is_contained(Reads, MA))
      Reads.push_back(MA);
  }

  void walk(Value *V) {
    auto *I = dyn_cast_or_null<Instruction>(V);
    if (!I || !Seen.insert(V).second)
      return;
    if (MemoryAccess *MA = Stmt.getArrayAccessOrNULLFor(I)) {
      addRead(MA);
      return;
    }
    if (MemoryAccess *MA = Stmt.lookupInputAccessOf(V)) {
      addRead(MA);
      return;
    }
    // Values computed outside the statement (outside the Scop, induction
    // variables, hoisted invariant loads) are not part of its computation.
    if (isa<PHINode>(I) || isa<LoadInst>(I) || !Stmt.getParent()->contains(I))
      return;
    opNames(I, Ops);
    // fmuladd(a, b, c) is c + a * b: walk it as addf(c, mulf(a, b)).
    if (auto *II = dyn_cast<IntrinsicInst>(I);
        II && (II->getIntrinsicID() == Intrinsic::fmuladd ||
               II->getIntrinsicID() == Intrinsic::fma)) {
      walk(II->getArgOperand(2));
      walk(II->getArgOperand(0));
      walk(II->getArgOperand(1));
      return;
    }
    for (Value *Op : I->operands())
      walk(Op);
  }
};

/// 1 if `MA` reads a value defined outside the Scop (Polly models such
/// read-only scalars as accesses; they carry no dependence and MLIR's
/// frontend has nothing like them).
bool isReadOnlyScalar(Scop &S, MemoryAccess *MA) {
  if (!MA->isRead() || MA->isLatestArrayKind() || !MA->isOriginalValueKind())
    return false;
  auto *I = dyn_cast_or_null<Instruction>(MA->getAccessValue());
  return !I || !S.contains(I);
}

/// What an access is, for a refusal: "a memcpy", "a call to f", ...
std::string accessSite(MemoryAccess *MA) {
  Instruction *I = MA->getAccessInstruction();
  if (!I)
    return "an access with no instruction";
  if (auto *MI = dyn_cast<MemIntrinsic>(I))
    return std::string("a memory intrinsic (") +
           (isa<MemSetInst>(MI) ? "memset"
            : isa<MemMoveInst>(MI) ? "memmove"
                                   : "memcpy") +
           ", e.g. a copy or fill loop clang turned into one)";
  if (auto *CB = dyn_cast<CallBase>(I)) {
    Function *Callee = CB->getCalledFunction();
    return "a call" +
           (Callee ? " to " + Callee->getName().str() : std::string());
  }
  return std::string("an instruction of kind ") + I->getOpcodeName();
}

/// Why `Stmt` of `S` is outside what the model reads, or "" if it is not.
/// Everything modelScop follows afterwards (the statement's block, the
/// instruction and value of every array access) is checked here first, so
/// that a kind of statement or access Polly can build and Pearl does not
/// know is refused by name instead of being dereferenced.
std::string unsupportedStmt(Scop &S, ScopStmt &Stmt) {
  const std::string Name = Stmt.getBaseName() ? Stmt.getBaseName() : "?";
  if (Stmt.isRegionStmt())
    return "statement " + Name + " has non-affine control flow (a Polly "
           "region statement)";
  if (!Stmt.isBlockStmt())
    return "statement " + Name + " is a copy statement (not modeled)";
  for (MemoryAccess *MA : Stmt) {
    if (!MA)
      return "statement " + Name + " has an empty access";
    if (isReadOnlyScalar(S, MA))
      continue;
    if (!MA->isOriginalArrayKind() && MA->isRead())
      continue; // a scalar read: its write is modeled or refused below
    Instruction *I = MA->getAccessInstruction();
    if (MA->isOriginalArrayKind() &&
        !(I && (isa<LoadInst>(I) || isa<StoreInst>(I))))
      return "statement " + Name + " accesses memory through " +
             accessSite(MA) + " (not modeled)";
    if (MA->isWrite() && MA->isOriginalArrayKind() && !MA->getAccessValue())
      return "statement " + Name + " writes a value Polly does not name "
             "(not modeled)";
    if (!MA->getLatestScopArrayInfo())
      return "statement " + Name + " accesses an array Polly does not "
             "describe (not modeled)";
  }
  return "";
}

/// The dimensions of a fixed-size array object (a global or alloca of
/// type [d0 x [d1 x ... x T]]) whose elements have type `Elem`; empty if
/// `Base` is not such an object.
SmallVector<uint64_t, 4> fixedDims(Value *Base, Type *Elem) {
  SmallVector<uint64_t, 4> Dims;
  Type *T = nullptr;
  if (auto *G = dyn_cast<GlobalVariable>(Base))
    T = G->getValueType();
  else if (auto *A = dyn_cast<AllocaInst>(Base))
    T = A->getAllocatedType();
  while (T && T->isArrayTy()) {
    Dims.push_back(T->getArrayNumElements());
    T = T->getArrayElementType();
  }
  if (T != Elem || Dims.size() < 2)
    Dims.clear();
  return Dims;
}

/// `Acc` (taken) with a one-dimensional (linearized) range on a fixed-size
/// array of dimensions `Dims` rewritten over the array's dimensions, e.g.
/// MemRef[64i + j] -> MemRef[i, j] for double A[..][64], as MLIR's memrefs
/// index it. `Dom` (kept) is the statement's domain: within it the
/// subscripts are found as equalities. Returns the access unchanged if the
/// subscripts are not affine within the domain.
isl_map *reshape(isl_map *Acc, isl_set *Dom, ArrayRef<uint64_t> Dims) {
  isl_ctx *Ctx = isl_map_get_ctx(Acc);
  isl_id *Id = isl_map_get_tuple_id(Acc, isl_dim_out);
  std::string Name = isl_id_get_name(Id);
  std::string Out, Flat, Bounds;
  uint64_t Stride = 1;
  for (size_t I = Dims.size(); I-- > 0;) {
    std::string V = "d" + std::to_string(I);
    Out = V + (Out.empty() ? "" : ", ") + Out;
    Flat += (Flat.empty() ? "" : " + ") + std::to_string(Stride) + V;
    if (I > 0)
      Bounds += " and 0 <= " + V + " < " + std::to_string(Dims[I]);
    Stride *= Dims[I];
  }
  std::string Str = "{ [x] -> " + Name + "[" + Out + "] : x = " + Flat +
                    Bounds + " }";
  isl_map *Shape = isl_map_read_from_str(Ctx, Str.c_str());
  Shape = isl_map_set_tuple_id(Shape, isl_dim_in, Id);
  isl_map *New = isl_map_apply_range(
      isl_map_intersect_domain(isl_map_copy(Acc), isl_set_copy(Dom)), Shape);
  New = isl_map_intersect(New, isl_map_from_basic_map(
                                   isl_map_affine_hull(isl_map_copy(New))));
  isl_pw_multi_aff *F = New ? isl_pw_multi_aff_from_map(isl_map_copy(New))
                            : nullptr;
  bool Affine = F && isl_pw_multi_aff_n_piece(F) == 1 &&
                isl_pw_multi_aff_involves_locals(F) == isl_bool_false;
  isl_pw_multi_aff_free(F);
  if (!Affine) {
    isl_ctx_reset_error(Ctx);
    isl_map_free(New);
    return Acc;
  }
  isl_map_free(Acc);
  return New;
}

/// The first value of the induction variable the source loop `L` counts
/// with, when it counts up by one from a constant (e.g. 1 for
/// `for (j = 1; j < n; j++)`); 0 otherwise. Polly numbers iterations from 0;
/// MLIR's affine.for, like the C source, from its lower bound.
long sourceStart(Loop *L, ScalarEvolution &SE) {
  // The header's integer PHIs that step by one: the source's induction
  // variable and maybe a canonical one; an ambiguous start gives 0.
  long Found = 0;
  bool Any = false;
  if (!L)
    return 0;
  for (PHINode &Phi : L->getHeader()->phis()) {
    if (!Phi.getType()->isIntegerTy() || !SE.isSCEVable(Phi.getType()))
      continue;
    auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(&Phi));
    if (!AR || !AR->isAffine() || AR->getLoop() != L)
      continue;
    auto *Start = dyn_cast<SCEVConstant>(AR->getStart());
    auto *Step = dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE));
    if (!Start || !Step || !Step->getValue()->isOne() ||
        Start->getAPInt().getSignificantBits() > 32)
      continue;
    long V = (long)Start->getAPInt().getSExtValue();
    if (Any && V != Found)
      return 0;
    Any = true;
    Found = V;
  }
  return Found;
}

/// Stmt[i] -> Stmt[i + start of each loop] (Sign 1) or its inverse (-1).
isl_multi_aff *shiftOf(ScopStmt &Stmt, isl_space *Space, int Sign) {
  isl_multi_aff *MA = isl_multi_aff_identity(
      isl_space_map_from_set(isl_space_copy(Space)));
  ScalarEvolution &SE = *Stmt.getParent()->getSE();
  for (unsigned D = 0; D < Stmt.getNumIterators(); ++D) {
    long Off = sourceStart(Stmt.getLoopForDimension(D), SE);
    if (!Off)
      continue;
    isl_aff *A = isl_multi_aff_get_at(MA, D);
    A = isl_aff_add_constant_si(A, (int)(Sign * Off));
    MA = isl_multi_aff_set_at(MA, D, A);
  }
  return MA;
}

/// Drops the "Loop with Metadata" marks Polly puts above bands of loops
/// with llvm.loop metadata: Pearl's schedule trees are bands, sequences
/// and filters (the metadata is not carried over to the new loops).
isl_schedule_node *dropMark(isl_schedule_node *Node, void *) {
  if (isl_schedule_node_get_type(Node) == isl_schedule_node_mark)
    return isl_schedule_node_delete(Node);
  return Node;
}

/// The constant term shared by every piece of a one-member band's
/// partial schedule, in *Const; false if the pieces differ.
struct BandConst {
  bool Any = false, Uniform = true;
  long Value = 0;
};

isl_stat pieceConst(isl_set *Set, isl_aff *Aff, void *User) {
  auto *B = static_cast<BandConst *>(User);
  isl_val *V = isl_aff_get_constant_val(Aff);
  long C = isl_val_is_int(V) == isl_bool_true ? isl_val_get_num_si(V) : 0;
  if (B->Any && C != B->Value)
    B->Uniform = false;
  B->Any = true;
  B->Value = C;
  isl_val_free(V);
  isl_set_free(Set);
  isl_aff_free(Aff);
  return isl_stat_ok;
}

isl_stat pwConst(isl_pw_aff *PA, void *User) {
  isl_stat St = isl_pw_aff_foreach_piece(PA, pieceConst, User);
  isl_pw_aff_free(PA);
  return St;
}

/// After the pull back to source-counted loops a loop's band reads
/// (i - start): shift it back to the plain iterator i, as the MLIR
/// frontend's bands are (the same order, so the same schedule).
isl_schedule_node *plainBand(isl_schedule_node *Node, void *) {
  if (isl_schedule_node_get_type(Node) != isl_schedule_node_band ||
      isl_schedule_node_band_n_member(Node) != 1)
    return Node;
  isl_multi_union_pw_aff *MUPA =
      isl_schedule_node_band_get_partial_schedule(Node);
  isl_union_pw_aff *UPA = isl_multi_union_pw_aff_get_at(MUPA, 0);
  BandConst B;
  isl_union_pw_aff_foreach_pw_aff(UPA, pwConst, &B);
  isl_union_pw_aff_free(UPA);
  if (!B.Any || !B.Uniform || B.Value == 0) {
    isl_multi_union_pw_aff_free(MUPA);
    return Node;
  }
  isl_ctx *Ctx = isl_schedule_node_get_ctx(Node);
  isl_union_pw_aff *Shift = isl_union_pw_aff_val_on_domain(
      isl_union_set_universe(
          isl_multi_union_pw_aff_domain(isl_multi_union_pw_aff_copy(MUPA))),
      isl_val_int_from_si(Ctx, -B.Value));
  isl_multi_union_pw_aff *ShiftM = isl_multi_union_pw_aff_set_at(
      MUPA, 0, Shift);
  return isl_schedule_node_band_shift(Node, ShiftM);
}

/// `Acc` (taken), an access to scalar `A` (a value or a PHI operand, a
/// 0-d array of Polly's), as an access to element k of the one array of
/// the Scop's scalars, pearl_scalars[k]: k numbers the scalars in order
/// of first use (in `Scalars`).
isl_map *scalarAccess(isl_map *Acc,
                      DenseMap<const ScopArrayInfo *, int> &Scalars,
                      const ScopArrayInfo *A) {
  auto It = Scalars.try_emplace(A, (int)Scalars.size()).first;
  Acc = isl_map_add_dims(Acc, isl_dim_out, 1);
  Acc = isl_map_fix_si(Acc, isl_dim_out, 0, It->second);
  return isl_map_set_tuple_name(Acc, isl_dim_out, "pearl_scalars");
}

} // namespace

namespace {
/// The state of modelScop: the program being built, the shifts of the
/// statements' domains to their source lower bounds (forward and back) and
/// the numbering of the Scop's scalars.
struct ScopModeler {
  pearl_ctx *Ctx;
  Scop &S;
  pearl_program *Prog;
  isl_union_pw_multi_aff *Fwd;
  isl_union_pw_multi_aff *Back;
  DenseMap<const ScopArrayInfo *, int> Scalars;

  ScopModeler(pearl_ctx *Ctx, Scop &S) : Ctx(Ctx), S(S) {
    Prog = pearl_program_alloc(Ctx, S.getFunction().getName().str().c_str());
    isl_ctx *Isl = pearl_ctx_get_isl(Ctx);
    Fwd = isl_union_pw_multi_aff_empty_ctx(Isl);
    Back = isl_union_pw_multi_aff_empty_ctx(Isl);
  }
  ~ScopModeler() {
    pearl_program_free(Prog);
    isl_union_pw_multi_aff_free(Fwd);
    isl_union_pw_multi_aff_free(Back);
  }

  std::string writesOf(ScopStmt &Stmt, SmallVectorImpl<MemoryAccess *> &W);
  std::string addStmt(ScopStmt &Stmt);
  std::string setSchedule();
};

/// The writes of `Stmt` into `Writes`, array elements first; the reason
/// it cannot be modeled, or "". Array elements (two in a block that
/// stores twice) and scalars: values passed to other statements (a load
/// LICM hoisted out of the inner loop) and the operands of PHI nodes (a
/// reduction kept in a register: its start value, the value carried to
/// the next iteration and the value after the loop). Polly's code
/// generation keeps each scalar in memory of its own, and the model does
/// the same: every scalar of the Scop is an element of one array
/// (scalarAccess). Every write is one of the statement's in the model
/// (pearl_program_add_write), so the dependences are exact and keep the
/// order of every write and read of each cell.
std::string ScopModeler::writesOf(ScopStmt &Stmt,
                                  SmallVectorImpl<MemoryAccess *> &Writes) {
  const std::string Name = Stmt.getBaseName();
  for (MemoryAccess *MA : Stmt) {
    if (isReadOnlyScalar(S, MA) || MA->isRead())
      continue;
    if (!MA->isAffine() || !MA->isMustWrite())
      return "statement " + Name + " has a non-affine write";
    Writes.push_back(MA);
  }
  if (Writes.empty())
    return "statement " + Name + " writes no array";
  std::stable_partition(Writes.begin(), Writes.end(), [](MemoryAccess *MA) {
    return MA->isLatestArrayKind();
  });
  return "";
}

/// Adds `Stmt` to the program: its domain, writes, reads (those feeding
/// the stored values, then the others) and operation counts, all shifted
/// so that every loop counts from its source lower bound (see
/// sourceStart); the shift and its inverse go into Fwd and Back. The
/// reason it cannot be modeled, or "".
std::string ScopModeler::addStmt(ScopStmt &Stmt) {
  std::string Refusal = unsupportedStmt(S, Stmt);
  if (!Refusal.empty())
    return Refusal;
  SmallVector<MemoryAccess *, 4> Writes;
  Refusal = writesOf(Stmt, Writes);
  if (!Refusal.empty())
    return Refusal;

  StmtWalk W(Stmt);
  for (MemoryAccess *WA : Writes) {
    if (WA->isOriginalPHIKind() || WA->isOriginalExitPHIKind())
      for (auto &In : WA->getIncoming())
        W.walk(In.second);
    else
      W.walk(WA->getAccessValue());
  }
  // Reads that do not feed the stored value (e.g. a load whose value
  // only decides control flow) still order instances: keep them, last.
  for (MemoryAccess *MA : Stmt)
    if (MA->isRead() && !isReadOnlyScalar(S, MA))
      W.addRead(MA);

  isl_set *PollyDom = Stmt.getDomain().release();
  isl_space *Space = isl_set_get_space(PollyDom);
  isl_multi_aff *Shift = shiftOf(Stmt, Space, 1);
  Fwd = isl_union_pw_multi_aff_add_pw_multi_aff(
      Fwd, isl_pw_multi_aff_from_multi_aff(isl_multi_aff_copy(Shift)));
  Back = isl_union_pw_multi_aff_add_pw_multi_aff(
      Back, isl_pw_multi_aff_from_multi_aff(shiftOf(Stmt, Space, -1)));
  isl_space_free(Space);
  isl_map *ShiftMap = isl_map_from_multi_aff(Shift);
  isl_set *Dom = isl_set_apply(isl_set_copy(PollyDom), isl_map_copy(ShiftMap));
  auto Access = [&](MemoryAccess *MA) {
    const ScopArrayInfo *A = MA->getLatestScopArrayInfo();
    isl_map *Acc = MA->getLatestAccessRelation().release();
    if (!MA->isLatestArrayKind()) {
      Acc = scalarAccess(Acc, Scalars, A);
    } else if (A->getNumberOfDimensions() == 1) {
      auto Dims = fixedDims(A->getBasePtr(), A->getElementType());
      if (!Dims.empty())
        Acc = reshape(Acc, PollyDom, Dims);
    }
    return isl_map_apply_domain(Acc, isl_map_copy(ShiftMap));
  };
  // One write access per array written (the scalars are one array).
  SmallVector<isl_map *, 4> WriteAccs;
  for (MemoryAccess *WA : Writes) {
    isl_map *Acc = Access(WA);
    auto Same = llvm::find_if(WriteAccs, [&](isl_map *M) {
      return isl_map_has_equal_space(M, Acc) == isl_bool_true;
    });
    if (Same != WriteAccs.end())
      *Same = isl_map_union(*Same, Acc);
    else
      WriteAccs.push_back(Acc);
  }
  const ScopArrayInfo *SAI = Writes.front()->getLatestScopArrayInfo();
  int Idx = pearl_program_add_stmt(Prog, isl_set_copy(Dom), WriteAccs[0],
                                   typeName(SAI->getElementType()).c_str(),
                                   &Stmt);
  bool Ok = Idx >= 0;
  for (size_t I = 1; I < WriteAccs.size(); ++I)
    if (!Ok)
      isl_map_free(WriteAccs[I]);
    else
      Ok = pearl_program_add_write(Prog, Idx, WriteAccs[I]) >= 0;
  for (MemoryAccess *MA : W.Reads)
    Ok = Ok && pearl_program_add_read(Prog, Idx, Access(MA)) >= 0;
  isl_set_free(Dom);
  isl_set_free(PollyDom);
  isl_map_free(ShiftMap);
  if (!Ok)
    return pearl_ctx_last_error(Ctx);
  for (const char *Op : W.Ops)
    if (pearl_program_add_op_count(Prog, Idx, Op, 1) < 0)
      return pearl_ctx_last_error(Ctx);
  return "";
}

/// The program's schedule: Polly's schedule tree without its marks,
/// pulled back to the shifted domains, with plain bands. The reason it
/// cannot be set, or "".
std::string ScopModeler::setSchedule() {
  isl_schedule *Sched = isl_schedule_map_schedule_node_bottom_up(
      S.getScheduleTree().release(), dropMark, nullptr);
  Sched = isl_schedule_pullback_union_pw_multi_aff(
      Sched, isl_union_pw_multi_aff_copy(Back));
  Sched = isl_schedule_map_schedule_node_bottom_up(Sched, plainBand, nullptr);
  if (pearl_program_set_schedule(Prog, Sched) < 0)
    return pearl_ctx_last_error(Ctx);
  return "";
}
} // namespace

pearl_program *pearl::modelScop(pearl_ctx *ctx, Scop &S, std::string &Why,
                                isl_union_pw_multi_aff **ToModel) {
  ScopModeler M(ctx, S);
  *ToModel = nullptr;
  if (!M.Prog) {
    Why = "out of memory";
    return nullptr;
  }
  for (ScopStmt &Stmt : S) {
    Why = M.addStmt(Stmt);
    if (!Why.empty())
      return nullptr;
  }
  if (pearl_program_n_stmt(M.Prog) == 0) {
    Why = "no statement";
    return nullptr;
  }
  Why = M.setSchedule();
  if (!Why.empty())
    return nullptr;
  // The program and the forward shift go to the caller.
  *ToModel = M.Fwd;
  M.Fwd = nullptr;
  pearl_program *Prog = M.Prog;
  M.Prog = nullptr;
  return Prog;
}
