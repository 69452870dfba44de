// Two nests with a producer/consumer (RAW) dependence through B, read
// transposed, and a 0-dimensional statement between them: one region, a
// sequence of three items.
// RUN: %mlir_opt_pearl %s --pass-pipeline='builtin.module(func.func(pearl-schedule{print-model agent=none}))' -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=isl_ctx --implicit-check-not=remark

// CHECK-LABEL: model @producer_consumer
// CHECK-NEXT:   parameters: []
// CHECK-NEXT:   statements:
// CHECK-NEXT:     S0 i32 ops: arith.muli x1
// CHECK-NEXT:       domain: { S0[i0, i1] : 0 <= i0 <= 15 and 0 <= i1 <= 15 }
// CHECK-NEXT:       write:  { S0[i0, i1] -> arg1[i0, i1] }
// CHECK-NEXT:       read:   { S0[i0, i1] -> arg0[i0, i1] }
// CHECK-NEXT:     S1 i32 ops: none
// CHECK-NEXT:       domain: { S1[] }
// CHECK-NEXT:       write:  { S1[] -> arg3[] }
// CHECK-NEXT:     S2 i32 ops: arith.addi x1
// CHECK-NEXT:       domain: { S2[i0, i1] : 0 <= i0 <= 15 and 0 <= i1 <= 15 }
// CHECK-NEXT:       write:  { S2[i0, i1] -> arg2[i0, i1] }
// CHECK-NEXT:       read:   { S2[i0, i1] -> arg1[i1, i0] }
// CHECK-NEXT:   loop tree:
// CHECK-NEXT:     L0 { [i0] : 0 <= i0 <= 15 } parallel
// CHECK-NEXT:       L1 { [i0, i1] : 0 <= i0 <= 15 and 0 <= i1 <= 15 } parallel
// CHECK-NEXT:         S0
// CHECK-NEXT:     S1
// CHECK-NEXT:     L2 { [i0] : 0 <= i0 <= 15 } parallel
// CHECK-NEXT:       L3 { [i0, i1] : 0 <= i0 <= 15 and 0 <= i1 <= 15 } parallel
// CHECK-NEXT:         S2
// CHECK-NEXT:   schedule:
// CHECK-NEXT:     domain: "{ S0[i0, i1] : 0 <= i0 <= 15 and 0 <= i1 <= 15; S2[i0, i1] : 0 <= i0 <= 15 and 0 <= i1 <= 15; S1[] }"
// CHECK-NEXT:     child:
// CHECK-NEXT:       sequence:
// CHECK-NEXT:       - filter: "{ S0[i0, i1] }"
// CHECK-NEXT:         child:
// CHECK-NEXT:           schedule: "[{ S0[i0, i1] -> [(i0)] }]"
// CHECK-NEXT:           child:
// CHECK-NEXT:             schedule: "[{ S0[i0, i1] -> [(i1)] }]"
// CHECK-NEXT:       - filter: "{ S1[] }"
// CHECK-NEXT:       - filter: "{ S2[i0, i1] }"
// CHECK-NEXT:         child:
// CHECK-NEXT:           schedule: "[{ S2[i0, i1] -> [(i0)] }]"
// CHECK-NEXT:           child:
// CHECK-NEXT:             schedule: "[{ S2[i0, i1] -> [(i1)] }]"
// CHECK-NEXT:   dependences:
// CHECK-NEXT:     RAW: { S0[i0, i1] -> S2[i0' = i1, i1' = i0] : 0 <= i0 <= 15 and 0 <= i1 <= 15 }
// CHECK-NEXT:     WAR: {  }
// CHECK-NEXT:     WAW: {  }

func.func @producer_consumer(%A: memref<16x16xi32>, %B: memref<16x16xi32>, %C: memref<16x16xi32>, %s: memref<i32>) {
  %c2 = arith.constant 2 : i32
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 16 {
      %0 = affine.load %A[%i, %j] : memref<16x16xi32>
      %1 = arith.muli %0, %c2 : i32
      affine.store %1, %B[%i, %j] : memref<16x16xi32>
    }
  }
  %z = arith.constant 0 : i32
  affine.store %z, %s[] : memref<i32>
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 16 {
      %0 = affine.load %B[%j, %i] : memref<16x16xi32>
      %1 = arith.addi %0, %c2 : i32
      affine.store %1, %C[%i, %j] : memref<16x16xi32>
    }
  }
  return
}
