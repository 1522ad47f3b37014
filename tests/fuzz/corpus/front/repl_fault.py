# Planted bug: no mask, so the last program reads and writes past the end
# (100 elements, blocks of 64).
import triton
import triton.language as tl

# tritium: --grid 2 --arg x=randn:f32[100] --arg y=zeros:f32[100] --const BLOCK=64


@triton.jit
def unmasked_kernel(x, y, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y + offs, tl.load(x + offs))
