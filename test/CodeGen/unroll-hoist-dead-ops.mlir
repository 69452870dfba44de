// The condition that versions an unrolled loop by its active bound is
// hoisted out of the loops that hold only it. MLIR's hoistAffineIfOp,
// which Pearl used for that, first runs the greedy pattern driver, which
// in MLIR 22 also erased dead operations beside the generated code: here
// the memref.dim after the region, the pass's anchor, and the loop after
// it (which reads but stores nothing). The pass then crashed (pearl-tune's
// test module, J(0,4)). Pearl now hoists the condition itself.
// RUN: %pearl_opt %s --mlir-disable-threading '--pearl-schedule=schedule="J(0,4)"' -o %t.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s < %t.mlir
// RUN: %pearl_exec %s %t.mlir | FileCheck %s --check-prefix=SAME

// REMARK: remark: pearl-schedule: branch 0: applied J(0,4)
// CHECK-LABEL: func.func @scale
// CHECK:       affine.for %{{.*}} = {{.*}} step 4 {
// CHECK-NEXT:    affine.if
// CHECK:       memref.dim
// CHECK-NEXT:  affine.for
// CHECK-NEXT:    affine.load
// SAME: pearl-exec: outputs identical

func.func @scale(%C: memref<?x16xf32>, %n: index) {
  %h = arith.constant 0.5 : f32
  %c0 = arith.constant 0 : index
  affine.for %i = 0 to %n {
    affine.for %j = 0 to 16 {
      %c = affine.load %C[%i, %j] : memref<?x16xf32>
      %d = arith.mulf %c, %h : f32
      affine.store %d, %C[%i, %j] : memref<?x16xf32>
    }
  }
  %d = memref.dim %C, %c0 : memref<?x16xf32>
  affine.for %i = 0 to %d {
    %c = affine.load %C[%i, 0] : memref<?x16xf32>
  }
  return
}
