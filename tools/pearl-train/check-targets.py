#!/usr/bin/env python3
"""Checks a replay's targets against the record of the run that made it.

    tools/pearl-train/check-targets.py LABEL TARGET_DIR IMITATE_CSV FILES

TARGET_DIR holds the schedule files imitate-targets.py wrote; IMITATE_CSV
is the imitate.csv of the run being replayed. Every program the run
imitated a target of must have that target (the one-entry form `kernel 0
* "..."`), and the directory must hold exactly FILES files. Prints one
line under LABEL; exits with status 1 and the first difference otherwise.
"""
import csv
import os
import re
import sys


def main(argv):
    if len(argv) != 5:
        sys.stderr.write(__doc__)
        return 2
    label, targets, record, expected = argv[1], argv[2], argv[3], int(argv[4])
    files = len(os.listdir(targets))
    checked = 0
    for row in csv.DictReader(open(record, newline="")):
        if row["imitated"] != "target":
            continue
        path = os.path.join(targets, row["program"] + ".sched")
        text = open(path).read() if os.path.exists(path) else ""
        found = re.search(r'^kernel 0 \* "([^"]*)"$', text, re.M)
        if not found or found.group(1) != row["schedule"]:
            sys.stderr.write("%s: %s: the record imitated \"%s\", the targets "
                             "give %s\n" % (label, row["program"], row["schedule"],
                                            '"%s"' % found.group(1) if found else "none"))
            return 1
        checked += 1
    if files != expected:
        sys.stderr.write("%s: %d target files, the run had %d\n" % (label, files, expected))
        return 1
    print("%s: %d target files; the %d targets the run imitated match"
          % (label, files, checked))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
