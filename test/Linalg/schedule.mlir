// linalg ops scheduled by an explicit schedule become the affine loops of
// the transformed schedule, with the payload inlined (loads of the operands
// the payload reads, its operations, a store of the yielded value); the
// linalg op is gone. The output is canonicalized (folds the affine.apply's
// of the code generator) to check the loops and accesses. Execution of
// every linalg benchmark kernel: test/Linalg/exec.test.
// RUN: %pearl_opt %s --mlir-disable-threading --pearl-schedule='schedule="I(1,2) P(0)"' 2>%t.one.err | mlir-opt --canonicalize | FileCheck %s --check-prefix=ONE
// RUN: FileCheck %s --check-prefix=ONE-REM < %t.one.err
// RUN: %pearl_opt %s --mlir-disable-threading --pearl-schedule='schedule="P(0) N I(1,2) P(0) N P(0)"' 2>%t.seq.err | mlir-opt --canonicalize | FileCheck %s --check-prefix=SEQ
// RUN: FileCheck %s --check-prefix=SEQ-REM < %t.seq.err

// ONE-REM: schedule.mlir:[[@LINE+14]]:3: remark: pearl-schedule: branch 0: applied I(1,2) P(0)
// ONE-LABEL: func.func @matmul
// ONE-NEXT:    affine.parallel (%[[I:.*]]) = (0) to (16) {
// ONE-NEXT:      affine.for %[[K:.*]] = 0 to 8 {
// ONE-NEXT:        affine.for %[[J:.*]] = 0 to 12 {
// ONE-NEXT:          %[[A:.*]] = affine.load %arg0[%[[I]], %[[K]]]
// ONE-NEXT:          %[[B:.*]] = affine.load %arg1[%[[K]], %[[J]]]
// ONE-NEXT:          %[[C:.*]] = affine.load %arg2[%[[I]], %[[J]]]
// ONE-NEXT:          %[[M:.*]] = arith.mulf %[[A]], %[[B]] : f32
// ONE-NEXT:          %[[S:.*]] = arith.addf %[[C]], %[[M]] : f32
// ONE-NEXT:          affine.store %[[S]], %arg2[%[[I]], %[[J]]]
// ONE:         return
// ONE-NOT:     linalg.
func.func @matmul(%A: memref<16x8xf32>, %B: memref<8x12xf32>, %C: memref<16x12xf32>) {
  linalg.matmul ins(%A, %B : memref<16x8xf32>, memref<8x12xf32>) outs(%C : memref<16x12xf32>)
  return
}

// Stride 2; the window operand is not read.
// ONE-REM: schedule.mlir:[[@LINE+17]]:3: remark: pearl-schedule: branch 0: applied I(1,2) P(0)
// ONE-LABEL: func.func @maxpool
// ONE-NEXT:    affine.parallel (%[[N:.*]]) = (0) to (2) {
// ONE-NEXT:      affine.for %[[OW:.*]] = 0 to 4 {
// ONE-NEXT:        affine.for %[[OH:.*]] = 0 to 4 {
// ONE-NEXT:          affine.for %[[C:.*]] = 0 to 3 {
// ONE-NEXT:            affine.for %[[KH:.*]] = 0 to 3 {
// ONE-NEXT:              %[[O0:.*]] = affine.load %arg2[%[[N]], %[[OH]], %[[OW]], %[[C]]]
// ONE-NEXT:              %[[M:.*]] = affine.for %[[KW:.*]] = 0 to 3 iter_args(%[[O:.*]] = %[[O0]]) -> (f32) {
// ONE-NEXT:                %[[X:.*]] = affine.load %arg0[%[[N]], %[[OH]] * 2 + %[[KH]], %[[OW]] * 2 + %[[KW]], %[[C]]]
// ONE-NEXT:                %[[R:.*]] = arith.maximumf %[[O]], %[[X]] : f32
// ONE-NEXT:                affine.yield %[[R]]
// ONE-NEXT:              }
// ONE-NEXT:              affine.store %[[M]], %arg2[%[[N]], %[[OH]], %[[OW]], %[[C]]]
// ONE-NOT:     linalg.
// ONE:         return
func.func @maxpool(%I: memref<2x9x9x3xf32>, %W: memref<3x3xf32>, %O: memref<2x4x4x3xf32>) {
  linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%I, %W : memref<2x9x9x3xf32>, memref<3x3xf32>) outs(%O : memref<2x4x4x3xf32>)
  return
}

// The batch loop (one iteration) is gone from the generated code, and with
// it its parallel mark: P(0) of a one-iteration loop runs nothing in
// parallel (the mark must not move to the loop inside, which was never
// checked; test/CodeGen/degenerate-band.mlir).
// ONE-REM: schedule.mlir:[[@LINE+10]]:3: remark: pearl-schedule: branch 0: applied I(1,2) P(0)
// ONE-LABEL: func.func @conv
// ONE-NEXT:    affine.for %[[OW:.*]] = 0 to 8 {
// ONE-NEXT:      affine.for %[[OH:.*]] = 0 to 8 {
// ONE-NEXT:        affine.for %[[F:.*]] = 0 to 4 {
// ONE:                 affine.load %arg0[0, %[[OH]] + %{{.*}}, %[[OW]] + %{{.*}}, %{{.*}}]
// ONE:                 affine.store %{{.*}}, %arg2[0, %[[OH]], %[[OW]], %[[F]]]
// ONE-NOT:     linalg.
// ONE:         return
func.func @conv(%I: memref<1x10x10x3xf32>, %F: memref<3x3x3x4xf32>, %O: memref<1x8x8x4xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<1x10x10x3xf32>, memref<3x3x3x4xf32>) outs(%O : memref<1x8x8x4xf32>)
  return
}

// Producer/consumer: fill, matmul (i-k-j) and an element-wise op are
// scheduled as one program, one branch each, in their order; the remark is
// at the first op of the region.
// SEQ-REM: schedule.mlir:[[@LINE+28]]:3: remark: pearl-schedule: branch 0: applied P(0); branch 1: applied I(1,2) P(0); branch 2: applied P(0)
// SEQ-LABEL: func.func @fill_matmul_relu
// SEQ-NEXT:    %[[ZERO:.*]] = arith.constant 0.0
// SEQ-NEXT:    affine.parallel (%[[I:.*]]) = (0) to (8) {
// SEQ-NEXT:      affine.for %[[J:.*]] = 0 to 8 {
// SEQ-NEXT:        affine.store %[[ZERO]], %arg2[%[[I]], %[[J]]]
// SEQ-NEXT:      }
// SEQ-NEXT:    }
// SEQ-NEXT:    affine.parallel (%[[I:.*]]) = (0) to (8) {
// SEQ-NEXT:      affine.for %[[K:.*]] = 0 to 8 {
// SEQ-NEXT:        affine.for %[[J:.*]] = 0 to 8 {
// SEQ:               arith.mulf
// SEQ-NEXT:          arith.addf
// SEQ-NEXT:          affine.store %{{.*}}, %arg2[%[[I]], %[[J]]]
// SEQ-NEXT:        }
// SEQ-NEXT:      }
// SEQ-NEXT:    }
// SEQ-NEXT:    affine.parallel (%[[I:.*]]) = (0) to (8) {
// SEQ-NEXT:      affine.for %[[J:.*]] = 0 to 8 {
// SEQ-NEXT:        %[[X:.*]] = affine.load %arg2[%[[I]], %[[J]]]
// SEQ-NEXT:        %[[R:.*]] = arith.maximumf %[[X]], %[[ZERO]]
// SEQ-NEXT:        affine.store %[[R]], %arg3[%[[I]], %[[J]]]
// SEQ-NEXT:      }
// SEQ-NEXT:    }
// SEQ-NEXT:    return
#id = affine_map<(i, j) -> (i, j)>
func.func @fill_matmul_relu(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>, %D: memref<8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<8x8xf32>)
  linalg.matmul ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%C : memref<8x8xf32>) outs(%D : memref<8x8xf32>) {
  ^bb0(%x: f32, %out: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  }
  return
}
