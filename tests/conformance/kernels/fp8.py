"""fp8 conversions, rounding modes and fp8 tl.dot (tests/conformance/meson.build,
refs from make_refs.py with ml_dtypes)."""
import triton
import triton.language as tl


@triton.jit
def copy(X, Y, N, BLOCK: tl.constexpr):
    # the store converts to Y's element type (semantic.py store -> cast)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < N
    tl.store(Y + offs, tl.load(X + offs, mask=m), mask=m)


@triton.jit
def via(X, Y, N, MID: tl.constexpr, BLOCK: tl.constexpr):
    # X -> MID explicitly, then the store converts to Y's type
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < N
    tl.store(Y + offs, tl.load(X + offs, mask=m).to(MID), mask=m)


@triton.jit
def round_to(X, Y, N, DT: tl.constexpr, ROUND: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < N
    x = tl.load(X + offs, mask=m)
    tl.store(Y + offs, tl.cast(x, DT, fp_downcast_rounding=ROUND), mask=m)


@triton.jit
def dot8(A, B, C, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(A + rm[:, None] * K + rk[None, :])
    b = tl.load(B + rk[:, None] * N + rn[None, :])
    tl.store(C + rm[:, None] * N + rn[None, :], tl.dot(a, b))


@triton.jit
def abs8(X, Y, N: tl.constexpr):
    # tl.abs on fp8 (math.py abs): the sign bit cleared
    offs = tl.arange(0, N)
    tl.store(Y + offs, tl.abs(tl.load(X + offs)))


@triton.jit
def reduce8(X, MX, MN, S, M: tl.constexpr, N: tl.constexpr):
    # tl.max/tl.min upcast fp8 to fp32 (standard.py); tl.sum needs dtype=
    x = tl.load(X + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :])
    tl.store(MX + tl.arange(0, M), tl.max(x, axis=1))
    tl.store(MN + tl.arange(0, M), x.min(axis=1))
    tl.store(S + tl.arange(0, M), tl.sum(x, axis=1, dtype=tl.float32))
