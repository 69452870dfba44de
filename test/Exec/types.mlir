// Every supported argument type: memrefs of i8/i16/i64 (rank 0 to 2),
// f32/i32/i64/index scalars (1.5, 3, 3 and --size) and one scalar result.
// The expected program writes the values computed by hand.
// RUN: split-file %s %t
// RUN: %pearl_exec %t/mix.mlir %t/expected.mlir | FileCheck %s
// RUN: %pearl_exec --size=5 %t/mix.mlir | FileCheck %s --check-prefix=ONE
// RUN: %pearl_exec --entry=other %t/mix.mlir %t/expected.mlir | FileCheck %s --check-prefix=ENTRY

// CHECK:      arg0 memref<3x?xi8> 192 elements: identical
// CHECK-NEXT: arg1 memref<?xi16> 64 elements: identical
// CHECK-NEXT: arg2 memref<i64> 1 elements: identical
// CHECK-NEXT: result0 f32: identical
// CHECK-NEXT: pearl-exec: outputs identical

// ONE:      arg0 memref<3x?xi8> 15 elements: fnv1a 0x{{[0-9a-f]+$}}
// ONE-NEXT: arg1 memref<?xi16> 5 elements: fnv1a 0x{{[0-9a-f]+$}}
// ONE-NEXT: arg2 memref<i64> 1 elements: fnv1a 0x{{[0-9a-f]+$}}
// ONE-NEXT: result0 f32: 3 fnv1a 0x{{[0-9a-f]+$}}
// ONE-NEXT: pearl-exec: ran @mix

// ENTRY:      arg0 memref<?xf32> 64 elements: identical
// ENTRY-NEXT: pearl-exec: outputs identical

//--- mix.mlir
// Private: never the default entry.
func.func private @twice(%x: i64) -> i64 {
  %0 = arith.addi %x, %x : i64
  return %0 : i64
}

func.func @mix(%a: memref<3x?xi8>, %b: memref<?xi16>, %c: memref<i64>,
               %alpha: f32, %k: i32, %q: i64, %n: index) -> f32 {
  // a := a * 2 (wrapping i8), b := b * k.
  affine.for %i = 0 to 3 {
    affine.for %j = 0 to %n {
      %0 = affine.load %a[%i, %j] : memref<3x?xi8>
      %1 = arith.addi %0, %0 : i8
      affine.store %1, %a[%i, %j] : memref<3x?xi8>
    }
  }
  %k16 = arith.trunci %k : i32 to i16
  affine.for %i = 0 to %n {
    %0 = affine.load %b[%i] : memref<?xi16>
    %1 = arith.muli %0, %k16 : i16
    affine.store %1, %b[%i] : memref<?xi16>
  }
  // c := twice(q) + k + n = 6 + 3 + 64.
  %q2 = func.call @twice(%q) : (i64) -> i64
  %k64 = arith.extsi %k : i32 to i64
  %n64 = arith.index_cast %n : index to i64
  %s = arith.addi %q2, %k64 : i64
  %t = arith.addi %s, %n64 : i64
  affine.store %t, %c[] : memref<i64>
  %two = arith.constant 2.0 : f32
  %r = arith.mulf %alpha, %two : f32
  return %r : f32
}

func.func @other(%x: memref<?xf32>) {
  affine.for %i = 0 to 64 {
    %0 = affine.load %x[%i] : memref<?xf32>
    %1 = arith.negf %0 : f32
    affine.store %1, %x[%i] : memref<?xf32>
  }
  return
}

//--- expected.mlir
func.func @mix(%a: memref<3x?xi8>, %b: memref<?xi16>, %c: memref<i64>,
               %alpha: f32, %k: i32, %q: i64, %n: index) -> f32 {
  %c2 = arith.constant 2 : i8
  %c3 = arith.constant 3 : i16
  affine.for %j = 0 to %n {
    affine.for %i = 0 to 3 {
      %0 = affine.load %a[%i, %j] : memref<3x?xi8>
      %1 = arith.muli %0, %c2 : i8
      affine.store %1, %a[%i, %j] : memref<3x?xi8>
    }
  }
  affine.for %i = 0 to %n {
    %0 = affine.load %b[%i] : memref<?xi16>
    %1 = arith.muli %0, %c3 : i16
    affine.store %1, %b[%i] : memref<?xi16>
  }
  %v = arith.constant 73 : i64
  affine.store %v, %c[] : memref<i64>
  %r = arith.constant 3.0 : f32
  return %r : f32
}

func.func @other(%x: memref<?xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 64 {
    %0 = affine.load %x[63 - %i] : memref<?xf32>
    %1 = arith.subf %zero, %0 : f32
    affine.store %1, %x[63 - %i] : memref<?xf32>
  }
  return
}
