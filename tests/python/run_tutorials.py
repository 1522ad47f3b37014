#!/usr/bin/env python3
"""Suite 'python': Triton 3.6's tutorials 01-08 (tests/python/tutorials/,
unchanged, MIT-licensed: see LICENSE there) under `python -m tritium`
(interp mode) with CPU torch: each must exit 0, which means its own
correctness asserts held; 01 and 03, which print their comparison instead of
asserting, must print a match. Exits 77 (skipped) without torch or triton.

Three run otherwise: 06 (fused attention) has only benchmarks under
__main__, so its own pytest test_op runs, at its smallest sizes (fp16,
backward, which runs the forward too), twice: as on this CPU machine (the
kernel makes device-side descriptors from plain pointers) and with
as_hopper.py (the host code takes its Hopper path and passes host
TensorDescriptors). 07 asserts its tensors are CUDA tensors, so its kernel
runs through a launch spec (`tritium run`) against numpy's arcsin. A
tutorial that meets a construct tritium refuses ("tritium does not support X
yet") is reported as skipped, naming it, rather than failed.

    run_tutorials.py [NN ...]     (default: 01 02 03 04 05 06 07 08)

The package comes from python/ in the source tree and the library from
$TRITIUM_LIB (meson sets both)."""
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

CHECKS = {
    "01": "The maximum difference between torch and triton is 0.0",
    "03": "Triton and Torch match",
}


# tutorial 06's test_op at its smallest sizes (ids: provider-mode-warp_specialize-causal-HEAD_DIM-N_CTX-H-Z)
T06 = ["06-fused-attention.py::test_op[triton-fp16-bwd-False-True-%d-128-2-1]" % d for d in (64, 128)]
N07 = 98432


def launched(out):
    return re.search(r"[1-9][0-9]* launches interpreted", out)


def check07(tmp):
    def check(out):
        import numpy as np
        try:
            x, y = np.load(os.path.join(tmp, "x.npy")), np.load(os.path.join(tmp, "y.npy"))
        except OSError:
            return False
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        ref = np.arcsin(x.astype(np.float64))
        return bool(np.all(np.abs(y - ref) <= 2 * np.spacing(np.abs(ref).astype(np.float32))))   # 2 ulp
    return check


def commands(n, tut, fname):
    """(label, argv, check of the output) for tutorial n."""
    py = [sys.executable, "-m", "tritium"]
    main = os.path.join(HERE, "tutorial_main.py")
    if n == "06":
        run = py + ["-v", "-m", "pytest", "-q", "-p", "no:cacheprovider"]
        two = lambda out: "2 passed" in out and launched(out)  # noqa: E731
        return [(fname + " (pointers)", run + T06, two),
                (fname + " (host descriptors)", run + ["-p", "as_hopper"] + T06, two)]
    if n == "07":
        import tempfile
        tmp = tempfile.mkdtemp(prefix="tritium-t07-")
        spec = ["run", fname + ":asin_kernel", "--grid", "cdiv(n_elements, BLOCK_SIZE)",
                "--arg", "x_ptr=rand:f32[%d]" % N07, "--arg", "y_ptr=zeros:f32[%d]" % N07,
                "--arg", "n_elements=numel(x_ptr)", "--const", "BLOCK_SIZE=1024",
                "--save", "x_ptr=%s/x.npy" % tmp, "--save", "y_ptr=%s/y.npy" % tmp]
        return [(fname + " (launch spec)", py + spec, check07(tmp))]
    return [(fname, py + ["-v", main, os.path.join(tut, fname)],
             lambda out: CHECKS.get(n, "") in out and launched(out))]


def main():
    try:
        import torch  # noqa: F401
        import triton  # noqa: F401
    except ImportError as e:
        print("skipped: %s" % e)
        return 77
    wanted = sys.argv[1:] or ["01", "02", "03", "04", "05", "06", "07", "08"]
    tut = os.path.join(HERE, "tutorials")
    files = {f[:2]: f for f in os.listdir(tut) if f.endswith(".py")}
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([os.path.join(ROOT, "python"), HERE, env.get("PYTHONPATH", "")])
    env.pop("TRITON_INTERPRET", None)
    env.setdefault("OMP_NUM_THREADS", "1")
    failed = 0
    for n in wanted:
        t0 = time.time()
        for label, cmd, check in commands(n, tut, files[n]):
            p = subprocess.run(cmd, cwd=tut, env=env, capture_output=True, text=True, timeout=900)
            out = p.stdout + p.stderr
            missing = next((m.group(1) for m in [re.search(r"tritium does not support (\S+) yet", out)] if m), None)
            ok = p.returncode == 0 and check(out)
            verdict = "ok  " if ok else "skip" if missing else "FAIL"
            print("%s %-40s %5.1f s  %s" % (verdict, label, time.time() - t0,
                                           "" if ok else "needs %s" % missing if missing else "exit %d" % p.returncode))
            t0 = time.time()
            if not ok and not missing:
                failed += 1
                print(out[-4000:])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
