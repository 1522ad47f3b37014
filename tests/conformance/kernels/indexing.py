"""Indexing and axis builtins as core.py defines them (Triton 3.6): slices
whose bounds are None, expand_dims with negative and multiple axes, permute
with the dims as arguments, trans() of a rank-3 tile (swaps the last two
axes). References: make_refs.py indexing() (numpy transposes)."""
import triton
import triton.language as tl


@triton.jit
def permute3(X, P, T, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    ia = tl.expand_dims(tl.arange(0, A), (-1, -2))           # [A, 1, 1]
    ib = tl.arange(0, B)[None, ::None, None]                 # [1, B, 1]
    ic = tl.arange(0, C).expand_dims((0, 1))                 # [1, 1, C]
    x = tl.load(X + ia * (B * C) + ib * C + ic)
    p = x.permute(2, 0, 1)                                   # [C, A, B]
    pc = tl.arange(0, C)[None:, None, None]
    pa = tl.arange(0, A)[None, :None, None]
    pb = tl.arange(0, B)[None, None, :]
    tl.store(P + pc * (A * B) + pa * B + pb, p)
    t = x.trans()                                            # [A, C, B]
    tl.store(T + ia * (C * B) + tl.expand_dims(tl.arange(0, C), -1)[None] * B + tl.arange(0, B)[None, None, :], t)
