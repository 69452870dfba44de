// The innermost point loop of a tiling (no loop inside it) that carries no
// dependence and accesses memory contiguously carries a loop_annotation
// that keeps LLVM from unrolling it: LLVM unrolls a loop of at most 32
// iterations completely before its vectorizer runs and then does not
// vectorize the copies. Tile loops, point loops with a loop inside, point
// loops that carry a dependence (a reduction) or access memory with a
// stride (both gain from LLVM's unrolling), and loops of untiled
// dimensions get no hint. The AST marks the hinted loop "// point".
// Pearl's lowering (pearl-exec, the environment) carries the hint over
// lower-affine to the loop's back edge, and the scheduled program computes
// the same outputs.
// RUN: %pearl_opt %s '--pearl-schedule=schedule="T(1,2,32,16)"' | FileCheck %s --check-prefix=INNER
// RUN: %pearl_opt %s '--pearl-schedule=schedule="T(1,2,32,16)" print-schedule' -o /dev/null 2>&1 | FileCheck %s --check-prefix=AST
// RUN: %pearl_opt %s '--pearl-schedule=schedule="T(0,1,32,16)"' | FileCheck %s --check-prefix=OUTER
// A parallel point loop keeps its parallel mark and gets no hint.
// RUN: %pearl_opt %s '--pearl-schedule=schedule="T(1,2,32,16) P(4)" print-schedule' 2>&1 | FileCheck %s --check-prefix=PAR
// RUN: %pearl_opt %s '--pearl-schedule=schedule="T(1,2,32,16)"' -o %t.mlir
// RUN: %pearl_exec --print-lowered %t.mlir | FileCheck %s --check-prefix=LOWERED
// RUN: %pearl_exec %s %t.mlir | FileCheck %s --check-prefix=SAME
// With i innermost, the innermost point loop carries nothing but reads
// A[i][k] and updates C[i][j] a row apart per iteration: no hint either.
// RUN: %pearl_opt %s '--pearl-schedule=schedule="I(0,2) T(1,2,16,16)" print-schedule' -o %t.strided.mlir 2>&1 | FileCheck %s --check-prefix=STRIDED
// RUN: FileCheck %s --check-prefix=REDUCTION-IR < %t.strided.mlir
// RUN: %pearl_exec %s %t.strided.mlir | FileCheck %s --check-prefix=SAME
// With k innermost, the innermost point loop is the reduction: no hint.
// RUN: %pearl_opt %s '--pearl-schedule=schedule="I(1,2) T(1,2,16,32)" print-schedule' -o %t.red.mlir 2>&1 | FileCheck %s --check-prefix=REDUCTION
// RUN: FileCheck %s --check-prefix=REDUCTION-IR < %t.red.mlir
// RUN: %pearl_exec %s %t.red.mlir | FileCheck %s --check-prefix=SAME

// INNER: #[[UNROLL:.*]] = #llvm.loop_unroll<disable = true>
// INNER: #[[ANN:.*]] = #llvm.loop_annotation<unroll = #[[UNROLL]]>
// INNER-LABEL: func.func @matmul
// INNER:         affine.for %{{.*}} = 0 to 64 {
// INNER-NEXT:      affine.for %{{.*}} step 32 {
// INNER-NEXT:        affine.for %{{.*}} step 16 {
// INNER-NEXT:          affine.for
// INNER-NEXT:            affine.for
// INNER:                   affine.store
// INNER-NEXT:            } {loop_annotation = #[[ANN]]}
// INNER-NEXT:          }
// INNER-NEXT:        }
// INNER-NEXT:      }
// INNER-NEXT:    }
// INNER-NEXT:    return

// AST:      for (int c1 = 0; c1 <= 63; c1 += 32)
// AST-NEXT:   for (int c2 = 0; c2 <= 47; c2 += 16)
// AST-NEXT:     for (int c3 = c1; c3 <= c1 + 31; c3 += 1) {
// AST-NEXT:       // point
// AST-NEXT:       for (int c4 = c2; c4 <= c2 + 15; c4 += 1)

// OUTER-NOT: loop_annotation

// PAR:      // parallel
// PAR-NEXT: // point
// PAR-NEXT: for (int c4 = c2; c4 <= c2 + 15; c4 += 1)
// PAR-NOT:  loop_annotation
// PAR:      affine.parallel
// PAR-NOT:  loop_annotation

// LOWERED-LABEL: llvm.func @matmul
// LOWERED:         llvm.br {{.*}} {loop_annotation = #{{.*}}}
// LOWERED-NOT:     loop_annotation
// LOWERED:         llvm.return

// STRIDED:     ast:
// STRIDED-NOT: // point
// STRIDED:     S0(c4, c3, c0);

// REDUCTION:     ast:
// REDUCTION-NOT: // point
// REDUCTION:     S0(c0, c4, c3);
// REDUCTION-IR-NOT: loop_annotation

// SAME: pearl-exec: outputs identical

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
