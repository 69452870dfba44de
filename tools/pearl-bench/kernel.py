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

and one more for parameters that follow from others (a convolution's input
extent from its output's), which a scaled size computes instead of scaling;
the relation must hold at every dataset size:

    // derived: H=OH+2 W=2*OW+1

A placeholder is a parameter, or a parameter and an integer literal joined
by one of + - * / (integer division, rounding down), in either order:
`${N}`, `${N-1}`, `${N*2}`, `${2*N}`.

    kernel.py TEMPLATE SIZE [-o OUT]

writes the expanded MLIR; SIZE is one of MINI SMALL MEDIUM LARGE EXTRALARGE,
a scaled one, `MEDIUMx0.6` (every parameter of MEDIUM times 0.6, rounded to
the nearest integer and at least 2, a parameter 1 staying 1, the derived ones
computed: the benchmark's kernels at sizes that are not the acceptance's, for
a validation set), or `custom:N=64,M=32` (every parameter of the kernel
given, no others).
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
_SCALED_RE = re.compile(r"^(?P<size>[A-Za-z]+)[xX](?P<factor>[0-9]*\.?[0-9]+)$")
_DERIVED_RE = re.compile(r"^//\s*derived:\s*(?P<body>.*?)\s*$")
_RELATION_RE = re.compile(
    r"^(?P<param>[A-Za-z_][A-Za-z0-9_]*)=(?:(?P<factor>[0-9]+)\*)?"
    r"(?P<base>[A-Za-z_][A-Za-z0-9_]*)(?:(?P<sign>[-+])(?P<offset>[0-9]+))?$")
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
    kernel = sizes = outputs = blas = derived = None
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
            continue
        m = _DERIVED_RE.match(line)
        if m and derived is None:
            derived = m.group("body")
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
    relations = _parse_derived(derived or "", table, path)
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
            "outputs": outs, "blas": blas, "derived": relations}


def _parse_derived(body, table, path):
    """'H=OH+2 W=2*OW+1' -> [(param, factor, base, offset)], in order; each
    base a parameter that is not derived, each relation true at every
    dataset size of `table`."""
    relations = []
    for item in body.split():
        m = _RELATION_RE.match(item)
        if not m:
            raise KernelError("%s: malformed derived parameter '%s' (expected "
                              "P=Q, P=Q+INT, P=Q-INT or P=INT*Q+INT)" % (path, item))
        param, base = m.group("param"), m.group("base")
        factor = int(m.group("factor") or 1)
        offset = int(m.group("offset") or 0) * (-1 if m.group("sign") == "-" else 1)
        for name in (param, base):
            if name not in table[SIZES[0]]:
                raise KernelError("%s: derived parameter '%s' names %s, which is "
                                  "not a parameter" % (path, item, name))
        relations.append((param, factor, base, offset))
    derived = set(r[0] for r in relations)
    for param, factor, base, offset in relations:
        if base in derived:
            raise KernelError("%s: derived parameter %s follows from %s, which "
                              "is derived too" % (path, param, base))
        if len([r for r in relations if r[0] == param]) > 1:
            raise KernelError("%s: parameter %s derived twice" % (path, param))
        for size in SIZES:
            values = table[size]
            if values[param] != factor * values[base] + offset:
                raise KernelError("%s: size %s has %s=%d, not %d*%s+%d = %d"
                                  % (path, size, param, values[param], factor,
                                     base, offset, factor * values[base] + offset))
    return relations


def parse_header(path):
    """The header of a template: dict(name, suite, description,
    sizes={SIZE: {param: int}}, outputs=[int], blas, derived=[(param,
    factor, base, offset)])."""
    return _parse_header_text(_read(path), path)


def scaled_size(size):
    """(dataset name, factor) of a scaled size 'MEDIUMx0.6', or None if
    `size` is not one; raises KernelError for a scaled size of an unknown
    dataset or a factor that is not positive."""
    m = _SCALED_RE.match(size)
    if not m:
        return None
    name, factor = m.group("size").upper(), float(m.group("factor"))
    if name not in SIZES:
        raise KernelError("unknown size '%s' in the scaled size '%s' (expected "
                          "one of %s)" % (m.group("size"), size, " ".join(SIZES)))
    if factor <= 0:
        raise KernelError("scaled size '%s': the factor must be positive" % size)
    return name, factor


def normalize_size(size):
    """The canonical spelling of a size: dataset names upper case, a scaled
    size as 'MEDIUMx0.6' (the factor as written, without trailing zeros);
    custom sizes as given."""
    if size.startswith("custom:"):
        return size
    scaled = scaled_size(size)
    if scaled is None:
        return size.upper()
    return "%sx%s" % (scaled[0], ("%.6f" % scaled[1]).rstrip("0").rstrip("."))


def resolve_size(header, size, path="<template>"):
    """The parameter values of `size` (a dataset name, a scaled one
    'MEDIUMx0.6' or 'custom:N=..')."""
    if size in header["sizes"]:
        return dict(header["sizes"][size])
    scaled = scaled_size(size)
    if scaled is not None:
        name, factor = scaled
        params = {k: v if v == 1 else max(2, int(round(v * factor)))
                  for k, v in header["sizes"][name].items()}
        for param, times, base, offset in header.get("derived", []):
            params[param] = times * params[base] + offset
        return params
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
    raise KernelError("unknown size '%s' (expected one of %s, a scaled one "
                      "such as MEDIUMx0.6, or custom:N=64,...)"
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
    """The MLIR of template `path` at `size` (a dataset name, a scaled one
    'MEDIUMx0.6' or 'custom:N=64,M=32')."""
    text = _read(path)
    header = _parse_header_text(text, path)
    return expand_text(text, resolve_size(header, size, path), path)


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Expands a pearl-bench kernel template at a dataset size.")
    ap.add_argument("template")
    ap.add_argument("size", help="MINI SMALL MEDIUM LARGE EXTRALARGE, a scaled "
                    "one (MEDIUMx0.6) or custom:N=64,M=32")
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
