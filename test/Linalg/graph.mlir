// The policy cannot tell where a nest came from: the graph Pearl builds for
// a linalg op is the one it builds for the affine loops
// convert-linalg-to-affine-loops writes for it: print-graph's description
// (nodes, edges, loop extents and bounds, statement types, operation counts,
// buffer ids and access matrices) is identical, for a matmul, a convolution
// and a fill + matmul program. (The expansion in the pass is the same
// MLIR lowering, so the IR the graph is built from is the same too.)
// RUN: %pearl_opt %s --mlir-disable-threading --pearl-schedule='print-graph agent=none' -o /dev/null > %t.linalg
// RUN: mlir-opt %s --convert-linalg-to-affine-loops | %pearl_opt --mlir-disable-threading --pearl-schedule='print-graph agent=none' -o /dev/null > %t.affine
// RUN: diff %t.linalg %t.affine
// RUN: FileCheck %s < %t.linalg

// CHECK: graph @matmul region 0: 5 nodes, 4 edges
// CHECK: graph @conv region 0: 9 nodes, 8 edges
// CHECK: graph @fill_matmul region 0: 8 nodes, 7 edges
func.func @matmul(%A: memref<16x8xf32>, %B: memref<8x12xf32>, %C: memref<16x12xf32>) {
  linalg.matmul ins(%A, %B : memref<16x8xf32>, memref<8x12xf32>) outs(%C : memref<16x12xf32>)
  return
}

func.func @conv(%I: memref<1x10x10x3xf32>, %F: memref<3x3x3x4xf32>, %O: memref<1x8x8x4xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<1x10x10x3xf32>, memref<3x3x3x4xf32>) outs(%O : memref<1x8x8x4xf32>)
  return
}

func.func @fill_matmul(%A: memref<16x8xf32>, %B: memref<8x12xf32>, %C: memref<16x12xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<16x12xf32>)
  linalg.matmul ins(%A, %B : memref<16x8xf32>, memref<8x12xf32>) outs(%C : memref<16x12xf32>)
  return
}
