// Distribution D(l[,k]) and fusion F(l[,s]) restructure the schedule tree:
// each is applied only when every dependence holds, a refusal names the
// violated dependence (or why the action does not fit the nest) and leaves
// the code as it was, and every applied schedule computes the outputs of
// the original program.
// RUN: split-file %s %t
// RUN: %pearl_opt %t/gemm.mlir '--pearl-schedule=agent=none' -o %t/gemm.orig.mlir
// RUN: %pearl_opt %t/chain.mlir '--pearl-schedule=agent=none' -o %t/chain.orig.mlir
// RUN: %pearl_opt %t/cycle.mlir '--pearl-schedule=agent=none' -o %t/cycle.orig.mlir

// gemm as PolyBench writes it: D(0) gives the scaling and the product
// their own i loops; the product is then a perfect nest, interchanged,
// tiled in 3-d and run in parallel.
// RUN: %pearl_opt %t/gemm.mlir '--pearl-schedule=schedule="D(0)"' -o %t/d0.mlir 2>&1 | FileCheck %s --check-prefix=D0
// RUN: FileCheck %s --check-prefix=D0-IR < %t/d0.mlir
// RUN: %pearl_exec --entry=kernel %t/gemm.mlir %t/d0.mlir | FileCheck %s --check-prefix=SAME
// D0: remark: pearl-schedule: branch 0: applied D(0)
// D0-IR-LABEL: func.func @kernel
// D0-IR:       affine.for %{{.*}} = 0 to 12 {
// D0-IR-NEXT:    affine.for
// D0-IR-NOT:     affine.for
// D0-IR:           arith.mulf
// D0-IR-NEXT:      affine.store
// D0-IR-NEXT:    }
// D0-IR-NEXT:  }
// D0-IR-NEXT:  affine.for %{{.*}} = 0 to 12 {
// D0-IR-NEXT:    affine.for
// D0-IR-NEXT:      affine.for
// RUN: %pearl_opt %t/gemm.mlir '--pearl-schedule=schedule="D(0) N I(1,2) T(0,1,2,4,4,4) P(0)"' -o %t/dtile.mlir 2>&1 | FileCheck %s --check-prefix=DTILE
// RUN: %pearl_exec --entry=kernel %t/gemm.mlir %t/dtile.mlir | FileCheck %s --check-prefix=SAME
// DTILE: remark: pearl-schedule: branch 0: applied D(0); branch 1: applied I(1,2) T(0,1,2,4,4,4) P(0)
// Fusing the two loops again gives the original code.
// RUN: %pearl_opt %t/gemm.mlir '--pearl-schedule=schedule="D(0) F(0)"' -o %t/df.mlir 2>&1 | FileCheck %s --check-prefix=DF
// RUN: diff %t/gemm.orig.mlir %t/df.mlir
// DF: remark: pearl-schedule: branch 0: applied D(0) F(0,0)
// Refusals: a loop around a single part, a split point out of range.
// RUN: %pearl_opt %t/gemm.mlir '--pearl-schedule=schedule="D(1) D(0,2) N F(0)"' -o %t/gref.mlir 2>&1 | FileCheck %s --check-prefix=GREF
// RUN: diff %t/gemm.orig.mlir %t/gref.mlir
// GREF: branch 0: refused D(1) (loop 1 of branch 0 holds one loop or statement: nothing to distribute); branch 0: refused D(0,2) (loop 0 of branch 0 holds 2 parts: the split point must be 1..1); branch 1: refused F(0) (loop 0 of branch 1 is not a part of a sequence: nothing to fuse it with)

// Fusion of a producer with a consumer that reads one element ahead needs
// a shift of 1: F(0) finds it (the remark names it), F(0,1) gives it, F(0,0) is refused with the
// dependence it violates. The third loop reads A backwards: only a shift
// of 39 would make its fusion legal, beyond the 16 F(l) chooses (the
// solver computes the smallest legal shift from the dependences).
// RUN: %pearl_opt %t/chain.mlir '--pearl-schedule=schedule="F(0)"' -o %t/f0.mlir 2>&1 | FileCheck %s --check-prefix=F0
// RUN: %pearl_exec --entry=kernel %t/chain.mlir %t/f0.mlir | FileCheck %s --check-prefix=SAME
// RUN: %pearl_opt %t/chain.mlir '--pearl-schedule=schedule="F(0,1)"' -o %t/f01.mlir
// RUN: diff %t/f0.mlir %t/f01.mlir
// F0: remark: pearl-schedule: branch 0: applied F(0,1)
// RUN: %pearl_opt %t/chain.mlir '--pearl-schedule=schedule="F(0,0)"' -o %t/f00.mlir 2>&1 | FileCheck %s --check-prefix=F00
// RUN: diff %t/chain.orig.mlir %t/f00.mlir
// F00: branch 0: refused F(0,0) (violates RAW dependence { S0[i0] -> S1[i0'] : i0 = 39 and i0' = 38 })
// RUN: %pearl_opt %t/chain.mlir '--pearl-schedule=schedule="F(0) F(0) N N F(0)"' -o %t/ff.mlir 2>&1 | FileCheck %s --check-prefix=FF
// RUN: %pearl_exec --entry=kernel %t/chain.mlir %t/ff.mlir | FileCheck %s --check-prefix=SAME
// FF: branch 0: applied F(0,1); branch 0: refused F(0) (fusing loop 0 of branch 0 with the next loop: no shift up to 16 keeps every dependence between them forward); branch 2: refused F(0) (loop 0 of branch 2 is the last part of its sequence: nothing to fuse it with)

// Inside a time loop, the second inner loop reads A five elements ahead
// of the first one's writes: F(1) computes the shift, 5, from the
// dependences of one time step (those between steps are carried by the
// time loop and do not count), and F(1,4) is refused.
// RUN: %pearl_opt %t/ahead.mlir '--pearl-schedule=schedule="F(1)"' -o %t/ahead5.mlir 2>&1 | FileCheck %s --check-prefix=AHEAD
// RUN: %pearl_exec --entry=kernel %t/ahead.mlir %t/ahead5.mlir | FileCheck %s --check-prefix=SAME
// RUN: %pearl_opt %t/ahead.mlir '--pearl-schedule=schedule="F(1,4)"' -o /dev/null 2>&1 | FileCheck %s --check-prefix=AHEAD4
// AHEAD: remark: pearl-schedule: branch 0: applied F(1,5)
// AHEAD4: branch 0: refused F(1,4) (violates RAW dependence

// A recurrence through two statements cannot be distributed.
// RUN: %pearl_opt %t/cycle.mlir '--pearl-schedule=schedule="D(0)"' -o %t/cyc.mlir 2>&1 | FileCheck %s --check-prefix=CYC
// RUN: diff %t/cycle.orig.mlir %t/cyc.mlir
// CYC: branch 0: refused D(0) (violates RAW dependence { S1[i0] -> S0[i0'] : i0 = 30 and i0' = 31 })

// SAME: pearl-exec: outputs identical

//--- gemm.mlir
// outputs: 2

// init uses scf loops, which the pass leaves alone: the schedules act on
// the kernel only.
func.func @init(%A: memref<12x14xf64>, %B: memref<14x10xf64>, %C: memref<12x10xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %c12 = arith.constant 12 : index
  %c14 = arith.constant 14 : index
  scf.for %i = %c0 to %c14 step %c1 {
    scf.for %j = %c0 to %c14 step %c1 {
      %q = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5 + 1) mod 13 + 1)>(%i, %j)
      %n = arith.index_cast %q : index to i32
      %f = arith.sitofp %n : i32 to f64
      %ia = arith.cmpi ult, %i, %c12 : index
      scf.if %ia {
        memref.store %f, %A[%i, %j] : memref<12x14xf64>
      }
      %jb = arith.cmpi ult, %j, %c10 : index
      scf.if %jb {
        memref.store %f, %B[%i, %j] : memref<14x10xf64>
      }
      %ic = arith.andi %ia, %jb : i1
      scf.if %ic {
        %g = arith.addf %f, %f : f64
        memref.store %g, %C[%i, %j] : memref<12x10xf64>
      }
    }
  }
  return
}

// C = 0.5 * C + A * B, as PolyBench writes gemm: the scaling of row i and
// the product's k loop are the two parts of the i loop's body.
func.func @kernel(%A: memref<12x14xf64>, %B: memref<14x10xf64>, %C: memref<12x10xf64>) {
  %beta = arith.constant 0.5 : f64
  affine.for %i = 0 to 12 {
    affine.for %j = 0 to 10 {
      %c = affine.load %C[%i, %j] : memref<12x10xf64>
      %s = arith.mulf %c, %beta : f64
      affine.store %s, %C[%i, %j] : memref<12x10xf64>
    }
    affine.for %k = 0 to 14 {
      affine.for %j = 0 to 10 {
        %a = affine.load %A[%i, %k] : memref<12x14xf64>
        %b = affine.load %B[%k, %j] : memref<14x10xf64>
        %c = affine.load %C[%i, %j] : memref<12x10xf64>
        %p = arith.mulf %a, %b : f64
        %t = arith.addf %c, %p : f64
        affine.store %t, %C[%i, %j] : memref<12x10xf64>
      }
    }
  }
  return
}

//--- chain.mlir
// outputs: 0,1

func.func @init(%A: memref<40xf64>, %B: memref<40xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cn = arith.constant 40 : index
  scf.for %i = %c0 to %cn step %c1 {
    %n = arith.index_cast %i : index to i32
    %f = arith.sitofp %n : i32 to f64
    memref.store %f, %A[%i] : memref<40xf64>
    memref.store %f, %B[%i] : memref<40xf64>
  }
  return
}

// Three loops: A is written, B reads A one element ahead, and the third
// loop reads A in reverse.
func.func @kernel(%A: memref<40xf64>, %B: memref<40xf64>) {
  %one = arith.constant 1.0 : f64
  affine.for %i = 0 to 40 {
    %a = affine.load %A[%i] : memref<40xf64>
    %s = arith.addf %a, %one : f64
    affine.store %s, %A[%i] : memref<40xf64>
  }
  affine.for %i = 0 to 39 {
    %a = affine.load %A[%i + 1] : memref<40xf64>
    %c = affine.load %A[%i] : memref<40xf64>
    %s = arith.addf %a, %c : f64
    affine.store %s, %B[%i] : memref<40xf64>
  }
  affine.for %i = 0 to 40 {
    %a = affine.load %A[-%i + 39] : memref<40xf64>
    %b = affine.load %B[%i] : memref<40xf64>
    %s = arith.mulf %a, %b : f64
    affine.store %s, %B[%i] : memref<40xf64>
  }
  return
}

//--- cycle.mlir
// outputs: 0,1

func.func @init(%A: memref<32xf64>, %B: memref<32xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cn = arith.constant 32 : index
  scf.for %i = %c0 to %cn step %c1 {
    %n = arith.index_cast %i : index to i32
    %f = arith.sitofp %n : i32 to f64
    memref.store %f, %A[%i] : memref<32xf64>
    memref.store %f, %B[%i] : memref<32xf64>
  }
  return
}

// A recurrence through two statements: A[i] needs B[i-1], B[i] needs A[i].
func.func @kernel(%A: memref<32xf64>, %B: memref<32xf64>) {
  %one = arith.constant 1.0 : f64
  affine.for %i = 1 to 32 {
    %b = affine.load %B[%i - 1] : memref<32xf64>
    %s = arith.addf %b, %one : f64
    affine.store %s, %A[%i] : memref<32xf64>
    %a = affine.load %A[%i] : memref<32xf64>
    %t = arith.mulf %a, %a : f64
    affine.store %t, %B[%i] : memref<32xf64>
  }
  return
}

//--- ahead.mlir
// outputs: 0,1

func.func @init(%A: memref<64xf64>, %B: memref<64xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cn = arith.constant 64 : index
  scf.for %i = %c0 to %cn step %c1 {
    %n = arith.index_cast %i : index to i32
    %f = arith.sitofp %n : i32 to f64
    memref.store %f, %A[%i] : memref<64xf64>
    memref.store %f, %B[%i] : memref<64xf64>
  }
  return
}

// Each step scales A, then B[i] takes A[i + 5] and B[i].
func.func @kernel(%A: memref<64xf64>, %B: memref<64xf64>) {
  %h = arith.constant 0.5 : f64
  affine.for %t = 0 to 4 {
    affine.for %i = 0 to 64 {
      %a = affine.load %A[%i] : memref<64xf64>
      %s = arith.mulf %a, %h : f64
      affine.store %s, %A[%i] : memref<64xf64>
    }
    affine.for %i = 0 to 59 {
      %a = affine.load %A[%i + 5] : memref<64xf64>
      %b = affine.load %B[%i] : memref<64xf64>
      %s = arith.addf %a, %b : f64
      affine.store %s, %B[%i] : memref<64xf64>
    }
  }
  return
}
