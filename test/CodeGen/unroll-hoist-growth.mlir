// An unrolled loop with max / min bounds is versioned by its active
// bounds under a condition, and the condition was hoisted out of the loops
// around it. Hoisting versions the loop it leaves, so everything else in
// that loop (other unrolled loops' versions) was copied into both
// versions, and the code doubled with every unrolled loop of the nest:
// pearl-gen --seed 100294 --size-scale small under the schedule below
// (found by fuzzing as a hang of the pass) grew to 280,000 operations
// after ten unrolled loops and took minutes. The condition is now hoisted
// only out of a loop that holds nothing else: the pass takes about a
// second, and the outputs are the original's.
// RUN: split-file %s %t
// RUN: %pearl_opt %t/prog.mlir '--pearl-schedule=schedule="R(0) N I(2,1) T(1,2,8,8) T(3,4,5,5) T(3,4,4,5) S(6,7,1,1) U(5) S(3,4) S(5,6) S(6,7,-1,-1)" time-limit=120' -o %t/sched.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %python -c "import sys; n = sum(1 for _ in open(sys.argv[1])); print('lines', n); sys.exit(n > 60000)" %t/sched.mlir
// RUN: %pearl_exec --entry=kernel %t/prog.mlir %t/sched.mlir | FileCheck %s --check-prefix=SAME
// RUN: %pearl_env --runs 1 --time-limit 120 --schedule "R(0) N I(2,1) T(1,2,8,8) T(3,4,5,5) T(3,4,4,5) S(6,7,1,1) U(5) S(3,4) S(5,6) S(6,7,-1,-1)" %t/prog.mlir 2>&1 | FileCheck %s --check-prefix=ENV

// REMARK: prog.mlir:{{[0-9]+}}:3: remark: pearl-schedule: branch 0: applied R(0); branch 1: applied I(2,1) T(1,2,8,8) T(3,4,5,5) T(3,4,4,5) S(6,7,1,1) U(5) S(3,4) S(5,6) S(6,7,-1,-1)
// SAME: pearl-exec: outputs identical
// ENV:     prog {{[0-9a-f]+}} OK
// ENV-NOT: WRONG

//--- prog.mlir
// outputs: 2

func.func @init(%A: memref<17x14xi32>, %B: memref<14x15xi32>, %C: memref<17x15xi32>) {
  affine.for %i0 = 0 to 17 {
    affine.for %i1 = 0 to 14 {
      %q = affine.apply affine_map<(d0, d1) -> ((d0 * 1 + d1 * 3 + 1) mod 13 - 6)>(%i0, %i1)
      %n = arith.index_cast %q : index to i32
      affine.store %n, %A[%i0, %i1] : memref<17x14xi32>
    }
  }
  affine.for %i0 = 0 to 14 {
    affine.for %i1 = 0 to 15 {
      %q = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5 + 2) mod 17 - 8)>(%i0, %i1)
      %n = arith.index_cast %q : index to i32
      affine.store %n, %B[%i0, %i1] : memref<14x15xi32>
    }
  }
  affine.for %i0 = 0 to 17 {
    affine.for %i1 = 0 to 15 {
      %q = affine.apply affine_map<(d0, d1) -> ((d0 * 5 + d1 * 7 + 3) mod 23 - 11)>(%i0, %i1)
      %n = arith.index_cast %q : index to i32
      affine.store %n, %C[%i0, %i1] : memref<17x15xi32>
    }
  }
  return
}

func.func @kernel(%A: memref<17x14xi32>, %B: memref<14x15xi32>, %C: memref<17x15xi32>) {
  %k0 = arith.constant 3 : i32
  affine.for %i0 = 0 to 17 {
    affine.for %i1 = 0 to 14 {
      affine.for %i2 = 0 to 15 {
        %v0 = affine.load %C[%i0, %i2] : memref<17x15xi32>
        %v1 = affine.load %A[%i0, %i1] : memref<17x14xi32>
        %v2 = affine.load %B[%i1, %i2] : memref<14x15xi32>
        %v3 = arith.muli %v1, %v2 : i32
        %v4 = arith.addi %v0, %v3 : i32
        affine.store %v4, %C[%i0, %i2] : memref<17x15xi32>
      }
    }
  }
  affine.for %i0 = 0 to 3 {
    affine.for %i1 = 1 to 16 {
      affine.for %i2 = 1 to 14 {
        %v5 = affine.load %C[%i1, %i2] : memref<17x15xi32>
        %v6 = affine.load %C[%i1 - 1, %i2] : memref<17x15xi32>
        %v7 = arith.addi %v5, %v6 : i32
        %v8 = affine.load %C[%i1 + 1, %i2] : memref<17x15xi32>
        %v9 = arith.addi %v7, %v8 : i32
        %v10 = affine.load %C[%i1, %i2 - 1] : memref<17x15xi32>
        %v11 = arith.addi %v9, %v10 : i32
        %a0 = affine.apply affine_map<(d0, d1, d2) -> (d2 + 1)>(%i0, %i1, %i2)
        %v12 = affine.load %C[%i1, %a0] : memref<17x15xi32>
        %v13 = arith.addi %v11, %v12 : i32
        %v14 = arith.shrsi %v13, %k0 : i32
        affine.store %v14, %C[%i1, %i2] : memref<17x15xi32>
      }
    }
  }
  return
}
