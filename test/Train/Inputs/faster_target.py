#!/usr/bin/env python3
"""A target that beats the policy's greedy schedule, for distill.test.

    faster_target.py pick IMITATE.csv TARGETS_DIR
        writes TARGETS_DIR/NAME.sched for the first program whose greedy
        schedule (the distilled rows' schedule) has two actions or more:
        its first action alone, a schedule the agent can reach. Prints
        NAME and the schedule.
    faster_target.py speed-up MEMO.sqlite PICKED
        with PICKED what pick printed: divides the memo's time of that
        schedule on that program by 100, so that the next run reads it as
        far faster than anything else.

Exits with status 1 if there is no such program or memo row.
"""
import csv
import os
import sqlite3
import sys


def pick(imitate_csv, out):
    for row in csv.DictReader(open(imitate_csv, newline="")):
        actions = [t for t in row["schedule"].split() if t != "N"]
        if row["imitated"] == "distilled" and len(actions) >= 2:
            os.makedirs(out, exist_ok=True)
            with open(os.path.join(out, row["program"] + ".sched"), "w") as f:
                f.write("# pearl schedule file 1\n")
                f.write('kernel 0 * "%s"\n' % actions[0])
            print(row["program"], actions[0])
            return 0
    return 1


def speed_up(memo, picked):
    name, schedule = open(picked).read().split()
    db = sqlite3.connect(memo)
    n = db.execute("UPDATE results SET seconds = seconds / 100 WHERE "
                   "schedule = ? AND program IN (SELECT hash FROM programs "
                   "WHERE name = ?)", (schedule, name)).rowcount
    db.commit()
    return 0 if n > 0 else 1


def main(argv):
    if len(argv) == 4 and argv[1] == "pick":
        return pick(argv[2], argv[3])
    if len(argv) == 4 and argv[1] == "speed-up":
        return speed_up(argv[2], argv[3])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
