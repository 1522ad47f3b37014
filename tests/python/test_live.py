"""Live name resolution (python/tritium/_resolve.py): kernels compile from
what Python has. The six patterns of real code in tests/python/live/ run
under `python -m tritium` (results against torch), their recorded launches
replay under the `tritium` command without Python, a changed global
compiles again, refusals are Triton's; and tritium patches nothing outside
Triton's launch path (exec, torch.compile, torch._inductor) and gives it
back on tritium.disable()."""
import os
import shlex
import subprocess
import sys

import pytest

np = pytest.importorskip("numpy")
torch = pytest.importorskip("torch")
triton = pytest.importorskip("triton")
import triton.language as tl  # noqa: E402

import tritium  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
LIVE = os.path.join(HERE, "live")
CASES = ["annotated_constexpr", "condpkg.ops", "libdevice_find", "cond_helper", "late_path", "inductor_style"]


def _tritium_command():
    """The `tritium` command next to the library meson built, else the
    library's own main through Python."""
    lib = os.environ.get("TRITIUM_LIB")
    exe = os.path.join(os.path.dirname(lib), "tritium") if lib else None
    return [exe] if exe and os.access(exe, os.X_OK) else [sys.executable, "-m", "tritium"]


def _py(args, cwd, **kw):
    return subprocess.run([sys.executable, "-m", "tritium"] + args, cwd=cwd, capture_output=True, text=True,
                          timeout=300, **kw)


@pytest.mark.parametrize("case", CASES)
def test_pattern_runs_and_its_record_replays_without_python(case, tmp_path):
    rec, ref = tmp_path / "rec", tmp_path / "ref.npy"
    p = _py(["--mode", "record", "--record-dir", str(rec), os.path.join(LIVE, "run_case.py"), case, str(ref)],
            cwd=str(tmp_path))
    assert p.returncode == 0 and "case %s ok" % case in p.stdout, p.stdout + p.stderr
    (d,) = sorted(rec.iterdir())
    assert (d / "kernel.json").is_file()
    words = shlex.split((d / "launch.sh").read_text().splitlines()[-1])
    assert words[:2] == ["tritium", "run"] and words[2].startswith(str(d / "kernel.json"))
    out_name = next(w.split("=")[0] for w in words if w.startswith(("y_ptr=", "out_ptr0=")))
    out = tmp_path / "out.npy"
    env = dict(os.environ, PYTHONPATH="", PATH="/usr/bin:/bin")     # no Python module can be found
    r = subprocess.run(_tritium_command() + words[1:-1] + ["--save", "%s=%s" % (out_name, out)], env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    np.testing.assert_allclose(np.load(out), np.load(ref), rtol=1e-5, atol=1e-5)


# ---- in-process: the cache, Triton's rules -------------------------------------------

FACTOR = tl.constexpr(2)
PLAIN = 3


@triton.jit
def _scale(x_ptr, n, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    tl.store(x_ptr + o, tl.load(x_ptr + o, mask=o < n) * FACTOR, mask=o < n)


@triton.jit
def _plain(x_ptr, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    tl.store(x_ptr + o, tl.load(x_ptr + o) * PLAIN)


@triton.jit
def _plain_default(x_ptr, BLOCK: tl.constexpr, K: tl.constexpr = PLAIN):
    o = tl.arange(0, BLOCK)
    tl.store(x_ptr + o, tl.load(x_ptr + o) * K)


@pytest.fixture(autouse=True)
def _interp():
    if tritium.CONFIG.mode is None:
        tritium.enable("interp")


def test_a_changed_global_compiles_again():
    global FACTOR
    x = torch.ones(8)
    _scale[(1,)](x, 8, BLOCK=8)
    assert torch.equal(x, torch.full((8,), 2.0))
    FACTOR = tl.constexpr(5)
    try:
        _scale[(1,)](x, 8, BLOCK=8)
    finally:
        FACTOR = tl.constexpr(2)
    assert torch.equal(x, torch.full((8,), 10.0))
    _scale[(1,)](x, 8, BLOCK=8)                     # back to the first module
    assert torch.equal(x, torch.full((8,), 20.0))


def test_a_plain_global_is_refused_in_tritons_words_but_read_in_a_default():
    with pytest.raises(tritium.CompileError, match="Cannot access global variable PLAIN from within @jit'ed "
                                                   "function.*'PLAIN' is a Python int"):
        _plain[(1,)](torch.ones(4), BLOCK=4)
    x = torch.ones(4)
    _plain_default[(1,)](x, BLOCK=4)               # global_lookup: visiting_arg_default_value
    assert torch.equal(x, torch.full((4,), 3.0))


def test_an_object_a_kernel_cannot_use_is_a_located_error():
    helper = torch.nn.Linear(2, 2)

    @triton.jit
    def k(x_ptr):
        tl.store(x_ptr, helper)

    with pytest.raises(tritium.CompileError, match=r"test_live.py:\d+:\d+: error: 'helper' is a "
                                                   r"torch.nn.modules.linear.Linear, which a kernel cannot use"):
        k[(1,)](torch.ones(1))


def test_closures_and_helpers_of_helpers_resolve_in_their_own_globals():
    from live import late_path                      # noqa: F401  (puts late_dir on sys.path)
    import late_helpers

    scale = 4.0

    @triton.jit
    def k(x_ptr, BLOCK: tl.constexpr):
        o = tl.arange(0, BLOCK)
        tl.store(x_ptr + o, late_helpers.scaled(tl.load(x_ptr + o)) * scale)

    x = torch.ones(8)
    k[(1,)](x, BLOCK=8)
    assert torch.equal(x, torch.full((8,), 10.0))


# ---- nothing outside Triton's launch path is patched ----------------------------------

UNRELATED = '''
from __future__ import annotations
import sys
import torch, triton, triton.language as tl

# exec of a string from a module with future annotations: undefined types in annotations are fine
ns = {}
exec("def f(x: UndefinedType) -> AlsoUndefined:\\n    return x + 1\\n", ns)
assert ns["f"](1) == 2
# exec without dictionaries reads the caller's locals
def g():
    a = 41
    exec("assert a + 1 == 42")
    return eval("a + 1")
assert g() == 42
import torch._inductor.ir  # noqa: F401
def h(x):
    return torch.sin(x) + 1
x = torch.randn(16)
assert torch.allclose(torch.compile(h, backend="eager")(x), h(x))

@triton.jit
def add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + o, tl.load(x_ptr + o, mask=o < n) + tl.load(y_ptr + o, mask=o < n), mask=o < n)

y = torch.randn(16)
out = torch.empty(16)
add[(2,)](x, y, out, 16, BLOCK=8)
assert torch.equal(out, x + y)
print("unrelated ok")
'''


@pytest.mark.parametrize("mode", [["--mode", "interp"], ["--mode", "check", "--against", "reverse"],
                                  ["--mode", "debug"], ["--mode", "record", "--record-dir", "rec"]])
def test_unrelated_code_runs_unchanged(mode, tmp_path):
    prog = tmp_path / "prog.py"
    prog.write_text(UNRELATED)
    p = _py(mode + [str(prog)], cwd=str(tmp_path))
    assert p.returncode == 0 and "unrelated ok" in p.stdout, p.stdout + p.stderr


DISABLE = '''
import builtins
import torch, triton, triton.language as tl
from triton.runtime import jit
import tritium

@triton.jit
def add(x_ptr, out_ptr, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    tl.store(out_ptr + o, tl.load(x_ptr + o) + 1)

exec_before, run_before = builtins.exec, jit.JITFunction.run
tritium.enable("interp")
assert builtins.exec is exec_before and jit.JITFunction.run is not run_before
x, out = torch.arange(8.0), torch.zeros(8)
add[(1,)](x, out, BLOCK=8)
assert torch.equal(out, x + 1)
tritium.disable()
assert jit.JITFunction.run is run_before
from triton.runtime import interpreter
assert interpreter.InterpretedFunction.run is interpreter.InterpretedFunction.__dict__["run"]
# Triton's own path: its interpreter (TRITON_INTERPRET=1), no tritium in the way
import tritium._launch as L
before = L.COUNTS["launches"]
ik = interpreter.InterpretedFunction(add.fn)
out = torch.zeros(8)
ik[(1,)](x, out, BLOCK=8)
assert torch.equal(out, x + 1) and L.COUNTS["launches"] == before
print("disable ok")
'''


def test_disable_gives_triton_its_launch_path_back(tmp_path):
    prog = tmp_path / "prog.py"
    prog.write_text(DISABLE)
    env = dict(os.environ, TRITON_INTERPRET="0")
    p = subprocess.run([sys.executable, str(prog)], cwd=str(tmp_path), capture_output=True, text=True, timeout=300,
                       env=env)
    assert p.returncode == 0 and "disable ok" in p.stdout, p.stdout + p.stderr


def test_without_python_a_name_under_a_runtime_if_is_a_located_error(tmp_path):
    """`tritium run FILE.py` cannot evaluate a module-level `if`: a name bound
    only there, in the kernel's file or in a module it imports, is an error
    at the use that names the `if` and points at python -m tritium."""
    (tmp_path / "helpers.py").write_text("import triton.language as tl\nimport os\n"
                                         "if os.environ.get('FAST'):\n    SCALE = tl.constexpr(2)\n")
    (tmp_path / "k.py").write_text("import triton\nimport triton.language as tl\nimport helpers\n"
                                   "@triton.jit\ndef k(X):\n    tl.store(X, helpers.SCALE * 1.0)\n")
    r = subprocess.run(_tritium_command() + ["run", str(tmp_path / "k.py") + ":k", "--grid", "1", "--arg",
                                             "X=zeros:f32[4]"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "k.py:6:" in r.stderr and "defined under a module-level `if` (" in r.stderr and \
        "helpers.py:3" in r.stderr and "python -m tritium" in r.stderr, r.stderr


def test_many_helpers_of_a_python_module():
    """Inductor's reductions reach many jit helpers of triton_helpers (a
    module of units added while the live module loads)."""
    from torch._inductor.runtime import triton_helpers

    @triton.jit
    def k(in_ptr0, out_ptr0, idx_ptr):
        r = tl.arange(0, 32)[None, :]
        x = tl.load(in_ptr0 + r)
        m = triton_helpers.max2(x, 1)
        v, i = triton_helpers.max_with_index(x, r, 1)
        tl.store(out_ptr0 + tl.arange(0, 1), m)
        tl.store(idx_ptr + tl.arange(0, 1), i)

    x = torch.randn(32)
    out, idx = torch.zeros(1), torch.zeros(1, dtype=torch.int32)
    k[(1,)](x, out, idx)
    assert out.item() == x.max().item() and idx.item() == x.argmax().item()


def test_constexpr_value_and_block_pointer_type():
    """`.value` of a constexpr (Triton's compiler hands constexpr parameters
    over as tl.constexpr) and `bptr.type.element_ty` (FlagGems' generated
    pointwise kernels cast to it)."""
    @triton.jit
    def k(x_ptr, y_ptr, B: tl.constexpr, DT: tl.constexpr):
        o = tl.arange(0, B.value)
        yb = tl.make_block_ptr(y_ptr, shape=(B,), strides=(1,), offsets=(0,), block_shape=(B,), order=(0,))
        y = (tl.load(x_ptr + o) * 2).to(DT.value)
        tl.store(yb, y.to(yb.type.element_ty), boundary_check=(0,))

    x, y = torch.arange(16, dtype=torch.float32) + 0.25, torch.zeros(16, dtype=torch.float16)
    if tuple(int(v) for v in triton.__version__.split(".")[:2]) >= (3, 9):
        # 3.9's core.py make_block_ptr: NotImplementedError (tritium follows the installed release)
        with pytest.raises(Exception, match="Block pointers have been removed in favor of the tensor descriptor API"):
            k[(1,)](x, y, B=16, DT=tl.float32)
        return
    k[(1,)](x, y, B=16, DT=tl.float32)
    assert torch.equal(y, (x * 2).half())


def test_autotune_perf_model_is_not_asked():
    """The interpreter takes a config without timing: a perf model (which may
    ask the GPU, as xformers' does) is not run."""
    def perf_model(**kwargs):
        raise RuntimeError("asked the GPU")

    @triton.autotune(configs=[triton.Config({"B": 8}), triton.Config({"B": 16})], key=["n"],
                     prune_configs_by={"perf_model": perf_model, "top_k": 1})
    @triton.jit
    def k(x_ptr, n, B: tl.constexpr):
        o = tl.arange(0, B)
        tl.store(x_ptr + o, tl.load(x_ptr + o, mask=o < n) + 1, mask=o < n)

    x = torch.zeros(8)
    k[(1,)](x, 8)
    assert torch.equal(x, torch.ones(8))


@tl.constexpr
def _accum_type(dtype):
    if dtype.is_fp16() or dtype.is_bf16():
        return tl.float32
    return dtype


def test_a_python_function_wrapped_in_constexpr_runs_at_compile_time():
    """`@tl.constexpr def f(dtype)` (FlagGems): called in a kernel with
    constexpr arguments, it is evaluated at compile time."""
    @triton.jit
    def k(x_ptr, y_ptr, B: tl.constexpr):
        acc: tl.constexpr = _accum_type(x_ptr.type.element_ty)
        o = tl.arange(0, B)
        tl.store(y_ptr + o, tl.cumsum(tl.load(x_ptr + o).to(acc), 0))

    x = torch.full((64,), 0.1, dtype=torch.float16)
    y = torch.zeros(64)
    k[(1,)](x, y, B=64)
    torch.testing.assert_close(y, torch.cumsum(x.float(), 0))     # an fp16 sum would drift from it


def test_a_constexpr_function_folds_at_compile_time():
    """@triton.constexpr_function (Triton 3.6+): called on constexprs in a
    kernel, it gives a constexpr."""
    @triton.constexpr_function
    def twice(v):
        return v * 2

    @triton.jit
    def k(o_ptr, B: tl.constexpr):
        o = tl.arange(0, twice(B))
        tl.store(o_ptr + o, tl.zeros([twice(B)], tl.float32) + 1)

    o = torch.zeros(10)
    k[(1,)](o, B=4)
    assert o.tolist() == [1.0] * 8 + [0.0] * 2


def test_tritium_mode_survives_a_probe_for_triton(tmp_path):
    """TRITIUM_MODE turns the mode on when triton is imported; a probe before
    that (torch 2.15's importlib.util.find_spec("triton")) must not use up the
    hook (the launch then went to Triton's own path: 'no active driver')."""
    prog = tmp_path / "prog.py"
    prog.write_text("import importlib.util\nassert importlib.util.find_spec('triton') is not None\n"
                    "import torch, triton, triton.language as tl\n"
                    "@triton.jit\ndef k(o_ptr):\n    tl.store(o_ptr + tl.arange(0, 4), tl.zeros([4], tl.float32) + 1)\n"
                    "o = torch.zeros(4)\nk[(1,)](o)\nassert o.tolist() == [1.0] * 4\nprint('probe ok')\n")
    env = dict(os.environ, TRITIUM_MODE="interp")
    env["PYTHONPATH"] = os.path.join(os.path.dirname(tritium.__file__), "_subprocess") + os.pathsep + \
        os.environ.get("PYTHONPATH", "")
    p = subprocess.run([sys.executable, str(prog)], env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0 and "probe ok" in p.stdout, p.stdout + p.stderr
