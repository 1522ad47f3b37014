# out[i] = x[i] * 2 + 1, one block of BLOCK elements per program.
import triton
import triton.language as tl

# tritium: --grid 'cdiv(n, BLOCK)' --arg x=arange:f32[1000] --arg out=empty:f32[1000]
# tritium: --arg n='numel(x)' --const BLOCK=256


@triton.jit
def affine_kernel(x, out, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    v = tl.load(x + offs, mask=mask)
    tl.store(out + offs, v * 2 + 1, mask=mask)
