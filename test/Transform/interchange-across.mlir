// Interchange across a sequence: I(l,l+1) where loop l's body is a
// sequence of parts and loop l+1 is one of them. Loop l+1 becomes the
// outer loop; the other parts run in the iteration of the new outer loop
// equal to their loop l value, in their place, before the inner loop or
// after it, whichever first keeps every dependence. Every applied schedule
// computes the outputs of the original program.
// RUN: split-file %s %t
// RUN: %pearl_opt %t/lu.mlir '--pearl-schedule=agent=none' -o %t/lu.orig.mlir

// LU's lower triangle: for each row i and column j < i, a dot product over
// k < j, then the division by A[j][j]. I(1,2) makes it the row's
// triangular solve by columns (k outside j): the division of A[i][k] runs
// first in iteration k, since the updates of the later columns read it.
// RUN: %pearl_opt %t/lu.mlir '--pearl-schedule=schedule="I(1,2)" print-schedule=1' -o %t/i12.mlir 2>&1 | FileCheck %s --check-prefix=I12
// RUN: %pearl_exec --entry=kernel %t/lu.mlir %t/i12.mlir | FileCheck %s --check-prefix=SAME
// I12-LABEL: schedule @kernel region 0: "I(1,2)"
// I12:       ast:
// I12-NEXT:    for (int c0 = 1; c0 <= 9; c0 += 1) {
// I12-NEXT:      for (int c1 = 0; c1 < c0; c1 += 1) {
// I12-NEXT:        S1(c0, c1);
// I12-NEXT:        for (int c2 = c1 + 1; c2 < c0; c2 += 1)
// I12-NEXT:          S0(c0, c2, c1);
// I12-NEXT:      }
// I12:       remark: pearl-schedule: branch 0: applied I(1,2)

// Interchanged back (the second I(1,2), on branch 1, acts on the new outer
// loop and the column loop inside it): the division can only go after the
// k loop, and the code is the original again.
// RUN: %pearl_opt %t/lu.mlir '--pearl-schedule=schedule="I(1,2) N I(1,2)"' -o %t/back.mlir 2>&1 | FileCheck %s --check-prefix=BACK
// RUN: diff %t/lu.orig.mlir %t/back.mlir
// BACK: remark: pearl-schedule: branch 0: applied I(1,2); branch 1: applied I(1,2)

// Right-looking LU from the same actions: fuse the two column loops of a
// row, move the k loops of both triangles out (I(1,2) on each), and then
// outside the rows (I(0,1)); the rows of one step run in parallel and the
// innermost loops are vectorized.
// RUN: %pearl_opt %t/lu.mlir '--pearl-schedule=schedule="F(1) I(1,2) N I(1,2) I(0,1) P(1) V(8) N V(8)" print-schedule=1' -o %t/rl.mlir 2>&1 | FileCheck %s --check-prefix=RL
// RUN: %pearl_exec --entry=kernel %t/lu.mlir %t/rl.mlir | FileCheck %s --check-prefix=SAME
// RL-LABEL: schedule @kernel region 0:
// RL:       ast:
// RL-NEXT:    for (int c0 = 0; c0 <= 8; c0 += 1) {
// RL-NEXT:      // parallel
// RL-NEXT:      for (int c1 = c0 + 1; c1 <= 9; c1 += 1) {
// RL-NEXT:        S1(c1, c0);
// RL-NEXT:        // vectorize
// RL-NEXT:        for (int c2 = c1; c2 <= 9; c2 += 1)
// RL-NEXT:          S2(c1, c2, c0);
// RL-NEXT:        // vectorize
// RL-NEXT:        for (int c2 = c0 + 1; c2 < c1; c2 += 1)
// RL-NEXT:          S0(c1, c2, c0);
// RL-NEXT:      }
// RL:       remark: pearl-schedule: branch 0: applied F(1,0) I(1,2); branch 1: applied I(1,2) I(0,1) P(1) V(8); branch 2: applied V(8)
// RUN: FileCheck %s --check-prefix=RL-IR < %t/rl.mlir
// RL-IR: affine.parallel
// RL-IR-NOT: affine.parallel

// Refusals leave the code as it was. Across the sequence {the k loop, the
// division}, the order of the division matters: the k loop is marked to
// be vectorized once V(8) is applied, and marked loops are not moved
// across a sequence (the second I(1,2) below is refused). gemm's
// initialization C[i][j] = 0 must run before every term of its sum: in no
// place beside the k loop moved out does it (the refusal names the
// violated dependence).
// RUN: %pearl_opt %t/lu.mlir '--pearl-schedule=schedule="I(1,2) N V(8) I(1,2)"' -o %t/marked.mlir 2>&1 | FileCheck %s --check-prefix=MARKED
// RUN: %pearl_exec --entry=kernel %t/lu.mlir %t/marked.mlir | FileCheck %s --check-prefix=SAME
// MARKED: branch 0: applied I(1,2); branch 1: applied V(8); branch 1: refused I(1,2) (loops 1..2 of branch 1 are not perfectly nested, and one of them is marked to unroll, jam, vectorize or copy: only unmarked loops are interchanged across a sequence)
// RUN: %pearl_opt %t/gemm.mlir '--pearl-schedule=agent=none' -o %t/gemm.orig.mlir
// RUN: %pearl_opt %t/gemm.mlir '--pearl-schedule=schedule="N I(1,2)"' -o %t/gemm.i12.mlir 2>&1 | FileCheck %s --check-prefix=INIT
// RUN: diff %t/gemm.orig.mlir %t/gemm.i12.mlir
// INIT: branch 1: refused I(1,2) (violates RAW dependence { S0[i0, i1] -> S1[

// SAME: pearl-exec: outputs identical

//--- lu.mlir
// outputs: 0

// A diagonally dominant matrix (init uses scf loops, which the pass leaves
// alone).
func.func @init(%A: memref<10x10xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %big = arith.constant 40.0 : f64
  scf.for %i = %c0 to %c10 step %c1 {
    scf.for %j = %c0 to %c10 step %c1 {
      %q = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5 + 1) mod 13 + 1)>(%i, %j)
      %n = arith.index_cast %q : index to i32
      %f = arith.sitofp %n : i32 to f64
      %d = arith.cmpi eq, %i, %j : index
      %g = arith.addf %f, %big : f64
      %v = arith.select %d, %g, %f : f64
      memref.store %v, %A[%i, %j] : memref<10x10xf64>
    }
  }
  return
}

// PolyBench's lu, in place.
func.func @kernel(%A: memref<10x10xf64>) {
  affine.for %i = 0 to 10 {
    affine.for %j = 0 to affine_map<(d0) -> (d0)>(%i) {
      affine.for %k = 0 to affine_map<(d0) -> (d0)>(%j) {
        %aij = affine.load %A[%i, %j] : memref<10x10xf64>
        %aik = affine.load %A[%i, %k] : memref<10x10xf64>
        %akj = affine.load %A[%k, %j] : memref<10x10xf64>
        %0 = arith.mulf %aik, %akj : f64
        %1 = arith.subf %aij, %0 : f64
        affine.store %1, %A[%i, %j] : memref<10x10xf64>
      }
      %aij = affine.load %A[%i, %j] : memref<10x10xf64>
      %ajj = affine.load %A[%j, %j] : memref<10x10xf64>
      %0 = arith.divf %aij, %ajj : f64
      affine.store %0, %A[%i, %j] : memref<10x10xf64>
    }
    affine.for %j = affine_map<(d0) -> (d0)>(%i) to 10 {
      affine.for %k = 0 to affine_map<(d0) -> (d0)>(%i) {
        %aij = affine.load %A[%i, %j] : memref<10x10xf64>
        %aik = affine.load %A[%i, %k] : memref<10x10xf64>
        %akj = affine.load %A[%k, %j] : memref<10x10xf64>
        %0 = arith.mulf %aik, %akj : f64
        %1 = arith.subf %aij, %0 : f64
        affine.store %1, %A[%i, %j] : memref<10x10xf64>
      }
    }
  }
  return
}

//--- gemm.mlir
// outputs: 2

func.func @init(%A: memref<8x6xf64>, %B: memref<6x7xf64>, %C: memref<8x7xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %q = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5 + 1) mod 13 + 1)>(%i, %j)
      %n = arith.index_cast %q : index to i32
      %f = arith.sitofp %n : i32 to f64
      %c6 = arith.constant 6 : index
      %c7 = arith.constant 7 : index
      %ia = arith.cmpi ult, %j, %c6 : index
      scf.if %ia {
        memref.store %f, %A[%i, %j] : memref<8x6xf64>
      }
      %ib = arith.cmpi ult, %i, %c6 : index
      %jb = arith.cmpi ult, %j, %c7 : index
      %b = arith.andi %ib, %jb : i1
      scf.if %b {
        memref.store %f, %B[%i, %j] : memref<6x7xf64>
      }
    }
  }
  return
}

// C = A * B with C[i][j] set to 0 before its sum.
func.func @kernel(%A: memref<8x6xf64>, %B: memref<6x7xf64>, %C: memref<8x7xf64>) {
  %zero = arith.constant 0.0 : f64
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 7 {
      affine.store %zero, %C[%i, %j] : memref<8x7xf64>
      affine.for %k = 0 to 6 {
        %a = affine.load %A[%i, %k] : memref<8x6xf64>
        %b = affine.load %B[%k, %j] : memref<6x7xf64>
        %c = affine.load %C[%i, %j] : memref<8x7xf64>
        %p = arith.mulf %a, %b : f64
        %s = arith.addf %c, %p : f64
        affine.store %s, %C[%i, %j] : memref<8x7xf64>
      }
    }
  }
  return
}
