"""Layer normalization, forward pass, fused into one kernel (fp32 in, fp32 out).

For every row x of X (N columns):
    mean = sum(x) / N
    var  = sum((x - mean)^2) / N          (two-pass: no catastrophic cancellation)
    rstd = 1 / sqrt(var + eps)
    y    = (x - mean) * rstd * W + B
One program per row. A row may be longer than one block, so each of the three
passes loops over the row in column blocks of BLOCK_SIZE, accumulating into a
block-shaped fp32 accumulator that is reduced once at the end. Mean and Rstd
(one fp32 per row) are stored too, as a backward pass would need them.

    tritium run examples/layer_norm.py
    python3 examples/layer_norm.py       # Triton, GPU or TRITON_INTERPRET=1
"""
# tritium: --kernel layer_norm_fwd_fused --grid 'X.shape[0]'
# tritium: --arg X=randn:f32[300,1000] --arg Y=empty:f32[300,1000]
# tritium: --arg W=randn:f32[1000] --arg B=randn:f32[1000]
# tritium: --arg Mean=empty:f32[300] --arg Rstd=empty:f32[300]
# tritium: --arg stride='X.stride(0)' --arg N='X.shape[1]' --arg eps=1e-5
# tritium: --const BLOCK_SIZE=256

import os

import triton
import triton.language as tl


@triton.jit
def layer_norm_fwd_fused(X, Y, W, B, Mean, Rstd, stride, N, eps,
                         BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    # Move the row pointers to this program's row.
    X += row * stride
    Y += row * stride

    # Pass 1: the mean.
    mean = 0
    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        acc += x
    mean = tl.sum(acc, axis=0) / N

    # Pass 2: the variance around that mean. Lanes past the end would
    # contribute (0 - mean)^2, so they are zeroed explicitly.
    acc_sq = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        d = tl.where(cols < N, x - mean, 0.)
        acc_sq += d * d
    var = tl.sum(acc_sq, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)

    # Scalar stores: one value per row.
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)

    # Pass 3: normalize, scale and shift.
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)
        y = (x - mean) * rstd * w + b
        tl.store(Y + cols, y, mask=mask)


def layer_norm(x, weight, bias, eps=1e-5, block_size=None):
    """Host wrapper: returns (y, mean, rstd) for a 2-D fp32 tensor x."""
    import torch
    M, N = x.shape
    assert x.stride(1) == 1
    y = torch.empty_like(x)
    mean = torch.empty((M,), device=x.device, dtype=torch.float32)
    rstd = torch.empty((M,), device=x.device, dtype=torch.float32)
    if block_size is None:
        block_size = min(triton.next_power_of_2(N), 1024)
    layer_norm_fwd_fused[(M,)](x, y, weight, bias, mean, rstd, x.stride(0), N, eps,
                               BLOCK_SIZE=block_size)
    return y, mean, rstd


def _device():
    return "cpu" if os.environ.get("TRITON_INTERPRET") == "1" else "cuda"


if __name__ == "__main__":
    import torch
    torch.manual_seed(0)
    for (M, N, bs) in ((1, 1, 16), (5, 17, 16), (300, 1000, 256), (16, 4096, 1024)):
        x = torch.randn(M, N, device=_device(), dtype=torch.float32) * 2 + 0.5
        w = torch.randn(N, device=_device(), dtype=torch.float32)
        b = torch.randn(N, device=_device(), dtype=torch.float32)
        y, mean, rstd = layer_norm(x, w, b, 1e-5, bs)
        ref = torch.nn.functional.layer_norm(x, (N,), w, b, 1e-5)
        assert torch.allclose(y, ref, rtol=1e-4, atol=1e-4), f"layer_norm y mismatch {M}x{N}"
        assert torch.allclose(mean, x.mean(dim=1), rtol=1e-5, atol=1e-5)
        var = x.var(dim=1, unbiased=False)
        assert torch.allclose(rstd, 1 / torch.sqrt(var + 1e-5), rtol=1e-4, atol=1e-5)
    print("layer_norm: ok")
