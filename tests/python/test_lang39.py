"""The language of Triton 3.7-3.9 under the installed Triton, in interp mode,
against torch. Each test follows the release that defines the feature
(compiler/front/sema_version.c; the package sets TRITIUM_TRITON_VERSION
from the installed Triton): under an older Triton the kernel is refused
with a message naming the release that added it. tests/front/test_lang39.c
checks each release's rule in C."""
import pytest

torch = pytest.importorskip("torch")
triton = pytest.importorskip("triton")
import triton.language as tl  # noqa: E402

import tritium  # noqa: E402
from tritium import _versions  # noqa: E402

tritium.enable("interp")

V = _versions.parse_version(triton.__version__)[:2]


def run_or_refused(since, launch, words):
    """launch() under a Triton >= since; below it, the error naming the
    release. True when it ran."""
    if V >= since:
        launch()
        return True
    with pytest.raises(Exception, match=words):
        launch()
    return False


def test_squeeze_unsqueeze():
    # standard.py squeeze/unsqueeze: Triton 3.7
    if V < (3, 7):
        pytest.skip("tl.squeeze is not in Triton %d.%d (its own AttributeError)" % V)

    @triton.jit
    def k(X, Y, Z):
        r = tl.arange(0, 4)
        c = tl.arange(0, 8)
        x = tl.load(X + r[:, None] * 8 + c[None, :])
        tl.store(Y + r[:, None] * 8 + c[None, :], tl.squeeze(tl.unsqueeze(x, 1), -2))
        tl.store(Z + r, tl.squeeze(tl.sum(x, 1, keep_dims=True), 1))

    x = torch.randn(4, 8)
    y, z = torch.zeros(4, 8), torch.zeros(4)
    k[(1,)](x, y, z)
    assert torch.equal(y, x)
    torch.testing.assert_close(z, x.sum(1))


def test_cat_keeps_order_along_dim():
    # core.py cat(can_reorder=False, dim=): Triton 3.7
    @triton.jit
    def k(X, Y0, Y1):
        r = tl.arange(0, 4)[:, None]
        c = tl.arange(0, 8)[None, :]
        a = tl.load(X + r * 8 + c)
        b = a + 100.0
        tl.store(Y0 + tl.arange(0, 8)[:, None] * 8 + c, tl.cat(a, b))
        tl.store(Y1 + r * 16 + tl.arange(0, 16)[None, :], tl.cat(a, b, dim=1))

    x = torch.randn(4, 8)
    y0, y1 = torch.zeros(8, 8), torch.zeros(4, 16)
    if run_or_refused((3, 7), lambda: k[(1,)](x, y0, y1), "can_reorder|dim"):
        assert torch.equal(y0, torch.cat([x, x + 100], 0))
        assert torch.equal(y1, torch.cat([x, x + 100], 1))


def test_chained_comparison_and_walrus():
    # code_generator.py visit_Compare chains from 3.9; visit_NamedExpr from 3.8
    @triton.jit
    def k(X, Y):
        o = tl.arange(0, 16)
        x = tl.load(X + o)
        tl.store(Y + o, (2 <= x < 9).to(tl.int32) * (y := x + 1))

    x = torch.arange(16, dtype=torch.int32)
    y = torch.zeros(16, dtype=torch.int32)
    words = "simultaneous multiple comparison|NamedExpr"
    if run_or_refused((3, 9), lambda: k[(1,)](x, y), words):
        assert torch.equal(y, ((x >= 2) & (x < 9)).int() * (x + 1))


def test_logical_and_or_methods():
    # core.py tensor.logical_and/logical_or: every release
    @triton.jit
    def k(X, Y):
        o = tl.arange(0, 16)
        x = tl.load(X + o)
        tl.store(Y + o, (x > 2).logical_and(x < 9).to(tl.int32) + (x < 2).logical_or(x > 12).to(tl.int32) * 2)

    x = torch.arange(16, dtype=torch.int32)
    y = torch.zeros(16, dtype=torch.int32)
    k[(1,)](x, y)
    assert torch.equal(y, ((x > 2) & (x < 9)).int() + ((x < 2) | (x > 12)).int() * 2)


def test_int16_xor_literal_bitcast():
    # semantic.py bitwise_op_type_checking_impl: the literal takes int16
    @triton.jit
    def k(X, Y):
        o = tl.arange(0, 64)
        b = tl.load(X + o)
        tl.store(Y + o, (b ^ -32768).to(tl.float16, bitcast=True))

    x = torch.randint(-32768, 32767, (64,), dtype=torch.int16)
    y = torch.zeros(64, dtype=torch.float16)
    k[(1,)](x, y)
    assert torch.equal(y.view(torch.int16), x ^ -32768)


def test_negative_zero():
    # semantic.py minus: fneg from 3.8 (-(+0.0) is -0.0), 0 - x before
    @triton.jit
    def k(X, Y):
        o = tl.arange(0, 16)
        tl.store(Y + o, -tl.load(X + o))

    x = torch.zeros(16)
    y = torch.ones(16)
    k[(1,)](x, y)
    assert torch.signbit(y).all() == (V >= (3, 8))


@triton.jit
def scale(a, *, s):
    return a * s


@triton.jit
def total(first, *rest):
    acc = first
    for i in tl.static_range(len(rest)):
        acc = acc + rest[i]
    return acc


def test_kwonly_and_varargs_helpers():
    # code_generator.py visit_arguments: *args from 3.8, keyword-only from 3.9
    @triton.jit
    def k(X, Y, *, S: tl.constexpr):
        x = tl.load(X + tl.arange(0, 16))
        tl.store(Y + tl.arange(0, 16), total(scale(x, s=S), x, 100))

    x = torch.arange(16, dtype=torch.int32)
    y = torch.zeros(16, dtype=torch.int32)
    if run_or_refused((3, 9), lambda: k[(1,)](x, y, S=3), "keyword-only parameters"):
        assert torch.equal(y, x * 3 + x + 100)


def test_scan_dtypes_and_softmax():
    # standard.py: 3.9 keeps bf16 in cumsum, widens int8 cumprod, softmax keeps dims
    @triton.jit
    def k(X, B, I, S):
        r = tl.arange(0, 4)[:, None]
        c = tl.arange(0, 8)[None, :]
        x = tl.load(X + r * 8 + c)
        b = tl.cumsum(x.to(tl.bfloat16), 1)
        tl.static_assert(b.dtype == tl.bfloat16)
        tl.store(B + r * 8 + c, b)
        i = tl.cumprod((x * 2).to(tl.int8), 1)
        tl.static_assert(i.dtype == tl.int32)
        tl.store(I + r * 8 + c, i)
        tl.store(S + r * 8 + c, tl.softmax(x, 1))

    x = torch.randn(4, 8)
    b, s = torch.zeros(4, 8, dtype=torch.bfloat16), torch.zeros(4, 8)
    i = torch.zeros(4, 8, dtype=torch.int32)
    if run_or_refused((3, 9), lambda: k[(1,)](x, b, i, s), "static_assert|error"):
        # bf16 steps: the order of the additions is the scan's own, so a tolerance
        torch.testing.assert_close(b.float(), x.to(torch.bfloat16).float().cumsum(1), rtol=3e-2, atol=3e-2)
        assert torch.equal(i, torch.cumprod((x * 2).to(torch.int8).int(), 1, dtype=torch.int32))
        torch.testing.assert_close(s, torch.softmax(x, 1))


def test_atomic_load_store():
    # core.py atomic_load/atomic_store: Triton 3.9
    if V < (3, 9):
        pytest.skip("tl.atomic_load is not in Triton %d.%d" % V)

    @triton.jit
    def k(X, Y, N):
        o = tl.arange(0, 16)
        m = o < N
        x = tl.atomic_load(X + o, mask=m, sem="relaxed")
        tl.atomic_store(Y + o, tl.where(m, x, 0.0) + 1, mask=m)

    x = torch.randn(16)
    y = torch.zeros(16)
    k[(1,)](x, y, 11)
    assert torch.equal(y[:11], x[:11] + 1) and torch.equal(y[11:], torch.zeros(5))


def test_fdiv_approx_and_expect_zero():
    if V < (3, 9):
        pytest.skip("fdiv(approx=) is Triton 3.9's")

    @triton.jit
    def k(X, Y):
        o = tl.arange(0, 16)
        x = tl.load(X + o)
        tl.store(Y + o, tl.fdiv(tl.expect_zero(x, x == 0), 4.0, approx=True))

    x = torch.randn(16)
    y = torch.zeros(16)
    k[(1,)](x, y)
    torch.testing.assert_close(y, x / 4)
