// schedule-file=: one schedule per (function, region), applied where the
// region's model has the fingerprint the entry was tuned for (or '*');
// print-model prints each region's fingerprint. Regions without an entry,
// or whose fingerprint changed, are left to the policy, with a remark.
// RUN: rm -rf %t && split-file %s %t
// RUN: %pearl_opt %t/two.mlir '--pearl-schedule=print-model agent=none' -o /dev/null | FileCheck %s --check-prefix=MODEL
// RUN: %pearl_opt %t/two.mlir '--pearl-schedule=print-model agent=none' -o /dev/null | sed -n 's/^  fingerprint: //p' > %t/fps
// RUN: sed -e "s/FP0/$(sed -n 1p %t/fps)/" -e "s/FP1/$(sed -n 2p %t/fps)/" %t/tuned.in > %t/tuned.sched
// RUN: sed -e "s/FP0/$(sed -n 1p %t/fps)/" %t/partial.in > %t/partial.sched
// RUN: sed -e "s/FP1/$(sed -n 2p %t/fps)/" %t/keep.in > %t/keep.sched
// RUN: cat %t/two.mlir %t/other.mlir > %t/both.mlir
// MODEL: model @two
// MODEL: fingerprint: {{[0-9a-f]{16}$}}
// MODEL: model @two
// MODEL: fingerprint: {{[0-9a-f]{16}$}}

// Applied from the file: the code is the explicit schedule's, and computes
// what the original computes.
// RUN: %pearl_opt %t/two.mlir '--pearl-schedule=schedule-file=%t/tuned.sched' -o %t/tuned.mlir 2>&1 | FileCheck %s --check-prefix=TUNED
// RUN: %pearl_opt %t/two.mlir '--pearl-schedule=schedule="I(0,1) R(0); R(0)"' -o %t/explicit.mlir
// RUN: diff %t/explicit.mlir %t/tuned.mlir
// RUN: FileCheck %s --check-prefix=TUNED-IR --input-file %t/tuned.mlir
// RUN: %pearl_exec %t/two.mlir %t/tuned.mlir | FileCheck %s --check-prefix=SAME
// TUNED-NOT: warning
// TUNED-NOT: agent
// TUNED: two.mlir:2:3: remark: pearl-schedule: schedule "I(0,1) R(0)" from schedule file '{{.*}}tuned.sched' line 3
// TUNED: two.mlir:2:3: remark: pearl-schedule: branch 0: applied I(0,1) R(0)
// TUNED: two.mlir:13:3: remark: pearl-schedule: schedule "R(0)" from schedule file '{{.*}}tuned.sched' line 5
// TUNED: two.mlir:13:3: remark: pearl-schedule: branch 0: applied R(0)
// TUNED-IR: affine.for %[[J:.*]] = -15 to 1 {
// TUNED-IR: affine.load %arg0[%{{.*}}, %{{.*}}] : memref<16x16xf64>
// TUNED-IR: memref.store
// TUNED-IR: affine.for %{{.*}} = -15 to 1 {
// TUNED-IR: affine.load %arg1
// SAME: pearl-exec: outputs identical

// Through mlir-opt and the plugin, on two functions at once (threads).
// RUN: %mlir_opt_pearl %t/both.mlir --pass-pipeline='builtin.module(func.func(pearl-schedule{schedule-file=%t/tuned.sched}))' -o /dev/null 2>&1 | FileCheck %s --check-prefix=PLUGIN
// RUN: %pearl_opt %t/both.mlir '--pearl-schedule=schedule-file=%t/tuned.sched' --mlir-print-op-generic -o %t/tuned-generic.mlir 2>/dev/null
// RUN: %mlir_opt_pearl %t/both.mlir --pass-pipeline='builtin.module(func.func(pearl-schedule{schedule-file=%t/tuned.sched}))' --mlir-print-op-generic -o %t/plugin-generic.mlir 2>/dev/null
// RUN: diff %t/tuned-generic.mlir %t/plugin-generic.mlir
// PLUGIN-DAG: remark: pearl-schedule: branch 0: applied I(0,1) R(0)
// PLUGIN-DAG: remark: pearl-schedule: schedule file has no entry for @other region 0: the policy decides

// A region without an entry, and one whose model changed since it was
// tuned: the policy decides, the remark names both fingerprints.
// RUN: %pearl_opt %t/both.mlir '--pearl-schedule=schedule-file=%t/partial.sched' --mlir-disable-threading -o /dev/null 2>&1 | FileCheck %s --check-prefix=PARTIAL -DFP1=$(sed -n 2p %t/fps)
// PARTIAL-NOT: warning
// PARTIAL: both.mlir:2:3: remark: pearl-schedule: schedule "I(0,1)" from schedule file '{{.*}}partial.sched' line 2
// PARTIAL: both.mlir:2:3: remark: pearl-schedule: branch 0: applied I(0,1)
// PARTIAL: both.mlir:13:3: remark: pearl-schedule: schedule file entry for @two region 1 (line 3) is for fingerprint 0123456789abcdef, the region's is [[FP1]]: the code changed since it was tuned; the policy decides
// PARTIAL-NEXT: affine.for %k
// PARTIAL: both.mlir:13:3: remark: pearl-schedule: agent (greedy)
// PARTIAL: remark: pearl-schedule: schedule file has no entry for @other region 0: the policy decides
// PARTIAL: remark: pearl-schedule: agent (greedy)
// With agent=none nothing decides for them.
// RUN: %pearl_opt %t/both.mlir '--pearl-schedule=schedule-file=%t/partial.sched agent=none' --mlir-disable-threading -o /dev/null 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: remark: pearl-schedule: branch 0: applied I(0,1)
// NONE: the code changed since it was tuned; left as it is (agent=none)
// NONE: remark: pearl-schedule: schedule file has no entry for @other region 0: left as it is (agent=none)
// NONE-NOT: agent (greedy)

// An empty schedule keeps the region's code (the policy is not asked):
// the output is the explicit schedule's with an empty first part. An entry
// for a region the function does not have is named in a warning.
// RUN: %pearl_opt %t/two.mlir '--pearl-schedule=schedule-file=%t/keep.sched' --mlir-disable-threading -o %t/keep.mlir 2>&1 | FileCheck %s --check-prefix=KEEP
// RUN: %pearl_opt %t/two.mlir '--pearl-schedule=schedule="; R(0)"' -o %t/keep-explicit.mlir
// RUN: diff %t/keep-explicit.mlir %t/keep.mlir
// KEEP: two.mlir:1:1: warning: pearl-schedule: schedule file entries for @two regions 2 (line 4), 7 (line 5) are not used: the function has 2 regions (numbered from 0)
// KEEP: two.mlir:2:3: remark: pearl-schedule: loop nest kept as it is: schedule file '{{.*}}keep.sched' line 2 gives it the empty schedule
// KEEP-NOT: agent
// KEEP: two.mlir:13:3: remark: pearl-schedule: branch 0: applied R(0)

//--- two.mlir
func.func @two(%A: memref<16x16xf64>, %B: memref<16xf64>) {
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 16 {
      %a = affine.load %A[%i, %j] : memref<16x16xf64>
      %b = arith.addf %a, %a : f64
      affine.store %b, %A[%i, %j] : memref<16x16xf64>
    }
  }
  // a store outside the affine loops ends the first region
  %c = arith.constant 1.0 : f64
  %c0 = arith.constant 0 : index
  memref.store %c, %B[%c0] : memref<16xf64>
  affine.for %k = 0 to 16 {
    %x = affine.load %B[%k] : memref<16xf64>
    %y = arith.addf %x, %c : f64
    affine.store %y, %B[%k] : memref<16xf64>
  }
  return
}
//--- other.mlir
func.func @other(%A: memref<16x16xf64>) {
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 16 {
      %a = affine.load %A[%i, %j] : memref<16x16xf64>
      %b = arith.mulf %a, %a : f64
      affine.store %b, %A[%i, %j] : memref<16x16xf64>
    }
  }
  return
}
//--- tuned.in
# pearl schedule file 1
# function region fingerprint schedule
two 0 FP0 "I(0,1) R(0)"
# the second region, whatever its model
two 1 * "R(0)"   # hand-written
//--- partial.in
# pearl schedule file 1
two 0 FP0 "I(0,1)"
two 1 0123456789abcdef "R(0)"
//--- keep.in
# pearl schedule file 1
two 0 * ""
two 1 FP1 "R(0)"
two 2 * "R(0)"
two 7 * ""
