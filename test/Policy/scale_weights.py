#!/usr/bin/env python3
"""Writes a copy of a weight blob with every weight multiplied by a factor:

    scale_weights.py IN.bin OUT.bin FACTOR

The weights stay finite (the blob is valid and loads), but with a large
factor the network's sums overflow and its outputs are not finite. The
checksum is recomputed; the header layout is the one documented in
lib/Policy/blob.h (40 bytes, checksum at 32, float32 payload after).
"""
import array
import math
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference import read_weights, write_weights  # noqa: E402


def main():
    src, dst, factor = sys.argv[1], sys.argv[2], float(sys.argv[3])
    data, w = read_weights(src)
    w = array.array("f", (x * factor for x in w))
    if not all(math.isfinite(x) for x in w):
        print("scale_weights.py: a scaled weight is not finite", file=sys.stderr)
        return 1
    write_weights(data, w, dst)
    return 0


if __name__ == "__main__":
    sys.exit(main())
