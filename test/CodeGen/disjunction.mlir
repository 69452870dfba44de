// isl can write a condition as a disjunction, which the integer set of one
// affine.if cannot hold: here, after T(0,1,2,2,7,3) S(1,2,3,-2), the
// statement's arguments are conditional expressions "c ? a : b" whose
// condition c is "(p) || (q)", p and q conjunctions (the kernel is the
// first nest of pearl-gen --seed 100010 --size-scale small, found by
// fuzzing). The code generator refused the schedule ("condition with isl
// operation 2 (e.g. a disjunction)"). It now tests the disjuncts one after
// the other, each in the else block of the one before, with what the
// condition leads to generated under each and what its failure leads to
// in the last else block: "if (p) A else if (q) A else B", so that every
// instance runs exactly once.
// RUN: split-file %s %t
// RUN: %pearl_opt %t/kernel.mlir '--pearl-schedule=schedule="T(0,1,2,2,7,3) S(1,2,3,-2)" print-schedule time-limit=120' -o %t/sched.mlir 2>%t/remarks | FileCheck %s --check-prefix=AST
// RUN: FileCheck %s --check-prefix=REMARK < %t/remarks
// RUN: FileCheck %s --check-prefix=IR < %t/sched.mlir
// RUN: %pearl_exec --entry=kernel %t/kernel.mlir %t/sched.mlir | FileCheck %s --check-prefix=SAME
// The training environment runs the whole program and compares outputs.
// RUN: %pearl_env --runs 1 --time-limit 120 --schedule "T(0,1,2,2,7,3) S(1,2,3,-2)" %t/prog.mlir 2>&1 | FileCheck %s --check-prefix=ENV

// AST:      S0(c3, (2 * c0 + c1 <= -18 && c1 % 2 == 0) || (2 * c5 >= c1 + 2 * c3 + 2 && {{.*}}) ? {{.*}} : {{.*}}

// REMARK:     remark: pearl-schedule: branch 0: applied T(0,1,2,2,7,3) S(1,2,3,-2)
// REMARK-NOT: left unchanged

// The first disjunct p (two constraints), then the second q (four) in its
// else block, then the other value in the last else block. The statement
// has two such expressions with the same condition: the second is
// resolved the same way inside each value of the first.
// IR-DAG:   #[[P:set[0-9]*]] = affine_set<(d0, d1, d2, d3, d4) : (-(d0 * 2 + d1) - 18 >= 0, d1 + ((-d1) ceildiv 2) * 2 == 0)>
// IR-DAG:   #[[Q:set[0-9]*]] = affine_set<(d0, d1, d2, d3, d4) : (d4 * 2 - (d1 + d2 * 2 + 2) >= 0, {{[^,]*}}, {{[^,]*}}, {{[^,]*}} == 0)>
// IR:       affine.for %[[C5:.*]] = max
// IR-NEXT:    affine.if #[[P]](%{{.*}}, %[[C5]]) {
// IR-NEXT:      affine.if #[[P]](%{{.*}}, %[[C5]]) {
// IR:             affine.store
// IR-NEXT:      } else {
// IR-NEXT:        affine.if #[[Q]](%{{.*}}, %[[C5]]) {
// IR:               affine.store
// IR-NEXT:        } else {
// IR:               affine.store
// IR-NEXT:        {{^ *}}}{{$}}
// IR-NEXT:      {{^ *}}}{{$}}
// IR-NEXT:    } else {
// IR-NEXT:      affine.if #[[Q]](%{{.*}}, %[[C5]]) {
// IR-NEXT:        affine.if #[[P]](%{{.*}}, %[[C5]]) {

// SAME: pearl-exec: outputs identical

// ENV:     prog {{[0-9a-f]+}} OK
// ENV-NOT: FAILED

//--- kernel.mlir
func.func @kernel(%A: memref<15x15x15xf64>, %B: memref<15x15xf64>, %C: memref<15xf64>) {
  affine.for %i0 = 0 to 15 {
    affine.for %i1 = 0 to 15 {
      affine.for %i2 = affine_map<(d0, d1) -> (d0 + 1)>(%i0, %i1) to 15 {
        %v0 = affine.load %B[%i1, %i2] : memref<15x15xf64>
        %v1 = affine.load %A[%i1, %i2, %i0] : memref<15x15x15xf64>
        %v2 = affine.load %C[%i0] : memref<15xf64>
        %v3 = arith.mulf %v1, %v2 : f64
        %v4 = arith.addf %v0, %v3 : f64
        affine.store %v4, %B[%i1, %i2] : memref<15x15xf64>
      }
    }
  }
  return
}

//--- prog.mlir
// outputs: 1
func.func @init(%A: memref<15x15x15xf64>, %B: memref<15x15xf64>, %C: memref<15xf64>) {
  affine.for %i0 = 0 to 15 {
    affine.for %i1 = 0 to 15 {
      affine.for %i2 = 0 to 15 {
        %q = affine.apply affine_map<(d0, d1, d2) -> ((d0 * 1 + d1 * 3 + d2 * 5 + 1) mod 13 + 1)>(%i0, %i1, %i2)
        %n = arith.index_cast %q : index to i32
        %f = arith.sitofp %n : i32 to f64
        %m = arith.constant 14.0 : f64
        %x = arith.divf %f, %m : f64
        affine.store %x, %A[%i0, %i1, %i2] : memref<15x15x15xf64>
      }
    }
  }
  affine.for %i0 = 0 to 15 {
    affine.for %i1 = 0 to 15 {
      %q = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5 + 2) mod 17 + 1)>(%i0, %i1)
      %n = arith.index_cast %q : index to i32
      %f = arith.sitofp %n : i32 to f64
      %m = arith.constant 18.0 : f64
      %x = arith.divf %f, %m : f64
      affine.store %x, %B[%i0, %i1] : memref<15x15xf64>
    }
  }
  affine.for %i0 = 0 to 15 {
    %q = affine.apply affine_map<(d0) -> ((d0 * 5 + 3) mod 23 + 1)>(%i0)
    %n = arith.index_cast %q : index to i32
    %f = arith.sitofp %n : i32 to f64
    %m = arith.constant 24.0 : f64
    %x = arith.divf %f, %m : f64
    affine.store %x, %C[%i0] : memref<15xf64>
  }
  return
}

func.func @kernel(%A: memref<15x15x15xf64>, %B: memref<15x15xf64>, %C: memref<15xf64>) {
  affine.for %i0 = 0 to 15 {
    affine.for %i1 = 0 to 15 {
      affine.for %i2 = affine_map<(d0, d1) -> (d0 + 1)>(%i0, %i1) to 15 {
        %v0 = affine.load %B[%i1, %i2] : memref<15x15xf64>
        %v1 = affine.load %A[%i1, %i2, %i0] : memref<15x15x15xf64>
        %v2 = affine.load %C[%i0] : memref<15xf64>
        %v3 = arith.mulf %v1, %v2 : f64
        %v4 = arith.addf %v0, %v3 : f64
        affine.store %v4, %B[%i1, %i2] : memref<15x15xf64>
      }
    }
  }
  return
}
