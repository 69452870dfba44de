// Each kind of refusal, with its reason, on seidel-2d (9 points) and
// jacobi-1d; refused actions leave the schedule as it was. The schedule
// option applies to every function, so each prefix checks one function.
// On seidel-2d the skew solver picks (2i + j, i): the inner loop becomes a
// parallel wavefront.
// RUN: %pearl_opt %s --mlir-disable-threading '--pearl-schedule=schedule="I(1,2) P(1) T(1,2,4,4) S(1,2) P(2) I(0,5) T(1,2,64,64)" print-schedule' -o /dev/null 2>&1 | FileCheck %s --check-prefix=SEIDEL
// RUN: %pearl_opt %s --mlir-disable-threading '--pearl-schedule=schedule="P(0) P(1) N P(1) S(0,1) P(1)" print-schedule' -o /dev/null 2>&1 | FileCheck %s --check-prefix=JACOBI

// SEIDEL-LABEL: schedule @seidel_2d region 0: "I(1,2) P(1) T(1,2,4,4) S(1,2) P(2) I(0,5) T(1,2,64,64)"
// SEIDEL:       ast:
// SEIDEL-NEXT:    for (int c0 = 0; c0 <= 3; c0 += 1)
// SEIDEL-NEXT:      for (int c1 = 3; c1 <= 42; c1 += 1) {
// SEIDEL-NEXT:        // parallel
// SEIDEL-NEXT:        for (int c2 = max(1, (c1 + 1) / 2 - 7); c2 <= min(14, (c1 + 1) / 2 - 1); c2 += 1)
// SEIDEL-NEXT:          S0(c0, c2, c1 - 2 * c2);
// SEIDEL:       remark: pearl-schedule:
// SEIDEL-SAME:  branch 0: refused I(1,2) (violates RAW dependence
// SEIDEL-SAME:  branch 0: refused P(1) (loop 1 of branch 0 carries a dependence (RAW WAR) and cannot run in parallel)
// SEIDEL-SAME:  branch 0: refused T(1,2,4,4) (loops 1..2 of branch 0 are not permutable (a dependence distance is negative), tiling them is illegal)
// SEIDEL-SAME:  branch 0: applied S(1,2) P(2)
// SEIDEL-SAME:  branch 0: refused I(0,5) (level 5 does not exist in branch 0 (3 loops))
// SEIDEL-SAME:  branch 0: refused T(1,2,64,64) (tile size 64 is larger than loop 1 (40 iterations))

// JACOBI-LABEL: schedule @jacobi_1d region 0: "P(0) P(1) N P(1) S(0,1) P(1)"
// JACOBI:       remark: pearl-schedule:
// JACOBI-SAME:  branch 0: refused P(0) (loop 0 of branch 0 carries a dependence (RAW WAR WAW) and cannot run in parallel)
// JACOBI-SAME:  branch 0: applied P(1); branch 1: applied P(1)
// JACOBI-SAME:  branch 1: refused S(0,1) (loops 0..1 of branch 1 are not perfectly nested)

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
