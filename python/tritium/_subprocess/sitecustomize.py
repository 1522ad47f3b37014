"""Python programs that a program under `python -m tritium` starts run under
tritium too (as coverage.py's subprocess support does): `python -m tritium`
puts this directory first on PYTHONPATH, and Python's site module imports
this file at every interpreter start. It turns the mode in TRITIUM_MODE on
(tritium._autostart, as tritium.pth does for an installed package), then
runs the sitecustomize this one hides, if there is one.
"""
import os
import sys


def _start():
    if os.environ.get("TRITIUM_MODE"):
        try:
            import tritium._autostart  # noqa: F401
        except ImportError as e:
            sys.stderr.write("tritium: warning: subprocess hook: %s\n" % e)
    here = os.path.dirname(os.path.abspath(__file__))
    import importlib.machinery
    import importlib.util
    rest = [p for p in sys.path if os.path.abspath(p or ".") != here]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", rest)
    if spec is not None and spec.loader is not None:
        mod = importlib.util.module_from_spec(spec)
        sys.modules["sitecustomize"] = mod
        spec.loader.exec_module(mod)


_start()
