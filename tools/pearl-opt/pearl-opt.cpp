//===- pearl-opt.cpp - mlir-opt with the Pearl passes linked in -----------===//
//
// MlirOptMain is C++-only; this driver registers every upstream dialect and
// pass plus pearl-schedule, so `pearl-opt --pearl-schedule in.mlir` works as
// a plain flag.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include "pearl/mlir_pass.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  pearl_mlir_register_passes();
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "Pearl: learned loop scheduling for MLIR\n", registry));
}
