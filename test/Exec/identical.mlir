// The same program twice: every buffer is identical and the exit status is 0.
// RUN: %pearl_exec %s %s | FileCheck %s
// With one file the program just runs, with a checksum per buffer; the
// inputs are deterministic, so two runs print the same checksums.
// RUN: %pearl_exec %s > %t.1
// RUN: %pearl_exec %s > %t.2
// RUN: diff %t.1 %t.2
// RUN: FileCheck %s --check-prefix=ONE < %t.1
// Timing: a warm-up, then the minimum of --repeat runs of each module.
// RUN: %pearl_exec --time --repeat=3 %s %s | FileCheck %s --check-prefix=TIME

// gemm (PolyBench): C := alpha * A * B + beta * C, with alpha = beta = 1.5.

// CHECK:      arg2 memref<32x32xf64> 1024 elements: identical
// CHECK-NEXT: arg3 memref<32x32xf64> 1024 elements: identical
// CHECK-NEXT: arg4 memref<32x32xf64> 1024 elements: identical
// CHECK-NEXT: pearl-exec: outputs identical

// ONE:      arg2 memref<32x32xf64> 1024 elements: fnv1a 0x{{[0-9a-f]+$}}
// ONE-NEXT: arg3 memref<32x32xf64> 1024 elements: fnv1a 0x{{[0-9a-f]+$}}
// ONE-NEXT: arg4 memref<32x32xf64> 1024 elements: fnv1a 0x{{[0-9a-f]+$}}
// ONE-NEXT: pearl-exec: ran @gemm

// TIME:      arg4 memref<32x32xf64> 1024 elements: identical
// TIME-NEXT: time original {{[0-9]+\.[0-9]+}}
// TIME-NEXT: time scheduled {{[0-9]+\.[0-9]+}}
// TIME-NEXT: speedup {{[0-9]+\.[0-9]+|inf}}
// TIME-NEXT: pearl-exec: outputs identical

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
