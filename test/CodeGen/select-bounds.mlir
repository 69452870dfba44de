// A loop that runs once for each value of the loops around it can have a
// value defined piecewise: here, after T(1,2,16,8) S(1,2), the inner tile
// loop c2 is c1 - 16 when c1 >= 16 and c1 otherwise, which isl writes as a
// conditional expression (3 arguments). Affine maps cannot hold one: the
// code generator resolves it into an affine.if on its condition, with the
// loop (and what it holds) generated with each value, instead of refusing
// the schedule (it used to: "expression with 3 arguments"). The nest is the
// kernel of pearl-gen --seed 5273 --size-scale small.
// RUN: %pearl_opt %s '--pearl-schedule=schedule="T(1,2,16,8) S(1,2)" print-schedule' -o %t.mlir 2>%t.remarks | FileCheck %s --check-prefix=AST
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: %pearl_exec %s %t.mlir | FileCheck %s --check-prefix=SAME

// AST:      for (int c1 = 0; c1 <= 25; c1 += 8) {
// AST-NEXT:   int c2 = c1 >= 16 ? c1 - 16 : c1;

// REMARK:     remark: pearl-schedule: branch 0: applied T(1,2,16,8) S(1,2)
// REMARK-NOT: left unchanged

// IR-DAG:   #[[SET:.*]] = affine_set<(d0, d1) : (d1 - 16 >= 0)>
// IR-DAG:   #[[THEN_LB:.*]] = affine_map<(d0, d1) -> (d1 - 16)>
// IR-DAG:   #[[ELSE_LB:.*]] = affine_map<(d0, d1) -> (d1)>
// IR:       affine.for %[[C1:.*]] = {{.*}} step 8 {
// IR-NEXT:    affine.if #[[SET]](%{{.*}}, %[[C1]]) {
// IR-NEXT:      affine.for %{{.*}} = #[[THEN_LB]](%{{.*}}, %[[C1]])
// IR:           affine.store
// IR:         } else {
// IR-NEXT:      affine.for %{{.*}} = #[[ELSE_LB]](%{{.*}}, %[[C1]])
// IR:           affine.store

// SAME: pearl-exec: outputs identical

func.func @kernel(%A: memref<10x10x20xi32>, %B: memref<10x10x20xi32>, %C: memref<10x20xi32>, %D: memref<10x10x20xi32>) {
  %k0 = arith.constant -1 : i32
  affine.for %i0 = 0 to 10 {
    affine.for %i1 = 0 to 20 {
      affine.for %i2 = 0 to 10 {
        %v0 = affine.load %A[%i2, %i0, %i1] : memref<10x10x20xi32>
        %v1 = affine.load %C[%i0, %i1] : memref<10x20xi32>
        %v2 = arith.muli %v1, %k0 : i32
        %v3 = arith.addi %v0, %v2 : i32
        %v4 = affine.load %D[%i0, %i2, %i1] : memref<10x10x20xi32>
        %v5 = arith.subi %v3, %v4 : i32
        affine.store %v5, %B[%i2, %i0, %i1] : memref<10x10x20xi32>
      }
    }
  }
  return
}
