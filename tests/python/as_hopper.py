"""Makes this CPU-only process look like an H100 to the host code of Triton
programs (not to tritium): the active driver's target becomes ("cuda", 90)
and torch.cuda answers compute capability 9.0 and 132 SMs. Tutorials then
take their Hopper paths, e.g. tutorial 06 passes host TensorDescriptors
(supports_host_descriptor()) instead of plain pointers. Tensors stay on the
CPU (DEVICE is still the stand-in driver's "cpu"); every launch still runs
in tritium's interpreter.

    python -m tritium -m pytest -p as_hopper ...        (a pytest plugin)
    python -m tritium tutorial_main.py --as-hopper T.py (through tutorial_main)

Needs interp mode on a machine without a GPU driver (the CPU stand-in
driver of python/tritium/_patch.py)."""
import types

import torch
import triton
from triton.backends.compiler import GPUTarget

_drv = triton.runtime.driver.active
if not hasattr(_drv, "target"):
    raise RuntimeError("as_hopper: needs tritium's CPU stand-in driver (interp mode without a GPU driver)")
_drv.target = GPUTarget("cuda", 90, 32)
torch.cuda.get_device_capability = lambda *a, **k: (9, 0)
torch.cuda.get_device_properties = lambda *a, **k: types.SimpleNamespace(
    multi_processor_count=132, name="NVIDIA H100 (emulated by as_hopper)", major=9, minor=0)
