// One function, three nests: the first and last are modeled (as two regions,
// split by the call between them), the middle one is left unchanged with a
// remark. Without the agent, the whole function's IR is unchanged by the
// pass; with it, the middle nest is kept as it was (the others may be
// rescheduled, depending on the model).
// RUN: %mlir_opt_pearl %s --pass-pipeline='builtin.module(func.func(pearl-schedule{print-model agent=none}))' -verify-diagnostics -o /dev/null | FileCheck %s
// RUN: %mlir_opt_pearl %s --pass-pipeline='builtin.module(func.func(pearl-schedule{agent=none}))' -o %t.after 2>/dev/null
// RUN: mlir-opt %s -o %t.before
// RUN: diff %t.before %t.after
// RUN: %mlir_opt_pearl %s --pass-pipeline='builtin.module(func.func(pearl-schedule))' 2>/dev/null | FileCheck %s --check-prefix=AGENT
// AGENT:      func.call @log(%{{.*}}) : (index) -> ()
// AGENT-NEXT: }

// CHECK-LABEL: model @mixed
// CHECK:         S0 f32
// CHECK-NOT:     S1
// CHECK-LABEL: model @mixed
// CHECK:         S0 f32
// CHECK-NOT:     S1

func.func private @log(index)

func.func @mixed(%A: memref<16xf32>, %B: memref<16xf32>) {
  %one = arith.constant 1.0 : f32
  affine.for %i = 0 to 16 {
    affine.store %one, %A[%i] : memref<16xf32>
  }
  affine.for %i = 0 to 16 {
    // expected-remark @below {{call to @log}}
    func.call @log(%i) : (index) -> ()
  }
  affine.for %i = 0 to 16 {
    %0 = affine.load %A[%i] : memref<16xf32>
    affine.store %0, %B[%i] : memref<16xf32>
  }
  return
}
