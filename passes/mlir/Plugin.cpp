//===- Plugin.cpp - entry point of the Pearl MLIR pass plugin -------------===//
//
// `mlir-opt --load-pass-plugin=PearlPlugin.so` calls mlirGetPassPluginInfo.
//
//===----------------------------------------------------------------------===//

#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"

#include "pearl/mlir_pass.h"

extern "C" LLVM_ATTRIBUTE_WEAK ::mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "Pearl", LLVM_VERSION_STRING,
          [] { pearl_mlir_register_passes(); }};
}
