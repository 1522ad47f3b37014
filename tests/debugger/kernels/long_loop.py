"""Robustness test kernel: programs that loop for minutes, to be stopped by Ctrl-C."""
# tritium: --kernel long_loop --grid 64 --arg Z=zeros:f32[64]
import triton
import triton.language as tl


@triton.jit
def long_loop(Z):
    acc = 0.0
    for i in range(1000 + 100000000 * (tl.program_id(0) // 3)):
        acc += 1.0
    tl.store(Z + tl.program_id(0), acc)
