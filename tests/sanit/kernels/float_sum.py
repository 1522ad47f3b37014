"""Nondeterminism: a float reduction with atomic_add. Every program adds its
block's sum into one fp32 total; fp32 addition is not associative, so the
total's last bits depend on the order of the atomics."""
# tritium: --kernel sum_kernel --grid 'cdiv(n, BLOCK)'
# tritium: --arg x=randn:f32[65536] --arg total=zeros:f32[1] --arg n='numel(x)' --const BLOCK=256
import triton
import triton.language as tl


@triton.jit
def sum_kernel(x, total, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + offs, mask=offs < n, other=0.0)
    tl.atomic_add(total, tl.sum(v, axis=0))
