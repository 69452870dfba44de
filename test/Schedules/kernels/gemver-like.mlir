// A multi-nest kernel in the style of gemver: a rank-2 update, then two
// matrix-vector products reading it (one transposed), int32 data.
func.func @gemver_like(%A: memref<24x24xi32>, %u: memref<24xi32>, %v: memref<24xi32>, %x: memref<24xi32>, %y: memref<24xi32>, %w: memref<24xi32>) {
  affine.for %i = 0 to 24 {
    affine.for %j = 0 to 24 {
      %a = affine.load %A[%i, %j] : memref<24x24xi32>
      %ui = affine.load %u[%i] : memref<24xi32>
      %vj = affine.load %v[%j] : memref<24xi32>
      %p = arith.muli %ui, %vj : i32
      %s = arith.addi %a, %p : i32
      affine.store %s, %A[%i, %j] : memref<24x24xi32>
    }
  }
  affine.for %i = 0 to 24 {
    affine.for %j = 0 to 24 {
      %xi = affine.load %x[%i] : memref<24xi32>
      %a = affine.load %A[%j, %i] : memref<24x24xi32>
      %yj = affine.load %y[%j] : memref<24xi32>
      %p = arith.muli %a, %yj : i32
      %s = arith.addi %xi, %p : i32
      affine.store %s, %x[%i] : memref<24xi32>
    }
  }
  affine.for %i = 0 to 24 {
    affine.for %j = 0 to 24 {
      %wi = affine.load %w[%i] : memref<24xi32>
      %a = affine.load %A[%i, %j] : memref<24x24xi32>
      %xj = affine.load %x[%j] : memref<24xi32>
      %p = arith.muli %a, %xj : i32
      %s = arith.addi %wi, %p : i32
      affine.store %s, %w[%i] : memref<24xi32>
    }
  }
  return
}
