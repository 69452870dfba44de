"""Checks pearl-critic's epochs.csv (argv[1]) of argv[2] epochs: one row
per epoch from 0, ranking figures that are fractions of the fastest
(random <= 1, first pick <= best of top 5 <= 1), pairs in [0, 1], and a
training error that falls from the first epoch to the last."""
import csv
import math
import sys

rows = list(csv.DictReader(open(sys.argv[1])))
epochs = int(sys.argv[2])
assert [int(r["epoch"]) for r in rows] == list(range(epochs + 1)), rows
for r in rows:
    pick, top, rnd = float(r["pick"]), float(r["top5"]), float(r["random"])
    assert 0 < rnd <= 1 + 1e-6 and 0 < pick <= top <= 1 + 1e-6, r
    assert 0 <= float(r["pairs"]) <= 1, r
    assert math.isfinite(float(r["held_out_mse"])), r
first, last = float(rows[1]["mse"]), float(rows[-1]["mse"])
assert last < first, "training error did not fall: %g -> %g" % (first, last)
print("ok: %d epochs, training mse %.4f -> %.4f" % (epochs, first, last))
