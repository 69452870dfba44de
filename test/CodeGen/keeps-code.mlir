// A schedule that changes nothing the code generator acts on keeps the
// loop nest as it was, with a remark, instead of rebuilding the same loops:
// unrolling a loop that carries no dependence (left to LLVM's vectorizer),
// or an interchange undone. A schedule that does change the code still
// rewrites it (here a parallel loop; test/CodeGen/matmul.mlir unrolls a
// loop that carries a dependence), and `regenerate` rebuilds the nest
// whatever the schedule.
// RUN: %pearl_opt %s '--pearl-schedule=schedule="U(4)"' 2>%t.unroll | FileCheck %s --check-prefix=KEPT
// RUN: FileCheck %s --check-prefix=REMARK < %t.unroll
// RUN: %pearl_opt %s '--pearl-schedule=schedule="I(0,1) I(0,1)"' 2>%t.swap | FileCheck %s --check-prefix=KEPT
// RUN: FileCheck %s --check-prefix=REMARK < %t.swap
// RUN: %pearl_opt %s '--pearl-schedule=schedule="U(4) P(0)"' 2>%t.par | FileCheck %s --check-prefix=CHANGED
// RUN: FileCheck %s --check-prefix=NOREMARK < %t.par
// RUN: %pearl_opt %s '--pearl-schedule=schedule="I(0,1)"' 2>%t.swap1 | FileCheck %s --check-prefix=SWAPPED
// RUN: FileCheck %s --check-prefix=NOREMARK < %t.swap1
// RUN: %pearl_opt %s '--pearl-schedule=schedule="U(4)" regenerate' 2>%t.regen | FileCheck %s --check-prefix=REGEN
// RUN: FileCheck %s --check-prefix=NOREMARK < %t.regen

// KEPT-LABEL: func.func @scale
// KEPT-NEXT:     affine.for %[[I:.*]] = 0 to 64 {
// KEPT-NEXT:       affine.for %[[J:.*]] = 0 to 128 {
// KEPT-NEXT:         affine.load %{{.*}}[%[[I]], %[[J]]]
// KEPT-NEXT:         arith.addf
// KEPT-NEXT:         affine.store %{{.*}}, %{{.*}}[%[[I]], %[[J]]]
// KEPT-NEXT:       }
// KEPT-NEXT:     }
// KEPT-NEXT:     return

// REMARK: remark: pearl-schedule: loop nest kept as it was: the applied actions change no execution order, run no loop in parallel and leave unrolling to LLVM's vectorizer

// CHANGED-LABEL: func.func @scale
// CHANGED:         affine.parallel
// NOREMARK-NOT: loop nest kept as it was

// SWAPPED-LABEL: func.func @scale
// SWAPPED-NEXT:    affine.for %{{.*}} = 0 to 128 {
// SWAPPED-NEXT:      affine.for %{{.*}} = {{.*}} to {{.*}} {

// REGEN-LABEL: func.func @scale
// REGEN:         affine.apply

func.func @scale(%a: memref<64x128xf32>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 128 {
      %0 = affine.load %a[%i, %j] : memref<64x128xf32>
      %1 = arith.addf %0, %0 : f32
      affine.store %1, %a[%i, %j] : memref<64x128xf32>
    }
  }
  return
}
