#!/usr/bin/env bash
# Replay "clean2" (thirty-ninth session; model card, "clean2"): clean1's
# recipe from e10 (replay-clean1.sh) with campaign 10's targets written
# over clean1's: gemm 61-120 and matmul 41-60 searched again, matvec
# 391-430 and random 841-880 new. Campaign 10 was measured on another
# machine ("AMD EPYC; 2 cpus; 2 threads") than the fresh memo
# ("Intel(R) Xeon(R) Processor; 2 cpus; 2 threads"), so the run reads one
# memo of both (pearl-env --merge) and each program from the machine that
# has its base (--memo-also): campaign 10's programs from the first, the
# others from the second.
#
#   models/training/fresh/replay-clean2.sh [--targets-only] OUT [OPTION...]
#
# OPTIONs go to pearl-train after the recipe's own: replay "kindw" (fortieth
# session; model card) is this one with --imitate-kind-weight V=4,D=2.
#
# OUT/targets      clean1's 1,348 schedule files, then campaign 10's over them
# OUT/memo.sqlite  memo-fresh.sqlite.xz and campaign10's memo, merged
# OUT/run          pearl-train's folder: epoch-N.bin for every epoch; its
#                  imitate.csv is clean2/imitate-clean2.csv, against which
#                  the targets are checked
#
# Replay "kindw15" (forty-first session), whose epoch 20 is e16, compiled in
# from the forty-second: kindw from e15, K allowed to the agent as it then
# was, and the 2,552 answers it measured merged into the memo:
#
#   git show 45e01e7:models/pearl-policy.bin > e15.bin
#   PEARL_MERGE_MEMOS=models/training/fresh/kindw15/memo-kindw15-new.sqlite.xz \
#     models/training/fresh/replay-clean2.sh OUT --init-model e15.bin \
#     --imitate-kind-weight V=4,D=2 --copies 1
#
# Environment: PEARL_BUILD_DIR (default build), PEARL_MACHINE (default
# campaign 10's machine: run elsewhere, what the memo lacks is measured
# on this host under that name; set it to this host's fingerprint to keep
# its answers apart), PEARL_MERGE_MEMOS (xz-compressed memos, separated by
# spaces, merged into OUT/memo.sqlite before training).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../.." && pwd)
targets_only=0
if [ "${1:-}" = "--targets-only" ]; then
  targets_only=1
  shift
fi
if [ $# -lt 1 ]; then
  sed -n '2,35p' "${BASH_SOURCE[0]}" >&2
  exit 2
fi
out=$1
shift
build=${PEARL_BUILD_DIR:-$root/build}
machine=${PEARL_MACHINE:-"AMD EPYC; 2 cpus; 2 threads"}
fresh_machine="Intel(R) Xeon(R) Processor; 2 cpus; 2 threads"

campaign10_csvs=(
  fresh/campaign10/imitate-gemm-61-80.csv fresh/campaign10/imitate-gemm-81-100.csv
  fresh/campaign10/imitate-gemm-101-120.csv fresh/campaign10/imitate-matmul-41-60.csv
  fresh/campaign10/imitate-matvec-391-410.csv fresh/campaign10/imitate-matvec-411-430.csv
  fresh/campaign10/imitate-random-841-860.csv fresh/campaign10/imitate-random-861-880.csv
)

"$here/replay-clean1.sh" --targets-only "$out"
(cd "$root/models/training" && python3 "$root/tools/pearl-train/imitate-targets.py" \
  "$out/targets" "${campaign10_csvs[@]}")
python3 "$root/tools/pearl-train/check-targets.py" replay-clean2 "$out/targets" \
  "$here/clean2/imitate-clean2.csv" 1425
[ "$targets_only" = 1 ] && exit 0

init="$root/models/pearl-policy.bin"
if ! "$build/bin/pearl-model" info "$init" | grep -q 'checksum 0x44f1f23cb5dc8702'; then
  init="$out/e10.bin"
  git -C "$root" show 1552859:models/pearl-policy.bin > "$init"
fi
rm -f "$out/memo.sqlite" "$out/campaign10.sqlite"
xz -dc "$here/memo-fresh.sqlite.xz" > "$out/memo.sqlite"
xz -dc "$here/campaign10/memo-campaign10.sqlite.xz" > "$out/campaign10.sqlite"
"$build/bin/pearl-env" --memo "$out/memo.sqlite" --merge "$out/campaign10.sqlite"
rm -f "$out/campaign10.sqlite"
for extra in ${PEARL_MERGE_MEMOS:-}; do
  xz -dc "$extra" > "$out/extra.sqlite"
  "$build/bin/pearl-env" --memo "$out/memo.sqlite" --merge "$out/extra.sqlite"
  rm -f "$out/extra.sqlite"
done
"$build/bin/pearl-train" --out "$out/run" --memo "$out/memo.sqlite" \
  --machine "$machine" --memo-also "$fresh_machine" \
  --init-model "$init" --size-scale cache \
  --first-program 661 --programs 220 --matmul-programs 60 --gemm-programs 200 \
  --chain-programs 90 --matvec-programs 430 --sweep-programs 300 --doitgen-programs 60 \
  --pretrain-epochs 0 --imitate-epochs 20 --imitate-samples 0 --imitate-search 0 \
  --imitate-targets "$out/targets" --steps 0 --seed 1 --distill 1 --imitate-lr 1e-4 \
  --imitate-select speed --imitate-save-epochs --recheck-bases 8 "$@"
