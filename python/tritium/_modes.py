"""The modes that let the program's own launches happen: record, check and
debug. Each wraps Triton's launch path (JITFunction.run, runtime/jit.py, and
the launches of a kernel compiled by JITFunction.warmup, compiler.py's
CompiledKernel.__getitem__) with a hook that sees every launch.

record: every launch is written to CONFIG.record_dir/NNNN-KERNEL/ as the
kernel's input tensors (.npy, taken before the launch) and `launch.sh`, a
`tritium run FILE.py:KERNEL@LINE` command line with the grid, scalars and
constexprs, which replays the launch without Python (`tritium debug` and
`tritium diff` take the same spec). Then the launch runs as usual: in
tritium's interpreter when Triton has no GPU driver, else on the GPU.

check: the launch's tensors are copied to the host, Triton runs the launch
on the GPU, and tritium runs the same launch on the copies in its
interpreter and compares every tensor the kernel wrote (tritium_check: the
report of `tritium diff`). The program goes on with Triton's results; a
table at exit; exit status 1 when a launch disagreed or faulted. --against
tritium-gpu compares the interpreter with tritium's own GPU path instead;
--executor gpu (with --against triton) runs tritium's GPU path on the
copies instead of the interpreter: tritium's compiled code against Triton's;
--against in-order|reverse|random[:SEED]|parallel needs no GPU: the
program's launches run in the interpreter under that schedule and are
compared with the reference run (--schedule, in order by default), which
finds results that depend on the order of programs.

debug: the first launch matching a --break KERNEL[:LINE][ pid (x,y,z)]
opens `tritium debug`'s prompt on that launch with its real inputs; the
results go back to the program when the launch ends.
"""
import atexit
import os
import re
import shlex
import sys

from ._config import CONFIG
from . import _html, _launch, _resolve

_GPU = [False]
_STATE = None


def _has_gpu_driver():
    from . import _versions
    try:
        _versions.facts().driver.active
        return True
    except RuntimeError:
        return False


def install(mode, jit, autotuner, interpreter, state):
    global _STATE
    _STATE = state
    from . import _patch
    _GPU[0] = _has_gpu_driver()
    if mode == "check":
        _check_setup()
    if not _GPU[0]:
        from . import _versions
        _patch.set_driver(_versions.facts().driver, _patch._CPUDriver())
        _patch.untimed_benchmarks()             # the launches run in the interpreter
    hook = {"record": _record_hook, "check": _check_hook, "debug": _debug_hook}[mode]
    base_run = jit.JITFunction.run
    cpu_base = _patch._interp_run

    def real_run(self, *args, grid, warmup, **kwargs):
        if _GPU[0]:
            return base_run(self, *args, grid=grid, warmup=warmup, **kwargs)
        return cpu_base(self, *args, grid=grid, warmup=warmup, **kwargs)

    def run(self, *args, grid, warmup, **kwargs):
        if warmup:
            k = real_run(self, *args, grid=grid, warmup=True, **kwargs)
            return HookedKernel(self, kwargs, k, hook)
        return hook(self, args, kwargs, grid, lambda: real_run(self, *args, grid=grid, warmup=False, **kwargs))

    _patch.patch(jit.JITFunction, "run", run)
    if interpreter is not None:
        _patch.patch(interpreter.InterpretedFunction, "run", run)
    if mode == "check" and _GPU[0]:
        # Triton tunes and benchmarks as usual; those launches (the same
        # launch again and again) are not checked
        from . import _versions
        f = _versions.facts()
        _patch.patch(autotuner.Autotuner, "_bench", _unchecked(autotuner.Autotuner._bench, state))
        for name in f.benchmarks:        # do_bench, do_bench_cudagraph (3.8: the _proton ones too)
            _patch.patch(f.testing, name, _unchecked(getattr(f.testing, name), state))
    else:
        _patch.patch(autotuner.Autotuner, "run", _patch._autotune_run)
    atexit.register(_at_exit_hook)


def _unchecked(fn, state):
    def wrapper(*args, **kwargs):
        state.in_autotune += 1
        try:
            return fn(*args, **kwargs)
        finally:
            state.in_autotune -= 1
    return wrapper


class HookedKernel:
    """A kernel compiled by JITFunction.warmup (Triton's CompiledKernel, or
    interp's stand-in without a GPU) whose launches go through the mode's
    hook; other attributes are the kernel's."""

    def __init__(self, jitfn, kwargs, inner, hook):
        self._jitfn = jitfn
        self._opts = {k: v for k, v in kwargs.items() if k in _launch.OPTION_KEYS and k not in jitfn.arg_names}
        self._inner = inner
        self._hook = hook

    def __getattr__(self, name):
        return getattr(self._inner, name)

    def __getitem__(self, grid):
        inner = self._inner[grid]

        def runner(*args, stream=None):
            # a compiled kernel takes every parameter positionally (constexprs too)
            real = (lambda: inner(*args, stream=stream)) if stream is not None else (lambda: inner(*args))
            return self._hook(self._jitfn, args, dict(self._opts), grid, real)
        return runner


# ---- record ---------------------------------------------------------------------

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


def _record_hook(jitfn, args, kwargs, grid, real):
    _html.shadow_run(jitfn, args, kwargs, grid)        # --html: the page's interpreter run, on copies
    record(jitfn, args, kwargs, grid)
    with _html.paused():                               # (the program's own launch is not drawn twice)
        return real()


def record(jitfn, args, kwargs, grid):
    import numpy as np
    bound, opts = _launch.bind(jitfn, args, kwargs)
    g = _launch.grid_of(grid, bound)
    info = _launch.kernel_info(jitfn)
    _SEQ[0] += 1
    d = os.path.join(CONFIG.record_dir, "%04d-%s" % (_SEQ[0], info.short))
    os.makedirs(d, exist_ok=True)
    # the kernel as Python resolved it (its source and every name it reads): the replay needs no Python
    funcs = {}
    for name, _ in info.params:
        _launch._jit_values(bound[name], funcs)
    resolved = _resolve.resolve(jitfn, tuple(funcs.values()))
    kfile = os.path.join(d, "kernel.json")
    with open(kfile, "w") as f:
        f.write(resolved.text)
    words = ["tritium", "run", "%s:%s" % (os.path.abspath(kfile), info.name),
             "--grid", ",".join(str(x) for x in g), "--num-warps", str(opts.get("num_warps") or 4)]
    notes = []
    for name, is_constexpr in info.params:
        v = bound[name]
        v = _launch._unwrap(v)
        if _launch._is_jit(v):
            words += ["--const", "%s=jit:%s" % (name, resolved.refs[id(v)])]
            continue
        if is_constexpr:
            words += ["--const", "%s=%s" % (name, _const_text(v))]
            continue
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


# ---- check ------------------------------------------------------------------------

_SCHED_RE = re.compile(r"^(in-order|reverse|parallel|random)(?::(\d+))?$")


class _Row:
    """One kernel specialization in the summary table."""

    def __init__(self, kernel, spec):
        self.kernel, self.spec = kernel, spec
        self.launches = self.checked = self.agree = self.differ = self.faulted = self.unchecked = 0


_ROWS = {}
_BAD = [0]
_FIRST_REPORTS = []          # the first disagreeing launches' reports (pytest captured them)


def _check_setup():
    a = CONFIG.against
    if CONFIG.executor == "gpu" and a != "triton":
        raise ValueError("tritium: --executor gpu compares tritium's GPU path with Triton's results: it needs "
                         "--against triton, not --against %s" % a)
    if a in ("triton", "tritium-gpu"):
        if not _GPU[0]:
            raise RuntimeError(
                "tritium: --mode check needs a GPU: Triton found no GPU driver on this machine, so there is no "
                "GPU result to check. Use --mode interp here, or --mode check --against reverse (or random, "
                "parallel) to compare the interpreter with itself under another order of programs.")
        return
    if not _SCHED_RE.match(a):
        raise ValueError("tritium: --against %s: expected triton, tritium-gpu, in-order, reverse, random[:SEED] "
                         "or parallel" % a)


def _spec_key(info, bound):
    """Triton's specialization, roughly: tensor dtypes, scalar kinds, constexpr values."""
    parts = []
    for name, is_constexpr in info.params:
        v = _launch._unwrap(bound[name])
        if is_constexpr:
            parts.append("%s=%s" % (name, _const_text(v)))
        elif _launch._is_tensor(v):
            parts.append("%s:%s" % (name, str(getattr(v, "dtype", "?")).replace("torch.", "")))
        elif isinstance(v, int) and not isinstance(v, bool) and v == 1:
            parts.append("%s=1" % name)
    return ", ".join(parts)


def _other_interp_run(jitfn, args, kwargs, grid):
    """--against SCHEDULE: the program's launch in the interpreter under that
    schedule, in place (the checked side; its problems are the reference run's)."""
    m = _SCHED_RE.match(CONFIG.against)
    saved = (CONFIG.schedule, CONFIG.schedule_seed, CONFIG.check_races, CONFIG.check_uninit, CONFIG.on_error)
    CONFIG.schedule, CONFIG.schedule_seed = m.group(1), int(m.group(2) or 1)
    CONFIG.check_races, CONFIG.check_uninit, CONFIG.on_error = False, False, "warn"
    try:
        bound, opts = _launch.bind(jitfn, args, kwargs)
        g = _launch.grid_of(grid, bound)
        L = _launch.Launch(jitfn, bound, g, opts.get("num_warps") or 4, debug=opts.get("debug"))
        try:
            with _html.paused():                     # the page shows the check, not this run
                L.run_interp()
        finally:
            L.free()
    finally:
        CONFIG.schedule, CONFIG.schedule_seed, CONFIG.check_races, CONFIG.check_uninit, CONFIG.on_error = saved


def _check_hook(jitfn, args, kwargs, grid, real):
    if _STATE.in_autotune:
        return real()
    bound, opts = _launch.bind(jitfn, args, kwargs)
    g = _launch.grid_of(grid, bound)
    if g[0] * g[1] * g[2] == 0:
        return real()
    info = _launch.kernel_info(jitfn)
    spec = _spec_key(info, bound)
    row = _ROWS.get((info.name, info.file, info.line, spec))
    if row is None:
        row = _ROWS[(info.name, info.file, info.line, spec)] = _Row(info.short, spec)
    row.launches += 1
    if CONFIG.sample and row.checked >= CONFIG.sample:
        return real()
    staging = _launch._Staging(copy_all=True)
    try:
        L = _launch.Launch(jitfn, bound, g, opts.get("num_warps") or 4, staging=staging, debug=opts.get("debug"))
    except (_launch.UnsupportedLaunch, _launch.CompileError) as e:
        return _unchecked_launch(row, info, e, real)
    if CONFIG.recompiles or CONFIG.recompiles_json:  # --recompiles: Triton's key of this launch
        from . import _recompiles
        _recompiles.observe(jitfn, info, bound, opts, _recompiles.compile_timed(L)[1], L.resolved)
    try:
        if CONFIG.against in ("triton", "tritium-gpu"):
            ret = real()
        else:
            ret = _other_interp_run(jitfn, args, kwargs, grid)
        after = staging.contents_now()
        results = {name: after[ptr] for name, ptr in staging.names.items()}
        against = "tritium-gpu" if CONFIG.against == "tritium-gpu" else "results"
        label = "triton" if CONFIG.against == "triton" else CONFIG.against
        try:
            rc, text, data = L.check(results, against=against, label=label, executor=CONFIG.executor)
        except _launch.CompileError as e:          # Triton compiled it, tritium cannot: not checked
            return _unchecked_launch(row, info, e, lambda: ret)
    finally:
        L.free()
    row.checked += 1
    chk = data.get("check") or {}
    faults = (chk.get("interp") or {}).get("faults", 0)
    if rc == 0:
        row.agree += 1
        if CONFIG.verbose:
            sys.stderr.write("tritium: check %s grid %s: ok\n" % (info.short, g))
        return ret
    if chk.get("mismatches", 0) or (chk.get("gpu") or {}).get("failed"):
        row.differ += 1
    if faults:
        row.faulted += 1
    _BAD[0] += 1
    msg = "tritium: check: kernel %s, grid %s, launch %d of this specialization: %s\n%s" % (
        info.short, tuple(g), row.launches, "MISMATCH" if chk.get("mismatches") else "FAILED", text)
    if len(_FIRST_REPORTS) < 3:
        _FIRST_REPORTS.append(msg)
    if CONFIG.on_error == "raise":
        raise _launch.KernelError(msg.rstrip("\n"), report=text, kernel=info.short, sites=data.get("sites", ()),
                                  grid=tuple(g))
    sys.stderr.write(msg if msg.endswith("\n") else msg + "\n")
    sys.stderr.flush()
    if CONFIG.on_error == "stop":
        _summary()
        sys.stdout.flush()
        os._exit(1)
    return ret


def _unchecked_launch(row, info, err, real):
    """A launch tritium cannot run (an argument it cannot represent, a kernel
    it cannot compile): Triton's launch goes on unchecked; said once per kernel."""
    row.unchecked += 1
    if row.unchecked == 1:
        sys.stderr.write("tritium: check: %s is not checked: %s\n" % (info.short, str(err).splitlines()[0]))
    return real()


def _summary():
    if not _ROWS:
        sys.stderr.write("tritium check: no launches\n")
        return
    w = max(12, max(len(r.kernel) for r in _ROWS.values()))
    sw = max(14, min(60, max(len(r.spec) for r in _ROWS.values())))
    lines = ["tritium check against %s: %d launch%s, %d checked, %d disagree or fault" % (
        CONFIG.against + (" (tritium's GPU path)" if CONFIG.executor == "gpu" else ""), sum(r.launches for r in _ROWS.values()), "" if sum(r.launches for r in _ROWS.values()) == 1
        else "es", sum(r.checked for r in _ROWS.values()), _BAD[0]),
        "%-*s  %-*s  %8s  %7s  %5s  %6s  %7s  %9s" % (w, "kernel", sw, "specialization", "launches", "checked",
                                                    "agree", "differ", "faulted", "unchecked")]
    for r in _ROWS.values():
        spec = r.spec if len(r.spec) <= sw else r.spec[:sw - 3] + "..."
        lines.append("%-*s  %-*s  %8d  %7d  %5d  %6d  %7d  %9d" % (w, r.kernel, sw, spec, r.launches, r.checked,
                                                                 r.agree, r.differ, r.faulted, r.unchecked))
    sys.stderr.write("\n".join(lines) + "\n")
    sys.stderr.flush()


# ---- debug ----------------------------------------------------------------------

_BREAK_RE = re.compile(r"^\s*([A-Za-z_]\w*)(?::(\d+))?(?:\s+pid\s*(\(.*\)))?\s*$")
_DEBUG = {"breaks": None, "detached": False}


def parse_break(text):
    """KERNEL[:LINE][ pid (x,y,z)] -> (kernel, line or None, pid text or None)."""
    m = _BREAK_RE.match(text)
    if not m:
        raise ValueError("tritium: --break %r: expected KERNEL[:LINE][ pid (x,y,z)]" % text)
    pid = m.group(3)
    if pid is not None and not re.match(r"^\(\s*[\d*]+\s*(,\s*[\d*]+\s*){0,2}\)$", pid):
        raise ValueError("tritium: --break %r: the pid is (x[,y[,z]]) with integers or *" % text)
    return m.group(1), (int(m.group(2)) if m.group(2) else None), pid


def _pid_in_grid(pid, g):
    vals = [p.strip() for p in pid.strip("() ").split(",")]
    for v, n in zip(vals, g):
        if v != "*" and not 0 <= int(v) < n:
            return False
    return True


def _debug_hook(jitfn, args, kwargs, grid, real):
    if not (_STATE and _STATE.in_autotune):
        _html.shadow_run(jitfn, args, kwargs, grid)    # --html: the page's interpreter run, on copies
    with _html.paused():                               # (the program's own launch is not drawn twice)
        return _debug_launch(jitfn, args, kwargs, grid, real)


def _debug_launch(jitfn, args, kwargs, grid, real):
    if _DEBUG["breaks"] is None:
        _DEBUG["breaks"] = [parse_break(b) for b in CONFIG.breaks]
        if not _DEBUG["breaks"]:
            sys.stderr.write("tritium: --mode debug without --break: no launch will stop (give --break KERNEL)\n")
    if _DEBUG["detached"] or not _DEBUG["breaks"] or (_STATE and _STATE.in_autotune):
        return real()
    info = _launch.kernel_info(jitfn)
    bound, opts = _launch.bind(jitfn, args, kwargs)
    g = _launch.grid_of(grid, bound)
    hit = None
    for b in _DEBUG["breaks"]:
        if b[0] == info.short and g[0] * g[1] * g[2] > 0 and (b[2] is None or _pid_in_grid(b[2], g)):
            hit = b
            break
    if hit is None:
        return real()
    _DEBUG["breaks"].remove(hit)
    kernel, line, pid = hit
    loc = str(line) if line is not None else info.name.split("@")[0]
    bp = "break %s%s" % (loc, " pid %s" % pid if pid else "")
    argv = ["-q", "-ex", bp, "-ex", "run"]
    for e in CONFIG.ex:
        argv += ["-ex", e]
    if CONFIG.x:
        argv += ["-x", CONFIG.x]
    sys.stderr.write("tritium: debug: launch of %s, grid %s: stopping at %s\n" % (info.short, tuple(g), bp[6:]))
    # the launch runs in the debugger on host copies of its tensors, which go back when it ends
    staging = _launch._Staging(copy_all=True)
    L = _launch.Launch(jitfn, bound, g, opts.get("num_warps") or 4, staging=staging, debug=opts.get("debug"))
    try:
        res = L.debug(argv)
    finally:
        L.free()
    if res["quit"]:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(res["quit_status"] if res["quit_status"] >= 0 else 0)
    if res["detached"]:
        _DEBUG["detached"] = True
    if not res["finished"]:
        raise RuntimeError("tritium: debug: the launch of %s did not finish in the debugger" % info.short)
    from . import _patch
    return _patch.StandInKernel(jitfn, kwargs)


# ---- exit ---------------------------------------------------------------------------

_DONE = [False]


def at_exit(code, repeat_reports=False):
    """python -m tritium's exit: the check table, and status 1 when a launch
    disagreed or faulted. repeat_reports: print the first disagreeing
    launches' reports again (pytest captured them with the test's output)."""
    if _DONE[0]:
        return code
    _DONE[0] = True
    if CONFIG.mode == "check":
        if repeat_reports and _FIRST_REPORTS:
            sys.stderr.write("".join(r if r.endswith("\n") else r + "\n" for r in _FIRST_REPORTS))
        _summary()
        if _BAD[0] and not code:
            return 1
    return code


def _at_exit_hook():
    """The same for programs that end without python -m tritium (TRITIUM_MODE,
    pytest -p tritium): registered first, so it runs after every other exit
    handler and may end the process with status 1."""
    if _DONE[0]:
        return
    _DONE[0] = True
    if CONFIG.mode == "check":
        _summary()
        if _BAD[0]:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(1)
