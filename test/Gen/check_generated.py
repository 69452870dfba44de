#!/usr/bin/env python3
"""Checks programs of pearl-gen end to end.

  check_generated.py --pearl-gen G --pearl-opt P --pearl-exec E --mlir-opt M
                     [--seed 1] [--count 60] [--scale small] [-j 2] [--quick]
                     [--family any|matmul|gemm|chain|matvec|sweep|doitgen]

Generates programs of seeds SEED .. SEED+COUNT-1 (pearl-gen --size-scale
SCALE) and checks each:

  1. `pearl-opt --pearl-schedule="print-model agent=none"` models @kernel:
     a model with statements is printed and no "loop nest left unchanged"
     remark points into @kernel;
  2. `pearl-opt --pearl-schedule` (the policy, greedy) succeeds, again with
     no such remark in @kernel;
  3. `mlir-opt --lower-affine` accepts the original and the scheduled
     module;
  4. `pearl-exec --entry=kernel original scheduled` (OMP_NUM_THREADS=2)
     reports identical outputs.

Prints one line per program (PASS/FAIL/XFAIL, the generator's summary and
the policy's schedule), the distribution of kinds, types and features over
all generated programs, a coverage line (every kind, every type and the
main features occur at least once), and a closing "N passed, M failed"
line; XFAIL lines (failures of the seeds listed in EXPECTED_FAILURE) count
as passed.
With --quick (sanitizer builds) every program is still generated and
counted in the distribution, but only every fourth one is run through the
checks.  With --family matmul (one matmul nest per program), the coverage
asks instead for the contraction kind alone, every type and all six loop
orders (read off the programs' "// nest 0: contraction: matmul ORDER"
lines).  With --family gemm, the four orders whose outermost loop is i or
j, C scaled in the outer loop in every program, and among them a
triangular one and one whose B is A (syrk's shape).  With --family chain,
two or three matmul nests in every program (three in some), a nest
reading an earlier one's product and an initialized C in some, nothing
triangular, and the orders ijk and jik (k innermost, as 2mm and 3mm).
With --family matvec, two or three matrix-vector nests in every program
and each of their kinds somewhere (A x, A^T x in row and in column order,
bicg, gesummv, the outer-product update of A).  With --family sweep, 2-4
stencil nests updating 2-3 fields in every program, inside a time loop in
some and as nests of their own in others, ranks 1 to 3, and somewhere four
nests, a boundary row copy, a star, an in-place update, a third field read
and shuffled loops.  With --family doitgen, one doitgen nest in every
program, with an init and a copy-back loop wherever its sum row is shared,
and somewhere a shared row, a 3-d sum and C4 read transposed.
Exit status 0 when nothing failed and the coverage is complete.
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

# The @kernel helpers of the benchmark kernels' checker, shared.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                os.pardir, "bench"))
from check_kernels import kernel_line, kernel_remarks  # noqa: E402

# Seeds whose programs expose a known Pearl bug: seed -> the symptom.  A
# failure of their checks is reported as XFAIL (counted as passed); they may
# also pass, since some bugs show in one build only.  None at present: the
# wrong outputs of unrolled loops once seen on 23 seeds in the sanitizer
# build came from a build with an unroll path that was never committed
# (MLIR's separateFullTiles on isl's shifted point loops); all sixty pass in
# both builds.
EXPECTED_FAILURE = {}

REMARK = "loop nest left unchanged"
KINDS = ["elementwise", "stencil", "reduction", "contraction"]
TYPES = ["f32", "f64", "i32"]
# Features that must occur at least once among the generated programs.
REQUIRED_FEATURES = ["multi-nest", "chain", "triangular", "imperfect",
                     "time-loop", "in-place"]


def run(cmd, timeout=600, env=None):
    return subprocess.run(cmd, capture_output=True, text=True,
                          timeout=timeout, env=env)


def parse_summary(line):
    """'gen-7: nests=2 depth=3 kinds=a,b ...' -> dict of the fields."""
    fields = {}
    for item in line.split()[1:]:
        key, _, val = item.partition("=")
        fields[key] = val
    return fields


def generate(seed, args, work):
    path = os.path.join(work, "gen-%d.mlir.in" % seed)
    proc = run([args.pearl_gen, "--seed", str(seed), "--size-scale",
                args.scale, "--family", args.family, "-o", path])
    if proc.returncode != 0:
        return None, None, "pearl-gen exit %d: %s" % (
            proc.returncode, proc.stderr.strip()[-300:])
    return path, proc.stdout.strip(), None


def check(seed, path, args, work):
    """(status, why) for the generated program at path."""
    with open(path) as f:
        text = f.read()
    first = kernel_line(text)
    if first is None:
        return "FAIL", "no func.func @kernel"
    proc = run([args.pearl_opt, path, "--mlir-disable-threading",
                "--pearl-schedule=print-model agent=none", "-o", os.devnull])
    if proc.returncode != 0:
        return "FAIL", "pearl-opt print-model exit %d: %s" % (
            proc.returncode, proc.stderr.strip()[-300:])
    remarks = kernel_remarks(proc.stderr, first)
    if remarks:
        return "FAIL", "not modeled: %s" % "; ".join(remarks)
    m = re.search(r"^model @kernel\n(.*?)(?=^model @|\Z)", proc.stdout,
                  re.M | re.S)
    if not m or not re.search(r"^    S\d+ ", m.group(1), re.M):
        return "FAIL", "no model with statements printed for @kernel"

    sched = os.path.join(work, "gen-%d.sched.mlir" % seed)
    proc = run([args.pearl_opt, path, "--mlir-disable-threading",
                "--pearl-schedule", "-o", sched])
    if proc.returncode != 0:
        return "FAIL", "pearl-opt --pearl-schedule exit %d: %s" % (
            proc.returncode, proc.stderr.strip()[-300:])
    remarks = kernel_remarks(proc.stderr, first)
    if remarks:
        return "FAIL", "not scheduled: %s" % "; ".join(remarks)
    chosen = []
    for m in re.finditer(r"^[^\n:]*:(\d+):\d+: remark: pearl-schedule: "
                         r"agent \(\w+\) chose \"([^\"]*)\"", proc.stderr, re.M):
        if int(m.group(1)) >= first:
            chosen.append(m.group(2))

    for f in (path, sched):
        low = run([args.mlir_opt, f, "--lower-affine", "-o", os.devnull])
        if low.returncode != 0:
            return "FAIL", "mlir-opt --lower-affine %s: %s" % (
                os.path.basename(f), low.stderr.strip()[-300:])

    env = dict(os.environ, OMP_NUM_THREADS="2")
    ex = run([args.pearl_exec, "--entry=kernel", path, sched], env=env)
    last = ex.stdout.strip().splitlines()[-1:] or [""]
    if ex.returncode != 0 or last[0] != "pearl-exec: outputs identical":
        return "FAIL", "pearl-exec exit %d: %s" % (
            ex.returncode, (ex.stdout + ex.stderr).strip()[-300:])
    return "PASS", "schedule \"%s\" runs bit-identical" % "; ".join(chosen)


def one(seed, args, work):
    try:
        path, summary, why = generate(seed, args, work)
        if path is None:
            return seed, None, "FAIL", why
        if args.quick and (seed - args.seed) % 4 != 0:
            return seed, summary, "SKIP", None
        status, why = check(seed, path, args, work)
    except subprocess.TimeoutExpired as e:
        return seed, None, "FAIL", "timeout: %s" % " ".join(e.cmd[:2])
    except OSError as e:
        return seed, None, "FAIL", "cannot run: %s" % e
    expected = EXPECTED_FAILURE.get(seed) if args.family == "any" else None
    if expected is not None:
        if status == "FAIL":
            return seed, summary, "XFAIL", "%s (expected: %s)" % (why, expected)
        return seed, summary, status, "%s (known bug not shown: %s)" % (
            why, expected)
    return seed, summary, status, why


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pearl-gen", required=True)
    ap.add_argument("--pearl-opt", required=True)
    ap.add_argument("--pearl-exec", required=True)
    ap.add_argument("--mlir-opt", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=60)
    ap.add_argument("--scale", default="small", choices=["small", "train"])
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--family", default="any",
                    choices=["any", "matmul", "gemm", "chain", "matvec",
                             "sweep", "doitgen"])
    ap.add_argument("--quick", action="store_true",
                    help="run the checks on every fourth program only")
    args = ap.parse_args()

    seeds = list(range(args.seed, args.seed + args.count))
    with tempfile.TemporaryDirectory(prefix="pearl-gen-") as work:
        with concurrent.futures.ThreadPoolExecutor(max(args.jobs, 1)) as pool:
            results = list(pool.map(lambda s: one(s, args, work), seeds))
        matmuls = {}  # seed -> [(order, rest of the line)] of every nest
        matvecs = {}  # seed -> [what] of every nest ("// nest N: matvec: ")
        sweeps = {}  # seed -> [what] of every "// nest N: sweep: " line
        doitgens = {}  # seed -> [what] of every "contraction: doitgen" line
        for seed in seeds:
            try:
                with open(os.path.join(work, "gen-%d.mlir.in" % seed)) as f:
                    text = f.read()
            except OSError:
                continue
            matmuls[seed] = re.findall(
                r"^// nest \d+: contraction: matmul (\w+)(.*)$", text, re.M)
            matvecs[seed] = re.findall(r"^// nest \d+: matvec: (.*)$", text,
                                       re.M)
            sweeps[seed] = re.findall(r"^// nest \d+: sweep: (.*)$", text,
                                      re.M)
            doitgens[seed] = re.findall(
                r"^// nest \d+: contraction: doitgen(.*)$", text, re.M)

    checked = sum(1 for r in results if r[2] != "SKIP")
    print("programs: %d generated, %d checked" % (len(results), checked))
    passed = failed = 0
    dist = {}
    for seed, summary, status, why in results:
        fields = parse_summary(summary) if summary else {}
        for key in ("kinds", "types", "features"):
            for name in fields.get(key, "").split(","):
                if name and name != "none":
                    dist[(key, name)] = dist.get((key, name), 0) + 1
        if status == "SKIP":
            continue
        short = " ".join(summary.split()[1:6]) if summary else ""
        print("%s %s-%d: %s%s" % (status,
                                   {"matmul": "mm", "gemm": "gemm",
                                    "chain": "chain", "matvec": "mv",
                                    "sweep": "sw", "doitgen": "dg"}.get(
                                       args.family, "gen"),
                                   seed, short,
                                   ": " + why if why else ""))
        if status == "FAIL":
            failed += 1
        else:
            passed += 1

    missing = []
    required = (("kinds", KINDS), ("types", TYPES),
                ("features", REQUIRED_FEATURES))
    if args.family in ("matmul", "gemm"):
        # one nest per program: its order and the rest of its line
        orders = set(v[0][0] for v in matmuls.values() if v)
        nest_lines = [v[0][1] for v in matmuls.values() if v]
        required = (("kinds", ["contraction"]), ("types", TYPES))
        missing += ["kind " + n for (k, n) in dist
                    if k == "kinds" and n != "contraction"]
        want = ("ijk", "ikj", "jik", "jki", "kij", "kji")
        if args.family == "gemm":
            want = ("ijk", "ikj", "jik", "jki")
            missing += ["order " + o for o in orders if o not in want]
            if len(nest_lines) != len(seeds) or not all(
                    "C scaled in the outer loop" in n for n in nest_lines):
                missing.append("C scaled in every program")
            for shape in ("triangular", "B = A^T"):
                if not any(shape in n for n in nest_lines):
                    missing.append(shape)
        missing += ["order " + o for o in want if o not in orders]
        print("loop orders: %s" % " ".join(sorted(orders)))
    if args.family == "chain":
        required = (("kinds", ["contraction"]), ("types", TYPES),
                    ("features", ["multi-nest", "chain", "imperfect"]))
        missing += ["kind " + n for (k, n) in dist
                    if k == "kinds" and n != "contraction"]
        counts = [len(v) for v in matmuls.values()]
        if len(counts) != len(seeds) or not all(c in (2, 3)
                                                for c in counts):
            missing.append("two or three matmuls in every program")
        if 3 not in counts:
            missing.append("three matmuls")
        lines = [rest for v in matmuls.values() for _, rest in v]
        if not any(", init" in rest for rest in lines):
            missing.append("init")
        if any("triangular" in rest for rest in lines):
            missing.append("rectangular only")
        all_orders = set(o for v in matmuls.values() for o, _ in v)
        missing += ["order " + o for o in ("ijk", "jik")
                    if o not in all_orders]
        print("matmuls per program: %s" % " ".join(
            "%d:%d" % (c, counts.count(c)) for c in sorted(set(counts))))
    if args.family == "matvec":
        required = (("kinds", ["reduction"]), ("types", TYPES),
                    ("features", ["multi-nest", "chain", "imperfect",
                                  "transpose", "broadcast"]))
        counts = [len(v) for v in matvecs.values()]
        if len(counts) != len(seeds) or not all(c in (2, 3)
                                                for c in counts):
            missing.append("two or three matrix-vector nests everywhere")
        lines = [w for v in matvecs.values() for w in v]
        for what in ("A x", "A^T x, row order", "A^T x, column order",
                     "bicg", "gesummv", "A +="):
            if not any(w.startswith(what) for w in lines):
                missing.append(what)
        print("nests per program: %s" % " ".join(
            "%d:%d" % (c, counts.count(c)) for c in sorted(set(counts))))
    if args.family == "sweep":
        required = (("kinds", ["stencil"]), ("types", TYPES),
                    ("features", ["multi-nest", "time-loop", "in-place"]))
        # "rank R, time loop: U; U; ..." or one "rank R: U" line per nest
        updates, ranks, timed = {}, set(), set()
        for seed, lines in sweeps.items():
            updates[seed] = []
            for line in lines:
                m = re.match(r"rank (\d)(, time loop)?: (.*)$", line)
                if not m:
                    missing.append("sweep line %r" % line)
                    continue
                ranks.add(int(m.group(1)))
                timed.add(bool(m.group(2)))
                updates[seed] += m.group(3).split("; ")
        counts = [len(v) for v in updates.values()]
        if len(counts) != len(seeds) or not all(2 <= c <= 4
                                                for c in counts):
            missing.append("two to four sweep nests everywhere")
        if 4 not in counts:
            missing.append("four sweep nests")
        missing += ["rank %d" % r for r in (1, 2, 3) if r not in ranks]
        missing += [w for t, w in ((True, "time loop"),
                                   (False, "nests of their own"))
                    if t not in timed]
        every = [u for v in updates.values() for u in v]
        for what, pattern in (("row copy", r"^f\d row 0"),
                              ("star", r"\*"),
                              ("in place", r"^f(\d) <- f\1,"),
                              ("third field", r"<- (f\d\*?,){2}f\d"),
                              ("shuffled loops", r"\(permuted\)$")):
            if not any(re.search(pattern, u) for u in every):
                missing.append(what)
        print("sweep nests per program: %s" % " ".join(
            "%d:%d" % (c, counts.count(c)) for c in sorted(set(counts))))
    if args.family == "doitgen":
        required = (("kinds", ["contraction"]), ("types", TYPES),
                    ("features", ["batched", "imperfect"]))
        missing += ["kind " + n for (k, n) in dist
                    if k == "kinds" and n != "contraction"]
        counts = [len(v) for v in doitgens.values()]
        if len(counts) != len(seeds) or not all(c == 1 for c in counts):
            missing.append("one doitgen nest in every program")
        lines = [w for v in doitgens.values() for w in v]
        if any("shared sum row" in w and not
               (", init" in w and ", copy-back loop" in w) for w in lines):
            missing.append("init and copy-back with every shared row")
        for what, has in (("shared sum row", lambda w: "shared sum row" in w),
                          ("3-d sum", lambda w: "shared sum row" not in w),
                          ("C4 transposed", lambda w: "C4 transposed" in w)):
            if not any(has(w) for w in lines):
                missing.append(what)
        print("doitgens with a shared sum row: %d of %d" % (
            sum("shared sum row" in w for w in lines), len(lines)))
    for key, names in required:
        for name in names:
            if not dist.get((key, name)):
                missing.append(name)
    for key in ("kinds", "types", "features"):
        items = sorted(((n, c) for (k, n), c in dist.items() if k == key),
                       key=lambda x: (-x[1], x[0]))
        print("distribution of %s: %s" % (
            key, ", ".join("%s %d" % item for item in items)))
    if missing:
        print("coverage: MISSING %s" % ", ".join(missing))
    else:
        print("coverage: every kind, type and required feature occurs")
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed or missing else 0


if __name__ == "__main__":
    sys.exit(main())
