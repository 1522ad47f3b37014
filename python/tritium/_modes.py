"""record mode (check and debug modes are not written yet).

record: every launch is written to CONFIG.record_dir/NNNN-KERNEL/ as the
kernel's input tensors (.npy, taken before the launch) and `launch.sh`, a
`tritium run FILE.py:KERNEL@LINE` command line with the grid, scalars and
constexprs, which replays the launch without Python (`tritium debug` and
`tritium diff` take the same spec). Then the launch runs as usual: in
tritium's interpreter when Triton has no GPU driver, else on the GPU.
"""
import os
import shlex
import sys

from ._config import CONFIG
from . import _launch


def install(mode, jit, autotuner, orig, state):
    if mode != "record":
        raise NotImplementedError("tritium: mode '%s' is not implemented yet (modes that work: interp, record)" % mode)
    from triton.runtime.driver import driver
    try:
        driver.active
        gpu = True
    except RuntimeError:
        gpu = False
        from . import _patch
        driver.set_active(_patch._CPUDriver())
    base_run = orig["JITFunction.run"]

    def run(self, *args, grid, warmup, **kwargs):
        if not warmup:
            record(self, args, kwargs, grid)
        if gpu:
            return base_run(self, *args, grid=grid, warmup=warmup, **kwargs)
        from . import _patch
        return _patch._interp_run(self, *args, grid=grid, warmup=warmup, **kwargs)

    jit.JITFunction.run = run
    try:
        from triton.runtime import interpreter
        interpreter.InterpretedFunction.run = run
    except ImportError:
        pass
    from . import _patch
    autotuner.Autotuner.run = _patch._autotune_run


_SEQ = [0]


def _const_text(v):
    v = _launch._unwrap(v)
    if v is None or isinstance(v, (bool, int, float)):
        return repr(v)
    if isinstance(v, str):
        return repr(v)
    name = getattr(v, "name", None)
    if name:
        return name
    return str(v)


def record(jitfn, args, kwargs, grid):
    import numpy as np
    bound, opts = _launch.bind(jitfn, args, kwargs)
    g = _launch.grid_of(grid, bound)
    info = _launch.kernel_info(jitfn)
    _SEQ[0] += 1
    d = os.path.join(CONFIG.record_dir, "%04d-%s" % (_SEQ[0], info.short))
    os.makedirs(d, exist_ok=True)
    kfile = info.file
    if kfile in _launch._TEXTS:                       # generated source: write it next to the launch
        kfile = os.path.join(d, "kernel.py")
        with open(kfile, "w") as f:
            f.write(_launch._TEXTS[info.file])
    words = ["tritium", "run", "%s:%s" % (os.path.abspath(kfile), info.name),
             "--grid", ",".join(str(x) for x in g), "--num-warps", str(opts.get("num_warps") or 4)]
    notes = []
    for name, is_constexpr in info.params:
        v = bound[name]
        if is_constexpr:
            words += ["--const", "%s=%s" % (name, _const_text(v))]
            continue
        v = _launch._unwrap(v)
        if _launch._is_tensor(v):
            t = v.detach()
            if t.storage_offset() != 0 or not t.is_contiguous():
                notes.append("%s: a view at an offset or with strides; recorded as a dense copy" % name)
            a = t.cpu().contiguous()
            if str(a.dtype) == "torch.bfloat16":
                notes.append("%s: bfloat16 recorded as float32 (numpy has no bfloat16)" % name)
                a = a.float()
            np.save(os.path.join(d, name + ".npy"), a.numpy())
            words += ["--arg", "%s=%s" % (name, os.path.join(d, name + ".npy"))]
        else:
            words += ["--arg", "%s=%s" % (name, _const_text(v))]
    with open(os.path.join(d, "launch.sh"), "w") as f:
        f.write("#!/bin/sh\n# recorded by python -m tritium --mode record\n")
        for n in notes:
            f.write("# note: %s\n" % n)
        f.write(" ".join(shlex.quote(w) for w in words) + ' "$@"\n')
    if notes and CONFIG.verbose:
        sys.stderr.write("tritium: record %s: %s\n" % (d, "; ".join(notes)))


def at_exit(code):
    return code
