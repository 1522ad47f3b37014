"""Debugger test kernel: an atomic add from every program, a branch that never runs."""
# tritium: --kernel count_kernel --grid 'cdiv(n, BLOCK)' --arg x_ptr=arange:f32[100]
# tritium: --arg total_ptr=zeros:f32[1] --arg out_ptr=zeros:f32[100] --arg n=100 --const BLOCK=32
import triton
import triton.language as tl


@triton.jit
def count_kernel(x_ptr, total_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.atomic_add(total_ptr, tl.sum(x, axis=0))
    if pid < 0:
        tl.store(out_ptr + offs, x, mask=mask)
    tl.store(out_ptr + offs, x * 2.0, mask=mask)
