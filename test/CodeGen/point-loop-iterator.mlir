// Point loops of a tiling run over the original iterators, from the tile
// loop's value on (not from 0): the loop inside the tiled pair (k, bounded
// by the point loop j) and the accesses use the point iterators as they
// are. With isl's shifted point loops every use of j was a sum of the
// tile and point iterators, and LLVM no longer unrolled the reduction
// loop k, whose trip count it then found too costly to compute (PolyBench
// nussinov tiled: 0.8x of the untiled code).
// RUN: %pearl_opt %s '--pearl-schedule=schedule="T(0,1,32,32)" print-schedule' -o %t.mlir 2>&1 | FileCheck %s --check-prefix=AST
// RUN: mlir-opt --canonicalize %t.mlir | FileCheck %s
// RUN: %pearl_exec %s %t.mlir | FileCheck %s --check-prefix=SAME

// AST:      ast:
// AST-NEXT:   for (int c0 = 0; c0 <= 93; c0 += 32)
// AST-NEXT:     for (int c1 = c0; c1 <= 95; c1 += 32)
// AST-NEXT:       for (int c2 = c0; c2 <= min(c0 + 31, c1 + 29); c2 += 1)
// AST-NEXT:         for (int c3 = max(c1, c2 + 2); c3 <= c1 + 31; c3 += 1)
// AST-NEXT:           for (int c4 = c2 + 1; c4 < c3; c4 += 1)
// AST-NEXT:             S0(c2, c3, c4);

// CHECK-DAG:   #[[ID:.*]] = affine_map<(d0) -> (d0)>
// CHECK-DAG:   #[[NEXT:.*]] = affine_map<(d0) -> (d0 + 1)>
// CHECK-LABEL: func.func @tri
// CHECK:         affine.for %[[T0:.*]] = 0 to 94 step 32 {
// CHECK-NEXT:      affine.for %[[T1:.*]] = #[[ID]](%[[T0]]) to 96 step 32 {
// CHECK-NEXT:        affine.for %[[I:.*]] = #[[ID]](%[[T0]]) to min
// CHECK-NEXT:          affine.for %[[J:.*]] = max {{.*}} to
// A[i][j] is kept in a register across k (register promotion; the loop
// runs at least once there, j >= i + 2, so it needs no condition).
// CHECK-NEXT:            %[[T:.*]] = affine.load %arg0[%[[I]], %[[J]]]
// CHECK-NEXT:            affine.for %[[K:.*]] = #[[NEXT]](%[[I]]) to #[[ID]](%[[J]]) iter_args(%{{.*}} = %[[T]]) -> (i32) {
// CHECK-NEXT:              affine.load %arg0[%[[I]], %[[K]]]
// CHECK-NEXT:              affine.load %arg0[%[[K]], %[[J]]]

// SAME: pearl-exec: outputs identical

func.func @tri(%A: memref<96x96xi32>) {
  affine.for %i = 0 to 96 {
    affine.for %j = affine_map<(d0) -> (d0 + 1)>(%i) to 96 {
      affine.for %k = affine_map<(d0) -> (d0 + 1)>(%i) to affine_map<(d0) -> (d0)>(%j) {
        %t = affine.load %A[%i, %j] : memref<96x96xi32>
        %a = affine.load %A[%i, %k] : memref<96x96xi32>
        %b = affine.load %A[%k, %j] : memref<96x96xi32>
        %s = arith.addi %a, %b : i32
        %m = arith.maxsi %t, %s : i32
        affine.store %m, %A[%i, %j] : memref<96x96xi32>
      }
    }
  }
  return
}
