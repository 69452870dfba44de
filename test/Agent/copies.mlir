// K (copies) is masked for the policy unless copies=true (pearl/agent.h):
// measured in the memo, K mostly slows schedules down, and the search and
// the baselines keep it. An untrained policy (a seeded initialization,
// stable) that chooses K four times with copies=true chooses none by
// default, in its greedy episode and in the critic's beam; the outputs are
// the original's either way.
// RUN: rm -rf %t && mkdir %t
// RUN: %pearl_model init --seed 16 -o %t/s16.bin
// RUN: %pearl_opt %s --pearl-schedule=model=%t/s16.bin -o %t/default.mlir 2>&1 | FileCheck %s --check-prefix=DEFAULT
// DEFAULT: remark: pearl-schedule: agent (greedy) chose "P(1) V(16) U(32) N J(1,6) P(1) V(16) N P(1) V(16) U(8)"
// RUN: not grep -q memref.alloc %t/default.mlir
// RUN: %pearl_opt %s '--pearl-schedule=model=%t/s16.bin copies=true' -o %t/copies.mlir 2>&1 | FileCheck %s --check-prefix=COPIES
// COPIES: remark: pearl-schedule: agent (greedy) chose "P(1) V(16) K(2) U(32) N P(1) K(2) V(16) U(32) N J(1,6) P(1) K(2) K(3) V(16) K(1)"
// RUN: grep -q memref.alloc %t/copies.mlir
// RUN: env OMP_NUM_THREADS=2 ASAN_OPTIONS=detect_leaks=0 %pearl_exec %s %t/default.mlir | FileCheck %s --check-prefix=SAME
// RUN: env OMP_NUM_THREADS=2 ASAN_OPTIONS=detect_leaks=0 %pearl_exec %s %t/copies.mlir | FileCheck %s --check-prefix=SAME
// SAME: pearl-exec: outputs identical
// The critic's beam (the policy's own blob as critic: mechanics only).
// RUN: %pearl_opt %s '--pearl-schedule=model=%t/s16.bin critic=%t/s16.bin' -o /dev/null 2>&1 | FileCheck %s --check-prefix=BEAM
// BEAM: remark: pearl-schedule: agent (beam 4, critic) chose "
// BEAM-NOT: K(
// BEAM-SAME: (3 branches
// RUN: %pearl_opt %s '--pearl-schedule=model=%t/s16.bin critic=%t/s16.bin copies=true' -o /dev/null 2>&1 | FileCheck %s --check-prefix=BEAMK
// BEAMK: remark: pearl-schedule: agent (beam 4, critic) chose "{{.*}}K(2){{.*}}" (3 branches
// An explicit schedule keeps K whatever the option.
// RUN: %pearl_opt %s '--pearl-schedule=schedule="K(1)"' -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXPLICIT
// EXPLICIT: applied K(1)

func.func @kernel(%A: memref<200x160xf64>, %B: memref<200x160xf64>, %C: memref<200x160xf64>) {
  %half = arith.constant 0.5 : f64
  affine.for %t = 0 to 4 {
    affine.for %i = 1 to 199 {
      affine.for %j = 0 to 160 {
        %n = affine.load %A[%i - 1, %j] : memref<200x160xf64>
        %s = affine.load %A[%i + 1, %j] : memref<200x160xf64>
        %sum = arith.addf %n, %s : f64
        %v = arith.mulf %sum, %half : f64
        affine.store %v, %B[%i, %j] : memref<200x160xf64>
      }
    }
    affine.for %j = 1 to 159 {
      affine.for %i = 0 to 200 {
        %w = affine.load %B[%i, %j - 1] : memref<200x160xf64>
        %e = affine.load %B[%i, %j + 1] : memref<200x160xf64>
        %v = arith.subf %e, %w : f64
        affine.store %v, %C[%i, %j] : memref<200x160xf64>
      }
    }
    affine.for %i = 1 to 199 {
      affine.for %j = 1 to 159 {
        %c = affine.load %C[%i, %j] : memref<200x160xf64>
        %b = affine.load %B[%i, %j] : memref<200x160xf64>
        %v = arith.addf %c, %b : f64
        %h = arith.mulf %v, %half : f64
        affine.store %h, %A[%i, %j] : memref<200x160xf64>
      }
    }
  }
  return
}

