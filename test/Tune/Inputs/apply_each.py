#!/usr/bin/env python3
"""Applies a schedule file's entries function by function with pearl-opt's
explicit schedule= option and checks each function's outputs with
pearl-exec.

For every function of the schedule file, in file order, a module holding
only that function (cut from MODULE) is scheduled with
--pearl-schedule='schedule="S0;S1;..." agent=none' (one ';'-separated part
per region, "" for regions without an entry; agent=none alone if every
part is empty) and run against the original
with pearl-exec --entry=FUNCTION --size=SIZE. Prints, per function:

  @FUNCTION schedule "S0;S1": pearl-exec: outputs identical

Exit status 1 if a function's outputs differ or a tool fails.
"""
import argparse
import os
import re
import subprocess
import sys


def read_entries(path):
    """The entries (function, region, schedule) of a schedule file."""
    entries = []
    with open(path) as f:
        for line in f:
            m = re.match(r'\s*([^\s#"]+)\s+(\d+)\s+(\S+)\s+"([^"]*)"', line)
            if m:
                entries.append((m.group(1), int(m.group(2)), m.group(4)))
    return entries


def cut_function(text, name):
    """The top-level func.func @name of text, with its body."""
    m = re.search(r'^func\.func @%s\(.*?^}\n' % re.escape(name), text,
                  re.M | re.S)
    if not m:
        sys.exit("apply_each: no func.func @%s at column 0" % name)
    return m.group(0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pearl-opt", required=True)
    ap.add_argument("--pearl-exec", required=True)
    ap.add_argument("--size", default="64")
    ap.add_argument("--work", required=True)
    ap.add_argument("module")
    ap.add_argument("schedules")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    with open(args.module) as f:
        text = f.read()
    parts = {}
    for fn, region, schedule in read_entries(args.schedules):
        parts.setdefault(fn, {})[region] = schedule
    status = 0
    for fn, regions in parts.items():
        schedule = ";".join(regions.get(r, "")
                            for r in range(max(regions) + 1))
        orig = os.path.join(args.work, fn + ".mlir")
        tuned = os.path.join(args.work, fn + ".tuned.mlir")
        with open(orig, "w") as f:
            f.write(cut_function(text, fn))
        # schedule= must hold an action: without any, agent=none alone
        # leaves every region as it is.
        option = "agent=none"
        if schedule.replace(";", "").strip():
            option = 'schedule="%s" agent=none' % schedule
        subprocess.run([args.pearl_opt, orig, "--pearl-schedule=" + option,
                        "-o", tuned], check=True, stderr=subprocess.DEVNULL)
        run = subprocess.run([args.pearl_exec, "--entry=" + fn,
                              "--size=" + args.size, orig, tuned],
                             capture_output=True, text=True)
        last = (run.stdout.strip().splitlines() or ["(no output)"])[-1]
        print('@%s schedule "%s": %s' % (fn, schedule, last))
        status |= run.returncode != 0
    return status


if __name__ == "__main__":
    sys.exit(main())
