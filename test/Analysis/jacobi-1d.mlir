// jacobi-1d (PolyBench): the time loop carries every dependence; both space
// loops are parallel (their distances are zero whenever the time distance is).
// RUN: %mlir_opt_pearl %s --pass-pipeline='builtin.module(func.func(pearl-schedule{print-model agent=none}))' -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=isl_ctx --implicit-check-not=remark

// CHECK-LABEL: model @jacobi_1d
// CHECK-NEXT:   parameters: []
// CHECK-NEXT:   statements:
// CHECK-NEXT:     S0 f64 ops: arith.mulf x1 arith.addf x2
// CHECK-NEXT:       domain: { S0[i0, i1] : 0 <= i0 <= 9 and 0 < i1 <= 30 }
// CHECK-NEXT:       write:  { S0[i0, i1] -> arg1[i1] }
// CHECK-NEXT:       read:   { S0[i0, i1] -> arg0[-1 + i1] }
// CHECK-NEXT:       read:   { S0[i0, i1] -> arg0[i1] }
// CHECK-NEXT:       read:   { S0[i0, i1] -> arg0[1 + i1] }
// CHECK-NEXT:     S1 f64 ops: arith.mulf x1 arith.addf x2
// CHECK-NEXT:       domain: { S1[i0, i1] : 0 <= i0 <= 9 and 0 < i1 <= 30 }
// CHECK-NEXT:       write:  { S1[i0, i1] -> arg0[i1] }
// CHECK-NEXT:       read:   { S1[i0, i1] -> arg1[-1 + i1] }
// CHECK-NEXT:       read:   { S1[i0, i1] -> arg1[i1] }
// CHECK-NEXT:       read:   { S1[i0, i1] -> arg1[1 + i1] }
// CHECK-NEXT:   loop tree:
// CHECK-NEXT:     L0 { [i0] : 0 <= i0 <= 9 } carries RAW WAR WAW
// CHECK-NEXT:       distances: { [i0] : 0 <= i0 <= 9 }
// CHECK-NEXT:       L1 { [i0, i1] : 0 <= i0 <= 9 and 0 < i1 <= 30 } parallel
// CHECK-NEXT:         distances: { [i0, 0] : 0 < i0 <= 9 }
// CHECK-NEXT:         S0
// CHECK-NEXT:       L2 { [i0, i1] : 0 <= i0 <= 9 and 0 < i1 <= 30 } parallel
// CHECK-NEXT:         distances: { [i0, 0] : 0 < i0 <= 9 }
// CHECK-NEXT:         S1
// CHECK-NEXT:   schedule:
// CHECK-NEXT:     domain: "{ S0[i0, i1] : 0 <= i0 <= 9 and 0 < i1 <= 30; S1[i0, i1] : 0 <= i0 <= 9 and 0 < i1 <= 30 }"
// CHECK-NEXT:     child:
// CHECK-NEXT:       schedule: "[{ S0[i0, i1] -> [(i0)]; S1[i0, i1] -> [(i0)] }]"
// CHECK-NEXT:       child:
// CHECK-NEXT:         sequence:
// CHECK-NEXT:         - filter: "{ S0[i0, i1] }"
// CHECK-NEXT:           child:
// CHECK-NEXT:             schedule: "[{ S0[i0, i1] -> [(i1)] }]"
// CHECK-NEXT:         - filter: "{ S1[i0, i1] }"
// CHECK-NEXT:           child:
// CHECK-NEXT:             schedule: "[{ S1[i0, i1] -> [(i1)] }]"
// CHECK-NEXT:   dependences:
// CHECK-NEXT:     RAW: { S1[i0, i1] -> S0[i0', i1'] : i0 >= 0 and 0 < i1 <= 30 and i0 < i0' <= 9 and i1' >= -1 + i1 and 0 < i1' <= 30 and i1' <= 1 + i1; S0[i0, i1] -> S1[i0', i1'] : i0 >= 0 and 0 < i1 <= 30 and i0 <= i0' <= 9 and i1' >= -1 + i1 and 0 < i1' <= 30 and i1' <= 1 + i1 }
// CHECK-NEXT:     WAR: { S1[i0, i1] -> S0[i0', i1'] : i0 >= 0 and 0 < i1 <= 30 and i0 < i0' <= 9 and i1' >= -1 + i1 and 0 < i1' <= 30 and i1' <= 1 + i1; S0[i0, i1] -> S1[i0', i1'] : i0 >= 0 and 0 < i1 <= 30 and i0 <= i0' <= 9 and i1' >= -1 + i1 and 0 < i1' <= 30 and i1' <= 1 + i1 }
// CHECK-NEXT:     WAW: { S0[i0, i1] -> S0[i0', i1' = i1] : i0 >= 0 and 0 < i1 <= 30 and i0 < i0' <= 9; S1[i0, i1] -> S1[i0', i1' = i1] : i0 >= 0 and 0 < i1 <= 30 and i0 < i0' <= 9 }

func.func @jacobi_1d(%A: memref<32xf64>, %B: memref<32xf64>) {
  %c = arith.constant 0.33333 : f64
  affine.for %t = 0 to 10 {
    affine.for %i = 1 to 31 {
      %0 = affine.load %A[%i - 1] : memref<32xf64>
      %1 = affine.load %A[%i] : memref<32xf64>
      %2 = affine.load %A[%i + 1] : memref<32xf64>
      %3 = arith.addf %0, %1 : f64
      %4 = arith.addf %3, %2 : f64
      %5 = arith.mulf %c, %4 : f64
      affine.store %5, %B[%i] : memref<32xf64>
    }
    affine.for %i = 1 to 31 {
      %0 = affine.load %B[%i - 1] : memref<32xf64>
      %1 = affine.load %B[%i] : memref<32xf64>
      %2 = affine.load %B[%i + 1] : memref<32xf64>
      %3 = arith.addf %0, %1 : f64
      %4 = arith.addf %3, %2 : f64
      %5 = arith.mulf %c, %4 : f64
      affine.store %5, %A[%i] : memref<32xf64>
    }
  }
  return
}
