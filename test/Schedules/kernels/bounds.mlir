// Bound maps with max/min, a step, symbols, affine.if with an else branch,
// affine.apply indices and floordiv/mod accesses.
#lb = affine_map<(d0) -> (0, d0 - 4)>
#ub = affine_map<(d0)[s0] -> (s0, d0 + 5)>
#set = affine_set<(d0, d1) : (d0 - d1 >= 0)>
func.func @bounds(%n: index, %A: memref<?x?xf32>, %B: memref<?xf32>) {
  %cst = arith.constant 1.0 : f32
  affine.for %i = 0 to %n {
    affine.for %j = max #lb(%i) to min #ub(%i)[%n] {
      affine.if #set(%i, %j) {
        affine.store %cst, %A[%i, %j] : memref<?x?xf32>
      } else {
        %k = affine.apply affine_map<(d0, d1) -> (d1 - d0)>(%i, %j)
        %0 = affine.load %A[%k, %i] : memref<?x?xf32>
        affine.store %0, %A[%i, %j] : memref<?x?xf32>
      }
    }
  }
  affine.for %i = 2 to 100 step 3 {
    %0 = affine.load %B[%i floordiv 2] : memref<?xf32>
    affine.store %0, %B[%i mod 7 + 50] : memref<?xf32>
  }
  return
}
