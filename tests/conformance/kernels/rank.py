"""Tiles of rank 5, 8 and 9 (Triton 3.6 sets no rank limit on tiles; tensor
descriptors go up to rank 5): reshape, permute, reductions over an inner
axis (also keep_dims without an axis), a scan, join and split, broadcasting
of size-1 dims, sort and topk of the last dim, and loads and stores through a rank-5 tensor
descriptor whose shape is smaller than its block. References: make_refs.py
rank() with numpy."""
import triton
import triton.language as tl


@triton.jit
def offsets5(A: tl.constexpr, B: tl.constexpr, C: tl.constexpr, D: tl.constexpr, E: tl.constexpr):
    # row-major offsets of an [A, B, C, D, E] tile, built from five aranges
    i0 = tl.arange(0, A)[:, None, None, None, None]
    i1 = tl.arange(0, B)[None, :, None, None, None]
    i2 = tl.arange(0, C)[None, None, :, None, None]
    i3 = tl.arange(0, D)[None, None, None, :, None]
    i4 = tl.arange(0, E)[None, None, None, None, :]
    return (((i0 * B + i1) * C + i2) * D + i3) * E + i4


@triton.jit
def rank5(X, Bias, P, S, M, K, T, Q, C5,
          A: tl.constexpr, B: tl.constexpr, C: tl.constexpr, D: tl.constexpr, E: tl.constexpr):
    x = tl.load(X + offsets5(A, B, C, D, E))                            # [A, B, C, D, E] int32
    # permute (4, 2, 0, 3, 1): P is [E, C, A, D, B]
    tl.store(P + offsets5(E, C, A, D, B), tl.permute(x, (4, 2, 0, 3, 1)))
    # sum over the inner axis 2: S is [A, B, D, E]
    s = tl.sum(x, axis=2)
    tl.store(S + tl.reshape(offsets5(A, B, 1, D, E), (A, B, D, E)), s)
    # max with keep_dims over axis 3: M is [A, B, C, 1, E]
    tl.store(M + offsets5(A, B, C, 1, E), tl.max(x, axis=3, keep_dims=True))
    # sum of everything with keep_dims and no axis: K is [1, 1, 1, 1, 1]
    tl.store(K + offsets5(1, 1, 1, 1, 1), tl.sum(x, keep_dims=True))
    # broadcast of a [1, B, 1, D, 1] bias against x, times a scalar
    b = tl.load(Bias + offsets5(1, B, 1, D, 1))
    tl.store(T + offsets5(A, B, C, D, E), x * 3 + b)
    # a rank-5 sort (descending) of the last dim minus the smaller of its top 2
    q = tl.sort(x, descending=True)
    tl.store(Q + offsets5(A, B, C, D, E), q - tl.topk(x, 2).min(axis=4, keep_dims=True))
    # an inclusive scan along axis 1, and join / split of the last dim
    lo, hi = tl.split(tl.join(tl.cumsum(x, axis=1), x))
    tl.store(C5 + offsets5(A, B, C, D, E), lo * 2 - hi)


@triton.jit
def rank8(X, R, S, T):
    # a 256-element vector viewed as [2] * 8, reversed axes, summed over
    # axis 5, broadcast against a [2, 1, 2, 1, 2, 1, 2, 1] view of its first
    # 16 elements, and reshaped to rank 9 ([2] * 7 + [1, 2]) for the store
    x = tl.reshape(tl.load(X + tl.arange(0, 256)), (2, 2, 2, 2, 2, 2, 2, 2))
    r = tl.permute(x, (7, 6, 5, 4, 3, 2, 1, 0))
    tl.store(R + tl.arange(0, 256), tl.reshape(r, (256, )))
    s = tl.sum(x, axis=5)                                                 # [2] * 7
    tl.store(S + tl.arange(0, 128), tl.reshape(s, (128, )))
    h = tl.reshape(tl.load(X + tl.arange(0, 16)), (2, 1, 2, 1, 2, 1, 2, 1))
    t = tl.reshape(x - h, (2, 2, 2, 2, 2, 2, 2, 1, 2))
    i = tl.arange(0, 256)
    tl.store(T + tl.reshape(i, (2, 2, 2, 2, 2, 2, 2, 1, 2)), t)


@triton.jit
def desc5(X, Y, Z, S0, S1, S2, S3, S4, st0, st1, st2, st3, o2, o3,
          B0: tl.constexpr, B1: tl.constexpr, B2: tl.constexpr, B3: tl.constexpr, B4: tl.constexpr):
    # X and Y are storage of which the descriptors see [S0, S1, S2, S3, S4]
    # (strides st0..st3, 1); the block at offsets (0, 0, o2, o3, 0) reaches
    # past the shape: loads read 0 there (Z gets the block) and the store of
    # block + 1 into Y leaves the elements outside the shape alone
    dx = tl.make_tensor_descriptor(X, shape=[S0, S1, S2, S3, S4], strides=[st0, st1, st2, st3, 1],
                                   block_shape=[B0, B1, B2, B3, B4])
    dy = tl.make_tensor_descriptor(Y, shape=[S0, S1, S2, S3, S4], strides=[st0, st1, st2, st3, 1],
                                   block_shape=[B0, B1, B2, B3, B4])
    v = dx.load([0, 0, o2, o3, 0])
    tl.store(Z + offsets5(B0, B1, B2, B3, B4), v)
    dy.store([0, 0, o2, o3, 0], v + 1)
