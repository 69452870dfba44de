#!/usr/bin/env python3
"""Execution tests of Pearl's schedules.

For every kernel in a folder, applies (1) every single action at every level
and (2) random sequences of 2-6 actions with pearl-opt's explicit schedule
option, then runs the original and the scheduled kernel with pearl-exec on
the same inputs (OMP_NUM_THREADS=2) and requires bit-identical outputs.

A (kernel, schedule) pair counts when at least one of its actions was
applied; refused actions are expected (random actions are often illegal) and
are checked separately: they must leave the IR valid. Prints one line per
failure, a summary per kernel, and a closing "N passed, M failed" line.
"""
import argparse
import os
import random
import re
import subprocess
import sys
import tempfile

TILE_SIZES = [4, 8, 16, 32]
UNROLL = [2, 4, 8]


def single_actions(depth):
    acts = []
    for l in range(depth):
        acts += ["R(%d)" % l, "P(%d)" % l, "K(%d)" % l]
    for l in range(depth - 1):
        acts += ["I(%d,%d)" % (l, l + 1), "S(%d,%d)" % (l, l + 1),
                 "S(%d,%d,1,1)" % (l, l + 1),
                 "T(%d,%d,8,4)" % (l, l + 1)]
    for l in range(depth - 2):
        acts += ["I(%d,%d)" % (l, l + 2), "T(%d,%d,%d,4,4,4)" % (l, l + 1, l + 2)]
    acts += ["U(2)", "U(4)"]
    return acts


def random_action(rng, depth):
    kind = rng.choice("IIRSSTTUPPNK" if depth > 1 else "RUPNK")
    if kind == "N":
        return "N"
    if kind == "U":
        return "U(%d)" % rng.choice(UNROLL)
    l = rng.randrange(depth)
    if kind in "RPK":
        return "%s(%d)" % (kind, l)
    l = rng.randrange(max(depth - 1, 1))
    if kind == "I":
        return "I(%d,%d)" % (l, rng.randrange(l + 1, depth + 1))
    if kind == "S":
        if rng.random() < 0.5:
            return "S(%d,%d)" % (l, l + 1)
        return "S(%d,%d,%d,%d)" % (l, l + 1, rng.choice([1, 2]), rng.choice([-1, 1, 2]))
    if depth >= 3 and rng.random() < 0.3:
        l = rng.randrange(depth - 2)
        s = [rng.choice(TILE_SIZES) for _ in range(3)]
        return "T(%d,%d,%d,%d,%d,%d)" % (l, l + 1, l + 2, s[0], s[1], s[2])
    return "T(%d,%d,%d,%d)" % (l, l + 1, rng.choice(TILE_SIZES), rng.choice(TILE_SIZES))


def max_depth(pearl_opt, kernel):
    out = subprocess.run([pearl_opt, kernel, "--pearl-schedule=print-model",
                          "-o", os.devnull], capture_output=True, text=True)
    depths = [len(m.group(1).split(",")) for m in
              re.finditer(r"domain: (?:\[[^\]]*\] -> )?\{ S\d+\[([^\]]*)\]", out.stdout)]
    return max([d for d in depths] + [1])


def schedule(pearl_opt, kernel, sched, out_path):
    """Returns (ok, applied, message)."""
    proc = subprocess.run([pearl_opt, kernel, "--mlir-disable-threading",
                           "--pearl-schedule=schedule=\"%s\"" % sched, "-o", out_path],
                          capture_output=True, text=True, timeout=120)
    if proc.returncode != 0:
        return False, 0, "pearl-opt failed (%d): %s" % (proc.returncode, proc.stderr[-400:])
    # K's copies that cannot be shown to stay inside their arrays leave the
    # code unchanged: a refusal, not a failure.
    if "a copy of K would read outside its array" in proc.stderr:
        return True, 0, proc.stderr
    if "loop nest left unchanged" in proc.stderr and "code generation" in proc.stderr:
        return False, 0, "code generation failed: " + proc.stderr[-400:]
    applied = sum(len(m.group(1).split()) for m in
                  re.finditer(r"applied ((?:[A-Z]\([^)]*\) ?)+)", proc.stderr))
    return True, applied, proc.stderr


def execute(pearl_exec, original, scheduled):
    env = dict(os.environ, OMP_NUM_THREADS="2")
    proc = subprocess.run([pearl_exec, original, scheduled], capture_output=True,
                          text=True, env=env, timeout=300)
    return proc.returncode, proc.stdout[-600:] + proc.stderr[-600:]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pearl-opt", required=True)
    ap.add_argument("--pearl-exec", required=True)
    ap.add_argument("--kernels", required=True)
    ap.add_argument("--pairs", type=int, default=300,
                    help="minimum number of applied (kernel, schedule) pairs")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quick", action="store_true",
                    help="only the single actions (for slow sanitizer builds)")
    args = ap.parse_args()

    rng = random.Random(args.seed)
    kernels = sorted(os.path.join(args.kernels, k)
                     for k in os.listdir(args.kernels) if k.endswith(".mlir"))
    depth = {k: max_depth(args.pearl_opt, k) for k in kernels}
    out = os.path.join(tempfile.mkdtemp(prefix="pearl-schedules-"), "scheduled.mlir")
    counts = {"passed": 0, "failed": 0, "refused": 0}

    def run(kernel, sched):
        name = os.path.basename(kernel)
        ok, applied, msg = schedule(args.pearl_opt, kernel, sched, out)
        if not ok:
            counts["failed"] += 1
            print("FAIL %s \"%s\": %s" % (name, sched, msg.strip()))
        elif applied == 0:
            counts["refused"] += 1
        else:
            code, text = execute(args.pearl_exec, kernel, out)
            if code == 0:
                counts["passed"] += 1
            else:
                counts["failed"] += 1
                print("FAIL %s \"%s\": outputs %s\n%s" % (
                    name, sched, "differ" if code == 1 else "not compared",
                    text.strip()))
        sys.stdout.flush()

    # Every single action at every level of every kernel.
    for k in kernels:
        for a in single_actions(depth[k]):
            run(k, a)
    # Random sequences until enough pairs ran (bounded attempts).
    attempts = 0
    while not args.quick and counts["passed"] < args.pairs and attempts < 20 * args.pairs:
        k = kernels[attempts % len(kernels)]
        attempts += 1
        run(k, " ".join(random_action(rng, depth[k])
                        for _ in range(rng.randint(2, 6))))
    passed, failed, refused_only = counts["passed"], counts["failed"], counts["refused"]
    print("schedules: %d pairs with applied actions run bit-identical, "
          "%d fully refused (IR unchanged and valid)" % (passed, refused_only))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed or (not args.quick and passed < args.pairs) else 0


if __name__ == "__main__":
    sys.exit(main())
