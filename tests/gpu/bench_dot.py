"""Time tritium's PTX for examples/matmul.py next to Triton's own compile of
the same kernel, in one process, with the same timer
(triton.testing.do_bench, median, CUDA events).

    python3 tests/gpu/bench_dot.py DIR

DIR/manifest.txt: one line per variant,
    LABEL PTXFILE BM BN BK GROUP NUM_WARPS M N K
with PTXFILE produced here by `gpu_tool --fast --ptx examples/matmul.py ...`
(the launch's specialization: strides of 1 are constants, 4096 is
divisible by 16). The PTX is loaded with cuModuleLoadData (driver JIT) and
launched with cuLaunchKernel on torch's current stream. Every variant is
also checked against torch's fp32 matmul of the same inputs."""
import ctypes
import os
import sys

import torch
import triton

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "examples"))
from matmul import matmul_kernel  # noqa: E402

cu = ctypes.CDLL("libcuda.so.1")


def check(rc, what):
    if rc != 0:
        s = ctypes.c_char_p()
        cu.cuGetErrorString(rc, ctypes.byref(s))
        raise RuntimeError(f"{what}: {rc} {s.value}")


def load(ptx_path):
    text = open(ptx_path, "rb").read()
    first = text.split(b"\n", 1)[0].decode()
    smem = int(first.split("smem=")[1]) if "smem=" in first else 0
    mod = ctypes.c_void_p()
    check(cu.cuModuleLoadData(ctypes.byref(mod), ctypes.c_char_p(text + b"\0")), "cuModuleLoadData")
    fn = ctypes.c_void_p()
    check(cu.cuModuleGetFunction(ctypes.byref(fn), mod, b"matmul_kernel"), "cuModuleGetFunction")
    if smem > 48 * 1024:
        check(cu.cuFuncSetAttribute(fn, 8, smem), "cuFuncSetAttribute")
    regs = ctypes.c_int()
    cu.cuFuncGetAttribute(ctypes.byref(regs), 4, fn)
    spill = ctypes.c_int()
    cu.cuFuncGetAttribute(ctypes.byref(spill), 3, fn)
    return fn, smem, regs.value, spill.value


def main():
    d = sys.argv[1]
    torch.manual_seed(0)
    rows = []
    cache = {}
    for line in open(os.path.join(d, "manifest.txt")):
        if not line.strip() or line.startswith("#"):
            continue
        label, ptx, bm, bn, bk, gm, nw, M, N, K = line.split()
        bm, bn, bk, gm, nw, M, N, K = map(int, (bm, bn, bk, gm, nw, M, N, K))
        key = (M, N, K)
        if key not in cache:
            a = torch.randn(M, K, device="cuda", dtype=torch.float16)
            b = torch.randn(K, N, device="cuda", dtype=torch.float16)
            cache[key] = (a, b, (a.float() @ b.float()))
        a, b, ref = cache[key]
        c = torch.full((M, N), float("nan"), device="cuda", dtype=torch.float16)
        fn, smem, regs, spill = load(os.path.join(d, ptx))
        grid = triton.cdiv(M, bm) * triton.cdiv(N, bn)
        vals = [ctypes.c_uint64(a.data_ptr()), ctypes.c_uint64(b.data_ptr()), ctypes.c_uint64(c.data_ptr())]
        vals += [ctypes.c_int32(x) for x in (M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                               c.stride(0), c.stride(1))]
        params = (ctypes.c_void_p * len(vals))(*[ctypes.cast(ctypes.byref(v), ctypes.c_void_p) for v in vals])

        def run():
            check(cu.cuLaunchKernel(fn, grid, 1, 1, 32 * nw, 1, 1, smem,
                                    ctypes.c_void_p(torch.cuda.current_stream().cuda_stream), params, None),
                  "cuLaunchKernel")
        run()
        torch.cuda.synchronize()
        err = ((c.float() - ref).norm() / ref.norm()).item()
        ms = triton.testing.do_bench(run, warmup=100, rep=500, return_mode="median")
        ms2 = triton.testing.do_bench(run, warmup=25, rep=300, return_mode="median")
        ct = torch.empty((M, N), device="cuda", dtype=torch.float16)

        def trun():
            matmul_kernel[(grid,)](a, b, ct, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                   ct.stride(0), ct.stride(1), BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn,
                                   BLOCK_SIZE_K=bk, GROUP_SIZE_M=gm, num_warps=nw, num_stages=3)
        tms = triton.testing.do_bench(trun, warmup=100, rep=500, return_mode="median")
        terr = ((ct.float() - ref).norm() / ref.norm()).item()
        fl = 2.0 * M * N * K
        rows.append((label, ms, ms2, fl / ms / 1e9, tms, fl / tms / 1e9, regs, spill, smem, err, terr))
        print(f"{label}: tritium {ms:.4f}/{ms2:.4f} ms triton {tms:.4f} ms err {err:.2e}", flush=True)
    print(f"\n{torch.cuda.get_device_name()}  triton {triton.__version__}")
    print(f"{'variant':34s} {'tritium ms':>10s} {'(again)':>8s} {'TFLOP/s':>8s} {'triton ms':>9s} {'TFLOP/s':>8s}"
          f" {'ratio':>6s} regs spill  smem  relerr(tt/triton)")
    for r in rows:
        print(f"{r[0]:34s} {r[1]:10.4f} {r[2]:8.4f} {r[3]:8.1f} {r[4]:9.4f} {r[5]:8.1f} {r[3] / r[5]:6.1%}"
              f" {r[6]:4d} {r[7]:5d} {r[8]:6d}  {r[9]:.1e}/{r[10]:.1e}")


if __name__ == "__main__":
    main()
