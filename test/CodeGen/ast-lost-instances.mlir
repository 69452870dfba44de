// isl's AST generator run without disjunctive conditions (the option
// ast_build_allow_or off, as Pearl ran it because an affine.if holds only
// conjunctions) loses instances on some skewed schedules. Here (pearl-gen
// --seed 101030 --size-scale small, a 7-point stencil that reads C and
// writes D, with its boundary copy as a second statement; found by
// fuzzing) the skews of the second nest, legal since its instances do not
// depend on each other, gave WRONG_OUTPUT, and isl leaked an if node.
// Pearl now lets isl write disjunctions, which the code generator turns
// into nested affine.ifs (disjunction.mlir): the outputs are right.
// RUN: split-file %s %t
// RUN: %pearl_opt %t/prog.mlir '--pearl-schedule=schedule="N S(0,1) S(1,2,1,2) S(1,2,2,-1)"' -o %t/sched.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %pearl_exec --entry=kernel %t/prog.mlir %t/sched.mlir | FileCheck %s --check-prefix=SAME
// RUN: %pearl_env --runs 1 --schedule "N S(0,1) S(1,2,1,2) S(1,2,2,-1)" %t/prog.mlir 2>&1 | FileCheck %s --check-prefix=ENV

// REMARK-NOT: isl_ctx not freed
// REMARK:     remark: pearl-schedule: branch 1: applied S(0,1) S(1,2,1,2) S(1,2,2,-1)
// REMARK-NOT: isl_ctx not freed
// SAME: pearl-exec: outputs identical
// ENV:     prog {{[0-9a-f]+}} OK
// ENV-NOT: WRONG

//--- prog.mlir
// outputs: 2,3,5

func.func @init(%A: memref<6x6x6xf32>, %B: memref<6x6x6xf32>, %C: memref<6x6x6xf32>, %D: memref<6x6x6xf32>, %E: memref<6x6xf32>, %F: memref<6x6xf32>, %G: memref<3x3xf32>) {
  affine.for %i0 = 0 to 6 {
    affine.for %i1 = 0 to 6 {
      affine.for %i2 = 0 to 6 {
        %q = affine.apply affine_map<(d0, d1, d2) -> ((d0 * 1 + d1 * 3 + d2 * 5 + 1) mod 13 + 1)>(%i0, %i1, %i2)
        %n = arith.index_cast %q : index to i32
        %f = arith.sitofp %n : i32 to f32
        %m = arith.constant 14.0 : f32
        %x = arith.divf %f, %m : f32
        affine.store %x, %A[%i0, %i1, %i2] : memref<6x6x6xf32>
      }
    }
  }
  affine.for %i0 = 0 to 6 {
    affine.for %i1 = 0 to 6 {
      affine.for %i2 = 0 to 6 {
        %q = affine.apply affine_map<(d0, d1, d2) -> ((d0 * 3 + d1 * 5 + d2 * 7 + 2) mod 17 + 1)>(%i0, %i1, %i2)
        %n = arith.index_cast %q : index to i32
        %f = arith.sitofp %n : i32 to f32
        %m = arith.constant 18.0 : f32
        %x = arith.divf %f, %m : f32
        affine.store %x, %B[%i0, %i1, %i2] : memref<6x6x6xf32>
      }
    }
  }
  affine.for %i0 = 0 to 6 {
    affine.for %i1 = 0 to 6 {
      affine.for %i2 = 0 to 6 {
        %q = affine.apply affine_map<(d0, d1, d2) -> ((d0 * 5 + d1 * 7 + d2 * 11 + 3) mod 23 + 1)>(%i0, %i1, %i2)
        %n = arith.index_cast %q : index to i32
        %f = arith.sitofp %n : i32 to f32
        %m = arith.constant 24.0 : f32
        %x = arith.divf %f, %m : f32
        affine.store %x, %C[%i0, %i1, %i2] : memref<6x6x6xf32>
      }
    }
  }
  affine.for %i0 = 0 to 6 {
    affine.for %i1 = 0 to 6 {
      affine.for %i2 = 0 to 6 {
        %q = affine.apply affine_map<(d0, d1, d2) -> ((d0 * 7 + d1 * 11 + d2 * 13 + 4) mod 29 + 1)>(%i0, %i1, %i2)
        %n = arith.index_cast %q : index to i32
        %f = arith.sitofp %n : i32 to f32
        %m = arith.constant 30.0 : f32
        %x = arith.divf %f, %m : f32
        affine.store %x, %D[%i0, %i1, %i2] : memref<6x6x6xf32>
      }
    }
  }
  affine.for %i0 = 0 to 6 {
    affine.for %i1 = 0 to 6 {
      %q = affine.apply affine_map<(d0, d1) -> ((d0 * 11 + d1 * 13 + 5) mod 31 + 1)>(%i0, %i1)
      %n = arith.index_cast %q : index to i32
      %f = arith.sitofp %n : i32 to f32
      %m = arith.constant 32.0 : f32
      %x = arith.divf %f, %m : f32
      affine.store %x, %E[%i0, %i1] : memref<6x6xf32>
    }
  }
  affine.for %i0 = 0 to 6 {
    affine.for %i1 = 0 to 6 {
      %q = affine.apply affine_map<(d0, d1) -> ((d0 * 13 + d1 * 17 + 6) mod 37 + 1)>(%i0, %i1)
      %n = arith.index_cast %q : index to i32
      %f = arith.sitofp %n : i32 to f32
      %m = arith.constant 38.0 : f32
      %x = arith.divf %f, %m : f32
      affine.store %x, %F[%i0, %i1] : memref<6x6xf32>
    }
  }
  affine.for %i0 = 0 to 3 {
    affine.for %i1 = 0 to 3 {
      %q = affine.apply affine_map<(d0, d1) -> ((d0 * 17 + d1 * 1 + 7) mod 13 + 1)>(%i0, %i1)
      %n = arith.index_cast %q : index to i32
      %f = arith.sitofp %n : i32 to f32
      %m = arith.constant 14.0 : f32
      %x = arith.divf %f, %m : f32
      affine.store %x, %G[%i0, %i1] : memref<3x3xf32>
    }
  }
  return
}

func.func @kernel(%A: memref<6x6x6xf32>, %B: memref<6x6x6xf32>, %C: memref<6x6x6xf32>, %D: memref<6x6x6xf32>, %E: memref<6x6xf32>, %F: memref<6x6xf32>, %G: memref<3x3xf32>) {
  %k0 = arith.constant 7.0 : f32
  %k1 = arith.constant 0.0 : f32
  affine.for %i0 = 0 to 6 {
    affine.for %i1 = 0 to 6 {
      affine.for %i2 = 0 to 6 {
        affine.for %i3 = 0 to 6 {
          %v0 = affine.load %C[%i0, %i1, %i3] : memref<6x6x6xf32>
          %v1 = affine.load %A[%i0, %i1, %i2] : memref<6x6x6xf32>
          %v2 = affine.load %B[%i0, %i2, %i3] : memref<6x6x6xf32>
          %v3 = arith.mulf %v1, %v2 : f32
          %v4 = arith.addf %v0, %v3 : f32
          affine.store %v4, %C[%i0, %i1, %i3] : memref<6x6x6xf32>
        }
      }
    }
  }
  affine.for %i0 = 0 to 6 {
    affine.for %i1 = 0 to 6 {
      affine.for %i2 = 0 to 6 {
        affine.if affine_set<(d0, d1, d2) : (d0 - 1 >= 0, -d0 + 4 >= 0, d1 - 1 >= 0, -d1 + 4 >= 0, d2 - 1 >= 0, -d2 + 4 >= 0)>(%i0, %i1, %i2) {
          %v5 = affine.load %C[%i0, %i1, %i2] : memref<6x6x6xf32>
          %v6 = affine.load %C[%i0 - 1, %i1, %i2] : memref<6x6x6xf32>
          %v7 = arith.addf %v5, %v6 : f32
          %v8 = affine.load %C[%i0 + 1, %i1, %i2] : memref<6x6x6xf32>
          %v9 = arith.addf %v7, %v8 : f32
          %v10 = affine.load %C[%i0, %i1 - 1, %i2] : memref<6x6x6xf32>
          %v11 = arith.addf %v9, %v10 : f32
          %v12 = affine.load %C[%i0, %i1 + 1, %i2] : memref<6x6x6xf32>
          %v13 = arith.addf %v11, %v12 : f32
          %v14 = affine.load %C[%i0, %i1, %i2 - 1] : memref<6x6x6xf32>
          %v15 = arith.addf %v13, %v14 : f32
          %v16 = affine.load %C[%i0, %i1, %i2 + 1] : memref<6x6x6xf32>
          %v17 = arith.addf %v15, %v16 : f32
          %v18 = arith.divf %v17, %k0 : f32
          affine.store %v18, %D[%i0, %i1, %i2] : memref<6x6x6xf32>
        } else {
          %v19 = affine.load %C[%i0, %i1, %i2] : memref<6x6x6xf32>
          affine.store %v19, %D[%i0, %i1, %i2] : memref<6x6x6xf32>
        }
      }
    }
  }
  affine.for %i0 = 0 to 4 {
    affine.for %i1 = 0 to 4 {
      affine.store %k1, %F[%i0, %i1] : memref<6x6xf32>
      affine.for %i2 = 0 to 3 {
        affine.for %i3 = 0 to 3 {
          %v20 = affine.load %F[%i0, %i1] : memref<6x6xf32>
          %v21 = affine.load %E[%i0 + %i2, %i1 + %i3] : memref<6x6xf32>
          %v22 = affine.load %G[%i2, %i3] : memref<3x3xf32>
          %v23 = arith.mulf %v21, %v22 : f32
          %v24 = arith.addf %v20, %v23 : f32
          affine.store %v24, %F[%i0, %i1] : memref<6x6xf32>
        }
      }
    }
  }
  return
}
