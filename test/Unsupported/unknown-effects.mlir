// An operation with memory effects Pearl does not model (memref.copy) inside a nest.
// RUN: %mlir_opt_pearl %s --pass-pipeline='builtin.module(func.func(pearl-schedule{print-model agent=none}))' -verify-diagnostics -o /dev/null | FileCheck %s --allow-empty --implicit-check-not=model
// RUN: %mlir_opt_pearl %s --pass-pipeline='builtin.module(func.func(pearl-schedule))' -o %t.after 2> %t.err
// RUN: mlir-opt %s -o %t.before
// RUN: diff %t.before %t.after
// RUN: FileCheck %s --check-prefix=ERR --implicit-check-not=isl_ctx < %t.err
// ERR: remark: pearl-schedule: loop nest left unchanged

func.func @copy(%A: memref<16xf32>, %B: memref<16xf32>) {
  affine.for %i = 0 to 4 {
    // expected-remark @below {{pearl-schedule: loop nest left unchanged: operation 'memref.copy' with unknown memory effects}}
    memref.copy %A, %B : memref<16xf32> to memref<16xf32>
  }
  return
}
