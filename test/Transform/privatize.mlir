// A one-element buffer that each iteration of a loop writes before it reads
// it (a scalar temporary, as PolyBench's symm keeps `temp2`) is modeled as
// one element per iteration of that loop: the loop carries no dependence
// through it, so it can be distributed, interchanged and run in parallel,
// and the rewritten nest gets a buffer of the loop's trip count. Nests left
// as they were keep the original buffer; buffers whose value may cross
// iterations, that are used outside the region, or whose loop has bounds
// that are not constant stay shared.
// RUN: split-file %s %t

// symm's structure: temp2 is zeroed, accumulated over k and read, per (i, j).
// RUN: %pearl_opt %t/symm.mlir '--pearl-schedule=agent=none print-model' -o %t/symm.none.mlir | FileCheck %s --check-prefix=MODEL
// MODEL: write: { S0[i0, i1] -> alloca_priv[i1] }
// MODEL: write: { S2[i0, i1, i2] -> alloca_priv[i1] }
// MODEL-NEXT: read: { S2[i0, i1, i2] -> alloca_priv[i1] }
// MODEL: read: { S3[i0, i1] -> alloca_priv[i1] }
// MODEL: loop tree:
// MODEL: L0 {{.*}} carries RAW WAR WAW
// MODEL: L1 {{.*}} parallel
// Nothing applied: the function is exactly as it was.
// RUN: %pearl_opt %t/symm.mlir -o %t/symm.plain.mlir
// RUN: diff %t/symm.none.mlir %t/symm.plain.mlir
// RUN: FileCheck %s --check-prefix=KEPT < %t/symm.plain.mlir
// KEPT: memref.alloca() : memref<1xf64>
// KEPT-NOT: memref.alloca

// Distribution of the j loop around temp2's accumulation, then k outside
// j: j innermost, vectorized; then the j loop in parallel.
// RUN: %pearl_opt %t/symm.mlir '--pearl-schedule=schedule="D(1) N I(1,2) V(8)"' -o %t/symm.dist.mlir 2>&1 | FileCheck %s --check-prefix=DIST
// RUN: FileCheck %s --check-prefix=EXPANDED < %t/symm.dist.mlir
// RUN: %pearl_exec --entry=kernel %t/symm.mlir %t/symm.dist.mlir | FileCheck %s --check-prefix=SAME
// RUN: %pearl_opt %t/symm.mlir '--pearl-schedule=schedule="P(1)"' -o %t/symm.par.mlir 2>&1 | FileCheck %s --check-prefix=PAR
// RUN: FileCheck %s --check-prefix=EXPANDED < %t/symm.par.mlir
// RUN: %pearl_exec --entry=kernel %t/symm.mlir %t/symm.par.mlir | FileCheck %s --check-prefix=SAME
// Identity regeneration runs on the expanded buffer too.
// RUN: %pearl_opt %t/symm.mlir '--pearl-schedule=agent=none regenerate' -o %t/symm.regen.mlir
// RUN: FileCheck %s --check-prefix=EXPANDED < %t/symm.regen.mlir
// RUN: %pearl_exec --entry=kernel %t/symm.mlir %t/symm.regen.mlir | FileCheck %s --check-prefix=SAME
// DIST: remark: pearl-schedule: branch 0: applied D(1); branch 1: applied I(1,2) V(8)
// PAR: remark: pearl-schedule: branch 0: applied P(1)
// EXPANDED-LABEL: func.func @kernel
// EXPANDED-NOT: memref<1xf64>
// EXPANDED: memref.alloca() : memref<7xf64>
// EXPANDED-NOT: memref<1xf64>
// EXPANDED: return
// SAME: pearl-exec: outputs identical

// Read before it is written in each iteration: the value crosses
// iterations, the buffer stays shared and the loop carries it.
// RUN: %pearl_opt %t/carried.mlir '--pearl-schedule=agent=none print-model' -o /dev/null | FileCheck %s --check-prefix=CARRIED
// RUN: %pearl_opt %t/carried.mlir '--pearl-schedule=schedule="P(0)"' -o /dev/null 2>&1 | FileCheck %s --check-prefix=CARRIED-P
// CARRIED: write: { S1[i0] -> alloca[0] }
// CARRIED: L0 {{.*}} carries RAW WAR WAW
// CARRIED-P: refused P(0) (loop 0 of branch 0 carries a dependence

// Read after the nest: the value leaves the region, the buffer stays.
// RUN: %pearl_opt %t/live-out.mlir '--pearl-schedule=agent=none print-model' -o /dev/null | FileCheck %s --check-prefix=LIVE
// LIVE: write: { S0[i0] -> alloca[0] }

// A loop with a symbolic bound: no trip count for the expanded buffer.
// RUN: %pearl_opt %t/symbolic.mlir '--pearl-schedule=agent=none print-model' -o /dev/null | FileCheck %s --check-prefix=SYMBOLIC
// SYMBOLIC: write: [arg1] -> { S0[i0] -> alloca[0] }

//--- symm.mlir
func.func @kernel(%C: memref<6x7xf64>, %A: memref<6x6xf64>, %B: memref<6x7xf64>) {
  %alpha = arith.constant 1.5 : f64
  %zero = arith.constant 0.0 : f64
  %temp2 = memref.alloca() : memref<1xf64>
  affine.for %i = 0 to 6 {
    affine.for %j = 0 to 7 {
      affine.store %zero, %temp2[0] : memref<1xf64>
      affine.for %k = 0 to affine_map<(d0) -> (d0)>(%i) {
        %c = affine.load %C[%k, %j] : memref<6x7xf64>
        %b = affine.load %B[%i, %j] : memref<6x7xf64>
        %a = affine.load %A[%i, %k] : memref<6x6xf64>
        %0 = arith.mulf %b, %a : f64
        %1 = arith.addf %c, %0 : f64
        affine.store %1, %C[%k, %j] : memref<6x7xf64>
        %t = affine.load %temp2[0] : memref<1xf64>
        %b2 = affine.load %B[%k, %j] : memref<6x7xf64>
        %a2 = affine.load %A[%i, %k] : memref<6x6xf64>
        %2 = arith.mulf %b2, %a2 : f64
        %3 = arith.addf %t, %2 : f64
        affine.store %3, %temp2[0] : memref<1xf64>
      }
      %c = affine.load %C[%i, %j] : memref<6x7xf64>
      %t = affine.load %temp2[0] : memref<1xf64>
      %4 = arith.mulf %alpha, %t : f64
      %5 = arith.addf %c, %4 : f64
      affine.store %5, %C[%i, %j] : memref<6x7xf64>
    }
  }
  return
}

//--- carried.mlir
func.func @kernel(%X: memref<8xf64>, %Y: memref<8xf64>) {
  %s = memref.alloca() : memref<1xf64>
  affine.for %i = 0 to 8 {
    %x = affine.load %X[%i] : memref<8xf64>
    %t = affine.load %s[0] : memref<1xf64>
    %0 = arith.addf %t, %x : f64
    affine.store %0, %Y[%i] : memref<8xf64>
    affine.store %0, %s[0] : memref<1xf64>
  }
  return
}

//--- live-out.mlir
func.func @kernel(%X: memref<8xf64>, %Y: memref<1xf64>) {
  %s = memref.alloca() : memref<1xf64>
  affine.for %i = 0 to 8 {
    %x = affine.load %X[%i] : memref<8xf64>
    affine.store %x, %s[0] : memref<1xf64>
    %t = affine.load %s[0] : memref<1xf64>
    affine.store %t, %X[%i] : memref<8xf64>
  }
  %l = affine.load %s[0] : memref<1xf64>
  affine.store %l, %Y[0] : memref<1xf64>
  return
}

//--- symbolic.mlir
func.func @kernel(%X: memref<?xf64>, %n: index) {
  %s = memref.alloca() : memref<1xf64>
  affine.for %i = 0 to %n {
    %x = affine.load %X[%i] : memref<?xf64>
    affine.store %x, %s[0] : memref<1xf64>
    %t = affine.load %s[0] : memref<1xf64>
    %0 = arith.addf %t, %t : f64
    affine.store %0, %X[%i] : memref<?xf64>
  }
  return
}
