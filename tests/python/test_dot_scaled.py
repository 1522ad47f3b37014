"""tl.dot_scaled (mxfp4 / mxfp8 microscaling dots, Triton 3.6-3.9 core.py
dot_scaled) in interp mode, against a numpy reference written from the
format definitions: e2m1 by its table (two values per uint8, low nibble
first, packed along K unless k_pack=False), e4m3/e5m2 by ml_dtypes, scales
E8M0 2^(s-127) broadcast over groups of 32 (16) along K, byte 255 NaN and,
with a bfloat16 compute type, byte 0 2^-127 (interpreter.py
_dot_scaled_scale_to_f32). The reference is float64; tritium's dot sums
float32 products, so the tolerance is relative to the sum of |terms|.

The same tests run under Triton's own interpreter (TRITON_INTERPRET=1:
tritium is then not enabled), which checks the reference against Triton:
TRITON_INTERPRET=1 python -m pytest tests/python/test_dot_scaled.py."""
import os

import numpy as np
import pytest

torch = pytest.importorskip("torch")
triton = pytest.importorskip("triton")
ml_dtypes = pytest.importorskip("ml_dtypes")
import triton.language as tl  # noqa: E402

import tritium  # noqa: E402
from tritium import _versions  # noqa: E402

TRITON_ITSELF = os.environ.get("TRITON_INTERPRET") == "1"
V = _versions.parse_version(triton.__version__)[:2]
if not TRITON_ITSELF:
    tritium.enable("interp")

E2M1 = np.array([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0])


def e2m1(packed, axis):
    """The e2m1 values of a uint8 array, two per byte along axis (low nibble
    first)."""
    p = packed.numpy().astype(np.int64)
    nib = np.stack([p & 15, p >> 4], axis=axis + 1)
    shape = list(p.shape)
    shape[axis] *= 2
    nib = nib.reshape(shape)
    return np.where(nib & 8, -1.0, 1.0) * E2M1[nib & 7]


def values(x, fmt, axis):
    if fmt == "e2m1":
        return e2m1(x, axis)
    if fmt in ("e4m3", "e5m2"):
        ty = ml_dtypes.float8_e4m3fn if fmt == "e4m3" else ml_dtypes.float8_e5m2
        return x.view(torch.uint8).numpy().view(ty).astype(np.float64)
    return x.float().numpy().astype(np.float64)


def scales(s, bf16):
    s = s.numpy().astype(np.int64)
    v = np.exp2(s - 127.0)
    if bf16:
        v[s == 0] = 2.0**-127
    else:
        v[s == 0] = 0.0
    v[s == 255] = np.nan
    return v


def reference(a, sa, fa, b, sb, fb, acc, kpa=True, kpb=True):
    bf16 = "fp16" not in (fa, fb)
    A = values(a, fa, 1 if kpa else 0)
    B = values(b, fb, 0 if kpb else 1)
    K = A.shape[1]
    if sa is not None:
        A = A * np.repeat(scales(sa, bf16), K // sa.shape[1], axis=1)
    if sb is not None:
        B = B * np.repeat(scales(sb, bf16), K // sb.shape[1], axis=1).T
    with np.errstate(invalid="ignore", over="ignore"):
        out = A @ B + (0 if acc is None else acc.numpy())
        mag = np.abs(A) @ np.abs(B) + (0 if acc is None else np.abs(acc.numpy()))
    return out, mag


def check(got, ref, mag):
    got = got.numpy().astype(np.float64)
    assert np.array_equal(np.isnan(got), np.isnan(ref)), "NaN positions differ"
    inf = np.isinf(ref)
    assert np.array_equal(got[inf], ref[inf]), "infinities differ"
    ok = ~np.isnan(ref) & ~inf
    err = np.abs(got[ok] - ref[ok])
    tol = 1e-5 * mag[ok] + 1e-40
    assert (err <= tol).all(), "max error %g (tolerance %g there)" % (err.max(), tol[np.argmax(err - tol)])


@triton.jit
def mx_kernel(A, SA, B, SB, C, O, AR: tl.constexpr, AC: tl.constexpr, BR: tl.constexpr, BC: tl.constexpr,
              M: tl.constexpr, N: tl.constexpr, SK: tl.constexpr, FA: tl.constexpr, FB: tl.constexpr,
              HAS_SA: tl.constexpr, HAS_SB: tl.constexpr, HAS_C: tl.constexpr, KPA: tl.constexpr,
              KPB: tl.constexpr):
    a = tl.load(A + tl.arange(0, AR)[:, None] * AC + tl.arange(0, AC)[None, :])
    b = tl.load(B + tl.arange(0, BR)[:, None] * BC + tl.arange(0, BC)[None, :])
    sa = None
    sb = None
    acc = None
    if HAS_SA:
        sa = tl.load(SA + tl.arange(0, M)[:, None] * SK + tl.arange(0, SK)[None, :])
    if HAS_SB:
        sb = tl.load(SB + tl.arange(0, N)[:, None] * SK + tl.arange(0, SK)[None, :])
    if HAS_C:
        acc = tl.load(C + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :])
    o = tl.dot_scaled(a, sa, FA, b, sb, FB, acc=acc, lhs_k_pack=KPA, rhs_k_pack=KPB)
    tl.store(O + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :], o)


def operand(fmt, rows, cols, g, fp8_dtype=False):
    """Random operand data of fmt, [rows, cols] as stored (packed for e2m1);
    no fp8 NaN/inf codes."""
    if fmt == "e2m1":
        return torch.randint(0, 256, (rows, cols), dtype=torch.uint8, generator=g)
    if fmt in ("e4m3", "e5m2"):
        x = torch.randint(0, 256, (rows, cols), dtype=torch.uint8, generator=g)
        if fmt == "e4m3":
            x = torch.where((x & 0x7F) == 0x7F, x ^ 1, x)
        else:
            x = torch.where((x & 0x7C) == 0x7C, x & 0xBB, x)
        return x.view(torch.float8_e4m3fn if fmt == "e4m3" else torch.float8_e5m2) if fp8_dtype else x
    ty = torch.bfloat16 if fmt == "bf16" else torch.float16
    return (torch.randint(-256, 256, (rows, cols), generator=g).float() / 32).to(ty)


def run(fa, fb, M=32, N=16, K=64, has_sa=True, has_sb=True, has_c=False, kpa=True, kpb=True, group=32,
        fp8_dtype=False, lo=118, hi=136, seed=0, edit=None):
    g = torch.Generator().manual_seed(seed)
    pa, pb = (2 if fa == "e2m1" else 1), (2 if fb == "e2m1" else 1)
    a = operand(fa, M if kpa else M // pa, K // pa if kpa else K, g, fp8_dtype)
    b = operand(fb, K // pb if kpb else K, N if kpb else N // pb, g, fp8_dtype)
    sa = torch.randint(lo, hi, (M, K // group), dtype=torch.uint8, generator=g) if has_sa else None
    sb = torch.randint(lo, hi, (N, K // group), dtype=torch.uint8, generator=g) if has_sb else None
    c = torch.randn(M, N, generator=g) if has_c else None
    if edit:
        edit(sa, sb)
    o = torch.zeros(M, N)
    dummy = torch.zeros(1, dtype=torch.uint8)
    mx_kernel[(1,)](a, sa if has_sa else dummy, b, sb if has_sb else dummy, c if has_c else o, o,
                    a.shape[0], a.shape[1], b.shape[0], b.shape[1], M, N, K // group, fa, fb, has_sa, has_sb,
                    has_c, kpa, kpb)
    ref, mag = reference(a, sa, fa, b, sb, fb, c, kpa, kpb)
    check(o, ref, mag)
    return o, ref


def test_e2m1_e2m1():
    run("e2m1", "e2m1")


def test_e4m3_e4m3_acc():
    run("e4m3", "e4m3", has_c=True)


def test_e5m2_e4m3_fp8_dtypes():
    run("e5m2", "e4m3", fp8_dtype=True, seed=1)


def test_bf16_e2m1_lhs_unscaled():
    run("bf16", "e2m1", has_sa=False, seed=2)


def test_e2m1_no_scales():
    run("e2m1", "e4m3", has_sa=False, has_sb=False, seed=3)


def test_e2m1_k_pack_false():
    # lhs packed along M, rhs along N
    run("e2m1", "e2m1", kpa=False, kpb=False, seed=4)
    run("e2m1", "e5m2", M=16, N=32, K=128, kpa=False, has_c=True, seed=5)


def test_fp16_e4m3_group16():
    # a float16 format makes float16 the compute type; uint8 scales over
    # groups of 16 from Triton 3.8 (deduce_scale_factor), 32 only before
    run("fp16", "e4m3", lo=122, hi=132, seed=6)
    if V >= (3, 8):
        run("fp16", "e4m3", group=16, lo=122, hi=132, seed=6)
    elif not TRITON_ITSELF:
        with pytest.raises(Exception, match=r"lhs_scale must be a tensor of shape \[\.\.\., 32, 2\]. Got \[32, 4\]"):
            run("fp16", "e4m3", group=16, lo=122, hi=132, seed=6)


def test_scale_bytes_0_and_255():
    # byte 0 is 2^-127 with a bfloat16 compute type (rhs column 0's 2^123
    # brings row 0 back to normal range; the other scales are small enough
    # that column 0 stays finite in float32); byte 255 is NaN for its row
    if TRITON_ITSELF and V < (3, 9):
        pytest.skip("Triton 3.8's interpreter reads byte 0 as 0 (3.9's as 2^-127)")
    def edit(sa, sb):
        sa[0, :] = 0
        sa[3, 1] = 255
        sb[0, :] = 250
        sb[5, 0] = 255
    o, ref = run("e2m1", "e2m1", edit=edit, lo=100, hi=121, seed=7)
    assert np.isnan(ref[3]).all() and np.isnan(ref[:, 5]).all() and not np.isnan(ref[0, 0])
    assert abs(ref[0, 0]) > 1e-3


def test_fp8_inf_and_nan_codes():
    # e4m3 0x7f/0xff are NaN; e5m2 0x7c/0xfc are +-inf, 0x7d-0x7f NaN: kept
    # through the bfloat16 compute type as Triton's interpreter keeps them
    def plant(x, at, code):
        u = x.view(torch.uint8)
        for (i, j), c in zip(at, code):
            u[i, j] = c

    g = torch.Generator().manual_seed(8)
    a = operand("e5m2", 32, 64, g)
    b = operand("e4m3", 64, 16, g)
    plant(a, [(0, 3), (1, 7), (2, 9), (2, 40)], [0x7C, 0xFC, 0x7D, 0x7C])
    plant(b, [(5, 4)], [0xFF])
    sa = torch.randint(120, 130, (32, 2), dtype=torch.uint8, generator=g)
    sb = torch.randint(120, 130, (16, 2), dtype=torch.uint8, generator=g)
    o = torch.zeros(32, 16)
    mx_kernel[(1,)](a, sa, b, sb, o, o, 32, 64, 64, 16, 32, 16, 2, "e5m2", "e4m3", True, True, False, True, True)
    ref, mag = reference(a, sa, "e5m2", b, sb, "e4m3", None)
    assert np.isinf(ref).any() and np.isnan(ref[:, 4]).all()
    check(o, ref, mag)


def test_errors():
    if TRITON_ITSELF:
        pytest.skip("tritium's messages")

    @triton.jit
    def k(A, O, CASE: tl.constexpr):
        r = tl.arange(0, 32)
        a = tl.load(A + r[:, None] * 32 + r[None, :])
        if CASE == 0:
            o = tl.dot_scaled(a, None, "e3m1", a, None, "e2m1")
        elif CASE == 1:
            o = tl.dot_scaled(a, None, "e2m1", a, None, "e4m3")
        elif CASE == 2:
            o = tl.dot_scaled(a, a.to(tl.float32), "e4m3", a, None, "e4m3")
        elif CASE == 3:
            o = tl.dot_scaled(a, a, "e4m3", a, None, "e4m3")
        else:
            s = tl.load(A + tl.arange(0, 16)[:, None] + tl.arange(0, 1)[None, :])
            o = tl.dot_scaled(a, None, "e4m3", a, s, "e4m3")
        tl.store(O + r[:, None] * 32 + r[None, :], o)

    a = torch.zeros(32, 32, dtype=torch.uint8)
    o = torch.zeros(32, 32)
    for case, words in [(0, "Invalid float format: e3m1"),
                        (1, r"Reduction dimension should pack the same number of elements; \(lhs: \[32, 32\] vs rhs: "
                            r"\[32, 32\]\)"),
                        (2, "lhs_scale must be a uint8 tensor"),
                        (3, "scale factor must be 16 or 32. Got 1" if V >= (3, 8) else
                            r"lhs_scale must be a tensor of shape \[\.\.\., 32, 1\]. Got \[32, 32\]"),
                        (4, r"rhs_scale must be a tensor of shape \[\.\.\., 32, 1\]. Got \[16, 1\]")]:
        with pytest.raises(Exception, match=words):
            k[(1,)](a, o, case)
