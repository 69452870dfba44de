// isl writes values defined piecewise as conditional expressions
// "c ? a : b", and the code generator resolves each into an affine.if
// with a copy of the statement in each arm. A call with several such
// arguments, each a chain of them, multiplies the copies: under the
// schedule below (pearl-gen --seed 100833 --size-scale small, found by
// fuzzing as a hang of the pass), 80 calls of 15 chained conditions each
// took minutes to generate and verify. Past 100,000 generated operations
// the region is now left unchanged, with a remark, in a few seconds.
// (time-limit=60: AST generation takes about a second here, but its
// default limit of 4 s can pass on a loaded machine or under the
// sanitizers, and the nest is then refused earlier, for that reason.
// check-ast=0: the check that isl's AST runs each instance once exceeds
// the isl quota on this schedule and would refuse the nest first, as
// pearl-env, which always checks, does.)
// RUN: split-file %s %t
// RUN: %pearl_opt %t/prog.mlir '--pearl-schedule=schedule="N N S(1,2,1,-3) P(0) U(2) S(1,2,1,2) T(0,1,2,4,5,3) S(2,3) P(5) R(0) S(4,5,1,2) S(3,4,-1,-1)" time-limit=60 check-ast=0' -o %t/sched.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %pearl_exec --entry=kernel %t/prog.mlir %t/sched.mlir | FileCheck %s --check-prefix=SAME
// RUN: %pearl_env --runs 1 --schedule "N N S(1,2,1,-3) P(0) U(2) S(1,2,1,2) T(0,1,2,4,5,3) S(2,3) P(5) R(0) S(4,5,1,2) S(3,4,-1,-1)" %t/prog.mlir 2>&1 | FileCheck %s --check-prefix=ENV

// REMARK: remark: pearl-schedule: loop nest left unchanged: code generation: the code would exceed 100000 operations
// SAME: pearl-exec: outputs identical
// ENV: prog {{[0-9a-f]+}} FAILED {{.*}}: code generation: {{the code would exceed 100000 operations|AST generation .* time limit of 4 s|.*the check of the AST's statement instances.*}}

//--- prog.mlir
// outputs: 1,4

func.func @init(%A: memref<5x5x5xi32>, %B: memref<5x5x5xi32>, %C: memref<5x5x5xi32>, %D: memref<5x4x5x5xi32>, %E: memref<5x4x5xi32>, %F: memref<5xi32>) {
  affine.for %i0 = 0 to 5 {
    affine.for %i1 = 0 to 5 {
      affine.for %i2 = 0 to 5 {
        %q = affine.apply affine_map<(d0, d1, d2) -> ((d0 * 1 + d1 * 3 + d2 * 5 + 1) mod 13 - 6)>(%i0, %i1, %i2)
        %n = arith.index_cast %q : index to i32
        affine.store %n, %A[%i0, %i1, %i2] : memref<5x5x5xi32>
      }
    }
  }
  affine.for %i0 = 0 to 5 {
    affine.for %i1 = 0 to 5 {
      affine.for %i2 = 0 to 5 {
        %q = affine.apply affine_map<(d0, d1, d2) -> ((d0 * 3 + d1 * 5 + d2 * 7 + 2) mod 17 - 8)>(%i0, %i1, %i2)
        %n = arith.index_cast %q : index to i32
        affine.store %n, %B[%i0, %i1, %i2] : memref<5x5x5xi32>
      }
    }
  }
  affine.for %i0 = 0 to 5 {
    affine.for %i1 = 0 to 5 {
      affine.for %i2 = 0 to 5 {
        %q = affine.apply affine_map<(d0, d1, d2) -> ((d0 * 5 + d1 * 7 + d2 * 11 + 3) mod 23 - 11)>(%i0, %i1, %i2)
        %n = arith.index_cast %q : index to i32
        affine.store %n, %C[%i0, %i1, %i2] : memref<5x5x5xi32>
      }
    }
  }
  affine.for %i0 = 0 to 5 {
    affine.for %i1 = 0 to 4 {
      affine.for %i2 = 0 to 5 {
        affine.for %i3 = 0 to 5 {
          %q = affine.apply affine_map<(d0, d1, d2, d3) -> ((d0 * 7 + d1 * 11 + d2 * 13 + d3 * 17 + 4) mod 29 - 14)>(%i0, %i1, %i2, %i3)
          %n = arith.index_cast %q : index to i32
          affine.store %n, %D[%i0, %i1, %i2, %i3] : memref<5x4x5x5xi32>
        }
      }
    }
  }
  affine.for %i0 = 0 to 5 {
    affine.for %i1 = 0 to 4 {
      affine.for %i2 = 0 to 5 {
        %q = affine.apply affine_map<(d0, d1, d2) -> ((d0 * 11 + d1 * 13 + d2 * 17 + 5) mod 31 - 15)>(%i0, %i1, %i2)
        %n = arith.index_cast %q : index to i32
        affine.store %n, %E[%i0, %i1, %i2] : memref<5x4x5xi32>
      }
    }
  }
  affine.for %i0 = 0 to 5 {
    %q = affine.apply affine_map<(d0) -> ((d0 * 13 + 6) mod 37 - 18)>(%i0)
    %n = arith.index_cast %q : index to i32
    affine.store %n, %F[%i0] : memref<5xi32>
  }
  return
}

func.func @kernel(%A: memref<5x5x5xi32>, %B: memref<5x5x5xi32>, %C: memref<5x5x5xi32>, %D: memref<5x4x5x5xi32>, %E: memref<5x4x5xi32>, %F: memref<5xi32>) {
  %k0 = arith.constant 5 : i32
  %k1 = arith.constant 7 : i32
  affine.for %i0 = 0 to 5 {
    affine.for %i1 = 0 to 5 {
      affine.for %i2 = 0 to 5 {
        %v0 = affine.load %A[%i0, %i1, %i2] : memref<5x5x5xi32>
        %v1 = arith.muli %v0, %k0 : i32
        %v2 = affine.load %C[%i2, %i1, %i0] : memref<5x5x5xi32>
        %v3 = arith.addi %v1, %v2 : i32
        affine.store %v3, %B[%i0, %i1, %i2] : memref<5x5x5xi32>
      }
    }
  }
  affine.for %i0 = 0 to 5 {
    affine.for %i1 = 0 to 4 {
      affine.for %i2 = 0 to 5 {
        %v4 = affine.load %E[%i0, %i1, %i2] : memref<5x4x5xi32>
        %v5 = arith.muli %v4, %k1 : i32
        affine.store %v5, %E[%i0, %i1, %i2] : memref<5x4x5xi32>
        affine.for %i3 = 0 to 5 {
          %v6 = affine.load %E[%i0, %i1, %i2] : memref<5x4x5xi32>
          %v7 = affine.load %D[%i0, %i1, %i2, %i3] : memref<5x4x5x5xi32>
          %v8 = affine.load %F[%i3] : memref<5xi32>
          %v9 = arith.muli %v7, %v8 : i32
          %v10 = arith.addi %v6, %v9 : i32
          affine.store %v10, %E[%i0, %i1, %i2] : memref<5x4x5xi32>
        }
      }
    }
  }
  return
}
