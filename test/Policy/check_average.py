#!/usr/bin/env python3
"""Checks a blob of pearl-model average against the mean it should hold:

    check_average.py OUT.bin W1,W2,... IN1.bin IN2.bin ...

Every weight of OUT must be sum_i w_i/sum(w) * IN_i's weight, summed in
double in the order given and rounded to float32, as the tool does (the
inputs have the current dimensions: no widening). Prints "average:
identical" or the first differing weight.
"""
import array
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference import read_weights  # noqa: E402


def main():
    out, weights, inputs = sys.argv[1], sys.argv[2], sys.argv[3:]
    weights = [float(x) for x in weights.split(",")]
    total = sum(weights)
    weights = [x / total for x in weights]
    members = [read_weights(path)[1] for path in inputs]
    _, got = read_weights(out)
    sums = [0.0] * len(got)
    for weight, member in zip(weights, members):
        if len(member) != len(got):
            print("average: sizes differ")
            return 1
        for i, x in enumerate(member):
            sums[i] += weight * x
    want = array.array("f", sums)
    for i, (a, b) in enumerate(zip(got, want)):
        if a != b:
            print("average: weight %d is %r, expected %r" % (i, a, b))
            return 1
    print("average: identical")
    return 0


if __name__ == "__main__":
    sys.exit(main())
