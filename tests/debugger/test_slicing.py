"""Debugger expressions against numpy (issue 12 item 5): numpy indexing of a
tile (`x[0:4]`, `x[2:4, 0:8]`, steps, negative indices, None, ellipsis) and
of a buffer, numpy's IndexError messages, `x.shape` printed as Python prints
tuples, and the flat element the kernel's pointer reaches (`*(A + k)`,
`A.flat[k]`, and `x`/`watch` on `A[k]` of a 2-D buffer).

usage: python3 test_slicing.py TRITIUM   (run from the source root)

The inputs are random integers that numpy writes to an .npy file, so every
expected answer comes from numpy, not from tritium."""
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

from dbg_batch import parse_value, split_markers, with_markers

TRITIUM = sys.argv[1]
KERNEL = "tests/debugger/kernels/tiles2d.py"
rng = np.random.default_rng(12)
A = rng.integers(-1000, 1000, size=(8, 16), dtype=np.int32)

# (expression in the debugger, the same on the numpy array A)
CASES = [
    "[0:4]", "[2:4, 0:8]", "[::2]", "[::-1]", "[-3:]", "[:, -1]", "[-1]", "[3]", "[3, 5]", "[-8, -16]",
    "[1:7:3, ::-5]", "[None, 2:4]", "[2:4, None]", "[..., 3]", "[1, ...]", "[...]", "[5:2]", "[100:]", "[-100:2]",
    "[7:-9:-1, 15:0:-4]", "[:, 3:4]", "[1,]",
]
ERRORS = ["[8]", "[-9]", "[0, 16]", "[1, 2, 3]", "[::0]", "[..., ...]"]


def run(cmds, extra=(), stop=True):
    args = [TRITIUM, "debug", "-batch", "-ex", "set print elements unlimited"]
    if stop:
        args += ["-ex", "break 12", "-ex", "run"]
    args += with_markers(cmds) + [KERNEL, "--arg", "A=@" + NPY] + list(extra)
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
    return p.stdout, split_markers(p.stdout, len(cmds))


def index_error(idx):
    try:
        eval("A" + idx)
    except (IndexError, ValueError, SyntaxError) as e:
        return str(e)
    raise AssertionError("numpy accepts A%s" % idx)


failures = []


def check(ok, what):
    if not ok:
        failures.append(what)


with tempfile.TemporaryDirectory(prefix="dbgx-slicing-") as tmp:
    NPY = os.path.join(tmp, "a.npy")
    np.save(NPY, A)
    for operand in ("x", "A"):          # a tile of the stopped program, and the buffer
        cmds = ["print %s%s" % (operand, c) for c in CASES] + ["print %s%s" % (operand, c) for c in ERRORS]
        out, parts = run(cmds)
        for c, part in zip(CASES, parts):
            want = eval("A" + c)
            try:
                got = parse_value(part.strip())
            except Exception as e:       # noqa: BLE001
                failures.append("%s%s: cannot read %r (%s)" % (operand, c, part, e))
                continue
            check(got.shape == want.shape and np.array_equal(got, want),
                  "%s%s: got %s %s, numpy %s %s" % (operand, c, got.shape, got.tolist(), want.shape, want.tolist()))
        for c, part in zip(ERRORS, parts[len(CASES):]):
            check(index_error(c) in part, "%s%s: want numpy's <%s>, got %r" % (operand, c, index_error(c), part))

    # slices inside larger expressions, shapes, tuples, pointers
    exprs = {
        "x[0:4] * 2 + 1": A[0:4] * 2 + 1,
        "tl.sum(x[2:4, ::2], axis=1)": A[2:4, ::2].sum(axis=1),
        "x[1:3][::-1]": A[1:3][::-1],
        "x[x[0, 0] % 8]": A[A[0, 0] % 8],
        "*(A + 37)": A.flat[37],
        "*(A + 16 * 7 + 15)": A[7, 15],
        "A.flat[37]": A.flat[37],
        "A.flat[100:104]": A.flat[100:104],
        "x.flat[-3:]": A.flatten()[-3:],
        "*(A + cols)": A[0],
    }
    cmds = ["print " + e for e in exprs] + ["print x.shape", "print x[0:2].shape", "print (M, N, 1.5, True)",
                                            "whatis x.shape", "print (M,)", "print *(A + 500)"]
    out, parts = run(cmds)
    for (e, want), part in zip(exprs.items(), parts):
        try:
            got = parse_value(part.strip())
        except Exception as ex:          # noqa: BLE001
            failures.append("%s: cannot read %r (%s)" % (e, part, ex))
            continue
        check(np.array_equal(got, np.asarray(want)), "%s: got %s, numpy %s" % (e, got.tolist(), np.asarray(want).tolist()))
    rest = parts[len(exprs):]
    check(rest[0].strip() == "$%d = %s" % (len(exprs) + 1, str(A.shape)), "x.shape: %r" % rest[0])
    check(rest[1].strip().endswith("(2, 16)"), "x[0:2].shape: %r" % rest[1])
    check(rest[2].strip().endswith(str((8, 16, 1.5, True))), "a tuple: %r" % rest[2])
    check(rest[3].strip() == "type = tuple", "whatis: %r" % rest[3])
    check(rest[4].strip().endswith("(8,)"), "a 1-tuple: %r" % rest[4])
    check("is not in any buffer" in rest[5], "*(A + 500): %r" % rest[5])

    # x and watch on the flat element of a 2-D buffer, as the kernel's pointer sees it
    out, parts = run(["x/4 A[37]", "x A.flat[37]", "x *(A + 37)", "x A[200]", "watch Out[37]", "watch *(Out + 38)",
                      "continue", "continue"])
    vals = [int(v) for v in re.findall(r"\t(-?\d+)", parts[0])]
    check(vals == A.flat[37:41].tolist(), "x/4 A[37]: %r" % parts[0])
    check("<A[2, 5]>:" in parts[0], "x names the element by its 2-D index: %r" % parts[0])
    check("x shows consecutive" in parts[1] or [int(v) for v in re.findall(r"\t(-?\d+)", parts[1])] == [A.flat[37]],
          "x A.flat[37]: %r" % parts[1])
    check("element 200 (A + 200) is out of bounds for A, which has 128 elements" in parts[3], "x A[200]: %r" % parts[3])
    check("Watchpoint 2: Out[37]" in parts[4], "watch Out[37]: %r" % parts[4])
    check("Watchpoint 3: *(Out + 38)" in parts[5], "watch *(Out + 38): %r" % parts[5])
    w = parts[6] + parts[7]
    check("Old value = 0\nNew value = %d" % (2 * A.flat[37]) in w, "watchpoint 2 hit: %r" % w)

    # before the launch runs: the buffers by name
    out, parts = run(["print *(A + 37)", "print *(A + 128)", "watch *(Out + 37)", "run"], stop=False)
    check(parts[0].strip() == "$1 = %d" % A.flat[37], "*(A + 37) before run: %r" % parts[0])
    check("element 128 (A + 128) is out of bounds for A, which has 128 elements" in parts[1], "*(A + 128): %r" % parts[1])
    check("Old value = 0\nNew value = %d" % (2 * A.flat[37]) in parts[3], "watch *(Out + 37): %r" % parts[3])

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("all %d cases agree with numpy" % (2 * (len(CASES) + len(ERRORS)) + len(exprs) + 17))
