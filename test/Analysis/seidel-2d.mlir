// seidel-2d (PolyBench): an in-place 9-point stencil. Every loop carries
// dependences; the distances show why (e.g. [0, 1, -1] forbids interchanging i and j).
// RUN: %mlir_opt_pearl %s --pass-pipeline='builtin.module(func.func(pearl-schedule{print-model agent=none}))' -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=isl_ctx --implicit-check-not=remark

// CHECK-LABEL: model @seidel_2d
// CHECK-NEXT:   parameters: []
// CHECK-NEXT:   statements:
// CHECK-NEXT:     S0 f64 ops: arith.divf x1 arith.addf x8 reduction
// CHECK-NEXT:       domain: { S0[i0, i1, i2] : 0 <= i0 <= 3 and 0 < i1 <= 14 and 0 < i2 <= 14 }
// CHECK-NEXT:       write:  { S0[i0, i1, i2] -> arg0[i1, i2] }
// CHECK-NEXT:       read:   { S0[i0, i1, i2] -> arg0[-1 + i1, -1 + i2] }
// CHECK-NEXT:       read:   { S0[i0, i1, i2] -> arg0[-1 + i1, i2] }
// CHECK-NEXT:       read:   { S0[i0, i1, i2] -> arg0[-1 + i1, 1 + i2] }
// CHECK-NEXT:       read:   { S0[i0, i1, i2] -> arg0[i1, -1 + i2] }
// CHECK-NEXT:       read:   { S0[i0, i1, i2] -> arg0[i1, i2] }
// CHECK-NEXT:       read:   { S0[i0, i1, i2] -> arg0[i1, 1 + i2] }
// CHECK-NEXT:       read:   { S0[i0, i1, i2] -> arg0[1 + i1, -1 + i2] }
// CHECK-NEXT:       read:   { S0[i0, i1, i2] -> arg0[1 + i1, i2] }
// CHECK-NEXT:       read:   { S0[i0, i1, i2] -> arg0[1 + i1, 1 + i2] }
// CHECK-NEXT:   loop tree:
// CHECK-NEXT:     L0 { [i0] : 0 <= i0 <= 3 } carries RAW WAR WAW
// CHECK-NEXT:       distances: { [i0] : 0 <= i0 <= 3 }
// CHECK-NEXT:       L1 { [i0, i1] : 0 <= i0 <= 3 and 0 < i1 <= 14 } carries RAW WAR
// CHECK-NEXT:         distances: { [i0, i1] : 0 <= i0 <= 3 and i1 >= -1 and -i0 <= i1 <= 1 }
// CHECK-NEXT:         L2 { [i0, i1, i2] : 0 <= i0 <= 3 and 0 < i1 <= 14 and 0 < i2 <= 14 } carries RAW WAR
// CHECK-NEXT:           distances: { [i0, i1, i2] : 0 < i0 <= 3 and -1 <= i1 <= 1 and -1 <= i2 <= 1; [0, i1, 1] : 0 <= i1 <= 1; [0, 1, i2] : -1 <= i2 <= 0 }
// CHECK-NEXT:           S0
// CHECK-NEXT:   schedule:
// CHECK-NEXT:     domain: "{ S0[i0, i1, i2] : 0 <= i0 <= 3 and 0 < i1 <= 14 and 0 < i2 <= 14 }"
// CHECK-NEXT:     child:
// CHECK-NEXT:       schedule: "[{ S0[i0, i1, i2] -> [(i0)] }]"
// CHECK-NEXT:       child:
// CHECK-NEXT:         schedule: "[{ S0[i0, i1, i2] -> [(i1)] }]"
// CHECK-NEXT:         child:
// CHECK-NEXT:           schedule: "[{ S0[i0, i1, i2] -> [(i2)] }]"
// CHECK-NEXT:   dependences:
// CHECK-NEXT:     RAW: { S0[i0, i1, i2] -> S0[i0', i1', i2'] : i0 >= 0 and 0 < i1 <= 14 and 0 < i2 <= 14 and i0 < i0' <= 3 and i1' >= -1 + i1 and 0 < i1' <= 14 and i1' <= 1 + i1 and i2' >= -1 + i2 and 0 < i2' <= 14 and i2' <= 1 + i2; S0[i0, i1, i2] -> S0[i0' = i0, i1' = 1 + i1, i2'] : 0 <= i0 <= 3 and 0 < i1 <= 13 and i2 <= 14 and i2' >= -1 + i2 and 0 < i2' <= i2; S0[i0, i1, i2] -> S0[i0' = i0, i1', i2' = 1 + i2] : 0 <= i0 <= 3 and i1 > 0 and 0 < i2 <= 13 and i1 <= i1' <= 14 and i1' <= 1 + i1 }
// CHECK-NEXT:     WAR: { S0[i0, i1, i2] -> S0[i0', i1', i2'] : i0 >= 0 and 0 < i1 <= 14 and 0 < i2 <= 14 and i0 < i0' <= 3 and i1' >= -1 + i1 and 0 < i1' <= 14 and i1' <= 1 + i1 and i2' >= -1 + i2 and 0 < i2' <= 14 and i2' <= 1 + i2; S0[i0, i1, i2] -> S0[i0' = i0, i1' = 1 + i1, i2'] : 0 <= i0 <= 3 and 0 < i1 <= 13 and i2 <= 14 and i2' >= -1 + i2 and 0 < i2' <= i2; S0[i0, i1, i2] -> S0[i0' = i0, i1', i2' = 1 + i2] : 0 <= i0 <= 3 and i1 > 0 and 0 < i2 <= 13 and i1 <= i1' <= 14 and i1' <= 1 + i1 }
// CHECK-NEXT:     WAW: { S0[i0, i1, i2] -> S0[i0', i1' = i1, i2' = i2] : i0 >= 0 and 0 < i1 <= 14 and 0 < i2 <= 14 and i0 < i0' <= 3 }

func.func @seidel_2d(%A: memref<16x16xf64>) {
  %c = arith.constant 9.0 : f64
  affine.for %t = 0 to 4 {
    affine.for %i = 1 to 15 {
      affine.for %j = 1 to 15 {
        %0 = affine.load %A[%i - 1, %j - 1] : memref<16x16xf64>
        %1 = affine.load %A[%i - 1, %j] : memref<16x16xf64>
        %2 = affine.load %A[%i - 1, %j + 1] : memref<16x16xf64>
        %3 = affine.load %A[%i, %j - 1] : memref<16x16xf64>
        %4 = affine.load %A[%i, %j] : memref<16x16xf64>
        %5 = affine.load %A[%i, %j + 1] : memref<16x16xf64>
        %6 = affine.load %A[%i + 1, %j - 1] : memref<16x16xf64>
        %7 = affine.load %A[%i + 1, %j] : memref<16x16xf64>
        %8 = affine.load %A[%i + 1, %j + 1] : memref<16x16xf64>
        %s1 = arith.addf %0, %1 : f64
        %s2 = arith.addf %s1, %2 : f64
        %s3 = arith.addf %s2, %3 : f64
        %s4 = arith.addf %s3, %4 : f64
        %s5 = arith.addf %s4, %5 : f64
        %s6 = arith.addf %s5, %6 : f64
        %s7 = arith.addf %s6, %7 : f64
        %s8 = arith.addf %s7, %8 : f64
        %r = arith.divf %s8, %c : f64
        affine.store %r, %A[%i, %j] : memref<16x16xf64>
      }
    }
  }
  return
}
