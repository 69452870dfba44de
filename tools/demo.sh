#!/usr/bin/env bash
# The main job on a bundled example: builds Pearl (installing what is
# missing), then shows what pearl-schedule sees in a kernel: its polyhedral
# model, loop tree, schedule tree, dependences and which loops are parallel.
#
#   tools/demo.sh [kernel.mlir]
#
# Scheduling and running the kernel with its speedup come with the
# transformation and policy work; this stage stops at the model.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${PEARL_BUILD_DIR:-$root/build}
kernel=${1:-$root/tools/examples/jacobi-2d.mlir}

"$root/tools/setup.sh"
echo
echo "== pearl-schedule{print-model} on $(basename "$kernel") (through mlir-opt and the plugin)"
/usr/lib/llvm-22/bin/mlir-opt "$kernel" \
  --load-pass-plugin="$build/lib/PearlPlugin.so" \
  --pass-pipeline='builtin.module(func.func(pearl-schedule{print-model}))' \
  -o /dev/null
