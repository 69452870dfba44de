"""Checks pearl-eval's CSV (argv[1]): a row per program and column
(argv[2], comma-separated, in order), no schedule with outputs other than
the base's, and the search column at least as fast as the policy it starts
from (its first column): the search measures the policy's decision first
and keeps the fastest, on the same memo."""
import csv
import sys

rows = list(csv.DictReader(open(sys.argv[1])))
columns = sys.argv[2].split(",")
programs = sorted({r["program"] for r in rows})
assert len(rows) == len(programs) * len(columns), rows
speed = {}
for r in rows:
    assert r["status"] != "WRONG_OUTPUT", r
    speed[(r["program"], r["policy"])] = float(r["speedup"])
for p in programs:
    assert [r["policy"] for r in rows if r["program"] == p] == columns
    if "search" in columns:
        assert speed[(p, "search")] >= speed[(p, columns[0])] * (1 - 1e-6), \
            (p, speed[(p, "search")], speed[(p, columns[0])])
print("ok: %d programs x %d columns" % (len(programs), len(columns)))
