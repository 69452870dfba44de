"""Checks likely.test's log: each program's pick is the most likely of the
schedules listed for it, at least one program listed two or more, and the
CSV imitates the pick ("likely", or "greedy" when the pick is the greedy
schedule) unless the pick is the fastest itself."""
import csv
import re
import sys

LISTED = re.compile(r'^pearl-train: likely: (\S+): "(.*)" ([0-9.]+)x '
                    r'log-likelihood (-?[0-9.]+)$')
PICK = re.compile(r'^pearl-train: likely: (\S+): picks "(.*)" over the '
                  r'fastest "(.*)"$')

listed, picks = {}, {}
for line in open(sys.argv[1]):
    line = line.rstrip("\n")
    m = LISTED.match(line)
    if m:
        listed.setdefault(m.group(1), []).append(
            (float(m.group(4)), m.group(2)))
    m = PICK.match(line)
    if m:
        picks[m.group(1)] = (m.group(2), m.group(3))
assert picks, "no program picked"
assert any(len(v) >= 2 for v in listed.values()), listed
rows = {r["program"]: r for r in csv.DictReader(open(sys.argv[2]))}
for name, (pick, fastest) in picks.items():
    most_likely = max(listed[name])[1]
    assert pick == most_likely, (name, pick, listed[name])
    row = rows[name]
    if pick != fastest:
        assert row["imitated"] in ("likely", "greedy"), row
        assert row["schedule"] == pick, (row, pick)
    else:
        assert row["imitated"] == "target", row
print("ok: %d picks" % len(picks))
