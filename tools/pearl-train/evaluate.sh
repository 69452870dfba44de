#!/usr/bin/env bash
# The evaluation of a trained model (issue "Training Pearl", model card):
# the trained policy, the untrained network, a random legal policy with the
# trained policy's episode lengths and the rules-only heuristic, side by side
# in one pearl-eval run per program set:
#   - held-out random programs (pearl-gen seeds never trained on, at the
#     train size scale unless --scale says otherwise);
#   - the benchmark kernels (test/bench/kernels) at one dataset size.
#
#   tools/pearl-train/evaluate.sh [--model FILE] [--size MEDIUM]
#       [--held-out FIRST,N] [--scale train|wide] [--kernels GLOB]
#       [--memo FILE] [--out DIR]
#       [--build DIR] [--runs N] [--also NAME=FILE]...
#       [--critic FILE [--beam W,K]] [--search N]
#
# --also adds another model as a column (e.g. the previous compiled-in one).
# --critic adds the trained policy with the critic's beam; --search N adds
# pearl-tune's search (N candidates a program, ranked by the trained
# policy) as the oracle, and every column is then also given as a fraction
# of its geomean (the learned-policy issue's measure).
#
# Writes DIR/held-out.{txt,csv} (held-out-SCALE.* for another scale) and
# DIR/bench-SIZE.{txt,csv}, each table between two lines with the machine's
# load average.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
model="$root/models/pearl-policy.bin"
size=MEDIUM
held_out=100001,30
scale=train
kernels='*'
memo=""
out=pearl-eval-out
build="$root/build"
runs=3
also=()
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --model) model=$2; shift 2 ;;
    --size) size=$2; shift 2 ;;
    --held-out) held_out=$2; shift 2 ;;
    --scale) scale=$2; shift 2 ;;
    --kernels) kernels=$2; shift 2 ;;
    --memo) memo=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --also) also+=(--policy "$2"); shift 2 ;;
    --critic|--beam|--search) extra+=("$1" "$2"); shift 2 ;;
    *) echo "evaluate.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
mkdir -p "$out/kernels"
memo=${memo:-$out/memo.sqlite}
eval_args=(--policy "trained=$model" "${also[@]}" --policy untrained=init:1
           --random trained --heuristic --memo "$memo" --runs "$runs"
           ${extra[@]+"${extra[@]}"})

# The load average goes into each table: an evaluation on a loaded machine
# is not comparable with one on a quiet machine (parallel schedules suffer
# most), and the tables must say which it was.
load() { echo "machine load (1, 5, 15 min): $(cut -d' ' -f1-3 /proc/loadavg)"; }

held=held-out
[ "$scale" = train ] || held=held-out-$scale
echo "== held-out random programs (pearl-gen seeds $held_out, $scale sizes)"
{
  load
  "$build/bin/pearl-eval" "${eval_args[@]}" --generated "$held_out" \
    --size-scale "$scale" --csv "$out/$held.csv"
  load
} | tee "$out/$held.txt"

echo "== benchmark kernels at $size"
files=()
for t in "$root"/test/bench/kernels/$kernels.mlir.in; do
  name=$(basename "$t" .mlir.in)
  /usr/bin/python3 "$root/tools/pearl-bench/kernel.py" "$t" "$size" \
    -o "$out/kernels/$name.mlir"
  files+=("$out/kernels/$name.mlir")
done
{
  load
  "$build/bin/pearl-eval" "${eval_args[@]}" --csv "$out/bench-$size.csv" \
    "${files[@]}"
  load
} | tee "$out/bench-$size.txt"
