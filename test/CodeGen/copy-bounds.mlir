// K's copies must stay inside the arrays they copy. On a stencil whose
// loads are inside its array only under an affine.if (the border is
// copied by the else branch), tiled by 32 x 32 on 51 x 51, MLIR's copy
// generation made a loop that copies 82 rows of a 51-row array (found by
// training, pearl-gen --seed 38 --size-scale cache). The code generator
// tries each copy first on a clone of the function, checking every load
// of the copy loops over all their iterations; a copy that would read
// outside is not made, with a remark, and the rest of the schedule is
// (code generator version 14; under 13 the whole region was left
// unchanged). Here the region's first nest is copied (K(0): the buffer
// is allocated in the region's block, before the loop that reads it), and
// the second nest's copy is left out.
// RUN: %pearl_opt %s '--pearl-schedule=agent=none' -o %t.orig.mlir
// RUN: %pearl_opt %s '--pearl-schedule=schedule="K(0)"' -o %t.k0.mlir 2>&1 | FileCheck %s --check-prefix=K0
// RUN: %pearl_exec --entry=kernel %s %t.k0.mlir | FileCheck %s --check-prefix=SAME
// K0: remark: pearl-schedule: branch 0: applied K(0)
// K0: remark: pearl-schedule: 1 array(s) copied before 1 loop(s) (K)
// RUN: %pearl_opt %s '--pearl-schedule=schedule="K(0) N T(0,1,32,32) K(1)"' -o %t.out.mlir 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=TILED < %t.out.mlir
// RUN: %pearl_exec --entry=kernel %s %t.out.mlir | FileCheck %s --check-prefix=SAME
// CHECK: remark: pearl-schedule: branch 0: applied K(0); branch 1: applied T(0,1,32,32) K(1)
// CHECK: remark: pearl-schedule: 1 array(s) copied before 2 loop(s) (K), 1 not, of which 1 because the copy MLIR would make may read outside the array
// CHECK-NOT: left unchanged
// The region is rewritten: one buffer (K(0)'s), and the second nest tiled.
// TILED-COUNT-1: memref.alloc
// TILED: affine.for {{.*}} step 32
// SAME: pearl-exec: outputs identical

// outputs: 1,3

func.func @init(%E: memref<51x51xf32>, %F: memref<51x51xf32>, %C: memref<51x51xf32>, %D: memref<51x51xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c51 = arith.constant 51 : index
  scf.for %i = %c0 to %c51 step %c1 {
    scf.for %j = %c0 to %c51 step %c1 {
      %q = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5 + 1) mod 13 + 1)>(%i, %j)
      %n = arith.index_cast %q : index to i32
      %f = arith.sitofp %n : i32 to f32
      memref.store %f, %E[%i, %j] : memref<51x51xf32>
      memref.store %f, %C[%i, %j] : memref<51x51xf32>
    }
  }
  return
}

func.func @kernel(%E: memref<51x51xf32>, %F: memref<51x51xf32>, %C: memref<51x51xf32>, %D: memref<51x51xf32>) {
  %two = arith.constant 2.0 : f32
  affine.for %i = 0 to 51 {
    affine.for %j = 0 to 51 {
      %e = affine.load %E[%i, %j] : memref<51x51xf32>
      %p = arith.mulf %e, %two : f32
      affine.store %p, %F[%i, %j] : memref<51x51xf32>
    }
  }
  affine.for %i0 = 0 to 51 {
    affine.for %i1 = 0 to 51 {
      affine.if affine_set<(d0, d1) : (d0 - 2 >= 0, -d0 + 48 >= 0, d1 - 2 >= 0, -d1 + 48 >= 0)>(%i0, %i1) {
        %v3 = affine.load %C[%i0, %i1] : memref<51x51xf32>
        %v4 = affine.load %C[%i0 - 1, %i1] : memref<51x51xf32>
        %v5 = arith.maximumf %v3, %v4 : f32
        %v6 = affine.load %C[%i0 + 1, %i1] : memref<51x51xf32>
        %v7 = arith.maximumf %v5, %v6 : f32
        %v8 = affine.load %C[%i0 - 2, %i1] : memref<51x51xf32>
        %v9 = arith.maximumf %v7, %v8 : f32
        %v10 = affine.load %C[%i0 + 2, %i1] : memref<51x51xf32>
        %v11 = arith.maximumf %v9, %v10 : f32
        %v12 = affine.load %C[%i0, %i1 - 1] : memref<51x51xf32>
        %v13 = arith.maximumf %v11, %v12 : f32
        %v14 = affine.load %C[%i0, %i1 + 1] : memref<51x51xf32>
        %v15 = arith.maximumf %v13, %v14 : f32
        %v16 = affine.load %C[%i0, %i1 - 2] : memref<51x51xf32>
        %v17 = arith.maximumf %v15, %v16 : f32
        %v18 = affine.load %C[%i0, %i1 + 2] : memref<51x51xf32>
        %v19 = arith.maximumf %v17, %v18 : f32
        affine.store %v19, %D[%i0, %i1] : memref<51x51xf32>
      } else {
        %v20 = affine.load %C[%i0, %i1] : memref<51x51xf32>
        affine.store %v20, %D[%i0, %i1] : memref<51x51xf32>
      }
    }
  }
  return
}
