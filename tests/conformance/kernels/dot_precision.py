# tl.dot on f32: input_precision "tf32" (the default) rounds the operands as
# the tensor cores read them, "tf32x3" is F32DotTC's three-pass split, "ieee"
# is exact (references: make_refs.py emulates the operand rounding).
import triton
import triton.language as tl


@triton.jit
def dot_f32(A, B, C, PREC: tl.constexpr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rm = tl.arange(0, M)[:, None]
    rn = tl.arange(0, N)[None, :]
    rk = tl.arange(0, K)
    a = tl.load(A + rm * K + rk[None, :])
    b = tl.load(B + rk[:, None] * N + rn)
    if PREC == "default":
        c = tl.dot(a, b)
    else:
        c = tl.dot(a, b, input_precision=PREC)
    tl.store(C + rm * N + rn, c)
