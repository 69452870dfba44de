#!/usr/bin/env python3
"""Schedule files of the targets an expert-iteration run imitated.

    tools/pearl-train/imitate-targets.py [--fastest] OUT_DIR imitate-*.csv...

Reads the imitate.csv files pearl-train writes (one row a program: its
name, the candidates' speedups, what was imitated and its schedule) and
writes OUT_DIR/NAME.sched for every program whose target is a schedule
(programs imitating "none" get no file; a program "distilled" under
--distill keeps the target of an earlier row, if any). pearl-train --imitate-targets
OUT_DIR --imitate-search 0 then replays the imitation from the memo
without searching again: each program's target is timed (a memo hit when
the memo holds the run that found it) beside the policy's own candidates,
and imitated if it is the fastest.

The files hold one entry, for region 0 of @kernel with any fingerprint:
the function and region of pearl-gen's programs. A later row of the same
program replaces an earlier one; with --fastest, a row replaces an earlier
target only if its speedup is higher, and a row imitating "none" removes
none (campaigns of one family with two searches: the faster target
wins). Prints the number of files written;
exits with status 1 on a malformed row.
"""
import csv
import os
import sys


def main(argv):
    fastest = len(argv) > 1 and argv[1] == "--fastest"
    if fastest:
        argv = argv[:1] + argv[2:]
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    out = argv[1]
    targets = {}
    speedups = {}
    for path in argv[2:]:
        with open(path, newline="") as f:
            for line, row in enumerate(csv.DictReader(f), start=2):
                name = row.get("program") or ""
                imitated = row.get("imitated")
                schedule = row.get("schedule")
                if not name or imitated is None or schedule is None \
                        or '"' in schedule or os.sep in name:
                    sys.stderr.write("%s:%d: not a row of imitate.csv\n"
                                     % (path, line))
                    return 1
                try:
                    speedup = float(row.get("speedup") or "nan")
                except ValueError:
                    speedup = float("nan")
                if imitated == "none":
                    if not fastest:
                        targets.pop(name, None)
                elif imitated == "distilled":
                    pass  # the policy's own schedule: no new target
                elif not fastest or name not in targets \
                        or speedup > speedups[name]:
                    targets[name] = schedule
                    speedups[name] = speedup
    os.makedirs(out, exist_ok=True)
    for name, schedule in sorted(targets.items()):
        with open(os.path.join(out, name + ".sched"), "w") as f:
            f.write("# pearl schedule file 1\n")
            f.write('kernel 0 * "%s"\n' % schedule)
    print("%d schedule files in %s" % (len(targets), out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
