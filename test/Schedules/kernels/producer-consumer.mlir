func.func @producer_consumer(%A: memref<16x16xi32>, %B: memref<16x16xi32>, %C: memref<16x16xi32>, %s: memref<i32>) {
  %c2 = arith.constant 2 : i32
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 16 {
      %0 = affine.load %A[%i, %j] : memref<16x16xi32>
      %1 = arith.muli %0, %c2 : i32
      affine.store %1, %B[%i, %j] : memref<16x16xi32>
    }
  }
  %z = arith.constant 0 : i32
  affine.store %z, %s[] : memref<i32>
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 16 {
      %0 = affine.load %B[%j, %i] : memref<16x16xi32>
      %1 = arith.addi %0, %c2 : i32
      affine.store %1, %C[%i, %j] : memref<16x16xi32>
    }
  }
  return
}
