"""Checks pearl-train --imitate-select speed's log: the epoch kept is the
first whose held-out greedy geomean is the highest, epoch 0 (the policy
before imitation) included, and imitate-epochs.csv gives the same geomeans.
With --eval A.csv B.csv (pearl-eval's rows of the kept policy on the
held-out programs, timed from the same memo), their geomean is the kept
one's: the parameters restored are the kept epoch's.

With --select imitate-select.csv, that file's rows (one per held-out
program and epoch) give each epoch's geomean.

usage: check_select.py train.log imitate-epochs.csv [--select CSV]
                       [--eval CSV...]
"""
import csv
import math
import re
import sys

log, epochs_csv = sys.argv[1], sys.argv[2]
rest = sys.argv[3:]
select_csv = None
if rest[:1] == ["--select"]:
    select_csv, rest = rest[1], rest[2:]
evals = rest[1:] if rest[:1] == ["--eval"] else []

speed = {}
kept = None
for line in open(log):
    m = re.search(r"imitation epoch (\d+): held-out greedy geomean ([0-9.]+)x", line)
    if m:
        speed[int(m.group(1))] = float(m.group(2))
    m = re.search(r"imitation keeps epoch (\d+) \(held-out greedy geomean ([0-9.]+)x\)", line)
    if m:
        kept = (int(m.group(1)), float(m.group(2)))
assert kept is not None, "no 'keeps epoch' line"
assert 0 in speed and len(speed) >= 2, speed
best = max(speed.values())
first_best = min(e for e, g in speed.items() if g == best)
assert kept == (first_best, best), (kept, speed)

rows = list(csv.DictReader(open(epochs_csv)))
for r in rows:
    g = float(r["validation_speedup"])
    assert abs(g - speed[int(r["epoch"])]) < 1e-3, (r, speed)

if select_csv:
    per_epoch = {}
    for r in csv.DictReader(open(select_csv)):
        per_epoch.setdefault(int(r["epoch"]), []).append(math.log(float(r["speedup"])))
    assert sorted(per_epoch) == sorted(speed), (sorted(per_epoch), speed)
    for e, logs in per_epoch.items():
        g = math.exp(sum(logs) / len(logs))
        # The log prints 4 decimals: allow its rounding beside the relative error.
        assert abs(g - speed[e]) < 1e-4 + 1e-3 * speed[e], (e, g, speed[e])

if evals:
    logs = [math.log(float(r["speedup"])) for f in evals for r in csv.DictReader(open(f))]
    g = math.exp(sum(logs) / len(logs))
    assert abs(g - kept[1]) < 1e-4 + 1e-3 * kept[1], (g, kept)
print("kept epoch %d of %d, %.4fx" % (kept[0], len(speed) - 1, kept[1]))
