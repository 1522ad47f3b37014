"""Language rules of Triton 3.6's core.py / code_generator.py that real
kernels lean on, in interp mode, each checked against numpy (pytest; run by
meson test --suite python)."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")
triton = pytest.importorskip("triton")
import triton.language as tl  # noqa: E402

import tritium  # noqa: E402

tritium.enable("interp")


@triton.jit
def shr_kernel(X, Y, Z, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(Z + offs, tl.load(X + offs) >> tl.load(Y + offs))


@pytest.mark.parametrize("xd,yd", [("int8", "uint8"), ("int16", "uint32"), ("int32", "uint32"), ("uint16", "int16")])
def test_rshift_signedness_follows_left_operand(xd, yd):
    # core.py tensor.__rshift__: ashr when self is signed, lshr otherwise,
    # on the promoted type (int8 >> uint8 computes in uint8, arithmetically)
    rs = np.random.RandomState(3)
    bx, by = np.dtype(xd).itemsize * 8, np.dtype(yd).itemsize * 8
    bw = max(bx, by)
    x = rs.randint(np.iinfo(xd).min, np.iinfo(xd).max, 64, dtype=np.int64).astype(xd)
    y = rs.randint(0, min(bx, by), 64).astype(yd)
    z = np.empty(64, dtype=f"int{bw}" if xd.startswith("int") else f"uint{bw}")
    zt = torch.from_numpy(z)
    shr_kernel[(1,)](torch.from_numpy(x), torch.from_numpy(y), zt, N=64)
    ref = x.astype(z.dtype) >> y.astype(z.dtype)
    np.testing.assert_array_equal(zt.numpy(), ref)


@triton.jit
def item_cas_kernel(Lock, Out, DT: tl.constexpr):
    zero = tl.full((1, ), 0, dtype=DT).item()
    one = tl.full((1, 1), 1, dtype=DT).item()
    old = tl.atomic_cas(Lock, zero, one)
    tl.store(Out, old + one)


def test_item_is_a_scalar():
    lock = torch.zeros(1, dtype=torch.int64)
    out = torch.zeros(1, dtype=torch.int64)
    item_cas_kernel[(1,)](lock, out, tl.int64)
    assert lock.item() == 1 and out.item() == 1


@triton.jit
def item_bad_kernel(X):
    v = tl.load(X + tl.arange(0, 2)).item()
    tl.store(X, v)


def test_item_of_two_elements_is_an_error():
    with pytest.raises(Exception, match="single-element"):
        item_bad_kernel[(1,)](torch.zeros(2))


@triton.jit
def if_one_element_kernel(X, Out):
    c = tl.load(X + tl.arange(0, 1)) > 10
    if c:
        tl.store(Out, 1)
    else:
        tl.store(Out, 2)


def test_if_on_a_one_element_tensor_unsplats():
    for v, want in ((11, 1), (9, 2)):
        out = torch.zeros(1, dtype=torch.int32)
        if_one_element_kernel[(1,)](torch.full((1,), v, dtype=torch.int32), out)
        assert out.item() == want


@triton.jit
def scalar_index_kernel(Z, X, N: tl.constexpr):
    s = tl.sum(tl.load(X + tl.arange(0, N)), axis=None, keep_dims=True)   # shape (1,)
    p = Z[None, None, :]           # 0-d pointer: two Nones give 1x1, ':' is a no-op
    tl.store(p, s[:, None])


def test_colon_on_a_scalar_is_a_no_op():
    x = torch.arange(8, dtype=torch.float32)
    z = torch.zeros(1)
    scalar_index_kernel[(1,)](z, x, N=8)
    assert z.item() == 28.0


@triton.jit
def reshape_const_kernel(Z, X, N: tl.constexpr, SHAPE: tl.constexpr, NESTED: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    z = tl.reshape(x, SHAPE)                       # a tuple constexpr from the host
    rows = tl.arange(0, SHAPE[0])[:, None] * SHAPE[1] + tl.arange(0, SHAPE[1])[None, :]
    tl.store(Z + rows, z * NESTED[1][0] + NESTED[0])


def test_tuple_constexpr_arguments():
    x = np.arange(32, dtype=np.int32)
    for shape in ((4, 8), (8, 4)):
        z = torch.zeros(32, dtype=torch.int32)
        reshape_const_kernel[(1,)](z, torch.from_numpy(x), N=32, SHAPE=shape, NESTED=(5, (3, 7)))
        np.testing.assert_array_equal(z.numpy(), x.reshape(shape).ravel() * 3 + 5)
