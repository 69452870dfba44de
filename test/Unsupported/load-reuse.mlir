// A loaded value stored after a write to its buffer: moving the load to its
// statement would read the new value, so the nest is not modeled.
// RUN: %mlir_opt_pearl %s --pass-pipeline='builtin.module(func.func(pearl-schedule{print-model agent=none}))' -verify-diagnostics -o /dev/null | FileCheck %s --allow-empty --implicit-check-not=model
// RUN: %mlir_opt_pearl %s --pass-pipeline='builtin.module(func.func(pearl-schedule))' -o %t.after 2> %t.err
// RUN: mlir-opt %s -o %t.before
// RUN: diff %t.before %t.after
// RUN: FileCheck %s --check-prefix=ERR --implicit-check-not=isl_ctx < %t.err
// ERR: remark: pearl-schedule: loop nest left unchanged

func.func @load_reuse(%A: memref<16xf32>, %B: memref<16xf32>) {
  %one = arith.constant 1.0 : f32
  affine.for %i = 0 to 16 {
    // expected-remark @below {{pearl-schedule: loop nest left unchanged: loaded value is used after its buffer is written}}
    %0 = affine.load %A[%i] : memref<16xf32>
    affine.store %one, %A[%i] : memref<16xf32>
    affine.store %0, %B[%i] : memref<16xf32>
  }
  return
}
