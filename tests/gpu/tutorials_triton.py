#!/usr/bin/env python3
"""Triton 3.6's tutorials 01-08 (tests/python/tutorials/, unchanged) on the
GPU, every launch checked against real Triton on the same inputs, twice:

  interp  python -m tritium --mode check --against triton
          Triton runs each launch on the GPU; tritium's interpreter runs it
          on copies of the inputs; every tensor the kernel wrote is compared
          (tritium diff's tolerances).
  gpu     the same with --executor gpu: tritium's GPU path (its own PTX)
          runs on the copies instead, compared with Triton's results
          directly.

01-05, 07 and 08 run as programs (tests/python/tutorial_main.py --no-bench:
their correctness launches and own asserts, not their perf_report sweeps);
06, whose __main__ only benchmarks, runs its own pytest test_op at two small
sizes (fp16, forward and backward, head dim 64 and 128; on an H100 its host
code passes host TensorDescriptors). 08 is the grouped GEMM: its kernel reads
the tensors through int64 tables of their addresses. A row passes when the
program exits 0, at least one launch was checked and none disagreed or
faulted; launches tritium cannot represent are counted `unchecked` and named.

    python3 tests/gpu/tutorials_triton.py [NN ...] [--executor interp|gpu]

Prints one line per tutorial and executor, then `tutorials_triton: N passed,
M failed`; exit status 1 when any failed, 77 without torch, triton or CUDA.
`--against in-order` (no GPU) runs the same commands with the interpreter
against itself: a check of this script on a machine without a GPU.
"""
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PYT = os.path.join(ROOT, "tests", "python")
TUT = os.path.join(PYT, "tutorials")
# tutorial 06's test_op ids: provider-mode-warp_specialize-causal-HEAD_DIM-N_CTX-H-Z
T06 = ["06-fused-attention.py::test_op[triton-fp16-bwd-False-True-%d-128-2-1]" % d for d in (64, 128)]


def command(n, fname, executor, against):
    check = [sys.executable, "-m", "tritium", "--mode", "check", "--against", against, "-v"]
    if executor == "gpu":
        check += ["--executor", "gpu"]
    if n == "06":
        return check + ["-m", "pytest", "-q", "-p", "no:cacheprovider"] + T06
    return check + [os.path.join(PYT, "tutorial_main.py"), "--no-bench", os.path.join(TUT, fname)]


def verdict(rc, out):
    """('ok' | 'FAIL', one-line detail) from the exit status and check's summary."""
    m = re.search(r"(\d+) launch(?:es)?, (\d+) checked, (\d+) disagree or fault", out)
    unchecked = sorted(set(re.findall(r"tritium: check: (\S+) is not checked: ([^\n]*)", out)))
    note = "; unchecked: " + "; ".join("%s (%s)" % u for u in unchecked)[:300] if unchecked else ""
    if not m:
        tail = [line for line in out.strip().splitlines() if line.strip()][-1:] or [""]
        return "FAIL", "exit %d, no check summary: %s" % (rc, tail[0][:200])
    launches, checked, bad = (int(g) for g in m.groups())
    detail = "%d launches, %d checked, %d disagree%s" % (launches, checked, bad, note)
    if rc == 0 and checked > 0 and bad == 0:
        return "ok", detail
    return "FAIL", "exit %d, %s" % (rc, detail)


def main():
    args = sys.argv[1:]
    executors = ["interp", "gpu"]
    if "--executor" in args:
        i = args.index("--executor")
        executors = [args[i + 1]]
        del args[i:i + 2]
    against = "triton"
    if "--against" in args:
        i = args.index("--against")
        against = args[i + 1]
        del args[i:i + 2]
        executors = ["interp"] if against != "triton" else executors
    try:
        import torch
        import triton  # noqa: F401
    except ImportError as e:
        print("skipped: %s" % e)
        return 77
    if against == "triton" and not torch.cuda.is_available():
        print("skipped: no CUDA device")
        return 77
    wanted = args or ["01", "02", "03", "04", "05", "06", "07", "08"]
    files = {f[:2]: f for f in os.listdir(TUT) if f.endswith(".py")}
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([os.path.join(ROOT, "python"), PYT, env.get("PYTHONPATH", "")])
    env.pop("TRITON_INTERPRET", None)
    env.pop("TRITIUM_MODE", None)
    passed, failed = [], []
    for n in wanted:
        for ex in executors:
            label = "%s %s" % (files[n][:-3], ex)
            t0 = time.time()
            try:
                p = subprocess.run(command(n, files[n], ex, against), cwd=TUT, env=env, capture_output=True,
                                   text=True, timeout=900, stdin=subprocess.DEVNULL)
                rc, out = p.returncode, p.stdout + p.stderr
            except subprocess.TimeoutExpired as e:
                rc, out = 124, "timed out after 900 s\n" + str(e.stdout or "")
            v, detail = verdict(rc, out)
            print("%-4s %-36s %6.1f s  %s" % (v, label, time.time() - t0, detail), flush=True)
            (passed if v == "ok" else failed).append((label, detail))
            if v != "ok":
                print(out[-3000:])
    print("tutorials_triton: %d passed, %d failed (against %s)" % (len(passed), len(failed), against))
    for label, detail in failed:
        print("  FAIL %s: %s" % (label, detail))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
