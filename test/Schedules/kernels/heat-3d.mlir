// heat-3d (PolyBench) with small sizes: TSTEPS = 3, N = 12.
func.func @heat_3d(%A: memref<12x12x12xf32>, %B: memref<12x12x12xf32>) {
  %c = arith.constant 0.125 : f32
  %two = arith.constant 2.0 : f32
  affine.for %t = 0 to 3 {
    affine.for %i = 1 to 11 {
      affine.for %j = 1 to 11 {
        affine.for %k = 1 to 11 {
          %0 = affine.load %A[%i + 1, %j, %k] : memref<12x12x12xf32>
          %1 = affine.load %A[%i, %j, %k] : memref<12x12x12xf32>
          %2 = affine.load %A[%i - 1, %j, %k] : memref<12x12x12xf32>
          %3 = affine.load %A[%i, %j + 1, %k] : memref<12x12x12xf32>
          %4 = affine.load %A[%i, %j - 1, %k] : memref<12x12x12xf32>
          %5 = affine.load %A[%i, %j, %k + 1] : memref<12x12x12xf32>
          %6 = affine.load %A[%i, %j, %k - 1] : memref<12x12x12xf32>
          %m = arith.mulf %two, %1 : f32
          %a0 = arith.subf %0, %m : f32
          %a1 = arith.addf %a0, %2 : f32
          %b0 = arith.subf %3, %m : f32
          %b1 = arith.addf %b0, %4 : f32
          %c0 = arith.subf %5, %m : f32
          %c1 = arith.addf %c0, %6 : f32
          %s0 = arith.addf %a1, %b1 : f32
          %s1 = arith.addf %s0, %c1 : f32
          %s2 = arith.mulf %c, %s1 : f32
          %r = arith.addf %s2, %1 : f32
          affine.store %r, %B[%i, %j, %k] : memref<12x12x12xf32>
        }
      }
    }
    affine.for %i = 1 to 11 {
      affine.for %j = 1 to 11 {
        affine.for %k = 1 to 11 {
          %1 = affine.load %B[%i, %j, %k] : memref<12x12x12xf32>
          affine.store %1, %A[%i, %j, %k] : memref<12x12x12xf32>
        }
      }
    }
  }
  return
}
