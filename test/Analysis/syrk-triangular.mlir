// syrk (PolyBench): a triangular, imperfect nest. The j loops run to i, the
// in-place scaling S0 is not a reduction, S1 is one (over k), and only k
// carries dependences.
// RUN: %mlir_opt_pearl %s --pass-pipeline='builtin.module(func.func(pearl-schedule{print-model agent=none}))' -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=isl_ctx --implicit-check-not=remark

// CHECK-LABEL: model @syrk
// CHECK-NEXT:   parameters: []
// CHECK-NEXT:   statements:
// CHECK-NEXT:     S0 f64 ops: arith.mulf x1
// CHECK-NEXT:       domain: { S0[i0, i1] : 0 <= i0 <= 11 and 0 <= i1 <= i0 }
// CHECK-NEXT:       write:  { S0[i0, i1] -> arg2[i0, i1] }
// CHECK-NEXT:       read:   { S0[i0, i1] -> arg2[i0, i1] }
// CHECK-NEXT:     S1 f64 ops: arith.addf x1 arith.mulf x2 reduction
// CHECK-NEXT:       domain: { S1[i0, i1, i2] : 0 <= i0 <= 11 and 0 <= i1 <= 7 and 0 <= i2 <= i0 }
// CHECK-NEXT:       write:  { S1[i0, i1, i2] -> arg2[i0, i2] }
// CHECK-NEXT:       read:   { S1[i0, i1, i2] -> arg2[i0, i2] }
// CHECK-NEXT:       read:   { S1[i0, i1, i2] -> arg3[i0, i1] }
// CHECK-NEXT:       read:   { S1[i0, i1, i2] -> arg3[i2, i1] }
// CHECK-NEXT:   loop tree:
// CHECK-NEXT:     L0 { [i0] : 0 <= i0 <= 11 } parallel
// CHECK-NEXT:       distances: { [0] }
// CHECK-NEXT:       L1 { [i0, i1] : 0 <= i0 <= 11 and 0 <= i1 <= i0 } parallel
// CHECK-NEXT:         S0
// CHECK-NEXT:       L2 { [i0, i1] : 0 <= i0 <= 11 and 0 <= i1 <= 7 } carries RAW WAR WAW
// CHECK-NEXT:         distances: { [0, i1] : 0 < i1 <= 7 }
// CHECK-NEXT:         L3 { [i0, i1, i2] : 0 <= i0 <= 11 and 0 <= i1 <= 7 and 0 <= i2 <= i0 } parallel
// CHECK-NEXT:           distances: { [0, i1, 0] : 0 < i1 <= 7 }
// CHECK-NEXT:           S1
// CHECK-NEXT:   schedule:
// CHECK-NEXT:     domain: "{ S0[i0, i1] : 0 <= i0 <= 11 and 0 <= i1 <= i0; S1[i0, i1, i2] : 0 <= i0 <= 11 and 0 <= i1 <= 7 and 0 <= i2 <= i0 }"
// CHECK-NEXT:     child:
// CHECK-NEXT:       schedule: "[{ S0[i0, i1] -> [(i0)]; S1[i0, i1, i2] -> [(i0)] }]"
// CHECK-NEXT:       child:
// CHECK-NEXT:         sequence:
// CHECK-NEXT:         - filter: "{ S0[i0, i1] }"
// CHECK-NEXT:           child:
// CHECK-NEXT:             schedule: "[{ S0[i0, i1] -> [(i1)] }]"
// CHECK-NEXT:         - filter: "{ S1[i0, i1, i2] }"
// CHECK-NEXT:           child:
// CHECK-NEXT:             schedule: "[{ S1[i0, i1, i2] -> [(i1)] }]"
// CHECK-NEXT:             child:
// CHECK-NEXT:               schedule: "[{ S1[i0, i1, i2] -> [(i2)] }]"
// CHECK-NEXT:   dependences:
// CHECK-NEXT:     RAW: { S1[i0, i1, i2] -> S1[i0' = i0, i1', i2' = i2] : i0 <= 11 and i1 >= 0 and 0 <= i2 <= i0 and i1 < i1' <= 7; S0[i0, i1] -> S1[i0' = i0, i1', i2 = i1] : i0 <= 11 and 0 <= i1 <= i0 and 0 <= i1' <= 7 }
// CHECK-NEXT:     WAR: { S1[i0, i1, i2] -> S1[i0' = i0, i1', i2' = i2] : i0 <= 11 and i1 >= 0 and 0 <= i2 <= i0 and i1 < i1' <= 7; S0[i0, i1] -> S1[i0' = i0, i1', i2 = i1] : i0 <= 11 and 0 <= i1 <= i0 and 0 <= i1' <= 7 }
// CHECK-NEXT:     WAW: { S1[i0, i1, i2] -> S1[i0' = i0, i1', i2' = i2] : i0 <= 11 and i1 >= 0 and 0 <= i2 <= i0 and i1 < i1' <= 7; S0[i0, i1] -> S1[i0' = i0, i1', i2 = i1] : i0 <= 11 and 0 <= i1 <= i0 and 0 <= i1' <= 7 }

func.func @syrk(%alpha: f64, %beta: f64, %C: memref<12x12xf64>, %A: memref<12x8xf64>) {
  affine.for %i = 0 to 12 {
    affine.for %j = 0 to affine_map<(d0) -> (d0 + 1)>(%i) {
      %0 = affine.load %C[%i, %j] : memref<12x12xf64>
      %1 = arith.mulf %0, %beta : f64
      affine.store %1, %C[%i, %j] : memref<12x12xf64>
    }
    affine.for %k = 0 to 8 {
      affine.for %j = 0 to affine_map<(d0) -> (d0 + 1)>(%i) {
        %0 = affine.load %A[%i, %k] : memref<12x8xf64>
        %1 = arith.mulf %alpha, %0 : f64
        %2 = affine.load %A[%j, %k] : memref<12x8xf64>
        %3 = arith.mulf %1, %2 : f64
        %4 = affine.load %C[%i, %j] : memref<12x12xf64>
        %5 = arith.addf %4, %3 : f64
        affine.store %5, %C[%i, %j] : memref<12x12xf64>
      }
    }
  }
  return
}
