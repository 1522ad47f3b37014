# Compile error: an undefined name in the kernel.
import triton
import triton.language as tl

# tritium: --grid 1 --arg x=zeros:f32[16]


@triton.jit
def bad_kernel(x):
    offs = tl.arange(0, 16)
    tl.store(x + offs, undefined_thing)
