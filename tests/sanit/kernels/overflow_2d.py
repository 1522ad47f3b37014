"""Planted bug: a 2-D offset in int32. `row * stride` wraps once it reaches
2^31 (here stride is 2^30 elements, a large row stride of a big tensor, and
rows 2 and 3 wrap); the wrapped offset addresses another buffer or nothing.
The fix is `row.to(tl.int64) * stride` (unsloth's LONG_INDEXING)."""
# tritium: --kernel row_copy --grid 4
# tritium: --arg src=randn:f32[64] --arg dst=zeros:f32[4,16]
# tritium: --arg stride=1073741824 --arg n_cols=16 --const BLOCK=16
import triton
import triton.language as tl


@triton.jit
def row_copy(src, dst, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    off = row * stride + cols
    x = tl.load(src + off, mask=cols < n_cols)
    tl.store(dst + row * n_cols + cols, x, mask=cols < n_cols)


@triton.jit
def hash_kernel(out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    h = offs * 1000003 + 12345  # wraps for offs >= 2147, not an address
    tl.store(out + offs, h, mask=offs < n)
