func.func @syrk(%alpha: f64, %beta: f64, %C: memref<12x12xf64>, %A: memref<12x8xf64>) {
  affine.for %i = 0 to 12 {
    affine.for %j = 0 to affine_map<(d0) -> (d0 + 1)>(%i) {
      %0 = affine.load %C[%i, %j] : memref<12x12xf64>
      %1 = arith.mulf %0, %beta : f64
      affine.store %1, %C[%i, %j] : memref<12x12xf64>
    }
    affine.for %k = 0 to 8 {
      affine.for %j = 0 to affine_map<(d0) -> (d0 + 1)>(%i) {
        %0 = affine.load %A[%i, %k] : memref<12x8xf64>
        %1 = arith.mulf %alpha, %0 : f64
        %2 = affine.load %A[%j, %k] : memref<12x8xf64>
        %3 = arith.mulf %1, %2 : f64
        %4 = affine.load %C[%i, %j] : memref<12x12xf64>
        %5 = arith.addf %4, %3 : f64
        affine.store %5, %C[%i, %j] : memref<12x12xf64>
      }
    }
  }
  return
}
