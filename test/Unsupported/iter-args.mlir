// A reduction carried in registers (iter_args) is not modeled.
// RUN: %mlir_opt_pearl %s --pass-pipeline='builtin.module(func.func(pearl-schedule{print-model agent=none}))' -verify-diagnostics -o /dev/null | FileCheck %s --allow-empty --implicit-check-not=model
// RUN: %mlir_opt_pearl %s --pass-pipeline='builtin.module(func.func(pearl-schedule))' -o %t.after 2> %t.err
// RUN: mlir-opt %s -o %t.before
// RUN: diff %t.before %t.after
// RUN: FileCheck %s --check-prefix=ERR --implicit-check-not=isl_ctx < %t.err
// ERR: remark: pearl-schedule: loop nest left unchanged

func.func @iter_args(%A: memref<16xf32>, %out: memref<f32>) {
  %zero = arith.constant 0.0 : f32
  // expected-remark @below {{pearl-schedule: loop nest left unchanged: affine.for carries values across iterations (iter_args or results)}}
  %sum = affine.for %i = 0 to 16 iter_args(%acc = %zero) -> (f32) {
    %0 = affine.load %A[%i] : memref<16xf32>
    %1 = arith.addf %acc, %0 : f32
    affine.yield %1 : f32
  }
  affine.store %sum, %out[] : memref<f32>
  return
}
