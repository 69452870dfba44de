// A skew whose factors spread the pair of loops over far more values than
// they have iterations is refused, naming the spread: the generated code
// would scan all those values, almost all empty (the C fuzzer's
// S(2,3,1,1000000) made a 0.03 s program run for minutes). A skew with
// small factors, or a large factor on a loop of one value, is applied and
// computes the same outputs.
// RUN: %pearl_opt %s '--pearl-schedule=agent=none' -o %t.orig.mlir
// RUN: %pearl_opt %s '--pearl-schedule=schedule="S(0,1,1,1000000)"' -o %t.wide.mlir 2>&1 | FileCheck %s --check-prefix=WIDE
// RUN: diff %t.orig.mlir %t.wide.mlir
// The schedule applies to each function: @pair refuses the second one,
// @one (an outer loop of one value) takes it.
// RUN: %pearl_opt %s '--pearl-schedule=schedule="S(0,1,1000000,1)"' -o %t.wide2.mlir 2>&1 | FileCheck %s --check-prefix=WIDE2
// RUN: %pearl_exec --entry=one %s %t.wide2.mlir | FileCheck %s --check-prefix=SAME
// RUN: %pearl_opt %s '--pearl-schedule=schedule="S(0,1,1,2)"' -o %t.small.mlir 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: %pearl_exec --entry=pair %s %t.small.mlir | FileCheck %s --check-prefix=SAME

// WIDE: remark: pearl-schedule: branch 0: refused S(0,1,1,1000000) (skew factors 1, 1000000 would spread loops 0 and 1 of branch 0 (41 and 3 values) over 2000041 values of the new loop 0, 16260 times their iterations: the generated code would scan mostly empty ones)
// WIDE2: refused S(0,1,1000000,1) (skew factors 1000000, 1 would spread loops 0 and 1 of branch 0 (41 and 3 values) over 40000003 values
// WIDE2: remark: pearl-schedule: branch 0: applied S(0,1,1000000,1)
// SMALL: remark: pearl-schedule: branch 0: applied S(0,1,1,2)
// SAME: pearl-exec: outputs identical

func.func @pair(%A: memref<41x3xf64>) {
  affine.for %i = 0 to 41 {
    affine.for %j = 0 to 3 {
      %a = affine.load %A[%i, %j] : memref<41x3xf64>
      %b = arith.addf %a, %a : f64
      affine.store %b, %A[%i, %j] : memref<41x3xf64>
    }
  }
  return
}

// The outer loop has one value: whatever the factor on the inner loop,
// the skewed loop has as many values as iterations.
func.func @one(%B: memref<1x64xf64>) {
  affine.for %i = 0 to 1 {
    affine.for %j = 0 to 64 {
      %a = affine.load %B[%i, %j] : memref<1x64xf64>
      %b = arith.mulf %a, %a : f64
      affine.store %b, %B[%i, %j] : memref<1x64xf64>
    }
  }
  return
}
