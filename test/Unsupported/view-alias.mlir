// A memref made by a view operation may alias another buffer of the nest.
// RUN: %mlir_opt_pearl %s --pass-pipeline='builtin.module(func.func(pearl-schedule{print-model agent=none}))' -verify-diagnostics -o /dev/null | FileCheck %s --allow-empty --implicit-check-not=model
// RUN: %mlir_opt_pearl %s --pass-pipeline='builtin.module(func.func(pearl-schedule))' -o %t.after 2> %t.err
// RUN: mlir-opt %s -o %t.before
// RUN: diff %t.before %t.after
// RUN: FileCheck %s --check-prefix=ERR --implicit-check-not=isl_ctx < %t.err
// ERR: remark: pearl-schedule: loop nest left unchanged

func.func @view(%A: memref<32xf32>) {
  %V = memref.subview %A[8] [16] [1] : memref<32xf32> to memref<16xf32, strided<[1], offset: 8>>
  affine.for %i = 0 to 16 {
    %0 = affine.load %A[%i] : memref<32xf32>
    // expected-remark @below {{pearl-schedule: loop nest left unchanged: memref defined by memref.subview may alias another buffer}}
    affine.store %0, %V[%i] : memref<16xf32, strided<[1], offset: 8>>
  }
  return
}
