// The code generator leaves a region unchanged when its code after
// unrolling would exceed 30,000 operations: five unrolls and the versions
// of their bounds made 48,000 here (a fuzzer-found schedule, pearl-gen
// seed 700034), which LLVM's -O3 did not compile in 5 minutes. The same
// nest with fewer unrolls is rewritten. (check-ast=0 time-limit=60: the
// check that isl's AST runs each instance once took over the 4 s limit on
// a slower machine, and left the nest unchanged for that reason before
// the code generator's limit was reached.)
// RUN: %pearl_opt %s --mlir-disable-threading '--pearl-schedule=schedule="I(0,1) S(1,2,5,3) U(13) J(0,3) T(0,1,2,2,16,5) J(2,3) I(6,1) K(7) V(8) P(3) J(5,4) P(8) U(4)" time-limit=60 check-ast=0' -o %t.big.mlir 2>&1 | FileCheck %s --check-prefix=BIG
// RUN: %pearl_opt %s -o %t.orig.mlir
// RUN: diff %t.orig.mlir %t.big.mlir
// RUN: %pearl_opt %s --mlir-disable-threading '--pearl-schedule=schedule="I(0,1) J(0,3)"' 2>&1 -o /dev/null | FileCheck %s --check-prefix=SMALL
// BIG: remark: pearl-schedule: loop nest left unchanged: code generation: the unrolled code would exceed 30000 operations
// SMALL: remark: pearl-schedule: branch 0: applied I(0,1) J(0,3)
// SMALL-NOT: left unchanged

func.func @kernel(%A: memref<11x11xi32>, %B: memref<11x11xi32>, %C: memref<11x11xi32>) {
  %k0 = arith.constant 2 : i32
  affine.for %i0 = 0 to 11 {
    affine.for %i1 = 0 to 11 {
      affine.for %i2 = 0 to affine_map<(d0, d1) -> (d0 + 1)>(%i0, %i1) {
        %v0 = affine.load %C[%i2, %i0] : memref<11x11xi32>
        %v1 = affine.load %A[%i2, %i1] : memref<11x11xi32>
        %v2 = affine.load %B[%i1, %i0] : memref<11x11xi32>
        %v3 = arith.muli %v1, %v2 : i32
        %v4 = arith.muli %v3, %k0 : i32
        %v5 = arith.addi %v0, %v4 : i32
        affine.store %v5, %C[%i2, %i0] : memref<11x11xi32>
      }
    }
  }
  return
}
