// The default pass schedules with the compiled-in policy: a remark names
// the chosen actions in Pearl's notation, and the same actions given as an
// explicit schedule produce the same IR (the agent's choices are replayed
// through the explicit-schedule path). The scheduled code computes
// bit-identical outputs; the plugin and pearl-opt agree.
// RUN: rm -rf %t && split-file %s %t
// RUN: %pearl_opt %t/matmul.mlir --pearl-schedule -o %t/matmul.policy.mlir 2> %t/matmul.remarks
// RUN: %pearl_opt %t/jacobi.mlir --pearl-schedule -o %t/jacobi.policy.mlir 2> %t/jacobi.remarks
// RUN: FileCheck %s --check-prefix=MATMUL < %t/matmul.remarks
// RUN: FileCheck %s --check-prefix=JACOBI < %t/jacobi.remarks
// RUN: %mlir_opt_pearl %t/jacobi.mlir --pass-pipeline='builtin.module(func.func(pearl-schedule))' -o %t/jacobi.plugin.mlir 2>/dev/null
// RUN: diff %t/jacobi.policy.mlir %t/jacobi.plugin.mlir
// RUN: %python %S/replay.py %pearl_opt %t/matmul.mlir %t/matmul.remarks %t/matmul.replay.mlir
// RUN: diff %t/matmul.policy.mlir %t/matmul.replay.mlir
// RUN: %python %S/replay.py %pearl_opt %t/jacobi.mlir %t/jacobi.remarks %t/jacobi.replay.mlir
// RUN: diff %t/jacobi.policy.mlir %t/jacobi.replay.mlir
// Under the sanitizers, LeakSanitizer's stop-the-world tracer crashed at
// the exit of this run ("Tracer caught signal 11"; with 2 OpenMP threads,
// depending only on the environment variables): no leak check here.
// RUN: env OMP_NUM_THREADS=2 ASAN_OPTIONS=detect_leaks=0 %pearl_exec %t/matmul.mlir %t/matmul.policy.mlir | FileCheck %s --check-prefix=SAME
// RUN: env OMP_NUM_THREADS=2 ASAN_OPTIONS=detect_leaks=0 %pearl_exec %t/jacobi.mlir %t/jacobi.policy.mlir | FileCheck %s --check-prefix=SAME
// Sampling is reproducible for a seed, and legal.
// RUN: %pearl_opt %t/jacobi.mlir --pearl-schedule="agent=sample seed=7" -o %t/s1.mlir 2>/dev/null
// RUN: %pearl_opt %t/jacobi.mlir --pearl-schedule="agent=sample seed=7" -o %t/s2.mlir 2>/dev/null
// RUN: diff %t/s1.mlir %t/s2.mlir
// RUN: env OMP_NUM_THREADS=2 %pearl_exec %t/jacobi.mlir %t/s1.mlir | FileCheck %s --check-prefix=SAME
// agent=none leaves the IR as it was.
// RUN: mlir-opt %t/jacobi.mlir -o %t/before.mlir
// RUN: %pearl_opt %t/jacobi.mlir --pearl-schedule=agent=none -o %t/none.mlir
// RUN: diff %t/before.mlir %t/none.mlir

// MATMUL: remark: pearl-schedule: agent (greedy) {{(chose "[A-Z0-9(), ]+"|kept the original schedule)}} (1 branch, {{[0-9]+}} decisions, {{[0-9]+}} illegal choices masked, value {{-?[0-9.]+}}; decided in {{[0-9.]+}} ms: graphs {{[0-9.]+}}, network {{[0-9.]+}}, legality {{[0-9.]+}})
// JACOBI: remark: pearl-schedule: agent (greedy) {{.*}} (2 branches,
// SAME: pearl-exec: outputs identical

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

//--- jacobi.mlir
func.func @jacobi(%A: memref<30x30xf64>, %B: memref<30x30xf64>) {
  %c = arith.constant 0.2 : f64
  affine.for %t = 0 to 8 {
    affine.for %i = 1 to 29 {
      affine.for %j = 1 to 29 {
        %a0 = affine.load %A[%i, %j] : memref<30x30xf64>
        %a1 = affine.load %A[%i, %j - 1] : memref<30x30xf64>
        %a2 = affine.load %A[%i, %j + 1] : memref<30x30xf64>
        %a3 = affine.load %A[%i + 1, %j] : memref<30x30xf64>
        %a4 = affine.load %A[%i - 1, %j] : memref<30x30xf64>
        %s0 = arith.addf %a0, %a1 : f64
        %s1 = arith.addf %s0, %a2 : f64
        %s2 = arith.addf %s1, %a3 : f64
        %s3 = arith.addf %s2, %a4 : f64
        %v = arith.mulf %c, %s3 : f64
        affine.store %v, %B[%i, %j] : memref<30x30xf64>
      }
    }
    affine.for %i = 1 to 29 {
      affine.for %j = 1 to 29 {
        %b0 = affine.load %B[%i, %j] : memref<30x30xf64>
        %b1 = affine.load %B[%i, %j - 1] : memref<30x30xf64>
        %b2 = affine.load %B[%i, %j + 1] : memref<30x30xf64>
        %b3 = affine.load %B[%i + 1, %j] : memref<30x30xf64>
        %b4 = affine.load %B[%i - 1, %j] : memref<30x30xf64>
        %s0 = arith.addf %b0, %b1 : f64
        %s1 = arith.addf %s0, %b2 : f64
        %s2 = arith.addf %s1, %b3 : f64
        %s3 = arith.addf %s2, %b4 : f64
        %v = arith.mulf %c, %s3 : f64
        affine.store %v, %A[%i, %j] : memref<30x30xf64>
      }
    }
  }
  return
}
