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
