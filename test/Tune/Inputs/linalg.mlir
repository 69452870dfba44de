// linalg ops in an ordinary module: the environment expands them into
// affine loops as pearl-schedule does, so that a target's region is the
// pass's (and the module lowers).
func.func @mm(%A: memref<16x16xf32>, %B: memref<16x16xf32>, %C: memref<16x16xf32>) {
  linalg.matmul ins(%A, %B : memref<16x16xf32>, memref<16x16xf32>) outs(%C : memref<16x16xf32>)
  return
}

func.func @fill(%C: memref<8xf32>) {
  %c = arith.constant 1.0 : f32
  linalg.fill ins(%c : f32) outs(%C : memref<8xf32>)
  return
}
