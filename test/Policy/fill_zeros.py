#!/usr/bin/env python3
"""Writes a copy of a weight blob with every zero weight replaced:

    fill_zeros.py IN.bin OUT.bin SEED

A fresh blob (pearl-model init) has zero biases and zero rows of mlp.w1
for the focus loops (lib/Policy/init.c): a forward pass through it says
nothing about those weights. The copy gives each zero a value drawn
uniformly from [-0.1, 0.1) (Python's random, seeded), so the reference
comparison exercises every path. The checksum is recomputed; the header
layout is the one documented in lib/Policy/blob.h.
"""
import os
import random
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference import read_weights, write_weights  # noqa: E402


def main():
    src, dst, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
    rng = random.Random(seed)
    data, w = read_weights(src)
    write_weights(data, (x if x != 0.0 else rng.uniform(-0.1, 0.1)
                         for x in w), dst)
    return 0


if __name__ == "__main__":
    sys.exit(main())
