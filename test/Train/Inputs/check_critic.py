"""Checks pearl-critic's epochs.csv (argv[1]) of argv[2] epochs: one row
per epoch from 0, ranking figures that are fractions of the fastest
(random <= 1, first pick <= best of top 5 <= 1), pairs in [0, 1], and a
training error that falls from the first epoch to the last. With a third
argument "pairs" (a run with --pair-weight), the ranking term's training
loss is finite in every epoch and falls too; without, it is not there.
With "files" (kernel files given), their ranking figures are there in
every epoch and are fractions too; without, they are not."""
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
pairs = [float(r["pair_loss"]) for r in rows[1:]]
mode = sys.argv[3] if len(sys.argv) > 3 else ""
files = [(float(r["files_pick"]), float(r["files_top5"]),
          float(r["files_pairs"])) for r in rows]
if mode == "files":
    for pick, top, pairs_ in files:
        assert 0 < pick <= top <= 1 + 1e-6 and 0 <= pairs_ <= 1, files
else:
    assert all(math.isnan(x) for f in files for x in f), files
if mode == "pairs":
    assert all(math.isfinite(p) and p > 0 for p in pairs), pairs
    assert pairs[-1] < pairs[0], "pair loss did not fall: %s" % pairs
    print("pair loss %.4f -> %.4f" % (pairs[0], pairs[-1]))
else:
    assert all(math.isnan(p) for p in pairs), pairs
print("ok: %d epochs, training mse %.4f -> %.4f" % (epochs, first, last))
