// The critic's beam (critic=): the greedy episode runs first, then a beam
// over the policy's best legal decisions, each schedule valued by the
// critic; the episode the critic values highest is applied if it beats the
// greedy one. The critic here is the compiled-in policy's own blob (its
// value head is not a trained critic, which only the choice depends on):
// the test checks the mechanics, not the choice.
// RUN: rm -rf %t && split-file %s %t
// RUN: %pearl_opt %t/jacobi.mlir --pearl-schedule="critic=%pearl_src/models/pearl-policy.bin" -o %t/beam.mlir 2> %t/beam.remarks
// RUN: FileCheck %s --check-prefix=BEAM < %t/beam.remarks
// The chosen episode, given as an explicit schedule, makes the same IR, and
// computes the same outputs as the original.
// RUN: %python %S/replay.py %pearl_opt %t/jacobi.mlir %t/beam.remarks %t/replay.mlir
// RUN: diff %t/beam.mlir %t/replay.mlir
// RUN: env OMP_NUM_THREADS=2 ASAN_OPTIONS=detect_leaks=0 %pearl_exec %t/jacobi.mlir %t/beam.mlir | FileCheck %s --check-prefix=SAME
// A beam of one episode and one decision follows the greedy episode: the
// same IR as agent=greedy without a critic, and the remark says the greedy
// episode is kept.
// RUN: %pearl_opt %t/jacobi.mlir --pearl-schedule -o %t/greedy.mlir 2>/dev/null
// RUN: %pearl_opt %t/jacobi.mlir --pearl-schedule="critic=%pearl_src/models/pearl-policy.bin beam-width=1 beam-top-k=1" -o %t/one.mlir 2> %t/one.remarks
// RUN: diff %t/greedy.mlir %t/one.mlir
// RUN: FileCheck %s --check-prefix=ONE < %t/one.remarks
// Past its time limit the beam stops; here before its first step, so the
// greedy episode is kept.
// RUN: %pearl_opt %t/jacobi.mlir --pearl-schedule="critic=%pearl_src/models/pearl-policy.bin beam-seconds=1e-9" -o %t/limited.mlir 2> %t/limited.remarks
// RUN: diff %t/greedy.mlir %t/limited.mlir
// RUN: FileCheck %s --check-prefix=LIMIT < %t/limited.remarks
// A critic that cannot be loaded leaves the region unchanged, with a
// warning; bad widths are refused.
// RUN: mlir-opt %t/jacobi.mlir -o %t/before.mlir
// RUN: %pearl_opt %t/jacobi.mlir --pearl-schedule="critic=%t/missing.bin" -o %t/missing.mlir 2> %t/missing.remarks
// RUN: diff %t/before.mlir %t/missing.mlir
// RUN: FileCheck %s --check-prefix=MISSING < %t/missing.remarks
// RUN: not %pearl_opt %t/jacobi.mlir --pearl-schedule="critic=%t/missing.bin beam-width=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=WIDTH

// BEAM: remark: pearl-schedule: agent (beam 4, critic) {{(chose "[A-Z0-9(), ]+"|kept the original schedule)}} (2 branches, {{[0-9]+}} decisions, {{[0-9]+}} illegal choices masked, value {{-?[0-9.]+}}; decided in {{[0-9.]+}} ms: graphs {{[0-9.]+}}, network {{[0-9.]+}}, legality {{[0-9.]+}}); the critic valued {{[0-9]+}} schedules, this one {{-?[0-9.]+}}, the greedy episode's {{-?[0-9.]+}}
// SAME: pearl-exec: outputs identical
// ONE: remark: pearl-schedule: agent (beam 1, critic) {{.*}}, which is kept
// LIMIT: the critic valued 2 schedules, this one {{-?[0-9.]+}}, the greedy episode's {{-?[0-9.]+}}, which is kept (the beam stopped at its time limit)
// MISSING: warning: pearl-schedule: loop nest left unchanged: cannot load the policy: model '{{.*}}missing.bin': cannot open
// WIDTH: error: pearl-schedule: beam-width= must be from 1 to 64 and beam-top-k= from 1 to 16

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
