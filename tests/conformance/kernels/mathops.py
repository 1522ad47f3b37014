"""tl.div_rn, tl.fdiv, tl.sqrt_rn, propagate_nan=, float atomic_max/min and
the libdevice spellings (module attribute, from-import, alias, int
overload). References: make_libdevice.py mathops() with numpy."""
import triton
import triton.language as tl
from triton.language.extra import libdevice
from triton.language.extra.libdevice import tanh as ld_tanh

try:
    from triton.language.extra.cuda.libdevice import pow as ld_pow
except ImportError:
    from triton.language.math import pow as ld_pow


@triton.jit
def rn_ops(X, Y, Out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    y = tl.load(Y + offs)
    tl.store(Out + 0 * BLOCK + offs, tl.div_rn(x, y))
    tl.store(Out + 1 * BLOCK + offs, tl.math.div_rn(x, 3.0))
    tl.store(Out + 2 * BLOCK + offs, tl.fdiv(x, y))
    tl.store(Out + 3 * BLOCK + offs, tl.math.fdiv(x, y, ieee_rounding=True))
    tl.store(Out + 4 * BLOCK + offs, tl.sqrt_rn(tl.abs(x)))
    tl.store(Out + 5 * BLOCK + offs, tl.abs(y).sqrt_rn())
    tl.store(Out + 6 * BLOCK + offs, ld_tanh(x))
    tl.store(Out + 7 * BLOCK + offs, ld_pow(x, 3))
    tl.store(Out + 8 * BLOCK + offs, tl.extra.cuda.libdevice.erf(y))
    tl.store(Out + 9 * BLOCK + offs, libdevice.fmod(x, 1.5))


@triton.jit
def nan_minmax(X, Y, Out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    y = tl.load(Y + offs)
    tl.store(Out + 0 * BLOCK + offs, tl.minimum(x, y))
    tl.store(Out + 1 * BLOCK + offs, tl.minimum(x, y, propagate_nan=tl.PropagateNan.ALL))
    tl.store(Out + 2 * BLOCK + offs, tl.maximum(x, y, propagate_nan=tl.PropagateNan.NONE))
    tl.store(Out + 3 * BLOCK + offs, tl.maximum(x, y, tl.PropagateNan.ALL))
    tl.store(Out + 4 * BLOCK + offs, tl.clamp(x, -0.5, 0.5))
    tl.store(Out + 5 * BLOCK + offs, tl.clamp(x, y - 1.0, y + 1.0, propagate_nan=tl.PropagateNan.ALL))


@triton.jit
def float_atomics(X, Mx, Mn, Old, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + pid * BLOCK + offs)
    tl.atomic_max(Mx + offs, x)
    old = tl.atomic_min(Mn + offs, x, mask=offs < BLOCK - 2)
    if pid == 0:    # deterministic only with grid 1
        tl.store(Old + offs, tl.where(offs < BLOCK - 2, old, 0.0))
