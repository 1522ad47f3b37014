# Helpers imported by mpkg/ops/imports.py (module resolution tests).
import math

import torch  # host-only import: never resolved, since kernels do not use it
import triton
import triton.language as tl

try:
    from triton.language.extra.libdevice import rsqrt as fast_rsqrt
except ImportError:
    from triton.language.math import rsqrt as fast_rsqrt

SCALE = tl.constexpr(3)          # `SCALE: tl.constexpr = 3` is refused, as by Triton 3.6
HOST_ONLY = math.pi


def host_helper(x):
    return x * 2


@triton.jit
def silu(x):
    return x * tl.sigmoid(x)


@triton.jit
def scaled(x):
    # names resolve in this module: SCALE and fast_rsqrt are utils' globals
    return x * SCALE * fast_rsqrt(x * 0.0 + 4.0)
