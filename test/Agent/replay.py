#!/usr/bin/env python3
"""Replays the agent's choices as an explicit schedule.

    replay.py PEARL_OPT INPUT.mlir REMARKS OUT.mlir

INPUT.mlir holds one region; REMARKS holds pearl-schedule's remarks on it.
The actions the agent chose ("chose \"...\"", none when it kept the
original schedule) are passed to pearl-schedule{schedule=...}, and the
result is written to OUT.mlir.
"""
import re
import subprocess
import sys


def main():
    pearl_opt, src, remarks, out = sys.argv[1:5]
    chosen = [m.group(1) or "" for m in re.finditer(
        r"remark: pearl-schedule: agent \([^)]*\) "
        r"(?:chose \"([^\"]*)\"|kept the original schedule)",
        open(remarks).read())]
    if len(chosen) != 1:
        sys.exit("replay: expected one agent remark, found %d" % len(chosen))
    if not chosen[0]:
        # Nothing chosen: the pass left the IR as it was.
        proc = subprocess.run([pearl_opt, src, "--pearl-schedule=agent=none",
                               "-o", out], capture_output=True, text=True)
    else:
        proc = subprocess.run([pearl_opt, src, "--pearl-schedule=schedule=\"%s\""
                               % chosen[0], "-o", out],
                              capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(proc.stderr)


if __name__ == "__main__":
    main()
