"""Run one of Triton's tutorials (tutorials/, unchanged) as __main__, under
`python -m tritium`. One change to the environment, not to the tutorial:
torch's CPU float16 layer_norm backward accumulates in float16 (on tutorial
05's data its bias gradient is 0.067 off the exact sum, tritium's 0.0087), so
tutorial 05's reference is computed in float32 and rounded, as torch does on
CUDA. And torch's generator is seeded (0): the tutorials draw fresh random
inputs each run, and tutorial 05's float16 partial sums then land within one
float16 ulp of the float32 reference, which exceeds its atol=1e-2 whenever a
sum passes 16 (one ulp is then 0.0156; it happened in about one run of five here).
With --as-hopper first, the process looks like an H100 to the tutorial's
host code (as_hopper.py: tutorial 06 then passes host TensorDescriptors).
With --no-bench first, the tutorial's perf_report benchmarks do not run
(on a GPU they take minutes; its correctness launches still do).
With --triton-interpreter first (and TRITON_INTERPRET=1, without python -m
tritium), the tutorial runs in Triton's own interpreter, with tritium's CPU
stand-in driver answering the host code's device questions on a machine
without a GPU driver (run_tutorials.py: does a failure happen there too?).
Usage: python -m tritium tutorial_main.py [--no-bench] [--as-hopper] TUTORIAL.py
       TRITON_INTERPRET=1 python tutorial_main.py --triton-interpreter [--no-bench] TUTORIAL.py
"""
import runpy
import sys

import torch
import torch.nn.functional as F

_layer_norm = F.layer_norm


def layer_norm_f32(x, shape, weight=None, bias=None, eps=1e-5):
    if x.device.type == "cpu" and x.dtype in (torch.float16, torch.bfloat16):
        f = lambda t: None if t is None else t.float()  # noqa: E731
        return _layer_norm(x.float(), shape, f(weight), f(bias), eps).to(x.dtype)
    return _layer_norm(x, shape, weight, bias, eps)


F.layer_norm = layer_norm_f32
torch.manual_seed(0)
if sys.argv[1] == "--triton-interpreter":
    from triton.runtime.driver import driver
    from tritium import _patch
    try:
        driver.active
    except RuntimeError:
        _patch.set_driver(driver, _patch._CPUDriver())
    del sys.argv[1]
if sys.argv[1] == "--no-bench":
    import triton.testing
    triton.testing.Mark.run = lambda self, *args, **kwargs: None
    del sys.argv[1]
if sys.argv[1] == "--as-hopper":
    import as_hopper  # noqa: F401  (next to this file)
    del sys.argv[1]
path = sys.argv[1]
sys.argv = sys.argv[1:]
runpy.run_path(path, run_name="__main__")
