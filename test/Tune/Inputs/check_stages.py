"""Checks the progress lines of pearl-tune --nests each|both (stderr).

Every line counts the whole search's measurements: the counts never go
down from one line to the next, across the stages, and stay within the
budget. The stages come in order (whole, nest 1/n .. nest n/n, composed).
With --whole-best, the whole stage measured at most half the budget, and
its fastest schedule is measured again in the composed stage (a starting
point of the last stage).

usage: check_stages.py LOG BUDGET [--whole-best]
"""
import re
import sys

log, budget = sys.argv[1], int(sys.argv[2])
whole_best = "--whole-best" in sys.argv[3:]
line_re = re.compile(r'^  (whole|nest \d+/\d+|composed)  level (\d+)  (\d+)/(\d+) measured +([0-9.]+)x .*"(.*)"$')

rows = []
for line in open(log):
    m = line_re.match(line.rstrip("\n"))
    if m:
        rows.append((m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4)),
                     float(m.group(5)), m.group(6)))
assert rows, "no progress lines with a stage"
counts = [r[2] for r in rows]
assert all(a <= b for a, b in zip(counts, counts[1:])), counts
assert all(r[3] == budget for r in rows), "the budget printed is the whole one"
assert counts[-1] <= budget, (counts[-1], budget)

order = []
for r in rows:
    if not order or order[-1] != r[0]:
        order.append(r[0])
n = max(int(s.split()[1].split("/")[1]) for s in order if s.startswith("nest"))
expected = (["whole"] if whole_best else []) + ["nest %d/%d" % (k, n) for k in range(1, n + 1)] + ["composed"]
assert order == expected, (order, expected)

if whole_best:
    whole = [r for r in rows if r[0] == "whole"]
    assert max(r[2] for r in whole) <= budget // 2, whole[-1]
    best = max(r[4] for r in whole)
    fastest = {r[5] for r in whole if r[4] == best}
    composed = {r[5] for r in rows if r[0] == "composed"}
    assert best <= 1.0 or fastest & composed, (fastest, composed)
print("stages", ", ".join(order), "; measured", counts[-1], "of", budget)
