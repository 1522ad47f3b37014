"""Blocked matrix multiplication C = A @ B with fp16 inputs, an fp32 accumulator
and an fp16 result, optionally followed by an activation.

Each program computes one BLOCK_SIZE_M x BLOCK_SIZE_N tile of C by walking K
in steps of BLOCK_SIZE_K and accumulating tl.dot products in fp32.

Programs are numbered in "grouped" order: instead of sweeping C row of tiles
by row of tiles, GROUP_SIZE_M consecutive rows of tiles are swept column by
column, so programs that run close together reuse the same tiles of A and B
(better L2 reuse on a GPU; the result does not depend on the order).

Edges: the row and column offsets wrap modulo M and N, so A and B loads stay
in bounds without masks (the duplicated rows/columns are never stored);
the K remainder is masked and reads 0, which adds nothing to the dot product;
the store of C is masked on both M and N.

    tritium run examples/matmul.py
    python3 examples/matmul.py           # Triton, GPU or TRITON_INTERPRET=1
"""
# tritium: --kernel matmul_kernel --grid 'cdiv(M, BLOCK_SIZE_M) * cdiv(N, BLOCK_SIZE_N)'
# tritium: --arg a_ptr=randn:f16[300,200] --arg b_ptr=randn:f16[200,250] --arg c_ptr=empty:f16[300,250]
# tritium: --arg M='a_ptr.shape[0]' --arg N='b_ptr.shape[1]' --arg K='a_ptr.shape[1]'
# tritium: --arg stride_am='a_ptr.stride(0)' --arg stride_ak='a_ptr.stride(1)'
# tritium: --arg stride_bk='b_ptr.stride(0)' --arg stride_bn='b_ptr.stride(1)'
# tritium: --arg stride_cm='c_ptr.stride(0)' --arg stride_cn='c_ptr.stride(1)'
# tritium: --const BLOCK_SIZE_M=64 --const BLOCK_SIZE_N=64 --const BLOCK_SIZE_K=32 --const GROUP_SIZE_M=8

import os

import triton
import triton.language as tl


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                  stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  BLOCK_SIZE_M: tl.constexpr = 64, BLOCK_SIZE_N: tl.constexpr = 64,
                  BLOCK_SIZE_K: tl.constexpr = 32, GROUP_SIZE_M: tl.constexpr = 8,
                  ACTIVATION: tl.constexpr = ""):
    pid = tl.program_id(axis=0)
    tiles_m = tl.cdiv(M, BLOCK_SIZE_M)
    tiles_n = tl.cdiv(N, BLOCK_SIZE_N)

    # Grouped ordering: group g covers tile rows [g*GROUP_SIZE_M, ...) and is
    # walked column-major; the last group may have fewer rows.
    tiles_per_group = GROUP_SIZE_M * tiles_n
    group = pid // tiles_per_group
    first_tile_m = group * GROUP_SIZE_M
    rows_in_group = min(tiles_m - first_tile_m, GROUP_SIZE_M)
    pos = pid % tiles_per_group
    tile_m = first_tile_m + pos % rows_in_group
    tile_n = pos // rows_in_group

    tl.assume(tile_m >= 0)
    tl.assume(tile_n >= 0)
    tl.assume(stride_am > 0)
    tl.assume(stride_bn > 0)

    rows = (tile_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    cols = (tile_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    ks = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + rows[:, None] * stride_am + ks[None, :] * stride_ak
    b_ptrs = b_ptr + ks[:, None] * stride_bk + cols[None, :] * stride_bn

    acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for kt in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        k_left = K - kt * BLOCK_SIZE_K
        a = tl.load(a_ptrs, mask=ks[None, :] < k_left, other=0.0)
        b = tl.load(b_ptrs, mask=ks[:, None] < k_left, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk

    # Resolved at compile time: ACTIVATION is a string constexpr.
    if ACTIVATION == "leaky_relu":
        acc = leaky_relu(acc)
    c = acc.to(tl.float16)

    offs_m = tile_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_n = tile_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    c_mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


# Defined after the kernel on purpose: jit globals are resolved when the
# kernel is compiled, not when it is defined.
@triton.jit
def leaky_relu(x):
    return tl.where(x >= 0, x, 0.01 * x)


def matmul(a, b, activation="", block_m=64, block_n=64, block_k=32, group_m=8):
    """Host wrapper: a (M, K) fp16, b (K, N) fp16 -> c (M, N) fp16."""
    import torch
    assert a.shape[1] == b.shape[0], "incompatible dimensions"
    M, K = a.shape
    _, N = b.shape
    c = torch.empty((M, N), device=a.device, dtype=torch.float16)
    grid = (triton.cdiv(M, block_m) * triton.cdiv(N, block_n),)
    matmul_kernel[grid](a, b, c, M, N, K,
                        a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                        c.stride(0), c.stride(1),
                        BLOCK_SIZE_M=block_m, BLOCK_SIZE_N=block_n, BLOCK_SIZE_K=block_k,
                        GROUP_SIZE_M=group_m, ACTIVATION=activation)
    return c


def _device():
    return "cpu" if os.environ.get("TRITON_INTERPRET") == "1" else "cuda"


if __name__ == "__main__":
    import torch
    torch.manual_seed(0)
    for (M, N, K, act) in ((64, 64, 32, ""), (300, 250, 200, ""), (130, 70, 50, "leaky_relu")):
        a = torch.randn(M, K, device=_device(), dtype=torch.float16)
        b = torch.randn(K, N, device=_device(), dtype=torch.float16)
        c = matmul(a, b, act)
        ref = a.float() @ b.float()
        if act == "leaky_relu":
            ref = torch.nn.functional.leaky_relu(ref, 0.01)
        assert torch.allclose(c.float(), ref, rtol=1e-2, atol=5e-2), f"matmul mismatch {M}x{N}x{K}"
    # B as a transposed view (non-unit row stride).
    a = torch.randn(100, 64, device=_device(), dtype=torch.float16)
    bt = torch.randn(90, 64, device=_device(), dtype=torch.float16)
    c = matmul(a, bt.T)
    assert torch.allclose(c.float(), a.float() @ bt.float().T, rtol=1e-2, atol=5e-2)
    print("matmul: ok")
