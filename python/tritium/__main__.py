"""python -m tritium [options] SCRIPT.py ARGS...  |  python -m tritium [options] -m MODULE ARGS...

Runs a Python program with every Triton launch going through tritium (the
mode: interp, check, debug, record, gpu). Options stop at the script or -m, as
with python -m cProfile. `python -m tritium run|debug|diff|ir|ptx ...` runs
the `tritium` command's sub-commands.
"""
import argparse
import os
import runpy
import sys

from ._config import CONFIG, MODES, options_to_argv

SUBCOMMANDS = ("run", "debug", "diff", "ir", "ptx", "--version", "--help", "help")


def _count(text):
    v = int(text)
    if not 0 <= v <= 2**62:
        raise argparse.ArgumentTypeError("%s: expected an integer from 0 to 2^62" % text)
    return v


def _tol(text):
    v = float(text)
    if not 0 <= v < float("inf"):
        raise argparse.ArgumentTypeError("%s: expected a finite number >= 0" % text)
    return v


def _parser():
    p = argparse.ArgumentParser(prog="python -m tritium", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--mode", choices=MODES, default=None, help="default: $TRITIUM_MODE, else interp")
    p.add_argument("--on-error", choices=("raise", "warn", "stop"), default=None,
                   help="a fault, race or uninitialized read: raise tritium.KernelError (default), "
                        "print the report and go on, or print it and exit with status 1")
    p.add_argument("--schedule", choices=("in-order", "reverse", "random", "parallel"), default=None)
    p.add_argument("--schedule-seed", type=int, default=None)
    p.add_argument("--threads", type=int, default=None)
    p.add_argument("--numerics", choices=("ieee", "fast", "gpu"), default=None)
    p.add_argument("--no-races", action="store_true", help="do not check races between programs")
    p.add_argument("--uninit", action="store_true", help="report reads of never-written memory")
    p.add_argument("--config", default=None,
                   help="autotune: the config to use (an index, or KEY=VALUE,... matched against the configs)")
    p.add_argument("--record-dir", default=None, help="record mode: output directory (default tritium-record)")
    p.add_argument("--break", dest="breaks", action="append", default=[], metavar="KERNEL[:LINE][ pid (x,y,z)]",
                   help="debug: stop at the first launch of KERNEL (whose grid has that program) at LINE "
                        "(default: the start of the program) and open tritium's debugger (repeatable)")
    p.add_argument("-ex", dest="ex", action="append", default=[], metavar="CMD",
                   help="debug: run debugger command CMD at the stop (repeatable, as gdb -ex)")
    p.add_argument("-x", dest="x", default=None, metavar="FILE", help="debug: run the debugger commands in FILE")
    p.add_argument("--against", default=None, metavar="WHAT",
                   help="check: triton (default: Triton's GPU results), tritium-gpu (tritium's GPU path), or a "
                        "schedule in-order|reverse|random[:SEED]|parallel (the interpreter against itself; no GPU)")
    p.add_argument("--executor", choices=("interp", "gpu"), default=None,
                   help="check --against triton: tritium's side, its interpreter (default) or its GPU path "
                        "(tritium's compiled code against Triton's on the same inputs)")
    p.add_argument("--sample", type=_count, default=None, metavar="N",
                   help="check: at most N launches per kernel specialization")
    p.add_argument("--rtol", type=_tol, default=None, help="check: relative tolerance (default: tritium diff's per dtype)")
    p.add_argument("--atol", type=_tol, default=None, help="check: absolute tolerance")
    p.add_argument("--ulp", type=_count, default=None, metavar="N", help="check: also accept values N ULPs apart")
    p.add_argument("-v", "--verbose", action="store_true")
    return p


def parse_options(argv):
    return _parser().parse_args(argv)


def apply(ns):
    """Set CONFIG from parsed options and enable the mode."""
    mode = ns.mode or os.environ.get("TRITIUM_MODE") or "interp"
    for k in ("on_error", "schedule", "schedule_seed", "threads", "numerics", "config", "record_dir",
              "sample", "rtol", "atol", "ulp", "against", "executor", "x"):
        v = getattr(ns, k, None)
        if v is not None:
            setattr(CONFIG, k, v)
            CONFIG.explicit.add(k)
    if ns.no_races:
        CONFIG.check_races = False
    if ns.uninit:
        CONFIG.check_uninit = True
    if mode == "debug":
        from ._modes import parse_break
        for b in ns.breaks:
            parse_break(b)                           # a bad --break is an error now, not at the launch
    CONFIG.breaks += ns.breaks
    CONFIG.ex += ns.ex
    CONFIG.verbose = CONFIG.verbose or ns.verbose
    import tritium
    tritium.enable(mode)
    # programs this one starts (pytest-xdist workers, subprocesses) inherit the mode
    os.environ["TRITIUM_MODE"] = mode
    os.environ["TRITIUM_OPTIONS"] = " ".join(options_to_argv(CONFIG))
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
    takes_value = {"--mode", "--on-error", "--schedule", "--schedule-seed", "--threads", "--numerics",
                   "--config", "--record-dir", "--break", "-ex", "-x", "--sample", "--rtol", "--atol", "--ulp",
                   "--against", "--executor"}
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
    if argv and argv[0] in SUBCOMMANDS:
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
