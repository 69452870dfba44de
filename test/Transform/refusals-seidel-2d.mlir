// Each kind of refusal, with its reason, on seidel-2d (9 points): refused
// actions leave the schedule as it was. The skew solver picks (2i + j, i):
// the inner loop becomes a parallel wavefront.
// RUN: %pearl_opt %s '--pearl-schedule=schedule="I(1,2) P(1) T(1,2,4,4) S(1,2) P(2) I(0,5) T(1,2,64,64)" print-schedule' -o /dev/null 2>&1 | FileCheck %s

// CHECK:       remark: pearl-schedule:
// CHECK-SAME:  branch 0: refused I(1,2) (violates RAW dependence
// CHECK-SAME:  branch 0: refused P(1) (loop 1 of branch 0 carries a dependence (RAW WAR) and cannot run in parallel)
// CHECK-SAME:  branch 0: refused T(1,2,4,4) (loops 1..2 of branch 0 are not permutable (a dependence distance is negative), tiling them is illegal)
// CHECK-SAME:  branch 0: applied S(1,2) P(2)
// CHECK-SAME:  branch 0: refused I(0,5) (level 5 does not exist in branch 0 (3 loops))
// CHECK-SAME:  branch 0: refused T(1,2,64,64) (tile size 64 is larger than loop 1 (40 iterations))
// CHECK:       schedule @seidel_2d region 0: "I(1,2) P(1) T(1,2,4,4) S(1,2) P(2) I(0,5) T(1,2,64,64)"
// CHECK:       ast:
// CHECK-NEXT:    for (int c0 = 0; c0 <= 3; c0 += 1)
// CHECK-NEXT:      for (int c1 = 3; c1 <= 42; c1 += 1) {
// CHECK-NEXT:        // parallel
// CHECK-NEXT:        for (int c2 = max(1, (c1 + 1) / 2 - 7); c2 <= min(14, (c1 + 1) / 2 - 1); c2 += 1)
// CHECK-NEXT:          S0(c0, c2, c1 - 2 * c2);

func.func @seidel_2d(%A: memref<16x16xf64>) {
  %c = arith.constant 9.0 : f64
  affine.for %t = 0 to 4 {
    affine.for %i = 1 to 15 {
      affine.for %j = 1 to 15 {
        %0 = affine.load %A[%i - 1, %j - 1] : memref<16x16xf64>
        %1 = affine.load %A[%i - 1, %j] : memref<16x16xf64>
        %2 = affine.load %A[%i - 1, %j + 1] : memref<16x16xf64>
        %3 = affine.load %A[%i, %j - 1] : memref<16x16xf64>
        %4 = affine.load %A[%i, %j] : memref<16x16xf64>
        %5 = affine.load %A[%i, %j + 1] : memref<16x16xf64>
        %6 = affine.load %A[%i + 1, %j - 1] : memref<16x16xf64>
        %7 = affine.load %A[%i + 1, %j] : memref<16x16xf64>
        %8 = affine.load %A[%i + 1, %j + 1] : memref<16x16xf64>
        %s1 = arith.addf %0, %1 : f64
        %s2 = arith.addf %s1, %2 : f64
        %s3 = arith.addf %s2, %3 : f64
        %s4 = arith.addf %s3, %4 : f64
        %s5 = arith.addf %s4, %5 : f64
        %s6 = arith.addf %s5, %6 : f64
        %s7 = arith.addf %s6, %7 : f64
        %s8 = arith.addf %s7, %8 : f64
        %r = arith.divf %s8, %c : f64
        affine.store %r, %A[%i, %j] : memref<16x16xf64>
      }
    }
  }
  return
}
