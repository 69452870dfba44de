// Dynamic control flow: a branch on a loaded value (scf.if) inside a nest.
// RUN: %mlir_opt_pearl %s --pass-pipeline='builtin.module(func.func(pearl-schedule{print-model agent=none}))' -verify-diagnostics -o /dev/null | FileCheck %s --allow-empty --implicit-check-not=model
// RUN: %mlir_opt_pearl %s --pass-pipeline='builtin.module(func.func(pearl-schedule))' -o %t.after 2> %t.err
// RUN: mlir-opt %s -o %t.before
// RUN: diff %t.before %t.after
// RUN: FileCheck %s --check-prefix=ERR --implicit-check-not=isl_ctx < %t.err
// ERR: remark: pearl-schedule: loop nest left unchanged

func.func @dynamic_if(%A: memref<16xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 16 {
    %0 = affine.load %A[%i] : memref<16xf32>
    %neg = arith.cmpf olt, %0, %zero : f32
    // expected-remark @below {{pearl-schedule: loop nest left unchanged: non-affine control flow (scf.if)}}
    scf.if %neg {
      affine.store %zero, %A[%i] : memref<16xf32>
    }
  }
  return
}
