func.func @trisolv(%n: index, %L: memref<?x?xf32>, %x: memref<?xf32>, %b: memref<?xf32>) {
  affine.for %i = 0 to %n {
    %0 = affine.load %b[%i] : memref<?xf32>
    affine.store %0, %x[%i] : memref<?xf32>
    affine.for %j = 0 to affine_map<(d0) -> (d0)>(%i) {
      %1 = affine.load %x[%i] : memref<?xf32>
      %2 = affine.load %L[%i, %j] : memref<?x?xf32>
      %3 = affine.load %x[%j] : memref<?xf32>
      %4 = arith.mulf %2, %3 : f32
      %5 = arith.subf %1, %4 : f32
      affine.store %5, %x[%i] : memref<?xf32>
    }
    %6 = affine.load %x[%i] : memref<?xf32>
    %7 = affine.load %L[%i, %i] : memref<?x?xf32>
    %8 = arith.divf %6, %7 : f32
    affine.store %8, %x[%i] : memref<?xf32>
  }
  return
}
