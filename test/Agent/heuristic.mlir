// agent=heuristic: the rules-only baseline the learned policy is measured
// against (pearl/baselines.h; pearl-eval --heuristic, pearl-bench's
// pearl-heuristic configuration), with no network: tile the outermost
// legal pair of loops 32x32, run the outermost legal loop in parallel,
// unroll the innermost by 4, on every branch. The remark names what it
// applied; the same actions as an explicit schedule give the same IR, and
// the scheduled code computes the original's outputs.
// RUN: rm -rf %t && split-file %s %t
// RUN: %pearl_opt %t/matmul.mlir --pearl-schedule=agent=heuristic -o %t/matmul.rules.mlir 2> %t/matmul.remarks
// RUN: FileCheck %s --check-prefix=MATMUL < %t/matmul.remarks
// MATMUL: remark: pearl-schedule: the rules (agent=heuristic) chose "T(0,1,32,32) P(0) U(4)" (3 actions; decided in {{[0-9.]+}} ms)
// RUN: %pearl_opt %t/matmul.mlir '--pearl-schedule=schedule="T(0,1,32,32) P(0) U(4)"' -o %t/matmul.explicit.mlir 2>/dev/null
// RUN: diff %t/matmul.rules.mlir %t/matmul.explicit.mlir
// RUN: env OMP_NUM_THREADS=2 ASAN_OPTIONS=detect_leaks=0 %pearl_exec %t/matmul.mlir %t/matmul.rules.mlir | FileCheck %s --check-prefix=SAME
// SAME: pearl-exec: outputs identical

// A recurrence along both loops, all distances non-negative: the tiling
// is legal, no parallel loop is without a skew.
// RUN: %pearl_opt %t/seidel.mlir --pearl-schedule=agent=heuristic -o %t/seidel.rules.mlir 2> %t/seidel.remarks
// RUN: FileCheck %s --check-prefix=SEIDEL < %t/seidel.remarks
// SEIDEL: remark: pearl-schedule: the rules (agent=heuristic) chose "T(0,1,32,32) U(4)" (2 actions;
// RUN: env OMP_NUM_THREADS=2 ASAN_OPTIONS=detect_leaks=0 %pearl_exec %t/seidel.mlir %t/seidel.rules.mlir | FileCheck %s --check-prefix=SAME

// With a schedule file that has no entry for the region, the rules decide,
// and the remark says so.
// RUN: echo "# pearl schedule file 1" > %t/empty.sched
// RUN: %pearl_opt %t/matmul.mlir '--pearl-schedule=agent=heuristic schedule-file=%t/empty.sched' -o /dev/null 2>&1 | FileCheck %s --check-prefix=FILE
// FILE: remark: pearl-schedule: schedule file has no entry for @matmul region 0: the rules decide (agent=heuristic)
// FILE: remark: pearl-schedule: the rules (agent=heuristic) chose "T(0,1,32,32) P(0) U(4)"

// A model that does not load does not matter to the rules.
// RUN: %pearl_opt %t/matmul.mlir '--pearl-schedule=agent=heuristic model=%t/missing.bin' -o /dev/null 2>&1 | FileCheck %s --check-prefix=MATMUL

//--- matmul.mlir
func.func @matmul(%A: memref<64x32xf64>, %B: memref<32x48xf64>, %C: memref<64x48xf64>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 48 {
      affine.for %k = 0 to 32 {
        %a = affine.load %A[%i, %k] : memref<64x32xf64>
        %b = affine.load %B[%k, %j] : memref<32x48xf64>
        %c = affine.load %C[%i, %j] : memref<64x48xf64>
        %p = arith.mulf %a, %b : f64
        %s = arith.addf %c, %p : f64
        affine.store %s, %C[%i, %j] : memref<64x48xf64>
      }
    }
  }
  return
}

//--- seidel.mlir
func.func @seidel(%A: memref<40x40xf64>) {
  affine.for %i = 1 to 39 {
    affine.for %j = 1 to 39 {
      %a0 = affine.load %A[%i - 1, %j] : memref<40x40xf64>
      %a1 = affine.load %A[%i, %j - 1] : memref<40x40xf64>
      %a2 = affine.load %A[%i + 1, %j] : memref<40x40xf64>
      %s0 = arith.addf %a0, %a1 : f64
      %s1 = arith.addf %s0, %a2 : f64
      affine.store %s1, %A[%i, %j] : memref<40x40xf64>
    }
  }
  return
}
