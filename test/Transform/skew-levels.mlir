// A skew of loops a branch does not have is refused naming the level and
// the branch's depth, like the other actions, with or without factors (the
// solver's form used to report an isl error); the nest is left as it was.
// RUN: %pearl_opt %s '--pearl-schedule=agent=none' -o %t.orig.mlir
// RUN: %pearl_opt %s '--pearl-schedule=schedule="S(1,2)"' -o %t.s12.mlir 2>&1 | FileCheck %s --check-prefix=S12
// RUN: diff %t.orig.mlir %t.s12.mlir
// RUN: %pearl_opt %s '--pearl-schedule=schedule="S(1,2,1,1)"' -o %t.s12f.mlir 2>&1 | FileCheck %s --check-prefix=S12F
// RUN: diff %t.orig.mlir %t.s12f.mlir
// RUN: %pearl_opt %s '--pearl-schedule=schedule="S(-1,0) N S(0,1)"' -o %t.neg.mlir 2>&1 | FileCheck %s --check-prefix=NEG
// RUN: diff %t.orig.mlir %t.neg.mlir

// S12: remark: pearl-schedule: branch 0: refused S(1,2) (level 2 does not exist in branch 0 (2 loops))
// S12F: remark: pearl-schedule: branch 0: refused S(1,2,1,1) (level 2 does not exist in branch 0 (2 loops))
// NEG: branch 0: refused S(-1,0) (level -1 does not exist in branch 0 (2 loops)); branch 1: refused S(0,1) (branch 1 does not exist (1 branches))
// S12-NOT: isl error
// S12-NOT: quota

func.func @scale(%A: memref<16x16xf64>) {
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 16 {
      %a = affine.load %A[%i, %j] : memref<16x16xf64>
      %b = arith.addf %a, %a : f64
      affine.store %b, %A[%i, %j] : memref<16x16xf64>
    }
  }
  return
}
