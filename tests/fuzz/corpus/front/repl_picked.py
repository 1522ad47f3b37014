# Two kernels; the launch comment picks the second one.
import triton
import triton.language as tl

# tritium: --kernel negate_kernel --grid 2 --arg a=arange:i32[64] --arg b=zeros:i32[64] --const BLOCK=32


@triton.jit
def helper_like(a, b, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(b + offs, tl.load(a + offs))


@triton.jit
def negate_kernel(a, b, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(b + offs, -tl.load(a + offs))
