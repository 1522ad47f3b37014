#!/usr/bin/env python3
"""Suite 'gpu': python -m tritium --mode check and --mode debug on a GPU.
Exits 77 (skipped) without torch, triton or a CUDA device.

1. Triton 3.6's tutorials 01 and 02 (tests/python/tutorials/, unchanged)
   under --mode check: Triton runs every launch on the GPU, tritium checks
   it in the interpreter; every checked launch must agree (exit 0, the
   table says 0 disagree) and the tutorials' own checks must pass.
2. A pytest run under check mode (a small generated test file), also with
   --against tritium-gpu (tritium's own GPU path).
3. A planted order-dependent kernel (every program stores its id into
   flag[0]): with the interpreter's programs in reverse order the last
   writer is program (0, 0, 0), on the GPU one of the 4096 programs that
   run later; it must be reported as disagreeing, naming program (0, 0, 0)
   and the planted line, with exit status 1.
4. --mode debug --break on CUDA tensors: stops in the right program of the
   right launch, prints a value, continues; the program sees the results.
"""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

RACY = '''
import torch, triton, triton.language as tl

@triton.jit
def last_writer(out_ptr, flag_ptr):
    pid = tl.program_id(0)
    tl.store(out_ptr + pid, pid * 2)
    tl.store(flag_ptr, pid)  # PLANTED

o = torch.zeros(4096, dtype=torch.int32, device="cuda"); f = torch.zeros(1, dtype=torch.int32, device="cuda")
last_writer[(4096,)](o, f)
assert torch.equal(o.cpu(), torch.arange(4096, dtype=torch.int32) * 2)
print("program ok")
'''

PYTEST = '''
import pytest, torch, triton, triton.language as tl

@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) + tl.load(y_ptr + offs, mask=m), mask=m)

@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n_cols + offs, mask=offs < n_cols, other=-float("inf"))
    e = tl.exp(x - tl.max(x, 0))
    tl.store(y_ptr + row * n_cols + offs, e / tl.sum(e, 0), mask=offs < n_cols)

@pytest.mark.parametrize("n", [1, 100, 4097])
def test_add(n):
    x = torch.randn(n, device="cuda"); y = torch.randn(n, device="cuda"); out = torch.empty_like(x)
    add_kernel[(triton.cdiv(n, 256),)](x, y, out, n, BLOCK=256)
    torch.testing.assert_close(out, x + y)

@pytest.mark.parametrize("cols", [7, 128, 1000])
def test_softmax(cols):
    x = torch.randn(33, cols, device="cuda"); y = torch.empty_like(x)
    softmax_kernel[(33,)](x, y, cols, BLOCK=triton.next_power_of_2(cols))
    torch.testing.assert_close(y, torch.softmax(x, 1))
'''

SCALE = '''
import torch, triton, triton.language as tl

@triton.jit
def scale_kernel(x_ptr, y_ptr, n, S: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(y_ptr + offs, x * S, mask=m)  # STORE

x = torch.arange(100, dtype=torch.float32, device="cuda") + 0.5
y = torch.zeros(100, device="cuda")
scale_kernel[(4,)](x, y, 100, S=3, BLOCK=32)
assert torch.equal(y, x * 3), y
print("program ok")
'''


def run(cmd, cwd=None):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(ROOT, "python") + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("TRITON_INTERPRET", None)
    env.pop("TRITIUM_MODE", None)
    p = subprocess.run([sys.executable, "-m", "tritium"] + cmd, cwd=cwd, env=env, capture_output=True, text=True,
                       timeout=900, stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout, p.stderr


def skip_reason():
    """Why this machine cannot run a GPU check (no torch, triton or CUDA
    device), else None; the scripts then print it and exit 77."""
    try:
        import torch
        import triton  # noqa: F401
    except ImportError as e:
        return "skipped: %s" % e
    return None if torch.cuda.is_available() else "skipped: no CUDA device"


def expect(name, ok, out):
    print("%s %s" % ("ok  " if ok else "FAIL", name))
    if not ok:
        print(out[-6000:])
    return 0 if ok else 1


def main():
    why = skip_reason()
    if why:
        print(why)
        return 77
    failed = 0
    tut = os.path.join(HERE, "tutorials")
    files = {f[:2]: f for f in os.listdir(tut) if f.endswith(".py")}
    for n in ("01", "02"):
        rc, out, err = run(["--mode", "check", os.path.join(HERE, "tutorial_main.py"), os.path.join(tut, files[n])],
                           cwd=tut)
        m = re.search(r"(\d+) checked, (\d+) disagree or fault", err)
        failed += expect("check %s" % files[n], rc == 0 and m and int(m.group(1)) > 0 and m.group(2) == "0",
                         out + err)
    with tempfile.TemporaryDirectory(prefix="tritium-gpu-check-") as d:
        t = os.path.join(d, "test_small.py")
        with open(t, "w") as f:
            f.write(PYTEST)
        for against in ("triton", "tritium-gpu"):
            rc, out, err = run(["--mode", "check", "--against", against, "-m", "pytest", "-q", "-p",
                                "no:cacheprovider", t], cwd=d)
            m = re.search(r"(\d+) checked, (\d+) disagree or fault", err)
            failed += expect("check pytest --against %s" % against,
                             rc == 0 and "6 passed" in out and m and m.group(1) == "6" and m.group(2) == "0",
                             out + err)
        prog = os.path.join(d, "racy.py")
        with open(prog, "w") as f:
            f.write(RACY)
        line = next(i for i, l in enumerate(RACY.splitlines(), 1) if "PLANTED" in l)
        rc, out, err = run(["--mode", "check", "--schedule", "reverse", prog])
        failed += expect("check planted order-dependent kernel",
                         rc == 1 and "program ok" in out and "flag_ptr i32[1]  MISMATCH" in err
                         and re.search(r"program \(0, 0, 0\) at \S*racy\.py:%d" % line, err)
                         and "out_ptr  i32[4096]  ok" in err, out + err)
        prog = os.path.join(d, "scale.py")
        with open(prog, "w") as f:
            f.write(SCALE)
        line = next(i for i, l in enumerate(SCALE.splitlines(), 1) if "# STORE" in l)
        rc, out, err = run(["--mode", "debug", "--break", "scale_kernel:%d pid (2)" % line, "-ex", "print pid",
                            "-ex", "print S", "-ex", "continue", prog])
        failed += expect("debug --break on CUDA tensors",
                         rc == 0 and re.search(r"Breakpoint 1, program \(2,0,0\) scale_kernel \(\) at \S*scale\.py:%d"
                                               % line, out) and "$1 = 2" in out and "$2 = 3" in out
                         and "program ok" in out, out + err)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
