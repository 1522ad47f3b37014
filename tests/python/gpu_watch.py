#!/usr/bin/env python3
"""Suite 'gpu': --mode watch on a GPU (issue 27, item 3; exits 77 without
torch, triton or CUDA). Triton runs each program of recompile_programs.py
on CUDA tensors, with its own compiler and caches, and tritium observes;
the same program under --mode interp --recompiles (CPU tensors) must report
the same compilations: per kernel the launches, the compilations and the
causes (name, kind, count, values), the same log lines but for the times,
the same history (but the autotuned kernel's: Triton benchmarks its configs).
And watch's times must be Triton's:

- each program runs twice under watch with one fresh TRITON_CACHE_DIR: the
  first run compiles for real (more than 5 ms per compilation), the second
  finds Triton's on-disk cache (the same compilations, each of Triton's
  in-memory cache misses, in less time: the load of the cached launcher and cubin remains);
- host_seconds_per_launch is there and small for a launch-bound program (1000
  launches of one tiny kernel: under 1 ms each; Triton's launch path takes
  tens of microseconds).

    gpu_watch.py [--stand-in]    (the latter: a dry run on the CPU with
                                  recompile_programs.STAND_IN's GPU; the
                                  cache and the launch-bound checks are skipped)
"""
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from recompile_programs import (EXPECTED, PROGRAMS, STAND_IN, clean_env, compile_times,  # noqa: E402
                                log_lines, summary)

STAND = "--stand-in" in sys.argv

MANY = '''
import torch, triton, triton.language as tl

@triton.jit
def tiny(x, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x + offs, 1.0, mask=offs < n)

x = torch.zeros(64)
for i in range(1000):
    tiny[(1,)](x, 64, BLOCK=64)
torch.cuda.synchronize()
print("program ok")
'''


def _run(cmd, env, what):
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    if p.returncode != 0 or "program ok" not in p.stdout:
        raise AssertionError("%s: exit %d\n%s%s" % (what, p.returncode, p.stdout[-3000:], p.stderr[-3000:]))
    return p


def watch(d, name, src, cache):
    """The program under --mode watch on CUDA tensors: (stderr, data)."""
    prog = os.path.join(d, name + ".py")
    out = os.path.join(d, "watch-%s.json" % name)
    assert src.startswith("\n")                  # line 1 sets the device: the kernels keep their lines
    if STAND:
        with open(os.path.join(d, "standin_gpu.py"), "w") as f:
            f.write(STAND_IN)
        with open(prog, "w") as f:
            f.write("import standin_gpu" + src.replace("torch.cuda.synchronize()", ""))
        p = _run([sys.executable, prog], clean_env(WATCH_JSON=out), "watch " + name)
    else:
        with open(prog, "w") as f:
            f.write("import torch; torch.set_default_device('cuda')" + src)
        p = _run([sys.executable, "-m", "tritium", "--mode", "watch", "--recompiles", "--recompiles-json", out, prog],
                 clean_env(TRITON_CACHE_DIR=cache), "watch " + name)
    with open(out) as f:
        return p.stderr, json.load(f)


def interp(d, name, src):
    prog = os.path.join(d, name + ".py")
    out = os.path.join(d, "interp-%s.json" % name)
    with open(prog, "w") as f:
        f.write(src)
    p = _run([sys.executable, "-m", "tritium", "--mode", "interp", "--recompiles", "--recompiles-json", out, prog],
             clean_env(), "interp " + name)
    with open(out) as f:
        return p.stderr, json.load(f)


def check(name, d):
    cache = os.path.join(d, "triton-cache-" + name)
    werr, wd = watch(d, name, PROGRAMS[name], cache)
    ierr, idata = interp(d, name, PROGRAMS[name])
    want = {k: (a, b, [tuple(c) for c in cs]) for k, (a, b, cs) in EXPECTED[name].items()}
    assert summary(idata) == want, ("interp", summary(idata), ierr)
    assert summary(wd) == want, ("watch", summary(wd), werr)
    assert log_lines(werr) == log_lines(ierr), (werr, ierr)
    if name != "autotune":
        assert [k["history"] for k in wd["kernels"]] == [k["history"] for k in idata["kernels"]], (wd, idata)
    for k in wd["kernels"]:
        assert k["host_seconds_per_launch"] is not None and k["host_seconds_per_launch"] > 0, k
        assert "host per launch" in werr
    assert all(t > 0 for t in compile_times(werr)), werr
    cold = sum(k["compile_seconds"] for k in wd["kernels"])
    n = sum(k["compilations"] for k in wd["kernels"])
    note = "%d compilations, %.1f ms compiling" % (n, cold * 1e3)
    if not STAND:
        # Triton's compiler, for real: more than 5 ms a compilation
        assert cold > 0.005 * n, ("cold compile times too small for Triton's compiler", cold, n, werr)
        # again, with Triton's on-disk cache warm: the same compilations, in less time
        werr2, wd2 = watch(d, name, PROGRAMS[name], cache)
        warm = sum(k["compile_seconds"] for k in wd2["kernels"])
        assert summary(wd2) == want, ("watch, warm cache", summary(wd2), werr2)
        assert warm < cold, ("the warm cache's compilations are not faster", cold, warm)
        note += " (%.1f ms with Triton's cache warm)" % (warm * 1e3)
    return note


def check_launch_bound(d):
    werr, wd = watch(d, "many", MANY, os.path.join(d, "triton-cache-many"))
    (k,) = wd["kernels"]
    assert (k["launches"], k["compilations"], k["causes"]) == (1000, 1, []), k
    h = k["host_seconds_per_launch"]
    assert 0 < h < 0.001, ("host time per launch", h, werr)
    assert re.search(r"tiny \(.*\): 1000 launches, 1 compilations, [0-9.]+ ms compiling, [0-9.]+ us host per launch",
                     werr), werr
    return "%.1f us host per launch" % (h * 1e6)


def main():
    try:
        import torch
        import triton  # noqa: F401
    except ImportError:
        return 77
    if not STAND and not torch.cuda.is_available():
        return 77
    fails = 0
    with tempfile.TemporaryDirectory() as d:
        cases = [(n, (lambda n=n: check(n, d))) for n in sorted(PROGRAMS)]
        if not STAND:
            cases.append(("launch-bound", lambda: check_launch_bound(d)))
        for name, fn in cases:
            try:
                note = fn()
                print("ok   %-14s %s" % (name, note))
            except AssertionError as e:
                fails += 1
                print("FAIL %-14s %s" % (name, e))
    print("gpu_watch: %d failed" % fails)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
