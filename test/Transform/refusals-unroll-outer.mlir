// U unrolls innermost loops: the innermost loop of branch 0 (j, around the
// statement before the k loop) also holds branch 1's k loop, so U on
// branch 0 is refused; on branch 1 it applies to k. Unrolling j would copy
// the whole k loop per iteration, and LLVM then no longer unrolls the k
// loops as it does the one (PolyBench nussinov: 0.8x).
// RUN: %pearl_opt %s '--pearl-schedule=schedule="U(4) N U(4)" print-schedule' -o %t.mlir 2>&1 | FileCheck %s
// RUN: %pearl_exec %s %t.mlir | FileCheck %s --check-prefix=SAME

// CHECK:       remark: pearl-schedule:
// CHECK-SAME:  branch 0: refused U(4) (the innermost loop of branch 0 (loop 1) holds other loops: only a loop with no loop inside is unrolled)
// CHECK-SAME:  branch 1: applied U(4)
// CHECK:       ast:
// CHECK-NEXT:    for (int c0 = 0; c0 <= 63; c0 += 1)
// CHECK-NEXT:      for (int c1 = 0; c1 <= 63; c1 += 1) {
// CHECK-NEXT:        S0(c0, c1);
// CHECK-NEXT:        // unroll
// CHECK-NEXT:        for (int c2 = 0; c2 <= 63; c2 += 1)
// CHECK-NEXT:          S1(c0, c1, c2);
// CHECK-NEXT:      }

// SAME: pearl-exec: outputs identical

func.func @rows(%A: memref<64x64xf64>, %B: memref<64x64xf64>, %C: memref<64x64xf64>) {
  %zero = arith.constant 0.0 : f64
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 {
      affine.store %zero, %C[%i, %j] : memref<64x64xf64>
      affine.for %k = 0 to 64 {
        %a = affine.load %A[%i, %k] : memref<64x64xf64>
        %b = affine.load %B[%k, %j] : memref<64x64xf64>
        %c = affine.load %C[%i, %j] : memref<64x64xf64>
        %p = arith.mulf %a, %b : f64
        %s = arith.addf %c, %p : f64
        affine.store %s, %C[%i, %j] : memref<64x64xf64>
      }
    }
  }
  return
}
