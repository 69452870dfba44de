//===- loop_hints.h - Pearl's loop hints as Polly's loop attributes -*- C++
//-*-===//
//
// The clang plugin's way of handing LLVM what the MLIR path writes as
// `loop_annotation`s or unrolls itself: the vector width of V(w), and the
// complete unrolling of the point loop of an unroll-and-jam J(l,f).
//
//===----------------------------------------------------------------------===//

#ifndef PEARL_LLVM_LOOP_HINTS_H
#define PEARL_LLVM_LOOP_HINTS_H

#include <isl/schedule.h>

namespace llvm {
class LLVMContext;
}

namespace pearl {

/// Gives the bands of `Schedule` (taken; returned) Pearl's hints in forms
/// Polly's code generator honours: the point loop of an unroll-and-jam
/// (PEARL_JAM_OPTION) gets isl's `unroll` AST loop type (isl writes its
/// copies side by side); a band with a vector width (PEARL_VECTOR_OPTION)
/// is wrapped in a mark holding a polly::BandAttr ("Loop with Metadata"),
/// whose LoopID `llvm.loop.vectorize.enable` + `llvm.loop.vectorize.width`
/// w Polly copies to the loop it generates, for LLVM's loop vectorizer.
/// Unrolling by U(f) is left to LLVM, as before. NULL on isl errors.
__isl_give isl_schedule *markLoopHints(__isl_take isl_schedule *Schedule,
                                       llvm::LLVMContext &Context);

} // namespace pearl

#endif
