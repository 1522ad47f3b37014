"""TRITIUM_MODE=M for programs that other tools start (no python -m tritium).

`pip install .` puts tritium.pth in site-packages; at every interpreter
start it looks up TRITIUM_MODE and, only when it is set, imports this
module, which enables the mode (with the options in TRITIUM_OPTIONS, as for
python -m tritium) as soon as the program imports triton. Until then
nothing else is imported, so programs that never use Triton pay nothing
more, and start-up order is unchanged.
"""
import importlib.util
import os
import sys


def _activate():
    from ._config import CONFIG, env_argv
    if CONFIG.mode:                              # python -m tritium or the pytest plugin came first
        return
    from . import __main__ as cli
    ns = cli.parse_options(env_argv())
    ns.mode = os.environ.get("TRITIUM_MODE")
    cli.apply(ns)


class _Loader:
    """Triton's own loader, then the mode."""

    def __init__(self, loader):
        self.loader = loader

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module):
        self.loader.exec_module(module)
        if _FINDER in sys.meta_path:
            sys.meta_path.remove(_FINDER)
        _activate()


class _Finder:
    """Wraps Triton's loader when triton is imported. It stays in place
    until the import really happens: a probe such as torch's
    importlib.util.find_spec("triton") gets a spec and discards it."""

    busy = False

    def find_spec(self, name, path=None, target=None):
        if name != "triton" or _Finder.busy:
            return None
        _Finder.busy = True                      # the lookup below asks the other finders
        try:
            spec = importlib.util.find_spec(name)
        finally:
            _Finder.busy = False
        if spec is not None and spec.loader is not None:
            spec.loader = _Loader(spec.loader)
        return spec


_FINDER = _Finder()

if "triton" in sys.modules:
    _activate()
else:
    sys.meta_path.insert(0, _FINDER)
