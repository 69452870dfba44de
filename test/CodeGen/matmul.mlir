// Code generation on matmul: the identity schedule regenerates the nest;
// parallelization, tiling and unrolling give affine.parallel, tile loops
// with steps and four unrolled copies of the statement.
// RUN: %pearl_opt %s --pearl-schedule="regenerate agent=none" | FileCheck %s --check-prefix=IDENT
// RUN: %pearl_opt %s '--pearl-schedule=schedule="P(0) T(0,1,32,16) U(4)"' 2>%t.err | FileCheck %s --check-prefix=TILED
// RUN: FileCheck %s --check-prefix=REMARK < %t.err
// RUN: %pearl_opt %s '--pearl-schedule=schedule="P(0) T(0,1,32,16) U(4)"' | mlir-opt --canonicalize | FileCheck %s --check-prefix=CANON

// The regenerated nest keeps C[i][j] in a register across the k loop
// (register promotion of the element the innermost loop updates in place),
// and the function states the no-alias assumption the rewrite relies on.
// IDENT-LABEL: func.func @matmul
// IDENT-SAME:    attributes {pearl.noalias_memref_args}
// IDENT:         affine.for %[[I:.*]] = 0 to 64 {
// IDENT-NEXT:      affine.for %[[J:.*]] = #{{.*}}(%[[I]]) to #{{.*}}(%[[I]]) {
// IDENT-NEXT:        %[[C0:.*]] = affine.load %arg2[%[[I]], %[[J]]]
// IDENT-NEXT:        %[[SUM:.*]] = affine.for %[[K:.*]] = #{{.*}}(%[[I]], %[[J]]) to #{{.*}}(%[[I]], %[[J]]) iter_args(%[[ACC:.*]] = %[[C0]]) -> (f64) {
// IDENT-NEXT:          %[[A0:.*]] = affine.apply #{{.*}}(%[[I]], %[[J]], %[[K]])
// IDENT-NEXT:          %[[A1:.*]] = affine.apply #{{.*}}(%[[I]], %[[J]], %[[K]])
// IDENT-NEXT:          %[[A2:.*]] = affine.apply #{{.*}}(%[[I]], %[[J]], %[[K]])
// IDENT-NEXT:          %[[LA:.*]] = affine.load %arg0[%[[A0]], %[[A2]]]
// IDENT-NEXT:          %[[LB:.*]] = affine.load %arg1[%[[A2]], %[[A1]]]
// IDENT-NEXT:          %[[P:.*]] = arith.mulf %[[LA]], %[[LB]]
// IDENT-NEXT:          %[[S:.*]] = arith.addf %[[ACC]], %[[P]]
// IDENT-NEXT:          affine.yield %[[S]]
// IDENT-NEXT:        }
// IDENT-NEXT:        affine.store %[[SUM]], %arg2[%[[I]], %[[J]]]
// IDENT-NEXT:      }
// IDENT-NEXT:    }
// IDENT-NEXT:    return

// TILED-LABEL: func.func @matmul
// TILED:         affine.parallel (%{{.*}}) = (0) to (64) step (32) {
// TILED-NEXT:      affine.for %{{.*}} step 16 {
// TILED-NEXT:        affine.for
// TILED-NEXT:          affine.for
// TILED-NEXT:            %[[C0:.*]] = affine.load %arg2
// TILED-NEXT:            %[[SUM:.*]] = affine.for %{{.*}} step 4 iter_args(%{{.*}} = %[[C0]]) -> (f64) {
// TILED-COUNT-4:           arith.addf
// TILED-NOT:               affine.store
// TILED:                   affine.yield
// TILED-NEXT:            }
// TILED-NEXT:            affine.store %[[SUM]], %arg2
// TILED:         return

// REMARK: remark: pearl-schedule: branch 0: applied P(0) T(0,1,32,16) U(4)

// After canonicalization the iterator arithmetic folds into the accesses.
// The point loops run over the original iterators, from the tile loop's
// value on, so the accesses use them as they are.
// CANON-DAG:   #[[ID:.*]] = affine_map<(d0) -> (d0)>
// CANON-DAG:   #[[P32:.*]] = affine_map<(d0) -> (d0 + 32)>
// CANON-DAG:   #[[P16:.*]] = affine_map<(d0) -> (d0 + 16)>
// CANON-LABEL: func.func @matmul
// CANON:         affine.parallel (%[[T0:.*]]) = (0) to (64) step (32) {
// CANON-NEXT:      affine.for %[[T1:.*]] = 0 to 48 step 16 {
// CANON-NEXT:        affine.for %[[I:.*]] = #[[ID]](%[[T0]]) to #[[P32]](%[[T0]]) {
// CANON-NEXT:          affine.for %[[J:.*]] = #[[ID]](%[[T1]]) to #[[P16]](%[[T1]]) {
// CANON-NEXT:            affine.load %arg2[%[[I]], %[[J]]]
// CANON-NEXT:            affine.for %[[K:.*]] = 0 to 32 step 4 iter_args
// CANON-NEXT:              affine.load %arg0[%[[I]], %[[K]]]
// CANON-NEXT:              affine.load %arg1[%[[K]], %[[J]]]
// CANON-NEXT:              arith.mulf
// CANON-NEXT:              arith.addf
// CANON-NEXT:              affine.load %arg0[%[[I]], %[[K]] + 1]

func.func @matmul(%A: memref<64x32xf64>, %B: memref<32x48xf64>, %C: memref<64x48xf64>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 48 {
      affine.for %k = 0 to 32 {
        %a = affine.load %A[%i, %k] : memref<64x32xf64>
        %b = affine.load %B[%k, %j] : memref<32x48xf64>
        %c = affine.load %C[%i, %j] : memref<64x48xf64>
        %p = arith.mulf %a, %b : f64
        %s = arith.addf %c, %p : f64
        affine.store %s, %C[%i, %j] : memref<64x48xf64>
      }
    }
  }
  return
}
