"""tl.atomic_poll (Triton 3.9 core.py atomic_poll, semantic.py atomic_poll,
interpreter.py create_atomic_poll) in interp mode, against torch: true
where the value equals the expected one, false where the timeout ran out
first; a program waits for another program's write. Under Triton 3.6-3.8
the kernel is refused naming 3.9. tests/front/test_lang39.c checks the
errors in C; tests/gpu/lang39.py runs it on the GPU path."""
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

torch = pytest.importorskip("torch")
triton = pytest.importorskip("triton")
import triton.language as tl  # noqa: E402

import tritium  # noqa: E402
from tritium import _versions  # noqa: E402
from tritium._config import CONFIG  # noqa: E402

V = _versions.parse_version(triton.__version__)[:2]

tritium.enable("interp")        # for the whole session, as the other test files (no disable())


@triton.jit
def _chain(flag_ptr, out_ptr):
    # program p waits for program p - 1's flag, then adds one to its count
    pid = tl.program_id(0)
    if pid > 0:
        ok = tl.atomic_poll(flag_ptr + pid - 1, 1)
        tl.store(out_ptr + pid, ok.to(tl.int32) + tl.load(out_ptr + pid - 1))
    else:
        tl.store(out_ptr, 1)
    tl.atomic_xchg(flag_ptr + pid, 1)


@triton.jit
def _tile(x_ptr, ok_ptr, t, N: tl.constexpr):
    offs = tl.arange(0, N)
    ok = tl.atomic_poll(x_ptr + offs, offs % 3, timeout_ns=t, sem="relaxed", scope="cta")
    tl.store(ok_ptr + offs, ok)


def _needs_39(launch):
    if V >= (3, 9):
        launch()
        return True
    with pytest.raises(Exception, match="atomic_poll was added in Triton 3.9"):
        launch()
    return False


@pytest.mark.parametrize("dt", [torch.int16, torch.int32, torch.int64])
def test_tile_with_zero_timeout_reads_every_element(dt):
    x = torch.arange(32, dtype=dt) % 5
    ok = torch.zeros(32, dtype=torch.bool)
    if _needs_39(lambda: _tile[(1,)](x, ok, 0, N=32)):
        assert torch.equal(ok, x == torch.arange(32) % 3)
        assert 0 < int(ok.sum()) < 32


def test_a_program_waits_for_the_one_before():
    flag = torch.zeros(8, dtype=torch.int32)
    out = torch.zeros(8, dtype=torch.int32)
    if _needs_39(lambda: _chain[(8,)](flag, out)):
        assert out.tolist() == list(range(1, 9))     # every poll saw its flag
        assert flag.tolist() == [1] * 8


@triton.jit
def _ahead(flag_ptr, ok_ptr, t):
    # program 0 polls program 1's flag with a timeout
    pid = tl.program_id(0)
    if pid == 0:
        tl.store(ok_ptr, tl.atomic_poll(flag_ptr + 1, 1, timeout_ns=t))
    else:
        tl.atomic_xchg(flag_ptr + pid, 1)


def test_timeout_when_the_writer_runs_later():
    # programs run one at a time, in order (Triton's interpreter too): program 1
    # has not run when program 0 polls, so its poll times out
    flag = torch.zeros(2, dtype=torch.int32)
    ok = torch.ones(1, dtype=torch.bool)
    t0 = time.monotonic()
    if _needs_39(lambda: _ahead[(2,)](flag, ok, 20_000_000)):
        assert not ok.item() and flag[1].item() == 1
        assert time.monotonic() - t0 >= 0.02            # it did wait for the timeout


def test_parallel_schedule_runs_the_writer_meanwhile():
    if V < (3, 9):
        pytest.skip("tl.atomic_poll is Triton 3.9's")
    saved = CONFIG.schedule, CONFIG.threads
    CONFIG.schedule, CONFIG.threads = "parallel", 2
    try:
        flag = torch.zeros(2, dtype=torch.int32)
        ok = torch.zeros(1, dtype=torch.bool)
        _ahead[(2,)](flag, ok, 10_000_000_000)          # 10 s: program 1 sets it long before
        assert ok.item()
    finally:
        CONFIG.schedule, CONFIG.threads = saved


def test_a_poll_that_cannot_end_warns_and_ctrl_c_stops_it(tmp_path):
    if V < (3, 9):
        pytest.skip("tl.atomic_poll is Triton 3.9's")
    prog = tmp_path / "stuck.py"
    prog.write_text(textwrap.dedent("""\
        import torch, triton, triton.language as tl

        @triton.jit
        def stuck(flag_ptr):
            tl.atomic_poll(flag_ptr + 1 - tl.program_id(0), 1)
            tl.atomic_xchg(flag_ptr + tl.program_id(0), 1)

        try:
            stuck[(2,)](torch.zeros(2, dtype=torch.int32))
        except KeyboardInterrupt as e:
            print("interrupted:", e)
        """))
    log = tmp_path / "stderr.txt"
    with open(log, "w") as errf:
        # SIGINT as a terminal's (a suite started in the background inherits it ignored)
        p = subprocess.Popen([sys.executable, "-m", "tritium", str(prog)], stdout=subprocess.PIPE, stderr=errf,
                             text=True, env=dict(os.environ), preexec_fn=lambda: signal.signal(signal.SIGINT,
                                                                                              signal.SIG_DFL))
        try:
            deadline = time.monotonic() + 60            # the warning comes after 1 s of polling
            while time.monotonic() < deadline and "Ctrl-C" not in log.read_text() and p.poll() is None:
                time.sleep(0.2)
            time.sleep(0.2)                             # the source line after it
            assert p.poll() is None, p.communicate()
            p.send_signal(signal.SIGINT)
            out, _ = p.communicate(timeout=60)
        finally:
            if p.poll() is None:
                p.kill()
                p.communicate()
    err = log.read_text()
    assert "warning: atomic_poll in program (0, 0, 0) has waited 1 s for element 1 of flag_ptr" in err, err
    assert "stuck.py:5:" in err and "--schedule parallel" in err, err
    assert "interrupted: tritium: kernel stuck interrupted after 0 of 2 programs" in out, (out, err)

