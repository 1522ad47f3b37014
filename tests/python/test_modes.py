"""check, debug and record modes and TRITIUM_MODE on a machine without a GPU:
check --against a schedule (the program's launches in the interpreter under
another order of programs, compared with the in-order reference through the
same C comparison as with Triton's GPU results), scripted debugger sessions
on a launch of a running program, warmup-compiled launches in record mode,
KernelError's records as data, and the .pth activation."""
import os
import re
import shutil
import subprocess
import sys

import pytest

np = pytest.importorskip("numpy")
torch = pytest.importorskip("torch")
triton = pytest.importorskip("triton")

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

RACY = '''
import torch, triton, triton.language as tl

@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) + tl.load(y_ptr + offs, mask=m), mask=m)

@triton.jit
def last_writer(out_ptr, flag_ptr):
    pid = tl.program_id(0)
    tl.store(out_ptr + pid, pid * 2)
    tl.store(flag_ptr, pid)  # PLANTED: every program writes flag[0]; the last to run wins

x = torch.arange(100, dtype=torch.float32); y = torch.ones(100); out = torch.empty(100)
for _ in range(3):
    add_kernel[(4,)](x, y, out, 100, BLOCK=32)
assert torch.equal(out, x + y)
o = torch.zeros(4, dtype=torch.int32); f = torch.zeros(1, dtype=torch.int32)
last_writer[(4,)](o, f)
assert o.tolist() == [0, 2, 4, 6]
print("program ok, flag", f.item())
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

x = torch.arange(100, dtype=torch.float32) + 0.5
y = torch.zeros(100)
scale_kernel[(4,)](x, y, 100, S=3, BLOCK=32)
assert torch.equal(y, x * 3), y
y2 = torch.zeros(100)
scale_kernel[(4,)](x, y2, 100, S=5, BLOCK=32)
assert torch.equal(y2, x * 5), y2
print("program ok")
'''


def _env():
    env = dict(os.environ)
    env.pop("TRITON_INTERPRET", None)
    env.pop("TRITIUM_MODE", None)
    env["PYTHONPATH"] = os.path.join(ROOT, "python") + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _run(tmp_path, src, *opts, env=None, stdin=subprocess.DEVNULL):
    prog = tmp_path / "prog.py"
    prog.write_text(src)
    cmd = [sys.executable, "-m", "tritium"] + list(opts) + [str(prog)]
    return subprocess.run(cmd, env=env or _env(), capture_output=True, text=True, timeout=300, stdin=stdin)


def _line_of(src, marker):
    return next(i for i, l in enumerate(src.splitlines(), 1) if marker in l)


# ---- check ----------------------------------------------------------------------

def test_check_reports_the_order_dependent_launch_with_its_writer(tmp_path):
    p = _run(tmp_path, RACY, "--mode", "check", "--against", "reverse")
    err = p.stderr
    assert p.returncode == 1, err
    # the program went on with the results of its own (reversed) launch: program 0 ran last
    assert "program ok, flag 0" in p.stdout
    # the in-order reference's writer of flag[0] is the last program, (3, 0, 0), at the planted line
    line = _line_of(RACY, "PLANTED")
    assert re.search(r"flag_ptr i32\[1\]\s+MISMATCH: 1 of 1 elements differ", err), err
    assert re.search(r"\[0\]\s+3\s+0\s+3\s+3\s+program \(3, 0, 0\) at \S*prog\.py:%d" % line, err), err
    assert "out_ptr  i32[4]  ok" in err
    # the table: add_kernel's three launches agree, last_writer's one differs
    assert re.search(r"add_kernel\s+x_ptr:float32.*BLOCK=32\s+3\s+3\s+3\s+0\s+0\s+0", err), err
    assert re.search(r"last_writer\s+out_ptr:int32, flag_ptr:int32\s+1\s+1\s+0\s+1\s+0\s+0", err), err


def test_check_sample_and_agreement(tmp_path):
    src = RACY.replace("last_writer[(4,)](o, f)", "o.copy_(torch.tensor([0, 2, 4, 6]))")
    p = _run(tmp_path, src, "--mode", "check", "--against", "random:7", "--sample", "1")
    assert p.returncode == 0, p.stderr
    assert re.search(r"add_kernel\s+\S.*\s3\s+1\s+1\s+0\s+0\s+0\s*$", p.stderr, re.M), p.stderr


def test_check_counts_a_faulting_launch(tmp_path):
    src = RACY.replace("add_kernel[(4,)](x, y, out, 100, BLOCK=32)", "add_kernel[(4,)](x, y, out, 110, BLOCK=32)")
    src = src.replace("assert torch.equal(out, x + y)", "")
    p = _run(tmp_path, src, "--mode", "check", "--against", "in-order", "--sample", "2")
    assert p.returncode == 1
    assert "out-of-bounds" in p.stderr
    assert re.search(r"add_kernel\s+\S.*\s3\s+2\s+0\s+0\s+2\s+0\s*$", p.stderr, re.M), p.stderr


def test_check_goes_on_past_a_launch_it_cannot_represent(tmp_path):
    src = RACY.replace("last_writer[(4,)](o, f)", "last_writer[(4,)](o, f)\nadd_kernel[(1,)](x, y, out, object(), BLOCK=32)")
    p = _run(tmp_path, src, "--mode", "check", "--against", "reverse")
    # the program's own launch decides what happens to it (here it fails too); the table says so
    assert "add_kernel is not checked: tritium: argument 'n'" in p.stderr, p.stderr
    assert re.search(r"add_kernel\s+\S.*\s4\s+3\s+3\s+0\s+0\s+1\s*$", p.stderr, re.M), p.stderr


def test_check_without_a_gpu_says_so(tmp_path):
    p = _run(tmp_path, RACY, "--mode", "check")
    assert p.returncode == 2
    assert "needs a GPU" in p.stderr and "--against reverse" in p.stderr
    assert "program ok" not in p.stdout
    p = _run(tmp_path, RACY, "--mode", "check", "--against", "sideways")      # refused by the table's check
    assert p.returncode == 2 and "--against: sideways: expected one of triton, tritium-gpu" in p.stderr, p.stderr
    # --executor gpu (tritium's GPU path against Triton's results) needs a GPU and --against triton
    p = _run(tmp_path, RACY, "--mode", "check", "--executor", "gpu")
    assert p.returncode == 2 and "needs a GPU" in p.stderr, p.stderr
    p = _run(tmp_path, RACY, "--mode", "check", "--executor", "gpu", "--against", "reverse")
    assert p.returncode == 2 and "--executor gpu compares tritium's GPU path with Triton's results" in p.stderr
    assert "--against reverse" in p.stderr and "program ok" not in p.stdout


# ---- debug ----------------------------------------------------------------------

def test_debug_stops_in_the_program_and_line_and_writes_back(tmp_path):
    line = _line_of(SCALE, "# STORE")
    p = _run(tmp_path, SCALE, "--mode", "debug", "--break", "scale_kernel:%d pid (2)" % line,
             "-ex", "print pid", "-ex", "print x", "-ex", "print S", "-ex", "continue")
    out = p.stdout
    assert p.returncode == 0, p.stdout + p.stderr
    assert re.search(r"Breakpoint 1, program \(2,0,0\) scale_kernel \(\) at \S*prog\.py:%d" % line, out), out
    assert "$1 = 2" in out
    # x as program 2 loaded it: elements 64..95 of the program's own tensor
    vals = [float(v) for v in re.search(r"\$2 = f32\[32\]\s*\[([^\]]*)\]", out).group(1).split()]
    assert vals == [64.5 + i for i in range(32)], out
    assert "$3 = 3" in out                          # the first launch's constexpr, not the second's
    assert "[Launch finished normally: 4 programs]" in out
    # Python saw the results (its asserts passed) and the second launch ran without a stop
    assert "program ok" in out and out.count("Breakpoint 1,") == 1


def test_debug_detach_and_quit(tmp_path):
    # two --break for the same kernel: detach ends debugging, so the second never stops
    p = _run(tmp_path, SCALE, "--mode", "debug", "--break", "scale_kernel", "--break", "scale_kernel pid (1)",
             "-ex", "print S", "-ex", "detach")
    assert p.returncode == 0, p.stdout + p.stderr
    assert "$1 = 3" in p.stdout and "$1 = 5" not in p.stdout and "Detached." in p.stdout
    assert "program ok" in p.stdout
    # quit leaves the program with the status given
    p = _run(tmp_path, SCALE, "--mode", "debug", "--break", "scale_kernel", "-ex", "quit 7")
    assert p.returncode == 7 and "program ok" not in p.stdout
    # input ends at a stop: the launch finishes without stopping, results go back
    p = _run(tmp_path, SCALE, "--mode", "debug", "--break", "scale_kernel pid (3)", "-ex", "next")
    assert p.returncode == 0 and "program ok" in p.stdout, p.stdout + p.stderr
    p = _run(tmp_path, SCALE, "--mode", "debug", "--break", "scale_kernel pid x")
    assert p.returncode == 2 and "KERNEL[:LINE][ pid (x,y,z)]" in p.stderr


def test_debug_script_file_and_the_launch_cannot_change(tmp_path):
    script = tmp_path / "cmds"
    script.write_text("info launch\nset grid 8\nprint offs\ncontinue\n")
    p = _run(tmp_path, SCALE, "--mode", "debug", "--break", "scale_kernel pid (1)", "-x", str(script))
    assert p.returncode == 0, p.stdout + p.stderr
    assert "Grid       (4,1,1)" in p.stdout
    assert "cannot be changed here" in p.stderr
    # a -x file stops at its first failing command (gdb): `print offs` did not run; at the end of
    # input the launch finished without stopping and Python got its results
    assert "$1" not in p.stdout and "program ok" in p.stdout


# ---- record -----------------------------------------------------------------------

WARMUP = '''
import torch, triton, triton.language as tl

@triton.jit
def twice(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + o, tl.load(x_ptr + o, mask=o < n) * 2, mask=o < n)

x = torch.arange(50, dtype=torch.float32); y = torch.empty(50)
k = twice.warmup(x, y, 50, BLOCK=16, num_warps=2, grid=(1,))
k._init_handles()
k[(4, 1, 1)](x, y, 50, 16)
assert torch.equal(y, x * 2)
print("program ok", k.metadata.num_warps)
'''


def test_record_sees_warmup_compiled_launches(tmp_path):
    rec = tmp_path / "rec"
    p = _run(tmp_path, WARMUP, "--mode", "record", "--record-dir", str(rec))
    assert p.returncode == 0 and "program ok 2" in p.stdout, p.stderr
    assert sorted(os.listdir(rec)) == ["0001-twice"]
    words = (rec / "0001-twice" / "launch.sh").read_text().splitlines()[-1]
    assert "--grid 4,1,1 --num-warps 2" in words and "--const BLOCK=16" in words
    assert np.array_equal(np.load(rec / "0001-twice" / "x_ptr.npy"), np.arange(50, dtype=np.float32))


# ---- KernelError as data ------------------------------------------------------------

def test_kernel_error_carries_the_sites():
    import tritium
    import triton.language as tl
    tritium.enable("interp")

    @triton.jit
    def oob(x_ptr, out_ptr, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(out_ptr + offs, tl.load(x_ptr + offs))

    x = torch.zeros(48)
    out = torch.zeros(64)
    with pytest.raises(tritium.KernelError) as ei:
        oob[(2,)](x, out, BLOCK=32)
    e = ei.value
    assert e.grid == (2, 1, 1) and e.stats["faults"] == 1
    (s,) = e.sites
    assert s["kind"] == "out-of-bounds" and s["fault"] and s["op"] == "tt.load"
    assert s["program"] == [1, 0, 0] and s["programs"] == 1 and s["lanes"] == 16
    assert s["tensor"] == "x_ptr" and s["element"] == 48
    # a nested kernel compiles from its live source, placed at its lines in its own file
    assert s["file"] == __file__
    with open(__file__) as f:
        assert "tl.load(x_ptr + offs)" in f.read().splitlines()[s["line"] - 1]


# ---- TRITIUM_MODE ------------------------------------------------------------------

def test_tritium_mode_through_the_pth_file(tmp_path):
    """The .pth that pip installs: with TRITIUM_MODE set, a plain `python
    prog.py` runs its launches in tritium; without it tritium is not even
    imported."""
    site = tmp_path / "site"
    site.mkdir()
    shutil.copy(os.path.join(ROOT, "python", "tritium.pth"), site / "tritium.pth")
    prog = tmp_path / "prog.py"
    prog.write_text("import sys, triton\nprint('tritium imported:', 'tritium' in sys.modules, flush=True)\n" + SCALE)
    boot = "import site, sys, runpy; site.addsitedir(sys.argv[1]); runpy.run_path(sys.argv[2], run_name='__main__')"
    env = _env()
    env["TRITIUM_MODE"] = "interp"
    env["TRITIUM_OPTIONS"] = "-v"
    p = subprocess.run([sys.executable, "-c", boot, str(site), str(prog)], env=env, capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stderr
    assert "program ok" in p.stdout and "tritium imported: True" in p.stdout
    assert re.search(r"interp mode: 2 launches interpreted", p.stderr), p.stderr
    del env["TRITIUM_MODE"]
    p = subprocess.run([sys.executable, "-c", boot, str(site), str(prog)], env=env, capture_output=True, text=True,
                       timeout=300)
    assert "tritium imported: False" in p.stdout
    # without a GPU driver and without tritium, Triton cannot launch: the mode was really off
    assert p.returncode != 0


def test_check_through_the_pytest_plugin(tmp_path):
    """pytest -p tritium --tritium=check: the test passes (the program goes on
    with its own launch's results), the session fails, and the report the
    test's capture hid is printed again at the end with the table."""
    t = tmp_path / "test_racy.py"
    body = RACY.split("x = torch.arange")[0]
    t.write_text(body + "\ndef test_it():\n    o = torch.zeros(4, dtype=torch.int32)\n"
                 "    f = torch.zeros(1, dtype=torch.int32)\n    last_writer[(4,)](o, f)\n"
                 "    assert o.tolist() == [0, 2, 4, 6]\n")
    p = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "tritium",
                        "--tritium=check", "--tritium-options=--against reverse", str(t)], cwd=tmp_path, env=_env(),
                       capture_output=True, text=True, timeout=300)
    out = p.stdout + p.stderr
    assert p.returncode == 1 and "1 passed" in out, out
    assert re.search(r"\[0\]\s+3\s+0\s+3\s+3\s+program \(3, 0, 0\) at \S*test_racy\.py:%d"
                     % _line_of(body, "PLANTED"), out), out
    assert "1 checked, 1 disagree or fault" in out
