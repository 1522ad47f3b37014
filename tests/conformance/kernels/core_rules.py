"""Rules of Triton 3.6's core.py / math.py / random.py / code_generator.py
that kernels lean on (references: make_refs.py core_rules())."""
import triton
import triton.language as tl


@triton.jit
def _add(a, b):
    return a + b


@triton.jit
def shifts(X, Y, Z, N: tl.constexpr):
    # int8 >> uint8: computed in uint8, shifted arithmetically (x is signed)
    offs = tl.arange(0, N)
    tl.store(Z + offs, tl.load(X + offs) >> tl.load(Y + offs))


@triton.jit
def umulhi64(X, Y, Z, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(Z + offs, tl.umulhi(tl.load(X + offs), tl.load(Y + offs)))


@triton.jit
def abs_fp8(X, Z, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(Z + offs, tl.abs(tl.load(X + offs)).to(tl.float32))


@triton.jit
def uniform64(X, Z, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(Z + offs, tl.random.uint_to_uniform_float(tl.load(X + offs)))


@triton.jit
def unsplat(X, Z, N: tl.constexpr):
    # item(), an if on a one-element tensor, a 1-tuple reduce, a ternary of stores
    pid = tl.program_id(0)
    x = tl.load(X + tl.arange(0, N))
    s, = tl.reduce((x, ), 0, _add)
    first = tl.load(X + tl.arange(0, 1))
    v = first.item()
    if first > 0:
        v = v + 100
    tl.store(Z + pid, s * 1000 + v) if pid % 2 == 0 else tl.store(Z + pid, -s)
