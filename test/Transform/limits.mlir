// Inputs at the edges of what the model and the policy's graph describe,
// one function each: a loop with no iteration (zero_trip), seven nested
// loops where the graph describes five (deep), 120 statements in one loop
// (many_statements), and a statement with fourteen reads where the graph
// describes ten (many_reads). Each gets a remark; the policy's schedules
// and explicit ones on the deep levels compute the outputs of the
// original (pearl-exec compares them bit for bit).
// RUN: %pearl_opt %s --pearl-schedule --mlir-disable-threading -o %t.policy.mlir 2>&1 | FileCheck %s --check-prefix=POLICY
// RUN: %pearl_exec --entry=deep %s %t.policy.mlir
// RUN: %pearl_exec --entry=many_statements %s %t.policy.mlir
// RUN: %pearl_exec --entry=many_reads %s %t.policy.mlir
// RUN: %pearl_exec --entry=zero_trip %s %t.policy.mlir
// RUN: %pearl_opt %s '--pearl-schedule=schedule="I(0,6) T(5,6,2,2) R(3) P(0)"' --mlir-disable-threading -o %t.deep.mlir 2>&1 | FileCheck %s --check-prefix=DEEP
// RUN: %pearl_exec --entry=deep %s %t.deep.mlir

// POLICY: limits.mlir:[[#@LINE+2]]:3: remark: pearl-schedule: agent (greedy)
func.func @zero_trip(%A: memref<64x64xf64>) {
  affine.for %i = 10 to 5 {
    affine.for %j = 0 to 64 {
      %v = affine.load %A[%j, %i] : memref<64x64xf64>
      affine.store %v, %A[%i, %j] : memref<64x64xf64>
    }
  }
  return
}

// POLICY: limits.mlir:[[#@LINE+3]]:3: remark: pearl-schedule: agent (greedy)
func.func @deep(%A: memref<3x3x3x3x3x3x3xf64>) {
  %c = arith.constant 1.5 : f64
  affine.for %i0 = 0 to 3 {
    affine.for %i1 = 0 to 3 {
      affine.for %i2 = 0 to 3 {
        affine.for %i3 = 0 to 3 {
          affine.for %i4 = 0 to 3 {
            affine.for %i5 = 0 to 3 {
              affine.for %i6 = 0 to 3 {
                %v = affine.load %A[%i0, %i1, %i2, %i3, %i4, %i5, %i6] : memref<3x3x3x3x3x3x3xf64>
                %w = arith.addf %v, %c : f64
                affine.store %w, %A[%i0, %i1, %i2, %i3, %i4, %i5, %i6] : memref<3x3x3x3x3x3x3xf64>
              }
            }
          }
        }
      }
    }
  }
  return
}

// POLICY: limits.mlir:[[#@LINE+3]]:3: remark: pearl-schedule: agent (greedy)
func.func @many_statements(%S: memref<120x64xf64>) {
  %h = arith.constant 0.5 : f64
  affine.for %i = 0 to 64 {
    %l0 = affine.load %S[1, %i] : memref<120x64xf64>
    %m0 = arith.mulf %l0, %h : f64
    affine.store %m0, %S[0, %i] : memref<120x64xf64>
    %l1 = affine.load %S[2, %i] : memref<120x64xf64>
    %m1 = arith.mulf %l1, %h : f64
    affine.store %m1, %S[1, %i] : memref<120x64xf64>
    %l2 = affine.load %S[3, %i] : memref<120x64xf64>
    %m2 = arith.mulf %l2, %h : f64
    affine.store %m2, %S[2, %i] : memref<120x64xf64>
    %l3 = affine.load %S[4, %i] : memref<120x64xf64>
    %m3 = arith.mulf %l3, %h : f64
    affine.store %m3, %S[3, %i] : memref<120x64xf64>
    %l4 = affine.load %S[5, %i] : memref<120x64xf64>
    %m4 = arith.mulf %l4, %h : f64
    affine.store %m4, %S[4, %i] : memref<120x64xf64>
    %l5 = affine.load %S[6, %i] : memref<120x64xf64>
    %m5 = arith.mulf %l5, %h : f64
    affine.store %m5, %S[5, %i] : memref<120x64xf64>
    %l6 = affine.load %S[7, %i] : memref<120x64xf64>
    %m6 = arith.mulf %l6, %h : f64
    affine.store %m6, %S[6, %i] : memref<120x64xf64>
    %l7 = affine.load %S[8, %i] : memref<120x64xf64>
    %m7 = arith.mulf %l7, %h : f64
    affine.store %m7, %S[7, %i] : memref<120x64xf64>
    %l8 = affine.load %S[9, %i] : memref<120x64xf64>
    %m8 = arith.mulf %l8, %h : f64
    affine.store %m8, %S[8, %i] : memref<120x64xf64>
    %l9 = affine.load %S[10, %i] : memref<120x64xf64>
    %m9 = arith.mulf %l9, %h : f64
    affine.store %m9, %S[9, %i] : memref<120x64xf64>
    %l10 = affine.load %S[11, %i] : memref<120x64xf64>
    %m10 = arith.mulf %l10, %h : f64
    affine.store %m10, %S[10, %i] : memref<120x64xf64>
    %l11 = affine.load %S[12, %i] : memref<120x64xf64>
    %m11 = arith.mulf %l11, %h : f64
    affine.store %m11, %S[11, %i] : memref<120x64xf64>
    %l12 = affine.load %S[13, %i] : memref<120x64xf64>
    %m12 = arith.mulf %l12, %h : f64
    affine.store %m12, %S[12, %i] : memref<120x64xf64>
    %l13 = affine.load %S[14, %i] : memref<120x64xf64>
    %m13 = arith.mulf %l13, %h : f64
    affine.store %m13, %S[13, %i] : memref<120x64xf64>
    %l14 = affine.load %S[15, %i] : memref<120x64xf64>
    %m14 = arith.mulf %l14, %h : f64
    affine.store %m14, %S[14, %i] : memref<120x64xf64>
    %l15 = affine.load %S[16, %i] : memref<120x64xf64>
    %m15 = arith.mulf %l15, %h : f64
    affine.store %m15, %S[15, %i] : memref<120x64xf64>
    %l16 = affine.load %S[17, %i] : memref<120x64xf64>
    %m16 = arith.mulf %l16, %h : f64
    affine.store %m16, %S[16, %i] : memref<120x64xf64>
    %l17 = affine.load %S[18, %i] : memref<120x64xf64>
    %m17 = arith.mulf %l17, %h : f64
    affine.store %m17, %S[17, %i] : memref<120x64xf64>
    %l18 = affine.load %S[19, %i] : memref<120x64xf64>
    %m18 = arith.mulf %l18, %h : f64
    affine.store %m18, %S[18, %i] : memref<120x64xf64>
    %l19 = affine.load %S[20, %i] : memref<120x64xf64>
    %m19 = arith.mulf %l19, %h : f64
    affine.store %m19, %S[19, %i] : memref<120x64xf64>
    %l20 = affine.load %S[21, %i] : memref<120x64xf64>
    %m20 = arith.mulf %l20, %h : f64
    affine.store %m20, %S[20, %i] : memref<120x64xf64>
    %l21 = affine.load %S[22, %i] : memref<120x64xf64>
    %m21 = arith.mulf %l21, %h : f64
    affine.store %m21, %S[21, %i] : memref<120x64xf64>
    %l22 = affine.load %S[23, %i] : memref<120x64xf64>
    %m22 = arith.mulf %l22, %h : f64
    affine.store %m22, %S[22, %i] : memref<120x64xf64>
    %l23 = affine.load %S[24, %i] : memref<120x64xf64>
    %m23 = arith.mulf %l23, %h : f64
    affine.store %m23, %S[23, %i] : memref<120x64xf64>
    %l24 = affine.load %S[25, %i] : memref<120x64xf64>
    %m24 = arith.mulf %l24, %h : f64
    affine.store %m24, %S[24, %i] : memref<120x64xf64>
    %l25 = affine.load %S[26, %i] : memref<120x64xf64>
    %m25 = arith.mulf %l25, %h : f64
    affine.store %m25, %S[25, %i] : memref<120x64xf64>
    %l26 = affine.load %S[27, %i] : memref<120x64xf64>
    %m26 = arith.mulf %l26, %h : f64
    affine.store %m26, %S[26, %i] : memref<120x64xf64>
    %l27 = affine.load %S[28, %i] : memref<120x64xf64>
    %m27 = arith.mulf %l27, %h : f64
    affine.store %m27, %S[27, %i] : memref<120x64xf64>
    %l28 = affine.load %S[29, %i] : memref<120x64xf64>
    %m28 = arith.mulf %l28, %h : f64
    affine.store %m28, %S[28, %i] : memref<120x64xf64>
    %l29 = affine.load %S[30, %i] : memref<120x64xf64>
    %m29 = arith.mulf %l29, %h : f64
    affine.store %m29, %S[29, %i] : memref<120x64xf64>
    %l30 = affine.load %S[31, %i] : memref<120x64xf64>
    %m30 = arith.mulf %l30, %h : f64
    affine.store %m30, %S[30, %i] : memref<120x64xf64>
    %l31 = affine.load %S[32, %i] : memref<120x64xf64>
    %m31 = arith.mulf %l31, %h : f64
    affine.store %m31, %S[31, %i] : memref<120x64xf64>
    %l32 = affine.load %S[33, %i] : memref<120x64xf64>
    %m32 = arith.mulf %l32, %h : f64
    affine.store %m32, %S[32, %i] : memref<120x64xf64>
    %l33 = affine.load %S[34, %i] : memref<120x64xf64>
    %m33 = arith.mulf %l33, %h : f64
    affine.store %m33, %S[33, %i] : memref<120x64xf64>
    %l34 = affine.load %S[35, %i] : memref<120x64xf64>
    %m34 = arith.mulf %l34, %h : f64
    affine.store %m34, %S[34, %i] : memref<120x64xf64>
    %l35 = affine.load %S[36, %i] : memref<120x64xf64>
    %m35 = arith.mulf %l35, %h : f64
    affine.store %m35, %S[35, %i] : memref<120x64xf64>
    %l36 = affine.load %S[37, %i] : memref<120x64xf64>
    %m36 = arith.mulf %l36, %h : f64
    affine.store %m36, %S[36, %i] : memref<120x64xf64>
    %l37 = affine.load %S[38, %i] : memref<120x64xf64>
    %m37 = arith.mulf %l37, %h : f64
    affine.store %m37, %S[37, %i] : memref<120x64xf64>
    %l38 = affine.load %S[39, %i] : memref<120x64xf64>
    %m38 = arith.mulf %l38, %h : f64
    affine.store %m38, %S[38, %i] : memref<120x64xf64>
    %l39 = affine.load %S[40, %i] : memref<120x64xf64>
    %m39 = arith.mulf %l39, %h : f64
    affine.store %m39, %S[39, %i] : memref<120x64xf64>
    %l40 = affine.load %S[41, %i] : memref<120x64xf64>
    %m40 = arith.mulf %l40, %h : f64
    affine.store %m40, %S[40, %i] : memref<120x64xf64>
    %l41 = affine.load %S[42, %i] : memref<120x64xf64>
    %m41 = arith.mulf %l41, %h : f64
    affine.store %m41, %S[41, %i] : memref<120x64xf64>
    %l42 = affine.load %S[43, %i] : memref<120x64xf64>
    %m42 = arith.mulf %l42, %h : f64
    affine.store %m42, %S[42, %i] : memref<120x64xf64>
    %l43 = affine.load %S[44, %i] : memref<120x64xf64>
    %m43 = arith.mulf %l43, %h : f64
    affine.store %m43, %S[43, %i] : memref<120x64xf64>
    %l44 = affine.load %S[45, %i] : memref<120x64xf64>
    %m44 = arith.mulf %l44, %h : f64
    affine.store %m44, %S[44, %i] : memref<120x64xf64>
    %l45 = affine.load %S[46, %i] : memref<120x64xf64>
    %m45 = arith.mulf %l45, %h : f64
    affine.store %m45, %S[45, %i] : memref<120x64xf64>
    %l46 = affine.load %S[47, %i] : memref<120x64xf64>
    %m46 = arith.mulf %l46, %h : f64
    affine.store %m46, %S[46, %i] : memref<120x64xf64>
    %l47 = affine.load %S[48, %i] : memref<120x64xf64>
    %m47 = arith.mulf %l47, %h : f64
    affine.store %m47, %S[47, %i] : memref<120x64xf64>
    %l48 = affine.load %S[49, %i] : memref<120x64xf64>
    %m48 = arith.mulf %l48, %h : f64
    affine.store %m48, %S[48, %i] : memref<120x64xf64>
    %l49 = affine.load %S[50, %i] : memref<120x64xf64>
    %m49 = arith.mulf %l49, %h : f64
    affine.store %m49, %S[49, %i] : memref<120x64xf64>
    %l50 = affine.load %S[51, %i] : memref<120x64xf64>
    %m50 = arith.mulf %l50, %h : f64
    affine.store %m50, %S[50, %i] : memref<120x64xf64>
    %l51 = affine.load %S[52, %i] : memref<120x64xf64>
    %m51 = arith.mulf %l51, %h : f64
    affine.store %m51, %S[51, %i] : memref<120x64xf64>
    %l52 = affine.load %S[53, %i] : memref<120x64xf64>
    %m52 = arith.mulf %l52, %h : f64
    affine.store %m52, %S[52, %i] : memref<120x64xf64>
    %l53 = affine.load %S[54, %i] : memref<120x64xf64>
    %m53 = arith.mulf %l53, %h : f64
    affine.store %m53, %S[53, %i] : memref<120x64xf64>
    %l54 = affine.load %S[55, %i] : memref<120x64xf64>
    %m54 = arith.mulf %l54, %h : f64
    affine.store %m54, %S[54, %i] : memref<120x64xf64>
    %l55 = affine.load %S[56, %i] : memref<120x64xf64>
    %m55 = arith.mulf %l55, %h : f64
    affine.store %m55, %S[55, %i] : memref<120x64xf64>
    %l56 = affine.load %S[57, %i] : memref<120x64xf64>
    %m56 = arith.mulf %l56, %h : f64
    affine.store %m56, %S[56, %i] : memref<120x64xf64>
    %l57 = affine.load %S[58, %i] : memref<120x64xf64>
    %m57 = arith.mulf %l57, %h : f64
    affine.store %m57, %S[57, %i] : memref<120x64xf64>
    %l58 = affine.load %S[59, %i] : memref<120x64xf64>
    %m58 = arith.mulf %l58, %h : f64
    affine.store %m58, %S[58, %i] : memref<120x64xf64>
    %l59 = affine.load %S[60, %i] : memref<120x64xf64>
    %m59 = arith.mulf %l59, %h : f64
    affine.store %m59, %S[59, %i] : memref<120x64xf64>
    %l60 = affine.load %S[61, %i] : memref<120x64xf64>
    %m60 = arith.mulf %l60, %h : f64
    affine.store %m60, %S[60, %i] : memref<120x64xf64>
    %l61 = affine.load %S[62, %i] : memref<120x64xf64>
    %m61 = arith.mulf %l61, %h : f64
    affine.store %m61, %S[61, %i] : memref<120x64xf64>
    %l62 = affine.load %S[63, %i] : memref<120x64xf64>
    %m62 = arith.mulf %l62, %h : f64
    affine.store %m62, %S[62, %i] : memref<120x64xf64>
    %l63 = affine.load %S[64, %i] : memref<120x64xf64>
    %m63 = arith.mulf %l63, %h : f64
    affine.store %m63, %S[63, %i] : memref<120x64xf64>
    %l64 = affine.load %S[65, %i] : memref<120x64xf64>
    %m64 = arith.mulf %l64, %h : f64
    affine.store %m64, %S[64, %i] : memref<120x64xf64>
    %l65 = affine.load %S[66, %i] : memref<120x64xf64>
    %m65 = arith.mulf %l65, %h : f64
    affine.store %m65, %S[65, %i] : memref<120x64xf64>
    %l66 = affine.load %S[67, %i] : memref<120x64xf64>
    %m66 = arith.mulf %l66, %h : f64
    affine.store %m66, %S[66, %i] : memref<120x64xf64>
    %l67 = affine.load %S[68, %i] : memref<120x64xf64>
    %m67 = arith.mulf %l67, %h : f64
    affine.store %m67, %S[67, %i] : memref<120x64xf64>
    %l68 = affine.load %S[69, %i] : memref<120x64xf64>
    %m68 = arith.mulf %l68, %h : f64
    affine.store %m68, %S[68, %i] : memref<120x64xf64>
    %l69 = affine.load %S[70, %i] : memref<120x64xf64>
    %m69 = arith.mulf %l69, %h : f64
    affine.store %m69, %S[69, %i] : memref<120x64xf64>
    %l70 = affine.load %S[71, %i] : memref<120x64xf64>
    %m70 = arith.mulf %l70, %h : f64
    affine.store %m70, %S[70, %i] : memref<120x64xf64>
    %l71 = affine.load %S[72, %i] : memref<120x64xf64>
    %m71 = arith.mulf %l71, %h : f64
    affine.store %m71, %S[71, %i] : memref<120x64xf64>
    %l72 = affine.load %S[73, %i] : memref<120x64xf64>
    %m72 = arith.mulf %l72, %h : f64
    affine.store %m72, %S[72, %i] : memref<120x64xf64>
    %l73 = affine.load %S[74, %i] : memref<120x64xf64>
    %m73 = arith.mulf %l73, %h : f64
    affine.store %m73, %S[73, %i] : memref<120x64xf64>
    %l74 = affine.load %S[75, %i] : memref<120x64xf64>
    %m74 = arith.mulf %l74, %h : f64
    affine.store %m74, %S[74, %i] : memref<120x64xf64>
    %l75 = affine.load %S[76, %i] : memref<120x64xf64>
    %m75 = arith.mulf %l75, %h : f64
    affine.store %m75, %S[75, %i] : memref<120x64xf64>
    %l76 = affine.load %S[77, %i] : memref<120x64xf64>
    %m76 = arith.mulf %l76, %h : f64
    affine.store %m76, %S[76, %i] : memref<120x64xf64>
    %l77 = affine.load %S[78, %i] : memref<120x64xf64>
    %m77 = arith.mulf %l77, %h : f64
    affine.store %m77, %S[77, %i] : memref<120x64xf64>
    %l78 = affine.load %S[79, %i] : memref<120x64xf64>
    %m78 = arith.mulf %l78, %h : f64
    affine.store %m78, %S[78, %i] : memref<120x64xf64>
    %l79 = affine.load %S[80, %i] : memref<120x64xf64>
    %m79 = arith.mulf %l79, %h : f64
    affine.store %m79, %S[79, %i] : memref<120x64xf64>
    %l80 = affine.load %S[81, %i] : memref<120x64xf64>
    %m80 = arith.mulf %l80, %h : f64
    affine.store %m80, %S[80, %i] : memref<120x64xf64>
    %l81 = affine.load %S[82, %i] : memref<120x64xf64>
    %m81 = arith.mulf %l81, %h : f64
    affine.store %m81, %S[81, %i] : memref<120x64xf64>
    %l82 = affine.load %S[83, %i] : memref<120x64xf64>
    %m82 = arith.mulf %l82, %h : f64
    affine.store %m82, %S[82, %i] : memref<120x64xf64>
    %l83 = affine.load %S[84, %i] : memref<120x64xf64>
    %m83 = arith.mulf %l83, %h : f64
    affine.store %m83, %S[83, %i] : memref<120x64xf64>
    %l84 = affine.load %S[85, %i] : memref<120x64xf64>
    %m84 = arith.mulf %l84, %h : f64
    affine.store %m84, %S[84, %i] : memref<120x64xf64>
    %l85 = affine.load %S[86, %i] : memref<120x64xf64>
    %m85 = arith.mulf %l85, %h : f64
    affine.store %m85, %S[85, %i] : memref<120x64xf64>
    %l86 = affine.load %S[87, %i] : memref<120x64xf64>
    %m86 = arith.mulf %l86, %h : f64
    affine.store %m86, %S[86, %i] : memref<120x64xf64>
    %l87 = affine.load %S[88, %i] : memref<120x64xf64>
    %m87 = arith.mulf %l87, %h : f64
    affine.store %m87, %S[87, %i] : memref<120x64xf64>
    %l88 = affine.load %S[89, %i] : memref<120x64xf64>
    %m88 = arith.mulf %l88, %h : f64
    affine.store %m88, %S[88, %i] : memref<120x64xf64>
    %l89 = affine.load %S[90, %i] : memref<120x64xf64>
    %m89 = arith.mulf %l89, %h : f64
    affine.store %m89, %S[89, %i] : memref<120x64xf64>
    %l90 = affine.load %S[91, %i] : memref<120x64xf64>
    %m90 = arith.mulf %l90, %h : f64
    affine.store %m90, %S[90, %i] : memref<120x64xf64>
    %l91 = affine.load %S[92, %i] : memref<120x64xf64>
    %m91 = arith.mulf %l91, %h : f64
    affine.store %m91, %S[91, %i] : memref<120x64xf64>
    %l92 = affine.load %S[93, %i] : memref<120x64xf64>
    %m92 = arith.mulf %l92, %h : f64
    affine.store %m92, %S[92, %i] : memref<120x64xf64>
    %l93 = affine.load %S[94, %i] : memref<120x64xf64>
    %m93 = arith.mulf %l93, %h : f64
    affine.store %m93, %S[93, %i] : memref<120x64xf64>
    %l94 = affine.load %S[95, %i] : memref<120x64xf64>
    %m94 = arith.mulf %l94, %h : f64
    affine.store %m94, %S[94, %i] : memref<120x64xf64>
    %l95 = affine.load %S[96, %i] : memref<120x64xf64>
    %m95 = arith.mulf %l95, %h : f64
    affine.store %m95, %S[95, %i] : memref<120x64xf64>
    %l96 = affine.load %S[97, %i] : memref<120x64xf64>
    %m96 = arith.mulf %l96, %h : f64
    affine.store %m96, %S[96, %i] : memref<120x64xf64>
    %l97 = affine.load %S[98, %i] : memref<120x64xf64>
    %m97 = arith.mulf %l97, %h : f64
    affine.store %m97, %S[97, %i] : memref<120x64xf64>
    %l98 = affine.load %S[99, %i] : memref<120x64xf64>
    %m98 = arith.mulf %l98, %h : f64
    affine.store %m98, %S[98, %i] : memref<120x64xf64>
    %l99 = affine.load %S[100, %i] : memref<120x64xf64>
    %m99 = arith.mulf %l99, %h : f64
    affine.store %m99, %S[99, %i] : memref<120x64xf64>
    %l100 = affine.load %S[101, %i] : memref<120x64xf64>
    %m100 = arith.mulf %l100, %h : f64
    affine.store %m100, %S[100, %i] : memref<120x64xf64>
    %l101 = affine.load %S[102, %i] : memref<120x64xf64>
    %m101 = arith.mulf %l101, %h : f64
    affine.store %m101, %S[101, %i] : memref<120x64xf64>
    %l102 = affine.load %S[103, %i] : memref<120x64xf64>
    %m102 = arith.mulf %l102, %h : f64
    affine.store %m102, %S[102, %i] : memref<120x64xf64>
    %l103 = affine.load %S[104, %i] : memref<120x64xf64>
    %m103 = arith.mulf %l103, %h : f64
    affine.store %m103, %S[103, %i] : memref<120x64xf64>
    %l104 = affine.load %S[105, %i] : memref<120x64xf64>
    %m104 = arith.mulf %l104, %h : f64
    affine.store %m104, %S[104, %i] : memref<120x64xf64>
    %l105 = affine.load %S[106, %i] : memref<120x64xf64>
    %m105 = arith.mulf %l105, %h : f64
    affine.store %m105, %S[105, %i] : memref<120x64xf64>
    %l106 = affine.load %S[107, %i] : memref<120x64xf64>
    %m106 = arith.mulf %l106, %h : f64
    affine.store %m106, %S[106, %i] : memref<120x64xf64>
    %l107 = affine.load %S[108, %i] : memref<120x64xf64>
    %m107 = arith.mulf %l107, %h : f64
    affine.store %m107, %S[107, %i] : memref<120x64xf64>
    %l108 = affine.load %S[109, %i] : memref<120x64xf64>
    %m108 = arith.mulf %l108, %h : f64
    affine.store %m108, %S[108, %i] : memref<120x64xf64>
    %l109 = affine.load %S[110, %i] : memref<120x64xf64>
    %m109 = arith.mulf %l109, %h : f64
    affine.store %m109, %S[109, %i] : memref<120x64xf64>
    %l110 = affine.load %S[111, %i] : memref<120x64xf64>
    %m110 = arith.mulf %l110, %h : f64
    affine.store %m110, %S[110, %i] : memref<120x64xf64>
    %l111 = affine.load %S[112, %i] : memref<120x64xf64>
    %m111 = arith.mulf %l111, %h : f64
    affine.store %m111, %S[111, %i] : memref<120x64xf64>
    %l112 = affine.load %S[113, %i] : memref<120x64xf64>
    %m112 = arith.mulf %l112, %h : f64
    affine.store %m112, %S[112, %i] : memref<120x64xf64>
    %l113 = affine.load %S[114, %i] : memref<120x64xf64>
    %m113 = arith.mulf %l113, %h : f64
    affine.store %m113, %S[113, %i] : memref<120x64xf64>
    %l114 = affine.load %S[115, %i] : memref<120x64xf64>
    %m114 = arith.mulf %l114, %h : f64
    affine.store %m114, %S[114, %i] : memref<120x64xf64>
    %l115 = affine.load %S[116, %i] : memref<120x64xf64>
    %m115 = arith.mulf %l115, %h : f64
    affine.store %m115, %S[115, %i] : memref<120x64xf64>
    %l116 = affine.load %S[117, %i] : memref<120x64xf64>
    %m116 = arith.mulf %l116, %h : f64
    affine.store %m116, %S[116, %i] : memref<120x64xf64>
    %l117 = affine.load %S[118, %i] : memref<120x64xf64>
    %m117 = arith.mulf %l117, %h : f64
    affine.store %m117, %S[117, %i] : memref<120x64xf64>
    %l118 = affine.load %S[119, %i] : memref<120x64xf64>
    %m118 = arith.mulf %l118, %h : f64
    affine.store %m118, %S[118, %i] : memref<120x64xf64>
    %l119 = affine.load %S[0, %i] : memref<120x64xf64>
    %m119 = arith.mulf %l119, %h : f64
    affine.store %m119, %S[119, %i] : memref<120x64xf64>
  }
  return
}

// POLICY: limits.mlir:[[#@LINE+2]]:3: remark: pearl-schedule: agent (greedy)
func.func @many_reads(%X: memref<80xf64>, %Y: memref<64x64xf64>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 {
      %r0 = affine.load %X[%i + 0] : memref<80xf64>
      %r1 = affine.load %X[%i + 1] : memref<80xf64>
      %r2 = affine.load %X[%i + 2] : memref<80xf64>
      %r3 = affine.load %X[%i + 3] : memref<80xf64>
      %r4 = affine.load %X[%i + 4] : memref<80xf64>
      %r5 = affine.load %X[%i + 5] : memref<80xf64>
      %r6 = affine.load %X[%i + 6] : memref<80xf64>
      %r7 = affine.load %X[%i + 7] : memref<80xf64>
      %r8 = affine.load %X[%i + 8] : memref<80xf64>
      %r9 = affine.load %X[%i + 9] : memref<80xf64>
      %r10 = affine.load %X[%i + 10] : memref<80xf64>
      %r11 = affine.load %X[%i + 11] : memref<80xf64>
      %r12 = affine.load %X[%i + 12] : memref<80xf64>
      %r13 = affine.load %X[%i + 13] : memref<80xf64>
      %s0 = arith.addf %r0, %r0 : f64
      %s1 = arith.addf %s0, %r1 : f64
      %s2 = arith.addf %s1, %r2 : f64
      %s3 = arith.addf %s2, %r3 : f64
      %s4 = arith.addf %s3, %r4 : f64
      %s5 = arith.addf %s4, %r5 : f64
      %s6 = arith.addf %s5, %r6 : f64
      %s7 = arith.addf %s6, %r7 : f64
      %s8 = arith.addf %s7, %r8 : f64
      %s9 = arith.addf %s8, %r9 : f64
      %s10 = arith.addf %s9, %r10 : f64
      %s11 = arith.addf %s10, %r11 : f64
      %s12 = arith.addf %s11, %r12 : f64
      %s13 = arith.addf %s12, %r13 : f64
      affine.store %s13, %Y[%i, %j] : memref<64x64xf64>
    }
  }
  return
}

// DEEP: remark: pearl-schedule: branch 0: applied I(0,6) T(5,6,2,2) R(3) P(0)
