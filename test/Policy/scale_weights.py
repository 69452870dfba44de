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
import struct
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference import fnv1a64  # noqa: E402


def main():
    src, dst, factor = sys.argv[1], sys.argv[2], float(sys.argv[3])
    data = bytearray(open(src, "rb").read())
    w = array.array("f")
    w.frombytes(bytes(data[40:]))
    if sys.byteorder != "little":
        w.byteswap()
    w = array.array("f", (x * factor for x in w))
    if not all(math.isfinite(x) for x in w):
        print("scale_weights.py: a scaled weight is not finite", file=sys.stderr)
        return 1
    if sys.byteorder != "little":
        w.byteswap()
    payload = w.tobytes()
    data[40:] = payload
    struct.pack_into("<Q", data, 32, fnv1a64(payload))
    with open(dst, "wb") as f:
        f.write(bytes(data))
    return 0


if __name__ == "__main__":
    sys.exit(main())
