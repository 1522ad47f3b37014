"""Robustness test kernel: programs 0-2 loop 1000 times, the others 2e9 times, for Ctrl-C."""
# tritium: --kernel long_loop --grid 64 --arg Z=zeros:f32[64]
import triton
import triton.language as tl


@triton.jit
def long_loop(Z):
    acc = 0.0
    for i in range(1000 + 1999999000 * (tl.program_id(0) >= 3).to(tl.int32)):
        acc += 1.0
    tl.store(Z + tl.program_id(0), acc)
