"""Named tuples and jit functions as values in interp mode (pytest; meson test
--suite python): typing.NamedTuple and collections.namedtuple arguments and
values built in kernels, jit functions passed as arguments (top level, nested,
from another file, inside a named tuple) and called with *args. Every launch
is checked against torch on the same inputs."""
import collections
import sys
import textwrap
from typing import NamedTuple

import pytest

torch = pytest.importorskip("torch")
triton = pytest.importorskip("triton")
import triton.language as tl  # noqa: E402

import tritium  # noqa: E402

tritium.enable("interp")


class View(NamedTuple):
    ptr: any
    shape: tuple
    stride: tuple


class Acc(NamedTuple):
    total: tl.tensor
    count: tl.tensor


Scale = collections.namedtuple("Scale", "mul add", defaults=(0.0,))


@triton.jit
def _make_view(ptr, shape, stride):
    return View(stride=stride, ptr=ptr, shape=shape)


@triton.jit
def _tile_mask(v, BM: tl.constexpr, BN: tl.constexpr):
    m = tl.arange(0, BM)
    n = tl.arange(0, BN)
    return (m[:, None] < v.shape[0]) & (n[None, :] < v.shape[1])


@triton.jit
def _tile_ptrs(v, BM: tl.constexpr, BN: tl.constexpr):
    m = tl.arange(0, BM)
    n = tl.arange(0, BN)
    return v.ptr + m[:, None] * v.stride[0] + n[None, :] * v.stride[1]


@triton.jit
def copy_scaled(src, dst, s, BM: tl.constexpr, BN: tl.constexpr):
    d = _make_view(dst.ptr, dst.shape, dst.stride)
    x = tl.load(_tile_ptrs(src, BM, BN), mask=_tile_mask(src, BM, BN), other=0.0)
    sc = Scale(s[0])                               # add takes its default
    tl.store(_tile_ptrs(d, BM, BN), x * sc.mul + sc.add + s.add, mask=_tile_mask(d, BM, BN))


def test_named_tuple_arguments_and_values():
    x = torch.randn(20, 24)
    y = torch.zeros(12, 10)
    copy_scaled[(1,)](View(x, x.shape, x.stride()), View(y, y.shape, y.stride()), Scale(2.5, 1.0), 32, 32)
    torch.testing.assert_close(y, x[:12, :10] * 2.5 + 1.0, rtol=0, atol=0)


@triton.jit
def running_mean(X, Out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = Acc(tl.zeros((BLOCK,), tl.float32), tl.zeros((BLOCK,), tl.int32))
    for i in range(n):                             # a named tuple carried by a runtime loop
        acc = Acc(acc.total + tl.load(X + i * BLOCK + offs), acc.count + 1)
    total, count = acc
    tl.store(Out + offs, total / count.to(tl.float32))


def test_named_tuple_carried_by_a_loop():
    x = torch.randn(5, 16)
    out = torch.empty(16)
    running_mean[(1,)](x, out, 5, BLOCK=16)
    torch.testing.assert_close(out, x.mean(0), rtol=1e-6, atol=1e-6)


@triton.jit
def twice(x, a):
    return x * 2 + a


TOP_TWICE = twice


@triton.jit
def twice_plus_one(x):
    return twice(x, 1)


@triton.jit
def apply_fn(X, Y, F: tl.constexpr, args, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(Y + offs, F(tl.load(X + offs), *args))


@triton.jit
def apply_closure(X, Y, closure, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    tl.store(Y + offs, closure.fn(x, *closure.captured) + twice_plus_one(x))


class Closure(NamedTuple):
    fn: tl.constexpr
    captured: tuple


def test_jit_function_arguments():
    x = torch.randn(32)
    y = torch.empty(32)
    apply_fn[(1,)](x, y, TOP_TWICE, (3.0,), BLOCK=32)             # a top-level function of this file
    torch.testing.assert_close(y, x * 2 + 3.0, rtol=0, atol=0)

    @triton.jit
    def twice(x, a, b):                                          # nested, and shadowing the top-level name
        return x * a - b

    # test_tuple.py's test_namedtuple pattern; twice_plus_one still calls the top-level twice
    apply_closure[(1,)](x, y, Closure(twice, (4.0, 1.5)), BLOCK=32)
    torch.testing.assert_close(y, x * 4.0 - 1.5 + (x * 2 + 1), rtol=0, atol=0)
    w = torch.tensor([0.5])

    @triton.jit
    def scaled(x, p):
        return x * tl.load(p)

    apply_fn[(1,)](x, y, scaled, (w,), BLOCK=32)
    torch.testing.assert_close(y, x * 0.5, rtol=0, atol=0)


def test_jit_function_from_another_file(tmp_path, monkeypatch):
    (tmp_path / "ntuple_helpers_mod.py").write_text(textwrap.dedent("""\
        import triton
        import triton.language as tl

        OFFSET = tl.constexpr(7)


        @triton.jit
        def shifted(x, a):
            return x * a + OFFSET
        """))
    monkeypatch.syspath_prepend(str(tmp_path))
    import ntuple_helpers_mod
    try:
        x = torch.randn(32)
        y = torch.empty(32)
        apply_fn[(1,)](x, y, ntuple_helpers_mod.shifted, (-2.0,), BLOCK=32)
        torch.testing.assert_close(y, x * -2.0 + 7, rtol=0, atol=0)
    finally:
        sys.modules.pop("ntuple_helpers_mod", None)


@triton.jit
def count_kernel(Out, T, U):
    tl.store(Out, len(T) * 10 + len(U))


def test_empty_tuple_argument():
    out = torch.zeros(1, dtype=torch.int32)
    count_kernel[(1,)](out, (), (1, 2, 3))
    assert out.item() == 3


@triton.jit
def bad_field_kernel(Out, v):
    tl.store(Out, v.nosuch)


def test_unknown_field_is_a_located_error():
    out = torch.zeros(1)
    with pytest.raises(Exception) as e:
        bad_field_kernel[(1,)](out, View(out, out.shape, out.stride()))
    assert "has no attribute 'nosuch'" in str(e.value)
    assert "test_named_tuples.py:%d" % (bad_field_kernel.fn.__code__.co_firstlineno + 2) in str(e.value)
