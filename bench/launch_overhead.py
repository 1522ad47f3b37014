#!/usr/bin/env python3
"""Host time of one kernel launch from Python: tritium's gpu mode
(`python -m tritium --mode gpu`, python/tritium/_gpu.py) against Triton 3.6's
own launch (JITFunction.run), on the same @triton.jit kernel (a one-program
1024-element add), the same CUDA tensors, in the same process, warm caches.
Each side: BATCHES batches of N back-to-back `kernel[grid](...)` calls
(torch.cuda.synchronize between batches, not inside), each batch's mean,
the median batch; the two sides alternate batch by batch.

    python3 bench/launch_overhead.py [--calls N] [--batches B] [--json]
    python3 bench/launch_overhead.py --fake-cuda build/tests/gpu/libfake_cuda.so

With --fake-cuda (no GPU needed) libtritium runs over the stand-in driver
of tests/gpu/fake_cuda.c, whose cuLaunchKernel only records its arguments,
on CPU tensors: what is left is the host-side work around the driver call
(binding, specialization key, packing, the ctypes call); Triton is not run.
"""
import argparse
import json
import os
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
N = 1024

import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from triton.runtime import jit  # noqa: E402


@triton.jit
def tiny_add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) + tl.load(y_ptr + offs, mask=m), mask=m)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--calls", type=int, default=1000)
    ap.add_argument("--batches", type=int, default=7)
    ap.add_argument("--fake-cuda", metavar="LIB")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    if not 1 <= a.calls <= 10**6 or not 1 <= a.batches <= 1000:
        sys.exit("launch_overhead.py: --calls 1..10^6, --batches 1..1000")
    if a.fake_cuda:
        os.environ["TRITIUM_LIBCUDA"] = os.path.abspath(a.fake_cuda)
    dev = "cpu" if a.fake_cuda else "cuda"
    x = torch.randn(N, device=dev)
    y, out = torch.randn(N, device=dev), torch.empty(N, device=dev)
    sync = (lambda: None) if a.fake_cuda else torch.cuda.synchronize

    def call():
        tiny_add[(1,)](x, y, out, N, BLOCK=N)

    J = jit.JITFunction
    sides = {}
    if not a.fake_cuda:
        call()                                          # Triton: compile, load, launcher
        sync()
        sides["triton"] = (J.run, J.__getitem__)
    import tritium
    from tritium import _gpu
    tritium.enable("gpu", gpu_host_tensors=bool(a.fake_cuda))
    sides["tritium"] = (J.run, J.__getitem__)
    call()                                              # tritium: compile, load, packer
    sync()
    if not a.fake_cuda:
        assert torch.allclose(out, x + y), "tritium's gpu mode computed a wrong sum"
    res = {k: [] for k in sides}
    cpu = {k: [] for k in sides}              # this thread's CPU time: less disturbed on a loaded machine
    for _ in range(a.batches):
        for name, (run, getitem) in sides.items():
            J.run, J.__getitem__ = run, getitem
            sync()
            t0, c0 = time.perf_counter(), time.thread_time()
            for _ in range(a.calls):
                call()
            res[name].append((time.perf_counter() - t0) * 1e6 / a.calls)
            cpu[name].append((time.thread_time() - c0) * 1e6 / a.calls)
            sync()
    J.run, J.__getitem__ = sides["tritium"]
    us = {k: statistics.median(v) for k, v in res.items()}
    cus = {k: statistics.median(v) for k, v in cpu.items()}
    if a.json:
        print(json.dumps({"tritium_py_us": us["tritium"], "triton_py_us": us.get("triton"),
                          "tritium_py_cpu_us": cus["tritium"], "triton_py_cpu_us": cus.get("triton"),
                          "fake_driver": bool(a.fake_cuda), "compiles": _gpu.COUNTS["compiles"]}))
        return 0
    what = "stand-in driver (host-side work only)" if a.fake_cuda else torch.cuda.get_device_name()
    print("launch from Python, one-program %d-element add, %s: median of %d batches of %d calls"
          % (N, what, a.batches, a.calls))
    print("  tritium --mode gpu   %6.2f us per call (CPU time %.2f us)" % (us["tritium"], cus["tritium"]))
    if "triton" in us:
        print("  Triton 3.6           %6.2f us per call (CPU time %.2f us; ratio %.2fx)"
              % (us["triton"], cus["triton"], us["triton"] / us["tritium"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
