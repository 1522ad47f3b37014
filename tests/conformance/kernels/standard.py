# Functions of triton.language that Triton 3.6 writes in Triton
# (language/standard.py) and tritium compiles from its prelude.
import triton
import triton.language as tl


@triton.jit
def swizzle(I, J, SIZE_I, BLOCK_I: tl.constexpr, SIZE_J: tl.constexpr, SIZE_G: tl.constexpr):
    i = tl.arange(0, BLOCK_I)[:, None]
    j = tl.arange(0, SIZE_J)[None, :]
    ni, nj = tl.swizzle2d(i, j, SIZE_I, SIZE_J, SIZE_G)
    offs = i * SIZE_J + j
    tl.store(I + offs, ni)
    tl.store(J + offs, nj)


@triton.jit
def reduce_or(X, Y, Z, M: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(X + offs)
    tl.store(Y + tl.arange(0, M), tl.reduce_or(x, 1))
    z = x.reduce_or(0, keep_dims=True)   # the method form
    tl.store(Z + tl.arange(0, N)[None, :], z)


@triton.jit
def softmax(X, Y, Z, M: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(X + offs)
    tl.store(Y + offs, tl.softmax(x, 1, keep_dims=True))
    tl.store(Z + offs, x.softmax())   # the method form, dim 0
