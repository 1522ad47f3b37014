"""Pattern 1 (as in Liger-Kernel): a global whose value IS a tl.constexpr,
with an annotation; Triton checks the value (code_generator.py,
_is_constexpr_global), so kernels may read it."""
import torch
import triton
import triton.language as tl

_MODE_SCALE: tl.constexpr = tl.constexpr(0)
_MODE_SHIFT: tl.constexpr = tl.constexpr(1)


@triton.jit
def kernel(x_ptr, y_ptr, n, MODE: tl.constexpr, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + o, mask=o < n)
    if MODE == _MODE_SCALE:
        y = x * 3.0
    else:
        y = x + 3.0
    tl.store(y_ptr + o, y, mask=o < n)


def main():
    x = torch.randn(100)
    y = torch.empty(100)
    kernel[(4,)](x, y, 100, MODE=_MODE_SHIFT, BLOCK=32)
    return y, x + 3.0
