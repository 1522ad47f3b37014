"""Named tuples and jit functions as values (Triton 3.6: core.py tuple_type
fields, code_generator.py call_Function / visit_Call with *args): built and
read in kernels, helpers returning them, a named tuple carried by a runtime
loop, jit functions given as launch values (`jit:NAME`) and kept in tuples.
References: make_refs.py tuples()."""
import collections
from typing import NamedTuple

import triton
import triton.language as tl


class Affine(NamedTuple):
    scale: tl.tensor
    shift: tl.tensor = 0.0


Stats = collections.namedtuple("Stats", "total count")


@triton.jit
def axpb(x, a, b):
    return x * a + b


@triton.jit
def axmb(x, a, b):
    return x * a - b


@triton.jit
def make_affine(s, t):
    return Affine(shift=t, scale=s)


@triton.jit
def apply(X, Y, F: tl.constexpr, G, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs)
    t = make_affine(2.0, 1.0)
    u = Affine(-0.5)
    # F(x, 2, 1) + G(x, 1, 2) + (-0.5) * x + 0.0; functions in a tuple are
    # used in place (assigning one is an error in Triton 3.6)
    y = (F, G)[0](x, *(t.scale, t.shift)) + (F, G)[1](x, *t[::-1]) + u.scale * x + u[1:][0]
    tl.store(Y + offs, y)


@triton.jit
def running(X, Y, n, N: tl.constexpr):
    offs = tl.arange(0, N)
    s = Stats(tl.zeros((N,), tl.float32), tl.zeros((N,), tl.float32))
    for i in range(n):
        s = Stats(s.total + tl.load(X + i * N + offs), s.count + 1.0)
    total, count = s
    tl.store(Y + offs, total / count)
