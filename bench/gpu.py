#!/usr/bin/env python3
"""bench/gpu.py — tritium's GPU path against Triton 3.6 on the example kernels.

For each case (vector add 2^26 f32; softmax 16384x1024 f32; layer norm
8192x4096 f32; matmul 4096^3 f16 with 128x128x32 tiles; Triton's tutorial 06
attention forward `_attn_fwd`, fp16, Z=4 H=32 N_CTX=4096, head dim 64 and
128, causal and not, with host TensorDescriptors: tritium's desc(), Triton's
TensorDescriptor) this runs

  * tritium:  tritium run examples/X.py <sizes> --device gpu --numerics fast
                  --bench N --json --save NAME=... (every tensor)
              with TRITIUM_CACHE_DIR pointing to an empty directory (cold
              compile = front end + LLVM -> PTX + driver JIT/module load, as
              its --json reports them); kernel time = the median of N launches
              timed one by one with CUDA events, L2 flushed before each;
              host launch overhead ("launch tritium us", from C) = the host
              time of one warm launch as tritium makes it (one cuLaunchKernel
              with the pre-packed parameter buffer, default stream): the
              median of 5 batches of 200 back-to-back launches (the log line
              also gives it on a non-blocking stream);
  * Triton:   the same @triton.jit function from the same file, on the inputs
              tritium generated (read back from its .npy files), with the same
              constexprs and num_warps: cold compile = the first call with
              TRITON_CACHE_DIR empty (synchronized); kernel time =
              triton.testing.do_bench(..., return_mode="median"); host launch
              overhead = the mean host time of kernel[grid](...) over
              back-to-back calls;

Matmul and attention rows run tritium's default: on sm_90 its dots take
Hopper's wgmma (target sm_90a, compiler/gpu/lower_wgmma.c); the rows named
"... mma.sync" run them with TRITIUM_WGMMA=0 (Ampere's mma.sync, the path of
older GPUs); attention's p v stays in flight into the next iteration by
default, as Triton does, and "attention ... sync" waits for it in its own
iteration (TRITIUM_WGMMA_ASYNC=0); "matmul ... async" leaves the matmul's
last wgmma in flight too (TRITIUM_WGMMA_ASYNC=1); "... persistent" runs tritium's
persistent kernel (TRITIUM_PERSISTENT=1: SMs x resident CTAs walk the programs) against
Triton's usual launch; "matmul bf16" is the matmul on bf16.
(attention: both sides use one config, BLOCK_M=128 BLOCK_N=64 num_warps=8
num_stages=3, calling the JITFunction under the tutorial's autotuner) and
checks that both produced the same output (max |tritium - triton|, both
in Triton's fast numerics). A last row launches a one-program 1024-element
add kernel on both sides: the host launch overhead of a tiny kernel, where
"launch tritium py us" is the same from Python (`python -m tritium --mode gpu`,
bench/launch_overhead.py: kernel[grid](...) on CUDA tensors, warm); under the
table, the floor beneath both: what cuLaunchKernel alone costs on the same
machine (bench/launch_floor.c, the driver API with no tritium code). Achieved
bandwidth counts the bytes a kernel must move at least (inputs read once,
outputs written once). Ratio = tritium time / Triton time (below 1: tritium
is faster). Prints one table at the end.

    python3 bench/gpu.py [--tritium PATH] [--iters N] [--only NAME[,NAME]] [--no-triton]

Needs a CUDA GPU, torch and triton (Triton is skipped when missing).
"""
import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
EX = os.path.join(ROOT, "examples")
TUT06 = os.path.join(ROOT, "tests", "python", "tutorials", "06-fused-attention.py")

N_VA = 1 << 26
SM_M, SM_N = 16384, 1024
LN_M, LN_N = 8192, 4096
MM = 4096

# name, file, kernel, tritium launch-spec words, the tensors (name -> is_output),
# minimal bytes moved, flops, size text, num_warps
CASES = [
    dict(name="vector_add", file="vector_add.py", kernel="add_kernel", size="2^26 f32",
         spec=["--arg", f"x_ptr=randn:f32[{N_VA}]", "--arg", f"y_ptr=randn:f32[{N_VA}]",
               "--arg", f"output_ptr=empty:f32[{N_VA}]", "--const", "BLOCK_SIZE=1024"],
         tensors={"x_ptr": False, "y_ptr": False, "output_ptr": True},
         bytes=3 * N_VA * 4, flops=0, num_warps=4),
    dict(name="softmax", file="softmax.py", kernel="softmax_kernel", size=f"{SM_M}x{SM_N} f32",
         spec=["--grid", str(SM_M), "--arg", f"output_ptr=empty:f32[{SM_M},{SM_N}]",
               "--arg", f"input_ptr=randn:f32[{SM_M},{SM_N}]", "--const", "BLOCK_SIZE=1024"],
         tensors={"output_ptr": True, "input_ptr": False},
         bytes=2 * SM_M * SM_N * 4, flops=0, num_warps=4),
    dict(name="layer_norm", file="layer_norm.py", kernel="layer_norm_fwd_fused", size=f"{LN_M}x{LN_N} f32",
         spec=["--arg", f"X=randn:f32[{LN_M},{LN_N}]", "--arg", f"Y=empty:f32[{LN_M},{LN_N}]",
               "--arg", f"W=randn:f32[{LN_N}]", "--arg", f"B=randn:f32[{LN_N}]",
               "--arg", f"Mean=empty:f32[{LN_M}]", "--arg", f"Rstd=empty:f32[{LN_M}]",
               "--const", "BLOCK_SIZE=1024"],
         tensors={"X": False, "Y": True, "W": False, "B": False, "Mean": True, "Rstd": True},
         bytes=(2 * LN_M * LN_N + 2 * LN_N + 2 * LN_M) * 4, flops=0, num_warps=4),
    dict(name="matmul", file="matmul.py", kernel="matmul_kernel", size=f"{MM}^3 f16",
         spec=["--arg", f"a_ptr=randn:f16[{MM},{MM}]", "--arg", f"b_ptr=randn:f16[{MM},{MM}]",
               "--arg", f"c_ptr=empty:f16[{MM},{MM}]", "--const", "BLOCK_SIZE_M=128",
               "--const", "BLOCK_SIZE_N=128", "--const", "BLOCK_SIZE_K=32", "--const", "GROUP_SIZE_M=8"],
         tensors={"a_ptr": False, "b_ptr": False, "c_ptr": True},
         bytes=3 * MM * MM * 2, flops=2 * MM ** 3, num_warps=4),
]
AT_Z, AT_H, AT_N = 4, 32, 4096        # tutorial 06's benchmark shapes (BATCH, N_HEADS, one N_CTX)
AT_BM, AT_BN, AT_WARPS, AT_STAGES = 128, 64, 8, 3


def attention_case(d, causal, in_kernel=False):
    """Tutorial 06's forward through host descriptors over [Z*H*N_CTX, d] views,
    or (in_kernel) with the tensors themselves, which the kernel wraps in
    tl.make_tensor_descriptor."""
    y = AT_Z * AT_H * AT_N
    spec = ["--grid", f"cdiv({AT_N}, {AT_BM}), {AT_Z * AT_H}", "--arg", "sm_scale=0.5",
            "--arg", f"M=empty:f32[{y}]", "--arg", f"Z={AT_Z}", "--arg", f"H={AT_H}", "--arg", f"N_CTX={AT_N}"]
    names = {"Q": "desc_q", "K": "desc_k", "V": "desc_v", "O": "desc_o"} if in_kernel else {t: t for t in "QKVO"}
    for t in "QKVO":
        gen = "empty" if t == "O" else "randn"
        spec += ["--arg" if in_kernel else "--tensor", f"{names[t]}={gen}:f16[{y},{d}]"]
    for name, t, bm in (("desc_q", "Q", AT_BM), ("desc_k", "K", AT_BN), ("desc_v", "V", AT_BN), ("desc_o", "O", AT_BM)):
        if not in_kernel:
            spec += ["--arg", f"{name}=desc({t}, block=[{bm}, {d}])"]
    for k, v in dict(HEAD_DIM=d, BLOCK_M=AT_BM, BLOCK_N=AT_BN, FP8_OUTPUT=False, STAGE=3 if causal else 1,
                     warp_specialize=False, IS_HOPPER=True).items():
        spec += ["--const", f"{k}={v}"]
    flops = 4.0 * AT_Z * AT_H * AT_N * AT_N * d * (0.5 if causal else 1.0)
    return dict(name=f"attention d{d}{' causal' if causal else ''}{' in-kernel desc' if in_kernel else ''}",
                path=TUT06, kernel="_attn_fwd", size=f"{AT_Z}x{AT_H}x{AT_N}x{d} f16", spec=spec,
                tensors={names["Q"]: False, names["K"]: False, names["V"]: False, names["O"]: True, "M": True},
                bytes=(4 * y * d * 2 + y * 4), flops=flops, num_warps=AT_WARPS, causal=causal, d=d,
                names=names)


def kernels_mm_case(kernel, what):
    """tests/gpu/kernels.py's dev_desc_mm (in-kernel descriptors) or bp_mm
    (block pointers checked along both dims) at MM^3 f16: C = A @ B over a
    2-D grid of 128 x 128 blocks, BK = 64."""
    spec = ["--grid", f"{MM // 128}, {MM // 128}", "--arg", f"a_ptr=randn:f16[{MM},{MM}]",
            "--arg", f"b_ptr=randn:f16[{MM},{MM}]", "--arg", f"c_ptr=empty:f16[{MM},{MM}]",
            "--arg", f"M={MM}", "--arg", f"N={MM}", "--arg", f"K={MM}", "--const", "BM=128", "--const", "BN=128",
            "--const", "BK=64"]
    if kernel == "bp_mm":
        spec += ["--arg", f"stride_am={MM}", "--arg", "stride_ak=1", "--arg", f"stride_bk={MM}", "--arg", "stride_bn=1",
                 "--const", "CHECK_B=True"]
    return dict(name=f"matmul {what}", path=os.path.join(ROOT, "tests", "gpu", "kernels.py"), kernel=kernel,
                size=f"{MM}^3 f16", spec=spec, tensors={"a_ptr": False, "b_ptr": False, "c_ptr": True},
                bytes=3 * MM * MM * 2, flops=2 * MM ** 3, num_warps=4)


CASES += [attention_case(d, causal) for d in (64, 128) for causal in (False, True)]
for _c in CASES:
    _c["base"] = _c["name"]          # the Triton side's call; the variants below keep it
_mm = next(c for c in CASES if c["name"] == "matmul")
CASES.insert(CASES.index(_mm) + 1, dict(_mm, name="matmul bf16", size=f"{MM}^3 bf16",
                                        spec=[x.replace(":f16[", ":bf16[") for x in _mm["spec"]]))
# the dots through Ampere's mma.sync (the opt-out of sm_90's default wgmma): same inputs, same Triton
_dots = [c for c in CASES if c["name"].startswith(("matmul", "attention"))]
CASES += [dict(c, name=c["name"] + " mma.sync", env={"TRITIUM_WGMMA": "0"}) for c in _dots]
# ... and wgmma with the loop's last MMA left in flight across iterations: attention's p v by
# default (TRITIUM_WGMMA_ASYNC=0 waits for it in its iteration), the matmul's dot with
# TRITIUM_WGMMA_ASYNC=1
CASES += [dict(c, name=c["name"] + (" async" if c["name"].startswith("matmul") else " sync"),
               env={"TRITIUM_WGMMA": "1", "TRITIUM_WGMMA_ASYNC": "1" if c["name"].startswith("matmul") else "0"})
          for c in _dots]
# ... and persistent kernels (TRITIUM_PERSISTENT=1: as many CTAs as fit walk the programs)
CASES += [dict(c, name=c["name"] + " persistent", env=dict(c.get("env", {}), TRITIUM_PERSISTENT="1"))
          for c in CASES if c["name"] in ("vector_add", "softmax", "layer_norm", "matmul", "attention d64",
                                          "attention d128 causal")]
BZ, BH, BMM = 4, 8, 1024


def bmm_case():
    """tests/gpu/kernels.py's bmm with block pointers: a [BZ, BH] batch of
    BMM^3 f16 matmuls, each program's base a_ptr + z * stride_az + h * stride_ah."""
    n = BMM
    spec = ["--grid", f"{n // 128}, {n // 128}, {BZ * BH}", "--arg", f"a_ptr=randn:f16[{BZ},{BH},{n},{n}]",
            "--arg", f"b_ptr=randn:f16[{BZ},{BH},{n},{n}]", "--arg", f"c_ptr=empty:f16[{BZ},{BH},{n},{n}]"]
    for k, v in dict(M=n, N=n, K=n, H=BH, stride_az=BH * n * n, stride_ah=n * n, stride_bz=BH * n * n,
                     stride_bh=n * n).items():
        spec += ["--arg", f"{k}={v}"]
    spec += ["--const", "BM=128", "--const", "BN=128", "--const", "BK=64", "--const", "DESC=False"]
    return dict(name="batched matmul block ptr", path=os.path.join(ROOT, "tests", "gpu", "kernels.py"), kernel="bmm",
                size=f"{BZ}x{BH}x{n}^3 f16", spec=spec, tensors={"a_ptr": False, "b_ptr": False, "c_ptr": True},
                bytes=3 * BZ * BH * n * n * 2, flops=2 * BZ * BH * n ** 3, num_warps=4)


def heads_case(check):
    """tests/gpu/kernels.py's attn_heads_bp (FlashAttention-2-style, block
    pointers per head) at tutorial 06's shapes, d64: K and V checked along
    both dims, or (check=False) loaded without boundary_check."""
    shape = f"f16[{AT_Z},{AT_H},{AT_N},64]"
    spec = ["--grid", f"cdiv({AT_N}, 128), {AT_Z * AT_H}"]
    for t in "qkvo":
        spec += ["--arg", f"{t}_ptr={'empty' if t == 'o' else 'randn'}:{shape}"]
    for k, v in dict(N=AT_N, H=AT_H, stride_z=AT_H * AT_N * 64, stride_h=AT_N * 64, stride_n=64).items():
        spec += ["--arg", f"{k}={v}"]
    spec += ["--const", "D=64", "--const", "BM=128", "--const", "BN=64", "--const", f"CHECK={check}"]
    return dict(name="attention heads block ptr" + ("" if check else " unchecked"),
                path=os.path.join(ROOT, "tests", "gpu", "kernels.py"), kernel="attn_heads_bp",
                size=f"{AT_Z}x{AT_H}x{AT_N}x64 f16", spec=spec,
                tensors={"q_ptr": False, "k_ptr": False, "v_ptr": False, "o_ptr": True},
                bytes=4 * AT_Z * AT_H * AT_N * 64 * 2, flops=4.0 * AT_Z * AT_H * AT_N * AT_N * 64, num_warps=AT_WARPS,
                check=check)


# TMA through the maps a launch encodes for in-kernel descriptors and block pointers, and the
# same kernels through cp.async (TRITIUM_TMA=0)
_tma = [attention_case(64, False, True), attention_case(128, True, True),
        kernels_mm_case("dev_desc_mm", "in-kernel desc"), kernels_mm_case("bp_mm", "block ptr"), bmm_case(),
        heads_case(True), heads_case(False)]
for _c in _tma:
    _c["base"] = _c["name"]
CASES += _tma + [dict(c, name=c["name"] + " cp.async", env={"TRITIUM_TMA": "0"}) for c in _tma]
TINY_N = 1024
# the host launch overhead row: a one-program add (vector_add.py's own grid and BLOCK_SIZE)
TINY = dict(name="tiny add", file="vector_add.py", kernel="add_kernel", size=f"{TINY_N} f32, 1 program",
            spec=["--arg", f"x_ptr=randn:f32[{TINY_N}]", "--arg", f"y_ptr=randn:f32[{TINY_N}]",
                  "--arg", f"output_ptr=empty:f32[{TINY_N}]"],
            tensors={}, bytes=3 * TINY_N * 4, flops=0, num_warps=4)


def find_tritium(explicit):
    if explicit:
        return explicit
    if os.environ.get("TRITIUM"):
        return os.environ["TRITIUM"]
    found = [p for p in glob.glob(os.path.join(ROOT, "build*", "repl", "tritium")) if os.access(p, os.X_OK)]
    if found:
        return max(found, key=os.path.getmtime)
    return shutil.which("tritium")


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def run_tritium(exe, case, tmp, iters):
    """One cold `tritium run --device gpu --bench`; returns a dict or raises."""
    cache = tempfile.mkdtemp(prefix="tcache-", dir=tmp)
    path = case.get("path") or os.path.join(EX, case["file"])
    cmd = [exe, "run", path, "--kernel", case["kernel"], *case["spec"], "--num-warps", str(case["num_warps"]),
           "--device", "gpu", "--numerics", "fast", "--bench", str(iters), "--json"]
    for t in case["tensors"]:
        cmd += ["--save", f"{t}={tmp}/{case['name']}-{t}.npy"]
    # CUDA_CACHE_DISABLE: a cold compile, not a hit in the driver's own JIT cache
    # the block-pointer cases are Triton 3.6-3.8 language (3.9 removed block pointers)
    env = dict(os.environ, TRITIUM_CACHE_DIR=cache, CUDA_CACHE_DISABLE="1", TRITIUM_TRITON_VERSION="3.8",
               **case.get("env", {}))
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        raise RuntimeError(f"tritium exited {p.returncode}: {p.stderr.strip()[-600:]}")
    j = json.loads(p.stdout)
    g = j["gpu"]
    return dict(ms=g["bench"]["median_ms"], launch_us=g["bench"]["launch_us"],
                launch_stream_us=g["bench"].get("launch_stream_us"),
                compile_ms=g["front_ms"] + g["compile_ms"] + g["load_ms"],
                detail=f"front {g['front_ms']:.1f} + ptx {g['compile_ms']:.1f} + load {g['load_ms']:.1f} ms, "
                       f"host launch {g['bench']['launch_us']:.2f} us "
                       f"({g['bench'].get('launch_stream_us') or 0:.2f} on a non-blocking stream)",
                regs=g["num_regs"], spill=g["spill_bytes"], smem=g["smem_bytes"], device=g["device"],
                ctas=g.get("persistent_ctas"),
                arch=g["arch"], wall_s=wall)


class TritonSide:
    """Triton in this process; TRITON_CACHE_DIR is set before triton is imported."""

    def __init__(self, tmp):
        os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="trcache-", dir=tmp)
        import numpy as np
        import torch
        import triton
        import triton.language as tl
        from triton.testing import do_bench
        self.np, self.torch, self.triton, self.do_bench = np, torch, triton, do_bench
        torch.zeros(1, device="cuda")
        torch.cuda.synchronize()

        @triton.jit
        def _tiny_add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
            offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            m = offs < n
            tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) + tl.load(y_ptr + offs, mask=m), mask=m)

        self.tiny_kernel = _tiny_add
        # Triton builds its launcher stub on the first launch of any kernel:
        # pay that here, so the cold compile times below are the kernels' own.
        x = torch.randn(TINY_N, device="cuda")
        self.tiny = (x, x.clone(), torch.empty_like(x))
        self.tiny_kernel[(1,)](*self.tiny, TINY_N, BLOCK=TINY_N, num_warps=4)
        torch.cuda.synchronize()
        self.version = triton.__version__

    def module(self, file):
        import importlib.util
        path = file if os.path.isabs(file) else os.path.join(EX, file)
        name = "bench_" + os.path.basename(path)[:-3].replace("-", "_")
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod

    def load(self, tmp, case, name):
        a = self.np.load(f"{tmp}/{case['name']}-{name}.npy")
        if a.dtype.kind == "V" and a.dtype.itemsize == 2:      # bf16 as tritium saves it (ml_dtypes' '<V2')
            return self.torch.from_numpy(a.view(self.np.int16)).view(self.torch.bfloat16).cuda()
        return self.torch.from_numpy(a).cuda()

    def launcher(self, case, tmp):
        """(call, outputs) for a case, on tritium's inputs."""
        torch, triton = self.torch, self.triton
        mod = self.module(case.get("path") or case["file"])
        k = getattr(mod, case["kernel"])
        nw = case["num_warps"]
        t = {n: (torch.empty_like(self.load(tmp, case, n)) if out else self.load(tmp, case, n))
             for n, out in case["tensors"].items()}
        if case["base"] == "vector_add":
            n = t["x_ptr"].numel()
            def call():
                k[(triton.cdiv(n, 1024),)](t["x_ptr"], t["y_ptr"], t["output_ptr"], n, BLOCK_SIZE=1024, num_warps=nw)
        elif case["base"] == "softmax":
            x, y = t["input_ptr"], t["output_ptr"]
            def call():
                k[(x.shape[0],)](y, x, x.stride(0), y.stride(0), x.shape[0], x.shape[1], BLOCK_SIZE=1024, num_warps=nw)
        elif case["base"] == "layer_norm":
            X = t["X"]
            def call():
                k[(X.shape[0],)](X, t["Y"], t["W"], t["B"], t["Mean"], t["Rstd"], X.stride(0), X.shape[1], 1e-5,
                                 BLOCK_SIZE=1024, num_warps=nw)
        elif case["kernel"] == "attn_heads_bp":
            q, kk, v, o = t["q_ptr"], t["k_ptr"], t["v_ptr"], t["o_ptr"]
            Z, H, N, D = q.shape
            def call():
                k[(triton.cdiv(N, 128), Z * H)](q, kk, v, o, N, H, q.stride(0), q.stride(1), q.stride(2), D=D, BM=128,
                                               BN=64, CHECK=case["check"], num_warps=nw)
        elif case["base"].startswith("attention"):
            from triton.tools.tensor_descriptor import TensorDescriptor
            d, nm = case["d"], case["names"]
            q, kk, v, o, M = t[nm["Q"]], t[nm["K"]], t[nm["V"]], t[nm["O"]], t["M"]
            y = q.shape[0]
            desc = [x if nm["Q"] == "desc_q" else TensorDescriptor(x, shape=[y, d], strides=[d, 1], block_shape=[bm, d])
                    for x, bm in ((q, AT_BM), (kk, AT_BN), (v, AT_BN), (o, AT_BM))]
            # in-kernel descriptors: Triton 3.6 builds their tensor maps in this scratch
            triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8, device="cuda"))
            fn = k.fn                                   # the JITFunction under the tutorial's autotuner
            def call():
                fn[(triton.cdiv(AT_N, AT_BM), AT_Z * AT_H, 1)](
                    0.5, M, AT_Z, AT_H, *desc, AT_N, HEAD_DIM=d, BLOCK_M=AT_BM, BLOCK_N=AT_BN, FP8_OUTPUT=False,
                    STAGE=3 if case["causal"] else 1, warp_specialize=False, IS_HOPPER=True,
                    num_warps=AT_WARPS, num_stages=AT_STAGES)
        elif case["kernel"] == "bmm":
            a, b, c = t["a_ptr"], t["b_ptr"], t["c_ptr"]
            Z, H, M, K = a.shape
            N = b.shape[3]
            def call():
                k[(triton.cdiv(M, 128), triton.cdiv(N, 128), Z * H)](
                    a, b, c, M, N, K, H, a.stride(0), a.stride(1), b.stride(0), b.stride(1), BM=128, BN=128, BK=64,
                    DESC=False, num_warps=nw)
        elif case["kernel"] in ("dev_desc_mm", "bp_mm"):
            a, b, c = t["a_ptr"], t["b_ptr"], t["c_ptr"]
            M, K = a.shape
            N = b.shape[1]
            extra = dict(CHECK_B=True) if case["kernel"] == "bp_mm" else {}
            strides = (a.stride(0), a.stride(1), b.stride(0), b.stride(1)) if extra else ()
            triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8, device="cuda"))
            def call():
                k[(triton.cdiv(M, 128), triton.cdiv(N, 128))](a, b, c, M, N, K, *strides, BM=128, BN=128, BK=64,
                                                              num_warps=nw, **extra)
        else:
            a, b, c = t["a_ptr"], t["b_ptr"], t["c_ptr"]
            M, K = a.shape
            N = b.shape[1]
            def call():
                k[(triton.cdiv(M, 128) * triton.cdiv(N, 128),)](
                    a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1),
                    BLOCK_SIZE_M=128, BLOCK_SIZE_N=128, BLOCK_SIZE_K=32, GROUP_SIZE_M=8, num_warps=nw)
        return call, {n: v for n, v in t.items() if case["tensors"][n]}

    def host_launch_us(self, call, n=200):
        call()
        self.torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(n):
            call()
        us = (time.perf_counter() - t0) * 1e6 / n
        self.torch.cuda.synchronize()
        return us

    def run(self, case, tmp):
        torch = self.torch
        call, outs = self.launcher(case, tmp)
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        call()                                     # cold: compile (empty cache) + load + launch
        torch.cuda.synchronize()
        cold = (time.perf_counter() - t0) * 1e3
        diff = 0.0
        for n, v in outs.items():
            ref = self.load(tmp, case, n)
            d = (v.float() - ref.float()).abs().max().item()
            diff = max(diff, d)
        ms = self.do_bench(call, return_mode="median")
        return dict(ms=ms, compile_ms=cold, launch_us=self.host_launch_us(call), maxdiff=diff)

    def run_tiny(self):
        call = lambda: self.tiny_kernel[(1,)](*self.tiny, TINY_N, BLOCK=TINY_N, num_warps=4)  # noqa: E731
        return dict(ms=self.do_bench(call, return_mode="median"), launch_us=self.host_launch_us(call, 1000),
                    compile_ms=None, maxdiff=None)


def launch_from_python(exe):
    """bench/launch_overhead.py --json with the libtritium.so next to exe
    (device.sh's carry) or the build's."""
    lib = os.path.join(os.path.dirname(os.path.abspath(exe)), "libtritium.so")
    env = dict(os.environ)
    if os.path.exists(lib):
        env["TRITIUM_LIB"] = lib
    p = subprocess.run([sys.executable, os.path.join(HERE, "launch_overhead.py"), "--json"], capture_output=True,
                       text=True, env=env)
    if p.returncode:
        raise RuntimeError(p.stderr.strip()[-600:])
    return json.loads(p.stdout.strip().splitlines()[-1])


def launch_floor(exe):
    """bench/launch_floor's JSON (the driver's own cost of one cuLaunchKernel), or None when not built."""
    here = os.path.dirname(os.path.abspath(exe))
    for c in (os.path.join(here, "launch_floor"), os.path.join(here, "..", "bench", "launch_floor")):
        if os.path.exists(c):
            p = subprocess.run([c], capture_output=True, text=True)
            if p.returncode:
                raise RuntimeError(p.stderr.strip()[-400:])
            return json.loads(p.stdout)
    return None


def fmt(v, spec):
    return "-" if v is None else format(v, spec)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tritium")
    ap.add_argument("--iters", type=int, default=100, help="timed launches for tritium's --bench")
    ap.add_argument("--only")
    ap.add_argument("--no-triton", action="store_true")
    a = ap.parse_args()
    exe = find_tritium(a.tritium)
    if not exe:
        sys.exit("bench/gpu.py: no tritium executable (build it or pass --tritium)")
    cases = [c for c in CASES if not a.only or c["name"] in a.only.split(",")]
    tmp = tempfile.mkdtemp(prefix="tritium-gpu-bench-")
    rows = []
    floor = None
    device = "?"
    try:
        tri = None
        if not a.no_triton:
            try:
                tri = TritonSide(tmp)
            except Exception as e:  # noqa: BLE001
                log(f"triton: not available ({e}); tritium only")
        for c in cases:
            row = dict(case=c, tt=None, tr=None, err=[])
            log(f"== {c['name']} ({c['size']})")
            try:
                row["tt"] = run_tritium(exe, c, tmp, a.iters)
                device = f"{row['tt']['device']} ({row['tt']['arch']})"
                log(f"   tritium: {row['tt']['ms']:.4f} ms, compile {row['tt']['detail']}, "
                    f"regs {row['tt']['regs']} spill {row['tt']['spill']} smem {row['tt']['smem']} target {row['tt']['arch']}"
                    + (f", persistent: {row['tt']['ctas']} CTAs" if row['tt'].get('ctas') else ""))
            except Exception as e:  # noqa: BLE001
                row["err"].append(f"tritium: {e}")
                log(f"   tritium FAILED: {e}")
            if tri and row["tt"]:
                try:
                    row["tr"] = tri.run(c, tmp)
                    log(f"   triton:  {row['tr']['ms']:.4f} ms, first call {row['tr']['compile_ms']:.1f} ms, "
                        f"max |tritium - triton| {row['tr']['maxdiff']:.3g}")
                except Exception as e:  # noqa: BLE001
                    row["err"].append(f"triton: {e}")
                    log(f"   triton FAILED: {e}")
            for f in glob.glob(f"{tmp}/{c['name']}-*.npy"):
                os.remove(f)
            rows.append(row)
        # the tiny kernel: host launch overhead
        tiny = dict(case=TINY, tt=None, tr=None, err=[])
        try:
            tiny["tt"] = run_tritium(exe, TINY, tmp, 1000)
            log(f"== tiny add: tritium host launch from C {tiny['tt']['launch_us']:.2f} us "
                f"({tiny['tt']['launch_stream_us'] or 0:.2f} us on a non-blocking stream)")
        except Exception as e:  # noqa: BLE001
            tiny["err"].append(f"tritium: {e}")
        try:                                       # the same from Python: --mode gpu
            py = launch_from_python(exe)
            if tiny["tt"] is not None:
                tiny["tt"]["py_launch_us"] = py["tritium_py_us"]
            log(f"   from Python: tritium --mode gpu {py['tritium_py_us']:.2f} us, Triton {py['triton_py_us']:.2f} us "
                f"(bench/launch_overhead.py, same process, alternating batches)")
        except Exception as e:  # noqa: BLE001
            tiny["err"].append(f"tritium --mode gpu: {e}")
        try:                                       # the driver's floor under both
            floor = launch_floor(exe)
            if floor:
                log(f"   the driver alone (bench/launch_floor): empty kernel {floor['empty_us']:.2f} us "
                    f"({floor['empty_stream_us']:.2f} on a non-blocking stream), tiny add's 4 parameters "
                    f"{floor['buffer_us']:.2f} us as a buffer, {floor['params_us']:.2f} as kernelParams")
        except Exception as e:  # noqa: BLE001
            tiny["err"].append(f"launch_floor: {e}")
        if tri:
            try:
                tiny["tr"] = tri.run_tiny()
            except Exception as e:  # noqa: BLE001
                tiny["err"].append(f"triton: {e}")
        rows.append(tiny)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    # ---- the table ----
    def perf(c, ms):
        if ms is None or not ms:
            return None
        if c.get("flops"):
            return f"{c['flops'] / (ms * 1e-3) / 1e12:.1f} TFLOP/s"
        return f"{c['bytes'] / (ms * 1e-3) / 1e9:.0f} GB/s"

    hdr = ["kernel", "size", "tritium ms", "triton ms", "ratio", "tritium perf", "triton perf",
           "compile tritium ms", "compile triton ms", "launch tritium us", "launch tritium py us", "launch triton us",
           "max|diff|"]
    table = []
    for r in rows:
        c, tt, tr = r["case"], r["tt"] or {}, r["tr"] or {}
        ratio = tt["ms"] / tr["ms"] if tt.get("ms") and tr.get("ms") else None
        table.append([c["name"], c["size"], fmt(tt.get("ms"), ".4f"), fmt(tr.get("ms"), ".4f"), fmt(ratio, ".2f"),
                      perf(c, tt.get("ms")) or "-", perf(c, tr.get("ms")) or "-",
                      fmt(tt.get("compile_ms"), ".0f"), fmt(tr.get("compile_ms"), ".0f"),
                      fmt(tt.get("launch_us"), ".1f"), fmt(tt.get("py_launch_us"), ".1f"), fmt(tr.get("launch_us"), ".1f"),
                      fmt(tr.get("maxdiff"), ".3g")])
    w = [max(len(h), *(len(row[i]) for row in table)) for i, h in enumerate(hdr)]
    print()
    print(f"device: {device}; triton {getattr(tri, 'version', 'n/a')}; tritium --numerics fast; "
          f"kernel times: median, CUDA events (tritium --bench {a.iters}, triton do_bench)")
    print("  ".join(h.ljust(w[i]) for i, h in enumerate(hdr)))
    print("  ".join("-" * w[i] for i in range(len(hdr))))
    for row in table:
        print("  ".join(v.ljust(w[i]) if i < 2 else v.rjust(w[i]) for i, v in enumerate(row)))
    if floor:
        print(f"launch floor: cuLaunchKernel alone (bench/launch_floor, the driver API, no tritium code) costs "
              f"{floor['empty_us']:.1f} us for an empty kernel, {floor['buffer_us']:.1f} us for tiny add's "
              f"parameters as a buffer (5 batches of 200 back-to-back launches, as 'launch tritium us')")
    errs = [f"{r['case']['name']}: {e}" for r in rows for e in r["err"]]
    for e in errs:
        print("error:", e)
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main())
