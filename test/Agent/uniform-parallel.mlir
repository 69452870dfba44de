// The rule of uniform parallelism (pearl/agent.h): after the episode, no
// sequential loop runs some of the nests inside it in parallel and others
// serially. Two time loops of stencil nests (158-200 x 158-200
// iterations per step each), scheduled by untrained policies (the
// choices of a seeded initialization, stable, unlike a trained model's):
// the remark says what the rule changed, the schedule it names is the
// one applied, and the outputs are the original's. copies=true lets these
// policies choose K as they did when the test was written (copies.mlir
// has the default). fill-parallel=false keeps the rule of parallel fill
// out of these cases; it has its own at the end.
// RUN: rm -rf %t && split-file %s %t
// RUN: %pearl_model init --seed 16 -o %t/s16.bin
// RUN: %pearl_model init --seed 21 -o %t/s21.bin

// Three nests, the second over columns first: the policy of seed 16 runs
// the first and the last in parallel, and the rule adds the second's P(1)
// (its 158 columns split among the threads as the others' rows do).
// RUN: %pearl_opt %t/three.mlir '--pearl-schedule=model=%t/s16.bin copies=true fill-parallel=false' -o %t/added.mlir 2> %t/added.remarks
// RUN: FileCheck %s --check-prefix=ADDED < %t/added.remarks
// ADDED: remark: pearl-schedule: agent (greedy) chose "P(1) V(16) K(2) U(32) N P(1) K(2) V(16) U(32) N J(1,6) P(1) K(2) K(3) V(16) K(1)" (3 branches, 16 decisions, {{.*}}); uniform parallelism: 1 sequential loop made uniform (1 P added, 0 P of the policy dropped)
// RUN: %python %S/replay.py %pearl_opt %t/three.mlir %t/added.remarks %t/replay.mlir
// RUN: diff %t/added.mlir %t/replay.mlir
// RUN: grep -c affine.parallel %t/added.mlir | FileCheck %s --check-prefix=THREE
// THREE: 3
// RUN: env OMP_NUM_THREADS=2 ASAN_OPTIONS=detect_leaks=0 %pearl_exec %t/three.mlir %t/added.mlir | FileCheck %s --check-prefix=SAME
// SAME: pearl-exec: outputs identical

// uniform-parallel=false: the episode as the policy chose it.
// RUN: %pearl_opt %t/three.mlir '--pearl-schedule=model=%t/s16.bin uniform-parallel=false copies=true fill-parallel=false' -o %t/chosen.mlir 2> %t/chosen.remarks
// RUN: FileCheck %s --check-prefix=CHOSEN < %t/chosen.remarks
// CHOSEN: chose "P(1) V(16) K(2) U(32) N K(2) V(16) U(32) N J(1,6) P(1) K(2) K(3) V(16) K(1)" (3 branches, 16 decisions,
// CHOSEN-NOT: uniform parallelism
// RUN: grep -c affine.parallel %t/chosen.mlir | FileCheck %s --check-prefix=TWO
// TWO: 2

// The same with a fourth nest that no dependence lets run in parallel (it
// updates A in place from its row above and its column to the left): the
// policy of seed 21 runs the first three in parallel, and the rule drops
// their P.
// RUN: %pearl_opt %t/four.mlir '--pearl-schedule=model=%t/s21.bin copies=true fill-parallel=false' -o %t/dropped.mlir 2> %t/dropped.remarks
// RUN: FileCheck %s --check-prefix=DROPPED < %t/dropped.remarks
// DROPPED: remark: pearl-schedule: agent (greedy) chose "V(16) U(32) K(2) N U(32) N U(32) V(16) N T(1,2,64,128) U(32)" (4 branches, 15 decisions, {{.*}}); uniform parallelism: 1 sequential loop made uniform (0 P added, 3 P of the policy dropped)
// RUN: %python %S/replay.py %pearl_opt %t/four.mlir %t/dropped.remarks %t/replay4.mlir
// RUN: diff %t/dropped.mlir %t/replay4.mlir
// RUN: not grep -q affine.parallel %t/dropped.mlir
// RUN: env OMP_NUM_THREADS=2 ASAN_OPTIONS=detect_leaks=0 %pearl_exec %t/four.mlir %t/dropped.mlir | FileCheck %s --check-prefix=SAME
// RUN: %pearl_opt %t/four.mlir '--pearl-schedule=model=%t/s21.bin uniform-parallel=false copies=true fill-parallel=false' -o %t/chosen4.mlir 2>&1 | FileCheck %s --check-prefix=CHOSEN4
// CHOSEN4: chose "P(1) V(16) U(32) K(2) N P(1) U(32) N P(1) U(32) V(16) N T(1,2,64,128) U(32)"
// CHOSEN4-NOT: uniform parallelism

// The rule of parallel fill (the default, before the rule of uniform
// parallelism): the policy of seed 1 runs no nest in parallel, and the
// fill runs each one's rows in parallel (P(1): the time loop carries the
// stencils' dependences; 158-198 x 158-200 iterations per step, above
// min-parallel-work), each before its branch's unrolling.
// RUN: %pearl_model init --seed 1 -o %t/s1.bin
// RUN: %pearl_opt %t/three.mlir '--pearl-schedule=model=%t/s1.bin' -o %t/fill.mlir 2> %t/fill.remarks
// RUN: FileCheck %s --check-prefix=FILL < %t/fill.remarks
// FILL: remark: pearl-schedule: agent (greedy) chose "P(1) U(16) N P(1) U(16) N P(1) U(16)" (3 branches, 6 decisions, {{.*}}); parallel fill: 3 P added to nests left serial
// FILL-NOT: uniform parallelism
// RUN: %python %S/replay.py %pearl_opt %t/three.mlir %t/fill.remarks %t/replay-fill.mlir
// RUN: diff %t/fill.mlir %t/replay-fill.mlir
// RUN: grep -c affine.parallel %t/fill.mlir | FileCheck %s --check-prefix=THREE
// RUN: env OMP_NUM_THREADS=2 ASAN_OPTIONS=detect_leaks=0 %pearl_exec %t/three.mlir %t/fill.mlir | FileCheck %s --check-prefix=SAME
// fill-parallel=false: the nests as the policy left them.
// RUN: %pearl_opt %t/three.mlir '--pearl-schedule=model=%t/s1.bin fill-parallel=false' -o %t/nofill.mlir 2>&1 | FileCheck %s --check-prefix=NOFILL
// NOFILL: chose "U(16) N U(16) N U(16)" (3 branches, 6 decisions,
// NOFILL-NOT: parallel fill
// RUN: not grep -q affine.parallel %t/nofill.mlir

//--- three.mlir
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

//--- four.mlir
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
    affine.for %i = 0 to 200 {
      affine.for %j = 1 to 159 {
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
    affine.for %i = 1 to 199 {
      affine.for %j = 1 to 159 {
        %n = affine.load %A[%i - 1, %j] : memref<200x160xf64>
        %w = affine.load %A[%i, %j - 1] : memref<200x160xf64>
        %v = arith.addf %n, %w : f64
        %h = arith.mulf %v, %half : f64
        affine.store %h, %A[%i, %j] : memref<200x160xf64>
      }
    }
  }
  return
}
