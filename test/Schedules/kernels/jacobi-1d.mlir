func.func @jacobi_1d(%A: memref<32xf64>, %B: memref<32xf64>) {
  %c = arith.constant 0.33333 : f64
  affine.for %t = 0 to 10 {
    affine.for %i = 1 to 31 {
      %0 = affine.load %A[%i - 1] : memref<32xf64>
      %1 = affine.load %A[%i] : memref<32xf64>
      %2 = affine.load %A[%i + 1] : memref<32xf64>
      %3 = arith.addf %0, %1 : f64
      %4 = arith.addf %3, %2 : f64
      %5 = arith.mulf %c, %4 : f64
      affine.store %5, %B[%i] : memref<32xf64>
    }
    affine.for %i = 1 to 31 {
      %0 = affine.load %B[%i - 1] : memref<32xf64>
      %1 = affine.load %B[%i] : memref<32xf64>
      %2 = affine.load %B[%i + 1] : memref<32xf64>
      %3 = arith.addf %0, %1 : f64
      %4 = arith.addf %3, %2 : f64
      %5 = arith.mulf %c, %4 : f64
      affine.store %5, %A[%i] : memref<32xf64>
    }
  }
  return
}
