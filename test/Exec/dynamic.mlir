// Dynamic shapes: every `?` dimension and every index argument is --size.
// The tiled variant's partial tiles (affine.min bounds) are exercised by
// sizes that are not multiples of the tile size.
// RUN: split-file %s %t
// RUN: %pearl_exec %t/seidel.mlir %t/seidel-tiled.mlir | FileCheck %s --check-prefix=N64
// RUN: %pearl_exec --size=10 %t/seidel.mlir %t/seidel-tiled.mlir | FileCheck %s --check-prefix=N10
// RUN: %pearl_exec --size=1 %t/seidel.mlir %t/seidel-tiled.mlir | FileCheck %s --check-prefix=N1
// RUN: %pearl_exec --size=0 %t/seidel.mlir %t/seidel-tiled.mlir | FileCheck %s --check-prefix=N0
// A tile bound that forgets the partial tile only shows at some sizes.
// RUN: %pearl_exec --size=10 %t/seidel.mlir %t/seidel-wrong-tail.mlir | FileCheck %s --check-prefix=WHOLE
// RUN: not %pearl_exec --size=12 %t/seidel.mlir %t/seidel-wrong-tail.mlir | FileCheck %s --check-prefix=TAIL

// N64:      arg0 memref<?x?xf64> 4096 elements: identical
// N64-NEXT: arg1 memref<?x8xf32> 512 elements: identical
// N64-NEXT: pearl-exec: outputs identical
// N10:      arg0 memref<?x?xf64> 100 elements: identical
// N10-NEXT: arg1 memref<?x8xf32> 80 elements: identical
// N10-NEXT: pearl-exec: outputs identical
// N1:       arg0 memref<?x?xf64> 1 elements: identical
// N1-NEXT:  arg1 memref<?x8xf32> 8 elements: identical
// N0:       arg0 memref<?x?xf64> 0 elements: identical
// N0-NEXT:  arg1 memref<?x8xf32> 0 elements: identical
// N0-NEXT:  pearl-exec: outputs identical
// With n = 10 the interior rows 1..8 are two whole tiles.
// WHOLE:     pearl-exec: outputs identical
// With n = 12, rows 9 and 10 (10 points each) are lost: the first is
// A[9][1], flat index 9 * 12 + 1.
// TAIL:      arg0 memref<?x?xf64> 144 elements: DIFFER at 109: {{.*}} vs {{.*}} (20 differing)
// TAIL-NEXT: arg1 memref<?x8xf32> 96 elements: identical
// TAIL-NEXT: pearl-exec: outputs differ

//--- seidel.mlir
// One Gauss-Seidel-like sweep over the interior of A (in place), and B
// scaled row by row.
func.func @sweep(%A: memref<?x?xf64>, %B: memref<?x8xf32>, %n: index) {
  %c = arith.constant 0.25 : f64
  %h = arith.constant 0.5 : f32
  affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
    affine.for %j = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
      %0 = affine.load %A[%i - 1, %j] : memref<?x?xf64>
      %1 = affine.load %A[%i, %j - 1] : memref<?x?xf64>
      %2 = affine.load %A[%i, %j + 1] : memref<?x?xf64>
      %3 = affine.load %A[%i + 1, %j] : memref<?x?xf64>
      %4 = arith.addf %0, %1 : f64
      %5 = arith.addf %4, %2 : f64
      %6 = arith.addf %5, %3 : f64
      %7 = arith.mulf %6, %c : f64
      affine.store %7, %A[%i, %j] : memref<?x?xf64>
    }
  }
  affine.for %i = 0 to %n {
    affine.for %j = 0 to 8 {
      %0 = affine.load %B[%i, %j] : memref<?x8xf32>
      %1 = arith.mulf %0, %h : f32
      affine.store %1, %B[%i, %j] : memref<?x8xf32>
    }
  }
  return
}

//--- seidel-tiled.mlir
// The i loop tiled by 4 (legal: the tiles run in order, and in each tile
// the points run in the original order).
#tile_end = affine_map<(d0)[s0] -> (d0 + 4, s0 - 1)>
func.func @sweep(%A: memref<?x?xf64>, %B: memref<?x8xf32>, %n: index) {
  %c = arith.constant 0.25 : f64
  %h = arith.constant 0.5 : f32
  affine.for %ii = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] step 4 {
    affine.for %i = affine_map<(d0) -> (d0)>(%ii) to min #tile_end(%ii)[%n] {
      affine.for %j = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
        %0 = affine.load %A[%i - 1, %j] : memref<?x?xf64>
        %1 = affine.load %A[%i, %j - 1] : memref<?x?xf64>
        %2 = affine.load %A[%i, %j + 1] : memref<?x?xf64>
        %3 = affine.load %A[%i + 1, %j] : memref<?x?xf64>
        %4 = arith.addf %0, %1 : f64
        %5 = arith.addf %4, %2 : f64
        %6 = arith.addf %5, %3 : f64
        %7 = arith.mulf %6, %c : f64
        affine.store %7, %A[%i, %j] : memref<?x?xf64>
      }
    }
  }
  affine.for %j = 0 to 8 {
    affine.for %i = 0 to %n {
      %0 = affine.load %B[%i, %j] : memref<?x8xf32>
      %1 = arith.mulf %0, %h : f32
      affine.store %1, %B[%i, %j] : memref<?x8xf32>
    }
  }
  return
}

//--- seidel-wrong-tail.mlir
// Tiled, but only whole tiles of i run: rows past the last whole tile are
// skipped unless n - 2 is a multiple of 4.
func.func @sweep(%A: memref<?x?xf64>, %B: memref<?x8xf32>, %n: index) {
  %c = arith.constant 0.25 : f64
  %h = arith.constant 0.5 : f32
  affine.for %t = 0 to affine_map<()[s0] -> ((s0 - 2) floordiv 4)>()[%n] {
    affine.for %i = affine_map<(d0) -> (d0 * 4 + 1)>(%t) to affine_map<(d0) -> (d0 * 4 + 5)>(%t) {
      affine.for %j = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
        %0 = affine.load %A[%i - 1, %j] : memref<?x?xf64>
        %1 = affine.load %A[%i, %j - 1] : memref<?x?xf64>
        %2 = affine.load %A[%i, %j + 1] : memref<?x?xf64>
        %3 = affine.load %A[%i + 1, %j] : memref<?x?xf64>
        %4 = arith.addf %0, %1 : f64
        %5 = arith.addf %4, %2 : f64
        %6 = arith.addf %5, %3 : f64
        %7 = arith.mulf %6, %c : f64
        affine.store %7, %A[%i, %j] : memref<?x?xf64>
      }
    }
  }
  affine.for %i = 0 to %n {
    affine.for %j = 0 to 8 {
      %0 = affine.load %B[%i, %j] : memref<?x8xf32>
      %1 = arith.mulf %0, %h : f32
      affine.store %1, %B[%i, %j] : memref<?x8xf32>
    }
  }
  return
}
