"""A gather through loaded indices: no analysis can bound x[idx] without the
index data, so `tritium check` leaves it open and runs the interpreter."""
# tritium: --kernel gather_kernel --grid 'cdiv(n, BLOCK)'
# tritium: --arg x=randn:f32[1000] --arg idx=arange:i32[500] --arg out=empty:f32[500]
# tritium: --arg n='numel(idx)' --const BLOCK=128
import triton
import triton.language as tl


@triton.jit
def gather_kernel(x, idx, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    i = tl.load(idx + offs, mask=m, other=0)
    tl.store(out + offs, tl.load(x + i, mask=m), mask=m)
