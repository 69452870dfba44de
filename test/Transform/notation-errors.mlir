// Schedules that are not Pearl's notation are errors naming the position of
// what is wrong, and the nest is left exactly as it was: anything but spaces
// between two actions (a comma is not a separator), and a skew with factors
// (0,0), which is not the solver's form S(l,l+1).
// RUN: %pearl_opt %s '--pearl-schedule=agent=none' -o %t.orig.mlir
// RUN: %pearl_opt %s '--pearl-schedule=schedule="R(0),R(1)"' -o %t.comma.mlir 2>&1 | FileCheck %s --check-prefix=COMMA
// RUN: diff %t.orig.mlir %t.comma.mlir
// RUN: %pearl_opt %s '--pearl-schedule=schedule="R(0) ;R(1)"' -o %t.semi.mlir 2>&1 | FileCheck %s --check-prefix=SEMI
// RUN: %pearl_opt %s '--pearl-schedule=schedule="I(0,1) R(0)x"' -o %t.junk.mlir 2>&1 | FileCheck %s --check-prefix=JUNK
// RUN: diff %t.orig.mlir %t.junk.mlir
// RUN: %pearl_opt %s '--pearl-schedule=schedule="I(0,1) S(0,1,0,0)"' -o %t.zero.mlir 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: diff %t.orig.mlir %t.zero.mlir
// The same through mlir-opt and the plugin.
// RUN: %mlir_opt_pearl %s --pass-pipeline='builtin.module(func.func(pearl-schedule{schedule="R(0),R(1)"}))' -o %t.plugin.mlir 2>&1 | FileCheck %s --check-prefix=COMMA
// RUN: %mlir_opt_pearl %s --pass-pipeline='builtin.module(func.func(pearl-schedule{agent=none}))' -o %t.plugin-orig.mlir
// RUN: diff %t.plugin-orig.mlir %t.plugin.mlir

// COMMA: remark: pearl-schedule: loop nest left unchanged: unexpected ',' at position 5 of schedule "R(0),R(1)": actions are separated by spaces
// COMMA-NOT: applied
// SEMI: warning: pearl-schedule: schedule part 1 "R(1)" ignored: the function has 1 region
// SEMI: remark: pearl-schedule: branch 0: applied R(0)
// JUNK: remark: pearl-schedule: loop nest left unchanged: unexpected 'x' at position 12 of schedule "I(0,1) R(0)x"
// ZERO: remark: pearl-schedule: loop nest left unchanged: bad action 'S(0,1,0,0)' at position 8 of schedule "I(0,1) S(0,1,0,0)": skew factors (0,0) map both loops to 0; give two coprime factors, or none (S(l,l+1)) to let the solver choose
// ZERO-NOT: applied

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
