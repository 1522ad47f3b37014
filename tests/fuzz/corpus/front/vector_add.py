"""Element-wise addition of two vectors: out[i] = x[i] + y[i].

The smallest useful Triton kernel. Each program instance handles one block of
BLOCK_SIZE consecutive elements; the last block is partial when n_elements is
not a multiple of BLOCK_SIZE, so every load and store is masked.

Run it with tritium (no flags needed, the launch below is the default):
    tritium run examples/vector_add.py
or with Triton on a GPU (or on the CPU with TRITON_INTERPRET=1):
    python3 examples/vector_add.py
"""
# tritium: --kernel add_kernel --grid 'cdiv(n_elements, BLOCK_SIZE)'
# tritium: --arg x_ptr=randn:f32[98432] --arg y_ptr=randn:f32[98432]
# tritium: --arg output_ptr=empty:f32[98432] --arg n_elements='numel(x_ptr)'
# tritium: --const BLOCK_SIZE=1024

import os

import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    # Program p owns elements [p * BLOCK_SIZE, (p + 1) * BLOCK_SIZE).
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    in_bounds = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=in_bounds)
    y = tl.load(y_ptr + offsets, mask=in_bounds)
    tl.store(output_ptr + offsets, x + y, mask=in_bounds)


def add(x, y, out=None, block_size=1024):
    """Host wrapper: launches one program per block of `block_size` elements."""
    import torch
    if out is None:
        out = torch.empty_like(x)
    n = out.numel()
    grid = (triton.cdiv(n, block_size),)
    add_kernel[grid](x, y, out, n, BLOCK_SIZE=block_size)
    return out


def _device():
    return "cpu" if os.environ.get("TRITON_INTERPRET") == "1" else "cuda"


if __name__ == "__main__":
    import torch
    torch.manual_seed(0)
    for n in (1, 1000, 4097, 98432):
        x = torch.randn(n, device=_device(), dtype=torch.float32)
        y = torch.randn(n, device=_device(), dtype=torch.float32)
        out = add(x, y)
        assert torch.equal(out, x + y), f"vector_add mismatch for n={n}"
    print("vector_add: ok")
