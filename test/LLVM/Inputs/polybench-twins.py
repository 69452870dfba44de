#!/usr/bin/env python3
"""Compiles C kernels with a reference compiler command and with a test
command (clang with the Pearl plugin), runs both programs and checks that
they print the same bytes.

  polybench-twins.py --ref 'CLANG -O3' --test 'CLANG -fpass-plugin=... -O3'
                     --out DIR [--cflags-for NAME='FLAGS']... [--expect N] FILE.c...

Every kernel is tried even after a failure; each failure is reported with
the kernel's name and why (the compiler's exit status and the head of its
crash report, or the output lines that differ), and the exit status is 1
if any kernel failed. The commands are split like a shell would split
them, so they may start with `env VAR=...`. Both commands get
`-I` of this script's folder, which holds the kernels' `checksum.h`.
"""
import argparse
import concurrent.futures
import os
import re
import shlex
import signal
import subprocess
import sys

COMPILE_TIMEOUT = 600
RUN_TIMEOUT = 120
HEAD_LINES = 12
# The folder of checksum.h, which every kernel includes.
INCLUDE_DIR = os.path.dirname(os.path.abspath(__file__))


def describe_status(code):
    if code < 0:
        try:
            return "killed by %s" % signal.Signals(-code).name
        except ValueError:
            return "killed by signal %d" % -code
    return "exit status %d" % code


def crash_head(stderr):
    """The lines that say where the compiler crashed: its assertion,
    sanitizer or error lines, the pass and function it was running, and
    the first symbolized frames of the stack dump (function, file:line).
    Long lines (the cc1 command, the pass pipeline) are cut in the middle."""
    head = []
    frames = 0
    for line in stderr.splitlines():
        if re.match(r"\s*#\d+ ", line):
            # Frames of the crash handler and unsymbolized ones say nothing.
            if re.match(r"\s*#\d+ 0x[0-9a-f]+ \(/", line) or "llvm::sys::" in line:
                continue
            frames += 1
            if frames > HEAD_LINES:
                break
        elif frames > 0 or not line.strip() or line.startswith("PLEASE submit"):
            continue
        # Cut in the middle: a frame's file:line is at its end.
        head.append(line if len(line) <= 200 else line[:110] + " ... " + line[-85:])
    return head or stderr.splitlines()[:HEAD_LINES]


# A crash or sanitizer report in the compiler's output fails the kernel even
# if the compiler's exit status is 0 (UBSan, for one, reports and goes on).
CRASH_MARKS = ("Stack dump:", "PLEASE submit a bug report", "ERROR: AddressSanitizer",
               "runtime error:", "ERROR: LeakSanitizer")


# Under UBSan (the plugin built with --sanitize), a report that stops the
# compiler should say where: ask for the stack unless told otherwise.
COMPILE_ENV = dict(os.environ)
COMPILE_ENV.setdefault("UBSAN_OPTIONS", "print_stacktrace=1")


def run(cmd, timeout, env=None):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout, env=env)
        return p.returncode, p.stdout, p.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return None, b"", "timed out after %d s" % timeout


def check(name, src, args):
    """Returns (name, None) if the kernel passes, else (name, reason)."""
    extra = shlex.split(args.cflags_for.get(name, ""))
    base = os.path.join(args.out, name)
    exes = {}
    for kind, cc in (("ref", args.ref), ("test", args.test)):
        exe = "%s.%s" % (base, kind)
        cmd = shlex.split(cc) + extra + ["-I", INCLUDE_DIR, src, "-o", exe, "-lm"]
        code, _, err = run(cmd, COMPILE_TIMEOUT, COMPILE_ENV)
        if code != 0 or any(m in err for m in CRASH_MARKS):
            what = ("timed out" if code is None else describe_status(code) if code
                    else "a crash report on exit status 0")
            return name, "%s compile failed (%s): %s\n%s" % (
                kind, what, " ".join(shlex.quote(c) for c in cmd),
                "\n".join("    " + l for l in crash_head(err)))
        exes[kind] = exe
    env = dict(os.environ)
    env.setdefault("OMP_NUM_THREADS", "2")
    outs = {}
    for kind, exe in exes.items():
        code, out, err = run([exe], RUN_TIMEOUT, env)
        if code != 0:
            what = "timed out" if code is None else describe_status(code)
            return name, "%s program failed (%s): %s\n%s" % (
                kind, what, exe, "\n".join("    " + l for l in err.splitlines()[:HEAD_LINES]))
        outs[kind] = out
    if not outs["ref"].strip():
        return name, "the reference program printed nothing"
    if outs["ref"] != outs["test"]:
        ref = outs["ref"].decode(errors="replace").splitlines()
        test = outs["test"].decode(errors="replace").splitlines()
        diff = ["    ref  %s\n    test %s" % (r, t) for r, t in zip(ref, test) if r != t]
        if len(ref) != len(test):
            diff.append("    ref printed %d lines, test %d" % (len(ref), len(test)))
        return name, "outputs differ:\n%s" % "\n".join(diff)
    return name, None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ref", required=True, help="reference compile command")
    ap.add_argument("--test", required=True, help="compile command under test")
    ap.add_argument("--out", required=True, help="directory for the programs")
    ap.add_argument("--cflags-for", action="append", default=[], metavar="NAME=FLAGS",
                    help="extra flags for the kernel NAME (both commands)")
    ap.add_argument("-j", type=int, default=min(4, os.cpu_count() or 1),
                    help="kernels checked at once")
    ap.add_argument("--expect", type=int, help="fail unless this many files are given")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    args.cflags_for = dict(kv.split("=", 1) for kv in args.cflags_for)
    os.makedirs(args.out, exist_ok=True)

    if args.expect is not None and len(args.files) != args.expect:
        ap.error("%d files given, %d expected" % (len(args.files), args.expect))
    names = [os.path.splitext(os.path.basename(f))[0] for f in args.files]
    unknown = set(args.cflags_for) - set(names)
    if unknown:
        ap.error("--cflags-for names no given file: %s" % ", ".join(sorted(unknown)))
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.j)) as pool:
        results = list(pool.map(lambda nf: check(nf[0], nf[1], args), zip(names, args.files)))
    failed = [(n, why) for n, why in results if why]
    for n, why in results:
        print("%s: %s" % ("FAIL" if why else "ok", n))
    for n, why in failed:
        print("\nFAIL %s: %s" % (n, why), file=sys.stderr)
    if failed:
        print("\n%d of %d kernels failed: %s" % (len(failed), len(results),
                                                " ".join(n for n, _ in failed)),
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
