// gemm against rescheduled variants. A legal interchange of the k and j
// loops keeps every sum in the same order: bit-identical.  A wrong loop bound
// leaves the last row of C untouched, and running the k loop backwards
// reassociates the float sums: both differ, with exit status 1.
// RUN: split-file %s %t
// RUN: %pearl_exec %t/gemm.mlir %t/interchanged.mlir | FileCheck %s --check-prefix=SAME
// RUN: not %pearl_exec %t/gemm.mlir %t/wrong-bound.mlir | FileCheck %s --check-prefix=BOUND
// RUN: %pearl_exec %t/gemm.mlir %t/wrong-bound.mlir > /dev/null; test $? = 1
// RUN: not %pearl_exec %t/gemm.mlir %t/reversed-k.mlir | FileCheck %s --check-prefix=REVERSED

// SAME:      arg2 memref<32x32xf64> 1024 elements: identical
// SAME:      pearl-exec: outputs identical

// Element 992 = C[31][0]: the scheduled program left the input there,
// (1 + (7 * 992 + 13 * 2) mod 101) / 102 = 2 / 102.
// BOUND:      arg2 memref<32x32xf64> 1024 elements: DIFFER at 992: {{.*}} vs 0.019607843137254902 (32 differing)
// BOUND-NEXT: arg3 memref<32x32xf64> 1024 elements: identical
// BOUND-NEXT: arg4 memref<32x32xf64> 1024 elements: identical
// BOUND-NEXT: pearl-exec: outputs differ

// REVERSED:      arg2 memref<32x32xf64> 1024 elements: DIFFER at {{[0-9]+}}: {{.*}} vs {{.*}} ({{[0-9]+}} differing)
// REVERSED-NEXT: arg3 memref<32x32xf64> 1024 elements: identical
// REVERSED:      pearl-exec: outputs differ

//--- gemm.mlir
func.func @gemm(%alpha: f64, %beta: f64, %C: memref<32x32xf64>,
                %A: memref<32x32xf64>, %B: memref<32x32xf64>) {
  affine.for %i = 0 to 32 {
    affine.for %j = 0 to 32 {
      %c = affine.load %C[%i, %j] : memref<32x32xf64>
      %0 = arith.mulf %c, %beta : f64
      affine.store %0, %C[%i, %j] : memref<32x32xf64>
    }
    affine.for %k = 0 to 32 {
      affine.for %j = 0 to 32 {
        %a = affine.load %A[%i, %k] : memref<32x32xf64>
        %1 = arith.mulf %alpha, %a : f64
        %b = affine.load %B[%k, %j] : memref<32x32xf64>
        %2 = arith.mulf %1, %b : f64
        %c = affine.load %C[%i, %j] : memref<32x32xf64>
        %3 = arith.addf %c, %2 : f64
        affine.store %3, %C[%i, %j] : memref<32x32xf64>
      }
    }
  }
  return
}

//--- interchanged.mlir
func.func @gemm(%alpha: f64, %beta: f64, %C: memref<32x32xf64>,
                %A: memref<32x32xf64>, %B: memref<32x32xf64>) {
  affine.for %i = 0 to 32 {
    affine.for %j = 0 to 32 {
      %c = affine.load %C[%i, %j] : memref<32x32xf64>
      %0 = arith.mulf %c, %beta : f64
      affine.store %0, %C[%i, %j] : memref<32x32xf64>
    }
    affine.for %j = 0 to 32 {
      affine.for %k = 0 to 32 {
        %a = affine.load %A[%i, %k] : memref<32x32xf64>
        %1 = arith.mulf %alpha, %a : f64
        %b = affine.load %B[%k, %j] : memref<32x32xf64>
        %2 = arith.mulf %1, %b : f64
        %c = affine.load %C[%i, %j] : memref<32x32xf64>
        %3 = arith.addf %c, %2 : f64
        affine.store %3, %C[%i, %j] : memref<32x32xf64>
      }
    }
  }
  return
}

//--- wrong-bound.mlir
func.func @gemm(%alpha: f64, %beta: f64, %C: memref<32x32xf64>,
                %A: memref<32x32xf64>, %B: memref<32x32xf64>) {
  affine.for %i = 0 to 31 {
    affine.for %j = 0 to 32 {
      %c = affine.load %C[%i, %j] : memref<32x32xf64>
      %0 = arith.mulf %c, %beta : f64
      affine.store %0, %C[%i, %j] : memref<32x32xf64>
    }
    affine.for %k = 0 to 32 {
      affine.for %j = 0 to 32 {
        %a = affine.load %A[%i, %k] : memref<32x32xf64>
        %1 = arith.mulf %alpha, %a : f64
        %b = affine.load %B[%k, %j] : memref<32x32xf64>
        %2 = arith.mulf %1, %b : f64
        %c = affine.load %C[%i, %j] : memref<32x32xf64>
        %3 = arith.addf %c, %2 : f64
        affine.store %3, %C[%i, %j] : memref<32x32xf64>
      }
    }
  }
  return
}

//--- reversed-k.mlir
func.func @gemm(%alpha: f64, %beta: f64, %C: memref<32x32xf64>,
                %A: memref<32x32xf64>, %B: memref<32x32xf64>) {
  affine.for %i = 0 to 32 {
    affine.for %j = 0 to 32 {
      %c = affine.load %C[%i, %j] : memref<32x32xf64>
      %0 = arith.mulf %c, %beta : f64
      affine.store %0, %C[%i, %j] : memref<32x32xf64>
    }
    affine.for %k = 0 to 32 {
      affine.for %j = 0 to 32 {
        %a = affine.load %A[%i, 31 - %k] : memref<32x32xf64>
        %1 = arith.mulf %alpha, %a : f64
        %b = affine.load %B[31 - %k, %j] : memref<32x32xf64>
        %2 = arith.mulf %1, %b : f64
        %c = affine.load %C[%i, %j] : memref<32x32xf64>
        %3 = arith.addf %c, %2 : f64
        affine.store %3, %C[%i, %j] : memref<32x32xf64>
      }
    }
  }
  return
}
