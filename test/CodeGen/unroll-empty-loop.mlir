// MLIR's affine unroller takes a loop's trip count to be
// ceildiv(ub - lb, step), never clamped at 0: unrolled by f, its main loop
// ends and its cleanup loop starts at lb + floor(tc / f) * f * step, which
// lies below ub when the loop runs with ub < lb (tc < 0, f not dividing
// it), and the cleanup loop then runs iterations the loop never had. isl
// leaves a loop empty rather than guarding it when its bounds make it so,
// and the unroller's versions of a loop with max / min bounds run with the
// active pair of bounds, which cross whenever the loop is empty. Here
// (pearl-gen --seed 100014 --size-scale small: a 2-d 9-point box stencil,
// Gauss-Seidel in place, found by fuzzing) the point loop of a skewed
// 3-wide tile runs from max(0, x + 1) to min(3, x + 11): its versions
// 0 to x + 11 and x + 1 to 3 had spurious iterations for the x where the
// loop is empty, and U(3) and U(2) gave WRONG_OUTPUT in pearl-env (legal
// schedules; without U the outputs were right). A loop that may run with
// a negative trip count (MLIR's affine analysis of the loops and
// conditions around it cannot rule it out) is now unrolled under an
// affine.if that it runs at least once.
// RUN: split-file %s %t
// RUN: %pearl_opt %t/kernel.mlir '--pearl-schedule=schedule="S(0,1) I(0,1) T(0,1,2,3) S(1,2) I(2,1) S(0,1,2,1) I(0,1) I(0,1) U(3)" print-schedule' -o %t/u3.mlir | FileCheck %s --check-prefix=AST
// RUN: FileCheck %s --check-prefix=IR < %t/u3.mlir
// RUN: %pearl_exec --entry=kernel %t/kernel.mlir %t/u3.mlir | FileCheck %s --check-prefix=SAME
// RUN: %pearl_opt %t/kernel.mlir '--pearl-schedule=schedule="S(0,1) I(0,1) T(0,1,2,3) S(1,2) I(2,1) S(0,1,2,1) I(0,1) I(0,1) U(2)"' -o %t/u2.mlir
// RUN: %pearl_exec --entry=kernel %t/kernel.mlir %t/u2.mlir | FileCheck %s --check-prefix=SAME
// The training environment runs the whole program and compares outputs.
// RUN: %pearl_env --runs 1 --schedule "S(0,1) I(0,1) T(0,1,2,3) S(1,2) I(2,1) S(0,1,2,1) I(0,1) I(0,1) U(3)" --schedule "S(0,1) I(0,1) T(0,1,2,3) S(1,2) I(2,1) S(0,1,2,1) I(0,1) I(0,1) U(2)" --schedule "S(0,1) I(0,1) T(0,1,2,3) S(1,2) I(2,1) S(0,1,2,1) I(0,1) I(0,1)" %t/prog.mlir 2>&1 | FileCheck %s --check-prefix=ENV

// AST:      // unroll
// AST-NEXT: for (int c3 = max(0, 2 * (c0 % 4) + c0 - c2 + 1); c3 <= min(2, 2 * (c0 % 4) + c0 - c2 + 10); c3 += 1)

// The condition that the loop runs at least once (x + 11 - 0 >= 1 and
// 3 - (x + 1) >= 1, x = 3 * c0 - c2 + 8 * ceildiv(-c0, 4)) guards the
// versions unrolled with a cleanup loop.
// IR:      [[RUNS:#set[0-9]*]] = affine_set<(d0, d1) : (d0 * 3 - d1 + ((-d0) ceildiv 4) * 8 + 10 >= 0, d0 * -3 + d1 - ((-d0) ceildiv 4) * 8 + 1 >= 0)>
// (The versions' condition stays inside the guard: it is hoisted only out
// of a loop that holds nothing else, see unroll-hoist-growth.mlir.)
// IR:      affine.if [[RUNS]](%{{.*}}, %{{.*}}) {
// IR:        } else {
// IR-NEXT:     affine.if #set{{[0-9]+}}(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {
// IR-NEXT:       affine.for %{{.*}} = #map{{[0-9]+}}(%{{.*}}, %{{.*}}) to #map{{[0-9]+}}(%{{.*}}, %{{.*}}) step 3 {

// SAME: pearl-exec: outputs identical

// ENV-COUNT-3: prog {{[0-9a-f]+}} OK
// ENV-NOT:     WRONG

//--- kernel.mlir
func.func @kernel(%A: memref<17x12xf32>) {
  %k0 = arith.constant 0.0625 : f32
  affine.for %i0 = 1 to 16 {
    affine.for %i1 = 1 to 11 {
      %v0 = affine.load %A[%i0, %i1] : memref<17x12xf32>
      %v1 = affine.load %A[%i0 - 1, %i1 - 1] : memref<17x12xf32>
      %v2 = arith.addf %v0, %v1 : f32
      %v3 = affine.load %A[%i0 - 1, %i1] : memref<17x12xf32>
      %v4 = arith.addf %v2, %v3 : f32
      %v5 = affine.load %A[%i0 - 1, %i1 + 1] : memref<17x12xf32>
      %v6 = arith.addf %v4, %v5 : f32
      %v7 = affine.load %A[%i0, %i1 - 1] : memref<17x12xf32>
      %v8 = arith.addf %v6, %v7 : f32
      %v9 = affine.load %A[%i0, %i1 + 1] : memref<17x12xf32>
      %v10 = arith.addf %v8, %v9 : f32
      %v11 = affine.load %A[%i0 + 1, %i1 - 1] : memref<17x12xf32>
      %v12 = arith.addf %v10, %v11 : f32
      %v13 = affine.load %A[%i0 + 1, %i1] : memref<17x12xf32>
      %v14 = arith.addf %v12, %v13 : f32
      %v15 = affine.load %A[%i0 + 1, %i1 + 1] : memref<17x12xf32>
      %v16 = arith.addf %v14, %v15 : f32
      %v17 = arith.mulf %v16, %k0 : f32
      affine.store %v17, %A[%i0, %i1] : memref<17x12xf32>
    }
  }
  return
}

//--- prog.mlir
// outputs: 0
func.func @init(%A: memref<17x12xf32>) {
  affine.for %i0 = 0 to 17 {
    affine.for %i1 = 0 to 12 {
      %q = affine.apply affine_map<(d0, d1) -> ((d0 * 1 + d1 * 3 + 1) mod 13 + 1)>(%i0, %i1)
      %n = arith.index_cast %q : index to i32
      %f = arith.sitofp %n : i32 to f32
      %m = arith.constant 14.0 : f32
      %x = arith.divf %f, %m : f32
      affine.store %x, %A[%i0, %i1] : memref<17x12xf32>
    }
  }
  return
}

func.func @kernel(%A: memref<17x12xf32>) {
  %k0 = arith.constant 0.0625 : f32
  affine.for %i0 = 1 to 16 {
    affine.for %i1 = 1 to 11 {
      %v0 = affine.load %A[%i0, %i1] : memref<17x12xf32>
      %v1 = affine.load %A[%i0 - 1, %i1 - 1] : memref<17x12xf32>
      %v2 = arith.addf %v0, %v1 : f32
      %v3 = affine.load %A[%i0 - 1, %i1] : memref<17x12xf32>
      %v4 = arith.addf %v2, %v3 : f32
      %v5 = affine.load %A[%i0 - 1, %i1 + 1] : memref<17x12xf32>
      %v6 = arith.addf %v4, %v5 : f32
      %v7 = affine.load %A[%i0, %i1 - 1] : memref<17x12xf32>
      %v8 = arith.addf %v6, %v7 : f32
      %v9 = affine.load %A[%i0, %i1 + 1] : memref<17x12xf32>
      %v10 = arith.addf %v8, %v9 : f32
      %v11 = affine.load %A[%i0 + 1, %i1 - 1] : memref<17x12xf32>
      %v12 = arith.addf %v10, %v11 : f32
      %v13 = affine.load %A[%i0 + 1, %i1] : memref<17x12xf32>
      %v14 = arith.addf %v12, %v13 : f32
      %v15 = affine.load %A[%i0 + 1, %i1 + 1] : memref<17x12xf32>
      %v16 = arith.addf %v14, %v15 : f32
      %v17 = arith.mulf %v16, %k0 : f32
      affine.store %v17, %A[%i0, %i1] : memref<17x12xf32>
    }
  }
  return
}
