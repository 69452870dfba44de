// K(l): before each run of loop l, the arrays the loop reads and does not
// write are copied into local buffers (memref.alloc before the loop, the
// copy loops, memref.dealloc after it), and the loop reads the buffers:
// packing, so that a tile's elements lie side by side. The copies stay
// where the schedule puts them, inside the loops around loop l, even for an
// array that does not change within them. Every applied schedule computes
// the original outputs; refusals leave the code as it was.
// RUN: split-file %s %t
// RUN: %pearl_opt %t/mm.mlir '--pearl-schedule=agent=none' -o %t/orig.mlir

// Matmul i-k-j over 4 x 4 x 4 tiles, the tile loop of i parallel: A's and
// B's 4 x 4 tiles are copied before the point loops of each tile.
// RUN: %pearl_opt %t/mm.mlir '--pearl-schedule=schedule="I(1,2) T(0,1,2,4,4,4) K(3) P(0)"' -o %t/k.mlir 2>&1 | FileCheck %s --check-prefix=K
// RUN: FileCheck %s --check-prefix=K-IR < %t/k.mlir
// RUN: %pearl_exec --entry=kernel %t/mm.mlir %t/k.mlir | FileCheck %s --check-prefix=SAME
// K: remark: pearl-schedule: branch 0: applied I(1,2) T(0,1,2,4,4,4) K(3) P(0)
// K: remark: pearl-schedule: 2 array(s) copied before 1 loop(s) (K)
// K-IR-LABEL: func.func @kernel
// K-IR:       affine.parallel
// K-IR-NEXT:    affine.for
// K-IR-NEXT:      affine.for
// K-IR:             %[[A:.*]] = memref.alloc() : memref<4x4xf64>
// K-IR:             affine.store %{{.*}}, %[[A]]
// K-IR:             %[[B:.*]] = memref.alloc() : memref<4x4xf64>
// K-IR:             affine.store %{{.*}}, %[[B]]
// K-IR:             affine.load %[[A]]
// K-IR-NEXT:        affine.load %[[B]]
// K-IR-NEXT:        affine.load %arg2
// K-IR:             memref.dealloc %[[B]]
// K-IR-NEXT:        memref.dealloc %[[A]]

// With unroll-and-jam and a vector width, as the hand schedules of matmul.
// RUN: %pearl_opt %t/mm.mlir '--pearl-schedule=schedule="I(1,2) T(0,1,2,4,4,4) J(3,2) V(4) K(3) P(0)"' -o %t/kj.mlir 2>&1 | FileCheck %s --check-prefix=KJ
// RUN: %pearl_exec --entry=kernel %t/mm.mlir %t/kj.mlir | FileCheck %s --check-prefix=SAME
// KJ: remark: pearl-schedule: 2 array(s) copied before 1 loop(s) (K)

// A time loop around a stencil: A is read by the first i loop and written
// by the second one, so its copy must be made again in every t iteration,
// inside the t loop.
// RUN: %pearl_opt %t/stencil.mlir '--pearl-schedule=schedule="K(1)"' -o %t/s.mlir 2>&1 | FileCheck %s --check-prefix=S
// RUN: FileCheck %s --check-prefix=S-IR < %t/s.mlir
// RUN: %pearl_exec --entry=kernel %t/stencil.mlir %t/s.mlir | FileCheck %s --check-prefix=SAME
// S: remark: pearl-schedule: 1 array(s) copied before 1 loop(s) (K)
// S-IR:      affine.for %{{.*}} = 0 to 4 {
// S-IR-NEXT:   %[[BUF:.*]] = memref.alloc() : memref<20xf64>
// S-IR-NEXT:   affine.for %[[I:.*]] = 0 to 20 {
// S-IR-NEXT:     %[[V:.*]] = affine.load %arg0[%[[I]]]
// S-IR-NEXT:     affine.store %[[V]], %[[BUF]][%[[I]]]
// S-IR:        affine.load %[[BUF]]
// S-IR:        memref.dealloc %[[BUF]]

// Refusals: a loop that writes every array it reads (an in-place update),
// K twice on one loop, a level that does not exist.
// RUN: %pearl_opt %t/stencil.mlir '--pearl-schedule=agent=none' -o %t/sorig.mlir
// RUN: %pearl_opt %t/stencil.mlir '--pearl-schedule=schedule="K(0) N K(2)"' -o %t/ref.mlir 2>&1 | FileCheck %s --check-prefix=REF
// RUN: diff %t/sorig.mlir %t/ref.mlir
// REF: branch 0: refused K(0) (loop 0 of branch 0 writes every array it reads: nothing to copy); branch 1: refused K(2) (level 2 does not exist in branch 1 (2 loops))
// RUN: %pearl_opt %t/mm.mlir '--pearl-schedule=schedule="K(0) K(0)"' -o /dev/null 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: branch 0: applied K(0); branch 0: refused K(0) (loop 0 of branch 0 already copies the arrays it reads)

// A loop whose box would cost too much to compute (divisions in the bounds
// of skewed, jammed loops; the elimination of the inner iterators
// exhausted the memory, found by fuzzing) is left without copies.
// RUN: %pearl_gen --seed 500081 --size-scale small -o %t/gen.mlir --quiet
// RUN: %pearl_opt %t/gen.mlir --mlir-disable-threading '--pearl-schedule=schedule="N N S(1,2,-1,1) K(1) I(2,0) J(0,3) I(0,1) S(2,3,3,-2) S(1,2)"' -o %t/costly.mlir 2>&1 | FileCheck %s --check-prefix=COSTLY
// RUN: %pearl_exec --entry=kernel %t/gen.mlir %t/costly.mlir | FileCheck %s --check-prefix=SAME
// COSTLY: remark: pearl-schedule: 0 array(s) copied before 1 loop(s) (K), 1 not: another use in the loop, a box of no constant size or one too costly to compute

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

//--- stencil.mlir
// outputs: 0 1

func.func @init(%A: memref<20xf64>, %B: memref<20xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c20 = arith.constant 20 : index
  scf.for %i = %c0 to %c20 step %c1 {
    %q = affine.apply affine_map<(d0) -> ((d0 * 7 + 3) mod 11)>(%i)
    %n = arith.index_cast %q : index to i32
    %f = arith.sitofp %n : i32 to f64
    memref.store %f, %A[%i] : memref<20xf64>
    memref.store %f, %B[%i] : memref<20xf64>
  }
  return
}

func.func @kernel(%A: memref<20xf64>, %B: memref<20xf64>) {
  affine.for %t = 0 to 4 {
    affine.for %i = 1 to 19 {
      %a = affine.load %A[%i - 1] : memref<20xf64>
      %b = affine.load %A[%i] : memref<20xf64>
      %c = affine.load %A[%i + 1] : memref<20xf64>
      %s = arith.addf %a, %b : f64
      %r = arith.addf %s, %c : f64
      affine.store %r, %B[%i] : memref<20xf64>
    }
    affine.for %i = 1 to 19 {
      %b = affine.load %B[%i] : memref<20xf64>
      %h = arith.mulf %b, %b : f64
      %d = affine.load %A[%i] : memref<20xf64>
      %e = arith.subf %d, %h : f64
      affine.store %e, %A[%i] : memref<20xf64>
    }
  }
  return
}
