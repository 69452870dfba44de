// --clang=PATH compiles ahead of time, as users compile Pearl's output
// (lowered, translated to LLVM IR, `clang -O3 -fopenmp -shared`, loaded
// with dlopen), instead of the JIT: the same outputs, bit for bit, through
// the same packed C interface (memrefs, index arguments, a scalar result,
// OpenMP threads).
// RUN: split-file %s %t
// RUN: env OMP_NUM_THREADS=2 %pearl_exec --size=37 %t/mv.mlir > %t.jit
// RUN: env OMP_NUM_THREADS=2 %pearl_exec --size=37 --clang=%clang %t/mv.mlir > %t.native
// RUN: diff %t.jit %t.native
// RUN: FileCheck %s --check-prefix=RAN < %t.native
// RUN: env OMP_NUM_THREADS=2 %pearl_exec --clang=%clang --cflags="-march=native -ffp-contract=off" %t/mv.mlir %t/mv-for.mlir | FileCheck %s
// The parallel loop runs on OMP_NUM_THREADS threads in the native code too.
// RUN: env OMP_NUM_THREADS=2 %pearl_exec --clang=%clang %t/threads.mlir %t/two.mlir | FileCheck %s --check-prefix=TWO
// A scalar result comes back through the packed wrapper.
// RUN: %pearl_exec --size=5 %t/sum.mlir > %t.sum.jit
// RUN: %pearl_exec --size=5 --clang=%clang %t/sum.mlir > %t.sum.native
// RUN: diff %t.sum.jit %t.sum.native
// RUN: FileCheck %s --check-prefix=SUM < %t.sum.native
// A compiler that fails is an error that names it and quotes it.
// RUN: not %pearl_exec --clang=%clang --cflags=-fno-such-flag %t/mv.mlir 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not %pearl_exec --clang=%t/missing-clang %t/mv.mlir 2>&1 | FileCheck %s --check-prefix=MISSING

// RAN:      arg0 memref<?x?xf32> 1369 elements: fnv1a
// RAN:      pearl-exec: ran @mv

// CHECK:      arg0 memref<?x?xf32> 4096 elements: identical
// CHECK-NEXT: arg1 memref<?xf32> 64 elements: identical
// CHECK-NEXT: arg2 memref<?xf32> 64 elements: identical
// CHECK-NEXT: pearl-exec: outputs identical

// TWO:      arg0 memref<?xi32> 64 elements: identical
// TWO-NEXT: pearl-exec: outputs identical

// SUM: result0 f64: 0.73529411764705888 fnv1a
// SUM: pearl-exec: ran @sum

// BAD: pearl-exec: {{.*}}clang failed: {{.*}}fno-such-flag
// MISSING: pearl-exec: {{.*}}cannot run {{.*}}missing-clang

//--- mv.mlir
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

//--- sum.mlir
func.func @sum(%x: memref<?xf64>, %n: index) -> f64 {
  %zero = arith.constant 0.0 : f64
  %r = affine.for %i = 0 to %n iter_args(%acc = %zero) -> f64 {
    %v = affine.load %x[%i] : memref<?xf64>
    %s = arith.addf %acc, %v : f64
    affine.yield %s : f64
  }
  return %r : f64
}
