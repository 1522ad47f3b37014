"""device_print / print, device_assert / assert, inline_asm_elementwise and
tl.tuple through the real `tritium` program (issue 8). The expected print
lines are built here from the inputs with Python's own formatting, following
Triton 3.6's format (PrintOpToLLVM.cpp: "pid (x, y, z) idx (i, ...)<prefix>
[(operand k) ]<value>", index width ceil(log10(dim)), floats "%f"); tuple
results are checked against numpy.

usage: python3 test_debug_ops.py TRITIUM_EXE   (run in tests/conformance)"""
import math
import os
import subprocess
import sys
import tempfile

import numpy as np

EXE = os.path.abspath(sys.argv[1])
K = "kernels/debug_ops.py"
TMP = tempfile.mkdtemp(prefix="tritium-dprint-")
failures = []
checked = []


def run(*args, env=None):
    e = dict(os.environ)
    e.pop("TRITON_DEBUG", None)
    e["TRITIUM_TRITON_VERSION"] = "3.8"     # the tuple kernels carry block pointers (gone in 3.9)
    e.update(env or {})
    return subprocess.run([EXE, *args], capture_output=True, text=True, env=e, timeout=120)


def check(name, cond, detail=""):
    checked.append(name)
    if not cond:
        failures.append(name)
        print("FAIL %s\n%s" % (name, detail))


def width(dim):
    return 0 if dim <= 1 else math.ceil(math.log10(dim))


def lines(pid, prefix, arr, fmt, operand=None):
    out = []
    for idx in np.ndindex(*arr.shape):
        ix = ", ".join("%*d" % (width(arr.shape[d]), i) for d, i in enumerate(idx))
        op = "" if operand is None else "(operand %d) " % operand
        out.append("pid (%d, 0, 0) idx (%s)%s%s%s" % (pid, ix, prefix, op, fmt(arr[idx])))
    return out


# ---- device_print: every element, Triton's format, programs in order ----
x = (np.arange(16, dtype=np.float32) - 5.5) * 1.25
ii = np.arange(16, dtype=np.int32) - 7
np.save(os.path.join(TMP, "x.npy"), x)
np.save(os.path.join(TMP, "i.npy"), ii)
r = run("run", K + ":print_values", "--grid", "2", "--arg", "X=" + os.path.join(TMP, "x.npy"),
        "--arg", "I=" + os.path.join(TMP, "i.npy"), "--const", "N=16")
want = []
i2 = ii.reshape(2, 8)
for pid in range(2):
    want += lines(pid, " x: ", x, lambda v: "%f" % v)
    want += ["pid (%d, 0, 0) idx () pid: %d" % (pid, pid)]
    want += ["pid (%d, 0, 0) hello" % pid]
    want += lines(pid, " two: ", i2, lambda v: "%d" % v, 0)
    want += lines(pid, " two: ", (i2 < 0).astype(np.int8), lambda v: "%d" % v, 1)
    want += lines(pid, " bits: ", x.view(np.uint32), lambda v: "0x%08x" % v)
got = r.stdout.splitlines()
got = got[:got.index(next(s for s in got if s.startswith("kernel ")))] if any(s.startswith("kernel ") for s in got) else got
check("print_format", r.returncode == 0 and got == want,
      "rc %d\n%s" % (r.returncode, "\n".join("got  %r\nwant %r" % gw for gw in zip(got, want) if gw[0] != gw[1])[:2000]))

u = np.array([0, 1, 2**63, 2**64 - 1], dtype=np.uint64)
np.save(os.path.join(TMP, "u.npy"), u)
r = run("run", K + ":print_u64", "--grid", "1", "--arg", "X=" + os.path.join(TMP, "u.npy"), "--const", "N=4")
want = lines(0, " u=: ", u, lambda v: "%d" % v)
check("print_u64", r.stdout.splitlines()[:4] == want, r.stdout[:800])

# ---- device_assert: only with debug (TRITON_DEBUG=1 or @triton.jit(debug=True)) ----
a = np.array([0, 1, 2, 3, 4, 5, 6, 100], dtype=np.int32)   # lane 7 is masked off
np.save(os.path.join(TMP, "a.npy"), a)
spec = ["run", K + ":assert_lanes", "--grid", "3", "--arg", "X=" + os.path.join(TMP, "a.npy"),
        "--arg", "Y=zeros:i32[24]", "--const", "N=8", "--save", "Y=" + os.path.join(TMP, "y.npy")]
r = run(*spec)
check("assert_off_without_debug", r.returncode == 0 and "device_assert" not in r.stderr, r.stderr)
check("assert_off_result", np.array_equal(np.load(os.path.join(TMP, "y.npy")), np.tile(a + 1, 3)))
r = run(*spec, env={"TRITON_DEBUG": "1"})
err = r.stderr
check("assert_fails_exit1", r.returncode == 1, "rc %d" % r.returncode)
# program 0: lanes 5, 6 fail (x < 5); program 1: lane 6 (x < 6); program 2: none (7 masked off)
check("assert_report_pid0", "device_assert failed in program (0, 0, 0)" in err and
      "2 of 8 lanes failed, the first is lane 5 (of 8)" in err and "assertion: x must stay small" in err, err)
check("assert_report_line", "debug_ops.py:31:" in err and "tl.device_assert(x < 5 + pid" in err, err)
check("assert_report_pid1", "1 fault (3 lanes) in 2 programs" in err and "happened in 2 programs" in err, err)
y = np.load(os.path.join(TMP, "y.npy"))
# a failing program stops at the assert: its store does not happen
check("assert_stops_program", np.array_equal(y, np.concatenate([np.zeros(16, np.int32), a + 1])), str(y))

b = np.array([3, -1, 5], dtype=np.float32)
np.save(os.path.join(TMP, "b.npy"), b)
r = run("run", K + ":assert_stmt", "--grid", "3", "--arg", "X=" + os.path.join(TMP, "b.npy"),
        "--arg", "Y=zeros:f32[3]", "--const", "N=1", "--save", "Y=" + os.path.join(TMP, "yb.npy"))
check("assert_stmt_jit_debug", r.returncode == 1 and "device_assert failed in program (1, 0, 0)" in r.stderr and
      "assertion: negative input" in r.stderr, r.stderr)
check("assert_stmt_result", np.array_equal(np.load(os.path.join(TMP, "yb.npy")), np.array([6, 0, 10], np.float32)))

# the debugger stops at a failing assert with the program's values live
r = run("debug", K + ":assert_stmt", "--grid", "3", "--arg", "X=" + os.path.join(TMP, "b.npy"),
        "--arg", "Y=zeros:f32[3]", "--const", "N=1", "-batch", "-ex", "run", "-ex", "print x", "-ex", "continue")
check("debugger_stops_on_assert", "Program (1,0,0) faulted (1 lane)" in r.stdout and
      "assert_stmt () at kernels/debug_ops.py:39" in r.stdout and "$1 = -1." in r.stdout, r.stdout + r.stderr)

r = run("debug", K + ":print_u64", "--grid", "1", "--arg", "X=arange:i64[2]", "--const", "N=2", "-batch", "-ex", "run")
check("debugger_shows_prints", "pid (0, 0, 0) idx (0) u=: 0\npid (0, 0, 0) idx (1) u=: 1\n[Launch finished normally" in r.stdout,
      r.stdout + r.stderr)

# ---- inline asm: a located error in the interpreter, PTX on the GPU path ----
r = run("run", K + ":asm_shift", "--grid", "1", "--arg", "X=arange:i32[128]", "--arg", "Y=empty:i32[128]", "--const", "N=128")
check("asm_interp_error", r.returncode == 2 and "debug_ops.py:46:" in r.stderr and
      "tritium cannot run PTX on the CPU: inline_asm_elementwise" in r.stderr and "^" in r.stderr, r.stderr)
r = run("ptx", K + ":asm_shift", "--grid", "1", "--arg", "X=arange:i32[128]", "--arg", "Y=empty:i32[128]", "--const", "N=128")
if "without the GPU compiler" not in r.stderr:
    check("asm_ptx", r.returncode == 0 and "shl.b32" in r.stdout, r.stderr)
    r = run("ptx", K + ":print_values", "--grid", "2", "--arg", "X=" + os.path.join(TMP, "x.npy"),
            "--arg", "I=" + os.path.join(TMP, "i.npy"), "--const", "N=16", env={"TRITON_DEBUG": "1"})
    check("print_ptx", r.returncode == 0 and "vprintf" in r.stdout, r.stderr)
    r = run("ptx", K + ":assert_lanes", "--grid", "3", "--arg", "X=" + os.path.join(TMP, "a.npy"),
            "--arg", "Y=zeros:i32[24]", "--const", "N=8", env={"TRITON_DEBUG": "1"})
    check("assert_ptx", r.returncode == 0 and "__assertfail" in r.stdout, r.stderr)

# ---- tl.tuple, tuple returns and unpacking, against numpy ----
r = run("run", K + ":tuples", "--grid", "1", "--arg", "X=" + os.path.join(TMP, "x.npy"), "--arg", "Y=empty:f32[16]",
        "--arg", "Z=empty:f32[16]", "--const", "N=16", "--save", "Y=" + os.path.join(TMP, "ty.npy"),
        "--save", "Z=" + os.path.join(TMP, "tz.npy"))
s, p = x + (x + 1), x * (x + 1)
check("tuples_run", r.returncode == 0, r.stderr)
if r.returncode == 0:
    check("tuples_y", np.array_equal(np.load(os.path.join(TMP, "ty.npy")), s - p + 3))
    check("tuples_z", np.array_equal(np.load(os.path.join(TMP, "tz.npy")), s * 3))

xl = np.arange(32, dtype=np.float32) * 0.5
np.save(os.path.join(TMP, "xl.npy"), xl)
r = run("run", K + ":tuple_loop", "--grid", "1", "--arg", "X=" + os.path.join(TMP, "xl.npy"), "--arg", "Y=empty:f32[8]",
        "--const", "N=8", "--save", "Y=" + os.path.join(TMP, "tl.npy"))
a_, b_ = xl[:8].copy(), xl[:8] * 2
for i in range(3):
    a_, b_ = a_ + 1, b_ + a_ + xl[8 * i:8 * i + 8]
a_ = a_ * 4
check("tuple_loop_carried", r.returncode == 0 and np.array_equal(np.load(os.path.join(TMP, "tl.npy")), a_ + b_), r.stderr)

xi = np.arange(16, dtype=np.float32)
np.save(os.path.join(TMP, "xi.npy"), xi)
for flag, want in (("2", xi[:8] + 1 + xi[8:]), ("0", xi[:8] * 4)):
    r = run("run", K + ":tuple_if", "--grid", "1", "--arg", "X=" + os.path.join(TMP, "xi.npy"), "--arg", "Y=empty:f32[8]",
            "--arg", "flag=" + flag, "--const", "N=8", "--save", "Y=" + os.path.join(TMP, "ti.npy"))
    check("tuple_runtime_if_" + flag, r.returncode == 0 and np.array_equal(np.load(os.path.join(TMP, "ti.npy")), want), r.stderr)

# ---- tuple kernel arguments: --arg T='(SPEC, SPEC, (SPEC, None))' ----
xs = np.arange(8, dtype=np.float32)
for last, add in (("None", 0.0), ("7", 1000.0)):
    r = run("run", K + ":tuple_args", "--grid", "1", "--arg", "T=(arange:f32[8], 2.5, (ones:f32[8], %s))" % last,
            "--arg", "Out=empty:f32[8]", "--const", "N=8", "--save", "Out=" + os.path.join(TMP, "to.npy"))
    check("tuple_arg_" + last, r.returncode == 0 and
          np.array_equal(np.load(os.path.join(TMP, "to.npy")), xs * 2.5 + 1 + add), r.stdout + r.stderr)
r = run("run", K + ":tuple_args", "--grid", "1", "--arg", "T=(arange:f32[8], 2.5)", "--arg", "Out=empty:f32[8]", "--const", "N=8")
check("tuple_arg_too_short", r.returncode == 2 and "error: tuple index 2 out of range" in r.stderr, r.stderr)

# ---- the Python entry point: device_print reaches sys.stdout, Python tuples as tuple arguments ----
if os.environ.get("TRITIUM_LIB"):
    try:
        import torch  # noqa: F401
        have_torch = True
    except ImportError:
        have_torch = False
    if have_torch:
        script = os.path.join(TMP, "pyprog.py")
        with open(script, "w") as f:
            f.write("""import contextlib, io, sys
import torch, triton, triton.language as tl
sys.path.insert(0, %r)
from debug_ops import tuple_args, print_u64
x = torch.arange(8, dtype=torch.float32); y = torch.ones(8); out = torch.empty(8)
tuple_args[(1,)]((x, 2.5, (y, None)), out, N=8)
print("OUT", out.tolist())
buf = io.StringIO()
with contextlib.redirect_stdout(buf):
    print_u64[(1,)](torch.tensor([5, 6], dtype=torch.int64), N=2)
print("CAPTURED", repr(buf.getvalue()))
""" % os.path.abspath("kernels"))
        e = dict(os.environ)
        r = subprocess.run([sys.executable, "-m", "tritium", script], capture_output=True, text=True, env=e, timeout=300)
        want_out = "OUT " + str((xs * 2.5 + 1).tolist())
        want_cap = "CAPTURED " + repr("pid (0, 0, 0) idx (0) u=: 5\npid (0, 0, 0) idx (1) u=: 6\n")
        check("python_tuple_arg", want_out in r.stdout, r.stdout + r.stderr)
        check("python_print_to_sys_stdout", want_cap in r.stdout, r.stdout + r.stderr)

# ---- static_print / static_assert: Python's print of the unwrapped values ----
import io
buf = io.StringIO()
print("N =", 4, "fp32[constexpr[4]]", 0.5, 1e20, "fp16", (1, "a"), True, None, sep="|", file=buf)
r = run("run", K + ":static_prints", "--grid", "1", "--arg", "X=zeros:f32[4]", "--const", "N=4")
check("static_print", r.returncode == 0 and r.stdout.startswith(buf.getvalue()), r.stdout[:300] + r.stderr)
r = run("run", K + ":static_prints", "--grid", "1", "--arg", "X=zeros:f32[4]", "--const", "N=8")
check("static_assert", r.returncode == 2 and "error: static_assert failed: N must be 4" in r.stderr, r.stderr)

print("%d checks, %d failure(s)" % (len(checked), len(failures)))
sys.exit(1 if failures else 0)
