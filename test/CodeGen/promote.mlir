// Register promotion in the code generator: in an innermost loop, the
// elements of an array the loop updates at the same place in every
// iteration are loaded before the loop, carried through it as iter_args
// and stored after it, when no other access of the array in the loop can
// touch them (constant distances, or no dependence within a run of the
// loop). Each element's operations keep their order, so the values are the
// same; every case is executed.
// RUN: split-file %s %t

// Matmul with i and j unrolled and jammed by 2: the k loop carries the four
// elements of C of its 2 x 2 block; A and B are read as before.
// RUN: %pearl_opt %t/mm.mlir '--pearl-schedule=schedule="J(0,2) J(1,2)"' -o %t/mm.out.mlir 2>/dev/null
// RUN: FileCheck %s --check-prefix=MM < %t/mm.out.mlir
// RUN: %pearl_exec --entry=kernel %t/mm.mlir %t/mm.out.mlir | FileCheck %s --check-prefix=SAME
// MM-LABEL: func.func @kernel
// MM-COUNT-4:  affine.load %arg2
// MM:          %[[R:.*]]:4 = affine.for %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (f64, f64, f64, f64) {
// MM-NOT:        affine.store
// MM-NOT:        affine.load %arg2
// MM:            affine.yield
// MM-NEXT:     }
// MM-NEXT:     affine.store %[[R]]#0, %arg2
// MM-NEXT:     affine.store %[[R]]#1, %arg2
// MM-NEXT:     affine.store %[[R]]#2, %arg2
// MM-NEXT:     affine.store %[[R]]#3, %arg2

// The written array is also read at places that move with the loop. Where
// the dependence analysis proves they never reach the element (k >= 1 and
// C[i][0]; LU's update of A[i][j] by A[i][k] * A[k][j], k < i <= j), the
// element is promoted; where they may (k from 0), it is not.
// RUN: %pearl_opt %t/apart.mlir '--pearl-schedule=regenerate agent=none' -o %t/apart.out.mlir
// RUN: FileCheck %s --check-prefix=APART < %t/apart.out.mlir
// RUN: %pearl_exec --entry=kernel %t/apart.mlir %t/apart.out.mlir | FileCheck %s --check-prefix=SAME
// RUN: %pearl_opt %t/lu.mlir '--pearl-schedule=regenerate agent=none' -o %t/lu.out.mlir
// RUN: FileCheck %s --check-prefix=LU < %t/lu.out.mlir
// RUN: %pearl_exec --entry=kernel %t/lu.mlir %t/lu.out.mlir | FileCheck %s --check-prefix=SAME
// RUN: %pearl_opt %t/variant.mlir '--pearl-schedule=regenerate agent=none' -o %t/variant.out.mlir
// RUN: FileCheck %s --check-prefix=NONE < %t/variant.out.mlir
// RUN: %pearl_exec --entry=kernel %t/variant.mlir %t/variant.out.mlir | FileCheck %s --check-prefix=SAME
// APART-LABEL: func.func @kernel
// APART:         affine.load %arg0
// APART-NEXT:    affine.for {{.*}} iter_args
// APART:         affine.store
// APART-NOT:     affine.store
// LU-LABEL: func.func @kernel
// LU:            affine.for {{.*}} iter_args
// LU:            affine.for {{.*}} iter_args
// LU:            return

// Two invariant elements whose distance is a symbol (they may be one
// element, and here they are: X[n - 1] with n = 4 is X[3]): no promotion.
// RUN: %pearl_opt %t/symbolic.mlir '--pearl-schedule=regenerate agent=none' -o %t/symbolic.out.mlir
// RUN: FileCheck %s --check-prefix=NONE < %t/symbolic.out.mlir
// RUN: %pearl_exec --entry=kernel %t/symbolic.mlir %t/symbolic.out.mlir | FileCheck %s --check-prefix=SAME

// A loop that may run zero times (its bound is a memref's size) is
// promoted under a condition that it runs: a store after it would write
// an element the loop never wrote.
// RUN: %pearl_opt %t/dynamic.mlir '--pearl-schedule=regenerate agent=none' -o %t/dynamic.out.mlir
// RUN: FileCheck %s --check-prefix=DYN < %t/dynamic.out.mlir
// RUN: %pearl_exec --entry=kernel %t/dynamic.mlir %t/dynamic.out.mlir | FileCheck %s --check-prefix=SAME

// DYN-LABEL: func.func @kernel
// DYN:         affine.if
// DYN-NEXT:      affine.load %arg1[0]
// DYN-NEXT:      affine.for {{.*}} iter_args
// DYN:           affine.store {{.*}}, %arg1[0]
// DYN-NEXT:    }

// The main loop of an unrolled loop (U(4): step 4, lower bound i + 1, the
// copies at k, k + 1, k + 2, k + 3), Nussinov's update of T[i][j] by
// T[i][k] + T[k + 1][j] over i < k < j: MLIR's dependence analysis drops the
// step of a loop whose lower bound is not constant, and k + 3 then seems to
// reach j; on the iterator's stride it does not, and both the main loop and
// the remainder carry T[i][j]. Over i < k <= j with T[i][k] read, k = j is
// in the main loop at some (i, j): neither is promoted.
// RUN: %pearl_opt %t/strided.mlir '--pearl-schedule=schedule="U(4)"' -o %t/strided.out.mlir 2>/dev/null
// RUN: FileCheck %s --check-prefix=STRIDED < %t/strided.out.mlir
// RUN: %pearl_exec --entry=kernel %t/strided.mlir %t/strided.out.mlir | FileCheck %s --check-prefix=SAME
// RUN: %pearl_opt %t/reaching.mlir '--pearl-schedule=schedule="U(4)"' -o %t/reaching.out.mlir 2>/dev/null
// RUN: FileCheck %s --check-prefix=NONE < %t/reaching.out.mlir
// RUN: %pearl_exec --entry=kernel %t/reaching.mlir %t/reaching.out.mlir | FileCheck %s --check-prefix=SAME
// STRIDED-LABEL: func.func @kernel
// STRIDED:         affine.for {{.*}} step 4 iter_args
// STRIDED-COUNT-4:   arith.maxsi %{{.*}}
// STRIDED:           affine.yield
// STRIDED:         affine.store
// STRIDED:         affine.for {{.*}} iter_args
// STRIDED:         return

// NONE-LABEL: func.func @kernel
// NONE-NOT:   iter_args
// NONE:       return

// SAME: pearl-exec: outputs identical

//--- mm.mlir
func.func @kernel(%A: memref<8x6xf64>, %B: memref<6x10xf64>, %C: memref<8x10xf64>) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 10 {
      affine.for %k = 0 to 6 {
        %a = affine.load %A[%i, %k] : memref<8x6xf64>
        %b = affine.load %B[%k, %j] : memref<6x10xf64>
        %c = affine.load %C[%i, %j] : memref<8x10xf64>
        %p = arith.mulf %a, %b : f64
        %s = arith.addf %c, %p : f64
        affine.store %s, %C[%i, %j] : memref<8x10xf64>
      }
    }
  }
  return
}

//--- apart.mlir
func.func @kernel(%C: memref<8x10xf64>) {
  affine.for %i = 0 to 8 {
    affine.for %k = 1 to 10 {
      %x = affine.load %C[%i, %k] : memref<8x10xf64>
      %c = affine.load %C[%i, 0] : memref<8x10xf64>
      %s = arith.addf %c, %x : f64
      affine.store %s, %C[%i, 0] : memref<8x10xf64>
    }
  }
  return
}

//--- lu.mlir
func.func @kernel(%A: memref<12x12xf64>) {
  affine.for %i = 0 to 12 {
    affine.for %j = 0 to affine_map<(d0) -> (d0)>(%i) {
      affine.for %k = 0 to affine_map<(d0) -> (d0)>(%j) {
        %a = affine.load %A[%i, %k] : memref<12x12xf64>
        %b = affine.load %A[%k, %j] : memref<12x12xf64>
        %p = arith.mulf %a, %b : f64
        %c = affine.load %A[%i, %j] : memref<12x12xf64>
        %s = arith.subf %c, %p : f64
        affine.store %s, %A[%i, %j] : memref<12x12xf64>
      }
      %d = affine.load %A[%j, %j] : memref<12x12xf64>
      %c = affine.load %A[%i, %j] : memref<12x12xf64>
      %q = arith.divf %c, %d : f64
      affine.store %q, %A[%i, %j] : memref<12x12xf64>
    }
    affine.for %j = affine_map<(d0) -> (d0)>(%i) to 12 {
      affine.for %k = 0 to affine_map<(d0) -> (d0)>(%i) {
        %a = affine.load %A[%i, %k] : memref<12x12xf64>
        %b = affine.load %A[%k, %j] : memref<12x12xf64>
        %p = arith.mulf %a, %b : f64
        %c = affine.load %A[%i, %j] : memref<12x12xf64>
        %s = arith.subf %c, %p : f64
        affine.store %s, %A[%i, %j] : memref<12x12xf64>
      }
    }
  }
  return
}

//--- variant.mlir
func.func @kernel(%C: memref<8x10xf64>) {
  affine.for %i = 0 to 8 {
    affine.for %k = 0 to 10 {
      %x = affine.load %C[%i, %k] : memref<8x10xf64>
      %c = affine.load %C[%i, 0] : memref<8x10xf64>
      %s = arith.addf %c, %x : f64
      affine.store %s, %C[%i, 0] : memref<8x10xf64>
    }
  }
  return
}

//--- symbolic.mlir
func.func @kernel(%A: memref<10xf64>, %X: memref<4xf64>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %X, %c0 : memref<4xf64>
  affine.for %k = 0 to 10 {
    %a = affine.load %A[%k] : memref<10xf64>
    %x = affine.load %X[symbol(%n) - 1] : memref<4xf64>
    %s = arith.addf %x, %a : f64
    affine.store %s, %X[symbol(%n) - 1] : memref<4xf64>
    %y = affine.load %X[3] : memref<4xf64>
    %t = arith.mulf %y, %a : f64
    affine.store %t, %X[3] : memref<4xf64>
  }
  return
}

//--- dynamic.mlir
func.func @kernel(%A: memref<?xf64>, %S: memref<1xf64>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %A, %c0 : memref<?xf64>
  affine.for %k = 0 to %n {
    %a = affine.load %A[%k] : memref<?xf64>
    %s = affine.load %S[0] : memref<1xf64>
    %t = arith.addf %s, %a : f64
    affine.store %t, %S[0] : memref<1xf64>
  }
  return
}

//--- strided.mlir
func.func @kernel(%T: memref<19x19xi32>) {
  affine.for %i = 0 to 19 {
    affine.for %j = affine_map<(d0) -> (d0 + 1)>(%i) to 19 {
      affine.for %k = affine_map<(d0) -> (d0 + 1)>(%i) to affine_map<(d0) -> (d0)>(%j) {
        %t = affine.load %T[%i, %j] : memref<19x19xi32>
        %a = affine.load %T[%i, %k] : memref<19x19xi32>
        %b = affine.load %T[%k + 1, %j] : memref<19x19xi32>
        %s = arith.addi %a, %b : i32
        %m = arith.maxsi %t, %s : i32
        affine.store %m, %T[%i, %j] : memref<19x19xi32>
      }
    }
  }
  return
}

//--- reaching.mlir
func.func @kernel(%T: memref<19x19xi32>) {
  affine.for %i = 0 to 19 {
    affine.for %j = affine_map<(d0) -> (d0 + 1)>(%i) to 19 {
      affine.for %k = affine_map<(d0) -> (d0 + 1)>(%i) to affine_map<(d0) -> (d0 + 1)>(%j) {
        %t = affine.load %T[%i, %j] : memref<19x19xi32>
        %a = affine.load %T[%i, %k] : memref<19x19xi32>
        %b = affine.load %T[%k, %j] : memref<19x19xi32>
        %s = arith.addi %a, %b : i32
        %m = arith.maxsi %t, %s : i32
        affine.store %m, %T[%i, %j] : memref<19x19xi32>
      }
    }
  }
  return
}
