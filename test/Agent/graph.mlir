// Pearl's AST graph, as the policy sees it (print-graph decodes the feature
// rows): loops with extents, bounds, focus and memory behaviour (the
// fractions of the accesses below that stay put, move by one element or
// by more when the loop steps; the largest stride; the bytes one execution
// and one iteration of the loop touch); statements with their type,
// operation counts and access matrices over the original iterators.
// RUN: %pearl_opt %s --pearl-schedule="print-graph agent=none" --mlir-disable-threading -o /dev/null | FileCheck %s
// jacobi-2d (the bundled example): a time loop shared by two branches.
// RUN: %pearl_opt %pearl_src/tools/examples/jacobi-2d.mlir --pearl-schedule="print-graph agent=none" -o /dev/null | FileCheck %s --check-prefix=JACOBI
// Transformation tags are read off the transformed schedule.
// RUN: %pearl_opt %s --pearl-schedule='schedule="I(0,1) T(0,1,16,32) P(0) U(4)" print-graph' --mlir-disable-threading -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=TAGS
// RUN: %pearl_opt %s --pearl-schedule='schedule="R(0) S(1,2,1,1)" print-graph' --mlir-disable-threading -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=SKEW

// CHECK-LABEL: graph @matmul region 0: 5 nodes, 4 edges, 537 features
// CHECK-NEXT:    n0 root
// CHECK-NEXT:    n1 loop <- n0 level 0 extent 64 [0, 63] focus row i0 mem inv 0.25 unit 0.00 strided 0.75 stride 384 B foot 53248 B iter 12928 B
// CHECK-NEXT:    n2 loop <- n1 level 1 extent 48 [0, 47] focus row i1 mem inv 0.25 unit 0.75 strided 0.00 stride 8 B foot 12928 B iter 520 B
// CHECK-NEXT:    n3 loop <- n2 level 2 extent 32 [0, 31] focus row i2 mem inv 0.50 unit 0.25 strided 0.25 stride 384 B foot 520 B iter 24 B
// CHECK-NEXT:    n4 stmt <- n3 f64 reduction focus ops add 1 mul 1 reads 3 depth 3
// CHECK-NEXT:         write b0 [i0; i1]
// CHECK-NEXT:         read  b0 [i0; i1]
// CHECK-NEXT:         read  b1 [i0; i2]
// CHECK-NEXT:         read  b2 [i2; i1]

// JACOBI:      graph @jacobi_2d region 0: 8 nodes, 7 edges, 537 features
// JACOBI-NEXT:   n0 root
// JACOBI-NEXT:   n1 loop <- n0 level 0 extent 20 [0, 19] focus row i0
// JACOBI-NEXT:   n2 loop <- n1 level 1 extent 28 [1, 28] focus row i1
// JACOBI-NEXT:   n3 loop <- n2 level 2 extent 28 [1, 28] focus row i2
// JACOBI-NEXT:   n4 stmt <- n3 f64 focus ops add 4 mul 1 reads 5 depth 3
// JACOBI-NEXT:        write b0 [i1; i2]
// JACOBI-NEXT:        read  b1 [i1; i2]
// JACOBI-NEXT:        read  b1 [i1; i2 - 1]
// JACOBI-NEXT:        read  b1 [i1; i2 + 1]
// JACOBI-NEXT:        read  b1 [i1 + 1; i2]
// JACOBI-NEXT:        read  b1 [i1 - 1; i2]
// JACOBI-NEXT:   n5 loop <- n1 level 1 extent 28 [1, 28] row i1
// JACOBI-NEXT:   n6 loop <- n5 level 2 extent 28 [1, 28] row i2
// JACOBI-NEXT:   n7 stmt <- n6 f64 ops add 4 mul 1 reads 5 depth 3
// JACOBI-NEXT:        write b1 [i1; i2]
// JACOBI-NEXT:        read  b0 [i1; i2]

// U(4) tags the innermost loop with its factor and keeps it whole (no strip
// loop: the code generator unrolls it with a cleanup loop).
// TAGS-LABEL: graph @matmul region 0: 7 nodes, 6 edges, 537 features
// TAGS-NEXT:    n0 root
// TAGS-NEXT:    n1 loop <- n0 level 0 extent 3 [0, 32] focus parallel tile 16 row i1 mem inv 0.25 unit 0.00 strided 0.75 stride 128 B foot 53248 B iter 28672 B
// TAGS-NEXT:    n2 loop <- n1 level 1 extent 2 [0, 32] focus tile 32 row i0
// TAGS-NEXT:    n3 loop <- n2 level 2 extent 16 [0, 15] focus point row i1
// TAGS-NEXT:    n4 loop <- n3 level 3 extent 32 [0, 31] focus point row i0
// TAGS-NEXT:    n5 loop <- n4 level 4 extent 32 [0, 31] focus unroll 4 row i2
// TAGS-NEXT:    n6 stmt <- n5 f64 reduction focus

// SKEW-LABEL: graph @matmul region 0: 5 nodes, 4 edges, 537 features
// SKEW-NEXT:    n0 root
// SKEW-NEXT:    n1 loop <- n0 level 0 extent 64 [-63, 0] focus reversed row -i0
// SKEW-NEXT:    n2 loop <- n1 level 1 extent 79 [0, 78] focus skewed row i1 + i2
// SKEW-NEXT:    n3 loop <- n2 level 2 extent 32 [0, 31] nonrect focus row i2
func.func @matmul(%A: memref<64x32xf64>, %B: memref<32x48xf64>, %C: memref<64x48xf64>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 48 {
      affine.for %k = 0 to 32 {
        %a = affine.load %A[%i, %k] : memref<64x32xf64>
        %b = affine.load %B[%k, %j] : memref<32x48xf64>
        %c = affine.load %C[%i, %j] : memref<64x48xf64>
        %p = arith.mulf %a, %b : f64
        %s = arith.addf %c, %p : f64
        affine.store %s, %C[%i, %j] : memref<64x48xf64>
      }
    }
  }
  return
}

// Two branches: the focus is on the first; buffers keep their ids across
// statements (b0 is written by S0 and read by S2, transposed); a
// 0-dimensional statement hangs off the root.
// CHECK-LABEL: graph @producer_consumer region 0: 8 nodes, 7 edges, 537 features
// CHECK-NEXT:    n0 root
// CHECK-NEXT:    n1 loop <- n0 level 0 extent 16 [0, 15] focus row i0
// CHECK-NEXT:    n2 loop <- n1 level 1 extent 16 [0, 15] focus row i1
// CHECK-NEXT:    n3 stmt <- n2 i32 focus ops mul 1 reads 1 depth 2
// CHECK-NEXT:         write b0 [i0; i1]
// CHECK-NEXT:         read  b1 [i0; i1]
// CHECK-NEXT:    n4 stmt <- n0 i32 ops reads 0 depth 0
// CHECK-NEXT:         write b2 []
// CHECK-NEXT:    n5 loop <- n0 level 0 extent 16 [0, 15] row i0
// CHECK-NEXT:    n6 loop <- n5 level 1 extent 16 [0, 15] row i1
// CHECK-NEXT:    n7 stmt <- n6 i32 ops add 1 reads 1 depth 2
// CHECK-NEXT:         write b3 [i0; i1]
// CHECK-NEXT:         read  b0 [i1; i0]
func.func @producer_consumer(%A: memref<16x16xi32>, %B: memref<16x16xi32>,
                             %C: memref<16x16xi32>, %D: memref<i32>) {
  %two = arith.constant 2 : i32
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 16 {
      %a = affine.load %A[%i, %j] : memref<16x16xi32>
      %m = arith.muli %a, %two : i32
      affine.store %m, %B[%i, %j] : memref<16x16xi32>
    }
  }
  affine.store %two, %D[] : memref<i32>
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 16 {
      %b = affine.load %B[%j, %i] : memref<16x16xi32>
      %s = arith.addi %b, %two : i32
      affine.store %s, %C[%i, %j] : memref<16x16xi32>
    }
  }
  return
}

// Symbolic and triangular bounds: the extent is taken at a parameter value
// of 1024 and flagged; the inner loop depends on the outer one.
// CHECK-LABEL: graph @trisolv region 0: 5 nodes, 4 edges, 537 features
// CHECK-NEXT:    n0 root
// CHECK-NEXT:    n1 loop <- n0 level 0 extent 1024 [0, 1023] symbolic focus row i0
// CHECK-NEXT:    n2 stmt <- n1 f32 focus ops reads 1 depth 1
// CHECK-NEXT:         write b0 [i0]
// CHECK-NEXT:         read  b1 [i0]
// CHECK-NEXT:    n3 loop <- n1 level 1 extent 1023 [0, 1022] symbolic nonrect row i1
// CHECK-NEXT:    n4 stmt <- n3 f32 reduction ops add 1 mul 1 reads 3 depth 2
// CHECK-NEXT:         write b0 [i0]
// CHECK-NEXT:         read  b0 [i0]
// CHECK-NEXT:         read  b2 [i0; i1]
// CHECK-NEXT:         read  b0 [i1]
func.func @trisolv(%L: memref<?x?xf32>, %x: memref<?xf32>, %b: memref<?xf32>, %n: index) {
  affine.for %i = 0 to %n {
    %bi = affine.load %b[%i] : memref<?xf32>
    affine.store %bi, %x[%i] : memref<?xf32>
    affine.for %j = 0 to affine_map<(d0) -> (d0)>(%i) {
      %xi = affine.load %x[%i] : memref<?xf32>
      %l = affine.load %L[%i, %j] : memref<?x?xf32>
      %xj = affine.load %x[%j] : memref<?xf32>
      %p = arith.mulf %l, %xj : f32
      %s = arith.subf %xi, %p : f32
      affine.store %s, %x[%i] : memref<?xf32>
    }
  }
  return
}
