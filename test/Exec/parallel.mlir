// affine.parallel runs on OpenMP (lower-affine, then convert-scf-to-openmp):
// with two threads, the parallel kernels compute exactly what their
// sequential affine.for versions compute.
// RUN: split-file %s %t
// RUN: env OMP_NUM_THREADS=2 %pearl_exec %t/mv-parallel.mlir %t/mv-for.mlir | FileCheck %s
// RUN: env OMP_NUM_THREADS=2 %pearl_exec %t/scale-parallel.mlir %t/scale-for.mlir | FileCheck %s --check-prefix=SCALE
// The loop really runs in a parallel region of OMP_NUM_THREADS threads: each
// iteration stores omp_get_num_threads(), which the second program writes
// as the constant 2.
// RUN: env OMP_NUM_THREADS=2 %pearl_exec %t/threads.mlir %t/two.mlir | FileCheck %s --check-prefix=TWO
// RUN: env OMP_NUM_THREADS=1 not %pearl_exec %t/threads.mlir %t/two.mlir | FileCheck %s --check-prefix=ONE
// The thread count does not change the outputs.
// RUN: env OMP_NUM_THREADS=1 %pearl_exec --size=37 %t/mv-parallel.mlir > %t.one
// RUN: env OMP_NUM_THREADS=2 %pearl_exec --size=37 %t/mv-parallel.mlir > %t.two
// RUN: diff %t.one %t.two

// CHECK:      arg0 memref<?x?xf32> 4096 elements: identical
// CHECK-NEXT: arg1 memref<?xf32> 64 elements: identical
// CHECK-NEXT: arg2 memref<?xf32> 64 elements: identical
// CHECK-NEXT: pearl-exec: outputs identical

// SCALE:      arg0 memref<?x?xf64> 4096 elements: identical
// SCALE-NEXT: arg1 memref<?x?xf64> 4096 elements: identical
// SCALE-NEXT: pearl-exec: outputs identical

// TWO:      arg0 memref<?xi32> 64 elements: identical
// TWO-NEXT: pearl-exec: outputs identical

// ONE:      arg0 memref<?xi32> 64 elements: DIFFER at 0: 1 vs 2 (64 differing)
// ONE-NEXT: pearl-exec: outputs differ

//--- mv-parallel.mlir
// y := A x, the rows in parallel, each sum in order.
func.func @mv(%A: memref<?x?xf32>, %x: memref<?xf32>, %y: memref<?xf32>,
              %n: index) {
  %zero = arith.constant 0.0 : f32
  affine.parallel (%i) = (0) to (%n) {
    affine.store %zero, %y[%i] : memref<?xf32>
    affine.for %k = 0 to %n {
      %a = affine.load %A[%i, %k] : memref<?x?xf32>
      %b = affine.load %x[%k] : memref<?xf32>
      %p = arith.mulf %a, %b : f32
      %s = affine.load %y[%i] : memref<?xf32>
      %t = arith.addf %s, %p : f32
      affine.store %t, %y[%i] : memref<?xf32>
    }
  }
  return
}

//--- mv-for.mlir
func.func @mv(%A: memref<?x?xf32>, %x: memref<?xf32>, %y: memref<?xf32>,
              %n: index) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to %n {
    affine.store %zero, %y[%i] : memref<?xf32>
    affine.for %k = 0 to %n {
      %a = affine.load %A[%i, %k] : memref<?x?xf32>
      %b = affine.load %x[%k] : memref<?xf32>
      %p = arith.mulf %a, %b : f32
      %s = affine.load %y[%i] : memref<?xf32>
      %t = arith.addf %s, %p : f32
      affine.store %t, %y[%i] : memref<?xf32>
    }
  }
  return
}

//--- scale-parallel.mlir
// A two-dimensional parallel band (one collapsed omp.wsloop).
func.func @scale(%A: memref<?x?xf64>, %B: memref<?x?xf64>, %n: index) {
  %c = arith.constant 0.25 : f64
  affine.parallel (%i, %j) = (0, 0) to (%n, %n) {
    %a = affine.load %A[%i, %j] : memref<?x?xf64>
    %b = affine.load %A[%j, %i] : memref<?x?xf64>
    %s = arith.addf %a, %b : f64
    %t = arith.mulf %s, %c : f64
    affine.store %t, %B[%i, %j] : memref<?x?xf64>
  }
  return
}

//--- scale-for.mlir
func.func @scale(%A: memref<?x?xf64>, %B: memref<?x?xf64>, %n: index) {
  %c = arith.constant 0.25 : f64
  affine.for %i = 0 to %n {
    affine.for %j = 0 to %n {
      %a = affine.load %A[%i, %j] : memref<?x?xf64>
      %b = affine.load %A[%j, %i] : memref<?x?xf64>
      %s = arith.addf %a, %b : f64
      %t = arith.mulf %s, %c : f64
      affine.store %t, %B[%i, %j] : memref<?x?xf64>
    }
  }
  return
}

//--- threads.mlir
func.func private @omp_get_num_threads() -> i32

func.func @threads(%T: memref<?xi32>, %n: index) {
  affine.parallel (%i) = (0) to (%n) {
    %t = func.call @omp_get_num_threads() : () -> i32
    affine.store %t, %T[%i] : memref<?xi32>
  }
  return
}

//--- two.mlir
func.func @threads(%T: memref<?xi32>, %n: index) {
  %two = arith.constant 2 : i32
  affine.for %i = 0 to %n {
    affine.store %two, %T[%i] : memref<?xi32>
  }
  return
}
