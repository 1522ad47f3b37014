#!/usr/bin/env python3
"""bench/compile_time.py — cold GPU compile time of the examples and of Triton's
tutorials 01-06, phase by phase, beside Triton 3.6's cold compile of the same
kernels.

A cold compile is everything from the kernel's source to a loadable cubin:
  front    the front end (Python source -> tritium IR)
  lower    axis analysis, layout plan, lowering to LLVM IR
  opt      LLVM's pass pipeline (compiler/gpu/codegen.c)
  codegen  NVPTX instruction selection and PTX emission
  other    the rest of gpu_compile: target machine, libdevice link, verifier,
           cache key and cache write
  ptxas    PTX -> cubin. On the GPU the driver's JIT does it in-process
           (cuModuleLoadDataEx, compiler/cuda/cuda.c; the driver's compute
           cache keeps it, so the benchmark sets CUDA_CACHE_DISABLE=1);
           without a GPU, Triton's bundled ptxas (-O3, as the driver's JIT
           and Triton) stands in for it, timed as a child process.
  jit      with --jit (GPU machine): the driver's JIT itself, from
           `tritium run --device gpu` (TRITIUM_GPU_TIME's "jit" line); the
           total then counts jit instead of ptxas.
Each kernel is compiled ROUNDS times, with --numerics fast (Triton's FMA
contraction, ex2.approx and division, as bench/gpu.py runs; --numerics ieee
for tritium's default), with an empty TRITIUM_CACHE_DIR
(`tritium ptx`, or `tritium run --device gpu` with --jit) and
TRITIUM_GPU_TIME=1, whose "gpu time:" lines give the phases; the table shows
medians per kernel, then the median and the maximum over the kernels, with
and without PTX -> cubin. --triton adds Triton 3.6's cold compile of the same
kernels with the same constexprs and num_warps (bench/triton_compile.py:
triton.compile for sm_90 in one process per round, after a warm-up compile
as bench/gpu.py does; no GPU needed), its total beside ours and a second
table with its stages (front = make_ir, ttir, ttgir, llir, ptx, ptxas).
With --base OLD/tritium the two builds alternate round by round, and the
table adds the baseline's total, the ratio and whether the PTX is identical
(a PTX that differs is written to --ptx-dir for `diff`; with --triton,
Triton's PTX too). The machines are
noisy: compare the ratio, not a time; --cpu times CPU (ptxas: its rusage)
instead of wall clock on a loaded machine.

    python3 bench/compile_time.py [--tritium PATH] [--base PATH] [--rounds 5] [--cpu]
                                  [--only NAME[,NAME]] [--ptx-dir DIR] [--ptxas PATH|none]
                                  [--jit] [--triton] [--numerics fast|ieee]
"""
import argparse
import importlib.util
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TUT = "tests/python/tutorials/"


def spec(*words):
    return list(words)


def args(**kw):
    out = []
    for k, v in kw.items():
        out += ["--arg", "%s=%s" % (k, v)]
    return out


def consts(**kw):
    out = []
    for k, v in kw.items():
        out += ["--const", "%s=%s" % (k, v)]
    return out


F32 = "randn:f32[%s]"
MM_ARGS = args(a_ptr="randn:f16[4096,4096]", b_ptr="randn:f16[4096,4096]", c_ptr="empty:f16[4096,4096]",
               M=4096, N=4096, K=4096, stride_am=4096, stride_ak=1, stride_bk=4096, stride_bn=1,
               stride_cm=4096, stride_cn=1)

# name, file, kernel, launch words: the examples as bench/gpu.py launches
# them, the tutorials as their host code does on an H100 (first autotune
# config for 03).
CASES = [
    ("ex vector_add", "examples/vector_add.py", "add_kernel",
     args(x_ptr=F32 % 98432, y_ptr=F32 % 98432, output_ptr=F32 % 98432, n_elements=98432)
     + consts(BLOCK_SIZE=1024)),
    ("ex softmax", "examples/softmax.py", "softmax_kernel",
     args(output_ptr=F32 % "1823,781", input_ptr=F32 % "1823,781", input_row_stride=781,
          output_row_stride=781, n_rows=1823, n_cols=781) + consts(BLOCK_SIZE=1024)),
    ("ex layer_norm", "examples/layer_norm.py", "layer_norm_fwd_fused",
     args(X=F32 % "300,1000", Y=F32 % "300,1000", W=F32 % 1000, B=F32 % 1000, Mean=F32 % 300,
          Rstd=F32 % 300, stride=1000, N=1000, eps=1e-5) + consts(BLOCK_SIZE=1024)),
    ("ex matmul", "examples/matmul.py", "matmul_kernel",
     MM_ARGS + consts(BLOCK_SIZE_M=128, BLOCK_SIZE_N=128, BLOCK_SIZE_K=32, GROUP_SIZE_M=8)),
    ("01 add_kernel", TUT + "01-vector-add.py", "add_kernel",
     args(x_ptr=F32 % 98432, y_ptr=F32 % 98432, output_ptr=F32 % 98432, n_elements=98432)
     + consts(BLOCK_SIZE=1024)),
    ("02 softmax_kernel", TUT + "02-fused-softmax.py", "softmax_kernel",
     args(output_ptr=F32 % "1823,781", input_ptr=F32 % "1823,781", input_row_stride=781,
          output_row_stride=781, n_rows=1823, n_cols=781)
     + consts(BLOCK_SIZE=1024, num_stages=4) + ["--num-warps", "8"]),
    ("03 matmul_kernel", TUT + "03-matrix-multiplication.py", "matmul_kernel",
     MM_ARGS + consts(BLOCK_SIZE_M=128, BLOCK_SIZE_N=256, BLOCK_SIZE_K=64, GROUP_SIZE_M=8, ACTIVATION='""')
     + ["--num-warps", "8"]),
    ("03 matmul leaky_relu", TUT + "03-matrix-multiplication.py", "matmul_kernel",
     MM_ARGS + consts(BLOCK_SIZE_M=128, BLOCK_SIZE_N=64, BLOCK_SIZE_K=32, GROUP_SIZE_M=8,
                      ACTIVATION='"leaky_relu"')),
    ("04 _dropout", TUT + "04-low-memory-dropout.py", "_dropout",
     args(x_ptr=F32 % 1024, x_keep_ptr="randn:i8[1024]", output_ptr=F32 % 1024, n_elements=1024, p=0.5)
     + consts(BLOCK_SIZE=1024)),
    ("04 _seeded_dropout", TUT + "04-low-memory-dropout.py", "_seeded_dropout",
     args(x_ptr=F32 % 1024, output_ptr=F32 % 1024, n_elements=1024, p=0.5, seed=123)
     + consts(BLOCK_SIZE=1024)),
    ("05 _layer_norm_fwd_fused", TUT + "05-layer-norm.py", "_layer_norm_fwd_fused",
     args(X="randn:f16[1151,8192]", Y="empty:f16[1151,8192]", W="randn:f16[8192]", B="randn:f16[8192]",
          Mean=F32 % 1151, Rstd=F32 % 1151, stride=8192, N=8192, eps=1e-5)
     + consts(BLOCK_SIZE=8192) + ["--num-warps", "8"]),
    ("05 _layer_norm_bwd_dx", TUT + "05-layer-norm.py", "_layer_norm_bwd_dx_fused",
     args(DX="empty:f16[1151,8192]", DY="randn:f16[1151,8192]", DW="zeros:f32[64,8192]",
          DB="zeros:f32[64,8192]", X="randn:f16[1151,8192]", W="randn:f16[8192]", Mean=F32 % 1151,
          Rstd=F32 % 1151, Lock="zeros:i32[128]", stride=8192, N=8192)
     + consts(GROUP_SIZE_M=64, BLOCK_SIZE_N=8192) + ["--num-warps", "8"]),
    ("05 _layer_norm_bwd_dwdb", TUT + "05-layer-norm.py", "_layer_norm_bwd_dwdb",
     args(DW="randn:f32[64,8192]", DB="randn:f32[64,8192]", FINAL_DW="empty:f16[8192]",
          FINAL_DB="empty:f16[8192]", M=64, N=8192)
     + consts(BLOCK_SIZE_M=32, BLOCK_SIZE_N=128)),
    ("06 _attn_fwd", TUT + "06-fused-attention.py", "_attn_fwd",
     args(sm_scale=0.5, M="empty:f32[4,32,1024]", Z=4, H=32, desc_q="randn:f16[4,32,1024,64]",
          desc_k="randn:f16[4,32,1024,64]", desc_v="randn:f16[4,32,1024,64]",
          desc_o="empty:f16[4,32,1024,64]", N_CTX=1024)
     + consts(HEAD_DIM=64, BLOCK_M=128, BLOCK_N=64, FP8_OUTPUT=False, STAGE=3, warp_specialize=False,
              IS_HOPPER=True) + ["--num-warps", "4"]),
]

TIME_RE = re.compile(r"gpu time: \S+: analysis ([\d.]+) lower ([\d.]+) opt ([\d.]+) codegen ([\d.]+) total ([\d.]+) ms; "
                     r"cpu: (?:lower ([\d.]+) )?opt ([\d.]+) codegen ([\d.]+) total ([\d.]+) ms")
FRONT_RE = re.compile(r"gpu time: front ([\d.]+) ms; cpu ([\d.]+) ms")
JIT_RE = re.compile(r"gpu time: jit ([\d.]+) ms; cpu: jit ([\d.]+) ms")
TARGET_RE = re.compile(r"^\.target\s+(sm_\w+)", re.M)


def find_ptxas():
    """Triton's bundled ptxas (backends/nvidia/bin), or $TRITON_PTXAS_PATH."""
    e = os.environ.get("TRITON_PTXAS_PATH")
    if e:
        return e
    spec = importlib.util.find_spec("triton")
    for d in (spec.submodule_search_locations or []) if spec else []:
        p = os.path.join(d, "backends", "nvidia", "bin", "ptxas")
        if os.access(p, os.X_OK):
            return p
    return None


def run_ptxas(ptxas, ptx, tmp, cpu):
    """Milliseconds (wall, or CPU from the child's rusage) of ptxas -O3 on ptx."""
    m = TARGET_RE.search(ptx)
    src = os.path.join(tmp, "k.ptx")
    with open(src, "w") as fh:
        fh.write(ptx)
    t0 = time.perf_counter()
    p = subprocess.Popen([ptxas, "-O3", "--gpu-name=" + (m.group(1) if m else "sm_90"), src, "-o", src + ".cubin"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(p.pid, 0)
    wall = (time.perf_counter() - t0) * 1e3
    p.returncode = os.waitstatus_to_exitcode(status)
    err = p.stderr.read().decode(errors="replace")
    p.stderr.close()
    if p.returncode:
        return None, "ptxas: " + (err.strip().splitlines() or ["exit %d" % p.returncode])[0]
    return ((ru.ru_utime + ru.ru_stime) * 1e3 if cpu else wall), None


def compile_once(exe, case, tmp, o):
    """(times dict, ptx text) of one cold compile, or (None, error text)."""
    name, path, kernel, words = case
    cache = tempfile.mkdtemp(prefix="ct-", dir=tmp)
    # CUDA_CACHE_DISABLE: the driver keeps its own cache of JIT-compiled PTX
    # (~/.nv/ComputeCache); without it a repeated round times a cache hit
    env = dict(os.environ, TRITIUM_CACHE_DIR=cache, TRITIUM_GPU_TIME="1", CUDA_CACHE_DISABLE="1")
    sub = ["run", "--device", "gpu"] if o.jit else ["ptx"]
    grid = ["--grid", "1"] if o.jit else []     # one program: the launch only has to load the module
    cmd = [exe] + sub + [os.path.join(ROOT, path), "--kernel", kernel, "--numerics", o.numerics] + words + grid
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    ptx = p.stdout
    if o.jit:
        ptx = ""
        for fn in os.listdir(cache):
            if fn.endswith(".ptx"):
                with open(os.path.join(cache, fn)) as fh:
                    ptx = fh.read().split("\n", 1)[1]    # less the "// tritium smem=" line
    shutil.rmtree(cache, ignore_errors=True)
    m, f, j = TIME_RE.search(p.stderr), FRONT_RE.search(p.stderr), JIT_RE.search(p.stderr)
    if p.returncode != 0 or not m or not f or (o.jit and not j):
        lines = p.stderr.strip().splitlines()
        errs = [l for l in lines if "error" in l]
        return None, (errs or lines or ["exit %d" % p.returncode])[0]
    g = [float(x) if x is not None else None for x in m.groups()]
    if o.cpu:   # CPU time; an older build without the lowering's CPU time puts it in "other"
        t = dict(front=float(f.group(2)), lower=g[5] or 0.0, opt=g[6], codegen=g[7])
        t["other"] = g[8] - t["lower"] - g[6] - g[7]
        t["gpu"] = g[8]
    else:
        t = dict(front=float(f.group(1)), lower=g[0] + g[1], opt=g[2], codegen=g[3])
        t["other"] = g[4] - g[0] - g[1] - g[2] - g[3]
        t["gpu"] = g[4]
    t["llvm"] = t["front"] + t["gpu"]        # source -> PTX
    t["total"] = t["llvm"]
    if o.jit:
        t["jit"] = float(j.group(2) if o.cpu else j.group(1))
        t["total"] += t["jit"]
    if o.ptxas:
        ms, err = run_ptxas(o.ptxas, ptx, tmp, o.cpu)
        if ms is None:
            return None, err
        t["ptxas"] = ms
        if not o.jit:
            t["total"] += ms
    return t, ptx


def triton_round(cases, o):
    """Triton's cold compile of each case ({stage: ms} or {"error": text})."""
    specs = [dict(path=os.path.join(ROOT, c[1]), kernel=c[2], words=c[3]) for c in cases]
    if o.ptx_dir:
        os.makedirs(o.ptx_dir, exist_ok=True)
        for c, sp in zip(cases, specs):
            sp["ptx_out"] = os.path.join(o.ptx_dir, "%s.triton.ptx" % c[0].replace(" ", "_"))
    p = subprocess.run([sys.executable, os.path.join(HERE, "triton_compile.py"), json.dumps(specs)],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        res = json.loads(p.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        lines = p.stderr.strip().splitlines()
        return [{"error": (lines or ["exit %d" % p.returncode])[-1]}] * len(cases)
    k = 1 if o.cpu else 0
    return [r if "error" in r else {s: v[k] for s, v in r.items()} for r in res]


TRITON_STAGES = ["front", "ttir", "ttgir", "llir", "ptx", "cubin", "total"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tritium", default=os.path.join(ROOT, "build", "repl", "tritium"))
    ap.add_argument("--base", help="a baseline tritium: alternate rounds, add its total and the ratio")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--only", default="", help="substrings of case names, comma-separated")
    ap.add_argument("--ptx-dir", help="write each kernel's PTX (and the baseline's) here")
    ap.add_argument("--cpu", action="store_true",
                    help="CPU time of the compiling thread instead of wall time (a loaded machine)")
    ap.add_argument("--ptxas", default="", help="the ptxas that stands in for the driver's JIT "
                    "(default: Triton's bundled one); 'none' leaves PTX -> cubin out")
    ap.add_argument("--jit", action="store_true",
                    help="on a GPU machine: compile through `tritium run --device gpu` and count the driver's JIT")
    ap.add_argument("--triton", action="store_true", help="add Triton 3.6's cold compile of the same kernels")
    ap.add_argument("--numerics", choices=("fast", "ieee"), default="fast",
                    help="tritium's numerics (default fast: Triton's choices, as bench/gpu.py runs)")
    o = ap.parse_args()
    want = o.ptxas != "none"
    o.ptxas = (o.ptxas or find_ptxas()) if want else None
    if want and o.ptxas is None and not o.jit:
        print("note: no ptxas found (Triton's wheel or TRITON_PTXAS_PATH): PTX -> cubin left out")
    only = [s for s in o.only.split(",") if s]
    cases = [c for c in CASES if not only or any(s in c[0] for s in only)]
    sides = [("new", o.tritium)] + ([("base", o.base)] if o.base else [])
    tmp = tempfile.mkdtemp(prefix="tritium-ct-")
    res = {c[0]: {s: [] for s, _ in sides} for c in cases}
    tri = {c[0]: [] for c in cases}
    ptx, err, terr = {}, {}, {}
    try:
        for _ in range(o.rounds):
            for c in cases:
                for side, exe in sides:
                    t, out = compile_once(exe, c, tmp, o)
                    if t is None:
                        err[(c[0], side)] = out
                        continue
                    res[c[0]][side].append(t)
                    ptx[(c[0], side)] = out
            if o.triton:
                for c, r in zip(cases, triton_round(cases, o)):
                    if "error" in r:
                        terr[c[0]] = r["error"]
                    else:
                        tri[c[0]].append(r)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if o.ptx_dir:
        os.makedirs(o.ptx_dir, exist_ok=True)
        for (name, side), text in ptx.items():
            with open(os.path.join(o.ptx_dir, "%s.%s.ptx" % (name.replace(" ", "_"), side)), "w") as fh:
                fh.write(text)

    def med(name, side, key):
        v = [t[key] for t in res[name][side] if key in t]
        return statistics.median(v) if v else None

    def tmed(name, key):
        v = [t[key] for t in tri[name] if key in t]
        return statistics.median(v) if v else None

    last = "jit" if o.jit else "ptxas"
    cols = ["front", "lower", "opt", "codegen", "other"] + (["ptxas"] if o.ptxas and o.jit else []) + \
        ([last] if o.ptxas or o.jit else [])
    hdr = "%-26s" % "kernel" + "".join(" %7s" % k for k in cols) + " %8s" % "total ms"
    if o.triton:
        hdr += " %9s %6s" % ("triton ms", "ratio")
    if o.base:
        hdr += " %8s %6s %4s" % ("base ms", "ratio", "ptx")
    print(hdr)
    totals, llvm, base_totals, ttot = [], [], [], []
    for c in cases:
        n = c[0]
        if not res[n]["new"]:
            print("%-26s  error: %s" % (n, err.get((n, "new"), "?")))
            continue
        tot = med(n, "new", "total")
        totals.append(tot)
        llvm.append(med(n, "new", "llvm"))
        line = "%-26s" % n + "".join(" %7.2f" % med(n, "new", k) for k in cols) + " %8.2f" % tot
        if o.triton:
            tt = tmed(n, "total")
            if tt is None:
                line += " %9s %6s" % ("error", "")
            else:
                ttot.append(tt)
                line += " %9.2f %6.3f" % (tt, tot / tt)
        if o.base:
            b = med(n, "base", "total")
            if b is None:
                line += "  base error: %s" % err.get((n, "base"), "?")
            else:
                base_totals.append(b)
                same = ptx.get((n, "new")) == ptx.get((n, "base"))
                line += " %8.2f %6.3f %4s" % (b, tot / b, "same" if same else "DIFF")
        print(line)
    how = "%s, median of %d rounds" % ("CPU time" if o.cpu else "wall", o.rounds)
    if totals:
        cub = " -> cubin (%s)" % last if o.ptxas or o.jit else " -> PTX"
        print("over %d kernels: median %.2f ms, max %.2f ms (front end%s, cold, %s)"
              % (len(totals), statistics.median(totals), max(totals), cub, how))
        if o.ptxas or o.jit:
            print("  without PTX -> cubin: median %.2f ms, max %.2f ms (front end + LLVM -> PTX)"
                  % (statistics.median(llvm), max(llvm)))
    if base_totals:
        print("baseline:        median %.2f ms, max %.2f ms" % (statistics.median(base_totals), max(base_totals)))
    if ttot:
        print("Triton 3.6:      median %.2f ms, max %.2f ms over %d kernels (triton.compile, source -> cubin)"
              % (statistics.median(ttot), max(ttot), len(ttot)))
        print()
        print("Triton 3.6 stages, ms (front = make_ir; cubin = ptxas):")
        print("%-26s" % "kernel" + "".join(" %7s" % k for k in TRITON_STAGES))
        for c in cases:
            n = c[0]
            if not tri[n]:
                print("%-26s  error: %s" % (n, terr.get(n, "?")))
                continue
            print("%-26s" % n + "".join(" %7.2f" % (tmed(n, k) or 0.0) for k in TRITON_STAGES))
    bad = sorted({k[0] for k in err if k[1] == "new"})
    if bad:    # listed, not fatal
        print("%d kernel(s) did not compile: %s" % (len(bad), ", ".join(bad)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
