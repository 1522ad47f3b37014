"""Debugger test kernel: helpers inlined twice, a nested call, a loop."""
# tritium: --kernel helpers_kernel --grid 4 --arg x_ptr=arange:f32[64] --arg out_ptr=zeros:f32[64] --const BLOCK=16
import triton
import triton.language as tl


@triton.jit
def square(v):
    t = v * v
    return t + 1.0


@triton.jit
def twice(v):
    a = square(v)
    b = a * 2.0
    return b


@triton.jit
def helpers_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = twice(x)
    z = square(y)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for i in range(3):
        acc += z
    tl.store(out_ptr + offs,
             acc)
