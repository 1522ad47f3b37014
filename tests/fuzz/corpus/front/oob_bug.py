"""A kernel with a planted bug: an out-of-bounds read that a GPU run hides.

scale_kernel computes out[i] = x[i] * factor. The store is masked, but the
load is not: the last program reads a whole block even when fewer than
BLOCK elements are left. With the default launch below (n = 4000,
BLOCK = 1024, grid = cdiv(4000, 1024) = 4), program 3 covers elements
3072..4095, and its load of x_ptr at elements 4000..4095 (96 lanes) is out of
bounds: x_ptr has 4000 elements. The faulting line is the
`x = tl.load(x_ptr + offsets)` marked "BUG" below (line 34 of this file);
the first faulting element is x_ptr[4000]. Programs 0, 1 and 2 are fine.

On a GPU this usually goes unnoticed: the allocation is rounded up, the
stray lanes read garbage that the masked store then throws away, and the
result matches torch. `tritium run examples/oob_bug.py` reports the fault
(program, line, buffer, element index) and exits with status 1.

The fix is `tl.load(x_ptr + offsets, mask=in_bounds)`.
"""
# tritium: --kernel scale_kernel --grid 'cdiv(n_elements, BLOCK)'
# tritium: --arg x_ptr=randn:f32[4000] --arg out_ptr=empty:f32[4000]
# tritium: --arg n_elements='numel(x_ptr)' --arg factor=2.0 --const BLOCK=1024

import os

import triton
import triton.language as tl


@triton.jit
def scale_kernel(x_ptr, out_ptr, n_elements, factor, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    in_bounds = offsets < n_elements
    x = tl.load(x_ptr + offsets)  # BUG: no mask; reads past the end in the last program
    tl.store(out_ptr + offsets, x * factor, mask=in_bounds)


def scale(x, factor, block=1024):
    import torch
    out = torch.empty_like(x)
    n = x.numel()
    scale_kernel[(triton.cdiv(n, block),)](x, out, n, factor, BLOCK=block)
    return out


def _device():
    return "cpu" if os.environ.get("TRITON_INTERPRET") == "1" else "cuda"


if __name__ == "__main__":
    import torch
    torch.manual_seed(0)
    x = torch.randn(4000, device=_device(), dtype=torch.float32)
    out = scale(x, 2.0)
    # Passes: the bug does not change the stored values, it only reads memory
    # the kernel does not own.
    assert torch.equal(out, x * 2.0)
    print("oob_bug: result matches (the out-of-bounds read went unnoticed)")
