// The rule of uniform parallelism (pearl/agent.h): after the episode, a
// sequential loop runs the nests inside it either all in parallel, split
// alike among the threads, or all serially. Here a time loop holds three
// stencil nests of 198-200 x 158-160 iterations per step; the untrained
// policy of seed 5 runs all three in parallel, two of them
// unrolled-and-jammed by 16 rows (J(1,16)) and one not, so their rows are
// split differently. The rule drops the three P: the remark says so, the
// schedule it names is the one applied, and the outputs are the
// original's.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %pearl_model init --seed 5 -o %t/s5.bin
// RUN: %pearl_opt %s --pearl-schedule=model=%t/s5.bin -o %t/uniform.mlir 2> %t/uniform.remarks
// RUN: FileCheck %s --check-prefix=UNIFORM < %t/uniform.remarks
// UNIFORM: remark: pearl-schedule: agent (greedy) chose "J(1,16) K(3) V(16) N V(16) N J(1,16) K(3) V(16)" (3 branches, 13 decisions, {{.*}}); uniform parallelism: 1 sequential loop made uniform (0 P added, 3 P of the policy dropped)
// RUN: %python %S/replay.py %pearl_opt %s %t/uniform.remarks %t/replay.mlir
// RUN: diff %t/uniform.mlir %t/replay.mlir
// RUN: not grep -q affine.parallel %t/uniform.mlir
// RUN: env OMP_NUM_THREADS=2 ASAN_OPTIONS=detect_leaks=0 %pearl_exec %s %t/uniform.mlir | FileCheck %s --check-prefix=SAME
// SAME: pearl-exec: outputs identical

// uniform-parallel=false: the episode as the policy chose it, three
// parallel loops, the same outputs.
// RUN: %pearl_opt %s '--pearl-schedule=model=%t/s5.bin uniform-parallel=false' -o %t/chosen.mlir 2> %t/chosen.remarks
// RUN: FileCheck %s --check-prefix=CHOSEN < %t/chosen.remarks
// CHOSEN: chose "J(1,16) P(1) K(3) V(16) N P(1) V(16) N J(1,16) P(1) K(3) V(16)" (3 branches, 13 decisions,
// CHOSEN-NOT: uniform parallelism
// RUN: grep -c affine.parallel %t/chosen.mlir | FileCheck %s --check-prefix=THREE
// THREE: 3
// RUN: env OMP_NUM_THREADS=2 ASAN_OPTIONS=detect_leaks=0 %pearl_exec %s %t/chosen.mlir | FileCheck %s --check-prefix=SAME

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
  }
  return
}
