// Refusals on jacobi-1d: the time loop cannot run in parallel, the space
// loops can; branch 1 (the second space loop) is not perfectly nested in the
// time loop, so skewing them is refused.
// RUN: %pearl_opt %s '--pearl-schedule=schedule="P(0) P(1) N P(1) S(0,1) P(1)" print-schedule' -o /dev/null 2>&1 | FileCheck %s

// CHECK:       remark: pearl-schedule:
// CHECK-SAME:  branch 0: refused P(0) (loop 0 of branch 0 carries a dependence (RAW WAR WAW) and cannot run in parallel)
// CHECK-SAME:  branch 0: applied P(1); branch 1: applied P(1)
// CHECK-SAME:  branch 1: refused S(0,1) (loops 0..1 of branch 1 are not perfectly nested)
// CHECK:       schedule @jacobi_1d region 0: "P(0) P(1) N P(1) S(0,1) P(1)"
// CHECK:       ast:
// CHECK-NEXT:    for (int c0 = 0; c0 <= 9; c0 += 1) {
// CHECK-NEXT:      // parallel
// CHECK-NEXT:      for (int c1 = 1; c1 <= 30; c1 += 1)
// CHECK-NEXT:        S0(c0, c1);
// CHECK-NEXT:      // parallel
// CHECK-NEXT:      for (int c1 = 1; c1 <= 30; c1 += 1)
// CHECK-NEXT:        S1(c0, c1);
// CHECK-NEXT:    }

func.func @jacobi_1d(%A: memref<32xf64>, %B: memref<32xf64>) {
  %c = arith.constant 0.33333 : f64
  affine.for %t = 0 to 10 {
    affine.for %i = 1 to 31 {
      %0 = affine.load %A[%i - 1] : memref<32xf64>
      %1 = affine.load %A[%i] : memref<32xf64>
      %2 = affine.load %A[%i + 1] : memref<32xf64>
      %3 = arith.addf %0, %1 : f64
      %4 = arith.addf %3, %2 : f64
      %5 = arith.mulf %c, %4 : f64
      affine.store %5, %B[%i] : memref<32xf64>
    }
    affine.for %i = 1 to 31 {
      %0 = affine.load %B[%i - 1] : memref<32xf64>
      %1 = affine.load %B[%i] : memref<32xf64>
      %2 = affine.load %B[%i + 1] : memref<32xf64>
      %3 = arith.addf %0, %1 : f64
      %4 = arith.addf %3, %2 : f64
      %5 = arith.mulf %c, %4 : f64
      affine.store %5, %A[%i] : memref<32xf64>
    }
  }
  return
}
