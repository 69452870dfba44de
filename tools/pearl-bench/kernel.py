#!/usr/bin/env python3
"""Expander of pearl-bench kernel templates.

A kernel template (test/bench/kernels/*.mlir.in) is an MLIR module whose
sizes are `${NAME}` placeholders.  It starts with three comment lines:

    // pearl-bench kernel: <name> (<suite>) <short description>
    // sizes: MINI N=30 M=28 | SMALL N=... | MEDIUM ... | LARGE ... | EXTRALARGE ...
    // outputs: <comma-separated 0-based argument indices the kernel writes>

and may have a fourth, for kernels that are one BLAS call (pearl-bench's
openblas configuration):

    // blas: dgemm A=<arg> B=<arg> C=<arg> alpha=<float> beta=<float>

A placeholder is a parameter, or a parameter and an integer literal joined
by one of + - * / (integer division, rounding down), in either order:
`${N}`, `${N-1}`, `${N*2}`, `${2*N}`.

    kernel.py TEMPLATE SIZE [-o OUT]

writes the expanded MLIR; SIZE is one of MINI SMALL MEDIUM LARGE EXTRALARGE,
or `custom:N=64,M=32` (every parameter of the kernel given, no others).
Errors (unknown size, parameter or placeholder, malformed header) exit with
status 2 and a message.

As a module: parse_header(path) -> dict(name, suite, description, sizes,
outputs, blas) and expand(path, size) -> str; both raise KernelError.
"""
import argparse
import re
import sys

SIZES = ("MINI", "SMALL", "MEDIUM", "LARGE", "EXTRALARGE")
SUITES = ("polybench", "pearl", "linalg")

_KERNEL_RE = re.compile(
    r"^//\s*pearl-bench kernel:\s*(?P<name>[A-Za-z0-9_.+-]+)\s*"
    r"\((?P<suite>[A-Za-z0-9_-]+)\)\s*(?P<desc>.*?)\s*$")
_SIZES_RE = re.compile(r"^//\s*sizes:\s*(?P<body>.*?)\s*$")
_OUTPUTS_RE = re.compile(r"^//\s*outputs:\s*(?P<body>.*?)\s*$")
_BLAS_RE = re.compile(r"^//\s*blas:\s*dgemm\s+(?P<body>.*?)\s*$")
_PLACEHOLDER_RE = re.compile(r"\$\{([^}]*)\}")
_PARAM_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_EXPR_RE = re.compile(
    r"^\s*(?:(?P<p1>[A-Za-z_][A-Za-z0-9_]*)\s*(?:(?P<op1>[-+*/])\s*(?P<i1>[0-9]+))?"
    r"|(?P<i2>[0-9]+)\s*(?P<op2>[-+*/])\s*(?P<p2>[A-Za-z_][A-Za-z0-9_]*))\s*$")


class KernelError(Exception):
    """A malformed template, an unknown size or an unknown placeholder."""


def _read(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        raise KernelError("%s: cannot read: %s" % (path, e.strerror))


def _parse_assignments(text, where):
    """'N=30 M=28' or 'N=30,M=28' -> {'N': 30, 'M': 28}."""
    params = {}
    for item in re.split(r"[\s,]+", text.strip()):
        if not item:
            continue
        key, sep, val = item.partition("=")
        if not sep or not _PARAM_RE.match(key) or not re.match(r"^[0-9]+$", val):
            raise KernelError("%s: malformed parameter '%s' (expected NAME=INT)"
                              % (where, item))
        if key in params:
            raise KernelError("%s: parameter %s given twice" % (where, key))
        params[key] = int(val)
    return params


def _parse_blas(body, path):
    """'A=0 B=1 C=2 alpha=1.5 beta=1.2' -> dict(A, B, C, alpha, beta)."""
    spec = dict(w.partition("=")[::2] for w in body.split())
    try:
        return {"A": int(spec["A"]), "B": int(spec["B"]), "C": int(spec["C"]),
                "alpha": float(spec["alpha"]), "beta": float(spec["beta"])}
    except (KeyError, ValueError):
        raise KernelError("%s: bad '// blas:' line (want dgemm A= B= C= "
                          "alpha= beta=)" % path)


def _parse_header_text(text, path):
    lines = text.splitlines()
    head = [l for l in lines[:10] if l.startswith("//")]
    kernel = sizes = outputs = blas = None
    for line in head:
        m = _KERNEL_RE.match(line)
        if m and kernel is None:
            kernel = m
            continue
        m = _SIZES_RE.match(line)
        if m and sizes is None:
            sizes = m.group("body")
            continue
        m = _OUTPUTS_RE.match(line)
        if m and outputs is None:
            outputs = m.group("body")
            continue
        m = _BLAS_RE.match(line)
        if m and blas is None:
            blas = _parse_blas(m.group("body"), path)
    if kernel is None:
        raise KernelError("%s: missing '// pearl-bench kernel: NAME (SUITE) "
                          "DESCRIPTION' header line" % path)
    if sizes is None:
        raise KernelError("%s: missing '// sizes:' header line" % path)
    if outputs is None:
        raise KernelError("%s: missing '// outputs:' header line" % path)
    suite = kernel.group("suite")
    if suite not in SUITES:
        raise KernelError("%s: unknown suite '%s' (expected one of %s)"
                          % (path, suite, ", ".join(SUITES)))
    table = {}
    for part in sizes.split("|"):
        part = part.strip()
        if not part:
            continue
        name, _, rest = part.partition(" ")
        if name not in SIZES:
            raise KernelError("%s: unknown size '%s' in the sizes line "
                              "(expected %s)" % (path, name, " ".join(SIZES)))
        if name in table:
            raise KernelError("%s: size %s given twice" % (path, name))
        table[name] = _parse_assignments(rest, "%s: size %s" % (path, name))
    missing = [s for s in SIZES if s not in table]
    if missing:
        raise KernelError("%s: sizes line lacks %s" % (path, " ".join(missing)))
    keys = set(table[SIZES[0]])
    for s in SIZES:
        if set(table[s]) != keys:
            raise KernelError("%s: size %s has parameters %s, MINI has %s"
                              % (path, s, ",".join(sorted(table[s])),
                                 ",".join(sorted(keys))))
    outs = []
    for item in outputs.split(","):
        item = item.strip()
        if not re.match(r"^[0-9]+$", item):
            raise KernelError("%s: malformed outputs entry '%s'" % (path, item))
        outs.append(int(item))
    if not outs:
        raise KernelError("%s: outputs line is empty" % path)
    return {"name": kernel.group("name"), "suite": suite,
            "description": kernel.group("desc"), "sizes": table,
            "outputs": outs, "blas": blas}


def parse_header(path):
    """The header of a template: dict(name, suite, description,
    sizes={SIZE: {param: int}}, outputs=[int])."""
    return _parse_header_text(_read(path), path)


def resolve_size(header, size, path="<template>"):
    """The parameter values of `size` (a dataset name or 'custom:N=..')."""
    if size in header["sizes"]:
        return dict(header["sizes"][size])
    if size.startswith("custom:"):
        params = _parse_assignments(size[len("custom:"):], "size '%s'" % size)
        known = set(header["sizes"][SIZES[0]])
        unknown = sorted(set(params) - known)
        if unknown:
            raise KernelError("%s: kernel %s has no parameter %s (it has %s)"
                              % (path, header["name"], ",".join(unknown),
                                 ",".join(sorted(known))))
        missing = sorted(known - set(params))
        if missing:
            raise KernelError("%s: size '%s' lacks parameter %s"
                              % (path, size, ",".join(missing)))
        return params
    raise KernelError("unknown size '%s' (expected one of %s, or custom:N=64,...)"
                      % (size, " ".join(SIZES)))


def _evaluate(expr, params, path, lineno):
    m = _EXPR_RE.match(expr)
    if not m:
        raise KernelError("%s:%d: malformed placeholder ${%s} (expected NAME, "
                          "NAME op INT or INT op NAME, op one of + - * /)"
                          % (path, lineno, expr))
    name = m.group("p1") or m.group("p2")
    if name not in params:
        raise KernelError("%s:%d: unknown parameter '%s' in ${%s} (the kernel "
                          "has %s)" % (path, lineno, name, expr,
                                       ",".join(sorted(params)) or "none"))
    v = params[name]
    if m.group("p1"):
        op, lit, left = m.group("op1"), m.group("i1"), True
    else:
        op, lit, left = m.group("op2"), m.group("i2"), False
    if op is None:
        return v
    a, b = (v, int(lit)) if left else (int(lit), v)
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if b == 0:
        raise KernelError("%s:%d: division by zero in ${%s}" % (path, lineno, expr))
    return a // b


def expand_text(text, params, path="<template>"):
    """Replaces every placeholder of `text` with its value."""
    out = []
    for lineno, line in enumerate(text.splitlines(True), 1):
        out.append(_PLACEHOLDER_RE.sub(
            lambda m: str(_evaluate(m.group(1), params, path, lineno)), line))
    res = "".join(out)
    if "${" in res:
        lineno = res[:res.index("${")].count("\n") + 1
        raise KernelError("%s:%d: unterminated placeholder" % (path, lineno))
    return res


def expand(path, size):
    """The MLIR of template `path` at `size` (a dataset name or
    'custom:N=64,M=32')."""
    text = _read(path)
    header = _parse_header_text(text, path)
    return expand_text(text, resolve_size(header, size, path), path)


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Expands a pearl-bench kernel template at a dataset size.")
    ap.add_argument("template")
    ap.add_argument("size", help="MINI SMALL MEDIUM LARGE EXTRALARGE or custom:N=64,M=32")
    ap.add_argument("-o", "--output", help="output file (default: stdout)")
    args = ap.parse_args(argv)
    try:
        text = expand(args.template, args.size)
    except KernelError as e:
        print("kernel.py: error: %s" % e, file=sys.stderr)
        return 2
    if args.output and args.output != "-":
        try:
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            print("kernel.py: error: %s: %s" % (args.output, e.strerror),
                  file=sys.stderr)
            return 2
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
