# Planted bug: every program writes the same 16 elements.
import triton
import triton.language as tl

# tritium: --grid 4 --arg out=zeros:i32[16] --const BLOCK=16


@triton.jit
def race_kernel(out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out + offs, offs + tl.program_id(0))
