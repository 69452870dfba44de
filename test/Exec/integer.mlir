// Integer (i32) kernels are compared bit for bit, and integer arithmetic
// wraps, so reordering a sum (here: running k backwards, tiling) keeps the
// result identical; swapping the operands of a subtraction does not.
// RUN: split-file %s %t
// RUN: %pearl_exec --size=20 %t/mm.mlir %t/mm-reversed-k.mlir | FileCheck %s
// RUN: %pearl_exec --size=20 %t/mm.mlir %t/mm-tiled.mlir | FileCheck %s
// RUN: not %pearl_exec --size=20 %t/mm.mlir %t/mm-swapped.mlir | FileCheck %s --check-prefix=SWAP
// RUN: %pearl_exec --size=20 %t/mm.mlir %t/mm-swapped.mlir > /dev/null; test $? = 1

// CHECK:      arg0 memref<?x?xi32> 400 elements: identical
// CHECK-NEXT: arg1 memref<?x?xi32> 400 elements: identical
// CHECK-NEXT: arg2 memref<?x?xi32> 400 elements: identical
// CHECK-NEXT: pearl-exec: outputs identical

// Integer inputs are ((7 i + 13 arg) mod 17) - 8 at flat index i of argument
// arg: C[0][0] starts at (26 mod 17) - 8 = 1 and, for n = 20,
// sum_k A[0][k] * B[k][0] = -124, so the original ends at 1 - (-124) = 125;
// the swapped program computes p - c at each step and ends at -55 (both
// values computed independently of pearl-exec).
// SWAP:      arg0 memref<?x?xi32> 400 elements: identical
// SWAP-NEXT: arg1 memref<?x?xi32> 400 elements: identical
// SWAP-NEXT: arg2 memref<?x?xi32> 400 elements: DIFFER at 0: 125 vs -55 (400 differing)
// SWAP-NEXT: pearl-exec: outputs differ

//--- mm.mlir
// C := C - A B, with the subtraction done per term.
func.func @mm(%A: memref<?x?xi32>, %B: memref<?x?xi32>, %C: memref<?x?xi32>,
              %n: index) {
  affine.for %i = 0 to %n {
    affine.for %j = 0 to %n {
      affine.for %k = 0 to %n {
        %a = affine.load %A[%i, %k] : memref<?x?xi32>
        %b = affine.load %B[%k, %j] : memref<?x?xi32>
        %p = arith.muli %a, %b : i32
        %c = affine.load %C[%i, %j] : memref<?x?xi32>
        %d = arith.subi %c, %p : i32
        affine.store %d, %C[%i, %j] : memref<?x?xi32>
      }
    }
  }
  return
}

//--- mm-reversed-k.mlir
func.func @mm(%A: memref<?x?xi32>, %B: memref<?x?xi32>, %C: memref<?x?xi32>,
              %n: index) {
  affine.for %i = 0 to %n {
    affine.for %j = 0 to %n {
      affine.for %k = 0 to %n {
        %a = affine.load %A[%i, symbol(%n) - %k - 1] : memref<?x?xi32>
        %b = affine.load %B[symbol(%n) - %k - 1, %j] : memref<?x?xi32>
        %p = arith.muli %a, %b : i32
        %c = affine.load %C[%i, %j] : memref<?x?xi32>
        %d = arith.subi %c, %p : i32
        affine.store %d, %C[%i, %j] : memref<?x?xi32>
      }
    }
  }
  return
}

//--- mm-tiled.mlir
// i and j tiled by 8 (partial tiles at n = 20), k outermost inside a tile.
#lo = affine_map<(d0) -> (d0)>
#hi = affine_map<(d0)[s0] -> (d0 + 8, s0)>
func.func @mm(%A: memref<?x?xi32>, %B: memref<?x?xi32>, %C: memref<?x?xi32>,
              %n: index) {
  affine.for %ii = 0 to %n step 8 {
    affine.for %jj = 0 to %n step 8 {
      affine.for %k = 0 to %n {
        affine.for %i = #lo(%ii) to min #hi(%ii)[%n] {
          affine.for %j = #lo(%jj) to min #hi(%jj)[%n] {
            %a = affine.load %A[%i, %k] : memref<?x?xi32>
            %b = affine.load %B[%k, %j] : memref<?x?xi32>
            %p = arith.muli %a, %b : i32
            %c = affine.load %C[%i, %j] : memref<?x?xi32>
            %d = arith.subi %c, %p : i32
            affine.store %d, %C[%i, %j] : memref<?x?xi32>
          }
        }
      }
    }
  }
  return
}

//--- mm-swapped.mlir
func.func @mm(%A: memref<?x?xi32>, %B: memref<?x?xi32>, %C: memref<?x?xi32>,
              %n: index) {
  affine.for %i = 0 to %n {
    affine.for %j = 0 to %n {
      affine.for %k = 0 to %n {
        %a = affine.load %A[%i, %k] : memref<?x?xi32>
        %b = affine.load %B[%k, %j] : memref<?x?xi32>
        %p = arith.muli %a, %b : i32
        %c = affine.load %C[%i, %j] : memref<?x?xi32>
        %d = arith.subi %p, %c : i32
        affine.store %d, %C[%i, %j] : memref<?x?xi32>
      }
    }
  }
  return
}
