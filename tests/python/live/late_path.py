"""Pattern 5 (as in FlagGems' tests): a module found only through the
program's own sys.path change at run time."""
import os
import sys

import torch
import triton
import triton.language as tl

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "late_dir"))
import late_helpers  # noqa: E402


@triton.jit
def kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + o, mask=o < n)
    tl.store(y_ptr + o, late_helpers.scaled(x) + late_helpers.SCALE, mask=o < n)


def main():
    x = torch.randn(100)
    y = torch.empty(100)
    kernel[(4,)](x, y, 100, BLOCK=32)
    return y, x * 2.5 + 2.5
