"""Ctrl-C under python -m tritium: a SIGINT during a launch that never ends
(a spin lock gone wrong) stops it within 100 ms and raises KeyboardInterrupt
at the launch, naming the kernel and the programs that finished; the next
launch works and Python's own handler is back. In interp mode (in order and
on the parallel schedule's threads) and in check mode (the interpreter's run
in tritium_check)."""
import os
import signal
import subprocess
import sys
import time

import pytest

pytest.importorskip("numpy")
pytest.importorskip("torch")
pytest.importorskip("triton")

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

PROG = '''
import os, signal, sys, time
import torch, triton, triton.language as tl

@triton.jit
def spin(flag_ptr, out_ptr, release, N: tl.constexpr):
    pid = tl.program_id(0)
    if release != 0 and pid == N - 1:        # the last program lets every one go (reverse order only)
        tl.store(flag_ptr + tl.arange(0, N), tl.full((N,), 1, tl.int32))
    while tl.load(flag_ptr + pid) == 0:
        pass
    tl.store(out_ptr + pid, pid + 1)

@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) + tl.load(y_ptr + offs, mask=m), mask=m)

out = torch.zeros(8, dtype=torch.int32)
spin[(1,)](torch.ones(8, dtype=torch.int32), out, 3, N=8)   # compiled before the signal can come
flag = torch.tensor([1, 1, 1, 0, 0, 0, 0, 0], dtype=torch.int32)
print("SPINNING", flush=True)
try:
    spin[(8,)](flag, out, 3, N=8)            # programs 0-2 finish, 3 spins for ever (in order)
    print("not interrupted", flush=True)
    sys.exit(3)
except KeyboardInterrupt as e:
    t = time.monotonic()
    print("CAUGHT %r %s" % (t, e), flush=True)

x = torch.rand(1000); y = torch.rand(1000); z = torch.empty(1000)
add_kernel[(8,)](x, y, z, 1000, BLOCK=128)
assert torch.equal(z, x + y), "the launch after the interrupt"
try:                                         # Python's handler is back
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(5)
    print("no KeyboardInterrupt from Python", flush=True)
    sys.exit(4)
except KeyboardInterrupt:
    pass
print("ADD OK", flush=True)
'''

CASES = {
    "interp": [],
    "parallel": ["--schedule", "parallel", "--threads", "2"],      # 0-2 finish, 3 and 4 spin
    # the other run (reverse) releases the programs; tritium_check's in-order run spins
    "check": ["--mode", "check", "--against", "reverse"],
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_ctrl_c_stops_a_spinning_launch(tmp_path, case):
    prog = tmp_path / "prog.py"
    prog.write_text(PROG)
    env = dict(os.environ)
    env.pop("TRITON_INTERPRET", None)
    env.pop("TRITIUM_MODE", None)
    env["PYTHONPATH"] = os.path.join(ROOT, "python") + os.pathsep + env.get("PYTHONPATH", "")
    cmd = [sys.executable, "-u", "-m", "tritium"] + CASES[case] + [str(prog)]
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         stdin=subprocess.DEVNULL)
    try:
        line = p.stdout.readline()
        assert line.strip() == "SPINNING", line + p.stderr.read()
        time.sleep(0.3)                      # into the launch
        sent = time.monotonic()              # CLOCK_MONOTONIC, as the program's time.monotonic()
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
            p.communicate()
    assert p.returncode == 0, "exit %d\n%s\n%s" % (p.returncode, out, err)
    caught = [ln for ln in out.splitlines() if ln.startswith("CAUGHT ")]
    assert caught, out + err
    t, msg = caught[0].split(" ", 2)[1:]
    latency = float(t) - sent
    print("%s: KeyboardInterrupt %.1f ms after SIGINT: %s" % (case, latency * 1e3, msg))
    assert 0 <= latency < 0.1, "%.1f ms" % (latency * 1e3)
    assert "kernel spin interrupted after 3 of 8 programs" in msg, msg
    assert "ADD OK" in out, out + err
