// An scf.for inside an affine nest is non-affine control flow: the nest is left unchanged.
// RUN: %mlir_opt_pearl %s --pass-pipeline='builtin.module(func.func(pearl-schedule{print-model agent=none}))' -verify-diagnostics -o /dev/null | FileCheck %s --allow-empty --implicit-check-not=model
// RUN: %mlir_opt_pearl %s --pass-pipeline='builtin.module(func.func(pearl-schedule))' -o %t.after 2> %t.err
// RUN: mlir-opt %s -o %t.before
// RUN: diff %t.before %t.after
// RUN: FileCheck %s --check-prefix=ERR --implicit-check-not=isl_ctx < %t.err
// ERR: remark: pearl-schedule: loop nest left unchanged

func.func @scf_for(%A: memref<16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cst = arith.constant 1.0 : f32
  affine.for %i = 0 to 16 {
    // expected-remark @below {{pearl-schedule: loop nest left unchanged: non-affine control flow (scf.for)}}
    scf.for %j = %c0 to %n step %c1 {
      memref.store %cst, %A[%j] : memref<16xf32>
    }
  }
  return
}
