//===- diag_shim.cpp - remarks and warnings at an MLIR location -----------===//
//
// MLIR's C API emits errors only: the remark and warning the code generator
// and the pass write (pearl/mlir_codegen.h).
//
//===----------------------------------------------------------------------===//

#include "mlir/CAPI/IR.h"
#include "mlir/IR/Diagnostics.h"

#include "pearl/mlir_codegen.h"

extern "C" void pearl_mlir_emit_remark(MlirLocation loc, const char *msg) {
  mlir::emitRemark(unwrap(loc)) << msg;
}

extern "C" void pearl_mlir_emit_warning(MlirLocation loc, const char *msg) {
  mlir::emitWarning(unwrap(loc)) << msg;
}

