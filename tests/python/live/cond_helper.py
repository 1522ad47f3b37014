"""Pattern 4 (as in mamba): a jit helper defined under a module-level `if`."""
import torch
import triton
import triton.language as tl

TRITON3 = int(triton.__version__.split(".")[0]) >= 3

if TRITON3:
    @triton.jit
    def softplus(dt):
        return tl.math.log(tl.math.exp(dt) + 1)
else:
    @triton.jit
    def softplus(dt):
        return dt * 1000.0     # never taken: a wrong result would show


@triton.jit
def kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + o, mask=o < n)
    tl.store(y_ptr + o, softplus(x), mask=o < n)


def main():
    x = torch.randn(100)
    y = torch.empty(100)
    kernel[(4,)](x, y, 100, BLOCK=32)
    return y, torch.nn.functional.softplus(x)
