"""Patches of Triton's launch path (3.6 to 3.9: what each version has is
_versions.py's to say) for each mode.

interp: JITFunction.run (runtime/jit.py) is replaced: the launch is bound as
Triton binds it and runs in tritium; warmup returns a stand-in compiled
kernel whose [grid](...) launches through tritium too. Autotuner.run
(runtime/autotuner.py) takes the first config, or the one named by --config,
without benchmarking; heuristics run unchanged. Without a GPU driver a CPU
stand-in driver answers Triton's device queries; triton.testing benchmarks
are not timed (do_bench runs the function once; perf_report tables are
skipped). No launch reaches Triton's driver.

gpu: JITFunction.run is replaced by tritium's GPU executor (_gpu.py): the
program's CUDA tensors in place, torch's current stream; autotuning and
benchmarks run and time as usual.

watch: Triton's own JITFunction.run and _do_compile, timed and observed
for --recompiles (_watch.py); nothing else changes.

Every patch goes through patch(), which keeps the original; disable()
puts them all back, after which Triton's own launch path runs. Nothing
outside Triton is patched: no builtin, no other library.
"""
import contextlib
import sys
import types

from ._config import CONFIG
from . import _launch, _resolve, _versions

_ORIG = {}                 # "Owner.attr" -> the original (Triton's) value
_UNDO = []                 # (owner, attr, original), in the order patched
_STATE = types.SimpleNamespace(in_autotune=0)


def patch(owner, attr, value):
    """owner.attr = value, remembering Triton's original for disable()."""
    key = "%s.%s" % (getattr(owner, "__name__", type(owner).__name__), attr)
    if key not in _ORIG:
        _ORIG[key] = getattr(owner, attr)
        _UNDO.append((owner, attr, _ORIG[key]))
    setattr(owner, attr, value)


def set_driver(drv, driver):
    """Make `driver` Triton's active driver until disable()."""
    if "driver" not in _ORIG:
        _ORIG["driver"] = drv._active
        _UNDO.append((drv, "_active", drv._active))
    drv.set_active(driver)


def disable():
    """Undo every patch, newest first: Triton's launch path is its own again."""
    while _UNDO:
        owner, attr, value = _UNDO.pop()
        setattr(owner, attr, value)
    _ORIG.clear()


class StandInKernel:
    """What JITFunction.warmup/run return in interp mode (a CompiledKernel's
    attributes that host code reads; the numbers are plausible, not measured)."""

    def __init__(self, jitfn, kwargs):
        self.jitfn = jitfn
        self.options = {k: v for k, v in kwargs.items() if k in _launch.OPTION_KEYS}
        nw = self.options.get("num_warps") or 4
        self.metadata = types.SimpleNamespace(shared=1024, num_warps=nw, num_stages=self.options.get("num_stages", 3),
                                              num_ctas=1, name=jitfn.fn.__name__, tmem_size=0)
        self.n_regs = 32
        self.n_spills = 0
        self.n_max_threads = 1024
        self.name = jitfn.fn.__name__
        self.asm = {}

    def _init_handles(self):
        pass

    def __getitem__(self, grid):
        # a compiled kernel takes every parameter positionally (constexprs too)
        opts = {k: v for k, v in self.options.items() if k not in self.jitfn.arg_names}

        def runner(*args, stream=None):
            _launch.interp_launch(self.jitfn, args, dict(opts), grid)
        return runner


def _interp_run(self, *args, grid, warmup, **kwargs):
    if warmup:
        return StandInKernel(self, kwargs)
    for hook in getattr(self, "pre_run_hooks", ()):
        hook(*args, **kwargs)
    _launch.interp_launch(self, args, kwargs, grid)
    return StandInKernel(self, kwargs)


_gpu_launch = [None]


def _gpu_getitem(self, grid):
    """JITFunction.__getitem__ in gpu mode: kernel[grid](...) straight to
    the GPU executor (Triton's goes through run's keyword arguments)."""
    launch = _gpu_launch[0]

    def call(*args, **kwargs):
        c = launch(self, args, kwargs, grid)
        k = c.kernel
        if k is None:
            k = c.kernel = GpuKernel(self, kwargs)
        return k
    return call


class GpuKernel(StandInKernel):
    """What JITFunction.warmup/run return in gpu mode: launches of
    [grid](...) go through tritium's GPU path."""

    def __getitem__(self, grid):
        opts = {k: v for k, v in self.options.items() if k not in self.jitfn.arg_names}

        def runner(*args, stream=None):
            from . import _gpu
            _gpu.gpu_launch(self.jitfn, args, dict(opts), grid)
        return runner


def _gpu_run(self, *args, grid, warmup, **kwargs):
    if warmup:
        return GpuKernel(self, kwargs)
    c = _gpu_launch[0](self, args, kwargs, grid)   # pre_run_hooks run there
    k = c.kernel
    if k is None:
        k = c.kernel = GpuKernel(self, kwargs)
    return k


def _pick_config(configs):
    sel = CONFIG.config
    if sel is None:
        return configs[0]
    if isinstance(sel, int) or str(sel).isdigit():
        i = int(sel)
        if not 0 <= i < len(configs):
            raise ValueError("tritium: --config %d: the kernel has %d autotune configs" % (i, len(configs)))
        return configs[i]
    want = dict(kv.split("=", 1) for kv in str(sel).split(",") if "=" in kv)
    for c in configs:
        kw = {k: str(v) for k, v in c.all_kwargs().items()}
        if all(kw.get(k) == v for k, v in want.items()):
            return c
    raise ValueError("tritium: --config %s matches none of the kernel's %d autotune configs" % (sel, len(configs)))


def _autotune_run(self, *args, **kwargs):
    """Autotuner.run without benchmarking: the chosen config goes into the
    tuner's cache under Triton's own key, then the original run uses it."""
    if len(self.configs) > 1:
        self.nargs = dict(zip(self.arg_names, args))
        all_args = {**self.nargs, **kwargs}
        _args = {k: v for (k, v) in all_args.items() if k in self.arg_names}
        key = [_args[k] for k in self.keys if k in _args]
        for _, arg in _args.items():
            if hasattr(arg, "dtype"):
                key.append(str(arg.dtype))
        key = tuple(key)
        if key not in self.cache:
            # the perf model estimates GPU time (and may ask the GPU, as xformers' does): not here
            perf_model, self.perf_model = getattr(self, "perf_model", None), None
            try:
                self.cache[key] = _pick_config(self.prune_configs(kwargs))
            finally:
                self.perf_model = perf_model
            self.bench_time = 0.0
    with tuned(self):
        return _ORIG["Autotuner.run"](self, *args, **kwargs)


@contextlib.contextmanager
def tuned(autotuner):
    """--recompiles: while the autotuner runs, what its configs set is the
    autotuner's (kind "autotune"; _recompiles.key_of reads _STATE.tuned)."""
    names, prev = set(), getattr(_STATE, "tuned", None)
    for c in autotuner.configs:
        names.update(c.all_kwargs() if hasattr(c, "all_kwargs") else c.kwargs)
    _STATE.tuned = names
    try:
        yield
    finally:
        _STATE.tuned = prev


class _CPUDriver:
    """Answers Triton's device queries on a machine without a GPU driver
    (interp mode only: nothing is launched through it)."""

    def __init__(self):
        import torch
        GPUTarget = _versions.facts().GPUTarget
        self._torch = torch
        # backend "cpu": host code that branches on the backend (is_cuda(),
        # is_hip()) takes its portable path and asks no CUDA questions of torch
        self.target = GPUTarget("cpu", 0, 32)
        self.utils = types.SimpleNamespace(get_device_properties=lambda *a: {
            "multiprocessor_count": 4, "max_num_regs": 65536, "max_shared_mem": 101376, "warpSize": 32,
            "max_threads_per_sm": 2048, "sm_clock_rate": 1000000, "mem_clock_rate": 1000000, "mem_bus_width": 256})

    def is_active(self):
        return True

    def get_current_device(self):
        return 0

    def set_current_device(self, device):
        pass

    def get_current_stream(self, device=None):
        return 0

    def get_current_target(self):
        return self.target

    def get_active_torch_device(self):
        return self._torch.device("cpu")

    def get_device_interface(self):
        return self._torch.cpu

    def get_benchmarker(self):
        return _do_bench

    def get_empty_cache_for_benchmark(self):
        return self._torch.empty(1, dtype=self._torch.int8)

    def clear_cache(self, cache):
        pass


def _do_bench(fn, *args, **kwargs):
    fn()
    q = kwargs.get("quantiles")
    return [0.0 for _ in q] if q else 0.0


def _mark_run(self, *args, **kwargs):
    sys.stderr.write("tritium: interp mode: benchmark '%s' skipped (no timings in the interpreter)\n"
                     % getattr(getattr(self, "fn", None), "__name__", "?"))
    return None


def untimed_benchmarks():
    """triton.testing's benchmarks run once, untimed, and perf_report tables
    are skipped (no timings in the interpreter)."""
    f = _versions.facts()
    tt = f.testing
    if tt is None:
        return
    for name in f.benchmarks:            # do_bench, do_bench_cudagraph (3.8: the _proton ones too)
        patch(tt, name, _do_bench)
    if f.has_mark:
        patch(tt.Mark, "run", _mark_run)


def _interpreted_init(self, fn, *args, **kwargs):
    """InterpretedFunction.__init__ (TRITON_INTERPRET=1), and for a function
    defined by exec of a string, its source read while its exec runs
    (_resolve.recover_exec_source): Triton's interpreter needs none, tritium
    compiles from it."""
    _ORIG["InterpretedFunction.__init__"](self, fn, *args, **kwargs)
    if getattr(getattr(fn, "__code__", None), "co_filename", "").startswith("<"):
        _resolve.recover_exec_source(fn)


def install(mode):
    """Patch Triton for `mode` (idempotent). An unsupported Triton is an
    UnsupportedTriton (a RuntimeError) saying so, before anything is patched."""
    f = _versions.check("tritium: mode '%s'" % mode)
    try:
        import torch  # noqa: F401
    except ImportError as e:
        raise ImportError("tritium: mode '%s' needs PyTorch (pip install torch): %s" % (mode, e)) from e
    if _ORIG:
        return
    jit, autotuner, interpreter, drv = f.jit, f.autotuner, f.interpreter, f.driver
    _launch.OPTION_KEYS.update(f.option_keys)       # this Triton's compile options are launch keywords too
    if mode == "watch":
        # Triton's own launch path, observed (_watch.py); a clear error without a GPU
        from . import _watch
        _watch.install(f, _STATE)
        return
    if interpreter is not None:
        patch(interpreter.InterpretedFunction, "__init__", _interpreted_init)
    if mode == "interp":
        patch(jit.JITFunction, "run", _interp_run)
        if interpreter is not None:
            patch(interpreter.InterpretedFunction, "run", _interp_run)
        patch(autotuner.Autotuner, "run", _autotune_run)
        try:
            drv.active
        except RuntimeError:
            set_driver(drv, _CPUDriver())
        untimed_benchmarks()
        return
    if mode == "gpu":
        # Triton's autotuner and benchmarks time the launches for real
        if not CONFIG.gpu_host_tensors:
            try:
                drv.active
            except RuntimeError as e:
                raise RuntimeError("tritium: --mode gpu needs a CUDA GPU (Triton found no GPU driver: %s); use "
                                   "--mode interp here" % e) from e
        from . import _gpu
        _gpu_launch[0] = _gpu.gpu_launch
        patch(jit.JITFunction, "run", _gpu_run)
        patch(jit.JITFunction, "__getitem__", _gpu_getitem)
        return
    from . import _modes
    _modes.install(mode, jit, autotuner, interpreter, _STATE)
