#!/usr/bin/env python3
"""Suite 'gpu' and bench/device.sh: `python -m tritium --mode gpu` on a real
GPU (exits 77 without torch, triton or a CUDA device).

1. In this process, gpu mode on CUDA tensors against torch: vector add at
   sizes 1..2^20 (n % 16 == 0 or not, == 1), a view 4 bytes off 16-byte
   alignment, an i64 scalar, a float scalar, a constexpr change, an empty
   grid; a launch on a side stream ordered with torch's work on that
   stream; softmax over rows; a matmul through host TensorDescriptors,
   in-kernel descriptors and block pointers (f16, bf16; TMA on sm_90), the
   host descriptors in a tuple and a named tuple, a copy through a
   TensorDescriptor(round_f32_to_tf32=True) (Triton 3.7+, bit-exact), a
   batched matmul whose programs' bases are per batch, attention over
   per-head block pointers, against torch; tutorial 06's attention
   forward (its own `attention`, host descriptors) against torch's
   scaled_dot_product_attention, head dim 64 and 128, causal and not.
   Warm calls of one specialization do not compile (COUNTS), and
   different specializations do.
2. Triton 3.6's tutorials 01 and 02 (unchanged) under
   `python -m tritium --mode gpu` (tutorial_main.py --no-bench): their own
   checks against torch pass.
"""
import importlib.util
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "python"))

try:
    import torch
    import triton
    import triton.language as tl
except ImportError as e:
    print("skipped: %s" % e)
    sys.exit(77)
if not torch.cuda.is_available():
    print("skipped: no CUDA device")
    sys.exit(77)


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, scale, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, (tl.load(x_ptr + offs, mask=m) + tl.load(y_ptr + offs, mask=m)) * scale, mask=m)


@triton.jit
def offset_kernel(out_ptr, base, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, base + offs, mask=offs < n)


def load_module(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


_kernels = load_module(os.path.join(ROOT, "tests", "gpu", "kernels.py"), "gpu_kernels")
desc_mm = _kernels.desc_mm            # host descriptors
dev_desc_mm = _kernels.dev_desc_mm    # in-kernel descriptors
bp_mm = _kernels.bp_mm                # block pointers
bmm = _kernels.bmm                    # per-batch bases: rank-4 maps
attn_heads_bp = _kernels.attn_heads_bp  # FlashAttention-2-style per-head block pointers


@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n_cols + offs, mask=offs < n_cols, other=-float("inf"))
    e = tl.exp(x - tl.max(x, 0))
    tl.store(y_ptr + row * n_cols + offs, e / tl.sum(e, 0), mask=offs < n_cols)


def in_process():
    import tritium
    from tritium import _gpu
    tritium.enable("gpu")
    fails = []
    launched = _gpu.COUNTS["launches"]           # Triton itself would pass the torch checks: count ours

    def check(name, ok):
        print("%-48s %s" % (name, "ok" if ok else "FAILED"))
        if not ok:
            fails.append(name)

    for n in (1, 15, 16, 1000, 4096, 1 << 20):
        x, y = torch.randn(n, device="cuda"), torch.randn(n, device="cuda")
        out = torch.empty(n, device="cuda")
        add_kernel[(triton.cdiv(n, 256),)](x, y, out, n, 0.5, BLOCK=256)
        check("add n=%d" % n, torch.allclose(out, (x + y) * 0.5))
    x, y = torch.randn(4097, device="cuda"), torch.randn(4097, device="cuda")
    out = torch.zeros(4097, device="cuda")
    add_kernel[(16,)](x[1:], y[1:], out[1:], 4096, 2.0, BLOCK=256)     # 4 bytes off alignment
    check("add on views 4 bytes off alignment", torch.allclose(out[1:], (x[1:] + y[1:]) * 2.0) and out[0] == 0)
    o64 = torch.empty(1000, dtype=torch.int64, device="cuda")
    offset_kernel[(4,)](o64, 2**40 + 5, 1000, BLOCK=256)
    check("i64 scalar", torch.equal(o64, torch.arange(1000, device="cuda") + 2**40 + 5))
    o32 = torch.empty(1000, dtype=torch.int32, device="cuda")
    offset_kernel[(lambda meta: (triton.cdiv(meta["n"], meta["BLOCK"]),))](o32, -7, 1000, BLOCK=128)
    check("grid from meta, constexpr change", torch.equal(o32.long(), torch.arange(1000, device="cuda") - 7))
    before = o32.clone()
    offset_kernel[(0,)](o32, 100, 1000, BLOCK=128)
    check("empty grid launches nothing", torch.equal(o32, before))
    # warm calls: no compile
    x, y, out = (torch.randn(1 << 16, device="cuda") for _ in range(3))
    add_kernel[(256,)](x, y, out, 1 << 16, 1.0, BLOCK=256)
    c0 = _gpu.COUNTS["compiles"]
    for i in range(100):
        add_kernel[(256,)](x, y, out, 1 << 16, float(i), BLOCK=256)
    torch.cuda.synchronize()
    check("100 warm calls: no compile, last result", _gpu.COUNTS["compiles"] == c0 and
          torch.allclose(out, (x + y) * 99.0))
    # a side stream: the launch is ordered with torch's work on it
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        a = torch.full((1 << 20,), 3.0, device="cuda")
        b = torch.ones(1 << 20, device="cuda")
        c = torch.empty(1 << 20, device="cuda")
        add_kernel[(4096,)](a, b, c, 1 << 20, 1.0, BLOCK=256)
        d = c * 2
    s.synchronize()
    check("on a side stream, ordered with torch", bool((d == 8.0).all()))
    xs = torch.randn(300, 781, device="cuda")
    ys = torch.empty_like(xs)
    softmax_kernel[(300,)](xs, ys, 781, BLOCK=1024)
    check("softmax 300x781", torch.allclose(ys, torch.softmax(xs, 1), atol=1e-5))
    # host TensorDescriptors (TMA on sm_90): blocks reaching past M, N and K read zeros
    from triton.tools.tensor_descriptor import TensorDescriptor
    for dt in (torch.float16, torch.bfloat16):
        M, N, K = 200, 256, 112
        a, b = torch.randn(M, K, device="cuda").to(dt), torch.randn(K, N, device="cuda").to(dt)
        c = torch.empty(M, N, device="cuda")
        da = TensorDescriptor(a, list(a.shape), list(a.stride()), [128, 64])
        db = TensorDescriptor(b, list(b.shape), list(b.stride()), [64, 128])
        desc_mm[(2, 2)](da, db, c, M, N, K, BM=128, BN=128, BK=64)
        check("matmul through host descriptors %s" % str(dt)[6:], torch.allclose(c, a.float() @ b.float(), atol=1e-2))
        # the same through in-kernel descriptors and block pointers: tensor maps the launch encodes
        c16 = torch.empty(M, N, device="cuda", dtype=torch.float16)
        dev_desc_mm[(2, 2)](a, b, c16, M, N, K, BM=128, BN=128, BK=64)
        check("matmul through in-kernel descriptors %s" % str(dt)[6:],
              torch.allclose(c16.float(), a.float() @ b.float(), atol=5e-2, rtol=1e-2))
        c16.zero_()
        bp_mm[(2, 2)](a, b, c16, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), BM=128, BN=128, BK=64,
                      CHECK_B=True)
        check("matmul through block pointers %s" % str(dt)[6:],
              torch.allclose(c16.float(), a.float() @ b.float(), atol=5e-2, rtol=1e-2))
    # both descriptors in one tuple argument (plain and named): the same parameters and maps
    from collections import namedtuple
    AB = namedtuple("AB", ["a", "b"])
    M, N, K = 200, 256, 112
    a, b = torch.randn(M, K, device="cuda").half(), torch.randn(K, N, device="cuda").half()
    for make in (tuple, lambda v: AB(*v)):
        c = torch.empty(M, N, device="cuda")
        _kernels.desc_tuple_mm[(2, 2)](make((TensorDescriptor.from_tensor(a, [128, 64]),
                                              TensorDescriptor.from_tensor(b, [64, 128]))), c, M, N, K,
                                        BM=128, BN=128, BK=64)
        check("matmul through a %s of host descriptors" % ("tuple" if make is tuple else "named tuple"),
              torch.allclose(c, a.float() @ b.float(), atol=1e-2))
    # TensorDescriptor(round_f32_to_tf32=True) (Triton 3.7+): loads round to tf32 (Inf, NaN kept), stores do not
    if "round_f32_to_tf32" in getattr(TensorDescriptor, "__dataclass_fields__", {}):
        bits = torch.randint(-2**31, 2**31, (64, 64), dtype=torch.int64).to(torch.int32)
        bits[0, :6] = torch.tensor([0x3F801000, 0x3F803000, 0x7F800000, -0x00800000, 0x7FC00000, 0x00003000])
        x = bits.view(torch.float32).cuda()
        y = torch.zeros(64, 64, device="cuda")
        _kernels.tf32_desc_copy[(2, 2)]((TensorDescriptor.from_tensor(x, [32, 32], round_f32_to_tf32=True),
                                         TensorDescriptor.from_tensor(y, [32, 32])), BM=32, BN=32)
        u = bits.to(torch.int64) & 0xFFFFFFFF
        want = torch.where((u & 0x7F800000) == 0x7F800000, u, (u + ((u >> 13) & 1) + 0xFFF) & 0xFFFFE000)
        got = y.cpu().view(torch.int32).to(torch.int64) & 0xFFFFFFFF
        check("round_f32_to_tf32 loads (bit-exact)", torch.equal(got, want))
    # a [2, 3] batch: each program's descriptor or block pointer at a_ptr + z * stride_az + h * stride_ah
    M, N, K = 200, 144, 112
    a, b = torch.randn(2, 3, M, K, device="cuda").half(), torch.randn(2, 3, K, N, device="cuda").half()
    for desc in (True, False):
        c = torch.zeros(2, 3, M, N, device="cuda", dtype=torch.float16)
        bmm[(2, 2, 6)](a, b, c, M, N, K, 3, a.stride(0), a.stride(1), b.stride(0), b.stride(1), BM=128, BN=128, BK=64,
                       DESC=desc)
        check("batched matmul through per-batch %s" % ("descriptors" if desc else "block pointers"),
              torch.allclose(c.float(), a.float() @ b.float(), atol=5e-2, rtol=1e-2))
    q, k, v = (torch.randn(2, 3, 200, 64, device="cuda", dtype=torch.float16) * 0.3 for _ in range(3))
    o = torch.zeros_like(q)
    attn_heads_bp[(2, 6)](q, k, v, o, 200, 3, q.stride(0), q.stride(1), q.stride(2), D=64, BM=128, BN=64, num_warps=8)
    ref = torch.nn.functional.scaled_dot_product_attention(q, k, v, scale=1.0)
    check("attention over per-head block pointers", torch.allclose(o, ref, atol=1e-2, rtol=0))
    # K and V without boundary_check (N a multiple of BN): unbounded rows in their maps
    q, k, v = (torch.randn(2, 3, 256, 64, device="cuda", dtype=torch.float16) * 0.3 for _ in range(3))
    o = torch.zeros_like(q)
    attn_heads_bp[(2, 6)](q, k, v, o, 256, 3, q.stride(0), q.stride(1), q.stride(2), D=64, BM=128, BN=64, CHECK=False,
                          num_warps=8)
    ref = torch.nn.functional.scaled_dot_product_attention(q, k, v, scale=1.0)
    check("attention over unchecked block pointers", torch.allclose(o, ref, atol=1e-2, rtol=0))
    # tutorial 06's forward (unchanged) through host descriptors: its single test config
    os.environ["PYTEST_VERSION"] = "tritium gpu_mode_cuda"
    tut = load_module(os.path.join(HERE, "tutorials", "06-fused-attention.py"), "tut06")
    for d in (64, 128):
        for causal in (False, True):
            q, k, v = (torch.randn(1, 2, 1024, d, device="cuda", dtype=torch.float16) * 0.5 for _ in range(3))
            o = tut.attention(q, k, v, causal, 0.5, False)
            ref = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=0.5)
            check("tutorial 06 attention d%d%s" % (d, " causal" if causal else ""),
                  torch.allclose(o, ref, atol=1e-2, rtol=0))
    check("the launches went through tritium's GPU path", _gpu.COUNTS["launches"] > launched)
    return fails


def tutorials():
    fails = []
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("TRITON_INTERPRET", None)            # Triton's own interpreter would pass the tutorials' checks too
    for t in ("01-vector-add.py", "02-fused-softmax.py"):
        p = subprocess.run([sys.executable, "-m", "tritium", "--mode", "gpu", os.path.join(HERE, "tutorial_main.py"),
                            "--no-bench", os.path.join(HERE, "tutorials", t)],
                           capture_output=True, text=True, env=env, cwd=HERE, timeout=900)
        ok = p.returncode == 0
        print("%-48s %s" % ("tutorial " + t + " under --mode gpu", "ok" if ok else "FAILED"))
        if not ok:
            print(p.stdout[-1500:], p.stderr[-3000:])
            fails.append(t)
    return fails


def main():
    fails = in_process() + tutorials()
    print("gpu mode: %d failed" % len(fails))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
