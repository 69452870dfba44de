#!/usr/bin/env python3
"""An independent NumPy reference of Pearl's policy network.

It reads a weight blob with its own parser (from the format documented in
lib/Policy/blob.h), reads graphs in pearl_graph_print's text format,
computes the network in float64 and compares the result with
`pearl-model eval`:

    reference.py --tool PEARL_MODEL --blob BLOB [--tool-blob BLOB|--builtin]
                 [--random N] [--seed S] --work DIR [GRAPH.txt ...]

Every graph gets a line "PASS <name> nodes=<n> max_err=<e>" or
"FAIL <name> ..." and the last line is "reference: <k> of <n> graphs
match" ; the exit status is 1 if any graph differs by more than 1e-5
absolute + 1e-5 relative in any logit or the value.

    reference.py --check-init SEED --blob BLOB

recomputes the random initialization (splitmix64, Xavier-uniform) for SEED
and checks that the blob's payload is bit-for-bit the same.

    reference.py --write-random-graph N SEED OUT

writes one random tree graph of N nodes (how the committed inputs were made).
"""
import argparse
import array
import os
import struct
import subprocess
import sys

import numpy as np

HEADER = struct.Struct("<4sIiiiiiIQ")  # 40 bytes
SELU_LAMBDA = 1.0507009873554805
SELU_ALPHA = 1.6732632423543772
N_FEATURES = 537
# PEARL_GRAPH_N_FEATURES_V1 (pearl/graph.h): blobs of these first features
# load with zero weights for the others
N_FEATURES_V1 = 531
ATOL = RTOL = 1e-5
# Feature offsets (pearl/graph.h) and the focus loops of the readout
# (pearl/policy.h): blob version 2 reads the states of the loops at depths
# 0..FOCUS_LEVELS-1 on the focus branch; version 1 has none.
F_KIND_LOOP, F_LEVEL, N_LEVELS, F_FOCUS = 1, 8, 8, 16
FOCUS_LEVELS = 5


def fnv1a64(data):
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def read_weights(path):
    """The blob at path as (bytearray of it, array of its float32 weights)."""
    data = bytearray(open(path, "rb").read())
    w = array.array("f")
    w.frombytes(bytes(data[HEADER.size:]))
    if sys.byteorder != "little":
        w.byteswap()
    return data, w


def write_weights(data, w, path):
    """Writes blob `data` with its payload replaced by the weights w (as many
    as it had) and the checksum recomputed."""
    w = array.array("f", w)
    if sys.byteorder != "little":
        w.byteswap()
    payload = w.tobytes()
    data = bytearray(data)
    data[HEADER.size:] = payload
    struct.pack_into("<Q", data, 32, fnv1a64(payload))
    with open(path, "wb") as f:
        f.write(bytes(data))


# PEARL_NEW_ACTION_BIAS (pearl/policy.h)
NEW_ACTION_BIAS = -30.0


def layout(n_features, hidden, heads, n_layers, n_actions, focus_levels):
    """(name, rows, cols, is_matrix) in blob order; vectors have rows=1."""
    d, D = hidden, heads * hidden
    t = []
    for l in range(n_layers):
        d_in = n_features if l == 0 else d
        t += [(f"gat{l}.w_src", d_in, D, True), (f"gat{l}.b_src", 1, D, False),
              (f"gat{l}.w_dst", d_in, D, True), (f"gat{l}.b_dst", 1, D, False),
              (f"gat{l}.att", heads, d, True), (f"gat{l}.bias", 1, D, False),
              (f"gat{l}.w_lin", D, d, True), (f"gat{l}.b_lin", 1, d, False)]
    t += [("mlp.w1", (2 + focus_levels) * d * n_layers, d, True),
          ("mlp.b1", 1, d, False),
          ("mlp.w2", d, d, True), ("mlp.b2", 1, d, False)]
    for head, n_out in (("pi", n_actions), ("v", 1)):
        t += [(f"{head}.w1", d, d, True), (f"{head}.b1", 1, d, False),
              (f"{head}.w2", d, d, True), (f"{head}.b2", 1, d, False),
              (f"{head}.w3", d, n_out, True), (f"{head}.b3", 1, n_out, False)]
    return t


def read_blob(path):
    data = open(path, "rb").read()
    if len(data) < HEADER.size:
        raise ValueError("truncated header")
    magic, version, nf, hidden, heads, n_layers, n_actions, n_floats, csum = \
        HEADER.unpack_from(data)
    if magic != b"PRLW" or version not in (1, 2):
        raise ValueError("bad magic or version")
    focus_levels = FOCUS_LEVELS if version == 2 else 0
    dims = dict(n_features=nf, hidden=hidden, heads=heads,
                n_layers=n_layers, n_actions=n_actions,
                focus_levels=focus_levels)
    tensors = layout(nf, hidden, heads, n_layers, n_actions, focus_levels)
    if n_floats != sum(r * c for _, r, c, _ in tensors):
        raise ValueError("n_floats does not match the dimensions")
    payload = data[HEADER.size:]
    if len(payload) != 4 * n_floats:
        raise ValueError("payload size")
    if fnv1a64(payload) != csum:
        raise ValueError("checksum")
    flat = np.frombuffer(payload, dtype="<f4")
    w, off = {}, 0
    for name, r, c, is_matrix in tensors:
        a = flat[off:off + r * c].astype(np.float64)
        w[name] = a.reshape(r, c) if is_matrix else a
        off += r * c
    return dims, w, flat, tensors


def read_graph(path):
    lines = open(path).read().split("\n")
    head = lines[0].split()
    assert head[0] == "graph"
    n, f, e = int(head[1]), int(head[2]), int(head[3])
    x = np.array([[float(v) for v in lines[1 + i].split()] for i in range(n)],
                 dtype=np.float32).reshape(n, f).astype(np.float64)
    edges = [tuple(int(v) for v in lines[1 + n + k].split()) for k in range(e)]
    return x, edges


def selu(v):
    return SELU_LAMBDA * np.where(v > 0, v, SELU_ALPHA * np.expm1(np.minimum(v, 0)))


def neighbourhoods(n, edges):
    """Sources of each target: edges both ways, a self-loop, no duplicates."""
    nb = [{i} for i in range(n)]
    for s, d in edges:
        nb[d].add(s)
        nb[s].add(d)
    return [sorted(s) for s in nb]


def gatv2(x, w, l, heads, hidden, nb):
    n = x.shape[0]
    xl = (x @ w[f"gat{l}.w_src"] + w[f"gat{l}.b_src"]).reshape(n, heads, hidden)
    xr = (x @ w[f"gat{l}.w_dst"] + w[f"gat{l}.b_dst"]).reshape(n, heads, hidden)
    att = w[f"gat{l}.att"]  # [heads, hidden]
    out = np.empty((n, heads * hidden))
    for i in range(n):
        src = nb[i]
        s = xl[src] + xr[i][None]                 # [m, H, d]
        s = np.where(s > 0, s, 0.2 * s)
        e = (s * att[None]).sum(-1)               # [m, H]
        e = np.exp(e - e.max(0, keepdims=True))
        alpha = e / e.sum(0, keepdims=True)
        out[i] = (alpha[:, :, None] * xl[src]).sum(0).reshape(-1)
    return out + w[f"gat{l}.bias"]


def focus_nodes(x, levels):
    """Node of the focus loop at each depth < levels (None if none): the
    first loop node with the focus flag whose largest level entry is that
    depth."""
    nodes = [None] * levels
    for i, row in enumerate(x):
        if row[F_KIND_LOOP] > 0.5 and row[F_FOCUS] > 0.5:
            level = int(np.argmax(row[F_LEVEL:F_LEVEL + N_LEVELS]))
            if level < levels and nodes[level] is None:
                nodes[level] = i
    return nodes


def forward(dims, w, x, edges):
    d, H, L = dims["hidden"], dims["heads"], dims["n_layers"]
    nb = neighbourhoods(x.shape[0], edges)
    focus = focus_nodes(x, dims["focus_levels"])
    pooled, focus_rows = [], []
    h = x
    for l in range(L):
        agg = gatv2(h, w, l, H, d, nb)
        h = selu(agg @ w[f"gat{l}.w_lin"] + w[f"gat{l}.b_lin"])
        pooled += [h.mean(0), h.max(0)]
        focus_rows += [h[i] if i is not None else np.zeros(d) for i in focus]
    g = np.concatenate(pooled + focus_rows)
    g = selu(g @ w["mlp.w1"] + w["mlp.b1"])
    g = selu(g @ w["mlp.w2"] + w["mlp.b2"])
    out = []
    for head in ("pi", "v"):
        t = selu(g @ w[f"{head}.w1"] + w[f"{head}.b1"])
        t = selu(t @ w[f"{head}.w2"] + w[f"{head}.b2"])
        out.append(t @ w[f"{head}.w3"] + w[f"{head}.b3"])
    return out[0], out[1][0]


def check_init(seed, flat, tensors, pooled_rows):
    """Recomputes the blob's payload for `seed`; True if bit-identical."""
    gamma = np.uint64(0x9E3779B97F4A7C15)
    m1, m2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)
    counter = 0
    want = np.zeros(len(flat), dtype=np.float32)
    off = 0
    with np.errstate(over="ignore"):
        for name, r, c, is_matrix in tensors:
            n = size = r * c
            if name == "mlp.w1" and r != pooled_rows:
                # the focus loops' rows are 0 and draw nothing; the pooled
                # rows are drawn as the whole matrix without them
                r, n = pooled_rows, pooled_rows * c
            if is_matrix:
                k = np.arange(counter + 1, counter + n + 1, dtype=np.uint64)
                z = np.uint64(seed) + k * gamma
                z = (z ^ (z >> np.uint64(30))) * m1
                z = (z ^ (z >> np.uint64(27))) * m2
                z = z ^ (z >> np.uint64(31))
                u = (z >> np.uint64(11)).astype(np.float64) * 2.0 ** -53
                a = np.sqrt(6.0 / (r + c))
                want[off:off + n] = ((2.0 * u - 1.0) * a).astype(np.float32)
                counter += n
            off += size
    same = np.array_equal(want.view(np.uint32), flat.astype(np.float32).view(np.uint32))
    return same


def random_graph(rng, n, scale=1.0):
    """A random tree of n nodes with sparse features like Pearl's."""
    x = np.zeros((n, N_FEATURES), dtype=np.float32)
    x[0, 0] = 1
    parents = [None] + [int(rng.integers(0, i)) for i in range(1, n)]
    for i in range(1, n):
        kind = 1 + int(rng.integers(0, 2))
        x[i, kind] = 1
        mask = rng.random(N_FEATURES) < 0.08
        mask[:3] = False
        vals = rng.uniform(-1, 1, N_FEATURES) * scale
        x[i, mask] = vals[mask]
        # Some loops on the focus branch, at depths (one-hot) that repeat
        # or go past the readout's
        if kind == 1 and rng.random() < 0.6:
            x[i, F_LEVEL:F_LEVEL + N_LEVELS] = 0
            x[i, F_LEVEL + int(rng.integers(0, N_LEVELS))] = 1
            x[i, F_FOCUS] = 1
    edges = [(parents[i], i) for i in range(1, n)]
    order = rng.permutation(len(edges))
    return x, [edges[k] for k in order]


def write_graph(path, x, edges):
    with open(path, "w") as f:
        f.write(f"graph {x.shape[0]} {x.shape[1]} {len(edges)}\n")
        for row in x:
            f.write(" ".join("%.9g" % v for v in row) + "\n")
        for s, d in edges:
            f.write(f"{s} {d}\n")


def special_graphs(rng):
    """Shapes the random trees miss."""
    g = {}
    g["single"] = random_graph(rng, 1)
    x, edges = random_graph(rng, 2)
    g["pair"] = (x, edges)
    x, _ = random_graph(rng, 6)
    g["chain"] = (x, [(i, i + 1) for i in range(5)])
    x, _ = random_graph(rng, 9)
    g["star"] = (x, [(0, i) for i in range(1, 9)])
    # Duplicate edges, both directions and explicit self-loops count once.
    x, edges = random_graph(rng, 7)
    g["duplicates"] = (x, edges + edges[:3] + [(d, s) for s, d in edges[2:5]]
                       + [(1, 1), (4, 4)])
    x, edges = random_graph(rng, 12, scale=10.0)
    g["large-values"] = (x, edges)
    return g


def run_tool(tool, blob, graph):
    p = subprocess.run([tool, "eval", blob, graph], capture_output=True,
                       text=True)
    if p.returncode != 0:
        raise RuntimeError(f"pearl-model failed ({p.returncode}): {p.stderr}")
    logits, value = [], None
    for line in p.stdout.splitlines():
        f = line.split()
        if f[0] == "logit":
            assert int(f[1]) == len(logits)
            logits.append(float(f[2]))
        elif f[0] == "value":
            value = float(f[1])
    return np.array(logits), value


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool")
    ap.add_argument("--blob")
    ap.add_argument("--tool-blob")
    ap.add_argument("--builtin", action="store_true")
    ap.add_argument("--random", type=int, default=0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--work")
    ap.add_argument("--check-init", type=int)
    ap.add_argument("--write-random-graph", nargs=3)
    ap.add_argument("graphs", nargs="*")
    args = ap.parse_args()

    if args.write_random_graph:
        n, seed, out = args.write_random_graph
        x, edges = random_graph(np.random.default_rng(int(seed)), int(n))
        write_graph(out, x, edges)
        return 0

    dims, w, flat, tensors = read_blob(args.blob)
    if args.check_init is not None:
        ok = check_init(args.check_init, flat, tensors,
                        2 * dims["hidden"] * dims["n_layers"])
        print("init seed %d: %s" % (args.check_init,
                                    "identical" if ok else "DIFFERENT"))
        return 0 if ok else 1
    if dims["n_features"] == N_FEATURES_V1:
        # widened as on loading: zero rows for the new features
        for name in ("gat0.w_src", "gat0.w_dst"):
            a = w[name]
            w[name] = np.vstack([a, np.zeros((N_FEATURES - a.shape[0],
                                              a.shape[1]))])

    tool_blob = "--builtin" if args.builtin else (args.tool_blob or args.blob)
    os.makedirs(args.work, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    graphs = [(os.path.basename(p), p) for p in args.graphs]
    made = special_graphs(rng)
    for i in range(args.random):
        made["random%d" % i] = random_graph(rng, int(rng.integers(1, 41)))
    for name, (x, edges) in made.items():
        path = os.path.join(args.work, name + ".txt")
        write_graph(path, x, edges)
        graphs.append((name, path))

    n_ok = 0
    for name, path in graphs:
        x, edges = read_graph(path)
        want_logits, want_value = forward(dims, w, x, edges)
        got_logits, got_value = run_tool(args.tool, tool_blob, path)
        want = np.append(want_logits, want_value)
        # A blob of the first 56 actions loads widened: the new actions'
        # logits are the fixed bias (pearl/policy.h), the others as stored.
        extra = got_logits[len(want_logits):]
        if len(got_logits) > len(want_logits) and np.all(extra == NEW_ACTION_BIAS):
            got_logits = got_logits[:len(want_logits)]
        got = np.append(got_logits, got_value) if len(got_logits) == len(want_logits) \
            else np.full(len(want), np.nan)
        err = np.abs(got - want)
        ok = bool(np.all(err <= ATOL + RTOL * np.abs(want)))
        n_ok += ok
        print("%s %s nodes=%d max_err=%.3g" % ("PASS" if ok else "FAIL", name,
                                               x.shape[0], np.max(err)))
    print("reference: %d of %d graphs match" % (n_ok, len(graphs)))
    return 0 if n_ok == len(graphs) else 1


if __name__ == "__main__":
    sys.exit(main())
