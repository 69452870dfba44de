//===- loop_hints.cpp - Pearl's loop hints as Polly's loop attributes -----===//
//
// See loop_hints.h. Polly's IslNodeBuilder keeps the BandAttr of the mark
// right above a loop and copies its LoopID's properties into the loop's
// `llvm.loop` metadata when it generates the loop.
//
//===----------------------------------------------------------------------===//

#include "loop_hints.h"

#include "polly/Support/ScopHelper.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Metadata.h"

#include "isl/schedule_node.h"

#include "pearl/transform.h"

using namespace llvm;

namespace {

/// !{!"name", Value}, as clang writes loop hints.
MDNode *property(LLVMContext &C, const char *Name, Constant *Value) {
  Metadata *Ops[] = {MDString::get(C, Name), ConstantAsMetadata::get(Value)};
  return MDNode::get(C, Ops);
}

/// A LoopID (distinct, first operand itself) holding `Props`.
MDNode *loopID(LLVMContext &C, ArrayRef<Metadata *> Props) {
  SmallVector<Metadata *, 4> Ops{nullptr};
  Ops.append(Props.begin(), Props.end());
  MDNode *ID = MDNode::getDistinct(C, Ops);
  ID->replaceOperandWith(0, ID);
  return ID;
}

isl_schedule_node *markBand(isl_schedule_node *Node, void *User) {
  LLVMContext &C = *static_cast<LLVMContext *>(User);
  if (isl_schedule_node_get_type(Node) != isl_schedule_node_band)
    return Node;
  int Width = pearl_band_vector_width(Node);
  // isl unrolls the point loop of a jam completely (it runs at most f
  // iterations): LLVM's loop vectorizer, which takes innermost loops
  // only, then finds the loop around it innermost, as in the MLIR path.
  if (pearl_band_jam_factor(Node) > 1)
    Node = isl_schedule_node_band_member_set_ast_loop_type(Node, 0,
                                                           isl_ast_loop_unroll);
  if (Width <= 0)
    return Node;
  Metadata *Props[] = {
      property(C, "llvm.loop.vectorize.enable", ConstantInt::getTrue(C)),
      property(C, "llvm.loop.vectorize.width",
               ConstantInt::get(Type::getInt32Ty(C), Width))};
  auto *Attr = new polly::BandAttr();
  Attr->Metadata = loopID(C, Props);
  isl::id Mark =
      polly::getIslLoopAttr(isl::ctx(isl_schedule_node_get_ctx(Node)), Attr);
  return isl_schedule_node_insert_mark(Node, Mark.release());
}

} // namespace

namespace pearl {

isl_schedule *markLoopHints(isl_schedule *Schedule, LLVMContext &Context) {
  return isl_schedule_map_schedule_node_bottom_up(Schedule, markBand, &Context);
}

} // namespace pearl
