// Pearl's model assumes that distinct memrefs do not alias. A function the
// pass rewrote says so (pearl.noalias_memref_args), and Pearl's lowering
// (pearl-exec --lower-only, pearl-lower for stock mlir-opt) gives every load
// and store of that function whose address is an element of a memref
// argument an alias scope of the argument, declared not to alias the other
// arguments' scopes. The scopes stay on the accesses when OpenMP outlines a
// parallel loop's body. Accesses of local buffers get none, and neither do
// functions the pass left as they were.
// RUN: %pearl_opt %s --mlir-disable-threading '--pearl-schedule=schedule="P(0)"' -o %t.mlir 2>/dev/null
// RUN: FileCheck %s --check-prefix=MARK < %t.mlir
// RUN: %pearl_exec --lower-only %t.mlir > %t.exec.mlir
// RUN: FileCheck %s --check-prefix=SCOPES < %t.exec.mlir
// RUN: %mlir_opt_pearl --pass-pipeline='builtin.module(pearl-lower)' %t.mlir -o %t.stock.mlir
// RUN: diff %t.stock.mlir %t.exec.mlir
// RUN: mlir-translate --mlir-to-llvmir %t.exec.mlir | FileCheck %s --check-prefix=LLVMIR
// The outputs are those of the original code.
// RUN: %pearl_exec --entry=kernel %s %t.mlir | FileCheck %s --check-prefix=SAME

// MARK: func.func @kernel({{.*}}) attributes {pearl.noalias_memref_args}
// MARK: func.func @other(
// MARK-NOT: pearl.noalias_memref_args

// SCOPES-LABEL: llvm.func @kernel
// SCOPES:   omp.parallel
// SCOPES:   llvm.load %{{.*}} {alias_scopes = [#[[A:.*]]], noalias_scopes = [#[[B:.*]]]} : !llvm.ptr -> f64
// SCOPES:   llvm.load %{{.*}} {alias_scopes = [#[[B]]], noalias_scopes = [#[[A]]]} : !llvm.ptr -> f64
// SCOPES:   llvm.store %{{.*}}, %{{.*}} {alias_scopes = [#[[A]]], noalias_scopes = [#[[B]]]} : f64, !llvm.ptr
// The second nest copies A's diagonal into a local buffer: no scope there.
// SCOPES:   llvm.load %{{.*}} {alias_scopes = [#[[A]]], noalias_scopes = [#[[B]]]} : !llvm.ptr -> f64
// SCOPES:   llvm.store %{{.*}}, %{{.*}} : f64, !llvm.ptr
// SCOPES-LABEL: llvm.func @other
// SCOPES-NOT: alias_scopes

// LLVMIR-LABEL: define internal void @kernel..omp_par
// LLVMIR:   load double, ptr %{{.*}}, !alias.scope ![[SA:[0-9]+]], !noalias ![[SB:[0-9]+]]
// LLVMIR:   load double, ptr %{{.*}}, !alias.scope ![[SB]], !noalias ![[SA]]

// SAME: pearl-exec: outputs identical

func.func @kernel(%A: memref<16x16xf64>, %B: memref<16x16xf64>, %D: memref<16xf64>) {
  %t = memref.alloc() : memref<16xf64>
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 16 {
      %a = affine.load %A[%i, %j] : memref<16x16xf64>
      %b = affine.load %B[%j, %i] : memref<16x16xf64>
      %s = arith.addf %a, %b : f64
      affine.store %s, %A[%i, %j] : memref<16x16xf64>
    }
  }
  affine.for %i = 0 to 16 {
    %a = affine.load %A[%i, %i] : memref<16x16xf64>
    affine.store %a, %t[%i] : memref<16xf64>
  }
  memref.copy %t, %D : memref<16xf64> to memref<16xf64>
  memref.dealloc %t : memref<16xf64>
  return
}

// No affine loop nest: the function is left as it was.
func.func @other(%A: memref<16xf64>, %B: memref<16xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c16 step %c1 {
    %a = memref.load %A[%i] : memref<16xf64>
    memref.store %a, %B[%i] : memref<16xf64>
  }
  return
}
