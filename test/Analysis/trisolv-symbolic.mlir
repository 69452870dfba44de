// trisolv (PolyBench) with a symbolic size %n: the size becomes the isl
// parameter arg0; three statements at two depths (an imperfect, triangular nest).
// RUN: %mlir_opt_pearl %s --pass-pipeline='builtin.module(func.func(pearl-schedule{print-model agent=none}))' -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=isl_ctx --implicit-check-not=remark
// RUN: %mlir_opt_pearl %s --pass-pipeline='builtin.module(func.func(pearl-schedule{print-model agent=none}))' -o /dev/null > %t.plugin
// RUN: %pearl_opt %s --pearl-schedule="print-model agent=none" -o /dev/null > %t.driver
// RUN: diff %t.plugin %t.driver

// CHECK-LABEL: model @trisolv
// CHECK-NEXT:   parameters: [arg0]
// CHECK-NEXT:   statements:
// CHECK-NEXT:     S0 f32 ops: none
// CHECK-NEXT:       domain: [arg0] -> { S0[i0] : 0 <= i0 < arg0 }
// CHECK-NEXT:       write:  [arg0] -> { S0[i0] -> arg2[i0] }
// CHECK-NEXT:       read:   [arg0] -> { S0[i0] -> arg3[i0] }
// CHECK-NEXT:     S1 f32 ops: arith.subf x1 arith.mulf x1 reduction
// CHECK-NEXT:       domain: [arg0] -> { S1[i0, i1] : 0 <= i0 < arg0 and 0 <= i1 < i0 }
// CHECK-NEXT:       write:  [arg0] -> { S1[i0, i1] -> arg2[i0] }
// CHECK-NEXT:       read:   [arg0] -> { S1[i0, i1] -> arg2[i0] }
// CHECK-NEXT:       read:   [arg0] -> { S1[i0, i1] -> arg1[i0, i1] }
// CHECK-NEXT:       read:   [arg0] -> { S1[i0, i1] -> arg2[i1] }
// CHECK-NEXT:     S2 f32 ops: arith.divf x1
// CHECK-NEXT:       domain: [arg0] -> { S2[i0] : 0 <= i0 < arg0 }
// CHECK-NEXT:       write:  [arg0] -> { S2[i0] -> arg2[i0] }
// CHECK-NEXT:       read:   [arg0] -> { S2[i0] -> arg2[i0] }
// CHECK-NEXT:       read:   [arg0] -> { S2[i0] -> arg1[i0, i0] }
// CHECK-NEXT:   loop tree:
// CHECK-NEXT:     L0 [arg0] -> { [i0] : 0 <= i0 < arg0 } carries RAW
// CHECK-NEXT:       distances: [arg0] -> { [i0] : 0 <= i0 < arg0 }
// CHECK-NEXT:       S0
// CHECK-NEXT:       L1 [arg0] -> { [i0, i1] : 0 <= i0 < arg0 and 0 <= i1 < i0 } carries RAW WAR WAW
// CHECK-NEXT:         distances: [arg0] -> { [i0, i1] : i0 >= 0 and 0 < i1 < arg0 - i0 and i1 <= -2 + arg0 }
// CHECK-NEXT:         S1
// CHECK-NEXT:       S2
// CHECK-NEXT:   schedule:
// CHECK-NEXT:     domain: "[arg0] -> { S2[i0] : 0 <= i0 < arg0; S0[i0] : 0 <= i0 < arg0; S1[i0, i1] : 0 <= i0 < arg0 and 0 <= i1 < i0 }"
// CHECK-NEXT:     child:
// CHECK-NEXT:       schedule: "[arg0] -> [{ S2[i0] -> [(i0)]; S0[i0] -> [(i0)]; S1[i0, i1] -> [(i0)] }]"
// CHECK-NEXT:       child:
// CHECK-NEXT:         sequence:
// CHECK-NEXT:         - filter: "[arg0] -> { S0[i0] }"
// CHECK-NEXT:         - filter: "[arg0] -> { S1[i0, i1] }"
// CHECK-NEXT:           child:
// CHECK-NEXT:             schedule: "[arg0] -> [{ S1[i0, i1] -> [(i1)] }]"
// CHECK-NEXT:         - filter: "[arg0] -> { S2[i0] }"
// CHECK-NEXT:   dependences:
// CHECK-NEXT:     RAW: [arg0] -> { S2[i0] -> S1[i0', i1 = i0] : i0 >= 0 and i0 < i0' < arg0; S1[i0, i1] -> S2[i0' = i0] : i0 < arg0 and 0 <= i1 < i0; S0[i0] -> S1[i0', i1 = i0] : i0 >= 0 and i0 < i0' < arg0; S0[i0] -> S1[i0' = i0, i1] : i0 < arg0 and 0 <= i1 < i0; S1[i0, i1] -> S1[i0', i1' = i0] : 0 <= i1 < i0 and i0 < i0' < arg0; S1[i0, i1] -> S1[i0' = i0, i1'] : i0 < arg0 and i1 >= 0 and i1 < i1' < i0; S0[i0] -> S2[i0' = i0] : 0 <= i0 < arg0 }
// CHECK-NEXT:     WAR: [arg0] -> { S1[i0, i1] -> S2[i0' = i0] : i0 < arg0 and 0 <= i1 < i0; S1[i0, i1] -> S1[i0' = i0, i1'] : i0 < arg0 and i1 >= 0 and i1 < i1' < i0 }
// CHECK-NEXT:     WAW: [arg0] -> { S1[i0, i1] -> S2[i0' = i0] : i0 < arg0 and 0 <= i1 < i0; S0[i0] -> S1[i0' = i0, i1] : i0 < arg0 and 0 <= i1 < i0; S1[i0, i1] -> S1[i0' = i0, i1'] : i0 < arg0 and i1 >= 0 and i1 < i1' < i0; S0[i0] -> S2[i0' = i0] : 0 <= i0 < arg0 }

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
