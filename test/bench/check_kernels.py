#!/usr/bin/env python3
"""Checks every pearl-bench kernel template (test/bench/kernels/*.mlir.in).

  check_kernels.py model --pearl-opt P [--size MINI] KERNELS_DIR
      expands each kernel and runs `pearl-opt --pearl-schedule=print-model`
      (agent=none): @kernel must be modeled (printed, with statements and no
      "loop nest left unchanged" remark in @kernel), unless EXPECTED below
      lists the kernel, in which case the remark must be exactly the one
      expected.

  check_kernels.py exec --pearl-opt P --pearl-exec E --mlir-opt M KERNELS_DIR
      expands each kernel, regenerates its loops from the identity schedule
      (`--pearl-schedule=regenerate agent=none`), checks that both modules
      lower with `mlir-opt --lower-affine`, and runs @kernel of the original
      and the regenerated module with pearl-exec, which must report
      identical outputs (pearl-exec makes its own inputs); then the same
      with an added @run that calls @init and @kernel, so that the kernel
      also runs on PolyBench's inputs (@init is regenerated too).
      With --pass-options OPTS, pearl-schedule{OPTS} replaces the identity
      regeneration (--pass-options "" schedules with the policy); with
      --schedules DIR, each kernel's hand schedule DIR/<kernel>.sched does.
      With --every-variant too, only the kernels with a schedule file are
      checked, each with every schedule of the file (the plain line and each
      "variant NAME:" line), one result line per schedule.
      Kernels with linalg ops are compared with their unscheduled lowering
      (mlir-opt --convert-linalg-to-affine-loops); the scheduled module goes
      through the same pass, for the linalg ops Pearl left alone.

Prints one line per kernel (PASS/FAIL/XFAIL, with the reason) and a closing
"N passed, M failed" line; XFAIL lines (expected, as listed below) count as
passed. Exit status 0 when nothing failed.
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "tools", "pearl-bench"))
import kernel as kernel_template  # noqa: E402

# Kernels whose @kernel Pearl cannot model yet: name -> the exact text of the
# remark expected (after "pearl-schedule: loop nest left unchanged: ").
# Keep in sync with test/bench/kernels/README.md. All 38 kernels are modeled
# today, so the list is empty.
EXPECTED_UNMODELED = {
}

# Kernels whose identity regeneration is known to differ or fail (Pearl bugs
# recorded in the README): name -> reason.
EXPECTED_EXEC_FAILURE = {
}

REMARK = "loop nest left unchanged"


IDENTITY = "regenerate agent=none"


def kernel_files(folder):
    return sorted(os.path.join(folder, f) for f in os.listdir(folder)
                  if f.endswith(".mlir.in"))


def short_name(path):
    return os.path.basename(path)[:-len(".mlir.in")]


def kernel_line(text):
    """1-based line of `func.func @kernel` in the expanded text."""
    for n, line in enumerate(text.splitlines(), 1):
        if re.match(r"\s*func\.func @kernel\b", line):
            return n
    return None


def kernel_remarks(stderr, first_line):
    """The 'left unchanged' remarks located in @kernel (line >= first_line)."""
    out = []
    for m in re.finditer(r"^[^\n:]*:(\d+):\d+: remark: pearl-schedule: "
                         + REMARK + r"(?:: )?([^\n]*)$", stderr, re.M):
        if int(m.group(1)) >= first_line:
            out.append(m.group(2))
    return out


def run(cmd, timeout=300):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)


def add_run(text):
    """Appends `func.func @run(<@kernel's arguments>)` calling @init then
    @kernel, so that pearl-exec can run the kernel on its own inputs."""
    m = re.search(r"func\.func @kernel\((.*?)\)\s*\{", text, re.S)
    if not m:
        return text
    types = re.findall(r"%[\w.$-]+\s*:\s*(memref<[^>]*>)", m.group(1))
    params = ", ".join("%%a%d: %s" % (i, t) for i, t in enumerate(types))
    names = ", ".join("%%a%d" % i for i in range(len(types)))
    sig = "(%s) -> ()" % ", ".join(types)
    return text + ("\nfunc.func @run(%s) {\n"
                   "  func.call @init(%s) : %s\n"
                   "  func.call @kernel(%s) : %s\n"
                   "  return\n}\n" % (params, names, sig, names, sig))


def expand(path, size, work, with_run=False):
    text = kernel_template.expand(path, size)
    if with_run:
        text = add_run(text)
    out = os.path.join(work, short_name(path) + ".mlir")
    with open(out, "w") as f:
        f.write(text)
    return out, text


def check_model(path, args, work):
    name = short_name(path)
    try:
        mlir, text = expand(path, args.size, work)
    except kernel_template.KernelError as e:
        return "FAIL", name, "expansion: %s" % e
    first = kernel_line(text)
    if first is None:
        return "FAIL", name, "no func.func @kernel"
    proc = run([args.pearl_opt, mlir, "--mlir-disable-threading",
                "--pearl-schedule=print-model agent=none", "-o", os.devnull])
    if proc.returncode != 0:
        return "FAIL", name, "pearl-opt exit %d: %s" % (
            proc.returncode, proc.stderr.strip()[-300:])
    remarks = kernel_remarks(proc.stderr, first)
    expected = EXPECTED_UNMODELED.get(name)
    if expected is not None:
        if remarks == [expected]:
            return "XFAIL", name, "not modeled (expected): %s" % expected
        return "FAIL", name, "expected the remark '%s', got %s" % (
            expected, remarks or "none")
    if remarks:
        return "FAIL", name, "not modeled: %s" % "; ".join(remarks)
    m = re.search(r"^model @kernel\n(.*?)(?=^model @|\Z)", proc.stdout,
                  re.M | re.S)
    if not m:
        return "FAIL", name, "no model printed for @kernel"
    body = m.group(1)
    n_stmt = len(re.findall(r"^    S\d+ ", body, re.M))
    n_loop = len(re.findall(r"^\s+L\d+ ", body, re.M))
    if n_stmt == 0:
        return "FAIL", name, "model of @kernel has no statement"
    return "PASS", name, "modeled: %d statements, %d loops" % (n_stmt, n_loop)


def schedule_lines(folder, name):
    """[(label, schedule)] of FOLDER/<name>.sched in file order (pearl-bench's
    schedule file format): the plain (every-size) line labelled "hand", each
    "variant NAME: ..." line labelled NAME; size lines ("MEDIUM: ...") are
    left out. [] when there is no file."""
    path = os.path.join(folder, name + ".sched")
    if not os.path.exists(path):
        return []
    out = []
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            m = re.match(r"variant\s+([\w.-]+)\s*:\s*(.*)$", line)
            if m:
                out.append((m.group(1), m.group(2)))
            elif line and not re.match(r"[A-Z]+\s*:", line):
                out.append(("hand", line))
    return out


def hand_schedule(folder, name):
    """The plain (every-size) schedule line of FOLDER/<name>.sched, or None."""
    plain = [s for label, s in schedule_lines(folder, name) if label == "hand"]
    return plain[0] if plain else None


def check_exec(path, args, work, variant=None):
    """variant: (label, schedule) to apply instead of the options; the
    result is named <kernel>[label] and its files go to their own folder."""
    name = short_name(path)
    if variant is not None:
        work = os.path.join(work, "%s.%s" % (name, variant[0]))
        os.makedirs(work)
    try:
        mlir, text = expand(path, args.size, work, with_run=True)
    except kernel_template.KernelError as e:
        return "FAIL", name, "expansion: %s" % e
    first = kernel_line(text)
    regen = os.path.join(work, name + ".regen.mlir")
    options = args.pass_options
    if variant is not None:
        options = 'schedule="%s"' % variant[1]
    elif args.schedules:
        sched = hand_schedule(args.schedules, name)
        if sched is None:
            return "FAIL", name, "no schedule in %s" % args.schedules
        options = 'schedule="%s"' % sched
    proc = run([args.pearl_opt, mlir, "--mlir-disable-threading",
                "--pearl-schedule=" + options, "-o", regen])
    status, why = "PASS", None
    if proc.returncode != 0:
        status, why = "FAIL", "pearl-opt regenerate exit %d: %s" % (
            proc.returncode, proc.stderr.strip()[-300:])
    elif first is not None and name not in EXPECTED_UNMODELED and \
            kernel_remarks(proc.stderr, first):
        status, why = "FAIL", "not regenerated: %s" % "; ".join(
            kernel_remarks(proc.stderr, first))
    if status == "PASS" and "linalg." in text:
        # The reference is the unscheduled lowering of the linalg ops;
        # linalg ops Pearl left alone in the scheduled module lower too.
        for f in (mlir, regen):
            low = run([args.mlir_opt, f, "--convert-linalg-to-affine-loops",
                       "-o", f + ".affine.mlir"])
            if low.returncode != 0:
                status, why = "FAIL", "convert-linalg-to-affine-loops %s: %s" % (
                    os.path.basename(f), low.stderr.strip()[-300:])
                break
        mlir, regen = mlir + ".affine.mlir", regen + ".affine.mlir"
    if status == "PASS":
        for f in (mlir, regen):
            low = run([args.mlir_opt, f, "--lower-affine", "-o", os.devnull])
            if low.returncode != 0:
                status, why = "FAIL", "mlir-opt --lower-affine %s: %s" % (
                    os.path.basename(f), low.stderr.strip()[-300:])
                break
    for entry in ("run",) if args.quick else ("kernel", "run"):
        if status != "PASS":
            break
        ex = run([args.pearl_exec, "--entry=" + entry, mlir, regen])
        last = ex.stdout.strip().splitlines()[-1:] or [""]
        if ex.returncode != 0 or last[0] != "pearl-exec: outputs identical":
            status, why = "FAIL", "pearl-exec --entry=%s exit %d: %s" % (
                entry, ex.returncode, (ex.stdout + ex.stderr).strip()[-300:])
    expected = EXPECTED_EXEC_FAILURE.get(name)
    if variant is not None:
        name = "%s[%s]" % (name, variant[0])
    if expected is not None:
        if status == "FAIL":
            return "XFAIL", name, "%s (expected: %s)" % (why, expected)
        return "FAIL", name, "expected to fail (%s) but passed" % expected
    if status == "FAIL":
        return status, name, why
    what = ("identity regeneration" if options == IDENTITY else
            "pearl-schedule{%s}" % options)
    return "PASS", name, ("%s runs bit-identical on %s"
                          % (what, "@init's inputs" if args.quick else
                             "pearl-exec's and on @init's inputs"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mode", choices=["model", "exec"])
    ap.add_argument("kernels", help="folder of *.mlir.in templates")
    ap.add_argument("--pearl-opt", required=True)
    ap.add_argument("--pearl-exec")
    ap.add_argument("--mlir-opt")
    ap.add_argument("--size", default="MINI")
    ap.add_argument("-j", "--jobs", type=int, default=1)
    ap.add_argument("--pass-options", default=IDENTITY,
                    help="exec: pearl-schedule's options (default: the "
                    "identity schedule regenerated; '' runs the policy)")
    ap.add_argument("--schedules",
                    help="exec: schedule each kernel with its hand schedule "
                    "SCHEDULES/<kernel>.sched instead of --pass-options")
    ap.add_argument("--every-variant", action="store_true",
                    help="exec, with --schedules: every schedule of each "
                    "kernel's file, kernels without a file left out")
    ap.add_argument("--quick", action="store_true",
                    help="exec: only the run on @init's inputs (for slow "
                    "sanitizer builds)")
    args = ap.parse_args()
    if args.mode == "exec" and not (args.pearl_exec and args.mlir_opt):
        ap.error("exec needs --pearl-exec and --mlir-opt")
    if args.every_variant and not (args.mode == "exec" and args.schedules):
        ap.error("--every-variant needs exec and --schedules")
    files = kernel_files(args.kernels)
    jobs = [(p, None) for p in files]
    if args.every_variant:
        jobs = [(p, v) for p in files
                for v in schedule_lines(args.schedules, short_name(p))]
        files = sorted(set(p for p, _ in jobs))
    print("kernels: %d" % len(files))
    if args.every_variant:
        print("schedules: %d" % len(jobs))
    check = check_model if args.mode == "model" else check_exec
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="pearl-kernels-") as work:
        with concurrent.futures.ThreadPoolExecutor(max(args.jobs, 1)) as pool:
            results = list(pool.map(
                lambda job: safe(check, job[0], args, work, *job[1:]), jobs))
    for status, name, why in results:
        print("%s %s: %s" % (status, name, why))
        if status == "FAIL":
            failed += 1
        else:
            passed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


def safe(check, path, args, work, variant=None):
    try:
        if variant is not None:
            return check(path, args, work, variant)
        return check(path, args, work)
    except subprocess.TimeoutExpired as e:
        return "FAIL", short_name(path), "timeout: %s" % " ".join(e.cmd[:2])
    except OSError as e:
        return "FAIL", short_name(path), "cannot run: %s" % e


if __name__ == "__main__":
    sys.exit(main())
