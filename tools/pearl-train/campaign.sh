#!/usr/bin/env bash
# A search campaign for expert iteration (the learned-policy issue, model
# card): pearl-tune's search, ranked by a policy, on chunks of generated
# programs, family after family in turn, each chunk one pearl-train run
# (--imitate-search, --search-nests both) whose imitate.csv holds every
# program's candidates and the search's best: the targets of the next
# replay (imitate-targets.py --fastest). Meant to run for hours in the
# background: every chunk is its own directory, one command resumes the
# campaign where it stopped, and it stops by itself at a deadline or when
# DIR/STOP exists (after the chunk under way).
#
#   tools/pearl-train/campaign.sh --out DIR [--families F:FIRST,...]
#       [--chunk N] [--budget N] [--size-scale S] [--model FILE]
#       [--memo FILE] [--hours H] [--max-chunks N] [--recheck-bases N]
#       [--pearl-train PATH]
#
# --families random:641,matvec:171,sweep:121 (the default) says which
# pearl-gen families are searched, from which seed; chunks rotate over
# them. Chunk FAMILY-A-B is done when its log ends with rc=0, and is then
# skipped: a rerun with the same options resumes. A chunk that fails
# stops the campaign (its log says why); remove its directory and log to
# run it again. --hours H stops it at the first chunk boundary after H
# hours; --max-chunks N after the first N chunks of the rotation (those
# done before included). --recheck-bases N (default 8) has each chunk
# measure the first N base times the memo answers again and say how far
# they are from the memo's (pearl/env.h, recheck_bases): a memo filled on
# another host under the same fingerprint shows as a median far from 1.
#
# Progress: DIR/campaign.txt gets one line per chunk (programs, the
# heuristic's, the policy's greedy and the search's geomean speedups, the
# environment's measurements and memo hits, the measurements contention
# made it take again or leave out of the memo, the memo's bases measured
# again and their median ratio, the load before and after,
# the minutes). Measure with nothing else heavy on the machine: the
# targets are what the search measured, and a loaded machine's parallel
# schedules look slower than they are.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=""
families=random:641,matvec:171,sweep:121
chunk=20
budget=90
scale=cache
model="$root/models/pearl-policy.bin"
memo=""
hours=""
pearl_train="$root/build/bin/pearl-train"
max_chunks=""
recheck_bases=8
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out=$2; shift 2 ;;
    --families) families=$2; shift 2 ;;
    --chunk) chunk=$2; shift 2 ;;
    --budget) budget=$2; shift 2 ;;
    --size-scale) scale=$2; shift 2 ;;
    --model) model=$2; shift 2 ;;
    --memo) memo=$2; shift 2 ;;
    --hours) hours=$2; shift 2 ;;
    --pearl-train) pearl_train=$2; shift 2 ;;
    --max-chunks) max_chunks=$2; shift 2 ;;
    --recheck-bases) recheck_bases=$2; shift 2 ;;
    *) echo "campaign.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
if [ -z "$out" ]; then
  echo "campaign.sh: --out DIR is required" >&2
  exit 2
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
memo=${memo:-$out/memo.sqlite}
deadline=""
[ -z "$hours" ] || deadline=$(awk -v now="$(date +%s)" -v h="$hours" 'BEGIN { printf "%d", now + h * 3600 }')

load() { cut -d' ' -f1 /proc/loadavg; }

# The geomeans of one chunk's imitate.csv, as "programs heuristic greedy
# searched".
summary() {
  /usr/bin/python3 - "$1" <<'EOF'
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
def geomean(key):
    xs = [float(r[key]) for r in rows if r[key] not in ("", "nan")]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")
print("%d %.3f %.3f %.3f" % (len(rows), geomean("heuristic"), geomean("greedy"), geomean("searched")))
EOF
}

# The environment's "N queries, M memo hits, K misses" of a chunk's log,
# and how many measurements the machine's contention made it take again
# and left out of the memo (pearl/env.h, max_cpu_pressure), and the
# memo's bases measured again (recheck_bases), if any.
queries() {
  sed -n 's/.*environment: \([0-9]*\) queries, \([0-9]*\) memo hits, \([0-9]*\) misses.*/\1 queries, \3 measured/p' "$1" | tail -1
  sed -n 's/.* \([0-9]*\) measured again on a contended machine, \([0-9]*\) contended answers not memoized.*/; contended: \1 measured again, \2 not memoized/p' "$1" | tail -1
  sed -n 's/.*not memoized, \([0-9]*\) memoized bases measured again at a median \([0-9.]*x\).*/; memo bases: \1 measured again, median \2/p' "$1" | tail -1
}

# One chunk: FAMILY FIRST. Returns 0 when done (now or before), 1 when it
# failed.
run_chunk() {
  local family=$1 first=$2 last=$(( $2 + chunk - 1 ))
  local name="$family-$first-$last" sel t0 l0
  if grep -q '^rc=0$' "$out/$name.log" 2>/dev/null; then
    return 0
  fi
  if [ "$family" = random ]; then
    sel=(--programs "$chunk" --first-program "$first")
  else
    sel=(--programs 0 "--$family-programs" "$chunk" "--first-$family-program" "$first")
  fi
  t0=$(date +%s)
  l0=$(load)
  # LLVM's remarks and warnings on the compiled candidates are left out
  # of the log (thousands a chunk).
  set +e
  "$pearl_train" --out "$out/$name" --memo "$memo" --size-scale "$scale" \
    "${sel[@]}" --init-model "$model" --pretrain-epochs 0 --imitate-epochs 1 \
    --imitate-samples 2 --imitate-search "$budget" --search-nests both \
    --recheck-bases "$recheck_bases" --steps 0 --seed 1 2> "$out/$name.stderr"
  local rc=$?
  set -e
  grep -v '^warning: \|^remark: ' "$out/$name.stderr" > "$out/$name.log" || true
  rm -f "$out/$name.stderr"
  echo "rc=$rc" >> "$out/$name.log"
  if [ $rc -ne 0 ]; then
    echo "campaign: chunk $name failed (rc=$rc); see $out/$name.log" | tee -a "$out/campaign.txt" >&2
    return 1
  fi
  read -r n h g s < <(summary "$out/$name/imitate.csv")
  printf '%s %s: %d programs; heuristic %.2fx, greedy %.2fx, search %.2fx; %s; load %s then %s; %.1f min\n' \
    "$(date +%F\ %T)" "$name" "$n" "$h" "$g" "$s" "$(queries "$out/$name.log" | tr -d '\n')" \
    "$l0" "$(load)" "$(awk -v s=$(( $(date +%s) - t0 )) 'BEGIN { print s / 60 }')" | tee -a "$out/campaign.txt"
}

IFS=, read -r -a specs <<< "$families"
declare -A next
for spec in "${specs[@]}"; do
  next[${spec%%:*}]=${spec#*:}
done
echo "campaign: $out; families $families; chunks of $chunk programs, $budget candidates each; memo $memo" >&2
done_chunks=0
while :; do
  for spec in "${specs[@]}"; do
    family=${spec%%:*}
    if [ -e "$out/STOP" ]; then
      echo "campaign: $out/STOP exists: stopping" >&2
      exit 0
    fi
    if [ -n "$deadline" ] && [ "$(date +%s)" -ge "$deadline" ]; then
      echo "campaign: deadline reached: stopping" >&2
      exit 0
    fi
    if [ -n "$max_chunks" ] && [ "$done_chunks" -ge "$max_chunks" ]; then
      exit 0
    fi
    run_chunk "$family" "${next[$family]}" || exit 1
    next[$family]=$(( ${next[$family]} + chunk ))
    done_chunks=$(( done_chunks + 1 ))
  done
done
