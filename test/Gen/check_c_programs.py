#!/usr/bin/env python3
"""Checks pearl-gen's C programs (--lang c): each compiles without a
warning (-Wall -Wextra -Werror), runs under UBSan and ASan with no report
(the emitter promises programs free of undefined behaviour, so that clang
cannot compile them differently with and without the plugin for that
reason), and prints one "NAME HASH" line per array the kernel writes.

  check_c_programs.py --pearl-gen BIN --clang BIN --seed S --count N
                      [--size-scale small|train|wide|cache]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile


def check(args, seed, tmp):
    src = os.path.join(tmp, "gen-%d.c" % seed)
    exe = os.path.join(tmp, "gen-%d" % seed)
    with open(src, "w") as f:
        subprocess.run([args.pearl_gen, "--seed", str(seed), "--size-scale",
                        args.size_scale, "--lang", "c", "--quiet"],
                       stdout=f, check=True)
    cc = subprocess.run([args.clang, "-O1", "-g", "-Wall", "-Wextra",
                         "-Werror", "-fsanitize=undefined,address",
                         "-fno-sanitize-recover=all", src, "-o", exe, "-lm"],
                        capture_output=True, text=True)
    if cc.returncode != 0:
        return "does not compile cleanly: " + cc.stderr.strip()[:400]
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0")
    run = subprocess.run([exe], capture_output=True, text=True, env=env,
                         timeout=120)
    if run.returncode != 0 or run.stderr:
        return "sanitizer report or failure: " + run.stderr.strip()[:400]
    with open(src) as f:
        text = f.read()
    writes = len(re.findall(r"print_checksum\(\"", text))
    lines = run.stdout.splitlines()
    if writes == 0 or len(lines) != writes or not all(
            re.fullmatch(r"[A-Z][0-9]* [0-9a-f]{16}", l) for l in lines):
        return "unexpected output: %r" % run.stdout[:200]
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pearl-gen", required=True)
    ap.add_argument("--clang", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--size-scale", default="small")
    args = ap.parse_args()
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(args.seed, args.seed + args.count):
            why = check(args, seed, tmp)
            if why:
                failed += 1
                print("FAIL gen-%d: %s" % (seed, why))
    print("%d passed, %d failed" % (args.count - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
