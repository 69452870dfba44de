// isl writes the remainders of non-negative dividends with `%`, e.g. the
// lower bound (c0 + 18) % 3 of a loop of step 3 below (pearl-gen --seed
// 53149 --size-scale small: B[i1] = max(B[i1], A[i1][i0]) under
// T(0,1,3,3) T(0,1,3,8) S(0,1,3,-1), found by fuzzing). The code generator
// wrote them as MLIR's `mod`, which MLIR 22 folds wrongly in affine.for
// bounds: its range analysis bounds `x mod c` from below by the remainder
// of x's lower bound, so any greedy rewrite (canonicalize, or
// expand-strided-metadata, the first pass of Pearl's own lowering) replaced
// the bound d0 mod 3 over d0 in [-16, 64) by the constant 2, losing a third
// of the iterations (WRONG_OUTPUT in pearl-env, a legal schedule). The
// remainder is now written x + ceildiv(-x, c) * c, which MLIR neither turns
// back into a mod nor bounds wrongly: the outputs are identical, also after
// canonicalization.
// RUN: split-file %s %t
// RUN: %pearl_opt %t/kernel.mlir '--pearl-schedule=schedule="T(0,1,3,3) T(0,1,3,8) S(0,1,3,-1)" print-schedule' -o %t/sched.mlir | FileCheck %s --check-prefix=AST
// RUN: FileCheck %s --check-prefix=IR < %t/sched.mlir
// RUN: %pearl_exec --entry=kernel %t/kernel.mlir %t/sched.mlir | FileCheck %s --check-prefix=SAME
// RUN: mlir-opt --canonicalize %t/sched.mlir -o %t/canon.mlir
// RUN: FileCheck %s --check-prefix=CANON < %t/canon.mlir
// RUN: %pearl_exec --entry=kernel %t/kernel.mlir %t/canon.mlir | FileCheck %s --check-prefix=SAME
// The training environment runs the whole program and compares outputs.
// RUN: %pearl_env --runs 1 --schedule "T(0,1,3,3) T(0,1,3,8) S(0,1,3,-1)" %t/prog.mlir 2>&1 | FileCheck %s --check-prefix=ENV

// AST:      for (int c0 = -16; c0 <= 63; c0 += 1)
// AST:        for (int c2 = (c0 + 18) % 3; c2 <= 7; c2 += 3)

// IR-NOT:   {{ mod }}
// IR:       affine_map<(d0) -> (d0 + ((-(d0 + 18)) ceildiv 3) * 3 + 18)>
// IR-NOT:   {{ mod }}

// CANON-NOT: affine.for %{{.*}} = 2 to 8 step 3

// SAME: pearl-exec: outputs identical

// ENV:     prog {{[0-9a-f]+}} OK
// ENV-NOT: WRONG

//--- kernel.mlir
func.func @kernel(%A: memref<24x24xi32>, %B: memref<24xi32>) {
  affine.for %i0 = 0 to 24 {
    affine.for %i1 = 0 to 24 {
      %v0 = affine.load %B[%i1] : memref<24xi32>
      %v1 = affine.load %A[%i1, %i0] : memref<24x24xi32>
      %v2 = arith.maxsi %v0, %v1 : i32
      affine.store %v2, %B[%i1] : memref<24xi32>
    }
  }
  return
}

//--- prog.mlir
// outputs: 1
func.func @init(%A: memref<24x24xi32>, %B: memref<24xi32>) {
  affine.for %i0 = 0 to 24 {
    affine.for %i1 = 0 to 24 {
      %q = affine.apply affine_map<(d0, d1) -> ((d0 * 1 + d1 * 3 + 1) mod 13 - 6)>(%i0, %i1)
      %n = arith.index_cast %q : index to i32
      affine.store %n, %A[%i0, %i1] : memref<24x24xi32>
    }
  }
  affine.for %i0 = 0 to 24 {
    %q = affine.apply affine_map<(d0) -> ((d0 * 3 + 2) mod 17 - 8)>(%i0)
    %n = arith.index_cast %q : index to i32
    affine.store %n, %B[%i0] : memref<24xi32>
  }
  return
}

func.func @kernel(%A: memref<24x24xi32>, %B: memref<24xi32>) {
  affine.for %i0 = 0 to 24 {
    affine.for %i1 = 0 to 24 {
      %v0 = affine.load %B[%i1] : memref<24xi32>
      %v1 = affine.load %A[%i1, %i0] : memref<24x24xi32>
      %v2 = arith.maxsi %v0, %v1 : i32
      affine.store %v2, %B[%i1] : memref<24xi32>
    }
  }
  return
}
