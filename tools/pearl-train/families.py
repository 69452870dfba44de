#!/usr/bin/env python3
"""Geomean speedups per program family of pearl-train's CSVs.

    tools/pearl-train/families.py FILE.csv...

A program's family is its name without the seed ("mv-161": mv; pearl-gen's
random programs are "gen"). Two kinds of file are read, told apart by
their header:

- imitate.csv (one row a program: its candidates' speedups over the
  unscheduled program). One line per family, and one for all: the
  programs, the geomeans of the heuristic's, the policy's greedy and the
  search's schedules and of what was imitated, the greedy schedules as a
  fraction of the search's (where the policy has most to learn), and how
  many programs imitated what. Several files are read as one (a campaign's
  chunks); a later row of a program replaces an earlier one.

- imitate-select.csv (--imitate-select speed: one row per epoch and
  held-out program). One row per epoch, one column per family: the greedy
  schedules' geomean; `*` marks each family's best epoch. Whether what an
  epoch learns carries over to the programs of every family, or gains on
  one and loses on another.

Speedups that are not positive numbers (nan, a failed run) are left out
of the geomeans. Exits with status 1 on a file of neither kind.
"""
import csv
import math
import sys
from collections import OrderedDict, defaultdict

IMITATE = ("program", "heuristic", "greedy", "searched", "imitated", "speedup")
SELECT = ("epoch", "program", "speedup", "status")


def family(program):
    head, _, seed = program.rpartition("-")
    return head if head and seed.isdigit() else program


def number(text):
    try:
        x = float(text)
    except ValueError:
        return None
    return x if x > 0 and math.isfinite(x) else None


def mean_log(xs):
    """The geomean of the numbers among xs, or None if there are none."""
    xs = [x for x in xs if x is not None]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else None


def geomean(xs):
    g = mean_log(xs)
    return "-" if g is None else "%.2fx" % g


def read(paths):
    kind, rows = None, []
    for path in paths:
        with open(path, newline="") as f:
            reader = csv.DictReader(f)
            fields = reader.fieldnames or []
            this = ("imitate" if all(k in fields for k in IMITATE) else
                    "select" if all(k in fields for k in SELECT) else None)
            if this is None or (kind and this != kind):
                raise ValueError("%s: not an imitate.csv or imitate-select.csv"
                                 " like the files before it" % path)
            kind = this
            rows.extend(reader)
    return kind, rows


def imitate_table(rows):
    last = OrderedDict()
    for r in rows:
        last[r["program"]] = r
    groups = defaultdict(list)
    for r in last.values():
        groups[family(r["program"])].append(r)
    print("family programs heuristic greedy search imitated "
          "greedy/search imitated_what")
    for name in sorted(groups) + ["all"]:
        rs = list(last.values()) if name == "all" else groups[name]
        col = {k: [number(r[k]) for r in rs]
               for k in ("heuristic", "greedy", "searched", "speedup")}
        pairs = [(g, s) for g, s in zip(col["greedy"], col["searched"])
                 if g is not None and s is not None]
        ratio = geomean([g / s for g, s in pairs])
        what = defaultdict(int)
        for r in rs:
            what[r["imitated"] or "none"] += 1
        print("%s %d %s %s %s %s %s %s" % (
            name, len(rs), geomean(col["heuristic"]), geomean(col["greedy"]),
            geomean(col["searched"]), geomean(col["speedup"]),
            ratio.rstrip("x"),
            ",".join("%s:%d" % kv for kv in sorted(what.items()))))


def select_table(rows):
    speed = defaultdict(list)
    programs = defaultdict(set)
    epochs = []
    for r in rows:
        if r["epoch"] not in epochs:
            epochs.append(r["epoch"])
        fam = family(r["program"])
        programs[fam].add(r["program"])
        ok = r["status"] == "OK"
        speed[(r["epoch"], fam)].append(number(r["speedup"]) if ok else None)
        speed[(r["epoch"], "all")].append(number(r["speedup"]) if ok else None)
    fams = sorted(programs) + ["all"]
    value = {k: mean_log(v) for k, v in speed.items()}
    best = {}  # the first epoch of the highest geomean
    for fam in fams:
        for e in epochs:
            g = value.get((e, fam))
            if g is not None and (fam not in best or
                                  g > value[(best[fam], fam)]):
                best[fam] = e
    count = {f: len(programs[f]) for f in programs}
    count["all"] = sum(count.values())
    print("epoch " + " ".join("%s(%d)" % (f, count[f]) for f in fams))
    for e in epochs:
        cells = []
        for fam in fams:
            cell = geomean([value.get((e, fam))])
            cells.append(cell + ("*" if best.get(fam) == e else ""))
        print(e + " " + " ".join(cells))


def main(argv):
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    try:
        kind, rows = read(argv[1:])
    except (OSError, ValueError) as e:
        sys.stderr.write("families.py: %s\n" % e)
        return 1
    (imitate_table if kind == "imitate" else select_table)(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
