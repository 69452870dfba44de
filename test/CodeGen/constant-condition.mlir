// isl's AST generator can write a condition that is a constant, e.g.
// "if (1)" (with disjunctions allowed, on skewed, twice tiled bands). The
// code generator took it for a malformed comparison and left the nest
// unchanged ("condition is not a comparison"), although the schedule is
// legal. Here (pearl-gen --seed 110406 --size-scale small, an if-guarded
// copy; found by fuzzing) the schedule is now generated and the outputs
// are right. (check-ast=0: the check that isl's AST runs each instance
// once takes minutes on this schedule; without it the nest is refused.)
// RUN: split-file %s %t
// RUN: %pearl_opt %t/prog.mlir '--pearl-schedule=schedule="I(0,1) T(0,1,4,13) S(1,2) S(2,3,5,3) T(1,2,2,16) S(0,1)" time-limit=0 check-ast=0' -o %t/sched.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %pearl_exec --entry=kernel %t/prog.mlir %t/sched.mlir | FileCheck %s --check-prefix=SAME

// REMARK:     remark: pearl-schedule: branch 0: applied I(0,1) T(0,1,4,13) S(1,2) S(2,3,5,3) T(1,2,2,16) S(0,1)
// REMARK-NOT: left unchanged
// SAME: pearl-exec: outputs identical

//--- prog.mlir
// outputs: 1
// generator: pearl-gen --seed 110406 --size-scale small (1152 operations, estimated 0 ms unscheduled)
// summary: nests=1 depth=2 kinds=elementwise types=f32 features=if
// nest 0: elementwise: rank 2, if-guarded

func.func @init(%A: memref<24x24xf32>, %B: memref<24x24xf32>) {
  affine.for %i0 = 0 to 24 {
    affine.for %i1 = 0 to 24 {
      %q = affine.apply affine_map<(d0, d1) -> ((d0 * 1 + d1 * 3 + 1) mod 13 + 1)>(%i0, %i1)
      %n = arith.index_cast %q : index to i32
      %f = arith.sitofp %n : i32 to f32
      %m = arith.constant 14.0 : f32
      %x = arith.divf %f, %m : f32
      affine.store %x, %A[%i0, %i1] : memref<24x24xf32>
    }
  }
  affine.for %i0 = 0 to 24 {
    affine.for %i1 = 0 to 24 {
      %q = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5 + 2) mod 17 + 1)>(%i0, %i1)
      %n = arith.index_cast %q : index to i32
      %f = arith.sitofp %n : i32 to f32
      %m = arith.constant 18.0 : f32
      %x = arith.divf %f, %m : f32
      affine.store %x, %B[%i0, %i1] : memref<24x24xf32>
    }
  }
  return
}

func.func @kernel(%A: memref<24x24xf32>, %B: memref<24x24xf32>) {
  affine.for %i0 = 0 to 24 {
    affine.for %i1 = 0 to 24 {
      affine.if affine_set<(d0, d1) : (-d0 + d1 >= 0)>(%i0, %i1) {
        %v0 = affine.load %A[%i0, %i1] : memref<24x24xf32>
        affine.store %v0, %B[%i0, %i1] : memref<24x24xf32>
      }
    }
  }
  return
}
