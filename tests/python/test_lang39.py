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


def _aggregate_classes():
    """@triton.aggregate classes (core.py _aggregate, public from Triton 3.8):
    a base with a default, a derived class adding a tuple field with a
    default and overriding a method, operators and indexing as jit methods."""

    @triton.aggregate
    class Affine:
        w: tl.tensor
        n: tl.constexpr
        shift: tl.constexpr = 4

        @triton.jit
        def apply(self, x):
            return x * self.w * self.n + self.shift

    @triton.aggregate
    class Biased(Affine):
        bias: tl.tuple = (1.0, 2.0)

        @triton.jit
        def apply(self, x):
            return Affine.apply(self, x) + self.bias[0] + self.bias[1]

        @triton.jit
        def __add__(self, other):
            return tl.aggregate_replace(self, w=self.w + other)

        @triton.jit
        def __getitem__(self, i):
            return self.bias[i]

    return Affine, Biased


def test_fma_operand_types():
    # math.py fma has no dtype check; 3.9's ternary_op_type_checking_impl types Python
    # scalars against the tensors (fp16 stays fp16), before 3.9 every operand became a
    # tensor first (a Python float is fp32) and the pairs were promoted
    @triton.jit
    def k(X16, XB, X32, A, B, C, D, V39: tl.constexpr):
        o = tl.arange(0, 16)
        x16 = tl.load(X16 + o)
        xb = tl.load(XB + o)
        x32 = tl.load(X32 + o)
        a = tl.fma(x16, 2.5, 0.1)
        b = tl.fma(xb, xb, 1.0)
        c = tl.fma(2.0, 0.3, x16)
        d = tl.fma(x16, x32, 1)
        tl.store(A + o, a)
        tl.store(B + o, b)
        tl.store(C + o, c)
        tl.store(D + o, d)
        tl.static_assert(d.dtype == tl.float32)
        if V39:
            tl.static_assert(a.dtype == tl.float16 and b.dtype == tl.bfloat16 and c.dtype == tl.float16)
        else:
            tl.static_assert(a.dtype == tl.float32 and b.dtype == tl.float32 and c.dtype == tl.float32)

    g = torch.Generator().manual_seed(0)
    x16, xb, x32 = (torch.randn(16, generator=g).to(t) for t in (torch.float16, torch.bfloat16, torch.float32))
    outs = [torch.zeros(16) for _ in range(4)]
    k[(1,)](x16, xb, x32, *outs, V39=V >= (3, 9))
    t = torch.float16 if V >= (3, 9) else torch.float32
    tb = torch.bfloat16 if V >= (3, 9) else torch.float32
    c = lambda v, ty: torch.tensor(v, dtype=ty).double()   # noqa: E731  a Python scalar in the operation's type
    d = lambda v: v.double()                                # noqa: E731
    torch.testing.assert_close(outs[0], (d(x16) * c(2.5, t) + c(0.1, t)).to(t).float(), rtol=0, atol=0)
    torch.testing.assert_close(outs[1], (d(xb) * d(xb) + c(1.0, tb)).to(tb).float(), rtol=0, atol=0)
    torch.testing.assert_close(outs[2], (c(2.0, t) * c(0.3, t) + d(x16)).to(t).float(), rtol=0, atol=0)
    torch.testing.assert_close(outs[3], (d(x16) * d(x32) + 1).float(), rtol=0, atol=0)


def test_must_use_result():
    # core.py must_use_result over @triton.jit: a call whose result an expression statement
    # drops is code_generator.py call_Function's CompilationError, with the given message
    @triton.must_use_result("Use its value.")
    @triton.jit
    def inc(x):
        return x + 1

    @triton.jit
    def used(X):
        x = tl.load(X)
        y = inc(x)
        tl.store(X, inc(x) + y)

    @triton.jit
    def dropped(X):
        inc(tl.load(X))

    x = torch.ones(1)
    used[(1,)](x)
    assert x.item() == 4.0
    with pytest.raises(Exception, match=r"The result of inc is not being used\. Use its value\."):
        dropped[(1,)](x)


def test_aggregate_fields_defaults_inheritance_methods():
    if V < (3, 8):
        pytest.skip("triton.aggregate is not in Triton %d.%d" % V)
    Affine, Biased = _aggregate_classes()

    @triton.jit
    def make(w, b):
        return Biased(w, 2, bias=(b, b * 2))          # keyword field, shift from the base's default

    @triton.jit
    def weight(a):
        return a.w * a.n + a.shift

    @triton.jit
    def k(X, Y, n):
        o = tl.arange(0, 16)
        x = tl.load(X + o)
        a = Affine(tl.load(X), 3)
        tl.store(Y + o, a.apply(x))                   # w * 3 + 4
        b = make(tl.load(X + 1), tl.load(X + 2))
        for i in range(n):                            # a tensor tuple field carried by a runtime loop
            b = tl.aggregate_replace(b, w=b.w + 1.0, bias=(b.bias[0] + 1.0, b.bias[1]))
        tl.store(Y + 16 + o, b.apply(x))
        tl.store(Y + 32 + o, (b + 10.0).apply(x) + b[1] + weight(b))

    x = torch.randn(16)
    y = torch.zeros(48)
    n = 3
    k[(1,)](x, y, n)
    w0, w1, b0 = x[0], x[1] + n, x[2] + n
    b1 = x[2] * 2
    torch.testing.assert_close(y[:16], x * w0 * 3 + 4)
    torch.testing.assert_close(y[16:32], x * w1 * 2 + 4 + b0 + b1)
    torch.testing.assert_close(y[32:], x * (w1 + 10) * 2 + 4 + b0 + b1 + b1 + (w1 * 2 + 4))


def test_aggregate_errors():
    # core.py _aggregate's generated __init__ and aggregate_replace, in their words
    if V < (3, 8):
        pytest.skip("triton.aggregate is not in Triton %d.%d" % V)
    Affine, Biased = _aggregate_classes()

    @triton.jit
    def missing(X):
        a = Affine(tl.load(X))
        tl.store(X, a.w)

    @triton.jit
    def not_a_tensor(X):
        a = Affine(1.0, 2)
        tl.store(X, a.w)

    @triton.jit
    def no_field(X):
        a = tl.aggregate_replace(Affine(tl.load(X), 2), scale=3)
        tl.store(X, a.w)

    @triton.jit
    def constexpr_changes(X, n):
        a = Affine(tl.load(X), 2)
        for i in range(n):
            a = Affine(a.w + 1, 3)
        tl.store(X, a.w)

    @triton.jit
    def immutable(X):
        a = Affine(tl.load(X), 2)
        a.w = a.w + 1
        tl.store(X, a.w)

    x = torch.zeros(4)
    for kern, words in ((missing, r"Affine.__init__\(\) missing required argument: 'n'"),
                        (not_a_tensor, r"Expected <class 'triton.language.core.tensor'> for attribute 'w'"),
                        (no_field, "Affine has no field 'scale'"),
                        (constexpr_changes, "constexpr field 'n'"),
                        (immutable, "Attribute assignment is not supported")):
        with pytest.raises(Exception, match=words):
            kern[(1,)](x, 2) if kern is constexpr_changes else kern[(1,)](x)


def test_aggregate_user_init_and_python_methods():
    # 3.9 core.py _aggregate: a class's own __init__ (a constexpr_function, or a builtin
    # taking _semantic) runs on an instance whose fields are unset and sets them; a
    # constexpr-annotated field takes tl.constexpr(...); builtin and constexpr_function
    # methods run in the code generator (Triton 3.9 compiles this kernel to TTIR)
    if V < (3, 8):
        pytest.skip("triton.aggregate is not in Triton %d.%d" % V)

    @triton.aggregate
    class Pair:
        first: tl.tensor
        second: tl.tensor
        scale: tl.constexpr

        @triton.constexpr_function
        def __init__(self, first, second, scale=2):
            self.first = first
            self.second = second
            self.scale = tl.constexpr(scale)

        @triton.jit
        def combine(self):
            return self.first * self.scale + self.second

        @tl.core.builtin
        def get_second(self, _semantic=None):
            return self.second

        @triton.jit
        def unpack(self):
            return self.first, self.get_second()

    @triton.aggregate
    class Ramp:
        value: tl.tensor

        @tl.core.builtin
        def __init__(self, _semantic=None):
            self.value = tl.arange(0, 16, _semantic=_semantic)

    @triton.jit
    def k(X, Y, Z):
        r = tl.arange(0, 16)
        x = tl.load(X + r)
        p = Pair(x, x + 1.0)
        q = Pair(x, Ramp().value.to(tl.float32), scale=3)
        a, b = p.unpack()
        tl.store(Y + r, p.combine() + q.combine())
        tl.store(Z + r, a - b + q.get_second())

    x = torch.randn(16)
    y, z = torch.zeros(16), torch.zeros(16)
    k[(1,)](x, y, z)
    r = torch.arange(16).float()
    torch.testing.assert_close(y, x * 2 + (x + 1) + x * 3 + r)
    torch.testing.assert_close(z, x - (x + 1) + r)

    @triton.aggregate
    class Half:
        a: tl.tensor
        b: tl.tensor

        @triton.constexpr_function
        def __init__(self, a):
            self.a = a

    @triton.aggregate
    class Typed:
        n: tl.constexpr

        @triton.constexpr_function
        def __init__(self, x):
            self.n = x

    @triton.jit
    def unset(X):
        tl.store(X, Half(tl.load(X)).a)

    @triton.jit
    def wrong_type(X):
        tl.store(X, tl.load(X) + Typed(tl.load(X)).n)

    for kern, words in ((unset, "constructor for Half did not initialize attribute 'b'"),
                        (wrong_type, r"Expected <class 'triton.language.core.constexpr'> for attribute 'n'")):
        with pytest.raises(Exception, match=words):
            kern[(1,)](torch.zeros(1))


def test_aggregate_unary_and_comparison_methods():
    # 3.9 code_generator.py visit_UnaryOp (__neg__, __invert__) and visit_Compare through
    # _apply_binary_method: the left operand's __lt__, else the right one's reflected __gt__
    if V < (3, 8):
        pytest.skip("triton.aggregate is not in Triton %d.%d" % V)

    @triton.aggregate
    class Box:
        v: tl.tensor

        @triton.jit
        def __neg__(self):
            return Box(-self.v)

        @triton.jit
        def __invert__(self):
            return self.v * 0.5

        @triton.jit
        def __lt__(self, other):
            return self.v < other

        @triton.jit
        def __eq__(self, other):
            return self.v == other.v

    @triton.jit
    def k(X, Y, L, G, E):
        o = tl.arange(0, 16)
        b = Box(tl.load(X + o))
        tl.store(Y + o, (-b).v + ~b)
        tl.store(L + o, b < 0.25)
        tl.store(G + o, 0.25 > b)                      # Box has no __gt__: its reflected __lt__
        tl.store(E + o, b == -(-b))

    x = torch.randn(16)
    y = torch.zeros(16)
    lt, gt, eq = (torch.zeros(16, dtype=torch.bool) for _ in range(3))
    k[(1,)](x, y, lt, gt, eq)
    torch.testing.assert_close(y, -x + x * 0.5)
    assert torch.equal(lt, x < 0.25) and torch.equal(gt, x < 0.25) and eq.all()


def test_aggregate_replace_before_38():
    # tl.aggregate_replace is Triton 3.8's (core.py); before it, the error names the release
    if V >= (3, 8):
        pytest.skip("Triton %d.%d has aggregate_replace" % V)

    @triton.jit
    def k(X):
        tl.store(X, tl.aggregate_replace(tl.load(X)))

    with pytest.raises(Exception, match="added in Triton 3.8"):
        k[(1,)](torch.zeros(1))
