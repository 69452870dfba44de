// A band whose members take a single value at each value of the loops
// around it orders nothing: isl generates no loop for it, and a mark on it
// (parallel, unroll, point loop) landed on the next loop inside. Tiling a
// tile loop again by a size its stride already covers makes such a band
// (T(1,2,1,4) T(1,2,1,3): the second tiling's point loop, here loop 4, has
// one value per tile; see also degenerate-band.mlir), and so does a skew of tile loops whose sums are all
// distinct. Such bands now keep their place but get no mark. Found by
// fuzzing (pearl-gen --size-scale small); all three gave WRONG_OUTPUT in
// pearl-env on legal schedules:
// - seed 1226 (a 7-point Gauss-Seidel stencil in place): P(4) marks the
//   fixed loop, and the point loop inside it, which carries the stencil's
//   dependence, ran in parallel;
// - seed 1024 (a contraction): after P(1) T(0,1,2,7) S(0,1), the point
//   loop of the reduction loop ran in parallel;
// - seed 1208 (a max-reduction with its initialization): isl's AST
//   generator, run without disjunctive conditions as Pearl then ran it,
//   left out the reduction statement S1 altogether, with no error (and
//   leaked an if node). Pearl now lets isl write disjunctions (the code
//   generator nests affine.ifs for them) and S1 is generated; an AST that
//   still lacks a statement of the domain is refused.
// RUN: split-file %s %t
// RUN: %pearl_opt %t/gs.mlir '--pearl-schedule=schedule="T(1,2,1,4) T(1,2,1,3) P(4)" print-schedule' -o %t/gs-sched.mlir | FileCheck %s --check-prefix=GS
// RUN: %pearl_exec --entry=kernel %t/gs.mlir %t/gs-sched.mlir | FileCheck %s --check-prefix=SAME
// RUN: %pearl_opt %t/contraction.mlir '--pearl-schedule=schedule="P(1) T(0,1,2,7) S(0,1)" print-schedule' -o %t/contraction-sched.mlir | FileCheck %s --check-prefix=CONTRACTION
// RUN: %pearl_exec --entry=kernel %t/contraction.mlir %t/contraction-sched.mlir | FileCheck %s --check-prefix=SAME
// RUN: %pearl_opt %t/max.mlir '--pearl-schedule=schedule="T(0,1,3,3) S(1,2,1,-1) I(3,0) T(1,2,4,2)" print-schedule' -o %t/max-sched.mlir 2>&1 | FileCheck %s --check-prefix=MAX
// RUN: %pearl_exec --entry=kernel %t/max.mlir %t/max-sched.mlir | FileCheck %s --check-prefix=SAME
// The training environment runs each whole program and compares outputs.
// RUN: %pearl_env --runs 1 --schedule "T(1,2,1,4) T(1,2,1,3) P(4)" %t/gs.mlir 2>&1 | FileCheck %s --check-prefix=ENV
// RUN: %pearl_env --runs 1 --schedule "P(1) T(0,1,2,7) S(0,1)" %t/contraction.mlir 2>&1 | FileCheck %s --check-prefix=ENV
// RUN: %pearl_env --runs 1 --schedule "T(0,1,3,3) S(1,2,1,-1) I(3,0) T(1,2,4,2)" %t/max.mlir 2>&1 | FileCheck %s --check-prefix=ENV

// GS:      schedule @kernel region 0: "T(1,2,1,4) T(1,2,1,3) P(4)"
// GS:      ast:
// GS-NEXT:   for (int c0 = 1; c0 <= 6; c0 += 1)
// GS-NEXT:     for (int c1 = 1; c1 <= 6; c1 += 1)
// GS-NEXT:       for (int c2 = 0; c2 <= 1; c2 += 1)
// GS-NEXT:         for (int c4 = max(0, -4 * c2 + 1); c4 <= min(3, -4 * c2 + 6); c4 += 1)
// GS-NEXT:           S0(c0, c1, 4 * c2 + c4);
// GS-NOT:  affine.parallel

// CONTRACTION:     schedule @kernel region 0:
// CONTRACTION:     ast:
// CONTRACTION-NOT: parallel
// CONTRACTION:     S0(
// CONTRACTION-NOT: affine.parallel

// MAX:     schedule @kernel region 0: "T(0,1,3,3) S(1,2,1,-1) I(3,0) T(1,2,4,2)"
// MAX:     ast:
// MAX:     S1(
// MAX-NOT: isl_ctx not freed
// MAX:     max.mlir:25:3: remark: pearl-schedule: branch 0: applied T(0,1,3,3) S(1,2,1,-1) I(3,0) T(1,2,4,2)
// MAX-NOT: left unchanged

// SAME: pearl-exec: outputs identical
// ENV:     {{[0-9a-f]+}} OK
// ENV-NOT: WRONG

//--- gs.mlir
// outputs: 0

func.func @init(%A: memref<8x8x8xf32>) {
  affine.for %i0 = 0 to 8 {
    affine.for %i1 = 0 to 8 {
      affine.for %i2 = 0 to 8 {
        %q = affine.apply affine_map<(d0, d1, d2) -> ((d0 * 1 + d1 * 3 + d2 * 5 + 1) mod 13 + 1)>(%i0, %i1, %i2)
        %n = arith.index_cast %q : index to i32
        %f = arith.sitofp %n : i32 to f32
        %m = arith.constant 14.0 : f32
        %x = arith.divf %f, %m : f32
        affine.store %x, %A[%i0, %i1, %i2] : memref<8x8x8xf32>
      }
    }
  }
  return
}

func.func @kernel(%A: memref<8x8x8xf32>) {
  %k0 = arith.constant 0.125 : f32
  affine.for %i0 = 1 to 7 {
    affine.for %i1 = 1 to 7 {
      affine.for %i2 = 1 to 7 {
        %v0 = affine.load %A[%i0, %i1, %i2] : memref<8x8x8xf32>
        %v1 = affine.load %A[%i0 - 1, %i1, %i2] : memref<8x8x8xf32>
        %v2 = arith.addf %v0, %v1 : f32
        %v3 = affine.load %A[%i0 + 1, %i1, %i2] : memref<8x8x8xf32>
        %v4 = arith.addf %v2, %v3 : f32
        %v5 = affine.load %A[%i0, %i1 - 1, %i2] : memref<8x8x8xf32>
        %v6 = arith.addf %v4, %v5 : f32
        %a0 = affine.apply affine_map<(d0, d1) -> (d1 + 1)>(%i0, %i1)
        %v7 = affine.load %A[%i0, %a0, %i2] : memref<8x8x8xf32>
        %v8 = arith.addf %v6, %v7 : f32
        %a1 = affine.apply affine_map<(d0, d1, d2) -> (d2 - 1)>(%i0, %i1, %i2)
        %v9 = affine.load %A[%i0, %i1, %a1] : memref<8x8x8xf32>
        %v10 = arith.addf %v8, %v9 : f32
        %v11 = affine.load %A[%i0, %i1, %i2 + 1] : memref<8x8x8xf32>
        %v12 = arith.addf %v10, %v11 : f32
        %v13 = arith.mulf %v12, %k0 : f32
        affine.store %v13, %A[%i0, %i1, %i2] : memref<8x8x8xf32>
      }
    }
  }
  return
}
//--- contraction.mlir
// outputs: 2

func.func @init(%A: memref<16x6xf32>, %B: memref<6x6xf32>, %C: memref<16x6xf32>) {
  affine.for %i0 = 0 to 16 {
    affine.for %i1 = 0 to 6 {
      %q = affine.apply affine_map<(d0, d1) -> ((d0 * 1 + d1 * 3 + 1) mod 13 + 1)>(%i0, %i1)
      %n = arith.index_cast %q : index to i32
      %f = arith.sitofp %n : i32 to f32
      %m = arith.constant 14.0 : f32
      %x = arith.divf %f, %m : f32
      affine.store %x, %A[%i0, %i1] : memref<16x6xf32>
    }
  }
  affine.for %i0 = 0 to 6 {
    affine.for %i1 = 0 to 6 {
      %q = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5 + 2) mod 17 + 1)>(%i0, %i1)
      %n = arith.index_cast %q : index to i32
      %f = arith.sitofp %n : i32 to f32
      %m = arith.constant 18.0 : f32
      %x = arith.divf %f, %m : f32
      affine.store %x, %B[%i0, %i1] : memref<6x6xf32>
    }
  }
  affine.for %i0 = 0 to 16 {
    affine.for %i1 = 0 to 6 {
      %q = affine.apply affine_map<(d0, d1) -> ((d0 * 5 + d1 * 7 + 3) mod 23 + 1)>(%i0, %i1)
      %n = arith.index_cast %q : index to i32
      %f = arith.sitofp %n : i32 to f32
      %m = arith.constant 24.0 : f32
      %x = arith.divf %f, %m : f32
      affine.store %x, %C[%i0, %i1] : memref<16x6xf32>
    }
  }
  return
}

func.func @kernel(%A: memref<16x6xf32>, %B: memref<6x6xf32>, %C: memref<16x6xf32>) {
  %k0 = arith.constant 3.0 : f32
  affine.for %i0 = 0 to 6 {
    affine.for %i1 = 0 to 16 {
      affine.for %i2 = 0 to 6 {
        %v0 = affine.load %C[%i1, %i2] : memref<16x6xf32>
        %v1 = affine.load %A[%i1, %i0] : memref<16x6xf32>
        %v2 = affine.load %B[%i0, %i2] : memref<6x6xf32>
        %v3 = arith.mulf %v1, %v2 : f32
        %v4 = arith.mulf %v3, %k0 : f32
        %v5 = arith.addf %v0, %v4 : f32
        affine.store %v5, %C[%i1, %i2] : memref<16x6xf32>
      }
    }
  }
  return
}
//--- max.mlir
// outputs: 1

func.func @init(%A: memref<15x24x15xi32>, %B: memref<15x24xi32>) {
  affine.for %i0 = 0 to 15 {
    affine.for %i1 = 0 to 24 {
      affine.for %i2 = 0 to 15 {
        %q = affine.apply affine_map<(d0, d1, d2) -> ((d0 * 1 + d1 * 3 + d2 * 5 + 1) mod 13 - 6)>(%i0, %i1, %i2)
        %n = arith.index_cast %q : index to i32
        affine.store %n, %A[%i0, %i1, %i2] : memref<15x24x15xi32>
      }
    }
  }
  affine.for %i0 = 0 to 15 {
    affine.for %i1 = 0 to 24 {
      %q = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5 + 2) mod 17 - 8)>(%i0, %i1)
      %n = arith.index_cast %q : index to i32
      affine.store %n, %B[%i0, %i1] : memref<15x24xi32>
    }
  }
  return
}

func.func @kernel(%A: memref<15x24x15xi32>, %B: memref<15x24xi32>) {
  %k0 = arith.constant 0 : i32
  affine.for %i0 = 0 to 15 {
    affine.for %i1 = 0 to 24 {
      affine.store %k0, %B[%i0, %i1] : memref<15x24xi32>
      affine.for %i2 = 0 to 15 {
        %v0 = affine.load %B[%i0, %i1] : memref<15x24xi32>
        %v1 = affine.load %A[%i0, %i1, %i2] : memref<15x24x15xi32>
        %v2 = arith.maxsi %v0, %v1 : i32
        affine.store %v2, %B[%i0, %i1] : memref<15x24xi32>
      }
    }
  }
  return
}
