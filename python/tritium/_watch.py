"""watch mode (issue 27, item 3): Triton runs the program exactly as it
would, its compiler, its caches and its timings; tritium only observes its
launches and compilations and reports them as --recompiles does (the log
line, the exit table, --recompiles-json), with Triton's compile times and
the host time per launch.

Two patches, both through _patch.patch (tritium.disable() takes them back):

- JITFunction.run (runtime/jit.py): Triton's own run, timed (wall clock of
  the call); then the launch's key as _recompiles computes it. Whether the
  launch compiled is Triton's answer, not tritium's: run called
  JITFunction._do_compile (a miss of its kernel cache). The key only names
  the causes. The host time of a launch is the call's time less the time in
  _do_compile.
- JITFunction._do_compile (_versions.Facts.watch_compile): Triton's own,
  timed; the seconds go to the launch in progress in this thread. With
  Triton's async compile mode (_async_compile) it returns a future at once:
  the time is the submission's, not the compilation's.
- CompiledKernel._init_handles (Facts.watch_load): the first launch of a
  compiled kernel loads it (builds or finds its launcher, loads the binary
  on the device; on a cold cache the launcher's C compilation takes most of
  a second). That time is the compilation's too, not the launch's host time.

The autotuner runs as Triton runs it: every config is compiled and
benchmarked (Autotuner._bench). Those compilations are counted, with kind
"autotune" for what a config sets; the benchmark's launches are not counted
as the program's launches, nor in the host time. JITFunction.warmup
compiles (counted, no launch); the launches of the CompiledKernel it
returns do not go through run and are not seen.
"""
import os
import sys
import threading
import time

from ._config import CONFIG
from . import _launch, _patch, _recompiles, _versions

_LOCAL = threading.local()       # .launch: the _Timing of the run in progress in this thread


class _Timing:
    __slots__ = ("compiles", "compile_seconds")

    def __init__(self):
        self.compiles = 0
        self.compile_seconds = 0.0


def _no_gpu_message(why):
    return ("tritium: --mode watch needs a GPU: it observes Triton's own compilations and launches, and %s. "
            "Use --mode interp --recompiles here: the same report (the same compilations and causes, "
            "under Triton's key), with tritium's compile times instead of Triton's." % why)


def check_usable(f):
    """RuntimeError with a clear message when watch mode cannot observe Triton."""
    try:
        interpret = f.knobs is not None and f.knobs.runtime.interpret
    except AttributeError:
        interpret = False
    if interpret or os.environ.get("TRITON_INTERPRET", "0") not in ("", "0"):
        raise RuntimeError(_no_gpu_message("TRITON_INTERPRET=1 makes Triton interpret every kernel instead of "
                                           "compiling it (unset it)"))
    try:
        f.driver.active
    except RuntimeError as e:
        raise RuntimeError(_no_gpu_message("Triton found no GPU driver on this machine (%s)" % str(e).rstrip(".")))
    if not f.watch_compile:
        raise _versions.UnsupportedTriton(
            "tritium: --mode watch: Triton %s's JITFunction.run does not compile through "
            "_do_compile(key, signature, device, constexprs, options, attrs, warmup) as 3.6-3.9 do; use "
            "--mode interp --recompiles" % f.version_text)


def timed_compile(orig):
    """JITFunction._do_compile, timed for the launch in progress."""
    def _do_compile(self, *args, **kwargs):
        t0 = time.perf_counter()
        try:
            return orig(self, *args, **kwargs)
        finally:
            rec = getattr(_LOCAL, "launch", None)
            if rec is not None:
                rec.compiles += 1
                rec.compile_seconds += time.perf_counter() - t0
    return _do_compile


def timed_load(orig):
    """CompiledKernel._init_handles, its load timed for the launch in progress."""
    def _init_handles(self):
        if getattr(self, "module", None) is not None:
            return orig(self)
        t0 = time.perf_counter()
        try:
            return orig(self)
        finally:
            rec = getattr(_LOCAL, "launch", None)
            if rec is not None:
                rec.compile_seconds += time.perf_counter() - t0
    return _init_handles


def observed_run(orig, state):
    """JITFunction.run: Triton's, timed, then observed."""
    def run(self, *args, grid, warmup, **kwargs):
        rec, prev = _Timing(), getattr(_LOCAL, "launch", None)
        _LOCAL.launch = rec
        t0 = time.perf_counter()
        try:
            kernel = orig(self, *args, grid=grid, warmup=warmup, **kwargs)
        finally:
            wall = time.perf_counter() - t0
            _LOCAL.launch = prev
        try:
            observe(self, args, kwargs, rec, wall, launch=not warmup and kernel is not None and not state.in_autotune)
        except Exception as e:           # Triton's launch happened: an observation that fails only says so
            _unobserved(self, e)
        return kernel
    return run


_UNOBSERVED = set()


def _unobserved(jitfn, err):
    name = getattr(getattr(jitfn, "fn", None), "__name__", "?")
    if name not in _UNOBSERVED:
        _UNOBSERVED.add(name)
        sys.stderr.write("tritium: watch: the launches of %s are not observed: %s: %s\n"
                         % (name, type(err).__name__, str(err).splitlines()[0] if str(err) else ""))


def observe(jitfn, args, kwargs, rec, wall, launch=True):
    """One call of Triton's run: its key, whether Triton compiled and how long
    it took, and the host time of the launch (the call less the compilation)."""
    info = _launch.kernel_info(jitfn)
    bound, opts = _launch.bind(jitfn, args, kwargs)
    host = max(0.0, wall - rec.compile_seconds) if launch else None
    _recompiles.observe(jitfn, info, bound, opts, rec.compile_seconds, compiled=rec.compiles > 0,
                        host_seconds=host, launch=launch)


def _tuned_run(orig):
    """Autotuner.run as Triton's, with what its configs set marked for the key
    (kind "autotune")."""
    def run(self, *args, **kwargs):
        with _patch.tuned(self):
            return orig(self, *args, **kwargs)
    return run


def _bench(orig, state):
    """Autotuner._bench as Triton's: its launches are the benchmark's, not the program's."""
    def bench(*args, **kwargs):
        state.in_autotune += 1
        try:
            return orig(*args, **kwargs)
        finally:
            state.in_autotune -= 1
    return bench


def install(f, state):
    check_usable(f)
    jit, autotuner = f.jit, f.autotuner
    if not (CONFIG.recompiles or CONFIG.recompiles_json):
        CONFIG.recompiles = True                 # watch mode is for the report
    _recompiles.WATCH[0] = True
    _patch.patch(jit.JITFunction, "_do_compile", timed_compile(jit.JITFunction._do_compile))
    _patch.patch(jit.JITFunction, "run", observed_run(jit.JITFunction.run, state))
    if f.watch_load:
        _patch.patch(f.compiled_kernel, "_init_handles", timed_load(f.compiled_kernel._init_handles))
    _patch.patch(autotuner.Autotuner, "run", _tuned_run(autotuner.Autotuner.run))
    _patch.patch(autotuner.Autotuner, "_bench", _bench(autotuner.Autotuner._bench, state))
