// A call inside a nest: its effects are unknown, so the nest is left unchanged.
// RUN: %mlir_opt_pearl %s --pass-pipeline='builtin.module(func.func(pearl-schedule{print-model agent=none}))' -verify-diagnostics -o /dev/null | FileCheck %s --allow-empty --implicit-check-not=model
// RUN: %mlir_opt_pearl %s --pass-pipeline='builtin.module(func.func(pearl-schedule))' -o %t.after 2> %t.err
// RUN: mlir-opt %s -o %t.before
// RUN: diff %t.before %t.after
// RUN: FileCheck %s --check-prefix=ERR --implicit-check-not=isl_ctx < %t.err
// ERR: remark: pearl-schedule: loop nest left unchanged

func.func private @compute(f32) -> f32

func.func @call(%A: memref<16xf32>) {
  affine.for %i = 0 to 16 {
    %0 = affine.load %A[%i] : memref<16xf32>
    // expected-remark @below {{pearl-schedule: loop nest left unchanged: call to @compute}}
    %1 = func.call @compute(%0) : (f32) -> f32
    affine.store %1, %A[%i] : memref<16xf32>
  }
  return
}
