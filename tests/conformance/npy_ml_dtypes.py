"""bf16 and fp8 .npy files between ml_dtypes and tritium, both ways: arrays
that ml_dtypes' np.save writes are read by `tritium run` (FILE.npy:DTYPE for
the '<V1' float8 files), copied by a kernel and written back by --save; numpy
with ml_dtypes loads what tritium wrote, with the same bits.
usage: npy_ml_dtypes.py TRITIUM   (exit 77 without ml_dtypes)"""
import os
import subprocess
import sys
import tempfile

import numpy as np

try:
    import ml_dtypes as md
except ImportError:
    sys.exit(77)

exe = sys.argv[1]
here = os.path.dirname(os.path.abspath(__file__))
types = [("bf16", md.bfloat16, "<V2"), ("f8e4nv", md.float8_e4m3fn, "<V1"), ("f8e5", md.float8_e5m2, "<V1"),
         ("f8e4b8", md.float8_e4m3fnuz, "<V1"), ("f8e5b16", md.float8_e5m2fnuz, "<V1")]
fails = 0
with tempfile.TemporaryDirectory(prefix="fp8-npy-") as tmp:
    for name, t, descr in types:
        x = np.arange(256, dtype=np.uint8 if np.dtype(t).itemsize == 1 else np.uint16)
        if np.dtype(t).itemsize == 2:
            x = (x * 251).astype(np.uint16)
        x = x.view(t)
        src, out = os.path.join(tmp, name + "_in.npy"), os.path.join(tmp, name + "_out.npy")
        np.save(src, x)                       # what ml_dtypes writes ('<f1' for float8_e5m2)
        arg = src + (":" + name if np.dtype(t).itemsize == 1 and name != "f8e5" else "")
        r = subprocess.run([exe, "run", os.path.join(here, "kernels/fp8.py:copy"), "--grid", "1", "--arg", "X=" + arg,
                            "--arg", "Y=empty:%s[256]" % name, "--arg", "N=256", "--const", "BLOCK=256",
                            "--save", "Y=" + out], capture_output=True, text=True)
        ok = r.returncode == 0
        if ok:
            with open(out, "rb") as f:
                head = f.read(128)
            y = np.load(out)
            ok = ("'descr': '%s'" % descr).encode() in head and y.dtype.itemsize == np.dtype(t).itemsize
            ok = ok and np.array_equal(y.view(np.uint8), x.view(np.uint8))
        print(("ok    " if ok else "FAIL  ") + name)
        if not ok:
            print(r.stdout[-1500:] + r.stderr[-1500:])
        fails += not ok
    # a '<V1' file without its dtype is refused with the way out
    src = os.path.join(tmp, "f8e4nv_in.npy")
    r = subprocess.run([exe, "run", os.path.join(here, "kernels/fp8.py:copy"), "--grid", "1", "--arg", "X=" + src,
                        "--arg", "Y=empty:f32[256]", "--arg", "N=256", "--const", "BLOCK=256"],
                       capture_output=True, text=True)
    ok = r.returncode == 2 and "FILE.npy:f8e4nv" in r.stderr
    print(("ok    " if ok else "FAIL  ") + "'<V1' without a dtype")
    fails += not ok
sys.exit(min(fails, 99))
