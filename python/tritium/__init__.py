"""tritium for Python: run Triton programs and test suites with every launch
in tritium's checked interpreter (or checked against the GPU, debugged,
recorded). See docs/python.md.

    python -m tritium [--mode interp|check|debug|record] [options] SCRIPT.py ARGS...
    python -m tritium [options] -m pytest ...
    TRITIUM_MODE=interp python SCRIPT.py        (with the package installed)
    pytest -p tritium --tritium=interp ...

or in code: ``import tritium; tritium.enable("interp")`` before the first launch
(``tritium.disable()`` gives Triton its own launch path back).
Torch and Triton are needed only once a mode is enabled.
"""
from .errors import CompileError, KernelError, UnsupportedLaunch
from ._config import CONFIG

__all__ = ["enable", "disable", "KernelError", "UnsupportedLaunch", "CompileError", "MODES", "version"]


def version():
    """libtritium's version string."""
    from . import _lib
    return _lib.lib().tritium_version().decode()


def enable(mode="interp", **options):
    """Route Triton launches of this process through tritium. options are
    Config attributes (on_error, schedule, numerics, config, record_dir, ...)."""
    from ._config import MODES
    if mode not in MODES:
        raise ValueError("tritium: unknown mode '%s' (modes: %s)" % (mode, ", ".join(MODES)))
    for k, v in options.items():
        if not hasattr(CONFIG, k):
            raise TypeError("tritium.enable: unknown option '%s'" % k)
        setattr(CONFIG, k, v)
        CONFIG.explicit.add(k)
    from ._config import MODE_DEFAULTS
    for k, v in MODE_DEFAULTS.get(mode, {}).items():
        if k not in CONFIG.explicit:
            setattr(CONFIG, k, v)
    CONFIG.mode = mode
    # TRITON_INTERPRET=1 may stay: its InterpretedFunction launches come to
    # tritium too, and host code that asks is_interpreter() takes its CPU path
    from . import _lib, _patch
    _lib.lib()                                       # fail now if the library is missing
    _patch.install(mode)
    if CONFIG.html:                                  # --html FILE: the page of the launches (_html.py)
        from . import _html
        _html.start(CONFIG.html)
    if CONFIG.verbose:
        import atexit
        atexit.register(_summary)


def __getattr__(name):
    if name == "MODES":                        # the library's modes (loads it)
        from . import _config
        return _config.MODES
    raise AttributeError(name)


def disable():
    """Undo enable(): every patch of Triton's launch path is taken back
    (JITFunction.run, the interpreter's, the autotuner's, the benchmarks,
    the stand-in driver), so launches go through Triton's own path again.
    Nothing else was patched. enable() may be called again later."""
    from . import _patch
    _patch.disable()
    CONFIG.mode = None


def _summary():
    import sys
    from ._launch import COUNTS
    if CONFIG.mode == "watch":                 # Triton ran every launch; --recompiles' table says what it saw
        return
    if CONFIG.mode == "gpu":
        from ._gpu import COUNTS as G
        sys.stderr.write("tritium: gpu mode: %d launches on the GPU (%d specializations compiled)\n"
                         % (G["launches"], G["compiles"]))
        return
    sys.stderr.write("tritium: %s mode: %d launches interpreted (%d compiles, %d with errors, %.3f s in the "
                     "interpreter)\n" % (CONFIG.mode, COUNTS["launches"], COUNTS["compiles"], COUNTS["faulty"],
                                         COUNTS["seconds"]))


# ---- pytest plugin: pytest -p tritium --tritium=MODE ------------------------

def pytest_addoption(parser):
    group = parser.getgroup("tritium")
    group.addoption("--tritium", action="store", default=None, metavar="MODE",
                    help="run every Triton launch through tritium in MODE (python -m tritium --mode's)")
    group.addoption("--tritium-options", action="store", default="", metavar="OPTS",
                    help="more tritium options, as for python -m tritium (e.g. '--on-error=warn')")


def pytest_sessionfinish(session, exitstatus):
    """check mode: the table, and a failing status when a launch disagreed."""
    if CONFIG.mode == "check":
        from . import _modes
        code = _modes.at_exit(int(exitstatus), repeat_reports=True)
        if code and not exitstatus:
            session.exitstatus = code


def pytest_configure(config):
    mode = config.getoption("--tritium", default=None)
    if mode and CONFIG.mode is None:
        from . import __main__ as cli
        import shlex
        ns = cli.parse_options(["--mode", mode] + shlex.split(config.getoption("--tritium-options") or ""))
        cli.apply(ns)
