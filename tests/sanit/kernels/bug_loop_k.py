"""Planted bug: the K loop's mask uses <= so the last iteration reads one
column past K; the bug only shows in iterations after the first."""
# tritium: --kernel rowsum_kernel --grid 'M'
# tritium: --arg x=randn:f32[37,100] --arg out=empty:f32[37]
# tritium: --arg M='x.shape[0]' --arg K='x.shape[1]' --arg stride='x.stride(0)'
# tritium: --const BLOCK_K=32
import triton
import triton.language as tl


@triton.jit
def rowsum_kernel(x, out, M, K, stride, BLOCK_K: tl.constexpr):
    row = tl.program_id(0)
    ks = tl.arange(0, BLOCK_K)
    ptrs = x + row * stride + ks
    acc = tl.zeros((BLOCK_K,), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        acc += tl.load(ptrs, mask=ks <= K - k * BLOCK_K, other=0.0)  # BUG: should be <
        ptrs += BLOCK_K
    tl.store(out + row, tl.sum(acc, axis=0))
