"""Fused row-wise softmax of a 2-D fp32 matrix.

Each program walks the rows pid, pid + num_programs, pid + 2 * num_programs,
... (a runtime-strided loop), so the grid may be smaller than the number of
rows. A whole row fits in one block: BLOCK_SIZE is the next power of two
>= n_cols, and the padding lanes load -inf so that they neither win the max
nor add to the sum (exp(-inf) == 0).

Row strides are parameters, so the input may be a view with padded rows.

    tritium run examples/softmax.py
    python3 examples/softmax.py          # Triton, GPU or TRITON_INTERPRET=1
"""
# tritium: --kernel softmax_kernel --grid 128
# tritium: --arg output_ptr=empty:f32[1823,781] --arg input_ptr=randn:f32[1823,781]
# tritium: --arg input_row_stride='input_ptr.stride(0)' --arg output_row_stride='output_ptr.stride(0)'
# tritium: --arg n_rows='input_ptr.shape[0]' --arg n_cols='input_ptr.shape[1]'
# tritium: --const BLOCK_SIZE=1024

import os

import triton
import triton.language as tl


@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride,
                   n_rows, n_cols, BLOCK_SIZE: tl.constexpr):
    first_row = tl.program_id(0)
    row_step = tl.num_programs(0)
    cols = tl.arange(0, BLOCK_SIZE)
    col_ok = cols < n_cols
    for row in tl.range(first_row, n_rows, row_step):
        x = tl.load(input_ptr + row * input_row_stride + cols, mask=col_ok,
                    other=-float('inf'))
        # Subtract the row maximum first: exp() of the shifted values cannot
        # overflow and the largest term is exactly 1.
        shifted = x - tl.max(x, axis=0)
        e = tl.exp(shifted)
        total = tl.sum(e, axis=0)
        tl.store(output_ptr + row * output_row_stride + cols, e / total, mask=col_ok)


def softmax(x, num_programs=None):
    """Host wrapper: softmax over the last dimension of a 2-D tensor."""
    import torch
    n_rows, n_cols = x.shape
    y = torch.empty((n_rows, n_cols), device=x.device, dtype=x.dtype)
    if num_programs is None:
        num_programs = n_rows
    grid = (max(1, min(n_rows, num_programs)),)
    softmax_kernel[grid](y, x, x.stride(0), y.stride(0), n_rows, n_cols,
                         BLOCK_SIZE=triton.next_power_of_2(n_cols))
    return y


def _device():
    return "cpu" if os.environ.get("TRITON_INTERPRET") == "1" else "cuda"


if __name__ == "__main__":
    import torch
    torch.manual_seed(0)
    for (rows, cols, progs) in ((1, 1, 1), (7, 33, 3), (1823, 781, 128)):
        x = torch.randn(rows, cols, device=_device(), dtype=torch.float32)
        y = softmax(x, progs)
        ref = torch.softmax(x, dim=1)
        assert torch.allclose(y, ref, rtol=1e-5, atol=1e-6), f"softmax mismatch {rows}x{cols}"
    # A padded view: rows 800 floats apart, 781 of them used.
    base = torch.randn(64, 800, device=_device(), dtype=torch.float32)
    view = base[:, :781]
    assert torch.allclose(softmax(view, 16), torch.softmax(view, dim=1), rtol=1e-5, atol=1e-6)
    print("softmax: ok")
