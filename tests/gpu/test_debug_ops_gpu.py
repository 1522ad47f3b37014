"""The GPU half of tests/conformance/test_debug_ops.py (issue 8), for the GPU
machine: device_print through vprintf prints the interpreter's lines (in
another order), inline asm (pack 1 and the pack-4, two-result example of
core.py) against numpy, and a failing device_assert stops the launch.
Exits 77 (skip) without a CUDA driver.

usage: python3 test_debug_ops_gpu.py TRITIUM_EXE   (TRITIUM_SRCDIR: the source tree)"""
import os
import subprocess
import sys
import tempfile

import numpy as np

EXE = os.path.abspath(sys.argv[1])
os.chdir(os.path.join(os.environ.get("TRITIUM_SRCDIR", os.path.join(os.path.dirname(__file__), "..", "..")),
                      "tests", "conformance"))
K = "kernels/debug_ops.py"
TMP = tempfile.mkdtemp(prefix="tritium-dprint-gpu-")
failures = []


def run(*args, env=None):
    e = dict(os.environ)
    e.pop("TRITON_DEBUG", None)
    e.update(env or {})
    return subprocess.run([EXE, *args], capture_output=True, text=True, env=e, timeout=300)


def check(name, cond, detail=""):
    print(("ok    " if cond else "FAIL  ") + name)
    if not cond:
        failures.append(name)
        print(detail[-3000:])


def tmp(name):
    return os.path.join(TMP, name)


r = run("run", "--device", "gpu", K + ":asm_shift", "--grid", "1", "--arg", "X=arange:i32[128]",
        "--arg", "Y=empty:i32[128]", "--const", "N=128", "--save", "Y=" + tmp("s.npy"))
if "no CUDA driver" in r.stderr or "no GPU" in r.stderr or "without the GPU compiler" in r.stderr:
    print("skipped: " + r.stderr.strip())
    sys.exit(77)
check("asm_shift", r.returncode == 0 and np.array_equal(np.load(tmp("s.npy")), np.arange(128, dtype=np.int32) << 3),
      r.stdout + r.stderr)

rng = np.random.default_rng(8)
a = rng.integers(0, 256, 256).astype(np.uint8)
b = (rng.standard_normal(256) * 100).astype(np.float32)
np.save(tmp("a.npy"), a)
np.save(tmp("b.npy"), b)
r = run("run", "--device", "gpu", K + ":asm_pack4", "--grid", "1", "--arg", "A=" + tmp("a.npy"), "--arg", "B=" + tmp("b.npy"),
        "--arg", "C=empty:i32[256]", "--arg", "D=empty:f32[256]", "--const", "BLOCK=256",
        "--save", "C=" + tmp("c.npy"), "--save", "D=" + tmp("d.npy"))
ok = r.returncode == 0
check("asm_pack4_c", ok and np.array_equal(np.load(tmp("c.npy")), a.astype(np.int32)), r.stdout + r.stderr)
check("asm_pack4_d", ok and np.array_equal(np.load(tmp("d.npy")), np.maximum(a.astype(np.float32), b)), r.stdout + r.stderr)

# device_print: the GPU prints the interpreter's lines, in thread order
x = (np.arange(16, dtype=np.float32) - 5.5) * 1.25
ii = np.arange(16, dtype=np.int32) - 7
np.save(tmp("x.npy"), x)
np.save(tmp("i.npy"), ii)
spec = [K + ":print_values", "--grid", "2", "--arg", "X=" + tmp("x.npy"), "--arg", "I=" + tmp("i.npy"), "--const", "N=16"]
ri = run("run", *spec)
rg = run("run", "--device", "gpu", *spec)
li = sorted(s for s in ri.stdout.splitlines() if s.startswith("pid ("))
lg = sorted(s for s in rg.stdout.splitlines() if s.startswith("pid ("))
check("print_gpu_equals_interp", rg.returncode == 0 and len(li) == 2 * (16 + 1 + 1 + 32 + 16) and li == lg,
      "\n".join("interp %r\ngpu    %r" % p for p in zip(li, lg) if p[0] != p[1])[:3000] + rg.stderr)

# tuple kernel arguments, flattened into the kernel's parameters
r = run("run", "--device", "gpu", K + ":tuple_args", "--grid", "1", "--arg", "T=(arange:f32[8], 2.5, (ones:f32[8], 7))",
        "--arg", "Out=empty:f32[8]", "--const", "N=8", "--save", "Out=" + tmp("to.npy"))
check("tuple_args", r.returncode == 0 and np.array_equal(np.load(tmp("to.npy")), np.arange(8, dtype=np.float32) * 2.5 + 1001),
      r.stdout + r.stderr)

xl = np.arange(32, dtype=np.float32) * 0.5
np.save(tmp("xl.npy"), xl)
r = run("run", "--device", "gpu", K + ":tuple_loop", "--grid", "1", "--arg", "X=" + tmp("xl.npy"), "--arg", "Y=empty:f32[8]",
        "--const", "N=8", "--save", "Y=" + tmp("tl.npy"))
a_, b_ = xl[:8].copy(), xl[:8] * 2
for i in range(3):
    a_, b_ = a_ + 1, b_ + a_ + xl[8 * i:8 * i + 8]
check("tuple_loop", r.returncode == 0 and np.array_equal(np.load(tmp("tl.npy")), a_ * 4 + b_), r.stdout + r.stderr)

# a failing device_assert (TRITON_DEBUG=1) stops the GPU launch with an error
np.save(tmp("aa.npy"), np.array([0, 1, 2, 3, 4, 5, 6, 100], dtype=np.int32))
r = run("run", "--device", "gpu", K + ":assert_lanes", "--grid", "3", "--arg", "X=" + tmp("aa.npy"),
        "--arg", "Y=zeros:i32[24]", "--const", "N=8", env={"TRITON_DEBUG": "1"})
check("assert_gpu_fails", r.returncode != 0 and ("assert" in (r.stdout + r.stderr).lower()), r.stdout + r.stderr)
r = run("run", "--device", "gpu", K + ":assert_lanes", "--grid", "3", "--arg", "X=" + tmp("aa.npy"),
        "--arg", "Y=zeros:i32[24]", "--const", "N=8")
check("assert_gpu_off_without_debug", r.returncode == 0, r.stdout + r.stderr)

print("%d failure(s)" % len(failures))
sys.exit(1 if failures else 0)
