"""The debugger on tiles of rank 8 and 9: `print` of a tile, of numpy indexing
into it, of `.shape`, of reductions and of `x[:, None]` in the stopped
program of tests/conformance/kernels/rank.py:rank8, each answer compared
with numpy on the same random integers.

usage: python3 test_rank.py TRITIUM   (run from the source root)"""
import os
import subprocess
import sys
import tempfile

import numpy as np

from dbg_batch import parse_value, split_markers, with_markers

TRITIUM = sys.argv[1]
KERNEL = "tests/conformance/kernels/rank.py:rank8"
X = np.random.default_rng(21).integers(-1000, 1000, size=256, dtype=np.int32)
x = X.reshape((2,) * 8)
REV = tuple(range(7, -1, -1))

# (debugger expression, numpy value)
CASES = [
    ("x[1, 0, 1, 0, 1, 0]", x[1, 0, 1, 0, 1, 0]),
    ("x[..., 1]", x[..., 1]),
    ("r[1, 1, 0, 1, 0, 0, 1]", np.transpose(x, REV)[1, 1, 0, 1, 0, 0, 1]),
    ("s[0, 1, 0, 1]", x.sum(axis=5)[0, 1, 0, 1]),
    ("tl.sum(x, 7)[1, 1, 1, 1, 1]", x.sum(axis=7)[1, 1, 1, 1, 1]),
    ("tl.max(x, 0)[0, 1, 0, 1, 0, 1]", x.max(axis=0)[0, 1, 0, 1, 0, 1]),
    ("x[:, None][1, 0, 0, 1, 1, 0, 0]", x[:, None][1, 0, 0, 1, 1, 0, 0]),
]
SHAPES = [("x.shape", "(2, 2, 2, 2, 2, 2, 2, 2)"), ("x[:, None].shape", "(2, 1, 2, 2, 2, 2, 2, 2, 2)")]


def main():
    with tempfile.TemporaryDirectory(prefix="tritium-rank-") as d:
        npy = os.path.join(d, "x.npy")
        np.save(npy, X)
        src = open(KERNEL.split(":")[0]).read().splitlines()
        line = next(i + 1 for i, l in enumerate(src) if "h = tl.reshape(tl.load(X + tl.arange(0, 16))" in l)
        cmds = [c for c, _ in CASES] + [c for c, _ in SHAPES]
        args = [TRITIUM, "debug", "-batch", "-ex", "set print elements unlimited", "-ex", "break %d" % line, "-ex", "run"]
        args += with_markers(["print " + c for c in cmds])
        args += [KERNEL, "--grid", "1", "--arg", "X=@" + npy, "--arg", "R=empty:i32[256]",
                 "--arg", "S=empty:i32[128]", "--arg", "T=empty:i32[256]"]
        out = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300).stdout
    fails = 0
    for i, part in enumerate(split_markers(out, len(cmds))):
        text = part.strip()
        if i < len(CASES):
            want = np.asarray(CASES[i][1])
            got = parse_value(text)
            ok = got.shape == want.shape and np.array_equal(got, want)
        else:
            want = SHAPES[i - len(CASES)][1]
            ok = text.endswith("= " + want)
        if not ok:
            fails += 1
            print("FAIL print %s\n  got:  %s\n  want: %s" % (c, text, want))
    print("%d/%d rank-8 debugger expressions agree with numpy" % (len(cmds) - fails, len(cmds)))
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
