"""Kernels for the bounds tests (tests/python/test_bounds.py) and the GPU
check (tests/python/gpu_bounds_check.py): a tf32 dot, an int8 quantization in
the style of SageAttention's quant_per_block_int8_kernel, and two kernels
with planted bugs that must still be reported."""
import triton
import triton.language as tl


@triton.jit
def dot_kernel(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    acc = tl.zeros((M, N), dtype=tl.float32)
    for k0 in range(0, K, BK):
        rk = k0 + tl.arange(0, BK)
        a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
        b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
        acc = tl.dot(a, b, acc, input_precision="tf32")
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


@triton.jit
def quant_int8_kernel(x_ptr, out_ptr, scale_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    scale = tl.load(scale_ptr + pid)
    q = x / scale
    q += 0.5 * tl.where(q >= 0, 1, -1)
    tl.store(out_ptr + offs, q.to(tl.int8), mask=mask)


@triton.jit
def histogram_bug_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # integer code: out = x * 3 + 1 (the planted bug is on the other side)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x * 3 + 1, mask=mask)


@triton.jit
def scale_rows_kernel(x_ptr, out_ptr, N: tl.constexpr):
    # float code with a division and a sum: out = x / sum(x) per row
    row = tl.program_id(0)
    x = tl.load(x_ptr + row * N + tl.arange(0, N))
    tl.store(out_ptr + row * N + tl.arange(0, N), x / tl.sum(x, axis=0))


@triton.jit
def locked_sum_kernel(x_ptr, total_ptr, lock_ptr, N: tl.constexpr):
    # every program adds its row's sum to total[0] under a spin lock (tutorial 05's backward pass does this)
    row = tl.program_id(0)
    s = tl.sum(tl.load(x_ptr + row * N + tl.arange(0, N)), axis=0)
    while tl.atomic_cas(lock_ptr, 0, 1) == 1:
        pass
    tl.store(total_ptr, tl.load(total_ptr) + s)
    tl.atomic_xchg(lock_ptr, 0)
