"""--recompiles: why a kernel is compiled again (issue 27, items 1, 2, 4).

Each launch's key is Triton's (3.6 runtime/jit.py JITFunction.run: the
specialization of the runtime arguments, the constexprs' values, the
options): a tensor's dtype and 16-byte alignment, an integer's type (i32,
i64 above 2^31, u64) and class (== 1, divisible by 16, neither), a bool, a
constexpr's value, num_warps / num_stages / other options. A float's value
and an integer that stays in its class are not in it. A launch whose key
no earlier launch of the kernel had is a compilation; the fields that
differ from the nearest earlier compilation are its causes. Globals the
kernel reads (tritium's live resolution, _resolve.py, compiles again when
one changes) are in the key too: a changed one shows as kind "global".

In watch mode (_watch.py) Triton runs the launch: whether it compiled is
Triton's answer (its kernel cache missed), the seconds are those of its
_do_compile and of the compiled kernel's load at its first launch, and
each kernel also has the host time per launch (the launch's Python call
less those).
"""
import json
import os
import sys
import time

from ._config import CONFIG

_KERNELS = {}            # (name, file, line) -> _Kernel
_REGISTERED = [False]
WATCH = [False]          # watch mode: compilations and times are Triton's (host time per launch too)


class _Kernel:
    def __init__(self, info):
        self.name = info.name.split("@")[0]
        self.file, self.line = os.path.abspath(info.file), info.line
        self.launches = 0
        self.keys = []              # one dict per compilation, in order
        self.seen = set()
        self.seconds = 0.0
        self.host_seconds = 0.0     # watch mode: the launches' Python calls less their compilations
        self.host_launches = 0
        self.history = []
        self.causes = {}            # (name, kind) -> {"compilations": n, "values": [...]}


def _int_key(v, nospec):
    t = "i32" if -2**31 <= v < 2**31 else "i64" if -2**63 <= v < 2**63 else "u64"
    if nospec:
        return t
    return t + (":1" if v == 1 else ":16" if v % 16 == 0 else "")


def _runtime(name, v, p, out):
    nospec = bool(getattr(p, "do_not_specialize", False))
    noalign = bool(getattr(p, "do_not_specialize_on_alignment", False))
    v = getattr(v, "base", v) if type(v).__name__ == "TensorWrapper" else v
    if v is None:
        out[name] = ("constexpr", None)
    elif hasattr(v, "data_ptr") and hasattr(v, "dtype"):
        out[name] = ("dtype", str(v.dtype).replace("torch.", ""))
        if not noalign:
            out[name + ".align"] = ("specialization", "aligned 16" if v.data_ptr() % 16 == 0 else "unaligned")
    elif isinstance(v, bool):
        out[name] = ("dtype", "i1")
    elif isinstance(v, int):
        k = _int_key(v, nospec)
        out[name] = ("dtype", k.split(":")[0])
        if not nospec:
            out[name + ".class"] = ("specialization", {"1": "equal to 1", "16": "divisible by 16"}.get(
                k.partition(":")[2], "neither"))
    elif isinstance(v, float):
        out[name] = ("dtype", "fp32")
    elif isinstance(v, tuple):
        for i, x in enumerate(v):
            _runtime("%s[%d]" % (name, i), x, p, out)
    elif type(v).__name__ == "constexpr":
        out[name] = ("constexpr", _plain(v.value))
    else:
        out[name] = ("constexpr", _plain(v))


def _plain(v):
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, (tuple, list)):
        return [_plain(x) for x in v]
    return str(getattr(v, "__name__", None) or v)


def key_of(jitfn, bound, opts, params, resolved=None):
    """Triton's key of a launch as {field: (kind, value)}."""
    jparams = getattr(jitfn, "params", None) or []
    byname = {getattr(p, "name", None): p for p in jparams}
    out = {}
    for name, is_constexpr in params:
        v = bound[name]
        if is_constexpr:
            out[name] = ("constexpr", _plain(getattr(v, "value", v) if type(v).__name__ == "constexpr" else v))
        else:
            _runtime(name, v, byname.get(name), out)
    out["num_warps"] = ("option", opts.get("num_warps") or 4)
    out["num_stages"] = ("option", opts.get("num_stages") or 3)
    for k in sorted(opts):
        if k not in ("num_warps", "num_stages") and opts[k] is not None:
            out[k] = ("option", _plain(opts[k]))
    from ._patch import _STATE
    for f in getattr(_STATE, "tuned", None) or ():      # set by the autotuner's config (_patch._autotune_run)
        if f in out and out[f][0] in ("constexpr", "option"):
            out[f] = ("autotune", out[f][1])
    for where, name, v in getattr(resolved, "probes", ()):   # the globals the kernel reads (_resolve.py)
        v = getattr(v, "value", v) if type(v).__name__ == "constexpr" else v
        if name.__class__ is str and (v is None or isinstance(v, (bool, int, float, str))):
            out["global:" + name] = ("global", v)
    return out


def _diff(old, new):
    ch = []
    for f in list(old) + [f for f in new if f not in old]:
        a, b = old.get(f), new.get(f)
        if a != b:
            kind = (b or a)[0]
            name = (f.rsplit(".", 1)[0] if kind == "specialization" else f[7:] if kind == "global" else f)
            ch.append({"name": name, "kind": kind, "old": a[1] if a else None, "new": b[1] if b else None})
    return ch


def observe(jitfn, info, bound, opts, seconds, resolved=None, compiled=None, host_seconds=None, launch=True):
    """One launch: a compilation when its key is new for the kernel (logged).
    Watch mode says whether Triton compiled (compiled), the host time of the
    launch, and launch=False for a call that launched nothing (warmup, the
    autotuner's benchmark)."""
    if not (CONFIG.recompiles or CONFIG.recompiles_json):
        return
    if not _REGISTERED[0]:
        import atexit
        atexit.register(at_exit)
        _REGISTERED[0] = True
    k = _KERNELS.get((info.name, info.file, info.line))
    if k is None:
        k = _KERNELS[(info.name, info.file, info.line)] = _Kernel(info)
    key = key_of(jitfn, bound, opts, info.params, resolved)
    frozen = tuple(sorted((f, json.dumps(v, default=str)) for f, v in key.items()))
    index = k.launches
    if launch:
        k.launches += 1
    if host_seconds is not None:
        k.host_seconds += host_seconds
        k.host_launches += 1
    if (frozen in k.seen) if compiled is None else not compiled:
        k.seen.add(frozen)           # (watch: a key Triton had compiled before tritium saw it)
        return
    k.seen.add(frozen)
    k.seconds += seconds
    if not k.keys:
        k.keys.append(key)
        k.history.append({"launch": index, "compilation": 0, "changed": []})
        return
    # (watch: Triton compiled a key tritium had seen, e.g. on another device: no cause, "?")
    nearest = min(reversed(k.keys), key=lambda o: len(_diff(o, key)))
    changed = _diff(nearest, key)
    k.keys.append(key)
    n = len(k.keys) - 1
    k.history.append({"launch": index, "compilation": n, "changed": changed})
    for c in changed:
        e = k.causes.setdefault((c["name"], c["kind"]), {"compilations": 0, "values": []})
        e["compilations"] += 1
        for v in (c["old"], c["new"]):
            if v not in e["values"]:
                e["values"].append(v)
    if CONFIG.recompiles:
        what = ", ".join("%s %s -> %s (%s)" % (c["name"], c["old"], c["new"], c["kind"]) for c in changed)
        sys.stderr.write("tritium: recompile: %s (%s:%d) compilation %d, %.1f ms: %s\n"
                         % (k.name, k.file, k.line, n + 1, seconds * 1e3, what or "?"))
        sys.stderr.flush()


def _fix(name, kind, values=()):
    if kind == "constexpr":
        return ("if %s only bounds a loop or a mask, drop tl.constexpr from it (a runtime int is compiled "
                "once per class), else round it to a few values" % name)
    align = any(v in ("aligned 16", "unaligned") for v in values)
    if kind == "specialization" and not align:
        return "do_not_specialize=[\"%s\"] in @triton.jit" % name
    if kind == "specialization":
        return "do_not_specialize_on_alignment=[\"%s\"] in @triton.jit" % name
    if kind == "dtype":
        return "pass %s in one dtype (cast it before the launch)" % name
    if kind == "option":
        return "launch with one %s" % name
    if kind == "autotune":
        return "the autotuner chose another config for %s (fewer configs, or a coarser key=)" % name
    if kind == "global":
        return "do not change the globals the kernel reads between launches"
    return None


def data():
    ks = []
    for k in _KERNELS.values():
        causes = sorted(k.causes.items(), key=lambda kv: -kv[1]["compilations"])
        row = {"name": k.name, "file": k.file, "line": k.line, "launches": k.launches,
               "compilations": len(k.keys), "compile_seconds": round(k.seconds, 6)}
        if WATCH[0]:
            row["host_seconds_per_launch"] = round(k.host_seconds / k.host_launches, 9) if k.host_launches else None
        row["causes"] = [{"name": n, "kind": kind, "compilations": e["compilations"], "values": e["values"]}
                         for (n, kind), e in causes]
        row["history"] = k.history
        ks.append(row)
    return {"kernels": ks}


def at_exit():
    if _REGISTERED[0] is None:
        return
    _REGISTERED[0] = None
    d = data()
    if CONFIG.recompiles:
        w = sys.stderr.write
        w("tritium: recompiles: %d kernel%s\n" % (len(d["kernels"]), "" if len(d["kernels"]) == 1 else "s"))
        for k in d["kernels"]:
            host = k.get("host_seconds_per_launch")
            w("  %s (%s:%d): %d launches, %d compilations, %.1f ms compiling%s\n"
              % (k["name"], k["file"], k["line"], k["launches"], k["compilations"], k["compile_seconds"] * 1e3,
                 ", %.1f us host per launch" % (host * 1e6) if host is not None else ""))
            for c in k["causes"]:
                w("    %d x %s (%s): %s\n" % (c["compilations"], c["name"], c["kind"],
                                             ", ".join(str(v) for v in c["values"])))
                fix = _fix(c["name"], c["kind"], c["values"])
                if fix:
                    w("      fix: %s\n" % fix)
        sys.stderr.flush()
    if CONFIG.recompiles_json:
        with open(CONFIG.recompiles_json, "w") as f:
            json.dump(d, f, indent=1, default=str)
            f.write("\n")


def compile_timed(L):
    """Compile launch L's specialization now (tritium_launch_compile; the run
    then finds it compiled): (whether the library compiled, seconds)."""
    from . import _lib
    lib = _lib.lib()
    before = lib.tritium_module_compiled_count(L.resolved.module)
    t0 = time.perf_counter()
    lib.tritium_launch_compile(L.L)                  # an error is the run's to report
    t = time.perf_counter() - t0
    return lib.tritium_module_compiled_count(L.resolved.module) > before, t
