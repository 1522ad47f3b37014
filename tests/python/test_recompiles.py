"""--recompiles and --recompiles-json (issue 27): every compilation of a
kernel after its first, under Triton's key, logged with what changed; the
table at exit; the same as JSON. Kernels whose compilations are known by
construction: a constexpr bound with 4 values over 6 launches, an integer
moving between the classes 1 / divisible by 16 / neither, a dtype change,
and a float that changes (no compilation, no cause)."""
import json
import os
import subprocess
import sys

import pytest

pytest.importorskip("numpy")
pytest.importorskip("torch")
pytest.importorskip("triton")

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
# the programs watch mode runs too, the scale kernel (line 4) and the environment of a run
from recompile_programs import PROGRAMS, SCALE, clean_env  # noqa: E402

MASK = PROGRAMS["mask"]

CLASSES = SCALE + '''
x = torch.ones(64)
for n in (1, 16, 17, 32, 48):
    scale[(1,)](x, n, 2.0, BLOCK=64)
print("program ok")
'''

DTYPE = SCALE + '''
x = torch.ones(64)
scale[(1,)](x, 32, 2.0, BLOCK=64)
scale[(1,)](x.half(), 32, 2.0, BLOCK=64)
scale[(1,)](x, 32, 2.0, BLOCK=64)
print("program ok")
'''

FLOAT = SCALE + '''
x = torch.ones(64)
for a, n in ((0.5, 32), (1.5, 48), (3.0, 64), (-2.0, 16)):
    scale[(1,)](x, n, a, BLOCK=64)
print("program ok")
'''


def _run(tmp_path, src, *opts, env=None):
    prog = tmp_path / "prog.py"
    prog.write_text(src)
    out = tmp_path / "recompiles.json"
    cmd = [sys.executable, "-m", "tritium", "--recompiles", "--recompiles-json", str(out)] + list(opts) + [str(prog)]
    p = subprocess.run(cmd, env=env or clean_env(), capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert "program ok" in p.stdout
    return p.stderr, json.loads(out.read_text()), str(prog)


def _recompile_lines(err):
    return [l for l in err.splitlines() if l.startswith("tritium: recompile: ")]


def test_constexpr_bound_4_values_over_6_launches(tmp_path):
    err, data, prog = _run(tmp_path, MASK)
    lines = _recompile_lines(err)
    assert len(lines) == 3, err
    assert lines[0].startswith("tritium: recompile: fill_mask (%s:4) compilation 2, " % prog), lines[0]
    assert lines[0].endswith(": max_kv_len 128 -> 160 (constexpr)"), lines[0]
    assert lines[1].endswith(": max_kv_len 160 -> 192 (constexpr)"), lines[1]   # the nearest: the latest
    assert lines[2].endswith(": max_kv_len 192 -> 256 (constexpr)"), lines[2]
    assert "fill_mask (%s:4): 6 launches, 4 compilations" % prog in err
    assert "    3 x max_kv_len (constexpr): 128, 160, 192, 256" in err
    assert "drop tl.constexpr from it" in err
    (k,) = data["kernels"]
    assert (k["name"], k["file"], k["line"], k["launches"], k["compilations"]) == ("fill_mask", prog, 4, 6, 4)
    assert k["compile_seconds"] >= 0
    assert k["causes"] == [{"name": "max_kv_len", "kind": "constexpr", "compilations": 3,
                            "values": [128, 160, 192, 256]}]
    assert [h["launch"] for h in k["history"]] == [0, 1, 3, 4]
    assert k["history"][0] == {"launch": 0, "compilation": 0, "changed": []}
    assert k["history"][1]["changed"] == [{"name": "max_kv_len", "kind": "constexpr", "old": 128, "new": 160}]


def test_integer_moving_between_classes(tmp_path):
    err, data, _ = _run(tmp_path, CLASSES)
    lines = _recompile_lines(err)
    # 1 (equal to 1), 16 (divisible by 16), 17 (neither), 32 and 48 (divisible by 16 again: no compilation)
    assert len(lines) == 2, err
    assert lines[0].endswith(": n equal to 1 -> divisible by 16 (specialization)"), lines[0]
    assert lines[1].endswith(": n divisible by 16 -> neither (specialization)"), lines[1]
    (k,) = data["kernels"]
    assert (k["launches"], k["compilations"]) == (5, 3)
    assert k["causes"] == [{"name": "n", "kind": "specialization", "compilations": 2,
                            "values": ["equal to 1", "divisible by 16", "neither"]}]
    assert 'do_not_specialize=["n"]' in err
    assert "alpha" not in err


def test_dtype_change(tmp_path):
    err, data, _ = _run(tmp_path, DTYPE)
    lines = _recompile_lines(err)
    assert len(lines) == 1, err
    assert lines[0].endswith(": x float32 -> float16 (dtype)"), lines[0]
    (k,) = data["kernels"]
    assert (k["launches"], k["compilations"]) == (3, 2)
    assert k["causes"] == [{"name": "x", "kind": "dtype", "compilations": 1, "values": ["float32", "float16"]}]
    assert "pass x in one dtype" in err


def test_float_value_and_int_in_one_class_cause_nothing(tmp_path):
    err, data, prog = _run(tmp_path, FLOAT)
    assert _recompile_lines(err) == [], err
    assert "scale (%s:4): 4 launches, 1 compilations" % prog in err
    (k,) = data["kernels"]
    assert (k["launches"], k["compilations"], k["causes"]) == (4, 1, [])
    assert k["history"] == [{"launch": 0, "compilation": 0, "changed": []}]


def test_check_mode_and_tritium_options(tmp_path):
    err, data, _ = _run(tmp_path, MASK, "--mode", "check", "--against", "reverse")
    assert len(_recompile_lines(err)) == 3, err
    assert data["kernels"][0]["compilations"] == 4
    prog = tmp_path / "prog.py"
    # tritium.enable(recompiles=True)
    p = subprocess.run([sys.executable, "-c", "import runpy, tritium; tritium.enable('interp', recompiles=True); "
                        "runpy.run_path(%r, run_name='__main__')" % str(prog)],
                       env=clean_env(), capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert len(_recompile_lines(p.stderr)) == 3, p.stderr
    assert "fill_mask (%s:4): 6 launches, 4 compilations" % prog in p.stderr
    # TRITIUM_MODE with TRITIUM_OPTIONS, without python -m tritium (the subprocess hook)
    env = clean_env()
    env["PYTHONPATH"] = os.path.join(ROOT, "python", "tritium", "_subprocess") + os.pathsep + env["PYTHONPATH"]
    env["TRITIUM_MODE"] = "interp"
    env["TRITIUM_OPTIONS"] = "--recompiles"
    p = subprocess.run([sys.executable, str(prog)], env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert len(_recompile_lines(p.stderr)) == 3, p.stderr


GLOBAL = '''
import torch, triton, triton.language as tl

SCALE = tl.constexpr(2)

@triton.jit
def k(x):
    tl.store(x + tl.arange(0, 16), tl.full((16,), SCALE, tl.float32))

x = torch.zeros(16)
k[(1,)](x)
SCALE = tl.constexpr(3)
k[(1,)](x)
assert x[0] == 3
print("program ok")
'''


def test_changed_global(tmp_path):
    err, data, _ = _run(tmp_path, GLOBAL)
    lines = _recompile_lines(err)
    assert len(lines) == 1 and lines[0].endswith(": SCALE 2 -> 3 (global)"), err
    assert data["kernels"][0]["causes"] == [{"name": "SCALE", "kind": "global", "compilations": 1, "values": [2, 3]}]


NOSPEC = '''
import torch, triton, triton.language as tl

@triton.jit(do_not_specialize=["n"])
def fill(x, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x + offs, 1.0, mask=offs < n)

x = torch.ones(64)
for n in (1, 16, 17, 32):
    fill[(1,)](x, n, BLOCK=64)
fill[(1,)](x, 32, BLOCK=64, num_warps=8)
print("program ok")
'''


def test_do_not_specialize_and_an_option(tmp_path):
    err, data, _ = _run(tmp_path, NOSPEC)
    lines = _recompile_lines(err)
    # n is not specialized: its classes change nothing; num_warps does
    assert len(lines) == 1 and lines[0].endswith(": num_warps 4 -> 8 (option)"), err
    (k,) = data["kernels"]
    assert (k["launches"], k["compilations"]) == (5, 2)
    assert k["causes"] == [{"name": "num_warps", "kind": "option", "compilations": 1, "values": [4, 8]}]


ALIGN = '''
import torch, triton, triton.language as tl

@triton.jit
def fill(x, BLOCK: tl.constexpr):
    tl.store(x + tl.arange(0, BLOCK), 1.0)

x = torch.zeros(64)
fill[(1,)](x, BLOCK=16)
fill[(1,)](x[1:], BLOCK=16)
fill[(1,)](x[4:], BLOCK=16)
print("program ok")
'''


def test_pointer_alignment(tmp_path):
    err, data, _ = _run(tmp_path, ALIGN)
    lines = _recompile_lines(err)
    assert len(lines) == 1 and lines[0].endswith(": x aligned 16 -> unaligned (specialization)"), err
    assert 'do_not_specialize_on_alignment=["x"]' in err
    assert data["kernels"][0]["compilations"] == 2


TUNED = PROGRAMS["autotune"]


def test_autotune_config(tmp_path):
    err, data, _ = _run(tmp_path, TUNED)
    lines = _recompile_lines(err)
    # n stays divisible by 16; the config the autotuner picks for n = 48 is another
    assert len(lines) == 1 and lines[0].endswith(": BLOCK 32 -> 64 (autotune)"), err
    (k,) = data["kernels"]
    assert (k["launches"], k["compilations"]) == (3, 2)
    assert k["causes"] == [{"name": "BLOCK", "kind": "autotune", "compilations": 1, "values": [32, 64]}]
