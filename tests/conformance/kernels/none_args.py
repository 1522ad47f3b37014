# Runtime parameters passed None specialize as the constexpr None (Triton's
# specialize_impl), so `if W is not None:` folds; `B=None` as a default too.
import triton
import triton.language as tl


@triton.jit
def scale_bias(X, W, Y, N, B=None, BLOCK: tl.constexpr = 16):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < N
    x = tl.load(X + offs, mask=m)
    if W is not None:
        x = x * tl.load(W + offs, mask=m)
    if B is None:
        x = x + 1.0
    else:
        x = x + tl.load(B + offs, mask=m)
    tl.store(Y + offs, x, mask=m)


@triton.jit
def stride_one(X, Y, stride, N, BLOCK: tl.constexpr):
    # stride == 1 specializes as the constexpr 1: the static branch is taken
    offs = tl.arange(0, BLOCK)
    if stride == 1:
        v = tl.load(X + offs, mask=offs < N)
    else:
        v = tl.load(X + offs * stride, mask=offs < N) * 0.0
    tl.store(Y + offs, v, mask=offs < N)
