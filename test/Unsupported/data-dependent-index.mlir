// A data-dependent index (a loaded value used as an index) needs memref.load: a non-affine access.
// RUN: %mlir_opt_pearl %s --pass-pipeline='builtin.module(func.func(pearl-schedule{print-model agent=none}))' -verify-diagnostics -o /dev/null | FileCheck %s --allow-empty --implicit-check-not=model
// RUN: %mlir_opt_pearl %s --pass-pipeline='builtin.module(func.func(pearl-schedule))' -o %t.after 2> %t.err
// RUN: mlir-opt %s -o %t.before
// RUN: diff %t.before %t.after
// RUN: FileCheck %s --check-prefix=ERR --implicit-check-not=isl_ctx < %t.err
// ERR: remark: pearl-schedule: loop nest left unchanged

func.func @indirect(%A: memref<16xf32>, %idx: memref<16xindex>, %B: memref<16xf32>) {
  affine.for %i = 0 to 16 {
    %k = affine.load %idx[%i] : memref<16xindex>
    // expected-remark @below {{pearl-schedule: loop nest left unchanged: non-affine access (memref.load)}}
    %v = memref.load %A[%k] : memref<16xf32>
    affine.store %v, %B[%i] : memref<16xf32>
  }
  return
}
