"""Pattern 3 (as in xformers): a libdevice function found by a call at
import time."""
import importlib

import torch
import triton
import triton.language as tl


def libdevice_find(name):
    for mod in ("triton.language.extra.libdevice", "triton.language.extra.cuda.libdevice", "triton.language.math"):
        try:
            return getattr(importlib.import_module(mod), name)
        except (ImportError, AttributeError):
            continue
    raise ImportError(name)


rsqrt = libdevice_find("rsqrt")
my_exp = libdevice_find("exp")


@triton.jit
def kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + o, mask=o < n, other=1.0)
    tl.store(y_ptr + o, rsqrt(x) + my_exp(x), mask=o < n)


def main():
    x = torch.rand(100) + 0.5
    y = torch.empty(100)
    kernel[(4,)](x, y, 100, BLOCK=32)
    return y, torch.rsqrt(x) + torch.exp(x)
