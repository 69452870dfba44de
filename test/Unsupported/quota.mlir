// With a tiny isl operations quota the region is left unchanged with a remark;
// with the default quota the same nest is modeled.
// RUN: %mlir_opt_pearl %s --pass-pipeline='builtin.module(func.func(pearl-schedule{print-model isl-max-operations=20 agent=none}))' -verify-diagnostics -o /dev/null | FileCheck %s --allow-empty --implicit-check-not=model
// RUN: %mlir_opt_pearl %s --pass-pipeline='builtin.module(func.func(pearl-schedule{isl-max-operations=20}))' -o %t.after 2>/dev/null
// RUN: mlir-opt %s -o %t.before
// RUN: diff %t.before %t.after
// RUN: %mlir_opt_pearl %s --pass-pipeline='builtin.module(func.func(pearl-schedule{print-model agent=none}))' -o /dev/null | FileCheck %s --check-prefix=DEFAULT
// DEFAULT: model @seidel_like
// Quotas that run out in each phase (model, schedule, dependences) are all
// handled the same way; pearl-opt runs them so sanitizer builds check leaks.
// RUN: %pearl_opt %s --pearl-schedule="print-model isl-max-operations=2000 agent=none" 2>&1 | FileCheck %s --check-prefix=QUOTA
// RUN: %pearl_opt %s --pearl-schedule="print-model isl-max-operations=5000 agent=none" 2>&1 | FileCheck %s --check-prefix=QUOTA
// RUN: %pearl_opt %s --pearl-schedule="print-model isl-max-operations=300 agent=none" 2>&1 | FileCheck %s --check-prefix=QUOTA
// QUOTA: quota.mlir:[[# @LINE + 6]]:3: remark: pearl-schedule: loop nest left unchanged: isl operations quota exceeded in
// QUOTA-NOT: model @
// QUOTA-NOT: isl_ctx

func.func @seidel_like(%A: memref<64x64xf64>) {
  // expected-remark @below {{isl operations quota exceeded}}
  affine.for %t = 0 to 8 {
    affine.for %i = 1 to 63 {
      affine.for %j = 1 to 63 {
        %0 = affine.load %A[%i - 1, %j] : memref<64x64xf64>
        %1 = affine.load %A[%i, %j - 1] : memref<64x64xf64>
        %2 = affine.load %A[%i + 1, %j + 1] : memref<64x64xf64>
        %3 = arith.addf %0, %1 : f64
        %4 = arith.addf %3, %2 : f64
        affine.store %4, %A[%i, %j] : memref<64x64xf64>
      }
    }
  }
  return
}
