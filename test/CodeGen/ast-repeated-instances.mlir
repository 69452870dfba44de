// isl's AST generator (LLVM 22's copy) can run instances more than once.
// Three tilings of one nest, "T(0,1,1,2) T(0,1,2,3) T(1,2,5,1)" on
// pearl-gen --seed 170400 --size-scale small (an i32 contraction C[i2][i0]
// += A[i2][i1] * B[i0][i1] * 3; found by fuzzing), are legal, and the
// schedule tree is an injective function of the instances (its second
// loop takes the values 0 and 5 only). The AST isl builds from it runs
// that loop over 0..5: 756 of the 1188 instances ran more than once (2916
// runs) and the outputs differed. Pearl now reads the instances back from
// every AST (pearl_ast_runs_schedule) and refuses one that does not run
// each exactly once: the nest is kept, with a remark, and the outputs are
// the original's. With check-ast=0 the AST is trusted, and the wrong
// output comes back (the check is what keeps the output right).
// RUN: %pearl_gen --seed 170400 --size-scale small -o %t.mlir --quiet
// RUN: %pearl_opt %t.mlir --mlir-disable-threading '--pearl-schedule=schedule="T(0,1,1,2) T(0,1,2,3) T(1,2,5,1)"' -o %t.sched.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %pearl_exec --entry=kernel %t.mlir %t.sched.mlir | FileCheck %s --check-prefix=SAME
// RUN: %pearl_opt %t.mlir --mlir-disable-threading '--pearl-schedule=schedule="T(0,1,1,2) T(0,1,2,3) T(1,2,5,1)" check-ast=0' -o %t.trusted.mlir
// RUN: not %pearl_exec --entry=kernel %t.mlir %t.trusted.mlir | FileCheck %s --check-prefix=WRONG

// REMARK: remark: pearl-schedule: loop nest left unchanged: AST generation: isl's code generator runs some instances of this schedule more than once or not at all
// SAME: pearl-exec: outputs identical
// WRONG: pearl-exec: outputs differ
