"""--html FILE (settings.def's html row; docs/html.md): one HTML page of the
program's launches, through libtritium's collector (tritium_html_begin:
every tritium_run and tritium_check of the process adds its launch; the
page is written at exit, launches that faulted, raced or disagreed first).

interp and check modes run every launch in the interpreter already. In
record, debug and gpu modes the program's launches do not go through the
interpreter, so with --html each is also run there, on copies of its inputs
(shadow_run: the program's tensors are not touched), for the page alone.

A program that python -m tritium starts (pytest-xdist workers,
subprocesses) inherits the options: it writes its own page, FILE with its
process id before the extension."""
import atexit
import contextlib
import ctypes
import os
import sys

_STATE = {"path": None}


def start(path):
    """Collect the launches of this process into the page at `path`."""
    if _STATE["path"]:
        return
    from . import _lib
    lib = _lib.lib()
    owner = os.environ.get("TRITIUM_HTML_OWNER")
    if owner and owner != str(os.getpid()):
        root, ext = os.path.splitext(path)
        path = "%s-%d%s" % (root, os.getpid(), ext or ".html")
    else:
        os.environ["TRITIUM_HTML_OWNER"] = str(os.getpid())
    argv = sys.argv or ["python"]
    if os.path.basename(argv[0]) == "__main__.py":          # python -m tritium [options] SCRIPT ...
        title = " ".join(["python -m tritium"] + argv[1:])
    else:                                                  # TRITIUM_MODE, the pytest plugin, tritium.enable()
        title = " ".join([os.path.basename(argv[0])] + argv[1:])
    if lib.tritium_html_begin(os.fsencode(path), title.encode("utf-8", "replace")):
        raise RuntimeError(_lib.last_error())
    _STATE["path"] = path
    atexit.register(finish)


def finish():
    """Write the page and stop collecting (at exit)."""
    path = _STATE["path"]
    if not path:
        return
    _STATE["path"] = None
    from . import _lib
    lib = _lib.lib()
    n = lib.tritium_html_launches()
    size = ctypes.c_int64(0)
    rc = lib.tritium_html_end(ctypes.byref(size))
    if rc:
        sys.stderr.write("%s\n" % _lib.last_error())
    else:
        sys.stderr.write("tritium: wrote %s (%d launch%s, %.1f KB)\n" % (path, n, "" if n == 1 else "es",
                                                                       size.value / 1024))


def active():
    return _STATE["path"] is not None


@contextlib.contextmanager
def paused():
    """Launches run inside are not added (check mode's second interpreter run)."""
    if not active():
        yield
        return
    from . import _lib
    pause = _lib.lib().tritium_html_pause
    was = pause(1)
    try:
        yield
    finally:
        pause(was)


def shadow_run(jitfn, args, kwargs, grid):
    """record, debug and gpu modes: the launch in the interpreter on copies of
    its inputs, for the page only (its reports are not printed). Ctrl-C
    during it (the library's SIGINT handler stops the run) raises
    KeyboardInterrupt, as at any other launch."""
    if not active():
        return
    from . import _launch, _lib
    from ._config import CONFIG
    try:
        bound, opts = _launch.bind(jitfn, args, kwargs)
        g = _launch.grid_of(grid, bound)
        if g[0] * g[1] * g[2] == 0:
            return
        L = _launch.Launch(jitfn, bound, g, opts.get("num_warps") or 4, staging=_launch._Staging(copy_all=True),
                           debug=opts.get("debug"))
    except Exception as e:                      # what tritium cannot run is not on the page
        if CONFIG.verbose:
            sys.stderr.write("tritium: --html: launch not drawn: %s\n" % e)
        return
    try:
        lib = _lib.lib()
        rep = ctypes.c_void_p()
        rc = lib.tritium_run(L.L, ctypes.byref(_launch.run_options()), ctypes.byref(rep))
        if rep:
            lib.tritium_report_free(rep)
    finally:
        L.free()
    if rc == _lib.INTERRUPTED:
        raise KeyboardInterrupt("tritium: kernel %s interrupted (--html's run of it)" % L.info.short)
