#!/usr/bin/env python3
"""Per-launch cost of `python -m tritium` (interp mode) against Triton's own
interpreter (TRITON_INTERPRET=1's InterpretedFunction), on the same launch in
the same process: vector add (examples/vector_add.py), 4 programs of 1024
elements, CPU torch tensors, warm caches.

    python3 bench/python_overhead.py [--repeat N] [--block B] [--programs P]

Prints the median wall time per launch of each, and for tritium how much of
it is the interpretation itself (the library's own timer) and how much is the
launch path (binding, ctypes calls, compile-cache lookup, report)."""
import argparse
import os
import statistics
import sys
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "examples"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=200)
    ap.add_argument("--block", type=int, default=1024)
    ap.add_argument("--programs", type=int, default=4)
    a = ap.parse_args()
    try:
        import torch
        import triton  # noqa: F401
    except ImportError as e:
        print("skipped: %s" % e)
        return 0
    import tritium
    tritium.enable("interp")
    from tritium import _launch, _patch
    from triton.runtime.interpreter import InterpretedFunction
    import _interp_compat
    _interp_compat.apply()
    import vector_add

    n = a.block * a.programs
    x, y = torch.randn(n), torch.randn(n)
    out_t, out_i = torch.empty(n), torch.empty(n)
    grid = (a.programs,)
    kern = vector_add.add_kernel
    interp_fn = InterpretedFunction(kern.fn)
    run_triton = _patch._ORIG["InterpretedFunction.run"]

    def tritium_launch():
        kern[grid](x, y, out_t, n, BLOCK_SIZE=a.block)

    def triton_launch():
        run_triton(interp_fn, x, y, out_i, n, BLOCK_SIZE=a.block, grid=grid, warmup=False)

    for f in (tritium_launch, triton_launch):       # warm: compile, rewrite, caches
        f()
    assert torch.equal(out_t, x + y) and torch.equal(out_i, x + y)

    def timeit(f):
        ts = []
        for _ in range(a.repeat):
            t0 = time.perf_counter()
            f()
            ts.append(time.perf_counter() - t0)
        return statistics.median(ts)

    s0 = _launch.COUNTS["seconds"]
    c0 = _launch.COUNTS["launches"]
    t_tritium = timeit(tritium_launch)
    interp_s = (_launch.COUNTS["seconds"] - s0) / max(1, _launch.COUNTS["launches"] - c0)
    t_triton = timeit(triton_launch)
    print("vector add, %d programs x %d elements, median of %d launches (same process, CPU tensors)"
          % (a.programs, a.block, a.repeat))
    print("  tritium interp mode        %8.1f us per launch (interpretation %6.1f us, launch path %6.1f us)"
          % (t_tritium * 1e6, interp_s * 1e6, (t_tritium - interp_s) * 1e6))
    print("  Triton TRITON_INTERPRET=1  %8.1f us per launch" % (t_triton * 1e6))
    print("  ratio                      %8.1fx" % (t_triton / t_tritium))
    return 0


if __name__ == "__main__":
    sys.exit(main())
