//===- scop_model.h - a Polly Scop as a pearl_program -----------*- C++ -*-===//
//
// The clang plugin's frontend: adapts one Polly Scop (after Polly's
// simplification phases) into Pearl's frontend-agnostic program model.
//
//===----------------------------------------------------------------------===//

#ifndef PEARL_LLVM_SCOP_MODEL_H
#define PEARL_LLVM_SCOP_MODEL_H

#include <string>

#include <isl/aff.h>

#include "pearl/program.h"

namespace polly {
class Scop;
}

namespace pearl {

/// Builds the pearl_program of `S` in `ctx` (which must borrow the Scop's
/// isl_ctx: the program holds the Scop's own statement ids, domains,
/// accesses and schedule tree, so that the schedule Pearl computes can be
/// installed back into the Scop without renaming).
///
/// Each ScopStmt is one statement: its domain, its one array write, its
/// reads in the order the stored value's computation uses them (the order
/// the MLIR frontend finds them in), the element type of the written
/// array, and the operations computing the stored value, named as MLIR's
/// arith/math operations so that the policy sees the same graph for the
/// same kernel from either frontend.
///
/// Loops are counted from their source lower bound, as MLIR's affine.for
/// does (Polly counts iterations from 0): *ToModel receives (__isl_give)
/// the map from Polly's statement instances to the model's; a schedule of
/// the model is one of the Scop after isl_schedule_pullback by it.
///
/// Returns the program (__isl_give), or nullptr with the reason in `Why`
/// if the Scop cannot be modeled (region statements, a statement with no or
/// several array writes, scalar values carried between statements,
/// non-affine writes).
pearl_program *modelScop(pearl_ctx *ctx, polly::Scop &S, std::string &Why,
                         isl_union_pw_multi_aff **ToModel);

} // namespace pearl

#endif
