"""Pattern 6 (every torch.compile kernel that uses libdevice): libdevice and
helpers re-exported by another package."""
import torch
import triton
import triton.language as tl
from torch._inductor.runtime import triton_helpers
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math


@triton.jit
def kernel(in_ptr0, out_ptr0, xnumel, XBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    tmp0 = tl.load(in_ptr0 + (xindex), xmask)
    tmp1 = libdevice.rsqrt(tl_math.abs(tmp0) + 1.0)
    tmp2 = triton_helpers.maximum(tmp1, tmp0)
    tl.store(out_ptr0 + (xindex), tmp2, xmask)


def main():
    x = torch.randn(100)
    y = torch.empty(100)
    kernel[(4,)](x, y, 100, XBLOCK=32)
    return y, torch.maximum(torch.rsqrt(x.abs() + 1.0), x)
