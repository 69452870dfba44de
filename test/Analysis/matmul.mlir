// The model of matmul, through mlir-opt + plugin and through pearl-opt; both
// must print the same text.
// RUN: %mlir_opt_pearl %s --pass-pipeline='builtin.module(func.func(pearl-schedule{print-model agent=none}))' -o /dev/null > %t.plugin 2>&1
// RUN: FileCheck %s --implicit-check-not=isl_ctx < %t.plugin
// RUN: %pearl_opt %s --pearl-schedule="print-model agent=none" -o /dev/null > %t.driver 2>&1
// RUN: diff %t.plugin %t.driver

// CHECK-LABEL: model @matmul
// CHECK-NEXT:   parameters: []
// CHECK-NEXT:   statements:
// CHECK-NEXT:     S0 f64 ops: arith.addf x1 arith.mulf x1 reduction
// CHECK-NEXT:       domain: { S0[i0, i1, i2] : 0 <= i0 <= 63 and 0 <= i1 <= 47 and 0 <= i2 <= 31 }
// CHECK-NEXT:       write:  { S0[i0, i1, i2] -> arg2[i0, i1] }
// CHECK-NEXT:       read:   { S0[i0, i1, i2] -> arg2[i0, i1] }
// CHECK-NEXT:       read:   { S0[i0, i1, i2] -> arg0[i0, i2] }
// CHECK-NEXT:       read:   { S0[i0, i1, i2] -> arg1[i2, i1] }
// CHECK-NEXT:   loop tree:
// CHECK-NEXT:     L0 { [i0] : 0 <= i0 <= 63 } parallel
// CHECK-NEXT:       distances: { [0] }
// CHECK-NEXT:       L1 { [i0, i1] : 0 <= i0 <= 63 and 0 <= i1 <= 47 } parallel
// CHECK-NEXT:         distances: { [0, 0] }
// CHECK-NEXT:         L2 { [i0, i1, i2] : 0 <= i0 <= 63 and 0 <= i1 <= 47 and 0 <= i2 <= 31 } carries RAW WAR WAW
// CHECK-NEXT:           distances: { [0, 0, i2] : 0 < i2 <= 31 }
// CHECK-NEXT:           S0
// CHECK-NEXT:   schedule:
// CHECK-NEXT:     domain: "{ S0[i0, i1, i2] : 0 <= i0 <= 63 and 0 <= i1 <= 47 and 0 <= i2 <= 31 }"
// CHECK-NEXT:     child:
// CHECK-NEXT:       schedule: "[{ S0[i0, i1, i2] -> [(i0)] }]"
// CHECK-NEXT:       child:
// CHECK-NEXT:         schedule: "[{ S0[i0, i1, i2] -> [(i1)] }]"
// CHECK-NEXT:         child:
// CHECK-NEXT:           schedule: "[{ S0[i0, i1, i2] -> [(i2)] }]"
// CHECK-NEXT:   dependences:
// CHECK-NEXT:     RAW: { S0[i0, i1, i2] -> S0[i0' = i0, i1' = i1, i2'] : 0 <= i0 <= 63 and 0 <= i1 <= 47 and i2 >= 0 and i2 < i2' <= 31 }
// CHECK-NEXT:     WAR: { S0[i0, i1, i2] -> S0[i0' = i0, i1' = i1, i2'] : 0 <= i0 <= 63 and 0 <= i1 <= 47 and i2 >= 0 and i2 < i2' <= 31 }
// CHECK-NEXT:     WAW: { S0[i0, i1, i2] -> S0[i0' = i0, i1' = i1, i2'] : 0 <= i0 <= 63 and 0 <= i1 <= 47 and i2 >= 0 and i2 < i2' <= 31 }

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
