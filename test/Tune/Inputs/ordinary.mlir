// An ordinary module (no @init, no `// outputs:`): pearl-tune tunes every
// loop region of every public function on pearl-exec's inputs.
//
// @two: two loop regions (the memref.dim between the nests ends the
// first), a dynamic 2-d shape and an index argument.
func.func @two(%A: memref<?x?xf64>, %B: memref<?x?xf64>, %n: index) {
  %c2 = arith.constant 2.0 : f64
  %c1 = arith.constant 1 : index
  affine.for %i = 0 to %n {
    affine.for %j = 0 to %n {
      %a = affine.load %A[%j, %i] : memref<?x?xf64>
      %b = arith.mulf %a, %c2 : f64
      affine.store %b, %B[%i, %j] : memref<?x?xf64>
    }
  }
  %m = memref.dim %B, %c1 : memref<?x?xf64>
  affine.for %i = 0 to %n {
    affine.for %j = 0 to %m {
      %a = affine.load %A[%i, %j] : memref<?x?xf64>
      %b = affine.load %B[%i, %j] : memref<?x?xf64>
      %s = arith.addf %a, %b : f64
      affine.store %s, %A[%i, %j] : memref<?x?xf64>
    }
  }
  return
}

// @scale: region 0 is tuned; region 1 stores nothing, so Pearl has no
// statement to schedule: it is no target (and gets no entry).
func.func @scale(%C: memref<?x16xf32>, %n: index) {
  %h = arith.constant 0.5 : f32
  %c0 = arith.constant 0 : index
  affine.for %i = 0 to %n {
    affine.for %j = 0 to 16 {
      %c = affine.load %C[%i, %j] : memref<?x16xf32>
      %d = arith.mulf %c, %h : f32
      affine.store %d, %C[%i, %j] : memref<?x16xf32>
    }
  }
  %d = memref.dim %C, %c0 : memref<?x16xf32>
  affine.for %i = 0 to %d {
    %c = affine.load %C[%i, 0] : memref<?x16xf32>
  }
  return
}

// @gather: its only nest accesses memory through memref.load, which Pearl
// does not model: no target at all.
func.func @gather(%X: memref<?xf64>, %n: index) {
  affine.for %i = 0 to %n {
    %v = memref.load %X[%i] : memref<?xf64>
    %w = arith.addf %v, %v : f64
    memref.store %w, %X[%i] : memref<?xf64>
  }
  return
}

// A private helper is not a target (pearl-exec runs public functions).
func.func private @helper(%X: memref<?xf64>) {
  affine.for %i = 0 to 4 {
    %v = affine.load %X[%i] : memref<?xf64>
    affine.store %v, %X[%i + 4] : memref<?xf64>
  }
  return
}
