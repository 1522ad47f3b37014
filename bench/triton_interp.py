#!/usr/bin/env python3
"""Time Triton's own CPU interpreter (TRITON_INTERPRET=1) on the example kernels.

Imports examples/*.py as modules and launches their kernels with torch CPU
tensors, using the launches of bench/cases.py (the ones bench/run.py gives
tritium). For each case: one warm-up launch (parses and prepares the kernel),
a correctness check against torch, then --repeat timed launches; the time is
the kernel launch call only (time.perf_counter around `kernel[grid](...)`),
and the median is reported.

    python3 bench/triton_interp.py [--repeat N] [--only NAME[,NAME]] [--json] [--all-threads]

With --json prints one JSON object {name: {"seconds": median, "runs": [...],
"ok": bool}}. Exits 0 with "triton not installed: skipping" when triton or
torch cannot be imported.
"""
import os
import sys

# Must be set before triton is imported: the interpreter is chosen at import.
os.environ["TRITON_INTERPRET"] = "1"
# Single-threaded like `tritium --schedule in-order`: keep numpy's BLAS and
# torch to one thread unless --all-threads is given (read before numpy loads).
if "--all-threads" not in sys.argv:
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, "1")

import argparse
import importlib.util
import json
import statistics
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import cases as bench_cases  # noqa: E402


def load_example(file):
    path = os.path.join(ROOT, "examples", file)
    name = "example_" + os.path.splitext(file)[0]
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod      # triton's jit wants an importable module for source lookup
    spec.loader.exec_module(mod)
    return mod


def make_args(case, torch):
    dtypes = {"f32": torch.float32, "f16": torch.float16}
    gen = torch.Generator().manual_seed(0)
    args = {}
    for p in case["params"]:
        if len(p) == 4:
            name, kind, dtype, shape = p
            if kind == "randn":
                args[name] = torch.randn(*shape, generator=gen, dtype=torch.float32).to(dtypes[dtype])
            elif kind == "empty":
                args[name] = torch.empty(*shape, dtype=dtypes[dtype])
            else:
                raise ValueError("unsupported generator " + kind)
        else:
            args[p[0]] = p[1]
    return args


def check(case, a, torch):
    """True when the launch's outputs match torch (same tolerances as the examples)."""
    F = torch.nn.functional
    name = case["name"]
    if name == "vector_add":
        return torch.equal(a["output_ptr"], a["x_ptr"] + a["y_ptr"])
    if name == "softmax":
        return torch.allclose(a["output_ptr"], torch.softmax(a["input_ptr"], dim=1), rtol=1e-5, atol=1e-6)
    if name == "layer_norm":
        x = a["X"]
        ref = F.layer_norm(x, (x.shape[1],), a["W"], a["B"], a["eps"])
        return (torch.allclose(a["Y"], ref, rtol=1e-4, atol=1e-4)
                and torch.allclose(a["Mean"], x.mean(dim=1), rtol=1e-5, atol=1e-5))
    if name == "matmul":
        ref = a["a_ptr"].float() @ a["b_ptr"].float()
        return torch.allclose(a["c_ptr"].float(), ref, rtol=1e-2, atol=5e-2)
    return True


def run_case(case, repeat, torch):
    mod = load_example(case["file"])
    kernel = getattr(mod, case["kernel"])
    a = make_args(case, torch)
    params = [a[p[0]] for p in case["params"]]
    grid = (case["grid"],)
    kernel[grid](*params, **case["consts"])          # warm-up
    ok = bool(check(case, a, torch))
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        kernel[grid](*params, **case["consts"])
        runs.append(time.perf_counter() - t0)
    return {"seconds": statistics.median(runs), "runs": runs, "ok": ok}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--only", default="", help="comma-separated case names")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--all-threads", action="store_true",
                    help="let numpy/torch use all cores (default: one thread)")
    opt = ap.parse_args()
    try:
        import torch
        import triton  # noqa: F401
    except Exception as e:  # ImportError, or a broken install
        print("triton not installed: skipping (%s)" % e, file=sys.stderr if opt.json else sys.stdout)
        if opt.json:
            print("{}")
        return 0
    if not opt.all_threads:
        torch.set_num_threads(1)
    sys.path.insert(0, os.path.join(ROOT, "examples"))
    import _interp_compat
    _interp_compat.apply()      # Triton 3.6 interpreter vs numpy >= 2.5 (see the module)
    only = set(filter(None, opt.only.split(",")))
    results = {}
    for case in bench_cases.CASES:
        if only and case["name"] not in only:
            continue
        try:
            results[case["name"]] = run_case(case, opt.repeat, torch)
        except Exception as e:
            results[case["name"]] = {"error": "%s: %s" % (type(e).__name__, e)}
    if opt.json:
        print(json.dumps(results))
    else:
        print("%-12s %-28s %14s  %s" % ("kernel", "size", "ms/launch", "check"))
        for case in bench_cases.CASES:
            r = results.get(case["name"])
            if r is None:
                continue
            if "error" in r:
                print("%-12s %-28s %14s  %s" % (case["name"], case["size"], "-", r["error"]))
            else:
                print("%-12s %-28s %14.2f  %s" % (case["name"], case["size"], r["seconds"] * 1e3,
                                                  "ok" if r["ok"] else "MISMATCH"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
