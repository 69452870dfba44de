// Loops near the limits of 64-bit indices. A schedule whose generated
// bounds or expressions could overflow index arithmetic is refused by the
// code generator with a message, and the nest is left exactly as it was:
// a constant that does not fit in 64 bits (isl computes exactly; it used to
// be converted to 0: `affine.for 0 to 1`), a bound that overflows
// (9223372036854775807 + 1), a loop whose increment past its last
// iteration overflows (it never ended), and an intermediate value of an
// affine map (2 * c1 in 2 * c1 - c0). Schedules whose code stays in range
// are generated and give the same outputs.
// RUN: split-file %s %t
// RUN: %pearl_opt %t/lim.mlir '--pearl-schedule=agent=none' -o %t/orig.mlir
// RUN: %pearl_opt %t/lim.mlir '--pearl-schedule=schedule="S(0,1,3,1)"' -o %t/s31.mlir 2>&1 | FileCheck %s --check-prefix=S31
// RUN: diff %t/orig.mlir %t/s31.mlir
// RUN: %pearl_opt %t/lim.mlir '--pearl-schedule=schedule="S(0,1,2,1)"' -o %t/s21.mlir 2>&1 | FileCheck %s --check-prefix=S21
// RUN: diff %t/orig.mlir %t/s21.mlir
// RUN: %pearl_opt %t/lim.mlir '--pearl-schedule=schedule="N R(0)"' -o %t/r0.mlir 2>&1 | FileCheck %s --check-prefix=R0
// RUN: diff %t/orig.mlir %t/r0.mlir
// RUN: %pearl_opt %t/lim.mlir '--pearl-schedule=schedule="S(0,1,1,1) T(0,1,2,2)"' -o %t/st.mlir 2>&1 | FileCheck %s --check-prefix=INC
// RUN: diff %t/orig.mlir %t/st.mlir
// RUN: %pearl_opt %t/big.mlir '--pearl-schedule=agent=none' -o %t/big-orig.mlir
// RUN: %pearl_opt %t/big.mlir '--pearl-schedule=schedule="S(0,1,2,-1)"' -o %t/big-s.mlir 2>&1 | FileCheck %s --check-prefix=MUL
// RUN: diff %t/big-orig.mlir %t/big-s.mlir

// Schedules that stay in range are generated, with identical outputs.
// RUN: %pearl_opt %t/lim.mlir '--pearl-schedule=schedule="S(0,1,1,1)"' -o %t/s11.mlir 2>&1 | FileCheck %s --check-prefix=OK
// RUN: %pearl_exec %t/lim.mlir %t/s11.mlir | FileCheck %s --check-prefix=SAME
// RUN: %pearl_opt %t/lim.mlir '--pearl-schedule=schedule="I(0,1)"' -o %t/i.mlir 2>&1 | FileCheck %s --check-prefix=OK
// RUN: %pearl_exec %t/lim.mlir %t/i.mlir | FileCheck %s --check-prefix=SAME
// RUN: %pearl_opt %t/lim.mlir '--pearl-schedule=schedule="T(0,1,2,2) N R(0) R(0)"' -o %t/t.mlir 2>&1 | FileCheck %s --check-prefix=OK
// RUN: %pearl_exec %t/lim.mlir %t/t.mlir | FileCheck %s --check-prefix=SAME
// RUN: %pearl_opt %t/lim.mlir '--pearl-schedule=schedule="R(1) U(2)" regenerate' -o %t/u.mlir 2>&1 | FileCheck %s --check-prefix=OK
// RUN: %pearl_exec %t/lim.mlir %t/u.mlir | FileCheck %s --check-prefix=SAME
// RUN: %pearl_opt %t/lim.mlir '--pearl-schedule=schedule="P(0) N P(0)"' -o %t/p.mlir 2>&1 | FileCheck %s --check-prefix=OK
// RUN: env OMP_NUM_THREADS=2 %pearl_exec %t/lim.mlir %t/p.mlir | FileCheck %s --check-prefix=SAME
// RUN: %pearl_opt %t/big.mlir '--pearl-schedule=schedule="S(0,1,1,-1)"' -o %t/big-ok.mlir 2>&1 | FileCheck %s --check-prefix=OK
// RUN: %pearl_exec %t/big.mlir %t/big-ok.mlir | FileCheck %s --check-prefix=SAME

// S31: remark: pearl-schedule: loop nest left unchanged: code generation: the constant 18446744073709551600 does not fit in 64-bit index arithmetic
// S21: remark: pearl-schedule: loop nest left unchanged: code generation: the constant 13835058055282163700 does not fit in 64-bit index arithmetic
// R0: remark: pearl-schedule: loop nest left unchanged: code generation: the upper bound of the loop at depth 0 could overflow 64-bit index arithmetic
// INC: remark: pearl-schedule: loop nest left unchanged: code generation: the increment of the loop at depth 0 past its last iteration could overflow 64-bit index arithmetic
// MUL: remark: pearl-schedule: loop nest left unchanged: code generation: an iterator of a statement at depth 2 could overflow 64-bit index arithmetic
// OK-NOT: left unchanged
// SAME: pearl-exec: outputs identical

//--- lim.mlir
func.func @f(%A: memref<4x4xi64>, %B: memref<8xi64>) {
  affine.for %i = 4611686018427387900 to 4611686018427387904 {
    affine.for %j = 4611686018427387900 to 4611686018427387904 {
      %a = affine.load %A[%i - 4611686018427387900, %j - 4611686018427387900] : memref<4x4xi64>
      %ci = arith.index_cast %i : index to i64
      %s = arith.addi %a, %ci : i64
      affine.store %s, %A[%i - 4611686018427387900, %j - 4611686018427387900] : memref<4x4xi64>
    } }
  affine.for %k = -9223372036854775807 to 1 step 4611686018427387904 {
    %b = affine.load %B[%k floordiv 4611686018427387904 + 2] : memref<8xi64>
    %ck = arith.index_cast %k : index to i64
    %t = arith.addi %b, %ck : i64
    affine.store %t, %B[%k floordiv 4611686018427387904 + 2] : memref<8xi64>
  }
  return
}

//--- big.mlir
// c0 = 2i - j and c1 = i fit, but j = 2 * c1 - c0 computes 2 * c1 ~ 10^19.
func.func @big(%A: memref<4x4xi64>) {
  affine.for %i = 5000000000000000000 to 5000000000000000004 {
    affine.for %j = 5000000000000000000 to 5000000000000000004 {
      %a = affine.load %A[%i - 5000000000000000000, %j - 5000000000000000000] : memref<4x4xi64>
      %cj = arith.index_cast %j : index to i64
      %s = arith.addi %a, %cj : i64
      affine.store %s, %A[%i - 5000000000000000000, %j - 5000000000000000000] : memref<4x4xi64>
    }
  }
  return
}
