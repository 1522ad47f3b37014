"""What tritium knows of the installed Triton, in one place: its version and
the features of its launch path that tritium's patches and binding rely on.
Every other module asks here instead of probing Triton itself.

Supported: Triton 3.6 through 3.9 (tested with 3.6.0, 3.7.1, 3.8.0 and 3.9.0,
each with the torch that pins it: scripts/triton_versions.sh). The features
are found by looking at Triton where that can be done (a signature, a class,
an attribute, a dataclass field) and by version only where it cannot:

- JITFunction.run(*args, grid, warmup, **kwargs) and KernelInterface's
  [grid](...) calling it (runtime/jit.py): tritium replaces run. Required.
- how JITFunction.run binds a launch (create_function_from_signature): 3.6
  and 3.7 write every parameter as a plain positional-or-keyword one (a
  keyword-only parameter may be passed by position, `*args` is one parameter
  named args); 3.8 keeps `*args`; 3.9 keeps the keyword-only separator too.
- JITFunction._do_compile(self, key, signature, device, constexprs, options,
  attrs, warmup), called by run on a miss of its kernel cache (3.6-3.9):
  watch mode times Triton's own compilations there (self.watch_compile), and
  the load of a compiled kernel at its first launch,
  CompiledKernel._init_handles (self.watch_load).
- runtime/interpreter.py's InterpretedFunction (TRITON_INTERPRET=1), its run
  with the same arguments: patched when present.
- Autotuner.run(*args, **kwargs), prune_configs(kwargs), _bench(*args,
  config, **meta), and the tuner's cache key (the key arguments' values, then
  every argument's dtype): interp mode puts its chosen config under that key.
  Required. 3.8 adds: one config left after pruning is not benchmarked; 3.9:
  a `key` naming no kernel argument is a ValueError at decoration.
- the compiled kernel's launch, CompiledKernel[grid](*args, stream=None)
  (compiler/compiler.py): what warmup's stand-in kernels imitate.
- runtime/driver.py's DriverConfig (active, set_active, _active): the CPU
  stand-in driver goes there. Required.
- triton.testing's benchmarks (do_bench, do_bench_cudagraph; 3.8 adds
  do_bench_proton, do_bench_cudagraph_proton) and Mark.run: untimed in the
  interpreter, unchecked in check mode.
- triton.knobs (compilation.allow_non_constexpr_globals).
- the compile options a launch may pass as keywords: the fields of the
  installed backends' option dataclasses (CUDAOptions, HIPOptions), which
  grow with each release (3.8: llvm_fn_attrs; 3.9: clc, min_shared_mem, ...).
- TensorDescriptor's fields (3.7 adds round_f32_to_tf32).
- specialization (native_specialize_impl, in C++): the same in 3.6-3.9 for
  every kind of argument tritium passes (ints by range, 1 as a constexpr,
  16-byte alignment, tuples, named tuples, descriptors); by version.

- the language: the front end follows the installed release's language
  (TRITIUM_TRITON_VERSION, set by export_language_version before the
  library loads unless the user set it; settings.def TRITON_VERSION, default
  3.9; compiler/front/sema_version.c lists the builtins added and removed).

An older Triton than 3.6 is an error at start (UnsupportedTriton). A newer
one than 3.9 is a warning: its launch path still has every required feature
above (else that is an error naming the feature), so its programs most likely
run, and refusing would stop everyone whose `pip install torch` brought a new
Triton; what tritium cannot know is the new release's language, which its
compiler refuses by name or a test shows.
"""
import inspect
import os
import re
import sys

OLDEST = (3, 6)
NEWEST_TESTED = (3, 9)
TESTED = ("3.6.0", "3.7.1", "3.8.0", "3.9.0")


class UnsupportedTriton(RuntimeError):
    """The installed Triton is too old, or lacks a feature of the launch path
    that tritium patches (the message says which and what to install)."""


def parse_version(text):
    """(major, minor, patch) of a version string such as '3.9.0',
    '3.10.0+git1234' or '3.7.0rc1'; missing parts are 0."""
    m = re.match(r"\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?", str(text))
    if not m:
        return (0, 0, 0)
    return tuple(int(x or 0) for x in m.groups())


def _fmt(v):
    return "%d.%d" % v[:2]


def _params(fn):
    try:
        return inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return None


def _source(obj):
    try:
        return inspect.getsource(obj)
    except (OSError, TypeError):
        return ""


def _original(owner, attr):
    """owner.attr as Triton defines it, also once tritium has patched it."""
    fn = getattr(owner, attr, None)
    if (getattr(fn, "__module__", None) or "").startswith("tritium"):
        from . import _patch
        fn = _patch._ORIG.get("%s.%s" % (owner.__name__, attr), fn)
    return fn


def _run_shape_ok(fn):
    """run(self, *args, grid, warmup, **kwargs)."""
    p = _params(fn)
    if p is None:
        return False
    kinds = {n: x.kind for n, x in p.items()}
    return (kinds.get("grid") == inspect.Parameter.KEYWORD_ONLY and kinds.get("warmup") == inspect.Parameter.KEYWORD_ONLY
            and any(k == inspect.Parameter.VAR_POSITIONAL for k in kinds.values())
            and any(k == inspect.Parameter.VAR_KEYWORD for k in kinds.values()))


class Facts:
    """The installed Triton as tritium sees it (see the module's doc)."""

    def __init__(self):
        import triton
        self.version_text = getattr(triton, "__version__", "0")
        self.version = parse_version(self.version_text)
        self.missing = []                    # required features not found: (feature, where)
        self._launch_path()
        self._autotuner()
        self._driver()
        self._extras()

    # -- the launch path ---------------------------------------------------
    def _launch_path(self):
        try:
            from triton.runtime import jit
        except ImportError as e:
            self.missing.append(("triton.runtime.jit (%s)" % e, "runtime/jit.py"))
            self.jit = None
            return
        self.jit = jit
        if not _run_shape_ok(_original(getattr(jit, "JITFunction", None), "run")):
            self.missing.append(("JITFunction.run(*args, grid, warmup, **kwargs)", "runtime/jit.py"))
        ki = getattr(jit, "KernelInterface", None)
        if ki is None or "warmup=False" not in _source(getattr(ki, "__getitem__", None)).replace(" ", ""):
            self.missing.append(("KernelInterface.__getitem__ launching through run(grid=..., warmup=False)",
                                 "runtime/jit.py"))
        # binding: what create_function_from_signature keeps of the kernel's signature
        src = _source(getattr(jit, "create_function_from_signature", None))
        self.binds_var_positional = "VAR_POSITIONAL" in src          # 3.8
        self.binds_keyword_only = "KEYWORD_ONLY" in src              # 3.9
        # watch mode: run compiles through _do_compile on a miss of its kernel cache
        dc = _params(_original(getattr(jit, "JITFunction", None), "_do_compile"))
        self.watch_compile = (dc is not None and list(dc) == ["self", "key", "signature", "device", "constexprs",
                                                              "options", "attrs", "warmup"]
                              and "self._do_compile(" in _source(_original(jit.JITFunction, "run")))
        try:
            from triton.runtime import interpreter
        except ImportError:
            interpreter = None
        itf = getattr(interpreter, "InterpretedFunction", None)
        self.interpreter = interpreter if itf is not None and _run_shape_ok(_original(itf, "run")) else None
        try:
            from triton.compiler.compiler import CompiledKernel
            self.compiled_launch = "def runner(*args, stream=None)" in _source(CompiledKernel.__getitem__)
            # watch mode: the first launch of a compiled kernel loads it (its launcher, the binary) here
            self.compiled_kernel = CompiledKernel
            self.watch_load = "self.moduleisnotNone" in re.sub(r"\s+", "", _source(_original(CompiledKernel,
                                                                                              "_init_handles")))
        except (ImportError, AttributeError):
            self.compiled_launch = False
            self.compiled_kernel, self.watch_load = None, False

    def _autotuner(self):
        try:
            from triton.runtime import autotuner
        except ImportError as e:
            self.missing.append(("triton.runtime.autotuner (%s)" % e, "runtime/autotuner.py"))
            self.autotuner = None
            return
        self.autotuner = autotuner
        A = getattr(autotuner, "Autotuner", None)
        run, prune, bench = (_original(A, n) for n in ("run", "prune_configs", "_bench"))
        pr = _params(prune)
        if pr is None or list(pr) != ["self", "kwargs"]:
            self.missing.append(("Autotuner.prune_configs(kwargs)", "runtime/autotuner.py"))
        b = _params(bench)
        if b is None or "config" not in b or b["config"].kind != inspect.Parameter.KEYWORD_ONLY:
            self.missing.append(("Autotuner._bench(*args, config, **meta)", "runtime/autotuner.py"))
        r = _params(run)
        if r is None or [x.kind for x in r.values()][1:] != [inspect.Parameter.VAR_POSITIONAL,
                                                              inspect.Parameter.VAR_KEYWORD]:
            self.missing.append(("Autotuner.run(*args, **kwargs)", "runtime/autotuner.py"))
        # the cache key, as Autotuner.run computes it (interp mode stores its pick under it)
        rs = re.sub(r"\s+", "", _source(run))
        if not ("key=[_args[key]forkeyinself.keysifkeyin_args]" in rs and "key.append(str(arg.dtype))" in rs
                and "key=tuple(key)" in rs):
            self.missing.append(("Autotuner.run's cache key (the key arguments' values, then the arguments' "
                                 "dtypes)", "runtime/autotuner.py"))
        self.autotune_single_config_not_benched = "len(pruned_configs)==1" in rs      # 3.8
        self.autotune_checks_key_names = "containsnamesthatarenotkernelarguments" in re.sub(
            r"\s+", "", _source(getattr(A, "__init__", None)))                          # 3.9

    def _driver(self):
        try:
            from triton.runtime.driver import driver
        except ImportError as e:
            self.missing.append(("triton.runtime.driver (%s)" % e, "runtime/driver.py"))
            self.driver = None
            return
        self.driver = driver
        if not all(hasattr(type(driver), n) for n in ("active", "set_active")) or not hasattr(driver, "_active"):
            self.missing.append(("DriverConfig.active/set_active/_active", "runtime/driver.py"))
        try:
            from triton.backends.compiler import GPUTarget
            self.GPUTarget = GPUTarget
        except ImportError as e:
            self.missing.append(("triton.backends.compiler.GPUTarget (%s)" % e, "backends/compiler.py"))

    def _extras(self):
        import dataclasses
        try:
            import triton.testing as tt
            self.testing = tt
            self.benchmarks = tuple(n for n in ("do_bench", "do_bench_cudagraph", "do_bench_proton",
                                                "do_bench_cudagraph_proton") if hasattr(tt, n))
            self.has_mark = hasattr(getattr(tt, "Mark", None), "run")
        except ImportError:
            self.testing, self.benchmarks, self.has_mark = None, (), False
        try:
            from triton import knobs
            self.knobs = knobs
        except ImportError:
            self.knobs = None
        self.option_keys = set()
        for mod, cls in (("triton.backends.nvidia.compiler", "CUDAOptions"),
                         ("triton.backends.amd.compiler", "HIPOptions")):
            try:
                c = getattr(__import__(mod, fromlist=[cls]), cls)
                self.option_keys |= {f.name for f in dataclasses.fields(c)}
            except (ImportError, AttributeError, TypeError):
                pass
        try:
            from triton.tools.tensor_descriptor import TensorDescriptor
            self.descriptor_fields = tuple(f.name for f in dataclasses.fields(TensorDescriptor))
        except (ImportError, AttributeError, TypeError):
            self.descriptor_fields = ()

    # -- questions the package asks -------------------------------------------
    @property
    def short(self):
        return _fmt(self.version)

    def allow_non_constexpr_globals(self):
        try:
            return bool(self.knobs.compilation.allow_non_constexpr_globals)
        except AttributeError:
            return False

    def binding_signature(self, sig):
        """The kernel's signature as this Triton's JITFunction.run binds a
        launch (create_function_from_signature): before 3.9 a keyword-only
        parameter is an ordinary one, before 3.8 so is `*args`."""
        P = inspect.Parameter
        if self.binds_keyword_only or not any(p.kind in (P.KEYWORD_ONLY, P.VAR_POSITIONAL)
                                              for p in sig.parameters.values()):
            return sig
        out, seen_star = [], False
        for p in sig.parameters.values():
            if p.kind == P.VAR_POSITIONAL and self.binds_var_positional:
                seen_star = True
                out.append(p)
            elif p.kind in (P.KEYWORD_ONLY, P.VAR_POSITIONAL):
                out.append(p.replace(kind=P.KEYWORD_ONLY if seen_star else P.POSITIONAL_OR_KEYWORD))
            else:
                out.append(p)
        # a parameter with a default may not precede one without, for inspect; Triton's generated
        # function would not compile either (SyntaxError): keep the signature then
        try:
            return sig.replace(parameters=out)
        except ValueError:
            return sig

    def describe(self):
        """One line per fact."""
        rows = [("triton", "%s (tested: %s)" % (self.version_text, ", ".join(TESTED))),
                ("binds *args", self.binds_var_positional), ("binds keyword-only", self.binds_keyword_only),
                ("InterpretedFunction", self.interpreter is not None),
                ("watch: run compiles through _do_compile", self.watch_compile),
                ("watch: CompiledKernel._init_handles loads", self.watch_load),
                ("CompiledKernel[grid](*args, stream=None)", self.compiled_launch),
                ("autotune: one config not benchmarked", self.autotune_single_config_not_benched),
                ("autotune: key names checked", self.autotune_checks_key_names),
                ("benchmarks", ", ".join(self.benchmarks)), ("knobs", self.knobs is not None),
                ("TensorDescriptor fields", ", ".join(self.descriptor_fields)),
                ("compile options", len(self.option_keys))]
        return "\n".join("%s: %s" % r for r in rows)


LANGUAGE_ENV = "TRITIUM_TRITON_VERSION"


def language_version(text=None):
    """The Triton release whose language tritium's front end follows for
    Triton `text` (default: the installed one, read from its metadata without
    importing it): its X.Y, 3.9 for a newer one, 3.6 for an older one or none.
    The library reads it from TRITIUM_TRITON_VERSION (settings.def
    TRITON_VERSION; compiler/front/sema_version.c lists what differs)."""
    if text is None:
        try:
            from importlib import metadata
            text = metadata.version("triton")
        except Exception:
            try:
                import triton
                text = triton.__version__
            except Exception:
                return _fmt(NEWEST_TESTED)
    v = parse_version(text)[:2]
    return _fmt(min(max(v, OLDEST), NEWEST_TESTED))


def export_language_version():
    """Set TRITIUM_TRITON_VERSION from the installed Triton before the library
    reads its environment, unless the user set it (to follow another
    release's language on purpose)."""
    if not os.environ.get(LANGUAGE_ENV):
        os.environ[LANGUAGE_ENV] = language_version()
    return os.environ[LANGUAGE_ENV]


_FACTS = []
_WARNED = []


def facts():
    """The installed Triton's Facts (ImportError without Triton)."""
    if not _FACTS:
        _FACTS.append(Facts())
    return _FACTS[0]


def check(what="tritium"):
    """facts(), after making sure this Triton can be used: UnsupportedTriton
    for one older than 3.6 or without a required feature; a warning (once)
    for one newer than the newest tested."""
    try:
        import triton
    except ImportError as e:
        raise ImportError("%s needs Triton %s to %s (pip install torch triton): %s"
                          % (what, _fmt(OLDEST), _fmt(NEWEST_TESTED), e)) from e
    v = parse_version(getattr(triton, "__version__", "0"))
    if v[:2] < OLDEST:
        raise UnsupportedTriton(
            "tritium: Triton %s is older than the oldest this tritium supports (%s); install Triton %s to %s "
            "with the torch that pins it (pip install --upgrade torch triton)"
            % (getattr(triton, "__version__", "?"), _fmt(OLDEST), _fmt(OLDEST), _fmt(NEWEST_TESTED)))
    f = facts()
    if f.missing:
        raise UnsupportedTriton(
            "tritium: Triton %s's launch path lacks what tritium patches: %s; tritium supports Triton %s to %s "
            "(tested: %s)" % (f.version_text, "; ".join("%s (%s)" % m for m in f.missing), _fmt(OLDEST),
                              _fmt(NEWEST_TESTED), ", ".join(TESTED)))
    if v[:2] > NEWEST_TESTED and not _WARNED:
        _WARNED.append(True)
        sys.stderr.write(
            "tritium: Triton %s is newer than the newest this tritium was tested with (%s); its launch path has "
            "what tritium patches, so tritium goes on, but what %s changed in the language is not known to "
            "tritium: a kernel using it is refused by name, or may run as %s ran it\n"
            % (f.short, _fmt(NEWEST_TESTED), f.short, _fmt(NEWEST_TESTED)))
    return f
