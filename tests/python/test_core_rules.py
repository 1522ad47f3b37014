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


@triton.jit
def ptr_where_kernel(C, A, B, Out, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(A + offs).to(tl.pi32_t)          # int64 values as int32 pointers, never dereferenced
    b = tl.load(B + offs).to(tl.pi32_t)
    tl.store(Out + offs, tl.where(tl.load(C + offs), a, b))


def test_pi32_t_pointer_values():
    rs = np.random.RandomState(5)
    a = rs.randint(-2**62, 2**62, 64, dtype=np.int64)
    b = rs.randint(-2**62, 2**62, 64, dtype=np.int64)
    c = rs.randint(0, 2, 64).astype(bool)
    out = torch.zeros(64, dtype=torch.int64)
    ptr_where_kernel[(1,)](torch.from_numpy(c), torch.from_numpy(a), torch.from_numpy(b), out, N=64)
    np.testing.assert_array_equal(out.numpy(), np.where(c, a, b))


@triton.jit
def umulhi_kernel(X, Y, Z, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(Z + offs, tl.umulhi(tl.load(X + offs), tl.load(Y + offs)))


@pytest.mark.parametrize("xd,yd", [("int32", "int32"), ("int64", "int64"), ("uint64", "uint64"), ("int32", "uint32")])
def test_umulhi_widths(xd, yd):
    # math.py umulhi: int32/int64/uint32/uint64, promoted; the high half of the unsigned product
    rs = np.random.RandomState(7)
    x = rs.randint(np.iinfo(xd).min, np.iinfo(xd).max, 32, dtype=np.int64 if xd != "uint64" else np.uint64).astype(xd)
    y = rs.randint(np.iinfo(yd).min, np.iinfo(yd).max, 32, dtype=np.int64 if yd != "uint64" else np.uint64).astype(yd)
    zd = np.result_type(x.dtype, y.dtype) if xd[-2:] == yd[-2:] and xd[0] == yd[0] else np.dtype(yd)
    bits = zd.itemsize * 8
    z = torch.from_numpy(np.zeros(32, dtype=zd))
    umulhi_kernel[(1,)](torch.from_numpy(x), torch.from_numpy(y), z, N=32)
    mask = (1 << bits) - 1
    ref = [((int(a) & mask) * (int(b) & mask)) >> bits for a, b in zip(x, y)]
    got = [int(v) & mask for v in z.numpy()]
    assert got == ref


@triton.jit
def static_range_kernel(Z, N: tl.constexpr, STEP: tl.constexpr):
    acc = 0
    for i in tl.static_range(1, N, step=STEP):
        acc += i
    for j in tl.range(0, N, step=STEP, num_stages=2):
        acc += 1000 * j
    tl.store(Z, acc)


def test_range_step_keyword():
    z = torch.zeros(1, dtype=torch.int32)
    static_range_kernel[(1,)](z, N=50, STEP=7)
    assert z.item() == sum(range(1, 50, 7)) + 1000 * sum(range(0, 50, 7))


@triton.jit
def hasattr_kernel(x, Out):
    v = 0
    if x is not None and hasattr(x, "dtype") and isinstance(x.dtype, tl.pointer_type):
        v = tl.load(x) + getattr(x, "missing", 100)
    tl.store(Out, v)


def test_hasattr_getattr():
    out = torch.zeros(1, dtype=torch.int32)
    hasattr_kernel[(1,)](None, out)
    assert out.item() == 0
    hasattr_kernel[(1,)](7, out)          # a scalar: has a dtype, not a pointer one
    assert out.item() == 0
    hasattr_kernel[(1,)](torch.full((1,), 5, dtype=torch.int32), out)
    assert out.item() == 105


@triton.jit
def reduce_tuple1_kernel(X, Out, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    s, = tl.reduce((x, ), 0, _add)
    t = tl.reduce(x, 0, _add)
    tl.store(Out, s * 1000 + t)


@triton.jit
def _add(a, b):
    return a + b


def test_reduce_of_a_one_tuple_is_a_tuple():
    x = np.arange(16, dtype=np.int32)
    out = torch.zeros(1, dtype=torch.int32)
    reduce_tuple1_kernel[(1,)](torch.from_numpy(x), out, N=16)
    assert out.item() == int(x.sum()) * 1001


@triton.jit
def void_ternary_kernel(X, Out):
    pid = tl.program_id(0)
    tl.store(Out + pid, tl.load(X)) if pid % 2 == 0 else tl.store(Out + pid, tl.load(X + 1))


def test_ternary_of_two_stores():
    out = torch.zeros(4, dtype=torch.float32)
    void_ternary_kernel[(4,)](torch.tensor([3.0, 4.0]), out)
    assert out.tolist() == [3.0, 4.0, 3.0, 4.0]


@triton.jit
def abs_kernel(X, Z, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(Z + offs, tl.abs(tl.load(X + offs)))


@pytest.mark.parametrize("dt", [tl.float8e4nv, tl.float8e5, tl.float8e4b15])
def test_abs_fp8_clears_the_sign_bit(dt):
    codes = torch.arange(-128, 128, dtype=torch.int16).to(torch.int8)
    out = torch.empty(256, dtype=torch.int8)
    abs_kernel[(1,)](triton.reinterpret(codes, dt), triton.reinterpret(out, dt), N=256)
    np.testing.assert_array_equal(out.numpy(), codes.numpy() & np.int8(0x7f))


@triton.jit
def u2f_kernel(X, Out, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(Out + offs, tl.random.uint_to_uniform_float(tl.load(X + offs)))


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_uint_to_uniform_float_widths(dtype):
    info = np.iinfo(dtype)
    x = np.array([info.min, info.max, 0, 1, info.max // 3, -1, info.min + 1, 12345], dtype=dtype)
    out = torch.zeros(8, dtype=torch.float32)
    u2f_kernel[(1,)](torch.from_numpy(x), out, N=8)
    # random.py: signed view, x < 0 -> -x - 1, times 2**-63 * (1 - 2**-23) (2**-31 for 32 bits)
    s = x.view(np.int64 if x.itemsize == 8 else np.int32).astype(object)
    s = [(-v - 1) if v < 0 else v for v in s]
    scale = np.float32(1.0842020432385337e-19) if x.itemsize == 8 else np.float32(4.6566127342e-10)
    ref = np.array([np.float32(v) * scale for v in s], dtype=np.float32)
    np.testing.assert_array_equal(out.numpy(), ref)
    assert out.numpy().max() < 1.0


@triton.jit
def same_value_kernel(X, Out, Ref, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs)
    tl.store(Out + offs, tl.minimum(x, 0.5))        # every program stores the same values
    tl.store(Ref, tl.num_programs(0))


@triton.jit
def load_store_back_kernel(P):
    a = tl.load(P)                                  # every program reads P[0] and stores it back
    tl.store(P, a)


@triton.jit
def keep_then_change_kernel(P, Out):
    pid = tl.program_id(0)
    if pid == 0:
        tl.store(P, tl.load(P))                     # keeps P[0]
    else:
        tl.store(P, tl.load(P) + 1.0)               # changes it: the order decides the result


@triton.jit
def change_then_read_kernel(P, Out):
    pid = tl.program_id(0)
    if pid == 0:
        tl.store(P, 7.0)                            # changes P[0]
    else:
        tl.store(P, 7.0)                            # the same value again: no conflict with program 0
        tl.store(Out + pid, tl.load(P + 1))         # reads an element nobody writes


def test_stores_of_one_value_are_not_races():
    x = torch.linspace(-1, 1, 64)
    out, ref = torch.zeros(64), torch.zeros(1, dtype=torch.int32)
    same_value_kernel[(16,)](x, out, ref, N=64)
    assert torch.equal(out, torch.minimum(x, torch.tensor(0.5))) and ref.item() == 16
    p = torch.zeros(4)
    load_store_back_kernel[(2,)](p)
    assert p.tolist() == [0.0] * 4
    p, o = torch.zeros(4), torch.zeros(4)
    change_then_read_kernel[(4,)](p, o)
    assert p[0].item() == 7.0


def test_a_store_that_changes_a_kept_value_is_a_race():
    p, o = torch.zeros(2), torch.zeros(2)
    with pytest.raises(tritium.KernelError) as e:
        keep_then_change_kernel[(2,)](p, o)
    assert e.value.stats["races"] >= 1
