"""--mode watch (issue 27, item 3) on the CPU. Without a GPU Triton cannot
compile, so the observing code is tested on Triton's own launch path with
only its two GPU ends stood in: a stand-in driver says the device is an
sm_90 CUDA GPU, triton.compiler.compile (what JITFunction._do_compile calls
for a compilation) sleeps a known time and returns a stand-in kernel whose
launch sleeps 2 ms. Everything between is Triton's: JITFunction.run, its
binder and specialization, its cache key and kernel cache, _do_compile,
the autotuner and its pruning. So these tests show that watch counts the
compilations Triton makes (the same as --mode interp --recompiles computes
under Triton's key), that its compile times are the time spent in Triton's
compile (>= the stand-in's sleeps), and that the host time per launch leaves
the compilations out. tests/python/gpu_watch.py (suite gpu) runs the same
programs on a GPU with Triton's real compiler."""
import json
import os
import subprocess
import sys

import pytest

pytest.importorskip("numpy")
pytest.importorskip("torch")
pytest.importorskip("triton")

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from recompile_programs import (EXPECTED, PROGRAMS, STAND_IN, clean_env, compile_times,  # noqa: E402
                                log_lines, summary)


def _watch(tmp_path, name, extra=""):
    out = tmp_path / ("watch-%s.json" % name)
    prog = tmp_path / ("%s.py" % name)
    (tmp_path / "standin_gpu.py").write_text(STAND_IN)
    assert PROGRAMS[name].startswith("\n")
    prog.write_text("import standin_gpu; from standin_gpu import COMPILES" + PROGRAMS[name] + extra)
    env = clean_env(WATCH_JSON=str(out))
    p = subprocess.run([sys.executable, str(prog)], env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert "program ok" in p.stdout
    return p, json.loads(out.read_text())


def _interp(tmp_path, name):
    out = tmp_path / ("interp-%s.json" % name)
    prog = tmp_path / ("%s.py" % name)
    prog.write_text(PROGRAMS[name])
    p = subprocess.run([sys.executable, "-m", "tritium", "--mode", "interp", "--recompiles", "--recompiles-json",
                        str(out), str(prog)], env=clean_env(), capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    return p, json.loads(out.read_text())


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_watch_reports_what_interp_reports(tmp_path, name):
    w, wd = _watch(tmp_path, name)
    i, idata = _interp(tmp_path, name)
    assert summary(wd) == summary(idata) == {k: (a, b, [tuple(c) for c in cs])
                                             for k, (a, b, cs) in EXPECTED[name].items()}, w.stderr
    # the same log lines, but the times
    assert len(log_lines(i.stderr)) == EXPECTED[name][next(iter(EXPECTED[name]))][1] - 1
    assert log_lines(w.stderr) == log_lines(i.stderr), (w.stderr, i.stderr)
    if name != "autotune":          # (Triton benchmarks every config: its launches differ from interp's pick)
        assert [k["history"] for k in wd["kernels"]] == [k["history"] for k in idata["kernels"]]
    assert "host per launch" in w.stderr and "host per launch" not in i.stderr
    assert all("host_seconds_per_launch" not in k for k in idata["kernels"])


def test_watch_times_are_tritons(tmp_path):
    """compile_seconds: the time in Triton's compile (the stand-in's sleeps),
    250 ms for the first compilation, 100 ms each after; the host time per
    launch: the launch's 2 ms and Triton's launch path, not the compilations
    (550 ms over 6 launches)."""
    w, wd = _watch(tmp_path, "mask", extra="print('COMPILES', len(COMPILES))\n")
    assert "COMPILES 4" in w.stdout
    (k,) = wd["kernels"]
    assert 0.25 + 3 * 0.1 <= k["compile_seconds"] < 0.25 + 3 * 0.1 + 0.3, k
    times = compile_times(w.stderr)
    assert len(times) == 3 and all(100.0 <= t < 250.0 for t in times), w.stderr
    assert 0.002 <= k["host_seconds_per_launch"] < 0.05, k
    assert "fill_mask (%s:4): 6 launches, 4 compilations, " % (tmp_path / "mask.py") in w.stderr
    # tritium's own compile times (interp) are not the stand-in's
    _, idata = _interp(tmp_path, "mask")
    assert idata["kernels"][0]["compile_seconds"] < 0.25 + 3 * 0.1


def test_disable_restores_tritons_launch_path(tmp_path):
    extra = '''
import tritium
from triton.runtime import jit, autotuner
from triton.compiler.compiler import CompiledKernel
assert jit.JITFunction.run.__module__.startswith("tritium")
assert CompiledKernel._init_handles.__module__.startswith("tritium")
tritium.disable()
assert jit.JITFunction.run.__module__ == "triton.runtime.jit", jit.JITFunction.run
assert jit.JITFunction._do_compile.__module__ == "triton.runtime.jit"
assert autotuner.Autotuner.run.__module__ == "triton.runtime.autotuner"
from triton.compiler.compiler import CompiledKernel
assert CompiledKernel._init_handles.__module__ == "triton.compiler.compiler"
fill_mask[(1,)](out, 64, 512)       # Triton's own: compiled, not observed
print("COMPILES", len(COMPILES))
'''
    w, wd = _watch(tmp_path, "mask", extra=extra)
    assert "COMPILES 5" in w.stdout
    assert wd["kernels"][0]["compilations"] == 4 and wd["kernels"][0]["launches"] == 6


def test_watch_without_gpu_says_so(tmp_path):
    prog = tmp_path / "p.py"
    prog.write_text("print('program ran')\n")
    import torch
    # (on a GPU machine only TRITON_INTERPRET=1 is a reason)
    for extra_env in ([{}] if not torch.cuda.is_available() else []) + [{"TRITON_INTERPRET": "1"}]:
        env = clean_env(**extra_env)
        p = subprocess.run([sys.executable, "-m", "tritium", "--mode", "watch", str(prog)], env=env,
                           capture_output=True, text=True, timeout=120)
        assert p.returncode == 2, p.stderr
        assert "program ran" not in p.stdout
        assert "--mode watch needs a GPU" in p.stderr and "--mode interp --recompiles" in p.stderr, p.stderr
        if extra_env:
            assert "TRITON_INTERPRET=1" in p.stderr
