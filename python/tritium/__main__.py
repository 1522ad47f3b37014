"""python -m tritium [options] SCRIPT.py ARGS...  |  python -m tritium [options] -m MODULE ARGS...

Runs a Python program with every Triton launch going through tritium (the
mode: interp, check, debug, record, gpu). Options stop at the script or -m, as
with python -m cProfile. `python -m tritium run|check|debug|diff|ir|ptx ...`
runs the `tritium` command's sub-commands. The options are the rows of the
library's settings table that Python takes (`tritium help settings`).
"""
import argparse
import os
import runpy
import shlex
import sys

from . import _config
from ._config import CONFIG, options_to_argv


def subcommands():
    """The `tritium` sub-commands (from the library), and its own options."""
    return tuple(_config._table()["commands"]) + ("--version", "--help", "help")


def _type(r):
    """argparse's conversion of a row's values (the library's checks, in Python)."""
    def convert(text):
        try:
            return _config.parse_value(r, text)
        except ValueError as e:
            raise argparse.ArgumentTypeError("%s: %s" % (text, e)) from None
    convert.__name__ = r["type"]
    return convert


def _parser():
    p = argparse.ArgumentParser(prog="python -m tritium", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    for r in _config.rows():
        flags = _config.python_flag(r)
        if not flags:
            continue
        help_text = r["help"]
        for prefix in ("Python: ", "Python, "):         # the table says so; this parser is Python's
            if help_text.startswith(prefix):
                help_text = help_text[len(prefix)].upper() + help_text[len(prefix) + 1:]
        kw = {"dest": r["python"], "help": help_text}
        if r["type"] == "bool":
            kw.update(action="store_const", const=r["default"] != "1", default=None)
        elif r["type"] == "list":
            kw.update(action="append", default=[], metavar=r["metavar"])
        else:
            kw.update(type=_type(r), default=None, metavar=r["metavar"])
        if r["python"] == "mode":
            kw["help"] += " (default: $%s, else %s)" % (r["env"], r["default"])
        p.add_argument(*flags, **kw)
    return p


def parse_options(argv):
    return _parser().parse_args(argv)


def apply(ns):
    """Set CONFIG from parsed options and enable the mode."""
    mode_row = _config.row("mode")
    mode = ns.mode or os.environ.get(mode_row["env"]) or mode_row["default"]
    if mode == "debug":
        from ._modes import parse_break
        for b in ns.breaks:
            parse_break(b)                           # a bad --break is an error now, not at the launch
    for r in _config.rows():
        k = r["python"]
        v = getattr(ns, k, None)
        if k == "mode" or v is None or v == []:
            continue
        if r["type"] == "list":
            setattr(CONFIG, k, getattr(CONFIG, k) + v)
        elif r["type"] == "seeded" and ":" in v and k + "_seed" in ns:
            # --schedule random:7 is --schedule random --schedule-seed 7
            name, _, seed = v.partition(":")
            setattr(CONFIG, k, name)
            setattr(CONFIG, k + "_seed", int(seed))
            CONFIG.explicit.add(k + "_seed")
        else:
            setattr(CONFIG, k, v)
        CONFIG.explicit.add(k)
    import tritium
    tritium.enable(mode)
    # programs this one starts (pytest-xdist workers, subprocesses) inherit the mode
    os.environ[mode_row["env"]] = mode
    os.environ[_config.setting("options")["env"]] = " ".join(shlex.quote(a) for a in options_to_argv(CONFIG))
    _export_subprocess_hook()


def _export_subprocess_hook():
    """Python programs started from this one run under tritium too: the hook
    directory (its sitecustomize.py turns TRITIUM_MODE on) and the directory
    this package was imported from go first on PYTHONPATH. tritium.pth does
    the same for an installed package, but Python reads .pth files only in
    site directories, not in PYTHONPATH's."""
    pkg = os.path.dirname(os.path.abspath(__file__))
    old = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    add = [p for p in (os.path.join(pkg, "_subprocess"), os.path.dirname(pkg)) if p not in old]
    os.environ["PYTHONPATH"] = os.pathsep.join(add + old)


def _split(argv):
    """Options before the script / -m MODULE; the rest belongs to the program."""
    takes_value = {f for r in _config.rows() if r["type"] != "bool" for f in _config.python_flag(r)}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "-m":
            return argv[:i], ("module", argv[i + 1] if i + 1 < len(argv) else None), argv[i + 2:]
        if a == "--":
            return argv[:i], ("script", argv[i + 1] if i + 1 < len(argv) else None), argv[i + 2:]
        if not a.startswith("-"):
            return argv[:i], ("script", a), argv[i + 1:]
        i += 2 if a in takes_value else 1
    return argv, (None, None), []


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in subcommands():
        from . import _lib
        return _lib.main(argv)
    opts, (kind, target), rest = _split(argv)
    ns = parse_options(opts)
    if not target:
        _parser().print_usage(sys.stderr)
        sys.stderr.write("python -m tritium: error: give a script or -m MODULE to run\n")
        return 2
    try:
        apply(ns)
    except (RuntimeError, ValueError) as e:
        sys.stderr.write("%s\n" % e)
        return 2
    if kind == "module":
        sys.argv = [target] + rest
        runpy.run_module(target, run_name="__main__", alter_sys=True)
    else:
        if not os.path.exists(target):
            sys.stderr.write("python -m tritium: error: %s: no such file\n" % target)
            return 2
        sys.argv = [target] + rest
        sys.path.insert(0, os.path.dirname(os.path.abspath(target)))
        runpy.run_path(target, run_name="__main__")
    return 0


def tritium_command():
    """The `tritium` console script: the C program's sub-commands."""
    from . import _lib
    sys.exit(_lib.main(sys.argv[1:]))


if __name__ == "__main__":
    try:
        code = main()
    except SystemExit as e:
        code = e.code
    from . import _modes
    code = _modes.at_exit(code) if hasattr(_modes, "at_exit") else code
    sys.exit(code)
