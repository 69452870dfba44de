// pearl-schedule{model=...} loads another weight blob. A blob that cannot
// be loaded (missing, truncated, corrupt, other dimensions) gives a warning
// naming the reason, and the IR is left exactly as it was.
// RUN: rm -rf %t && mkdir -p %t
// RUN: mlir-opt %s -o %t/before.mlir
// RUN: cp %pearl_src/models/pearl-policy.bin %t/good.bin
// RUN: %python %pearl_src/test/Policy/make_corrupt.py %t/good.bin %t

// RUN: %pearl_opt %s --pearl-schedule=model=%t/missing.bin -o %t/after.mlir 2> %t/err
// RUN: diff %t/before.mlir %t/after.mlir
// RUN: FileCheck %s --check-prefix=MISSING < %t/err
// MISSING: warning: pearl-schedule: loop nest left unchanged: cannot load the policy: model '{{.*}}missing.bin': {{.*}}No such file or directory

// RUN: %pearl_opt %s --pearl-schedule=model=%t/truncated.bin -o %t/after.mlir 2> %t/err
// RUN: diff %t/before.mlir %t/after.mlir
// RUN: FileCheck %s --check-prefix=TRUNC < %t/err
// TRUNC: warning: pearl-schedule: loop nest left unchanged: cannot load the policy: model '{{.*}}truncated.bin': {{.*}}truncated

// RUN: %mlir_opt_pearl %s --pass-pipeline='builtin.module(func.func(pearl-schedule{model=%t/checksum.bin}))' -o %t/after.mlir 2> %t/err
// RUN: diff %t/before.mlir %t/after.mlir
// RUN: FileCheck %s --check-prefix=SUM < %t/err
// SUM: warning: pearl-schedule: loop nest left unchanged: cannot load the policy: model '{{.*}}checksum.bin': {{.*}}checksum

// RUN: %pearl_opt %s --pearl-schedule=model=%t/hidden64.bin -o %t/after.mlir 2> %t/err
// RUN: diff %t/before.mlir %t/after.mlir
// RUN: FileCheck %s --check-prefix=DIMS < %t/err
// DIMS: warning: pearl-schedule: loop nest left unchanged: cannot load the policy: model '{{.*}}hidden64.bin': {{.*}}hidden

// RUN: %pearl_opt %s --pearl-schedule=model=%t/nan.bin -o %t/after.mlir 2> %t/err
// RUN: diff %t/before.mlir %t/after.mlir
// RUN: FileCheck %s --check-prefix=NAN < %t/err
// NAN: warning: pearl-schedule: loop nest left unchanged: cannot load the policy: model '{{.*}}nan.bin': {{.*}}finite

// A valid blob is used: the same as the compiled-in one gives the same IR.
// RUN: %pearl_opt %s --pearl-schedule=model=%t/good.bin -o %t/good.mlir 2> %t/err
// RUN: %pearl_opt %s --pearl-schedule -o %t/builtin.mlir 2>/dev/null
// RUN: diff %t/good.mlir %t/builtin.mlir
// RUN: FileCheck %s --check-prefix=GOOD < %t/err
// GOOD: remark: pearl-schedule: agent (greedy)

// An explicit schedule needs no policy: a bad model is not even loaded.
// RUN: %pearl_opt %s '--pearl-schedule=schedule="P(0)" model=%t/missing.bin' -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXPLICIT
// EXPLICIT-NOT: warning
// EXPLICIT: remark: pearl-schedule: branch 0: applied P(0)

func.func @scale(%A: memref<32x32xf32>) {
  %c = arith.constant 3.0 : f32
  affine.for %i = 0 to 32 {
    affine.for %j = 0 to 32 {
      %a = affine.load %A[%i, %j] : memref<32x32xf32>
      %m = arith.mulf %a, %c : f32
      affine.store %m, %A[%i, %j] : memref<32x32xf32>
    }
  }
  return
}
