// Stock mlir-opt with the plugin lowers Pearl's output as Pearl does: the
// pipeline pearl-lower (pearl-lower-affine, the upstream lower-affine that
// keeps the loops' loop_annotation hints, among the upstream passes of
// pearl-exec's lowering) gives the same LLVM dialect, byte for byte, as
// pearl-exec --lower-only, which pearl-bench and the environment use. With
// the upstream lower-affine the point-loop hint is lost (an i-k-j f64
// matmul 512^3 with T(1,2,32,32) ran 3.4x slower that way).
// RUN: %pearl_opt %s '--pearl-schedule=schedule="T(1,2,32,16)"' -o %t.mlir
// RUN: %mlir_opt_pearl --pass-pipeline='builtin.module(pearl-lower)' %t.mlir -o %t.stock.mlir
// RUN: %pearl_exec --lower-only %t.mlir > %t.exec.mlir
// RUN: diff %t.stock.mlir %t.exec.mlir
// RUN: FileCheck %s --check-prefix=HINT < %t.stock.mlir
// Scheduling and lowering in one stock mlir-opt run, then to LLVM IR.
// RUN: %mlir_opt_pearl --pass-pipeline='builtin.module(func.func(pearl-schedule{schedule="T(1,2,32,16)"}),pearl-lower)' %s -o %t.one.mlir
// RUN: diff %t.one.mlir %t.exec.mlir
// RUN: mlir-translate --mlir-to-llvmir %t.one.mlir | FileCheck %s --check-prefix=LLVMIR
// The upstream pipeline drops the hint.
// RUN: %mlir_opt_pearl --pass-pipeline='builtin.module(expand-strided-metadata,lower-affine,convert-scf-to-openmp,finalize-memref-to-llvm,convert-scf-to-cf,convert-to-llvm,reconcile-unrealized-casts)' %t.mlir | FileCheck %s --check-prefix=UPSTREAM
// The action space v2's hints and the OpenMP loop take the same path: a
// register tile (J), a vector width (V) and a parallel tile loop (P).
// RUN: %pearl_opt %s '--pearl-schedule=schedule="T(0,1,16,16) J(2,4) V(8) P(0)"' -o %t.v2.mlir
// RUN: %mlir_opt_pearl --pass-pipeline='builtin.module(pearl-lower)' %t.v2.mlir -o %t.v2.stock.mlir
// RUN: %pearl_exec --lower-only %t.v2.mlir > %t.v2.exec.mlir
// RUN: diff %t.v2.stock.mlir %t.v2.exec.mlir
// RUN: FileCheck %s --check-prefix=V2 < %t.v2.stock.mlir
// pearl-lower-affine alone, on code without hints, is lower-affine.
// RUN: %mlir_opt_pearl --pass-pipeline='builtin.module(pearl-lower-affine)' %s | FileCheck %s --check-prefix=PLAIN

// HINT-LABEL: llvm.func @matmul
// HINT:         llvm.br {{.*}} {loop_annotation = #{{.*}}}
// HINT:         llvm.return

// LLVMIR: !{!"llvm.loop.unroll.disable"}

// V2: #llvm.loop_vectorize<{{.*}}width = 8
// V2: omp.parallel
// V2: llvm.br {{.*}} {loop_annotation = #{{.*}}}

// UPSTREAM-NOT: loop_annotation

// PLAIN-NOT: affine.for
// PLAIN:     scf.for
// PLAIN-NOT: loop_annotation

func.func @matmul(%A: memref<64x64xf64>, %B: memref<64x48xf64>, %C: memref<64x48xf64>) {
  affine.for %i = 0 to 64 {
    affine.for %k = 0 to 64 {
      affine.for %j = 0 to 48 {
        %a = affine.load %A[%i, %k] : memref<64x64xf64>
        %b = affine.load %B[%k, %j] : memref<64x48xf64>
        %c = affine.load %C[%i, %j] : memref<64x48xf64>
        %p = arith.mulf %a, %b : f64
        %s = arith.addf %c, %p : f64
        affine.store %s, %C[%i, %j] : memref<64x48xf64>
      }
    }
  }
  return
}
