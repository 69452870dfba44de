func.func @scale(%A: memref<16x16xf64>) {
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 16 {
      %a = affine.load %A[%i, %j] : memref<16x16xf64>
      %b = arith.addf %a, %a : f64
      affine.store %b, %A[%i, %j] : memref<16x16xf64>
    }
  }
  return
}
