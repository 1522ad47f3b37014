"""fp8 values through tl.abs, tl.max, tl.min and tl.sum(dtype=tl.float32) in
the interpreter (`tritium run`, kernels/fp8.py abs8 and reduce8), against
numpy on the values ml_dtypes decodes: abs over all 256 codes of each fp8
type bit for bit (fp8e4b15, which ml_dtypes lacks: the code with bit 7
cleared), row max/min/sum of 16 finite codes of moderate magnitude (their fp32 sums
are exact in any order). triton_gpu.py runs the same cases (abs_case,
reduce_case) under real Triton.
usage: fp8_ops.py TRITIUM [RUN OPTIONS...]   (e.g. --device gpu; exit 77 without ml_dtypes)"""
import os
import subprocess
import sys
import tempfile

import numpy as np

try:
    import ml_dtypes as md
except ImportError:
    md = None

here = os.path.dirname(os.path.abspath(__file__))
kfile = os.path.join(here, "kernels", "fp8.py")


def types():
    """(launch-spec dtype, ml_dtypes type or None) of every fp8 type."""
    return [("f8e4nv", md.float8_e4m3fn), ("f8e5", md.float8_e5m2), ("f8e4b15", None),
            ("f8e4b8", md.float8_e4m3fnuz), ("f8e5b16", md.float8_e5m2fnuz)]


def abs_case(t):
    """abs8 over every code: (input codes, expected codes, check(got codes) ->
    indices of wrong codes); any NaN code is right for a NaN."""
    codes = np.arange(256, dtype=np.uint8)
    want = codes & 0x7F if t is None else np.abs(codes.view(t)).view(np.uint8)
    nan = np.isnan(codes.view(t).astype(np.float32)) if t is not None else np.zeros(256, bool)

    def bad(g):
        ok_nan = np.isnan(g.view(t).astype(np.float32)) if t is not None else nan
        return np.nonzero((g != want) & ~(nan & ok_nan))[0]
    return codes, want, bad


def reduce_case(name, t):
    """reduce8 over 16 rows of 16 finite codes: (input codes [256], {output: expected f32 [16]})."""
    codes = np.arange(256, dtype=np.uint8)
    v = codes.view(t).astype(np.float64)
    # finite codes of magnitude 0 or 2^-6 .. 2^10: a sum of 16 needs at most
    # 16 + 3 + 4 bits, so the fp32 sum is exact in any order
    a = np.abs(v)
    fin = codes[np.isfinite(v) & ((a == 0) | ((a >= 2.0 ** -6) & (a <= 2.0 ** 10)))]
    rng = np.random.default_rng(len(name))
    x = rng.choice(fin, 256).astype(np.uint8)
    xf = x.view(t).astype(np.float64).reshape(16, 16)
    return x, {k: w.astype(np.float32) for k, w in (("MX", xf.max(axis=1)), ("MN", xf.min(axis=1)),
                                                     ("S", xf.sum(axis=1)))}


def main():
    if md is None:
        return 77
    exe, extra = sys.argv[1], sys.argv[2:]            # more `tritium run` options (--device gpu)
    tys = types()
    if "gpu" in extra:                    # the GPU path refuses the fnuz types, as Triton's CUDA backend
        tys = [t for t in tys if t[0] not in ("f8e4b8", "f8e5b16")]
    fails = 0

    def run(kernel, args, saves, tmp):
        cmd = [exe, "run", kfile + ":" + kernel, "--grid", "1"] + extra + sum((["--arg", a] for a in args), [])
        outs = {}
        for name in saves:
            outs[name] = os.path.join(tmp, name + ".npy")
            cmd += ["--save", "%s=%s" % (name, outs[name])]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode:
            return None, r.stderr[-1500:]
        return {k: np.load(v) for k, v in outs.items()}, ""

    with tempfile.TemporaryDirectory(prefix="rz-fp8-ops-") as tmp:
        for name, t in tys:
            codes, want, bad_codes = abs_case(t)
            src = os.path.join(tmp, "codes.npy")
            np.save(src, codes.view(np.dtype("V1")))   # raw bytes, typed by FILE.npy:DTYPE
            got, err = run("abs8", ["X=%s:%s" % (src, name), "Y=empty:%s[256]" % name, "N=256"], ["Y"], tmp)
            if got is None:
                fails += 1
                print("FAIL  abs %s: %s" % (name, err))
                continue
            g = got["Y"].view(np.uint8)
            bad = bad_codes(g)
            if len(bad):
                fails += 1
                print("FAIL  abs %s: %d codes differ, e.g. 0x%02x -> 0x%02x, want 0x%02x" % (
                    name, len(bad), bad[0], g[bad[0]], want[bad[0]]))
            if t is None:
                continue
            x, wants = reduce_case(name, t)
            xs = os.path.join(tmp, "x_%s.npy" % name)
            np.save(xs, x.view(np.dtype("V1")))
            got, err = run("reduce8", ["X=%s:%s" % (xs, name), "MX=empty:f32[16]", "MN=empty:f32[16]",
                                       "S=empty:f32[16]", "M=16", "N=16"], ["MX", "MN", "S"], tmp)
            if got is None:
                fails += 1
                print("FAIL  reduce %s: %s" % (name, err))
                continue
            for k, w in wants.items():
                if not np.array_equal(got[k], w):
                    fails += 1
                    print("FAIL  %s %s: got %s want %s" % (k, name, got[k][:4], w[:4]))
    print("fp8 abs/max/min/sum: %d failures" % fails)
    return min(fails, 99)


if __name__ == "__main__":
    sys.exit(main())
