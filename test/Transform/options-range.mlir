// Option values the pass cannot honour are errors with a message, before
// anything runs (no output): numbers beyond the range of what they set, and
// an explicit empty schedule (MLIR's option parser trims schedule=" " to
// "", which must not silently mean "run the policy").
// RUN: not %pearl_opt %s '--pearl-schedule=max-branch-steps=2147483648' 2>&1 | FileCheck %s --check-prefix=STEPS
// RUN: not %pearl_opt %s '--pearl-schedule=min-parallel-work=9223372036854775808' 2>&1 | FileCheck %s --check-prefix=WORK
// RUN: not %pearl_opt %s '--pearl-schedule=schedule=" "' 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not %pearl_opt %s '--pearl-schedule=schedule=""' 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not %mlir_opt_pearl %s --pass-pipeline='builtin.module(func.func(pearl-schedule{schedule=" " print-schedule}))' 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not %mlir_opt_pearl %s --pass-pipeline='builtin.module(func.func(pearl-schedule{max-branch-steps=4294967295}))' 2>&1 | FileCheck %s --check-prefix=STEPS-MAX
// The largest values in range are accepted.
// RUN: %pearl_opt %s '--pearl-schedule=max-branch-steps=2147483647 min-parallel-work=9223372036854775807' -o /dev/null
// RUN: not %pearl_opt %s '--pearl-schedule=time-limit=-1' 2>&1 | FileCheck %s --check-prefix=TIME
// RUN: %pearl_opt %s '--pearl-schedule=time-limit=0' -o /dev/null
// TIME: error: pearl-schedule: time-limit= must be a number of seconds from 0 (no limit) to 1e6

// STEPS: error: pearl-schedule: max-branch-steps=2147483648 is out of range (at most 2147483647)
// STEPS-NOT: remark
// WORK: error: pearl-schedule: min-parallel-work=9223372036854775808 is out of range (at most 9223372036854775807)
// WORK-NOT: remark
// EMPTY: error: pearl-schedule: schedule= is empty: an explicit schedule needs at least one action (leave the option out to schedule with the policy, or use agent=none to model only)
// EMPTY-NOT: remark
// EMPTY-NOT: schedule @
// STEPS-MAX: error: pearl-schedule: max-branch-steps=4294967295 is out of range

func.func @scale(%A: memref<16x16xf64>) {
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 16 {
      %a = affine.load %A[%i, %j] : memref<16x16xf64>
      %b = arith.addf %a, %a : f64
      affine.store %b, %A[%i, %j] : memref<16x16xf64>
    }
  }
  return
}
