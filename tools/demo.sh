#!/usr/bin/env bash
# The main job on a bundled example: builds Pearl (installing what is
# missing), schedules a kernel with pearl-schedule and shows what was done,
# then compiles and runs it side by side with the unscheduled code, a hand
# schedule and Polly, checks every output byte for byte, and prints the
# speedups.
#
#   tools/demo.sh [KERNEL [SIZE]]
#
# KERNEL is a pearl-bench kernel name (default matmul: f64 C += A * B), SIZE
# one of MINI SMALL MEDIUM LARGE EXTRALARGE (default MEDIUM; LARGE is
# matmul at 1024^3, about a minute). Threads: OMP_NUM_THREADS (default 2).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${PEARL_BUILD_DIR:-$root/build}
kernel=${1:-matmul}
size=${2:-MEDIUM}
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}

"$root/tools/setup.sh"
py=/usr/bin/python3
template=
for t in "$root"/test/bench/kernels/*-"$kernel".mlir.in \
         "$root"/test/bench/extra/"$kernel".mlir.in; do
  if [ -f "$t" ]; then template=$t; break; fi
done
if [ -z "$template" ]; then
  echo "demo: no kernel named '$kernel' in test/bench" >&2
  exit 2
fi
work=$build/demo
rm -rf "$work" && mkdir -p "$work"
$py "$root/tools/pearl-bench/kernel.py" "$template" "$size" > "$work/kernel.mlir"

echo
echo "== What pearl-schedule does to $kernel ($size): the policy's decisions"
echo "   (the compiled-in model: see models/README.md for what it is)"
"$build/bin/pearl-opt" "$work/kernel.mlir" \
  --pearl-schedule="print-schedule" --mlir-disable-threading \
  -o "$work/scheduled.mlir" > "$work/schedule.txt" 2> "$work/remarks.txt"
sed -n 's/^.*remark: /  /p' "$work/remarks.txt"
echo "  the loops of @kernel after scheduling (isl's AST of the new schedule):"
awk '/^schedule @kernel/ {k = 1} /^schedule @init/ {k = 0}
     k && /^  ast:/ {a = 1; next} k && a' "$work/schedule.txt"

echo
echo "== Compiled (clang -O3 -fopenmp) and run side by side, outputs compared"
echo "   byte for byte with the unscheduled code; $OMP_NUM_THREADS threads"
configs=base,pearl,polly
[ -f "$root/test/bench/schedules/$kernel.sched" ] && configs=base,pearl,pearl-sched,polly
$py "$root/tools/pearl-bench/pearl-bench" --build "$build" \
  --kernels "$kernel" --size "$size" --configs "$configs" \
  --runs 5 --rounds 2 --out "$work/bench" --no-plot
echo
echo "pearl = the compiled-in policy; pearl-sched = the hand schedule of"
echo "test/bench/schedules/$kernel.sched through the same pass; polly = clang's"
echo "Polly on the same lowered code. Results: $work/bench/results.csv"
