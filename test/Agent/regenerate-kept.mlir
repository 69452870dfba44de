// A region the agent keeps as it was is still regenerated from its
// (unchanged) schedule by default (regenerate-kept=true): its function then
// gets Pearl's lowering and the no-alias marking the model assumed
// (PolyBench's bicg at MEDIUM ran 1.0x kept and 4.2x regenerated). With
// max-branch-steps=0 the agent takes no action on any branch and keeps the
// schedule; the outputs are the original's. regenerate-kept=false keeps the
// code, byte for byte that of agent=none (model only).
// RUN: rm -rf %t && mkdir %t
// RUN: %pearl_opt %s '--pearl-schedule=max-branch-steps=0' -o %t/kept.mlir 2>&1 | FileCheck %s --check-prefix=KEPT
// KEPT: remark: pearl-schedule: agent (greedy) kept the original schedule
// KEPT: remark: pearl-schedule: loop nest regenerated with its schedule unchanged (regenerate-kept)
// RUN: FileCheck %s --check-prefix=IR < %t/kept.mlir
// IR: func.func @kernel({{.*}}) attributes {pearl.noalias_memref_args}
// RUN: env ASAN_OPTIONS=detect_leaks=0 %pearl_exec %s %t/kept.mlir | FileCheck %s --check-prefix=SAME
// SAME: pearl-exec: outputs identical
// RUN: %pearl_opt %s '--pearl-schedule=max-branch-steps=0 regenerate-kept=false' -o %t/asis.mlir 2>&1 | FileCheck %s --check-prefix=ASIS
// ASIS: remark: pearl-schedule: agent (greedy) kept the original schedule
// ASIS-NOT: regenerated
// RUN: %pearl_opt %s '--pearl-schedule=agent=none' -o %t/none.mlir
// RUN: diff %t/none.mlir %t/asis.mlir
// RUN: not grep -q noalias %t/asis.mlir
// An explicit schedule that applies nothing keeps the code.
// RUN: %pearl_opt %s '--pearl-schedule=schedule="N"' -o %t/explicit.mlir 2>&1 | FileCheck %s --check-prefix=EXPLICIT --allow-empty
// EXPLICIT-NOT: regenerated
// RUN: diff %t/none.mlir %t/explicit.mlir

// outputs: 2
func.func @init(%A: memref<64x48xf64>, %r: memref<64xf64>, %p: memref<48xf64>, %s: memref<48xf64>, %q: memref<64xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c48 = arith.constant 48 : index
  scf.for %i = %c0 to %c64 step %c1 {
    scf.for %j = %c0 to %c48 step %c1 {
      %q1 = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 7 + 1) mod 11 + 1)>(%i, %j)
      %n = arith.index_cast %q1 : index to i32
      %f = arith.sitofp %n : i32 to f64
      memref.store %f, %A[%i, %j] : memref<64x48xf64>
      memref.store %f, %p[%j] : memref<48xf64>
    }
    %n2 = arith.index_cast %i : index to i32
    %g = arith.sitofp %n2 : i32 to f64
    memref.store %g, %r[%i] : memref<64xf64>
  }
  return
}

func.func @kernel(%A: memref<64x48xf64>, %r: memref<64xf64>, %p: memref<48xf64>, %s: memref<48xf64>, %q: memref<64xf64>) {
  %zero = arith.constant 0.0 : f64
  affine.for %j = 0 to 48 {
    affine.store %zero, %s[%j] : memref<48xf64>
  }
  affine.for %i = 0 to 64 {
    affine.store %zero, %q[%i] : memref<64xf64>
    affine.for %j = 0 to 48 {
      %a = affine.load %A[%i, %j] : memref<64x48xf64>
      %ri = affine.load %r[%i] : memref<64xf64>
      %sj = affine.load %s[%j] : memref<48xf64>
      %m = arith.mulf %ri, %a : f64
      %s2 = arith.addf %sj, %m : f64
      affine.store %s2, %s[%j] : memref<48xf64>
      %pj = affine.load %p[%j] : memref<48xf64>
      %qi = affine.load %q[%i] : memref<64xf64>
      %m2 = arith.mulf %a, %pj : f64
      %q2 = arith.addf %qi, %m2 : f64
      affine.store %q2, %q[%i] : memref<64xf64>
    }
  }
  return
}
