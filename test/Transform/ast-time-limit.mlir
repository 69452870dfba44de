// A schedule whose AST isl generates only after minutes (found by
// pearl-fuzz, pearl-gen seed 100013): the tiles are skewed, then their
// point loops are skewed, interchanged with a tile loop and tiled again.
// isl's integers grow with every step, so the operations quota alone
// allowed more than two minutes; AST generation has a time limit and the
// nest is left unchanged with a remark (timeout bounds the run if that
// ever regresses). The same schedule without its last tiling is generated
// and computes the original outputs.
// RUN: timeout 120 %pearl_opt %s '--pearl-schedule=schedule="S(0,1) T(0,1,13,5) S(0,1,3,-2) S(2,3) I(2,1) T(1,2,3,2)"' -o %t.refused.mlir 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: FileCheck %s --check-prefix=UNCHANGED < %t.refused.mlir
// RUN: timeout 120 %pearl_opt %s '--pearl-schedule=schedule="S(0,1) T(0,1,13,5) S(0,1,3,-2)"' -o %t.prefix.mlir 2>&1 | FileCheck %s --check-prefix=PREFIX
// RUN: %pearl_exec --entry=kernel %s %t.prefix.mlir

// REFUSED: ast-time-limit.mlir:[[#@LINE+6]]:3: remark: pearl-schedule: branch 0: applied S(0,1) T(0,1,13,5) S(0,1,3,-2) S(2,3) I(2,1) T(1,2,3,2)
// REFUSED: ast-time-limit.mlir:[[#@LINE+5]]:3: remark: pearl-schedule: loop nest left unchanged: AST generation (isl's code generator on this schedule's loop bounds) stopped after its time limit of 4 s
// UNCHANGED: affine.for %{{.*}} = 0 to 24 {
// UNCHANGED-NEXT: affine.for %{{.*}} = 0 to 24 {
// PREFIX: remark: pearl-schedule: branch 0: applied S(0,1) T(0,1,13,5) S(0,1,3,-2)
func.func @kernel(%A: memref<24x24xi32>, %B: memref<24xi32>, %C: memref<24xi32>) {
  affine.for %i0 = 0 to 24 {
    affine.for %i1 = 0 to 24 {
      %v0 = affine.load %B[%i1] : memref<24xi32>
      %v1 = affine.load %A[%i1, %i0] : memref<24x24xi32>
      %v2 = affine.load %C[%i0] : memref<24xi32>
      %v3 = arith.muli %v1, %v2 : i32
      %v4 = arith.maxsi %v0, %v3 : i32
      affine.store %v4, %B[%i1] : memref<24xi32>
    }
  }
  return
}
