// Unroll-and-jam J(l,f) (register tiling) and the vectorization hint V(w).
// J strip-mines loop l by f, moves the f-iteration point loop innermost and
// unrolls it: the innermost loop runs f copies of the body side by side.
// V asks LLVM's loop vectorizer for w lanes on the innermost loop (the one
// around J's unrolled loop), through the loop_annotation that Pearl's
// lowering carries into the LLVM IR. Every applied schedule computes the
// original outputs; refusals leave the code as it was.
// RUN: split-file %s %t
// RUN: %pearl_opt %t/mm.mlir '--pearl-schedule=agent=none' -o %t/orig.mlir

// i-k-j matmul, i jammed by 4 into k and j.
// RUN: %pearl_opt %t/mm.mlir '--pearl-schedule=schedule="I(1,2) J(0,4)"' -o %t/j.mlir 2>&1 | FileCheck %s --check-prefix=J
// RUN: FileCheck %s --check-prefix=J-IR < %t/j.mlir
// RUN: %pearl_exec --entry=kernel %t/mm.mlir %t/j.mlir | FileCheck %s --check-prefix=SAME
// J: remark: pearl-schedule: branch 0: applied I(1,2) J(0,4)
// J-IR-LABEL: func.func @kernel
// J-IR:       affine.for %{{.*}} = 0 to 12 step 4 {
// J-IR-NEXT:    affine.for
// J-IR-NEXT:      affine.for
// J-IR-NOT:       affine.for
// J-IR-COUNT-4:   arith.mulf
// J-IR-NOT:       arith.mulf
// J-IR:       return

// Tiled, jammed, vectorized by 8 and parallel; the hint reaches LLVM.
// RUN: %pearl_opt %t/mm.mlir '--pearl-schedule=schedule="I(1,2) T(0,1,4,4) J(2,2) V(8) P(0)"' -o %t/jv.mlir 2>&1 | FileCheck %s --check-prefix=JV
// RUN: FileCheck %s --check-prefix=JV-IR < %t/jv.mlir
// RUN: %pearl_exec --entry=kernel %t/mm.mlir %t/jv.mlir | FileCheck %s --check-prefix=SAME
// RUN: %pearl_exec --lower-only %t/jv.mlir | FileCheck %s --check-prefix=JV-LLVM
// JV: remark: pearl-schedule: branch 0: applied I(1,2) T(0,1,4,4) J(2,2) V(8) P(0)
// JV-IR: #llvm.loop_vectorize<disable = false, width = 8 : i32>
// JV-IR-LABEL: func.func @kernel
// JV-IR: affine.parallel
// JV-IR: loop_annotation =
// JV-LLVM: #llvm.loop_vectorize<disable = false, width = 8 : i32>
// JV-LLVM: llvm.br {{.*}}loop_annotation

// Two unroll-and-jams of one nest: the second one's point loop goes inside
// the first one's, and both are unrolled (inner first; outer first left a
// dangling loop and crashed, a fuzzer-found crash, gen-140003).
// RUN: %pearl_gen --seed 140003 --size-scale small -o %t/gen.mlir --quiet
// RUN: %pearl_opt %t/gen.mlir '--pearl-schedule=schedule="N J(1,4) S(1,2) J(0,5)"' -o %t/jj.mlir 2>&1 | FileCheck %s --check-prefix=JJ
// RUN: %pearl_exec --entry=kernel %t/gen.mlir %t/jj.mlir | FileCheck %s --check-prefix=SAME
// JJ: remark: pearl-schedule: branch 1: applied J(1,4) S(1,2) J(0,5)

// Refusals: J of the innermost loop, a factor larger than the loop, a
// non-perfect chain; V of a width that is not a power of 2, twice.
// RUN: %pearl_opt %t/mm.mlir '--pearl-schedule=schedule="J(2,4) J(0,64) J(0,1) V(3) V(0)"' -o %t/ref.mlir 2>&1 | FileCheck %s --check-prefix=REF
// RUN: diff %t/orig.mlir %t/ref.mlir
// REF: branch 0: refused J(2,4) (loop 2 is the innermost loop of branch 0: no loop inside to jam its copies into (U(f) unrolls it)); branch 0: refused J(0,64) (unroll-and-jam factor 64 is larger than loop 0 (12 iterations)); branch 0: refused J(0,1) (unroll-and-jam factor 1 is below 2); branch 0: refused V(3) (vector width 3 is not a power of 2 from 2 to 64); branch 0: refused V(0) (vector width 0 is not a power of 2 from 2 to 64)
// A J on a tile loop whose values step by at least its factor changes
// nothing: the tile loops of T(0,1,4,4) step by 4, so a group of J's
// copies holds one value. With a factor that divides the step the code is
// T's; with another one only the bounds are written differently (the
// agent masks such jams for the policy, pearl/agent.h).
// RUN: %pearl_opt %t/mm.mlir '--pearl-schedule=schedule="T(0,1,4,4)"' -o %t/t.mlir
// RUN: %pearl_opt %t/mm.mlir '--pearl-schedule=schedule="T(0,1,4,4) J(0,2) J(1,4)"' -o %t/tj.mlir 2>&1 | FileCheck %s --check-prefix=TJ
// TJ: remark: pearl-schedule: branch 0: applied T(0,1,4,4) J(0,2) J(1,4)
// RUN: diff %t/t.mlir %t/tj.mlir
// RUN: %pearl_opt %t/mm.mlir '--pearl-schedule=schedule="T(0,1,4,4) J(1,3)"' -o %t/tj3.mlir 2>&1 | FileCheck %s --check-prefix=TJ3
// TJ3: remark: pearl-schedule: branch 0: applied T(0,1,4,4) J(1,3)
// RUN: %pearl_exec --entry=kernel %t/mm.mlir %t/tj3.mlir | FileCheck %s --check-prefix=SAME
// RUN: %pearl_opt %t/mm.mlir '--pearl-schedule=schedule="I(1,2) V(4) V(4)"' -o /dev/null 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: branch 0: applied I(1,2) V(4); branch 0: refused V(4) (the innermost loop of branch 0 is already vectorized)

// A jam that would reorder a dependence: the j loop of a recurrence along
// i (A[i][j] = A[i-1][j+1] + 1) cannot take copies of i inside it.
// RUN: %pearl_opt %t/rec.mlir '--pearl-schedule=schedule="J(0,2)"' -o %t/rec2.mlir 2>&1 | FileCheck %s --check-prefix=REC
// REC: branch 0: refused J(0,2) (violates RAW dependence

// V on a loop that carries a reduction is refused: with the width hint,
// LLVM reorders the f32 sum (pearl-gen --seed 150288 --size-scale small,
// found by fuzzing: wrong outputs).
// RUN: %pearl_gen --seed 150288 --size-scale small -o %t/red.mlir --quiet
// RUN: %pearl_opt %t/red.mlir --mlir-disable-threading '--pearl-schedule=schedule="N V(2)"' -o %t/red2.mlir 2>&1 | FileCheck %s --check-prefix=RED
// RUN: %pearl_exec --entry=kernel %t/red.mlir %t/red2.mlir | FileCheck %s --check-prefix=SAME
// RED: refused V(2) (loop 2 of branch 1 carries a dependence (e.g. a reduction, which the vectorizer would reorder): it is not vectorized)

// SAME: pearl-exec: outputs identical

//--- mm.mlir
// outputs: 2

func.func @init(%A: memref<12x12xf64>, %B: memref<12x12xf64>, %C: memref<12x12xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c12 = arith.constant 12 : index
  scf.for %i = %c0 to %c12 step %c1 {
    scf.for %j = %c0 to %c12 step %c1 {
      %q = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5 + 1) mod 13 + 1)>(%i, %j)
      %n = arith.index_cast %q : index to i32
      %f = arith.sitofp %n : i32 to f64
      memref.store %f, %A[%i, %j] : memref<12x12xf64>
      %g = arith.addf %f, %f : f64
      memref.store %g, %B[%i, %j] : memref<12x12xf64>
      memref.store %f, %C[%i, %j] : memref<12x12xf64>
    }
  }
  return
}

func.func @kernel(%A: memref<12x12xf64>, %B: memref<12x12xf64>, %C: memref<12x12xf64>) {
  affine.for %i = 0 to 12 {
    affine.for %j = 0 to 12 {
      affine.for %k = 0 to 12 {
        %a = affine.load %A[%i, %k] : memref<12x12xf64>
        %b = affine.load %B[%k, %j] : memref<12x12xf64>
        %c = affine.load %C[%i, %j] : memref<12x12xf64>
        %p = arith.mulf %a, %b : f64
        %s = arith.addf %c, %p : f64
        affine.store %s, %C[%i, %j] : memref<12x12xf64>
      }
    }
  }
  return
}

//--- rec.mlir
// outputs: 0

func.func @init(%A: memref<16x16xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c16 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      %n = arith.index_cast %j : index to i32
      %f = arith.sitofp %n : i32 to f64
      memref.store %f, %A[%i, %j] : memref<16x16xf64>
    }
  }
  return
}

func.func @kernel(%A: memref<16x16xf64>) {
  %one = arith.constant 1.0 : f64
  affine.for %i = 1 to 16 {
    affine.for %j = 0 to 15 {
      %a = affine.load %A[%i - 1, %j + 1] : memref<16x16xf64>
      %s = arith.addf %a, %one : f64
      affine.store %s, %A[%i, %j] : memref<16x16xf64>
    }
  }
  return
}
