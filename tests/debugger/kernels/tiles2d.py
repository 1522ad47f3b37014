"""Debugger expression tests (test_slicing.py): a 2-D tile of A in program 0."""
# tritium: --kernel tiles2d --grid 1 --arg A=arange:i32[8,16] --arg Out=zeros:i32[8,16] --const M=8 --const N=16
import triton
import triton.language as tl


@triton.jit
def tiles2d(A, Out, M: tl.constexpr, N: tl.constexpr):
    rows = tl.arange(0, M)
    cols = tl.arange(0, N)
    x = tl.load(A + rows[:, None] * N + cols[None, :])
    y = x * 2
    tl.store(Out + rows[:, None] * N + cols[None, :], y)
