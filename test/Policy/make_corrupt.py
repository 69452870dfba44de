#!/usr/bin/env python3
"""Writes malformed variants of a valid weight blob into a directory:

    make_corrupt.py GOOD.bin OUTDIR

empty, header-only (20 bytes), truncated (1000 bytes), short-by-one,
trailing byte, bad magic, version 3, version 1 (whose readout has no
focus loops, so the payload is too long for it), hidden = 64, heads = 0, n_floats - 1,
a flipped payload byte (checksum), and a NaN weight with a correct checksum.
The header layout is the one documented in lib/Policy/blob.h.
"""
import os
import struct
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference import fnv1a64  # noqa: E402


def main():
    good, out = sys.argv[1], sys.argv[2]
    data = open(good, "rb").read()
    os.makedirs(out, exist_ok=True)

    def put(name, b):
        with open(os.path.join(out, name), "wb") as f:
            f.write(b)

    def patch(offset, fmt, value):
        b = bytearray(data)
        struct.pack_into(fmt, b, offset, value)
        return bytes(b)

    put("empty.bin", b"")
    put("header-only.bin", data[:20])
    put("truncated.bin", data[:1000])
    put("short-by-one.bin", data[:-1])
    put("trailing.bin", data + b"\0")
    put("bad-magic.bin", b"GGUF" + data[4:])
    put("version3.bin", patch(4, "<I", 3))
    put("version1.bin", patch(4, "<I", 1))
    put("hidden64.bin", patch(12, "<i", 64))
    put("heads0.bin", patch(16, "<i", 0))
    put("nfloats.bin", patch(28, "<I", struct.unpack_from("<I", data, 28)[0] - 1))
    flipped = bytearray(data)
    flipped[40 + 123457] ^= 0x10
    put("flipped.bin", bytes(flipped))
    # Float 5 of the payload (gat0.w_src[5]) becomes a NaN; the checksum is
    # recomputed so only the finiteness check can catch it.
    nan = bytearray(data)
    struct.pack_into("<I", nan, 40 + 4 * 5, 0x7FC00000)
    struct.pack_into("<Q", nan, 32, fnv1a64(bytes(nan[40:])))
    put("nan.bin", bytes(nan))
    return 0


if __name__ == "__main__":
    sys.exit(main())
