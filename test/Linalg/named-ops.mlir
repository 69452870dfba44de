// More named ops in one function, one program of five nests (the transpose
// produces the map's input): batch_matmul, conv_2d_nchw_fchw,
// pooling_nhwc_sum, transpose and map are modeled, scheduled by an explicit
// schedule (one action per branch), and the scheduled function computes the
// outputs of its unscheduled lowering (convert-linalg-to-affine-loops) bit
// for bit on pearl-exec's inputs.
// RUN: %pearl_opt %s --mlir-disable-threading --pearl-schedule='print-model agent=none' -o /dev/null 2>&1 | FileCheck %s --check-prefix=MODEL --implicit-check-not=remark
// RUN: mlir-opt %s --convert-linalg-to-affine-loops -o %t.ref.mlir
// RUN: %pearl_opt %s --mlir-disable-threading --pearl-schedule='schedule="P(0) N I(0,1) N P(1) N I(0,1) N U(2)"' -o %t.sched.mlir 2>&1 | FileCheck %s --check-prefix=SCHED
// RUN: FileCheck %s --check-prefix=IR < %t.sched.mlir
// RUN: %pearl_exec --entry=ops %t.ref.mlir %t.sched.mlir | FileCheck %s --check-prefix=EXEC

// MODEL:      model @ops
// MODEL:        S0 f32 ops: arith.addf x1 arith.mulf x1 reduction
// MODEL-NEXT:     domain: { S0[i0, i1, i2, i3] : 0 <= i0 <= 1 and 0 <= i1 <= 5 and 0 <= i2 <= 3 and 0 <= i3 <= 4 }
// MODEL:        S1 f32 ops: arith.addf x1 arith.mulf x1 reduction
// MODEL:          read:   { S1[i0, i1, i2, i3, i4, i5, i6] -> arg3[i0, i4, i2 + i5, i3 + i6] }
// MODEL:        S2 f32 ops: arith.addf x1 reduction
// MODEL:        S3 f32 ops: none
// MODEL-NEXT:     domain: { S3[i0, i1] : 0 <= i0 <= 4 and 0 <= i1 <= 5 }
// MODEL-NEXT:     write:  { S3[i0, i1] -> arg10[i0, i1] }
// MODEL-NEXT:     read:   { S3[i0, i1] -> arg9[i1, i0] }
// MODEL:        S4 f32 ops: math.sqrt x1
// MODEL:        dependences:
// MODEL-NEXT:     RAW: {{.*}}S3[i0, i1] -> S4[i0' = i0, i1' = i1]

// SCHED: remark: pearl-schedule: branch 0: applied P(0); branch 1: applied I(0,1); branch 2: applied P(1); branch 3: applied I(0,1); branch 4: applied U(2)
// IR-NOT: linalg.
// EXEC: pearl-exec: outputs identical
func.func @ops(%A: memref<2x6x5xf32>, %B: memref<2x5x4xf32>, %C: memref<2x6x4xf32>,
               %I: memref<1x3x8x8xf32>, %F: memref<4x3x3x3xf32>, %O: memref<1x4x6x6xf32>,
               %P: memref<1x6x6x4xf32>, %W: memref<2x2xf32>, %Q: memref<1x5x5x4xf32>,
               %T: memref<6x5xf32>, %U: memref<5x6xf32>, %V: memref<5x6xf32>) {
  linalg.batch_matmul ins(%A, %B : memref<2x6x5xf32>, memref<2x5x4xf32>) outs(%C : memref<2x6x4xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<1x3x8x8xf32>, memref<4x3x3x3xf32>) outs(%O : memref<1x4x6x6xf32>)
  linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%P, %W : memref<1x6x6x4xf32>, memref<2x2xf32>) outs(%Q : memref<1x5x5x4xf32>)
  linalg.transpose ins(%T : memref<6x5xf32>) outs(%U : memref<5x6xf32>) permutation = [1, 0]
  linalg.map { math.sqrt } ins(%U : memref<5x6xf32>) outs(%V : memref<5x6xf32>)
  return
}
