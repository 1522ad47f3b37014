# x[i] = x[i] * 2 + 1 in place: a second launch would change the result (--bench).
import triton
import triton.language as tl

# tritium: --grid 'cdiv(n, BLOCK)' --arg x=arange:f32[1000] --arg n='numel(x)' --const BLOCK=256


@triton.jit
def inplace_kernel(x, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(x + offs, tl.load(x + offs, mask=mask) * 2 + 1, mask=mask)
