"""Checks pearl-train --imitate-average FROM's outputs: imitate-epochs.csv
has the rows of epochs 0 (the starting policy) to the last and ends with
the row "mean", whose held-out loss is neither epoch FROM's nor
the last epoch's (the weights kept are no single epoch's), and whose
held-out geomean is the log's; imitate-select.csv has one row "mean" per
held-out program, of that geomean; and pearl-eval's rows of the policy
written (timed from the same memo) give it again: the policy written is
the mean.

usage: check_average.py FROM train.log imitate-epochs.csv imitate-select.csv
                        EVAL.csv...
"""
import csv
import math
import re
import sys

first, log, epochs_csv, select_csv = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
evals = sys.argv[5:]


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


m = None
for line in open(log):
    m = re.search(r"imitation keeps the mean of epochs (\d+)-(\d+) \(held-out greedy geomean ([0-9.]+)x", line) or m
assert m, "no 'keeps the mean' line"
lo, hi, kept = int(m.group(1)), int(m.group(2)), float(m.group(3))

rows = list(csv.DictReader(open(epochs_csv)))
assert rows[-1]["epoch"] == "mean", rows[-1]
assert [r["epoch"] for r in rows[:-1]] == [str(e) for e in range(0, hi + 1)], rows
assert lo == first, (lo, first)
mean = rows[-1]
assert abs(float(mean["validation_speedup"]) - kept) < 1e-3, (mean, kept)
for e in (lo, hi):
    assert float(mean["validation_loss"]) != float(rows[e]["validation_loss"]), (mean, rows[e])

sel = [float(r["speedup"]) for r in csv.DictReader(open(select_csv)) if r["epoch"] == "mean"]
assert sel, "no mean rows in " + select_csv
assert abs(geomean(sel) - kept) < 1e-4 + 1e-3 * kept, (geomean(sel), kept)

ev = [float(r["speedup"]) for f in evals for r in csv.DictReader(open(f))]
assert len(ev) == len(sel), (ev, sel)
assert abs(geomean(ev) - kept) < 1e-4 + 1e-3 * kept, (geomean(ev), kept)
print("mean of epochs %d-%d: %.4fx" % (lo, hi, kept))
