// A second ordinary module for the campaign over MPI ranks (mpi.test):
// functions named unlike ordinary.mlir's, so that one schedule file holds
// the entries of both.
func.func @transpose(%A: memref<?x?xf64>, %B: memref<?x?xf64>, %n: index) {
  affine.for %i = 0 to %n {
    affine.for %j = 0 to %n {
      %a = affine.load %A[%j, %i] : memref<?x?xf64>
      affine.store %a, %B[%i, %j] : memref<?x?xf64>
    }
  }
  return
}

func.func @axpy(%X: memref<?xf32>, %Y: memref<?xf32>, %n: index) {
  %a = arith.constant 3.0 : f32
  affine.for %i = 0 to %n {
    %x = affine.load %X[%i] : memref<?xf32>
    %y = affine.load %Y[%i] : memref<?xf32>
    %p = arith.mulf %a, %x : f32
    %s = arith.addf %p, %y : f32
    affine.store %s, %Y[%i] : memref<?xf32>
  }
  return
}
