"""Reads past a view: each program sums one row of a 2-D view of a wider
matrix (x = storage[:, :8]); given the storage's row length as n_cols, the
mask lets columns 8..15 through: inside the allocation, outside the view."""
import triton
import triton.language as tl


@triton.jit
def row_sum(x, out, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    v = tl.load(x + row * stride + cols, mask=cols < n_cols, other=0.0)
    tl.store(out + row, tl.sum(v, axis=0))
