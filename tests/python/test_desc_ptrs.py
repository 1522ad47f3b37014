"""Host TensorDescriptors and pointer tables (issue 8, launch-spec
additions): through `tritium run` launch specs (desc(X, block=[...]),
ptrs(A, B, ...), --tensor) and through the Python entry point (Triton 3.6's
triton.tools.tensor_descriptor.TensorDescriptor, int64 tensors of
data_ptr()s), each checked against numpy or torch, plus the bounds checks
that must still name the right buffer."""
import os
import subprocess
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch")
triton = pytest.importorskip("triton")
import triton.language as tl  # noqa: E402
from triton.tools.tensor_descriptor import TensorDescriptor  # noqa: E402

import tritium  # noqa: E402

tritium.enable("interp")

HERE = os.path.abspath(__file__)


@triton.jit
def desc_copy2d(in_desc, out_desc, BM: tl.constexpr, BN: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    x = in_desc.load([pm * BM, pn * BN])
    out_desc.store([pm * BM, pn * BN], x * 2)


@triton.jit
def desc_pad_dump(in_desc, out_ptr, BM: tl.constexpr, BN: tl.constexpr):
    # the block at (pm*BM, pn*BN), padding included, dumped densely
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    x = in_desc.load([pm * BM, pn * BN])
    r = tl.arange(0, BM)[:, None]
    c = tl.arange(0, BN)[None, :]
    base = (pm * tl.num_programs(1) + pn) * BM * BN
    tl.store(out_ptr + base + r * BN + c, x)


@triton.jit
def desc_meta(in_desc, out_ptr):
    # the descriptor's shape and strides as the kernel sees them
    tl.store(out_ptr + 0, in_desc.shape[0])
    tl.store(out_ptr + 1, in_desc.shape[1])
    tl.store(out_ptr + 2, in_desc.strides[0])
    tl.store(out_ptr + 3, in_desc.strides[1])


@triton.jit
def ptr_gather(tab, out, N: tl.constexpr):
    g = tl.program_id(0)
    p = tl.load(tab + g).to(tl.pointer_type(tl.float32))
    offs = tl.arange(0, N)
    tl.store(out + g * N + offs, tl.load(p + offs))


def cli(*args):
    p = subprocess.run([sys.executable, "-m", "tritium", "run", *args], capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


# ---- launch specs ------------------------------------------------------------

def test_spec_desc_partial_blocks(tmp_path):
    rc, out = cli(HERE + ":desc_copy2d", "--grid", "3,2", "--tensor", "X=randn:f32[40,48]",
                  "--tensor", "Y=full(7):f32[40,48]", "--arg", "in_desc=desc(X, block=[16,32])",
                  "--arg", "out_desc=desc(Y, block=[16, 32])", "--const", "BM=16", "--const", "BN=32",
                  "--save", "X=%s/x.npy" % tmp_path, "--save", "Y=%s/y.npy" % tmp_path)
    assert rc == 0, out
    x, y = np.load(tmp_path / "x.npy"), np.load(tmp_path / "y.npy")
    assert np.array_equal(y, 2 * x)          # rows 40..47 of the last block row are masked off


@pytest.mark.parametrize("pad", ["zero", "nan"])
def test_spec_desc_padding_and_view(tmp_path, pad):
    # a [6, 20] view (shape=, strides=) of a [6, 24] storage: blocks of 4x16 pad
    # past row 6 and column 20 with `pad`
    rc, out = cli(HERE + ":desc_pad_dump", "--grid", "2,2", "--tensor", "X=randn:f32[6,24]",
                  "--arg", 'in_desc=desc(X, block=[4,16], shape=[6,20], strides=[24,1], padding="%s")' % pad,
                  "--arg", "out_ptr=zeros:f32[256]", "--const", "BM=4", "--const", "BN=16",
                  "--save", "X=%s/x.npy" % tmp_path, "--save", "out_ptr=%s/o.npy" % tmp_path)
    assert rc == 0, out
    x, o = np.load(tmp_path / "x.npy"), np.load(tmp_path / "o.npy").reshape(2, 2, 4, 16)
    fill = np.nan if pad == "nan" else 0.0
    ref = np.full((8, 32), fill, dtype=np.float32)
    ref[:6, :20] = x[:, :20]
    for pm in range(2):
        for pn in range(2):
            np.testing.assert_array_equal(o[pm, pn], ref[pm * 4:pm * 4 + 4, pn * 16:pn * 16 + 16])


def test_spec_desc_out_of_bounds_names_the_tensor():
    # a descriptor claiming more rows than X has: the loads past X fault, naming X
    rc, out = cli(HERE + ":desc_copy2d", "--grid", "3,2", "--tensor", "X=randn:f32[40,48]",
                  "--tensor", "Y=zeros:f32[48,48]", "--arg", "in_desc=desc(X, block=[16,32], shape=[48,48])",
                  "--arg", "out_desc=desc(Y, block=[16,32])", "--const", "BM=16", "--const", "BN=32")
    assert rc == 1, out
    assert "reads X[40, 0], but X has 1920 elements" in out


@pytest.mark.parametrize("spec,msg", [
    ("desc(X, block=[16,24])", "powers of two"),
    ("desc(X, block=[16,32], shape=[40,48], strides=[47,1])", "multiple of 16 bytes"),
    ("desc(X, block=[16,32], shape=[40,48], strides=[48,2])", "last stride must be 1"),
    ("desc(X)", "needs a block shape"),
    ("desc(Z, block=[16,32])", "'Z' names no parameter"),
    ("desc(X, block=[16,32], pad=1)", "no setting 'pad'"),
])
def test_spec_desc_errors(spec, msg):
    rc, out = cli(HERE + ":desc_copy2d", "--grid", "1", "--tensor", "X=randn:f32[40,48]",
                  "--arg", "in_desc=" + spec, "--arg", "out_desc=desc(X, block=[16,32])",
                  "--const", "BM=16", "--const", "BN=32")
    assert rc == 2 and msg in out, out


def test_spec_ptrs(tmp_path):
    rc, out = cli(HERE + ":ptr_gather", "--grid", "3", "--tensor", "A=randn:f32[16]", "--tensor", "B=randn:f32[16]",
                  "--arg", "out=zeros:f32[48]", "--tensor", "C=randn:f32[20]", "--arg", "tab=ptrs(B, C, A)",
                  "--const", "N=16", "--save", "A=%s/a.npy" % tmp_path, "--save", "B=%s/b.npy" % tmp_path,
                  "--save", "C=%s/c.npy" % tmp_path, "--save", "out=%s/o.npy" % tmp_path)
    assert rc == 0, out
    a, b, c, o = (np.load(tmp_path / (n + ".npy")) for n in "abco")
    np.testing.assert_array_equal(o, np.concatenate([b, c[:16], a]))


def test_spec_ptrs_fault_names_the_target():
    rc, out = cli(HERE + ":ptr_gather", "--grid", "3", "--tensor", "A=randn:f32[16]", "--tensor", "S=randn:f32[8]",
                  "--arg", "tab=ptrs(A, S, A)", "--arg", "out=zeros:f32[48]", "--const", "N=16")
    assert rc == 1, out
    assert "program (1, 0, 0)" in out and "reads S[8], but S has 8 elements" in out and "8 lanes" in out


# ---- the Python entry point --------------------------------------------------

def test_python_host_descriptor():
    x = torch.randn(40, 48)
    y = torch.full((40, 48), 7.0)
    dx = TensorDescriptor.from_tensor(x, [16, 32])
    dy = TensorDescriptor(y, shape=[40, 48], strides=[48, 1], block_shape=[16, 32])
    desc_copy2d[(3, 2)](dx, dy, BM=16, BN=32)
    assert torch.equal(y, 2 * x)
    m = torch.zeros(4, dtype=torch.int64)
    desc_meta[(1,)](TensorDescriptor(x, shape=[33, 40], strides=[48, 1], block_shape=[16, 32]), m)
    assert m.tolist() == [33, 40, 48, 1]


def test_python_host_descriptor_view_and_nan():
    s = torch.randn(6, 24)
    out = torch.zeros(256)
    d = TensorDescriptor(s, shape=[6, 20], strides=[24, 1], block_shape=[4, 16], padding="nan")
    desc_pad_dump[(2, 2)](d, out, BM=4, BN=16)
    ref = torch.full((8, 32), float("nan"))
    ref[:6, :20] = s[:, :20]
    o = out.view(2, 2, 4, 16)
    for pm in range(2):
        for pn in range(2):
            torch.testing.assert_close(o[pm, pn], ref[pm * 4:pm * 4 + 4, pn * 16:pn * 16 + 16], equal_nan=True,
                                       rtol=0, atol=0)


def test_python_host_descriptor_fault():
    x = torch.randn(40, 48)
    y = torch.zeros(48, 48)
    bad = TensorDescriptor(x, shape=[48, 48], strides=[48, 1], block_shape=[16, 32])
    with pytest.raises(tritium.KernelError) as e:
        desc_copy2d[(3, 2)](bad, TensorDescriptor.from_tensor(y, [16, 32]), BM=16, BN=32)
    assert "but in_desc has 1920 elements" in str(e.value)


def test_python_pointer_table():
    # tutorial 08's pattern: an int64 tensor of data_ptr()s of tensors that are
    # not kernel arguments
    group = [torch.randn(16), torch.randn(32), torch.randn(16)]
    tab = torch.tensor([t.data_ptr() for t in group])
    out = torch.zeros(48)
    ptr_gather[(3,)](tab, out, N=16)
    assert torch.equal(out, torch.cat([group[0], group[1][:16], group[2]]))
    assert tab.tolist() == [t.data_ptr() for t in group]          # the caller's table is untouched


def test_python_pointer_table_fault():
    short = torch.randn(8)
    group = [torch.randn(16), short, torch.randn(16)]
    tab = torch.tensor([t.data_ptr() for t in group])
    with pytest.raises(tritium.KernelError) as e:
        ptr_gather[(3,)](tab, torch.zeros(48), N=16)
    assert "program (1, 0, 0)" in str(e.value) and "has 8 elements" in str(e.value)


@triton.jit
def i64_plus_one(x, y, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(y + offs, tl.load(x + offs) + 1)


def test_python_int64_data_is_not_a_pointer_table():
    # large int64 values that are no live tensor's address (and an output
    # full of garbage) are plain data; as in test_core's test_abs[int64]
    x = torch.tensor([2**40 + 3, 0, -5, 2**62, 1 << 33, 7, 2**50, 9])
    y = torch.empty(8, dtype=torch.int64)
    i64_plus_one[(1,)](x, y, N=8)
    assert y.tolist() == [v + 1 for v in x.tolist()]


def test_python_reinterpreted_uint_argument():
    # triton.reinterpret(x, tl.uint64): a TensorWrapper over an int64 tensor
    x = torch.tensor([2**63 - 1, 2**40, 1, 0, 5, 6, 7, 8])
    y = torch.empty(8, dtype=torch.int64)
    i64_plus_one[(1,)](triton.reinterpret(x, tl.uint64), triton.reinterpret(y, tl.uint64), N=8)
    assert [v & (2**64 - 1) for v in y.tolist()] == [(v + 1) & (2**64 - 1) for v in x.tolist()]


# ---- descriptor methods on host and device descriptors ----------------------

@triton.jit
def desc_reduce(out_desc, out_ptr, x_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr, KIND: tl.constexpr):
    # a host descriptor, or (out_desc=None) one made in the kernel
    pm = tl.program_id(0) * BM
    pn = tl.program_id(1) * BN
    x = tl.load(x_ptr + (pm + tl.arange(0, BM))[:, None] * N + (pn + tl.arange(0, BN))[None, :])
    if out_desc is None:
        d = tl.make_tensor_descriptor(out_ptr, [M, N], [N, 1], [BM, BN])
    else:
        d = out_desc
    if KIND == "add":
        d.atomic_add([pm, pn], x)
    else:
        d.atomic_max([pm, pn], x)


@pytest.mark.parametrize("host", [True, False])
@pytest.mark.parametrize("kind", ["add", "max"])
def test_python_descriptor_atomics(host, kind):
    g = torch.Generator().manual_seed(5)
    x = torch.randint(-100, 100, (16, 64), dtype=torch.int32, generator=g)
    out = torch.randint(-100, 100, (16, 64), dtype=torch.int32, generator=g)
    ref = x.numpy() + out.numpy() if kind == "add" else np.maximum(x.numpy(), out.numpy())
    d = TensorDescriptor.from_tensor(out, [8, 32]) if host else None
    desc_reduce[(2, 2)](d, out, x, 16, 64, BM=8, BN=32, KIND=kind)
    np.testing.assert_array_equal(out.numpy(), ref)


@triton.jit
def desc_rows(src_desc, dst_desc, idx_ptr, y, BX: tl.constexpr):
    # dst rows idx[i] = src rows idx[i], columns y .. y + block
    idx = tl.load(idx_ptr + tl.arange(0, BX))
    dst_desc.scatter(src_desc.gather(idx, y), idx, y)


def test_python_host_descriptor_gather_scatter():
    src = torch.randn(12, 48, dtype=torch.float16)
    dst = torch.zeros(12, 48, dtype=torch.float16)
    idx = torch.tensor([11, 0, 5, 12, 3, 7, 1, 9], dtype=torch.int32)   # 12: outside, neither read nor written
    desc_rows[(1,)](TensorDescriptor.from_tensor(src, [1, 32]), TensorDescriptor.from_tensor(dst, [1, 32]), idx, 16, BX=8)
    ref = torch.zeros(12, 48, dtype=torch.float16)
    for r in idx.tolist():
        if r < 12:
            ref[r, 16:48] = src[r, 16:48]
    assert torch.equal(dst, ref)


@triton.jit
def desc_wide_store(desc, BM: tl.constexpr, BN: tl.constexpr):
    # f32 values stored through an f16 descriptor: cast as desc.store does
    m = tl.program_id(0) * BM
    v = (m + tl.arange(0, BM))[:, None] * 1000 + tl.arange(0, BN)[None, :]
    desc.store([m, 0], v.to(tl.float32) / 8)


def test_python_host_descriptor_block_past_256():
    y = torch.zeros(4, 640, dtype=torch.float16)
    desc_wide_store[(2,)](TensorDescriptor(y, [4, 600], [640, 1], [2, 1024]), BM=2, BN=1024)
    ref = torch.zeros(4, 640, dtype=torch.float16)
    ref[:, :600] = (torch.arange(4)[:, None] * 1000 + torch.arange(600)[None, :]).float().div(8).half()
    assert torch.equal(y, ref)


TABLE_PROG = '''
import torch, triton, triton.language as tl

@triton.jit
def scatter_pid(tab, out, N: tl.constexpr):
    g = tl.program_id(0)
    p = tl.load(tab + g % 2).to(tl.pointer_type(tl.int32))
    tl.store(p + tl.arange(0, N), g + tl.arange(0, N) * 0)      # RACE: programs g and g + 2 share a target
    tl.store(out + g, g)

a, b = torch.zeros(8, dtype=torch.int32), torch.zeros(8, dtype=torch.int32)
out = torch.zeros(4, dtype=torch.int32)
scatter_pid[(GRID,)](torch.tensor([a.data_ptr(), b.data_ptr()]), out, N=8)
print("program ok")
'''


@pytest.mark.parametrize("grid, agree", [(2, True), (4, False)])
def test_check_mode_compares_pointer_table_targets(tmp_path, grid, agree):
    # check mode stages the tensors behind a pointer table and compares them:
    # with 4 programs, two write each target, so the reverse order differs there
    prog = tmp_path / "table.py"
    prog.write_text(TABLE_PROG.replace("GRID", str(grid)))
    env = dict(os.environ)
    env.pop("TRITIUM_MODE", None)
    env["PYTHONPATH"] = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(HERE))), "python")
    p = subprocess.run([sys.executable, "-m", "tritium", "--mode", "check", "--against", "reverse", str(prog)],
                       capture_output=True, text=True, env=env)
    assert "program ok" in p.stdout, p.stderr
    assert "1 checked, %d disagree or fault" % (0 if agree else 1) in p.stderr, p.stderr
    assert p.returncode == (0 if agree else 1)
    if not agree:
        assert "__table_target_0 i32[8]  MISMATCH" in p.stderr, p.stderr
        assert "__table_target_1 i32[8]  MISMATCH" in p.stderr, p.stderr


@triton.jit
def desc_copy5(in_desc, out_desc):
    out_desc.store([0, 0, 0, 0, 0], in_desc.load([0, 0, 0, 0, 0]) * 2)


def test_spec_desc_rank5(tmp_path):
    # a rank-5 host descriptor (TMA's and Triton's most): the [2, 1, 4, 8, 32]
    # block reaches past the [2, 1, 3, 5, 20] tensor, whose every element doubles
    rc, out = cli(HERE + ":desc_copy5", "--grid", "1", "--tensor", "X=randn:f32[2,1,3,5,20]",
                  "--tensor", "Y=full(7):f32[2,1,3,5,20]", "--arg", "in_desc=desc(X, block=[2,1,4,8,32])",
                  "--arg", "out_desc=desc(Y, block=[2,1,4,8,32])",
                  "--save", "X=%s/x.npy" % tmp_path, "--save", "Y=%s/y.npy" % tmp_path)
    assert rc == 0, out
    assert np.array_equal(np.load(tmp_path / "y.npy"), 2 * np.load(tmp_path / "x.npy"))


def test_spec_desc_rank6_is_an_error():
    # tools/tensor_descriptor.py: "rank cannot be more than 5"
    rc, out = cli(HERE + ":desc_copy5", "--grid", "1", "--tensor", "X=randn:f32[1,2,1,3,5,20]",
                  "--arg", "in_desc=desc(X, block=[1,2,1,4,8,32])", "--arg", "out_desc=desc(X, block=[1,2,1,4,8,32])")
    assert rc == 2 and "rank 6, but a TensorDescriptor has at most 5 dims" in out, out


# ---- host descriptors inside tuple arguments -----------------------------------
# (Triton specializes a tuple element by element, jit.py; a TensorDescriptor
# element is a descriptor in the kernel, its shape and strides parameters of
# their own: "descs[0].shape[0]", ...)

@triton.jit
def desc_tuple_copy(descs, BM: tl.constexpr, BN: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    x = descs[0].load([pm * BM, pn * BN])
    descs[1].store([pm * BM, pn * BN], x * 2 + 1)


def test_python_tuple_of_descriptors():
    x = torch.randn(40, 48)
    y = torch.full((40, 48), 7.0)
    desc_tuple_copy[(3, 2)]((TensorDescriptor.from_tensor(x, [16, 32]), TensorDescriptor.from_tensor(y, [16, 32])),
                            BM=16, BN=32)
    assert torch.equal(y, x * 2 + 1)


@triton.jit
def desc_tuple_nested(t, out_ptr, BM: tl.constexpr, BN: tl.constexpr):
    # t = (scale_tensor, (in_desc, (n, MUL)), out_desc): descriptors at depth 1 and 2 with
    # a tensor, an int and a constexpr around them; their shapes as the kernel sees them
    pm = tl.program_id(0)
    src = t[1][0]
    x = src.load([pm * BM, 0]) * tl.load(t[0]) * t[1][1][1] + t[1][1][0]
    t[2].store([pm * BM, 0], x)
    if pm == 0:
        tl.store(out_ptr + 0, src.shape[0])
        tl.store(out_ptr + 1, src.shape[1])
        tl.store(out_ptr + 2, t[2].shape[0])
        tl.store(out_ptr + 3, t[2].strides[0])


def test_python_nested_tuple_with_descriptors_tensor_int_constexpr():
    x = torch.randn(24, 32)
    y = torch.zeros(24, 40)                  # a [24, 32] view of y's first 32 columns, stride 40
    scale = torch.tensor([3.0])
    meta = torch.zeros(4, dtype=torch.int64)
    dy = TensorDescriptor(y, shape=[24, 32], strides=[40, 1], block_shape=[8, 32])
    t = (scale, (TensorDescriptor.from_tensor(x, [8, 32]), (5, tl.constexpr(2))), dy)
    desc_tuple_nested[(3,)](t, meta, BM=8, BN=32)
    ref = torch.zeros(24, 40)
    ref[:, :32] = x * 3 * 2 + 5
    assert torch.equal(y, ref)
    assert meta.tolist() == [24, 32, 24, 40]
    # the constexpr element is specialized: another value, another kernel
    y.zero_()
    t = (scale, (TensorDescriptor.from_tensor(x, [8, 32]), (5, tl.constexpr(4))), dy)
    desc_tuple_nested[(3,)](t, meta, BM=8, BN=32)
    ref[:, :32] = x * 3 * 4 + 5
    assert torch.equal(y, ref)


def test_python_named_tuple_of_descriptors():
    from typing import NamedTuple

    class IO(NamedTuple):
        src: object
        dst: object

    @triton.jit
    def nt_copy(io, BM: tl.constexpr, BN: tl.constexpr):
        pm = tl.program_id(0)
        io.dst.store([pm * BM, 0], io.src.load([pm * BM, 0]) - 1)

    x = torch.randn(32, 16)
    y = torch.zeros(32, 16)
    nt_copy[(2,)](IO(TensorDescriptor.from_tensor(x, [16, 16]), TensorDescriptor.from_tensor(y, [16, 16])), BM=16, BN=16)
    assert torch.equal(y, x - 1)


def test_python_tuple_descriptor_block_shape_is_specialized():
    # the same kernel with another block shape in the tuple: a new specialization (api/launch.c spec_key)
    for bm in (16, 8):
        x = torch.randn(40, 48)
        y = torch.zeros(40, 48)
        desc_tuple_copy[(40 // bm + 1, 2)]((TensorDescriptor.from_tensor(x, [bm, 32]),
                                             TensorDescriptor.from_tensor(y, [bm, 32])), BM=bm, BN=32)
        assert torch.equal(y, x * 2 + 1)


def test_python_tuple_descriptor_fault_names_the_element():
    x = torch.randn(40, 48)
    y = torch.zeros(48, 48)
    bad = TensorDescriptor(x, shape=[48, 48], strides=[48, 1], block_shape=[16, 32])
    with pytest.raises(tritium.KernelError) as e:
        desc_tuple_copy[(3, 2)]((bad, TensorDescriptor.from_tensor(y, [16, 32])), BM=16, BN=32)
    assert "but descs[0] has 1920 elements" in str(e.value)


def test_spec_tuple_of_descriptors(tmp_path):
    rc, out = cli(HERE + ":desc_tuple_copy", "--grid", "3,2", "--tensor", "X=randn:f32[40,48]",
                  "--tensor", "Y=full(7):f32[40,48]",
                  "--arg", "descs=(desc(X, block=[16,32]), desc(Y, block=[16, 32]))",
                  "--const", "BM=16", "--const", "BN=32",
                  "--save", "X=%s/x.npy" % tmp_path, "--save", "Y=%s/y.npy" % tmp_path)
    assert rc == 0, out
    x, y = np.load(tmp_path / "x.npy"), np.load(tmp_path / "y.npy")
    assert np.array_equal(y, 2 * x + 1)


CHECK_TUPLE_PROG = '''
import torch, triton, triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor

@triton.jit
def k(descs, BM: tl.constexpr):
    pm = tl.program_id(0)
    descs[1].store([pm * BM, 0], descs[0].load([pm * BM, 0]) + 1)

x, y = torch.randn(64, 16), torch.zeros(64, 16)
k[(4,)]((TensorDescriptor.from_tensor(x, [16, 16]), TensorDescriptor.from_tensor(y, [16, 16])), BM=16)
assert torch.equal(y, x + 1)
print("program ok")
'''


def test_check_mode_tuple_of_descriptors(tmp_path):
    # --mode check compares what the kernel wrote through descs[1] (its staging name) with the other run's
    prog = tmp_path / "p.py"
    prog.write_text(CHECK_TUPLE_PROG)
    p = subprocess.run([sys.executable, "-m", "tritium", "--mode", "check", "--against", "reverse", str(prog)],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "program ok" in p.stdout


# ---- TensorDescriptor(round_f32_to_tf32=True) (Triton 3.7+) ---------------------

HAS_TF32 = "round_f32_to_tf32" in getattr(TensorDescriptor, "__dataclass_fields__", {})
needs_tf32 = pytest.mark.skipif(not HAS_TF32, reason="TensorDescriptor(round_f32_to_tf32=) is Triton 3.7's")


def tf32_reference(a):
    """fp32 -> tf32, nearest-even at 10 mantissa bits, Inf and NaN unchanged:
    the rounding as numbers (numpy float64), not as Triton's bit formula."""
    a = np.asarray(a, dtype=np.float32)
    out = a.copy()
    fin = np.isfinite(a) & (a != 0)
    m, e = np.frexp(a[fin].astype(np.float64))      # a = m * 2**e, 0.5 <= |m| < 1
    # 11 significant bits; subnormals keep the same absolute grid as fp32's (2**-149 scaled by 2**13)
    q = np.maximum(e - 11, -149 + 13)
    with np.errstate(over="ignore"):                   # the largest finite values round to Inf
        out[fin] = (np.round(np.ldexp(m, e - q)) * np.exp2(q.astype(np.float64))).astype(np.float32)
    return out


def tf32_inputs():
    bits = np.array([
        0x3F800000, 0x3F801000, 0x3F803000, 0x3F801001, 0x3F802FFF,   # 1.0, ties to even (down, up), just above/below
        0xBF801000, 0xBF803000,                                       # negative ties
        0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001, 0xFFC12345,   # +-Inf, NaNs (payloads kept)
        0x00000001, 0x00001000, 0x00003000, 0x007FFFFF, 0x80001FFF,   # subnormals (ties, carry into the exponent)
        0x7F7FFFFF, 0x00000000, 0x80000000,                           # the largest finite (rounds to Inf), +-0
    ], dtype=np.uint32)
    rng = np.random.default_rng(7)
    rest = rng.integers(0, 2**32, 16 * 16 - len(bits), dtype=np.uint64).astype(np.uint32)
    return np.concatenate([bits, rest]).view(np.float32).reshape(16, 16)


@triton.jit
def desc_load_dump(d, out_ptr, B: tl.constexpr):
    o = tl.arange(0, B)[:, None] * B + tl.arange(0, B)[None, :]
    tl.store(out_ptr + o, d.load([0, 0]))


def test_tf32_reference_is_the_bit_formula():
    # the numeric reference against Triton 3.9's formula (runtime/interpreter.py _round_f32_to_tf32)
    a = tf32_inputs()
    bits = a.view(np.uint32)
    special = (bits & 0x7F800000) == 0x7F800000
    formula = np.where(special, bits, (bits + ((bits >> 13) & 1) + 0xFFF) & 0xFFFFE000).astype(np.uint32)
    got = tf32_reference(a).view(np.uint32)
    assert np.array_equal(got, formula)


@needs_tf32
def test_python_round_f32_to_tf32():
    x = torch.from_numpy(tf32_inputs())
    out = torch.zeros(16, 16)
    desc_load_dump[(1,)](TensorDescriptor.from_tensor(x, [16, 16], round_f32_to_tf32=True), out, B=16)
    want = tf32_reference(x.numpy())
    np.testing.assert_array_equal(out.numpy().view(np.uint32), want.view(np.uint32))
    # a plain descriptor does not round, and the flag is part of the specialization
    out2 = torch.zeros(16, 16)
    desc_load_dump[(1,)](TensorDescriptor.from_tensor(x, [16, 16]), out2, B=16)
    np.testing.assert_array_equal(out2.numpy().view(np.uint32), x.numpy().view(np.uint32))
    assert (out2.numpy().view(np.uint32) != want.view(np.uint32)).sum() > 200


@needs_tf32
def test_python_round_f32_to_tf32_in_a_tuple_stores_unrounded():
    # descs[0] rounds its loads; descs[1] (also rounding) stores x unrounded: stores are not rounded
    x = torch.from_numpy(tf32_inputs())
    src = torch.randn(16, 16)
    y = torch.zeros(16, 16)

    @triton.jit
    def k(descs):
        descs[1].store([0, 0], descs[0].load([0, 0]))

    @triton.jit
    def st(d, src_ptr):
        o = tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :]
        d.store([0, 0], tl.load(src_ptr + o))

    k[(1,)]((TensorDescriptor.from_tensor(x, [16, 16], round_f32_to_tf32=True),
             TensorDescriptor.from_tensor(y, [16, 16], round_f32_to_tf32=True)))
    np.testing.assert_array_equal(y.numpy().view(np.uint32), tf32_reference(x.numpy()).view(np.uint32))
    st[(1,)](TensorDescriptor.from_tensor(y, [16, 16], round_f32_to_tf32=True), src)
    assert torch.equal(y, src)


@needs_tf32
def test_python_round_f32_to_tf32_gather():
    x = torch.from_numpy(tf32_inputs())
    y = torch.zeros(16, 16)
    idx = torch.tensor([3, 0, 15, 7, 1, 2, 9, 4], dtype=torch.int32)

    @triton.jit
    def g(d, idx_ptr, out_ptr):
        rows = tl.load(idx_ptr + tl.arange(0, 8))
        o = tl.arange(0, 8)[:, None] * 16 + tl.arange(0, 16)[None, :]
        tl.store(out_ptr + o, d.gather(rows, 0))

    g[(1,)](TensorDescriptor.from_tensor(x, [1, 16], round_f32_to_tf32=True), idx, y)
    want = tf32_reference(x.numpy())[idx.numpy()]
    np.testing.assert_array_equal(y.numpy()[:8].view(np.uint32), want.view(np.uint32))


def test_round_f32_to_tf32_needs_float32():
    # TensorDescriptor asserts it (3.7+); libtritium refuses it too (tritium_launch_desc), for an
    # object that skipped the check: here one of the same name and fields over a float16 tensor
    import dataclasses

    @dataclasses.dataclass
    class TensorDescriptor:
        base: object
        shape: list
        strides: list
        block_shape: list
        padding: str = "zero"
        round_f32_to_tf32: bool = False

    x = torch.zeros(16, 16, dtype=torch.float16)
    with pytest.raises(tritium.UnsupportedLaunch, match="round_f32_to_tf32 is only supported for float32 tensors"):
        desc_load_dump[(1,)](TensorDescriptor(x, [16, 16], [16, 1], [16, 16], "zero", True), torch.zeros(256), B=16)


def test_spec_round_f32_to_tf32(tmp_path):
    np.save(tmp_path / "x.npy", tf32_inputs())
    rc, out = cli(HERE + ":desc_load_dump", "--grid", "1", "--tensor", "X=%s/x.npy" % tmp_path,
                  "--arg", "d=desc(X, block=[16, 16], round_f32_to_tf32=True)", "--arg", "out_ptr=zeros:f32[16,16]",
                  "--const", "B=16", "--save", "out_ptr=%s/o.npy" % tmp_path)
    assert rc == 0, out
    np.testing.assert_array_equal(np.load(tmp_path / "o.npy").view(np.uint32),
                                  tf32_reference(tf32_inputs()).view(np.uint32))
    rc, out = cli(HERE + ":desc_load_dump", "--grid", "1", "--tensor", "X=zeros:f16[16,16]",
                  "--arg", "d=desc(X, block=[16, 16], round_f32_to_tf32=True)", "--arg", "out_ptr=zeros:f32[16,16]",
                  "--const", "B=16")
    assert rc == 2 and "round_f32_to_tf32 is only supported for float32 tensors" in out, out
