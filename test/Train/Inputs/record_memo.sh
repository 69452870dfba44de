#!/bin/sh
# Re-records tiny-memo.sql, the run times tiny-training.test replays.
#
#   test/Train/Inputs/record_memo.sh BUILD_DIR
#
# Needed whenever PEARL_CODEGEN_VERSION changes: the memo only answers
# queries of the build's code generator version, so an old recording makes
# the tiny run time every schedule live, and its outcome then depends on the
# machine's noise. Run it on a quiet machine. It times the test's three runs
# (training, resume, imitation) live into a fresh memo under the fingerprint
# "pearl-test-recorded", replays the training run from the new memo to check
# that it needs no execution and still improves its mean reward, and writes
# the dump over tiny-memo.sql.
set -eu
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
train="$build/bin/pearl-train"
common="--machine pearl-test-recorded --size-scale small --seed 3 --runs 1"
ppo="--programs 4 --batch 64 --minibatch 32 --epochs 4 --lr 1e-3
     --entropy 0.05,0 --min-parallel-work 0 --copies 1"

# The same commands as tiny-training.test, in the same order.
record() {
  memo=$1 out=$2
  "$train" --out "$out/run" --memo "$memo" $common $ppo --steps 320 \
    --pretrain-epochs 10 2> "$out/run.log"
  "$train" --out "$out/run" --memo "$memo" $common $ppo --steps 384 \
    --resume 2> "$out/resume.log"
  "$train" --out "$out/imitate" --memo "$memo" $common --programs 10 \
    --steps 0 --pretrain-epochs 0 --imitate-epochs 5 --imitate-samples 1 \
    --imitate-prune 1 2> "$out/imitate.log"
}

mkdir "$work/live" "$work/replay"
record "$work/memo.sqlite" "$work/live"
grep 'done:' "$work/live/run.log"
python3 "$here/check_training.py" "$work/live/run/curve.csv" --improves 0.5

python3 - "$work/memo.sqlite" "$work/memo.sql" <<'EOF'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
with open(sys.argv[2], "w") as f:
    for line in db.iterdump():
        f.write(line + "\n")
EOF

python3 "$here/load_memo.py" "$work/replay.sqlite" "$work/memo.sql"
record "$work/replay.sqlite" "$work/replay"
grep 'done:' "$work/replay/run.log"
grep -q ' 0 executions' "$work/replay/run.log" ||
  { echo "the replay timed schedules live: not deterministic" >&2; exit 1; }
python3 "$here/check_training.py" "$work/replay/run/curve.csv" --improves 0.5
cp "$work/memo.sql" "$here/tiny-memo.sql"
echo "tiny-memo.sql re-recorded"
