// A band whose loops take a single value (here the tile loops of the
// second tiling, T(2,3,32,16) on point loops of 32 and 16 iterations)
// orders nothing: the AST is generated without it (isl generates no loop
// for it anyway, but it costs time), so the loops keep consecutive
// numbers, and the code is the code of the first tiling alone.
// RUN: split-file %s %t
// RUN: %pearl_opt %t/matmul.mlir '--pearl-schedule=schedule="T(1,2,32,16) T(3,4,32,16)" print-schedule' -o %t/twice.mlir | FileCheck %s
// RUN: %pearl_opt %t/matmul.mlir '--pearl-schedule=schedule="T(1,2,32,16)"' -o %t/once.mlir
// RUN: diff %t/once.mlir %t/twice.mlir
// RUN: %pearl_exec %t/matmul.mlir %t/twice.mlir | FileCheck %s --check-prefix=SAME
// Its marks go with it. A parallel mark on the one-iteration loop is legal
// (it carries nothing), but it has no loop of its own to run in parallel;
// it must not land on the point loop inside, which carries a dependence.
// RUN: %pearl_opt %t/rows.mlir '--pearl-schedule=schedule="T(0,1,32,16) T(2,3,32,16) P(3)" print-schedule' -o %t/par.mlir 2>%t/remarks | FileCheck %s --check-prefix=PAR
// RUN: FileCheck %s --check-prefix=APPLIED < %t/remarks
// RUN: env OMP_NUM_THREADS=2 %pearl_exec %t/rows.mlir %t/par.mlir | FileCheck %s --check-prefix=SAME

// CHECK:      schedule: "[{ S0[i0, i1, i2] -> [(0)] }]"
// CHECK:      ast:
// CHECK-NEXT:   for (int c0 = 0; c0 <= 63; c0 += 1)
// CHECK-NEXT:     for (int c1 = 0; c1 <= 63; c1 += 32)
// CHECK-NEXT:       for (int c2 = 0; c2 <= 47; c2 += 16)
// CHECK-NEXT:         for (int c3 = c1; c3 <= c1 + 31; c3 += 1) {
// CHECK-NEXT:           // point
// CHECK-NEXT:           for (int c4 = c2; c4 <= c2 + 15; c4 += 1)
// CHECK-NEXT:             S0(c0, c3, c4);
// CHECK-NEXT:         }

// APPLIED: remark: pearl-schedule: branch 0: applied T(0,1,32,16) T(2,3,32,16) P(3)

// PAR:      ast:
// PAR-NOT:  parallel
// PAR:      S0(c2, c3);
// PAR-NOT:  affine.parallel

// SAME: pearl-exec: outputs identical

//--- matmul.mlir
func.func @matmul(%A: memref<64x64xf64>, %B: memref<64x48xf64>, %C: memref<64x48xf64>) {
  affine.for %i = 0 to 64 {
    affine.for %k = 0 to 64 {
      affine.for %j = 0 to 48 {
        %a = affine.load %A[%i, %k] : memref<64x64xf64>
        %b = affine.load %B[%k, %j] : memref<64x48xf64>
        %c = affine.load %C[%i, %j] : memref<64x48xf64>
        %p = arith.mulf %a, %b : f64
        %s = arith.addf %c, %p : f64
        affine.store %s, %C[%i, %j] : memref<64x48xf64>
      }
    }
  }
  return
}

//--- rows.mlir
// Each row adds the row before it: the i loop carries a dependence.
func.func @rows(%A: memref<64x48xf64>) {
  affine.for %i = 1 to 64 {
    affine.for %j = 0 to 48 {
      %a = affine.load %A[%i - 1, %j] : memref<64x48xf64>
      %b = affine.load %A[%i, %j] : memref<64x48xf64>
      %s = arith.addf %a, %b : f64
      affine.store %s, %A[%i, %j] : memref<64x48xf64>
    }
  }
  return
}
