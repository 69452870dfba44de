// A schedule has one ';'-separated part per region of a function, from 0.
// Parts beyond the function's regions apply to nothing: a warning names
// them (blank ones, as after a trailing ';', say nothing), and the regions
// that exist are scheduled by their own parts.
// RUN: split-file %s %t
// RUN: %pearl_opt %t/two.mlir '--pearl-schedule=schedule="I(0,1); R(0); T(0,1,4,4) ;P(0)"' -o %t/out.mlir 2>&1 | FileCheck %s
// RUN: %pearl_opt %t/two.mlir '--pearl-schedule=schedule="I(0,1); R(0);; "' -o %t/blank.mlir 2>&1 | FileCheck %s --check-prefix=BLANK
// RUN: diff %t/out.mlir %t/blank.mlir
// RUN: %pearl_exec %t/two.mlir %t/out.mlir | FileCheck %s --check-prefix=SAME

// CHECK: warning: pearl-schedule: schedule parts 2 "T(0,1,4,4)", 3 "P(0)" ignored: the function has 2 regions (parts are separated by ';', one per region, from 0)
// CHECK: remark: pearl-schedule: branch 0: applied I(0,1)
// CHECK: remark: pearl-schedule: branch 0: applied R(0)
// BLANK-NOT: warning
// BLANK: remark: pearl-schedule: branch 0: applied I(0,1)
// BLANK-NOT: warning
// SAME: pearl-exec: outputs identical

//--- two.mlir
func.func @two(%A: memref<16x16xf64>, %B: memref<16xf64>) {
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 16 {
      %a = affine.load %A[%i, %j] : memref<16x16xf64>
      %b = arith.addf %a, %a : f64
      affine.store %b, %A[%i, %j] : memref<16x16xf64>
    }
  }
  // a store outside the affine loops ends the first region
  %c = arith.constant 1.0 : f64
  %c0 = arith.constant 0 : index
  memref.store %c, %B[%c0] : memref<16xf64>
  affine.for %k = 0 to 16 {
    %x = affine.load %B[%k] : memref<16xf64>
    %y = arith.addf %x, %c : f64
    affine.store %y, %B[%k] : memref<16xf64>
  }
  return
}
