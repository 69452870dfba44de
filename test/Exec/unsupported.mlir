// Signatures pearl-exec cannot call, and other errors: a message and exit
// status 2 (not 1, which means "outputs differ").
// RUN: split-file %s %t
// RUN: %pearl_exec %t/tensor.mlir > %t.out 2>&1; echo "exit $?" >> %t.out
// RUN: FileCheck %s --check-prefix=TENSOR < %t.out
// RUN: %pearl_exec %t/vector.mlir %t/vector.mlir > %t.out 2>&1; echo "exit $?" >> %t.out
// RUN: FileCheck %s --check-prefix=VECTOR < %t.out
// RUN: %pearl_exec %t/strided.mlir > %t.out 2>&1; echo "exit $?" >> %t.out
// RUN: FileCheck %s --check-prefix=STRIDED < %t.out
// RUN: %pearl_exec %t/results.mlir > %t.out 2>&1; echo "exit $?" >> %t.out
// RUN: FileCheck %s --check-prefix=RESULTS < %t.out
// RUN: %pearl_exec --entry=scale %t/ok.mlir %t/other-signature.mlir > %t.out 2>&1; echo "exit $?" >> %t.out
// RUN: FileCheck %s --check-prefix=SIGNATURE < %t.out
// RUN: %pearl_exec --entry=missing %t/ok.mlir > %t.out 2>&1; echo "exit $?" >> %t.out
// RUN: FileCheck %s --check-prefix=ENTRY < %t.out
// RUN: %pearl_exec %t/declaration.mlir > %t.out 2>&1; echo "exit $?" >> %t.out
// RUN: FileCheck %s --check-prefix=DECL < %t.out
// RUN: %pearl_exec %t/invalid.mlir > %t.out 2>&1; echo "exit $?" >> %t.out
// RUN: FileCheck %s --check-prefix=PARSE < %t.out
// RUN: %pearl_exec %t/ok.mlir %t/unlowerable.mlir > %t.out 2>&1; echo "exit $?" >> %t.out
// RUN: FileCheck %s --check-prefix=LOWER < %t.out
// RUN: %pearl_exec %t/no-such-file.mlir > %t.out 2>&1; echo "exit $?" >> %t.out
// RUN: FileCheck %s --check-prefix=NOFILE < %t.out
// RUN: %pearl_exec --size=-1 %t/ok.mlir > %t.out 2>&1; echo "exit $?" >> %t.out
// RUN: FileCheck %s --check-prefix=USAGE < %t.out
// RUN: %pearl_exec --threads=2 %t/ok.mlir > %t.out 2>&1; echo "exit $?" >> %t.out
// RUN: FileCheck %s --check-prefix=OPTION < %t.out

// TENSOR: pearl-exec: error: {{.*}}tensor.mlir: @t: argument 1 has unsupported type tensor<4xf32> (supported: memref of f32, f64, i8, i16, i32 or i64 with the identity layout; index, f32, f64, i32, i64)
// TENSOR-NEXT: {{^}}exit 2{{$}}
// VECTOR: pearl-exec: error: {{.*}}vector.mlir: @v: argument 0 has unsupported type vector<4xf32>
// VECTOR-NEXT: {{^}}exit 2{{$}}
// STRIDED: pearl-exec: error: {{.*}}: @s: argument 0 has unsupported type memref<4x4xf32, strided<[8, 1]>>
// STRIDED-NEXT: {{^}}exit 2{{$}}
// RESULTS: pearl-exec: error: {{.*}}results.mlir: @r has 2 results (at most one scalar result is supported)
// RESULTS-NEXT: {{^}}exit 2{{$}}
// SIGNATURE: pearl-exec: error: @scale has different signatures in {{.*}}ok.mlir and {{.*}}other-signature.mlir
// SIGNATURE-NEXT: {{^}}exit 2{{$}}
// ENTRY: pearl-exec: error: {{.*}}ok.mlir: no func.func @missing with a body
// ENTRY-NEXT: {{^}}exit 2{{$}}
// DECL: pearl-exec: error: {{.*}}declaration.mlir: no public func.func with a body
// DECL-NEXT: {{^}}exit 2{{$}}
// PARSE: invalid.mlir{{"?}}:2:{{[0-9]+}}{{\)?}}: error:
// PARSE: pearl-exec: error: {{.*}}invalid.mlir: cannot parse the module
// PARSE-NEXT: {{^}}exit 2{{$}}
// LOWER: unlowerable.mlir{{"?}}:4:{{.*}} error: not lowered to the LLVM dialect
// LOWER: pearl-exec: error: {{.*}}unlowerable.mlir: linalg.fill was not lowered to the LLVM dialect
// LOWER-NEXT: {{^}}exit 2{{$}}
// NOFILE: pearl-exec: error: cannot read {{.*}}no-such-file.mlir
// NOFILE-NEXT: {{^}}exit 2{{$}}
// USAGE: pearl-exec: bad value in --size=-1
// USAGE-NEXT: usage: pearl-exec
// USAGE: {{^}}exit 2{{$}}
// OPTION: pearl-exec: unknown option --threads=2
// OPTION: {{^}}exit 2{{$}}

//--- tensor.mlir
func.func @t(%A: memref<4xf32>, %T: tensor<4xf32>) {
  return
}

//--- vector.mlir
func.func @v(%x: vector<4xf32>) {
  return
}

//--- strided.mlir
func.func @s(%A: memref<4x4xf32, strided<[8, 1]>>) {
  return
}

//--- results.mlir
func.func @r(%A: memref<4xi32>) -> (i32, i32) {
  %c = arith.constant 1 : i32
  return %c, %c : i32, i32
}

//--- ok.mlir
func.func @scale(%A: memref<?xf32>, %n: index) {
  %c = arith.constant 2.0 : f32
  affine.for %i = 0 to %n {
    %a = affine.load %A[%i] : memref<?xf32>
    %b = arith.mulf %a, %c : f32
    affine.store %b, %A[%i] : memref<?xf32>
  }
  return
}

//--- other-signature.mlir
func.func @scale(%A: memref<?xf64>, %n: index) {
  return
}

//--- declaration.mlir
func.func private @helper(%A: memref<?xf32>) {
  return
}
func.func private @external(%A: memref<?xf32>)

//--- invalid.mlir
func.func @scale(%A: memref<?xf32>) {
  %0 = arith.addf %A, %A : f32
  return
}

//--- unlowerable.mlir
// linalg is not part of the lowering pipeline.
func.func @scale(%A: memref<?xf32>, %n: index) {
  %c = arith.constant 2.0 : f32
  linalg.fill ins(%c : f32) outs(%A : memref<?xf32>)
  return
}
