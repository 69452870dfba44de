// Bound maps with max/min results and a symbol, a step, affine.if with an
// else branch (its domain is the complement), affine.apply indices, and
// floordiv/mod in accesses (existentially quantified isl constraints).
// RUN: %mlir_opt_pearl %s --pass-pipeline='builtin.module(func.func(pearl-schedule{print-model agent=none}))' -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=isl_ctx --implicit-check-not=remark

// CHECK-LABEL: model @bounds
// CHECK-NEXT:   parameters: [arg0]
// CHECK-NEXT:   statements:
// CHECK-NEXT:     S0 f32 ops: none
// CHECK-NEXT:       domain: [arg0] -> { S0[i0, i1] : 0 <= i0 < arg0 and i1 >= -4 + i0 and 0 <= i1 <= i0 and i1 < arg0 }
// CHECK-NEXT:       write:  [arg0] -> { S0[i0, i1] -> arg1[i0, i1] }
// CHECK-NEXT:     S1 f32 ops: none
// CHECK-NEXT:       domain: [arg0] -> { S1[i0, i1] : 0 <= i0 < arg0 and i1 > i0 and 0 <= i1 <= 4 + i0 and i1 < arg0 }
// CHECK-NEXT:       write:  [arg0] -> { S1[i0, i1] -> arg1[i0, i1] }
// CHECK-NEXT:       read:   [arg0] -> { S1[i0, i1] -> arg1[-i0 + i1, i0] }
// CHECK-NEXT:     S2 f32 ops: none
// CHECK-NEXT:       domain: { S2[i0] : (1 + i0) mod 3 = 0 and 2 <= i0 <= 99 }
// CHECK-NEXT:       write:  { S2[i0] -> arg2[o0] : (-1 - i0 + o0) mod 7 = 0 and 50 <= o0 <= 56 }
// CHECK-NEXT:       read:   { S2[i0] -> arg2[o0] : -1 + i0 <= 2o0 <= i0 }
// CHECK-NEXT:   loop tree:
// CHECK-NEXT:     L0 [arg0] -> { [i0] : 0 <= i0 < arg0 } carries RAW WAR
// CHECK-NEXT:       distances: [arg0] -> { [i0] : i0 >= 0 and 3 - arg0 <= i0 <= 4 and i0 < arg0 }
// CHECK-NEXT:       L1 [arg0] -> { [i0, i1] : 0 <= i0 < arg0 and i1 >= -4 + i0 and 0 <= i1 <= 4 + i0 and i1 < arg0 } carries RAW
// CHECK-NEXT:         distances: [arg0] -> { [i0, i1] : i0 >= 0 and i1 >= -4 and ((i0 > 0 and i1 <= -i0 and 2i1 > -arg0 - i0) or (i0 <= 4 and 0 < i1 <= 4 and 2i1 < arg0 - i0)) }
// CHECK-NEXT:         S0
// CHECK-NEXT:         S1
// CHECK-NEXT:     L2 [arg0] -> { [i0] : (1 + i0) mod 3 = 0 and 2 <= i0 <= 99 } carries WAW
// CHECK-NEXT:       distances: [arg0] -> { [i0] : (i0) mod 21 = 0 and 0 < i0 <= 97 }
// CHECK-NEXT:       S2
// CHECK-NEXT:   schedule:
// CHECK-NEXT:     domain: "[arg0] -> { S0[i0, i1] : i0 < arg0 and i1 >= -4 + i0 and 0 <= i1 <= i0; S2[i0] : (1 + i0) mod 3 = 0 and 2 <= i0 <= 99; S1[i0, i1] : i0 >= 0 and i0 < i1 <= 4 + i0 and i1 < arg0 }"
// CHECK-NEXT:     child:
// CHECK-NEXT:       sequence:
// CHECK-NEXT:       - filter: "[arg0] -> { S0[i0, i1]; S1[i0, i1] }"
// CHECK-NEXT:         child:
// CHECK-NEXT:           schedule: "[arg0] -> [{ S0[i0, i1] -> [(i0)]; S1[i0, i1] -> [(i0)] }]"
// CHECK-NEXT:           child:
// CHECK-NEXT:             schedule: "[arg0] -> [{ S0[i0, i1] -> [(i1)]; S1[i0, i1] -> [(i1)] }]"
// CHECK-NEXT:             child:
// CHECK-NEXT:               sequence:
// CHECK-NEXT:               - filter: "[arg0] -> { S0[i0, i1] }"
// CHECK-NEXT:               - filter: "[arg0] -> { S1[i0, i1] }"
// CHECK-NEXT:       - filter: "[arg0] -> { S2[i0] }"
// CHECK-NEXT:         child:
// CHECK-NEXT:           schedule: "[{ S2[i0] -> [(i0)] }]"
// CHECK-NEXT:   dependences:
// CHECK-NEXT:     RAW: [arg0] -> { S0[i0, i1 = i0] -> S1[i0' = i0, i1' = 2i0] : 0 < i0 <= 4 and 2i0 < arg0; S1[i0, i1] -> S1[i0' = i1, i1' = i0 + i1] : 0 < i0 <= 4 and i0 < i1 <= 4 + i0 and i1 < arg0 - i0 }
// CHECK-NEXT:     WAR: [arg0] -> { S1[i0, i1] -> S0[i0' = -i0 + i1, i1' = i0] : i0 >= 0 and 2i0 < i1 <= 4 + i0 and i1 < arg0 }
// CHECK-NEXT:     WAW: [arg0] -> { S2[i0] -> S2[i0'] : (1 + i0) mod 3 = 0 and (-i0 + i0') mod 21 = 0 and i0 >= 2 and i0 < i0' <= 99 }

#lb = affine_map<(d0) -> (0, d0 - 4)>
#ub = affine_map<(d0)[s0] -> (s0, d0 + 5)>
#set = affine_set<(d0, d1) : (d0 - d1 >= 0)>
func.func @bounds(%n: index, %A: memref<?x?xf32>, %B: memref<?xf32>) {
  %cst = arith.constant 1.0 : f32
  affine.for %i = 0 to %n {
    affine.for %j = max #lb(%i) to min #ub(%i)[%n] {
      affine.if #set(%i, %j) {
        affine.store %cst, %A[%i, %j] : memref<?x?xf32>
      } else {
        %k = affine.apply affine_map<(d0, d1) -> (d1 - d0)>(%i, %j)
        %0 = affine.load %A[%k, %i] : memref<?x?xf32>
        affine.store %0, %A[%i, %j] : memref<?x?xf32>
      }
    }
  }
  affine.for %i = 2 to 100 step 3 {
    %0 = affine.load %B[%i floordiv 2] : memref<?xf32>
    affine.store %0, %B[%i mod 7 + 50] : memref<?xf32>
  }
  return
}
