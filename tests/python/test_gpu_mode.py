"""gpu mode's launch path (python/tritium/_gpu.py) without a GPU: libtritium
over the stand-in driver tests/gpu/fake_cuda.c ($FAKE_CUDA), which records
what cuLaunchKernel receives and runs nothing, with CPU tensors standing in
for device memory (CONFIG.gpu_host_tensors). Checked against independent
references: the parameter buffer against a ctypes.Structure of the same
fields (C's layout rules), the memo against the driver's module load
count and a count of tritium_gpu_prepare calls. Nothing here is timed."""
import ctypes
import importlib.util
import os

import pytest

torch = pytest.importorskip("torch")
triton = pytest.importorskip("triton")
import triton.language as tl  # noqa: E402

_spec = importlib.util.spec_from_file_location(
    "gpu_kernels", os.path.join(os.path.dirname(__file__), "..", "gpu", "kernels.py"))
_kernels = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_kernels)

FAKE = os.environ.get("FAKE_CUDA")
if not FAKE:
    pytest.skip("FAKE_CUDA is not set (meson test gpu_mode sets it)", allow_module_level=True)
os.environ["TRITIUM_LIBCUDA"] = FAKE


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, scale, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, (tl.load(x_ptr + offs, mask=m) + tl.load(y_ptr + offs, mask=m)) * scale, mask=m)


class Fake(ctypes.Structure):            # tests/gpu/fake_cuda.h's struct fake_cuda
    _fields_ = [("launches", ctypes.c_long), ("module_loads", ctypes.c_long),
                ("allocs", ctypes.c_long), ("syncs", ctypes.c_long), ("grid", ctypes.c_uint * 3),
                ("block", ctypes.c_uint), ("smem", ctypes.c_uint), ("stream", ctypes.c_void_p),
                ("used_extra", ctypes.c_int), ("param_size", ctypes.c_size_t), ("params", ctypes.c_ubyte * 4096),
                ("tmaps", ctypes.c_long)]


class FakeTmap(ctypes.Structure):         # fake_cuda.h's fake_tmap: what the stand-in encodes into a CUtensorMap
    _fields_ = [("dtype", ctypes.c_int), ("rank", ctypes.c_int), ("addr", ctypes.c_uint64),
                ("dims", ctypes.c_uint64 * 4), ("strides", ctypes.c_uint64 * 3), ("box", ctypes.c_uint32 * 4),
                ("swizzle", ctypes.c_int)]


desc_mm = _kernels.desc_mm                # C = A @ B through two host descriptors
dev_desc_mm = _kernels.dev_desc_mm        # the same through in-kernel descriptors


class DescParams(ctypes.Structure):       # two descriptors (base, shape i32 x2, strides i64 x2), c, M, N, K
    _fields_ = [(n + f, t) for n in "ab" for f, t in (("", ctypes.c_uint64), ("s0", ctypes.c_int32),
                                                      ("s1", ctypes.c_int32), ("t0", ctypes.c_int64),
                                                      ("t1", ctypes.c_int64))] + \
        [("c", ctypes.c_uint64), ("M", ctypes.c_int32), ("N", ctypes.c_int32), ("K", ctypes.c_int32)]


class AddParams(ctypes.Structure):        # x_ptr, y_ptr, out_ptr, n (i32), scale (f32)
    _fields_ = [("x", ctypes.c_uint64), ("y", ctypes.c_uint64), ("out", ctypes.c_uint64), ("n", ctypes.c_int32),
                ("scale", ctypes.c_float)]


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    os.environ["TRITIUM_CACHE_DIR"] = str(tmp_path_factory.mktemp("cache"))
    import tritium
    from tritium import _gpu, _lib
    tritium.enable("gpu", gpu_host_tensors=True)
    fn = ctypes.CDLL(FAKE).fake_cuda_state
    fn.restype = ctypes.POINTER(Fake)
    lib = _lib.lib()
    calls = {"prepare": 0}
    real = lib.tritium_gpu_prepare

    def counting(*a):
        calls["prepare"] += 1
        return real(*a)
    lib.tritium_gpu_prepare = counting
    yield fn().contents, _gpu, calls
    lib.tritium_gpu_prepare = real


def recorded(fake):
    return bytes(fake.params[:fake.param_size])


def test_buffer_matches_c_layout(env):
    fake, _gpu, _ = env
    x, y, out = torch.randn(1000), torch.randn(1000), torch.empty(1000)
    before = fake.launches
    k = add_kernel[(4,)](x, y, out, 1000, 2.5, BLOCK=256)
    assert fake.launches == before + 1 and fake.used_extra == 1
    ref = AddParams(x.data_ptr(), y.data_ptr(), out.data_ptr(), 1000, 2.5)
    assert recorded(fake) == bytes(ref)
    assert (fake.grid[0], fake.grid[1], fake.grid[2], fake.block) == (4, 1, 1, 128)
    assert k.metadata.num_warps == 4                       # what Triton's run returns, in kind


def test_warm_calls_do_not_compile(env):
    fake, _gpu, calls = env
    x, y, out = torch.randn(4096), torch.randn(4096), torch.empty(4096)
    add_kernel[(16,)](x, y, out, 4000, 1.0, BLOCK=256)     # n % 16 == 0: its own specialization
    loads, prep, compiles = fake.module_loads, calls["prepare"], _gpu.COUNTS["compiles"]
    launches = fake.launches
    for i in range(50):                                     # other values, same specialization
        n = 4000 - 16 * (i % 3)
        add_kernel[(lambda meta: (triton.cdiv(meta["n"], meta["BLOCK"]),))](x, y, out, n, float(i), BLOCK=256)
    assert fake.launches == launches + 50
    assert (fake.module_loads, calls["prepare"], _gpu.COUNTS["compiles"]) == (loads, prep, compiles)
    ref = AddParams(x.data_ptr(), y.data_ptr(), out.data_ptr(), 4000 - 16 * (49 % 3), 49.0)
    assert recorded(fake) == bytes(ref)
    assert fake.grid[0] == triton.cdiv(4000 - 16 * (49 % 3), 256)


def test_specializations(env):
    fake, _gpu, calls = env
    x, y, out = torch.randn(2048), torch.randn(2048), torch.empty(2048)
    add_kernel[(1,)](x, y, out, 1000, 1.0, BLOCK=256)
    c0 = _gpu.COUNTS["compiles"]
    add_kernel[(1,)](x, y, out, 1000, 1.0, BLOCK=512)      # a constexpr
    assert _gpu.COUNTS["compiles"] == c0 + 1
    add_kernel[(1,)](x[1:], y, out, 1000, 1.0, BLOCK=256)  # a pointer 4 bytes off 16-byte alignment
    assert _gpu.COUNTS["compiles"] == c0 + 2
    ref = AddParams(x[1:].data_ptr(), y.data_ptr(), out.data_ptr(), 1000, 1.0)
    assert recorded(fake) == bytes(ref)
    add_kernel[(1,)](x, y, out, 1, 1.0, BLOCK=256)         # an int equal to 1
    assert _gpu.COUNTS["compiles"] == c0 + 3
    add_kernel[(1,)](x, y, out, 1000, 1.0, BLOCK=256, num_warps=8)
    assert _gpu.COUNTS["compiles"] == c0 + 4 and fake.block == 256
    from tritium._config import CONFIG                     # the numerics: another kernel, then the first again
    old = CONFIG.numerics
    CONFIG.numerics = "ieee" if old == "fast" else "fast"
    try:
        add_kernel[(1,)](x, y, out, 1000, 1.0, BLOCK=256)
        assert _gpu.COUNTS["compiles"] == c0 + 5
    finally:
        CONFIG.numerics = old
    add_kernel[(1,)](x, y, out, 1000, 1.0, BLOCK=256)
    assert _gpu.COUNTS["compiles"] == c0 + 5


def test_i64_and_empty_grid(env):
    fake, _gpu, _ = env
    x, y, out = torch.randn(64), torch.randn(64), torch.empty(64)

    class P64(ctypes.Structure):
        _fields_ = [("x", ctypes.c_uint64), ("y", ctypes.c_uint64), ("out", ctypes.c_uint64), ("n", ctypes.c_int64),
                    ("scale", ctypes.c_float)]
    add_kernel[(1,)](x, y, out, 2**40 + 3, -0.5, BLOCK=64)
    # the struct's bytes up to the end of its last field: the driver takes the
    # kernel's parameter space, with no tail padding
    assert recorded(fake) == bytes(P64(x.data_ptr(), y.data_ptr(), out.data_ptr(), 2**40 + 3, -0.5))[:P64.scale.offset + 4]
    before = fake.launches
    add_kernel[(0,)](x, y, out, 64, 1.0, BLOCK=64)
    assert fake.launches == before


def test_cpu_tensors_refused_on_a_real_gpu_path(env):
    from tritium._config import CONFIG
    from tritium.errors import UnsupportedLaunch
    CONFIG.gpu_host_tensors = False
    try:
        x = torch.randn(32)
        with pytest.raises(UnsupportedLaunch, match="CPU tensor"):
            add_kernel[(1,)](x, x, x, 17, 1.0, BLOCK=32)
    finally:
        CONFIG.gpu_host_tensors = True


def test_views_of_one_storage(env):
    fake, _gpu, _ = env
    z = torch.randn(1024)
    out = torch.empty(512)
    add_kernel[(2,)](z[:512], z[512:], out, 512, 1.0, BLOCK=256)     # two views of one storage
    assert recorded(fake) == bytes(AddParams(z.data_ptr(), z[512:].data_ptr(), out.data_ptr(), 512, 1.0))


def test_host_descriptors_get_tensor_maps(env):
    """Host TensorDescriptors feeding a wgmma dot on the (fake) sm_90: the
    Python packer writes base, shape and strides; the launch encodes one
    CUtensorMap per descriptor from them, at every launch, where the
    kernel's parameter list puts it (the stand-in driver's layout)."""
    fake, _gpu, _ = env
    from triton.tools.tensor_descriptor import TensorDescriptor
    M, N, K = 200, 256, 112

    def launch(a, b, c):
        da = TensorDescriptor(a, list(a.shape), list(a.stride()), [128, 64])
        db = TensorDescriptor(b, list(b.shape), list(b.stride()), [64, 128])
        desc_mm[(2, 2)](da, db, c, M, N, K, BM=128, BN=128, BK=64)
        return DescParams(a.data_ptr(), M, K, K, 1, b.data_ptr(), K, N, N, 1, c.data_ptr(), M, N, K)
    a, b, c = torch.randn(M, K).to(torch.bfloat16), torch.randn(K, N).to(torch.bfloat16), torch.empty(M, N)
    for _ in range(2):                            # the second launch is warm and encodes its maps again
        t0 = fake.tmaps
        ref = launch(a, b, c)
        buf = recorded(fake)
        assert buf[:ctypes.sizeof(DescParams) - 4] == bytes(ref)[:ctypes.sizeof(DescParams) - 4]
        assert fake.tmaps == t0 + 2
        off = (DescParams.K.offset + 4 + 15) // 16 * 16      # 16-aligned, 128 bytes each
        assert len(buf) == off + 256
        ma, mb = FakeTmap.from_buffer_copy(buf, off), FakeTmap.from_buffer_copy(buf, off + 128)
        assert (ma.addr, list(ma.dims[:2]), ma.strides[0], list(ma.box[:2]), ma.swizzle) == (a.data_ptr(), [K, M], K * 2, [64, 128], 3)
        assert (mb.addr, list(mb.dims[:2]), mb.strides[0], list(mb.box[:2])) == (b.data_ptr(), [N, K], N * 2, [64, 64])
        assert ma.dtype == mb.dtype == 9                      # CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
        a = torch.randn(M, K).to(torch.bfloat16)              # another tensor, the same specialization
    c0 = _gpu.COUNTS["compiles"]
    launch(a[:, :K - 16], b[:K - 16], c)                      # a narrower view: same key, new shape in the map
    assert _gpu.COUNTS["compiles"] == c0
    ma = FakeTmap.from_buffer_copy(recorded(fake), off)
    assert list(ma.dims[:2]) == [K - 16, M] and ma.strides[0] == K * 2


def test_descriptors_in_a_tuple(env):
    """desc_mm with both descriptors in one tuple argument (plain and named):
    the same parameters and tensor maps as two descriptor parameters (each
    element's base, shape and strides in order), warm launches compile
    nothing; round_f32_to_tf32 (3.7+) is part of the specialization."""
    fake, _gpu, _ = env
    from collections import namedtuple
    from triton.tools.tensor_descriptor import TensorDescriptor
    M, N, K = 200, 256, 112
    AB = namedtuple("AB", ["a", "b"])
    a, b, c = torch.randn(M, K).to(torch.float16), torch.randn(K, N).to(torch.float16), torch.empty(M, N)
    ref = DescParams(a.data_ptr(), M, K, K, 1, b.data_ptr(), K, N, N, 1, c.data_ptr(), M, N, K)
    off = (DescParams.K.offset + 4 + 15) // 16 * 16
    for make in (tuple, lambda v: AB(*v)):
        c0 = None
        for _ in range(2):
            t0 = fake.tmaps
            descs = make((TensorDescriptor.from_tensor(a, [128, 64]), TensorDescriptor.from_tensor(b, [64, 128])))
            _kernels.desc_tuple_mm[(2, 2)](descs, c, M, N, K, BM=128, BN=128, BK=64)
            buf = recorded(fake)
            assert buf[:ctypes.sizeof(DescParams) - 4] == bytes(ref)[:ctypes.sizeof(DescParams) - 4]
            assert fake.tmaps == t0 + 2 and len(buf) == off + 256
            ma, mb = FakeTmap.from_buffer_copy(buf, off), FakeTmap.from_buffer_copy(buf, off + 128)
            assert (ma.addr, list(ma.dims[:2]), mb.addr, list(mb.dims[:2])) == (a.data_ptr(), [K, M], b.data_ptr(), [N, K])
            if c0 is not None:
                assert _gpu.COUNTS["compiles"] == c0          # warm: the same specialization
            c0 = _gpu.COUNTS["compiles"]
    if "round_f32_to_tf32" not in getattr(TensorDescriptor, "__dataclass_fields__", {}):
        return
    x, y = torch.randn(64, 64), torch.zeros(64, 64)
    counts = []
    for r in (True, False, True):
        _kernels.tf32_desc_copy[(2, 2)]((TensorDescriptor.from_tensor(x, [32, 32], round_f32_to_tf32=r),
                                         TensorDescriptor.from_tensor(y, [32, 32])), BM=32, BN=32)
        counts.append(_gpu.COUNTS["compiles"])
    assert counts[1] == counts[0] + 1 and counts[2] == counts[1]


def test_in_kernel_descriptors_get_tensor_maps(env):
    """tl.make_tensor_descriptor over the kernel's own pointers and sizes: the
    launch computes each map's address, shape and stride from the packed
    parameters (a, b, c, M, N, K), for every launch's numbers."""
    fake, _gpu, _ = env
    M, N, K = 200, 256, 112
    a, b = torch.randn(M, K).to(torch.float16), torch.randn(K, N).to(torch.float16)
    c = torch.empty(M, N).to(torch.float16)
    t0 = fake.tmaps
    dev_desc_mm[(2, 2)](a, b, c, M, N, K, BM=128, BN=128, BK=64)
    assert fake.tmaps == t0 + 2
    buf = recorded(fake)
    off = (8 * 3 + 4 * 3 + 15) // 16 * 16                # after a, b, c (u64) and M, N, K (i32)
    assert len(buf) == off + 256
    ma, mb = FakeTmap.from_buffer_copy(buf, off), FakeTmap.from_buffer_copy(buf, off + 128)
    assert (ma.addr, list(ma.dims[:2]), ma.strides[0], list(ma.box[:2])) == (a.data_ptr(), [K, M], K * 2, [64, 128])
    assert (mb.addr, list(mb.dims[:2]), mb.strides[0], list(mb.box[:2])) == (b.data_ptr(), [N, K], N * 2, [64, 64])
    c0 = _gpu.COUNTS["compiles"]
    dev_desc_mm[(1, 2)](a[:72], b, c, 72, N, K, BM=128, BN=128, BK=64)   # a new M: same specialization
    assert _gpu.COUNTS["compiles"] == c0
    ma = FakeTmap.from_buffer_copy(recorded(fake), off)
    assert list(ma.dims[:2]) == [K, 72]
