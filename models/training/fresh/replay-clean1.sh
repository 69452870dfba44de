#!/usr/bin/env bash
# Replay "clean1" (thirty-sixth session; model card, "fresh, continued"):
# e14's recipe from e10 on the committed targets, with campaigns 8 and 9
# written over the old ones. Everything it reads is committed, so the run
# gives the same epochs on any machine: bit for bit, when it reads the
# committed memo under the fingerprint of the machine that filled it.
#
#   models/training/fresh/replay-clean1.sh [--targets-only] OUT
#
# OUT/targets   the 1,348 schedule files imitated (imitate-targets.py), checked
#               against the run's record (imitate-clean1.csv): every program it
#               imitated a target of has that target here
# OUT/memo.sqlite  memo-fresh.sqlite.xz unpacked (not with --targets-only)
# OUT/run       pearl-train's folder: policy.bin (the held-out choice, epoch 3,
#               checksum 0x65c4c10b8920e412) and epoch-N.bin for every epoch
#
# Environment: PEARL_BUILD_DIR (default build), PEARL_MACHINE (default the
# memo's machine, so every answer is a memo hit and nothing is measured; set
# it empty to measure on this machine under its own fingerprint, which gives
# other answers and so other epochs).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../.." && pwd)
training="$root/models/training"
targets_only=0
if [ "${1:-}" = "--targets-only" ]; then
  targets_only=1
  shift
fi
if [ $# -ne 1 ]; then
  sed -n '2,20p' "${BASH_SOURCE[0]}" >&2
  exit 2
fi
out=$1
build=${PEARL_BUILD_DIR:-$root/build}
machine=${PEARL_MACHINE-"Intel(R) Xeon(R) Processor; 2 cpus; 2 threads"}

# e10's 12 CSVs, e12's 5 more, the campaigns' 18 and the doitgen family's 2
# (e14's 37), taken with --fastest; then campaigns 8 and 9, which replace
# what they name (searched again on one machine).
old_csvs=(
  expert-mm/imitate-mm-1-60.csv
  expert-gemm/imitate-gemm-1-60.csv expert-gemm/imitate-gemm-61-180.csv
  expert-families/imitate-chain-1-60.csv expert-families/imitate-mv-1-60.csv
  expert-per-nest/imitate-chain-pn-1-60.csv expert-per-nest/imitate-matvec-pn-1-60.csv
  expert-per-nest/imitate-random-pn-1-20.csv expert-per-nest/imitate-random-whole-1-20.csv
  select-speed/imitate-random-both-21-120.csv select-speed/imitate-random-both-121-180.csv
  sweep/imitate-sweep-1-80.csv
  completions/imitate-chain-61-90.csv completions/imitate-matvec-61-130.csv
  averaging/imitate-matvec-171-230.csv averaging/imitate-random-661-700.csv
  averaging/imitate-sweep-121-180.csv
  averaging/campaign2/imitate-matvec-231-250.csv
  averaging/campaign2/imitate-random-701-720.csv
  averaging/campaign2/imitate-sweep-181-200.csv
  seeds/campaign3/imitate-matvec-251-270.csv seeds/campaign3/imitate-random-721-740.csv
  seeds/campaign3/imitate-sweep-201-220.csv
  seeds/campaign4/imitate-matvec-271-290.csv seeds/campaign4/imitate-matvec-291-310.csv
  seeds/campaign4/imitate-random-741-760.csv seeds/campaign4/imitate-random-761-780.csv
  seeds/campaign4/imitate-sweep-221-240.csv
  stride/campaign5/imitate-matvec-311-330.csv stride/campaign5/imitate-random-781-800.csv
  stride/campaign5/imitate-random-801-820.csv stride/campaign5/imitate-sweep-241-260.csv
  stride/campaign5/imitate-sweep-261-280.csv
  scaled/campaign6/imitate-matvec-331-350.csv scaled/campaign6/imitate-sweep-281-300.csv
  scaled/campaign7/imitate-doitgen-1-20.csv scaled/campaign7/imitate-doitgen-21-40.csv
)
clean_csvs=(
  fresh/campaign8/imitate-chain-1-20.csv fresh/campaign8/imitate-doitgen-41-60.csv
  fresh/campaign8/imitate-gemm-1-20.csv fresh/campaign8/imitate-gemm-181-200.csv
  fresh/campaign8/imitate-gemm-21-40.csv fresh/campaign8/imitate-matmul-1-20.csv
  fresh/campaign8/imitate-matvec-351-370.csv fresh/campaign8/imitate-matvec-371-390.csv
  fresh/campaign8/imitate-random-821-840.csv
  fresh/campaign9/imitate-chain-21-40.csv fresh/campaign9/imitate-gemm-41-60.csv
  fresh/campaign9/imitate-matmul-21-40.csv
)

mkdir -p "$out"
rm -rf "$out/targets"
(cd "$training" && python3 "$root/tools/pearl-train/imitate-targets.py" --fastest \
  "$out/targets" "${old_csvs[@]}")
(cd "$training" && python3 "$root/tools/pearl-train/imitate-targets.py" \
  "$out/targets" "${clean_csvs[@]}")
python3 "$root/tools/pearl-train/check-targets.py" replay-clean1 "$out/targets" \
  "$here/imitate-clean1.csv" 1348
[ "$targets_only" = 1 ] && exit 0

# The starting policy is e10, compiled in when this run was made; taken
# from the history if models/pearl-policy.bin has moved on since.
init="$root/models/pearl-policy.bin"
if ! "$build/bin/pearl-model" info "$init" | grep -q 'checksum 0x44f1f23cb5dc8702'; then
  init="$out/e10.bin"
  git -C "$root" show 1552859:models/pearl-policy.bin > "$init"
fi
xz -dc "$here/memo-fresh.sqlite.xz" > "$out/memo.sqlite"
machine_option=()
[ -n "$machine" ] && machine_option=(--machine "$machine")
"$build/bin/pearl-train" --out "$out/run" --memo "$out/memo.sqlite" "${machine_option[@]}" \
  --init-model "$init" --size-scale cache \
  --first-program 661 --programs 180 --matmul-programs 60 --gemm-programs 200 \
  --chain-programs 90 --matvec-programs 390 --sweep-programs 300 --doitgen-programs 60 \
  --pretrain-epochs 0 --imitate-epochs 20 --imitate-samples 0 --imitate-search 0 \
  --imitate-targets "$out/targets" --steps 0 --seed 1 --distill 1 --imitate-lr 1e-4 \
  --imitate-select speed --imitate-save-epochs
