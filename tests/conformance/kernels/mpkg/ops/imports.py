# Imports of jit helpers, constexpr globals and tl/libdevice aliases across
# files: relative and absolute, module-level try/except ImportError, a
# package re-export, a --path directory, aliases of tl functions, the
# functional form of triton.jit / triton.heuristics.
# tritium: --grid 1 --path ../../extlib
import triton
import triton.language as tl
from triton.language.extra import libdevice as ld

from .. import utils
from ..utils import silu, SCALE
from mpkg.utils import scaled as scaled_abs
from . import twice
import mpkg.utils as U
from extmath import add_offset

try:
    from not_a_module_anywhere import exp  # noqa: F401
except ImportError:
    from triton.language.extra.libdevice import exp

triton_cast = tl.cast
my_exp = tl.exp


@triton.jit
def imports_kernel(X, Y, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    a = silu(x)                       # from ..utils import silu
    b = utils.silu(x) * SCALE         # from .. import utils; SCALE constexpr
    c = scaled_abs(x)                 # x * 3 * rsqrt(4) = 1.5 x
    d = twice(x) + U.SCALE            # package re-export; import mpkg.utils as U
    e = add_offset(x)                 # --path
    f = exp(x * 0.0) + ld.sqrt(x * 0.0 + 4.0) + my_exp(x * 0.0)   # 1 + 2 + 1
    g = triton_cast(x * 2.0, tl.float16).to(tl.float32)
    tl.store(Y + offs, a + b + c + d + e + f + g)


def body(X, Y, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(Y + offs, tl.load(X + offs) * 2.0 + BLOCK)


functional_kernel = triton.jit(body)
heuristic_kernel = triton.heuristics({"BLOCK": lambda args: 16})(triton.jit(body))
