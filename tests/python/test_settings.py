"""The Python side of the settings table (include/tritium/settings.def): every
row with a Python name is a Config attribute at its default, a flag of
python -m tritium that parses a value, and survives options_to_argv (the
options handed to the programs a Python run starts); `python -m tritium
check` is the `tritium check` sub-command; --threads and -v reach a
subprocess."""
import os
import subprocess
import sys

from tritium import _config, _lib
from tritium import __main__ as cli

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _sample(r):
    """A valid value other than the default, as text."""
    t, d = r["type"], r["domain"]
    if t == "bool":
        return None
    if t in ("int", "uint"):
        return "3" if ".." in d else d.split("|")[1]
    if t == "float":
        return "0.25"
    if t in ("enum", "seeded"):
        return next(v for v in r["values"] if v != r["default"])
    return "some-value"


def test_every_python_row():
    rows = _config.rows()
    assert rows and _lib.settings()["commands"][:3] == ["run", "ir", "check"]
    for r in rows:
        name = r["python"]
        c = _config.Config()
        if name != "mode":                 # the mode is the enabled one (None until enable)
            assert getattr(c, name) == _config.default_of(r), name
        flags = _config.python_flag(r)
        if not flags:
            continue
        for flag in flags:
            v = _sample(r)
            ns = cli.parse_options([flag] if v is None else [flag, v])
            got = getattr(ns, name)
            want = (r["default"] != "1") if v is None else _config.parse_value(r, v)
            assert got == ([want] if r["type"] == "list" else want), (flag, got)
        # the value reaches a program started from this one: options_to_argv, parsed again
        c.mode = "interp"
        v = _sample(r)
        value = (r["default"] != "1") if v is None else _config.parse_value(r, v)
        setattr(c, name, [value] if r["type"] == "list" else value)
        argv = _config.options_to_argv(c)
        ns = cli.parse_options(argv)
        got = getattr(ns, name)
        assert got == ([value] if r["type"] == "list" else value), (name, argv)


def test_bad_values_name_what_was_expected(capsys):
    for argv, msg in ((["--numerics", "fast2"], "expected one of ieee, fast, gpu"),
                      (["--threads", "5000"], "expected an integer from 0 to 4096"),
                      (["--schedule", "random:x"], "expected one of in-order, reverse, random[:SEED], parallel")):
        try:
            cli.parse_options(argv)
        except SystemExit as e:
            assert e.code == 2
        assert msg in capsys.readouterr().err, argv


def test_codes_are_the_c_api_enums():
    assert _lib.SCHEDULES == {"in-order": 0, "reverse": 1, "random": 2, "parallel": 3}
    assert _lib.NUMERICS == {"ieee": 0, "fast": 1, "gpu": 1}


def _env():
    env = dict(os.environ)
    for k in ("TRITON_INTERPRET", "TRITIUM_MODE", "TRITIUM_OPTIONS"):
        env.pop(k, None)
    env["PYTHONPATH"] = os.path.join(ROOT, "python") + os.pathsep + env.get("PYTHONPATH", "")
    return env


def test_python_m_tritium_check_is_the_sub_command():
    p = subprocess.run([sys.executable, "-m", "tritium", "check", os.path.join(ROOT, "examples", "vector_add.py")],
                       env=_env(), capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert "no such file" not in p.stderr
    assert "in bounds" in p.stdout or "proved" in p.stdout, p.stdout


CHILD = '''
import os
import triton  # noqa: F401  (the subprocess hook enables the mode at this import)
from tritium._config import CONFIG
print("options:", os.environ["TRITIUM_OPTIONS"])
print("child:", CONFIG.mode, CONFIG.threads, CONFIG.verbose, CONFIG.schedule, CONFIG.schedule_seed)
'''

PARENT = '''
import subprocess, sys
subprocess.run([sys.executable, sys.argv[1]], check=True)
'''


def test_options_reach_a_subprocess(tmp_path):
    (tmp_path / "child.py").write_text(CHILD)
    (tmp_path / "parent.py").write_text(PARENT)
    p = subprocess.run([sys.executable, "-m", "tritium", "--threads", "3", "-v", "--schedule", "random:7",
                        str(tmp_path / "parent.py"), str(tmp_path / "child.py")],
                       env=_env(), capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert "child: interp 3 True random 7" in p.stdout, p.stdout + p.stderr
