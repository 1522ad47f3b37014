"""Per-element bounds of check mode (docs/bounds.md), on the CPU: the
interpreter's side of `python -m tritium --mode check` against planted
"GPU results". A tf32 dot's bound covers sums of the same products in several
orders and is within 4x of the largest deviation seen; an int8 quantization
whose quotients lie within an ulp of .5 accepts both roundings and nothing
else; a planted off-by-one in integer code and a planted wrong sign in float
code are still reported. The references are numpy's, never tritium's."""
import os
import sys

import numpy as np
import pytest
import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "bounds"))
import kernels  # noqa: E402
from tritium import _launch  # noqa: E402
from tritium._config import CONFIG  # noqa: E402


@pytest.fixture(autouse=True)
def fast_numerics():
    saved = CONFIG.numerics
    CONFIG.numerics = "fast"
    yield
    CONFIG.numerics = saved


def check(fn, args, grid, results):
    """The check of one launch against `results` ({argument: tensor}): (status, text, the tensor reports)."""
    bound, _ = _launch.bind(fn, args, {})
    L = _launch.Launch(fn, bound, grid, 4, staging=_launch._Staging(copy_all=True))
    try:
        rc, text, data = L.check(results)
    finally:
        L.free()
    return rc, text, {t["name"]: t for t in data["check"]["tensors"]}


def tf32(x):
    return (x.view(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32)


def orders(a, b):
    """C = a @ b summed in several orders over tf32 operands: exact (f64,
    rounded once), k ascending and descending in f32, pairwise, a random
    permutation, and chunks of 8 added to the accumulator with truncation
    (the tensor cores' way). Element [i, j] of each."""
    a, b = tf32(a), tf32(b)
    M, K = a.shape
    N = b.shape[1]
    p = (a[:, :, None].astype(np.float64) * b[None, :, :]).astype(np.float32)   # exact products
    out = {"f64": p.astype(np.float64).sum(axis=1).astype(np.float32)}

    def seq(idx):
        s = np.zeros((M, N), np.float32)
        for k in idx:
            s = (s + p[:, k, :]).astype(np.float32)
        return s
    out["forward"] = seq(range(K))
    out["reverse"] = seq(range(K - 1, -1, -1))
    out["random"] = seq(np.random.default_rng(1).permutation(K))
    q = [p[:, k, :] for k in range(K)]
    while len(q) > 1:
        q = [(q[i] + q[i + 1]).astype(np.float32) for i in range(0, len(q) - 1, 2)] + ([q[-1]] if len(q) % 2 else [])
    out["pairwise"] = q[0]
    s = np.zeros((M, N), np.float64)
    for k0 in range(0, K, 8):
        t = s + p[:, k0:k0 + 8, :].astype(np.float64).sum(axis=1)
        f = t.astype(np.float32).astype(np.float64)
        f = np.where(np.abs(f) > np.abs(t), np.nextafter(f.astype(np.float32), np.float32(0)).astype(np.float64), f)
        s = f
    out["chunk8-truncated"] = s.astype(np.float32)
    return out


@pytest.mark.parametrize("K", [16, 64, 256, 1024])
def test_dot_bound_covers_orders_and_is_tight(K):
    M = N = 16
    g = torch.Generator().manual_seed(K)
    a = torch.randn(M, K, generator=g)
    b = torch.randn(K, N, generator=g)
    c = torch.empty(M, N)
    sums = orders(a.numpy(), b.numpy())
    mine = sums["forward"]              # the interpreter adds in k order (fmaf of exact products)
    worst = 0.0
    for name, s in sums.items():
        rc, text, t = check(kernels.dot_kernel, (a, b, c, M, N, K, min(K, 64)), (1, 1, 1), {"c_ptr": torch.from_numpy(s)})
        assert rc == 0, "%s order rejected:\n%s" % (name, text)
        assert t["c_ptr"]["rule"] == "bounds"
        worst = max(worst, float(np.abs(s.astype(np.float64) - mine).max()))
    rc, text, t = check(kernels.dot_kernel, (a, b, c, M, N, K, min(K, 64)), (1, 1, 1), {"c_ptr": torch.from_numpy(mine)})
    bound = t["c_ptr"]["max_bound"]
    assert "tt.dot" in t["c_ptr"]["max_bound_op"] and "tf32" in t["c_ptr"]["max_bound_op"]
    assert worst > 0
    assert worst <= bound <= 4 * worst, (K, worst, bound)


def test_dot_without_tf32_rounding_is_caught():
    # products of unrounded fp32 operands: what a GPU computing tf32 cannot produce
    M = N = 16
    K = 64
    g = torch.Generator().manual_seed(7)
    a, b, c = torch.randn(M, K, generator=g), torch.randn(K, N, generator=g), torch.empty(M, N)
    exact = (a.double() @ b.double()).float()
    rc, text, t = check(kernels.dot_kernel, (a, b, c, M, N, K, 32), (1, 1, 1), {"c_ptr": exact})
    assert rc == 1 and t["c_ptr"]["mismatches"] > 200


def test_dot_wrong_sign_is_caught():
    M = N = 16
    K = 64
    g = torch.Generator().manual_seed(8)
    a, b, c = torch.randn(M, K, generator=g), torch.randn(K, N, generator=g), torch.empty(M, N)
    got = torch.from_numpy(orders(a.numpy(), b.numpy())["reverse"].copy())
    got[3, 5] = -got[3, 5]
    rc, text, t = check(kernels.dot_kernel, (a, b, c, M, N, K, 32), (1, 1, 1), {"c_ptr": got})
    assert rc == 1 and t["c_ptr"]["mismatches"] == 1
    e = t["c_ptr"]["first"][0]
    assert e["index"] == [3, 5] and "tt.dot" in e["bound"]["op"]
    assert "bound: -" in text


def planted_quotients(n, scale):
    """x with x / scale within an f32 ulp of k + 0.5 (k = -60..60): the
    GPU's approximate division may round the quotient either way."""
    rng = np.random.default_rng(3)
    k = rng.integers(-60, 60, n)
    x = ((k + 0.5) * scale).astype(np.float32)
    for i in range(n):                  # step x until x / scale (correctly rounded) is within 1 ulp of k + .5
        t = np.float32(k[i] + 0.5)
        for _ in range(8):
            q = np.float32(x[i] / np.float32(scale))
            if abs(float(q) - float(t)) <= float(np.spacing(t)):
                break
            x[i] = np.nextafter(x[i], np.float32(np.inf) if q < t else np.float32(-np.inf))
    return x


def test_int8_quantization_accepts_both_roundings():
    n, BLOCK = 256, 128
    scale = np.float32(0.0137)
    x = planted_quotients(n, scale)
    far = np.arange(n) % 4 == 0
    x[far] = (np.round(x[far] / scale) * scale).astype(np.float32)     # quotients near an integer: one value only
    xt = torch.from_numpy(x)
    scales = torch.full((n // BLOCK,), float(scale))
    out = torch.empty(n, dtype=torch.int8)
    q = x.astype(np.float64) / float(scale)
    near = ~far & (np.abs(np.abs(q) % 1 - 0.5) < 1e-5)
    assert near.sum() > 100
    # the two integers a quotient within an ulp of k + .5 may round to (numpy, from the exact quotient)
    sign = np.where(q >= 0, 1, -1)
    low = (sign * np.floor(np.abs(q) + 0.5 - 1e-4)).astype(np.int8)
    high = (sign * np.floor(np.abs(q) + 0.5 + 1e-4)).astype(np.int8)
    assert (low[far] == high[far]).all() and (low[near] != high[near]).all()
    args = (xt, out, scales, n, BLOCK)
    within = 0
    for side in (low, high):            # every element takes one of its roundings: all accepted
        rc, text, t = check(kernels.quant_int8_kernel, args, (n // BLOCK, 1, 1), {"out_ptr": torch.from_numpy(side)})
        assert rc == 0, text
        within += t["out_ptr"]["within"]
    assert within == int(near.sum())    # each near element differs from the interpreter in one of the two
    # one step past the set: rejected, with the set in the report
    i = int(np.flatnonzero(near)[0])
    worse = high.copy()
    worse[i] = high[i] + sign[i]
    rc, text, t = check(kernels.quant_int8_kernel, args, (n // BLOCK, 1, 1), {"out_ptr": torch.from_numpy(worse)})
    assert rc == 1 and t["out_ptr"]["mismatches"] == 1, text
    lo, hi = sorted((int(low[i]), int(high[i])))
    assert "bound: {%d..%d}" % (lo, hi) in text, text
    # an element whose quotient is near an integer has one value: off by one is reported
    bad = low.copy()
    j = int(np.flatnonzero(far & (np.abs(low) < 100))[0])
    bad[j] += 1
    rc, text, t = check(kernels.quant_int8_kernel, args, (n // BLOCK, 1, 1), {"out_ptr": torch.from_numpy(bad)})
    assert rc == 1 and t["out_ptr"]["mismatches"] == 1 and t["out_ptr"]["first"][0]["linear"] == j


def test_integer_off_by_one_is_reported():
    n = 100
    x = torch.arange(n, dtype=torch.int32)
    out = torch.empty(n, dtype=torch.int32)
    want = (np.arange(n) * 3 + 1).astype(np.int32)
    want[41] += 1
    rc, text, t = check(kernels.histogram_bug_kernel, (x, out, n, 64), (2, 1, 1), {"out_ptr": torch.from_numpy(want)})
    assert rc == 1 and t["out_ptr"]["mismatches"] == 1 and t["out_ptr"]["inexact"] == 0
    assert "bound: exact" in text


def test_float_division_and_sum_bounds():
    R, N = 8, 256
    g = torch.Generator().manual_seed(11)
    x = torch.rand(R, N, generator=g) + 0.5
    out = torch.empty(R, N)
    xs = x.numpy().astype(np.float64)
    ref = (xs / xs.sum(axis=1, keepdims=True)).astype(np.float32)     # exact sum, then divided: another GPU order
    rc, text, t = check(kernels.scale_rows_kernel, (x, out, N), (R, 1, 1), {"out_ptr": torch.from_numpy(ref)})
    assert rc == 0, text
    assert t["out_ptr"]["inexact"] == R * N
    flipped = ref.copy()
    flipped[2, 7] = -flipped[2, 7]
    rc, text, t = check(kernels.scale_rows_kernel, (x, out, N), (R, 1, 1), {"out_ptr": torch.from_numpy(flipped)})
    assert rc == 1 and t["out_ptr"]["mismatches"] == 1


def test_lock_protected_accumulation_takes_any_order():
    R, N = 64, 32
    g = torch.Generator().manual_seed(12)
    x = torch.randn(R, N, generator=g)
    rows = x.numpy().astype(np.float32).sum(axis=1, dtype=np.float32)
    total = np.float32(0)
    for r in rng_order(R):              # the programs took the lock in another order
        total = np.float32(total + rows[r])
    args = (x, torch.zeros(1), torch.zeros(1, dtype=torch.int32), N)
    rc, text, t = check(kernels.locked_sum_kernel, args, (R, 1, 1), {"total_ptr": torch.tensor([total])})
    assert rc == 0, text
    assert "holding the lock" in t["total_ptr"]["max_bound_op"]
    rc, text, t = check(kernels.locked_sum_kernel, args, (R, 1, 1), {"total_ptr": torch.tensor([-total])})
    assert rc == 1 and t["total_ptr"]["mismatches"] == 1


def rng_order(n):
    return np.random.default_rng(5).permutation(n)
