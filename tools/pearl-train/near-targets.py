#!/usr/bin/env python3
"""Near-best alternatives of expert-iteration targets, from a memo.

    tools/pearl-train/near-targets.py [--near X] [--max K] MEMO TARGET_DIR

For every TARGET_DIR/NAME.sched (imitate-targets.py's files), looks up the
program NAME in the memo database MEMO (pearl-train's, whose programs
table names it so, or pearl-tune's, which names it by its file,
DIR/NAME.mlir.in) and writes TARGET_DIR/NAME.near: the schedules
the memo measured within the fraction X (default 0.1) of the fastest, at
most K (default 3) besides the target, fastest first, one per line.
pearl-train --imitate-targets TARGET_DIR --imitate-likely Y times them
beside the target and imitates, of all the candidates within Y of the
fastest, the one the starting policy finds the most likely.

A search measures many schedules within the noise of its fastest, often
with different first actions (interchange first, or tile first, on a
matrix-vector nest); the fastest of one campaign is the luck of a
measurement, and programs alike in all that the network sees then teach
it opposite first decisions. The alternatives let the training choose,
among the schedules that are as fast, the one closest to what the policy
already does.

Speedups are taken within one (machine, code generator) group of the
memo: base time over the schedule's, for schedules that ran (status 0)
and computed the base's outputs. The group chosen for a program is the
one holding its target with the most measurements (the search's), else
the one with the most measurements. A program the memo does not hold, or
with nothing near, gets no file. Prints the number of files written;
exits with status 1 on a malformed target file.
"""
import os
import re
import sqlite3
import sys

ENTRY = re.compile(r'^\S+ \d+ \S+ "([^"]*)"$')


def target_of(path):
    """The schedule of a target file's single entry, None if malformed."""
    with open(path) as f:
        lines = [l.rstrip("\n") for l in f if l.strip()]
    if not lines or not lines[0].startswith("# pearl schedule file"):
        return None
    entries = [ENTRY.match(l) for l in lines[1:] if not l.startswith("#")]
    if len(entries) != 1 or not entries[0]:
        return None
    return entries[0].group(1)


def program_name(name):
    """A memo's program name as pearl-train names it: pearl-tune's are the
    paths of the files (DIR/gen-1.mlir.in), pearl-train's the bare name."""
    base = os.path.basename(name)
    for suffix in (".mlir.in", ".mlir"):
        if base.endswith(suffix):
            return base[:-len(suffix)]
    return base


def hashes_by_name(db):
    """{program name: [memo hashes]}"""
    by = {}
    for h, name in db.execute("select hash, name from programs"):
        by.setdefault(program_name(name), []).append(h)
    return by


def groups_of(db, hashes):
    """{(hash, machine, codegen): {schedule: speedup}} of the programs."""
    groups = {}
    raw = {}
    for h in hashes:
        rows = db.execute(
            "select machine, codegen, schedule, seconds, output_hash from"
            " results where program = ? and status = 0 and seconds > 0",
            (h,))
        for machine, codegen, schedule, seconds, out in rows:
            raw.setdefault((h, machine, codegen), []).append(
                (schedule, seconds, out))
    for key, results in raw.items():
        base = [r for r in results if r[0] == ""]
        if not base:
            continue
        base_seconds, base_out = base[0][1], base[0][2]
        groups[key] = {s: base_seconds / t for s, t, out in results
                       if s and out == base_out}
    return groups


def alternatives(groups, target, near, most):
    """Up to `most` schedules within `near` of the chosen group's best."""
    if not groups:
        return []
    holding = [k for k in groups if target in groups[k]]
    key = max(holding or groups, key=lambda k: len(groups[k]))
    speedups = groups[key]
    best = max(speedups.values(), default=0)
    if best <= 0:
        return []
    near_ones = sorted((s for s in speedups
                        if s != target and speedups[s] >= best / (1 + near)),
                       key=lambda s: (-speedups[s], s))
    return near_ones[:most]


def main(argv):
    near, most = 0.1, 3
    args = argv[1:]
    while args and args[0].startswith("--"):
        if len(args) < 2:
            sys.stderr.write(__doc__)
            return 2
        if args[0] == "--near":
            near = float(args[1])
        elif args[0] == "--max":
            most = int(args[1])
        else:
            sys.stderr.write(__doc__)
            return 2
        args = args[2:]
    if len(args) != 2 or near < 0 or most < 1:
        sys.stderr.write(__doc__)
        return 2
    memo, out = args
    db = sqlite3.connect("file:%s?mode=ro" % memo, uri=True)
    by_name = hashes_by_name(db)
    written = 0
    for file in sorted(os.listdir(out)):
        if not file.endswith(".sched"):
            continue
        name = file[:-len(".sched")]
        target = target_of(os.path.join(out, file))
        if target is None:
            sys.stderr.write("%s: not a target file\n" % file)
            return 1
        alts = alternatives(groups_of(db, by_name.get(name, [])), target,
                            near, most)
        path = os.path.join(out, name + ".near")
        if not alts:
            if os.path.exists(path):
                os.remove(path)
            continue
        with open(path, "w") as f:
            f.write("# near-best schedules of %s, fastest first\n" % name)
            for s in alts:
                f.write(s + "\n")
        written += 1
    print("%d near files in %s" % (written, out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
