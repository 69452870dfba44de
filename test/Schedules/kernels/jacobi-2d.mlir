// jacobi-2d (PolyBench 4.2.1), MINI-like sizes: TSTEPS = 20, N = 30.
// Each time step computes B from A, then A from B.
func.func @jacobi_2d(%A: memref<30x30xf64>, %B: memref<30x30xf64>) {
  %c = arith.constant 0.2 : f64
  affine.for %t = 0 to 20 {
    affine.for %i = 1 to 29 {
      affine.for %j = 1 to 29 {
        %0 = affine.load %A[%i, %j] : memref<30x30xf64>
        %1 = affine.load %A[%i, %j - 1] : memref<30x30xf64>
        %2 = affine.load %A[%i, %j + 1] : memref<30x30xf64>
        %3 = affine.load %A[%i + 1, %j] : memref<30x30xf64>
        %4 = affine.load %A[%i - 1, %j] : memref<30x30xf64>
        %5 = arith.addf %0, %1 : f64
        %6 = arith.addf %5, %2 : f64
        %7 = arith.addf %6, %3 : f64
        %8 = arith.addf %7, %4 : f64
        %9 = arith.mulf %c, %8 : f64
        affine.store %9, %B[%i, %j] : memref<30x30xf64>
      }
    }
    affine.for %i = 1 to 29 {
      affine.for %j = 1 to 29 {
        %0 = affine.load %B[%i, %j] : memref<30x30xf64>
        %1 = affine.load %B[%i, %j - 1] : memref<30x30xf64>
        %2 = affine.load %B[%i, %j + 1] : memref<30x30xf64>
        %3 = affine.load %B[%i + 1, %j] : memref<30x30xf64>
        %4 = affine.load %B[%i - 1, %j] : memref<30x30xf64>
        %5 = arith.addf %0, %1 : f64
        %6 = arith.addf %5, %2 : f64
        %7 = arith.addf %6, %3 : f64
        %8 = arith.addf %7, %4 : f64
        %9 = arith.mulf %c, %8 : f64
        affine.store %9, %A[%i, %j] : memref<30x30xf64>
      }
    }
  }
  return
}
