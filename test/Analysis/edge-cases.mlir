// Edge cases of region finding and extraction, one function each: a
// declaration, a store outside any loop, a nest without stores, a value
// loaded before the region (an input, not a read), an induction variable used
// as data, nested affine.ifs, a bound computed between two nests (it splits
// the region and becomes a parameter), and vector accesses.
// RUN: %pearl_opt %s --pearl-schedule="print-model agent=none" --mlir-disable-threading -verify-diagnostics -o /dev/null | FileCheck %s
// RUN: %pearl_opt %s --pearl-schedule=agent=none --mlir-disable-threading -o %t.after 2>/dev/null
// RUN: mlir-opt %s -o %t.before
// RUN: diff %t.before %t.after

// CHECK-NOT: model @decl
// CHECK-NOT: model @no_loops
// CHECK-NOT: model @no_stores

// CHECK-LABEL: model @scalar_read
// CHECK:         S0 f32 ops: arith.mulf x1
// CHECK-NEXT:      domain: { S0[i0] : 0 <= i0 <= 7 }
// CHECK-NEXT:      write:  { S0[i0] -> arg0[i0] }
// CHECK-NEXT:      read:   { S0[i0] -> arg0[i0] }
// CHECK-NEXT:    S1 i32 ops: arith.index_cast x1
// CHECK-NEXT:      domain: { S1[i0] : 0 <= i0 <= 7 }
// CHECK-NEXT:      write:  { S1[i0] -> arg2[i0] }
// CHECK-NEXT:  loop tree:
// CHECK-NEXT:    L0 { [i0] : 0 <= i0 <= 7 } parallel
// CHECK-NEXT:      S0
// CHECK-NEXT:    L1 { [i0] : 0 <= i0 <= 7 } parallel
// CHECK-NEXT:      S1

// CHECK-LABEL: model @nested_ifs
// CHECK:         domain: { S0[i0, i1 = i0] : 2 <= i0 <= 9 }

// CHECK-LABEL: model @param_inside
// CHECK-NEXT:    parameters: [arg1]
// CHECK:         domain: [arg1] -> { S0[i0] : 0 <= i0 < arg1 }
// CHECK-LABEL: model @param_inside
// CHECK-NEXT:    parameters: [v0]
// CHECK:         domain: [v0] -> { S0[i0] : 0 <= i0 < v0 }

// CHECK-NOT: model @vector

func.func private @decl(memref<4xf32>)

func.func @no_loops(%A: memref<4xf32>) {
  %c = arith.constant 1.0 : f32
  affine.store %c, %A[0] : memref<4xf32>
  return
}

func.func @no_stores(%A: memref<4xf32>) {
  // expected-remark @below {{pearl-schedule: loop nest left unchanged: no affine.store to schedule}}
  affine.for %i = 0 to 4 {
    %0 = affine.load %A[%i] : memref<4xf32>
  }
  return
}

func.func @scalar_read(%A: memref<8xf32>, %s: memref<f32>, %B: memref<8xi32>) {
  %v = affine.load %s[] : memref<f32>
  affine.for %i = 0 to 8 {
    %0 = affine.load %A[%i] : memref<8xf32>
    %1 = arith.mulf %0, %v : f32
    affine.store %1, %A[%i] : memref<8xf32>
  }
  affine.for %i = 0 to 8 {
    %c = arith.index_cast %i : index to i32
    affine.store %c, %B[%i] : memref<8xi32>
  }
  return
}

func.func @nested_ifs(%A: memref<10x10xf32>) {
  %c = arith.constant 0.0 : f32
  affine.for %i = 0 to 10 {
    affine.if affine_set<(d0) : (d0 - 2 >= 0)>(%i) {
      affine.for %j = 0 to 10 {
        affine.if affine_set<(d0, d1) : (d0 - d1 == 0)>(%i, %j) {
          affine.store %c, %A[%i, %j] : memref<10x10xf32>
        }
      }
    }
  }
  return
}

func.func @param_inside(%A: memref<?xf32>, %n: index) {
  %c = arith.constant 0.0 : f32
  affine.for %i = 0 to %n {
    affine.store %c, %A[%i] : memref<?xf32>
  }
  %m = arith.addi %n, %n : index
  affine.for %i = 0 to %m {
    affine.store %c, %A[%i] : memref<?xf32>
  }
  return
}

func.func @vector(%A: memref<16xf32>) {
  affine.for %i = 0 to 16 step 4 {
    // expected-remark @below {{pearl-schedule: loop nest left unchanged: vector accesses (affine.vector_load) are not modeled}}
    %v = affine.vector_load %A[%i] : memref<16xf32>, vector<4xf32>
    affine.vector_store %v, %A[%i] : memref<16xf32>, vector<4xf32>
  }
  return
}
