"""Helpers of the debugger's Python tests (test_slicing.py, test_rank.py):
commands of one `tritium debug -batch` run told apart by `echo @@N` markers,
and a printed value read back as a numpy array."""
import re

import numpy as np


def with_markers(cmds):
    """-ex arguments: each command preceded by `echo @@N`, then `echo @@end`."""
    args = []
    for i, c in enumerate(cmds):
        args += ["-ex", "echo @@%d\\n" % i, "-ex", c]
    return args + ["-ex", "echo @@end\\n"]


def split_markers(out, n):
    """The output of each of the n commands of with_markers, in order."""
    parts = []
    for i in range(n):
        a = out.index("@@%d\n" % i) + len("@@%d\n" % i)
        b = out.index("@@%d\n" % (i + 1)) if i + 1 < n else out.index("@@end\n")
        parts.append(out[a:b])
    return parts


def parse_value(text):
    """'$1 = i32[2, 3]\\n[[..]]' or '$1 = 37' -> numpy array."""
    m = re.match(r"\$\d+ = (?:(\w+)\[([\d, ]*)\])?\s*(.*)", text, re.S)
    assert m, text
    if m.group(1) is None:
        return np.array(int(m.group(3).strip()))
    shape = tuple(int(s) for s in m.group(2).split(",") if s.strip())
    nums = [int(v) for v in re.findall(r"-?\d+", m.group(3))]
    return np.array(nums, dtype=np.int64).reshape(shape)
