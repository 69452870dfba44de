// linalg ops Pearl cannot take get a remark and are left exactly as they
// were, with the policy (the default) as with an explicit schedule; ops
// whose expanded nest cannot be modeled are put back (rollback).
// RUN: %pearl_opt %s --mlir-disable-threading --pearl-schedule 2>&1 | FileCheck %s
// RUN: %pearl_opt %s --mlir-disable-threading --pearl-schedule='schedule="I(0,1)"' 2>&1 | FileCheck %s

// CHECK: [[@LINE+3]]:8: remark: pearl-schedule: loop nest left unchanged: linalg.matmul has tensor semantics (not bufferized)
func.func @tensor(%A: tensor<16x8xf32>, %B: tensor<8x12xf32>,
                  %C: tensor<16x12xf32>) -> tensor<16x12xf32> {
  %r = linalg.matmul ins(%A, %B : tensor<16x8xf32>, tensor<8x12xf32>)
         outs(%C : tensor<16x12xf32>) -> tensor<16x12xf32>
  return %r : tensor<16x12xf32>
}

// CHECK: [[@LINE+3]]:3: remark: pearl-schedule: loop nest left unchanged: linalg.matmul has dynamic shapes (only static shapes are modeled)
func.func @dynamic(%A: memref<?x8xf32>, %B: memref<8x12xf32>,
                   %C: memref<?x12xf32>) {
  linalg.matmul ins(%A, %B : memref<?x8xf32>, memref<8x12xf32>) outs(%C : memref<?x12xf32>)
  return
}

// The output cell (i + j) is written by several points of the parallel
// loops: not a projected permutation.
// CHECK: [[@LINE+4]]:3: remark: pearl-schedule: loop nest left unchanged: linalg.generic: the indexing map of output 0 is not a projected permutation
#in = affine_map<(i, j) -> (i, j)>
#skew = affine_map<(i, j) -> (i + j)>
func.func @not_permutation(%A: memref<4x4xf32>, %B: memref<7xf32>) {
  linalg.generic {indexing_maps = [#in, #skew], iterator_types = ["parallel", "parallel"]}
      ins(%A : memref<4x4xf32>) outs(%B : memref<7xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  }
  return
}

// Rollback: the payload calls a function, so the expanded nest cannot be
// modeled; the op is put back.
// CHECK: [[@LINE+6]]:10: remark: pearl-schedule: loop nest left unchanged: call to @f
func.func private @f(f32) -> f32
func.func @call_in_payload(%A: memref<4x4xf32>, %B: memref<4x4xf32>) {
  linalg.generic {indexing_maps = [#in, #in], iterator_types = ["parallel", "parallel"]}
      ins(%A : memref<4x4xf32>) outs(%B : memref<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = func.call @f(%x) : (f32) -> f32
    linalg.yield %y : f32
  }
  return
}

// CHECK-LABEL: func.func @tensor
// CHECK-NEXT:    %[[R:.*]] = linalg.matmul ins(%arg0, %arg1 : tensor<16x8xf32>, tensor<8x12xf32>) outs(%arg2 : tensor<16x12xf32>) -> tensor<16x12xf32>
// CHECK-NEXT:    return %[[R]]
// CHECK-LABEL: func.func @dynamic
// CHECK-NEXT:    linalg.matmul ins(%arg0, %arg1 : memref<?x8xf32>, memref<8x12xf32>) outs(%arg2 : memref<?x12xf32>)
// CHECK-NEXT:    return
// CHECK-LABEL: func.func @not_permutation
// CHECK-NEXT:    linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg0 : memref<4x4xf32>) outs(%arg1 : memref<7xf32>) {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32, %[[O:.*]]: f32):
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[X]], %[[O]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    return
// CHECK-LABEL: func.func @call_in_payload
// CHECK-NEXT:    linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : memref<4x4xf32>) outs(%arg1 : memref<4x4xf32>) {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[Y:.*]] = func.call @f(%[[X]]) : (f32) -> f32
// CHECK-NEXT:      linalg.yield %[[Y]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    return
// CHECK-NOT:   affine.
