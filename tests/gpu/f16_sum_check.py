#!/usr/bin/env python3
"""tl.sum of fp16/bf16 rows: real Triton on the GPU against tritium's
interpreter (python -m tritium's interp mode, in this process) and against
two plain numpy references: the f32 sum rounded once (what the interpreter
now does, interp/eval_reduce.c) and the element-type sum rounded at every
step in index order (what it did before). Prints, per dtype and row length,
the largest difference from the GPU in units of the element type's ulp;
exit 1 when the interpreter is further from the GPU than the per-step sum
anywhere, 77 without CUDA.

    python3 tests/gpu/f16_sum_check.py
"""
import sys

import numpy as np

try:
    import torch
    import triton
    import triton.language as tl
except ImportError:
    sys.exit(77)
if not torch.cuda.is_available():
    sys.exit(77)


@triton.jit
def row_sum(x_ptr, s_ptr, N: tl.constexpr):
    row = tl.program_id(0)
    x = tl.load(x_ptr + row * N + tl.arange(0, N))
    tl.store(s_ptr + row, tl.sum(x))


def ulp(v, dt):
    """The element type's ulp at |v| (numpy float16, or bf16 through f32 bits)."""
    v = np.abs(v.astype(np.float64))
    if dt == torch.float16:
        return np.spacing(v.astype(np.float16)).astype(np.float64)
    e = np.floor(np.log2(np.maximum(v, 2.0**-126)))
    return 2.0 ** (e - 7)


def per_step(x, dt):
    acc = x[:, 0].clone()
    for c in range(1, x.shape[1]):
        acc = (acc.float() + x[:, c].float()).to(dt)
    return acc


def main():
    import tritium
    rows = 256
    worse = False
    for dt in (torch.float16, torch.bfloat16):
        for n in (64, 256, 1024, 4096):
            g = torch.Generator().manual_seed(n)
            x = (torch.rand(rows, n, generator=g) * 0.5).to(dt)     # positive: roundings do not cancel
            gpu = torch.empty(rows, dtype=dt, device="cuda")
            row_sum[(rows,)](x.cuda(), gpu, N=n)
            gpu = gpu.cpu()
            tritium.enable("interp")
            interp = torch.empty(rows, dtype=dt)
            row_sum[(rows,)](x, interp, N=n)
            tritium.disable()
            once = x.float().sum(1).to(dt)
            step = per_step(x, dt)
            u = ulp(gpu.float().numpy(), dt)

            def far(v):
                return float(np.max(np.abs(v.float().numpy() - gpu.float().numpy()) / u))
            print("%-8s N=%-5d ulps from the GPU: interpreter %.1f, f32 rounded once %.1f, per step %.1f" % (
                str(dt).split(".")[-1], n, far(interp), far(once), far(step)))
            worse |= far(interp) > far(step)
    print("f16_sum_check: %s" % ("interpreter further from the GPU than the per-step sum" if worse else "ok"))
    return 1 if worse else 0


if __name__ == "__main__":
    sys.exit(main())
