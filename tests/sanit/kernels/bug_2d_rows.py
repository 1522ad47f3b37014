"""Planted bug: a 2-D tile whose mask checks the columns but not the rows, so
the last row block of programs reads past the end of the matrix."""
# tritium: --kernel copy_kernel --grid 'cdiv(M, BLOCK_M), cdiv(N, BLOCK_N)'
# tritium: --arg src=randn:f32[100,70] --arg dst=empty:f32[100,70]
# tritium: --arg M='src.shape[0]' --arg N='src.shape[1]' --arg stride='src.stride(0)'
# tritium: --const BLOCK_M=16 --const BLOCK_N=32
import triton
import triton.language as tl


@triton.jit
def copy_kernel(src, dst, M, N, stride, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    offs = rows[:, None] * stride + cols[None, :]
    ok_cols = cols[None, :] < N
    tile = tl.load(src + offs, mask=ok_cols)  # BUG: rows unchecked
    tl.store(dst + offs, tile, mask=(rows[:, None] < M) & ok_cols)
