func.func @seidel_2d(%A: memref<16x16xf64>) {
  %c = arith.constant 9.0 : f64
  affine.for %t = 0 to 4 {
    affine.for %i = 1 to 15 {
      affine.for %j = 1 to 15 {
        %0 = affine.load %A[%i - 1, %j - 1] : memref<16x16xf64>
        %1 = affine.load %A[%i - 1, %j] : memref<16x16xf64>
        %2 = affine.load %A[%i - 1, %j + 1] : memref<16x16xf64>
        %3 = affine.load %A[%i, %j - 1] : memref<16x16xf64>
        %4 = affine.load %A[%i, %j] : memref<16x16xf64>
        %5 = affine.load %A[%i, %j + 1] : memref<16x16xf64>
        %6 = affine.load %A[%i + 1, %j - 1] : memref<16x16xf64>
        %7 = affine.load %A[%i + 1, %j] : memref<16x16xf64>
        %8 = affine.load %A[%i + 1, %j + 1] : memref<16x16xf64>
        %s1 = arith.addf %0, %1 : f64
        %s2 = arith.addf %s1, %2 : f64
        %s3 = arith.addf %s2, %3 : f64
        %s4 = arith.addf %s3, %4 : f64
        %s5 = arith.addf %s4, %5 : f64
        %s6 = arith.addf %s5, %6 : f64
        %s7 = arith.addf %s6, %7 : f64
        %s8 = arith.addf %s7, %8 : f64
        %r = arith.divf %s8, %c : f64
        affine.store %r, %A[%i, %j] : memref<16x16xf64>
      }
    }
  }
  return
}
