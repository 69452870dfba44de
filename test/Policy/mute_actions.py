#!/usr/bin/env python3
"""Writes a copy of a weight blob whose actions FIRST.. are muted:

    mute_actions.py IN.bin OUT.bin FIRST

Their columns of pi.w3 become 0 and their pi.b3 entries the bias an older
blob's missing actions load with (PEARL_NEW_ACTION_BIAS): the copy ranks
them as a policy that never learned them does (the compiled-in policy
before the nineteenth session had learned the first 56). Tests use it
where they need such a policy, now that the compiled-in one has learned
every action. The checksum is recomputed.
"""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference import (NEW_ACTION_BIAS, read_blob, read_weights,  # noqa: E402
                       write_weights)


def main():
    src, dst, first = sys.argv[1], sys.argv[2], int(sys.argv[3])
    dims, _, _, tensors = read_blob(src)
    data, w = read_weights(src)
    n = dims["n_actions"]
    off = 0
    for name, rows, cols, _ in tensors:
        if name == "pi.w3":
            for r in range(rows):
                for a in range(first, n):
                    w[off + r * cols + a] = 0.0
        elif name == "pi.b3":
            for a in range(first, n):
                w[off + a] = NEW_ACTION_BIAS
        off += rows * cols
    write_weights(data, w, dst)
    return 0


if __name__ == "__main__":
    sys.exit(main())
