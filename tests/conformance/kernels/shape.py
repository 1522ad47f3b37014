"""Shape and sorting builtins of triton.language (Triton 3.6): sort, topk,
bitonic_merge, flip, join, split, interleave, cat, gather, histogram,
broadcast, map_elementwise, and their method forms. References: make_refs.py
(numpy)."""
import triton
import triton.language as tl


@triton.jit
def sort_rows(X, Y, M: tl.constexpr, N: tl.constexpr, DESC: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(X + offs)
    tl.store(Y + offs, tl.sort(x, descending=DESC))


@triton.jit
def sort_1d(X, Y, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs)
    tl.store(Y + offs, tl.sort(x, dim=0, descending=True))   # x.sort(): tritium only (3.6 does not bind it)


@triton.jit
def topk_rows(X, Y, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    x = tl.load(X + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :])
    tl.store(Y + tl.arange(0, M)[:, None] * K + tl.arange(0, K)[None, :], tl.topk(x, K))


@triton.jit
def bitonic_rows(X, Y, M: tl.constexpr, N: tl.constexpr, DESC: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(X + offs)
    tl.store(Y + offs, tl.bitonic_merge(x, descending=DESC))


@triton.jit
def flip3(X, Y, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr, DIM: tl.constexpr):
    offs = tl.arange(0, A)[:, None, None] * (B * C) + tl.arange(0, B)[None, :, None] * C + tl.arange(0, C)[None, None, :]
    x = tl.load(X + offs)
    tl.store(Y + offs, x.flip(DIM))


@triton.jit
def join_split(A, B, J, S0, S1, I, M: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    a = tl.load(A + offs)
    b = tl.load(B + offs)
    j = tl.join(a, b)                                   # [M, N, 2]
    tl.store(J + offs[:, :, None] * 2 + tl.arange(0, 2)[None, None, :], j)
    lo, hi = j.split()
    tl.store(S0 + offs, hi)                             # swapped on purpose
    tl.store(S1 + offs, lo)
    ioffs = tl.arange(0, M)[:, None] * (2 * N) + tl.arange(0, 2 * N)[None, :]
    tl.store(I + ioffs, tl.interleave(a, b))


@triton.jit
def join_scalars(X, Y, Z):
    j = tl.join(X, Y)                                   # two scalars: a [2] tensor
    tl.static_assert(j.shape == [2] and j.shape != (4,))
    tl.store(Z + tl.arange(0, 2), j)
    p, q = tl.split(j * 10)                             # a [2] tensor: two scalars
    tl.static_assert(p.shape == [] and q.shape == ())
    tl.store(Z + 2, q)
    tl.store(Z + 3, p)


@triton.jit
def cat1(A, B, C, N: tl.constexpr):
    a = tl.load(A + tl.arange(0, N))
    b = tl.load(B + tl.arange(0, N))
    # can_reorder=True is the only form Triton 3.6 has, and it may reorder the
    # elements: the sorted concatenation is what every order agrees on
    tl.store(C + tl.arange(0, 2 * N), tl.sort(tl.cat(a, b, can_reorder=True)))


@triton.jit
def gather2(S, IDX, Y, Y0, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    src = tl.load(S + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :])
    idx = tl.load(IDX + tl.arange(0, M)[:, None] * K + tl.arange(0, K)[None, :])
    tl.store(Y + tl.arange(0, M)[:, None] * K + tl.arange(0, K)[None, :], tl.gather(src, idx, 1))
    rows = (idx % M)                                    # [M, K] row indices, used along axis 0 of src[:, :K]
    sub = tl.reshape(src, (M, N // K, K))
    sub = tl.sum(sub, 1) * 0 + tl.load(S + tl.arange(0, M)[:, None] * N + tl.arange(0, K)[None, :])
    tl.store(Y0 + tl.arange(0, M)[:, None] * K + tl.arange(0, K)[None, :], sub.gather(rows, axis=0))


@triton.jit
def gather_oob(S, Y, N: tl.constexpr):
    src = tl.load(S + tl.arange(0, N))
    tl.store(Y + tl.arange(0, N), tl.gather(src, tl.arange(0, N) + 1, 0))


@triton.jit
def histo(X, H, HM, N: tl.constexpr, BINS: tl.constexpr, LIMIT):
    offs = tl.arange(0, N)
    x = tl.load(X + offs)
    tl.store(H + tl.arange(0, BINS), tl.histogram(x, BINS))
    tl.store(HM + tl.arange(0, BINS), x.histogram(BINS, mask=offs < LIMIT))


@triton.jit
def _affine(x, y, c):
    return x * y + c


@triton.jit
def bcast_map(A, B, Y, Z, M: tl.constexpr, N: tl.constexpr):
    a = tl.load(A + tl.arange(0, M))[:, None]           # [M, 1]
    b = tl.load(B + tl.arange(0, N))[None, :]           # [1, N]
    ab, bb = tl.broadcast(a, b)
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    tl.store(Y + offs, ab - bb)
    tl.store(Z + offs, tl.map_elementwise(_affine, a, b, a * 0 + 0.5))


@triton.jit
def _compare(x, y):
    if x < y:                                           # control flow on one element's value
        return -1
    elif x == y:
        return 0
    else:
        return 1


@triton.jit
def _divmod2(a0, a1, b0, b1):
    return a0 // b0, a1 // b1, a0 % b0, a1 % b1


@triton.jit
def map_branch(X, Y, Z, Q, R, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs)
    y = tl.load(Y + offs)
    tl.store(Z + offs, tl.map_elementwise(_compare, x, y))
    q, r = tl.map_elementwise(_divmod2, x, y, pack=2)
    tl.store(Q + offs, q)
    tl.store(R + offs, r)
