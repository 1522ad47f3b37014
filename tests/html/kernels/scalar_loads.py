"""The worst case for the interpreter's tracing hook (docs/html.md, "What it
costs when off"): many memory ops on one element each, so the per-op check of
interp_eval_mem is the largest share of a launch's time. Each program sums
N scalars with N loads and stores the sum."""
# tritium: --kernel scalar_sum_kernel --grid 256
# tritium: --arg x_ptr=randn:f32[4096] --arg out_ptr=zeros:f32[256] --const N=512

import triton
import triton.language as tl


@triton.jit
def scalar_sum_kernel(x_ptr, out_ptr, N: tl.constexpr):
    pid = tl.program_id(axis=0)
    acc = 0.0
    for i in range(N):
        acc += tl.load(x_ptr + (pid * 16 + i) % 4096)
    tl.store(out_ptr + pid, acc)
