// A schedule file that cannot be read, is not one, or has a malformed line
// (named by its number) or a schedule that is not Pearl's notation gives a
// warning at every region, and the IR is left exactly as it was: the policy
// does not decide instead. schedule= with schedule-file=, or an empty
// schedule-file=, is an option error.
// RUN: rm -rf %t && split-file %s %t
// RUN: %pearl_opt %t/scale.mlir '--pearl-schedule=agent=none' -o %t/orig.mlir
// RUN: %pearl_opt %t/scale.mlir '--pearl-schedule=schedule-file=%t/missing.sched' -o %t/missing.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: diff %t/orig.mlir %t/missing.mlir
// RUN: %pearl_opt %t/scale.mlir '--pearl-schedule=schedule-file=%t/header.sched' -o %t/header.mlir 2>&1 | FileCheck %s --check-prefix=HEADER
// RUN: diff %t/orig.mlir %t/header.mlir
// RUN: %pearl_opt %t/scale.mlir '--pearl-schedule=schedule-file=%t/region.sched' -o %t/region.mlir 2>&1 | FileCheck %s --check-prefix=REGION
// RUN: diff %t/orig.mlir %t/region.mlir
// RUN: %pearl_opt %t/scale.mlir '--pearl-schedule=schedule-file=%t/quote.sched' -o %t/quote.mlir 2>&1 | FileCheck %s --check-prefix=QUOTE
// RUN: diff %t/orig.mlir %t/quote.mlir
// RUN: %pearl_opt %t/scale.mlir '--pearl-schedule=schedule-file=%t/dup.sched' -o %t/dup.mlir 2>&1 | FileCheck %s --check-prefix=DUP
// RUN: diff %t/orig.mlir %t/dup.mlir
// RUN: %pearl_opt %t/scale.mlir '--pearl-schedule=schedule-file=%t/action.sched print-model' -o %t/action.mlir 2>&1 | FileCheck %s --check-prefix=ACTION
// RUN: diff %t/orig.mlir %t/action.mlir
// The same through mlir-opt and the plugin.
// RUN: %mlir_opt_pearl %t/scale.mlir --pass-pipeline='builtin.module(func.func(pearl-schedule{schedule-file=%t/dup.sched}))' -o %t/plugin.mlir 2>&1 | FileCheck %s --check-prefix=DUP
// RUN: %mlir_opt_pearl %t/scale.mlir --pass-pipeline='builtin.module(func.func(pearl-schedule{agent=none}))' -o %t/plugin-orig.mlir
// RUN: diff %t/plugin-orig.mlir %t/plugin.mlir

// MISSING: scale.mlir:2:3: warning: pearl-schedule: loop nest left unchanged: schedule file: cannot read '{{.*}}missing.sched': No such file or directory
// MISSING: scale.mlir:12:3: warning: pearl-schedule: loop nest left unchanged: schedule file: cannot read
// MISSING-NOT: remark
// HEADER: scale.mlir:2:3: warning: pearl-schedule: loop nest left unchanged: schedule file: {{.*}}header.sched:1: not a pearl schedule file: the first line must be '# pearl schedule file 1'
// HEADER-NOT: remark
// REGION: warning: pearl-schedule: loop nest left unchanged: schedule file: {{.*}}region.sched:3: bad region 'first': a region is a number from 0
// QUOTE: warning: pearl-schedule: loop nest left unchanged: schedule file: {{.*}}quote.sched:2: unterminated quote: the schedule has no closing '"' on its line
// DUP: warning: pearl-schedule: loop nest left unchanged: schedule file: {{.*}}dup.sched:4: duplicate entry for @scale region 0 (first at line 2)
// DUP-NOT: remark
// ACTION: warning: pearl-schedule: loop nest left unchanged: schedule file: {{.*}}action.sched:3: @scale region 1: unexpected ',' at position 5 of schedule "R(0),R(1)": actions are separated by spaces
// ACTION-NOT: remark

// Printing still works: the model is printed, with its fingerprint.
// RUN: %pearl_opt %t/scale.mlir '--pearl-schedule=schedule-file=%t/action.sched print-model' -o /dev/null > %t/action.out 2>/dev/null
// RUN: FileCheck %s --check-prefix=PRINT --input-file %t/action.out
// PRINT: model @scale
// PRINT: fingerprint: {{[0-9a-f]{16}$}}

// RUN: not %pearl_opt %t/scale.mlir '--pearl-schedule=schedule="R(0)" schedule-file=%t/dup.sched' 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: not %mlir_opt_pearl %t/scale.mlir --pass-pipeline='builtin.module(func.func(pearl-schedule{schedule-file=%t/dup.sched schedule="R(0)"}))' 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: not %pearl_opt %t/scale.mlir '--pearl-schedule=schedule-file=" "' 2>&1 | FileCheck %s --check-prefix=EMPTY
// BOTH: error: pearl-schedule: schedule= and schedule-file= exclude each other: give the schedules either on the command line or in the file
// BOTH-NOT: remark
// EMPTY: error: pearl-schedule: schedule-file= is empty: give the path of a schedule file
// EMPTY-NOT: remark

//--- scale.mlir
func.func @scale(%A: memref<16x16xf64>, %B: memref<16xf64>) {
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 16 {
      %a = affine.load %A[%i, %j] : memref<16x16xf64>
      %b = arith.addf %a, %a : f64
      affine.store %b, %A[%i, %j] : memref<16x16xf64>
    }
  }
  %c = arith.constant 1.0 : f64
  %c0 = arith.constant 0 : index
  memref.store %c, %B[%c0] : memref<16xf64>
  affine.for %k = 0 to 16 {
    %x = affine.load %B[%k] : memref<16xf64>
    %y = arith.addf %x, %x : f64
    affine.store %y, %B[%k] : memref<16xf64>
  }
  return
}
//--- header.sched
scale 0 * "R(0)"
//--- region.sched
# pearl schedule file 1
scale 0 * "R(0)"
scale first * "R(0)"
//--- quote.sched
# pearl schedule file 1
scale 0 * "R(0)
//--- dup.sched
# pearl schedule file 1
scale 0 * "R(0)"
scale 1 * "R(0)"
scale 0 * "I(0,1)"
//--- action.sched
# pearl schedule file 1
scale 0 * "I(0,1)"
scale 1 * "R(0),R(1)"
