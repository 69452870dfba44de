// The compiled-in policy schedules linalg ops like affine loops: the agent
// runs on each expanded op (or program of ops) and says what it chose; if
// it keeps the original schedule, the op is put back unchanged (which of
// the two happens depends on the model, so both are accepted here).
// Execution: exec.test.
// RUN: %pearl_opt %s --mlir-disable-threading --pearl-schedule 2>&1 | FileCheck %s

// CHECK: [[@LINE+2]]:3: remark: pearl-schedule: agent (greedy) {{chose|kept}}
func.func @matmul(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  linalg.matmul ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
  return
}

// CHECK: [[@LINE+2]]:3: remark: pearl-schedule: agent (greedy) {{chose|kept}}
func.func @conv(%I: memref<1x34x34x16xf32>, %F: memref<3x3x16x16xf32>, %O: memref<1x32x32x16xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<1x34x34x16xf32>, memref<3x3x16x16xf32>) outs(%O : memref<1x32x32x16xf32>)
  return
}

// CHECK: [[@LINE+2]]:3: remark: pearl-schedule: agent (greedy) {{chose|kept}}
func.func @maxpool(%I: memref<2x65x65x8xf32>, %W: memref<3x3xf32>, %O: memref<2x32x32x8xf32>) {
  linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%I, %W : memref<2x65x65x8xf32>, memref<3x3xf32>) outs(%O : memref<2x32x32x8xf32>)
  return
}

// CHECK: [[@LINE+4]]:3: remark: pearl-schedule: agent (greedy) {{chose|kept}}
#id = affine_map<(i, j) -> (i, j)>
func.func @fill_relu(%A: memref<64x64xf32>, %C: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<64x64xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%A : memref<64x64xf32>) outs(%C : memref<64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %o : f32
    linalg.yield %r : f32
  }
  return
}

// CHECK-LABEL: func.func @matmul
// CHECK-NEXT:    {{linalg.matmul|affine.(for|parallel)|arith.constant}}
// CHECK-LABEL: func.func @conv
// CHECK-NEXT:    {{linalg.conv_2d_nhwc_hwcf|affine.(for|parallel)|arith.constant}}
// CHECK-LABEL: func.func @maxpool
// CHECK-NEXT:    {{linalg.pooling_nhwc_max|affine.(for|parallel)|arith.constant}}
// CHECK-LABEL: func.func @fill_relu
