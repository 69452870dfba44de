// linalg ops on buffers are modeled like the affine loops
// convert-linalg-to-affine-loops would write for them: the iteration domain
// from the loop ranges, one access per operand from its indexing map (conv's
// and pooling's d1 + d4 included), the payload's operations. With agent=none
// nothing is rewritten, so every op is put back exactly as it was.
// RUN: %pearl_opt %s --mlir-disable-threading --pearl-schedule='print-model agent=none' 2>&1 | FileCheck %s --implicit-check-not=remark

// CHECK-LABEL: model @matmul
// CHECK:          S0 f32 ops: arith.addf x1 arith.mulf x1 reduction
// CHECK-NEXT:       domain: { S0[i0, i1, i2] : 0 <= i0 <= 15 and 0 <= i1 <= 11 and 0 <= i2 <= 7 }
// CHECK-NEXT:       write:  { S0[i0, i1, i2] -> arg2[i0, i1] }
// CHECK-NEXT:       read:   { S0[i0, i1, i2] -> arg2[i0, i1] }
// CHECK-NEXT:       read:   { S0[i0, i1, i2] -> arg0[i0, i2] }
// CHECK-NEXT:       read:   { S0[i0, i1, i2] -> arg1[i2, i1] }
// CHECK:          L2 {{.*}} carries RAW WAR WAW
func.func @matmul(%A: memref<16x8xf32>, %B: memref<8x12xf32>, %C: memref<16x12xf32>) {
  linalg.matmul ins(%A, %B : memref<16x8xf32>, memref<8x12xf32>) outs(%C : memref<16x12xf32>)
  return
}

// CHECK-LABEL: model @conv
// CHECK:          S0 f32 ops: arith.addf x1 arith.mulf x1 reduction
// CHECK-NEXT:       domain: { S0[i0 = 0, i1, i2, i3, i4, i5, i6] : 0 <= i1 <= 7 and 0 <= i2 <= 7 and 0 <= i3 <= 3 and 0 <= i4 <= 2 and 0 <= i5 <= 2 and 0 <= i6 <= 2 }
// CHECK-NEXT:       write:  { S0[i0, i1, i2, i3, i4, i5, i6] -> arg2[i0, i1, i2, i3] }
// CHECK-NEXT:       read:   { S0[i0, i1, i2, i3, i4, i5, i6] -> arg2[i0, i1, i2, i3] }
// CHECK-NEXT:       read:   { S0[i0, i1, i2, i3, i4, i5, i6] -> arg0[i0, i1 + i4, i2 + i5, i6] }
// CHECK-NEXT:       read:   { S0[i0, i1, i2, i3, i4, i5, i6] -> arg1[i4, i5, i6, i3] }
func.func @conv(%I: memref<1x10x10x3xf32>, %F: memref<3x3x3x4xf32>, %O: memref<1x8x8x4xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<1x10x10x3xf32>, memref<3x3x3x4xf32>) outs(%O : memref<1x8x8x4xf32>)
  return
}

// Stride 2: the input is read at 2 * oh + kh. The window operand only
// gives the shape: it is not read.
// CHECK-LABEL: model @maxpool
// CHECK:          S0 f32 ops: arith.maximumf x1 reduction
// CHECK-NEXT:       domain: { S0[i0, i1, i2, i3, i4, i5] : 0 <= i0 <= 1 and 0 <= i1 <= 3 and 0 <= i2 <= 3 and 0 <= i3 <= 2 and 0 <= i4 <= 2 and 0 <= i5 <= 2 }
// CHECK-NEXT:       write:  { S0[i0, i1, i2, i3, i4, i5] -> arg2[i0, i1, i2, i3] }
// CHECK-NEXT:       read:   { S0[i0, i1, i2, i3, i4, i5] -> arg2[i0, i1, i2, i3] }
// CHECK-NEXT:       read:   { S0[i0, i1, i2, i3, i4, i5] -> arg0[i0, 2i1 + i4, 2i2 + i5, i3] }
// CHECK-NEXT:   loop tree:
func.func @maxpool(%I: memref<2x9x9x3xf32>, %W: memref<3x3xf32>, %O: memref<2x4x4x3xf32>) {
  linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%I, %W : memref<2x9x9x3xf32>, memref<3x3xf32>) outs(%O : memref<2x4x4x3xf32>)
  return
}

// An element-wise generic with a transposed input and a broadcast one.
// CHECK-LABEL: model @elementwise
// CHECK:          S0 f32 ops: arith.maximumf x1 arith.addf x1
// CHECK-NEXT:       domain: { S0[i0, i1] : 0 <= i0 <= 5 and 0 <= i1 <= 3 }
// CHECK-NEXT:       write:  { S0[i0, i1] -> arg2[i0, i1] }
// CHECK-NEXT:       read:   { S0[i0, i1] -> arg0[i1, i0] }
// CHECK-NEXT:       read:   { S0[i0, i1] -> arg1[i1] }
// CHECK-NEXT:   loop tree:
// CHECK-NEXT:     L0 { [i0] : 0 <= i0 <= 5 } parallel
// CHECK-NEXT:       L1 { [i0, i1] : 0 <= i0 <= 5 and 0 <= i1 <= 3 } parallel
#ew_t = affine_map<(i, j) -> (j, i)>
#ew_b = affine_map<(i, j) -> (j)>
#ew_id = affine_map<(i, j) -> (i, j)>
func.func @elementwise(%A: memref<4x6xf32>, %b: memref<4xf32>, %C: memref<6x4xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#ew_t, #ew_b, #ew_id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%A, %b : memref<4x6xf32>, memref<4xf32>) outs(%C : memref<6x4xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  return
}

// Producer/consumer: fill, matmul and an element-wise op on its result are
// one program (one region, three nests in a sequence) with the RAW
// dependences between the ops.
// CHECK-LABEL: model @fill_matmul_relu
// CHECK:          S0 f32 ops: none
// CHECK-NEXT:       domain: { S0[i0, i1] : 0 <= i0 <= 7 and 0 <= i1 <= 7 }
// CHECK-NEXT:       write:  { S0[i0, i1] -> arg2[i0, i1] }
// CHECK-NEXT:     S1 f32 ops: arith.addf x1 arith.mulf x1 reduction
// CHECK:          S2 f32 ops: arith.maximumf x1
// CHECK-NEXT:       domain: { S2[i0, i1] : 0 <= i0 <= 7 and 0 <= i1 <= 7 }
// CHECK-NEXT:       write:  { S2[i0, i1] -> arg3[i0, i1] }
// CHECK-NEXT:       read:   { S2[i0, i1] -> arg2[i0, i1] }
// CHECK:          sequence:
// CHECK-NEXT:       - filter: "{ S0[i0, i1] }"
// CHECK:            - filter: "{ S1[i0, i1, i2] }"
// CHECK:            - filter: "{ S2[i0, i1] }"
// CHECK:        dependences:
// CHECK-NEXT:     RAW: { {{.*}}S0[i0, i1] -> S1[i0' = i0, i1' = i1, i2]{{.*}}S1[i0, i1, i2] -> S2[i0' = i0, i1' = i1]
// CHECK-NOT:    model @
func.func @fill_matmul_relu(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>, %D: memref<8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<8x8xf32>)
  linalg.matmul ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  linalg.generic {indexing_maps = [#ew_id, #ew_id], iterator_types = ["parallel", "parallel"]}
      ins(%C : memref<8x8xf32>) outs(%D : memref<8x8xf32>) {
  ^bb0(%x: f32, %out: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  }
  return
}

// The IR is unchanged: every op is back, in its place.
// CHECK-LABEL: func.func @matmul
// CHECK-NEXT:    linalg.matmul ins(%arg0, %arg1 : memref<16x8xf32>, memref<8x12xf32>) outs(%arg2 : memref<16x12xf32>)
// CHECK-NEXT:    return
// CHECK-LABEL: func.func @conv
// CHECK-NEXT:    linalg.conv_2d_nhwc_hwcf
// CHECK-NEXT:    return
// CHECK-LABEL: func.func @maxpool
// CHECK-NEXT:    linalg.pooling_nhwc_max
// CHECK-NEXT:    return
// CHECK-LABEL: func.func @elementwise
// CHECK-NEXT:    arith.constant
// CHECK-NEXT:    linalg.generic
// CHECK:         linalg.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    return
// CHECK-LABEL: func.func @fill_matmul_relu
// CHECK-NEXT:    arith.constant
// CHECK-NEXT:    linalg.fill
// CHECK-NEXT:    linalg.matmul
// CHECK-NEXT:    linalg.generic
// CHECK-NOT:     affine.
