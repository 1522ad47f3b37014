"""The Python package in interp mode (pytest; run by meson test --suite
python): launches of real Triton kernels checked against torch."""
import os
import subprocess
import sys

import pytest

torch = pytest.importorskip("torch")
triton = pytest.importorskip("triton")
import triton.language as tl  # noqa: E402

import tritium  # noqa: E402

tritium.enable("interp")
from tritium import _launch  # noqa: E402


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


@triton.jit
def oob_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs))        # no mask: reads past x


@triton.jit
def scale_kernel(x_ptr, out_ptr, w_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    if w_ptr is not None:
        x = x * tl.load(w_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x, mask=mask)


@triton.jit
def race_kernel(out_ptr):
    tl.store(out_ptr, tl.program_id(0))                    # every program writes element 0


@triton.jit
def cast_kernel(x_ptr, out_ptr, n, DT: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask).to(DT), mask=mask)


@triton.autotune(configs=[triton.Config({"BLOCK": 32}), triton.Config({"BLOCK": 64})], key=["n"])
@triton.jit
def tuned_add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


@triton.heuristics({"BLOCK": lambda a: triton.next_power_of_2(a["n"])})
@triton.jit
def heur_copy(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


def test_vector_add_callable_grid_and_cache():
    info = _launch.kernel_info(add_kernel)
    lib = tritium._lib.lib()
    for n in (1000, 1037, 4096):
        x, y = torch.randn(n), torch.randn(n)
        out = torch.empty(n)
        add_kernel[lambda m: (triton.cdiv(n, m["BLOCK"]),)](x, y, out, n, BLOCK=256)
        assert torch.equal(out, x + y)
    # one specialization (n's value is runtime; 1000/1037/4096 are all i32)
    assert lib.tritium_module_compiled_count(tritium._resolve.resolve(add_kernel).module) == 1


def test_out_of_bounds_raises_kernel_error_with_report():
    x, out = torch.arange(8, dtype=torch.float32), torch.zeros(16)
    with pytest.raises(tritium.KernelError) as e:
        oob_kernel[(1,)](x, out, BLOCK=16)
    assert isinstance(e.value, RuntimeError)
    assert e.value.stats["faults"] == 1 and e.value.stats["fault_lanes"] == 8
    assert "oob_kernel" in str(e.value) and "test_interp_mode.py" in e.value.report


def test_storage_bounds_views_and_shared_storage():
    base = torch.arange(32, dtype=torch.float32)
    # x is the second half of base's storage: reading 16 elements from x is in bounds
    out = torch.zeros(16)
    oob_kernel[(1,)](base[16:], out, BLOCK=16)
    assert torch.equal(out, base[16:])
    # in place on an overlapping view: out aliases x (one buffer)
    buf = torch.arange(64, dtype=torch.float32)
    ref = buf[0:32] + buf[32:64]
    add_kernel[(2,)](buf[0:32], buf[32:64], buf[0:32], 32, BLOCK=16)
    assert torch.equal(buf[0:32], ref)


def test_none_argument_and_keywords():
    x, w = torch.randn(100), torch.randn(100)
    out = torch.empty(100)
    scale_kernel[(4,)](x, out, None, 100, BLOCK=32)
    assert torch.equal(out, x)
    scale_kernel[(4,)](x_ptr=x, out_ptr=out, w_ptr=w, n=100, BLOCK=32)
    assert torch.equal(out, x * w)


def test_dtype_constexpr_and_int1():
    x = torch.linspace(-3, 3, 50)
    out = torch.empty(50, dtype=torch.int32)
    cast_kernel[(1,)](x, out, 50, DT=tl.int32, BLOCK=64)
    assert torch.equal(out, x.to(torch.int32))
    one = torch.zeros(1)
    out1 = torch.empty(1)
    add_kernel[(1,)](one + 2, one + 3, out1, 1, BLOCK=16)   # n == 1 specializes as constexpr 1
    assert out1.item() == 5


def test_race_between_programs_is_reported():
    out = torch.zeros(1, dtype=torch.int32)
    with pytest.raises(tritium.KernelError) as e:
        race_kernel[(4,)](out)
    assert e.value.stats["races"] >= 1


def test_autotune_first_config_and_heuristics():
    n = 200
    x, y = torch.randn(n), torch.randn(n)
    out = torch.empty(n)
    tuned_add[lambda m: (triton.cdiv(n, m["BLOCK"]),)](x, y, out, n)
    assert torch.equal(out, x + y)
    assert tuned_add.best_config.kwargs["BLOCK"] == 32
    out2 = torch.empty(37)
    heur_copy[(1,)](x[:37], out2, 37)
    assert torch.equal(out2, x[:37])


def test_warmup_and_compiled_kernel_launch():
    n = 64
    x, y, out = torch.randn(n), torch.randn(n), torch.empty(n)
    k = add_kernel.warmup(x, y, out, n, BLOCK=64, grid=(1,))
    k._init_handles()
    assert k.n_regs > 0 and k.metadata.shared > 0
    k[(1, 1, 1)](x, y, out, n, 64)
    assert torch.equal(out, x + y)


def test_empty_grid_launches_nothing():
    out = torch.zeros(4)
    add_kernel[(0,)](out, out, out, 4, BLOCK=4)
    assert torch.equal(out, torch.zeros(4))


def test_unsupported_arguments_name_the_argument():
    out = torch.zeros(4)
    with pytest.raises(tritium.UnsupportedLaunch, match="'y_ptr'"):
        add_kernel[(1,)](out, object(), out, 4, BLOCK=4)
    with pytest.raises(tritium.UnsupportedLaunch, match="'x_ptr'.*complex"):
        add_kernel[(1,)](out.to(torch.complex64), out, out, 4, BLOCK=4)


def test_fp8_tensors():
    # fp8 + fp32 computes in fp32 (semantic.py computation_type_impl); the
    # values are torch's own float8 decoding, an independent reference
    x = torch.tensor([0.5, -1.25, 448.0, 3e-3])
    y = torch.tensor([1.0, 2.0, 3.0, 4.0])
    for dt in (torch.float8_e4m3fn, torch.float8_e5m2):
        out = torch.zeros(4)
        x8 = x.to(dt)
        add_kernel[(1,)](x8, y, out, 4, BLOCK=4)
        assert torch.equal(out, x8.float() + y)


def test_exec_source_read_while_exec_runs(monkeypatch):
    """Under TRITON_INTERPRET=1 a kernel made by exec of a string (Triton's
    tests: patch_kernel) has no source Python keeps; tritium reads it from
    the exec's caller while Triton wraps the function. Without the
    interpreter Triton itself refuses such a kernel, and so does tritium."""
    src = ("import triton\nimport triton.language as tl\n"
           "@triton.jit\ndef gen_kernel(x_ptr, K: tl.constexpr):\n"
           "    offs = tl.arange(0, 16)\n    tl.store(x_ptr + offs, tl.load(x_ptr + offs) * K)\n")
    monkeypatch.setenv("TRITON_INTERPRET", "1")
    ns = {}
    exec(src, ns)
    x = torch.arange(16, dtype=torch.float32)
    ns["gen_kernel"][(1,)](x, K=3)
    assert torch.equal(x, torch.arange(16, dtype=torch.float32) * 3)
    monkeypatch.delenv("TRITON_INTERPRET")
    with pytest.raises(ValueError, match="defined in a Python file"):
        exec(src, {})


def test_compile_error_is_a_located_diagnostic(monkeypatch):
    src = ("import triton\nimport triton.language as tl\n"
           "@triton.jit\ndef bad_kernel(x_ptr):\n    tl.store(x_ptr, undefined_name)\n")
    monkeypatch.setenv("TRITON_INTERPRET", "1")
    ns = {}
    exec(src, ns)
    with pytest.raises(tritium.CompileError, match="<string>:5:21: error: name 'undefined_name' is not defined"):
        ns["bad_kernel"][(1,)](torch.zeros(1))


def test_missing_library_and_clean_shutdown(tmp_path):
    code = "import tritium\ntry:\n    tritium.enable('interp')\nexcept ImportError as e:\n    print('ERR', e)\n"
    env = dict(os.environ, TRITIUM_LIB=str(tmp_path / "nope.so"))
    p = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and "ERR" in p.stdout and "nope.so" in p.stdout
    # a full run and interpreter exit with modules and launches alive: no crash
    code = ("import torch, triton, tritium\ntritium.enable('interp')\nimport test_interp_mode as t\n"
            "x = torch.ones(8)\nt.add_kernel[(1,)](x, x, x, 8, BLOCK=8)\nprint(x.sum().item())\n")
    env = dict(os.environ, PYTHONPATH=os.path.dirname(__file__) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    p = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and p.stdout.strip().endswith("16.0"), p.stderr


@triton.jit
def same_name(x_ptr):
    tl.store(x_ptr, 1.0)


first_same_name = same_name


@triton.jit
def same_name(x_ptr):  # noqa: F811  (a second kernel of the same name, as Triton's tests have)
    tl.store(x_ptr, 2.0)


def test_same_name_kernels_and_nested_kernel_with_closure():
    x = torch.zeros(1)
    first_same_name[(1,)](x)
    assert x.item() == 1.0
    same_name[(1,)](x)
    assert x.item() == 2.0
    SCALE = 5

    @triton.jit
    def nested(x_ptr, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        tl.store(x_ptr + offs, tl.load(x_ptr + offs) * SCALE)

    y = torch.arange(8, dtype=torch.float32)
    nested[(1,)](y, BLOCK=8)
    assert torch.equal(y, torch.arange(8, dtype=torch.float32) * 5)


def test_rewritten_source_with_unsafe_update_src():
    # what Triton's test_core.patch_kernel does on a GPU: same function, new source
    k = triton.JITFunction(first_same_name.fn)
    k._unsafe_update_src(k.src.replace("1.0", "7.0"))
    x = torch.zeros(1)
    k[(1,)](x)
    assert x.item() == 7.0


def test_compile_error_is_tritons_compilation_error(monkeypatch):
    monkeypatch.setenv("TRITON_INTERPRET", "1")      # exec'd kernels: only Triton's interpreter takes them
    src = ("import triton\nimport triton.language as tl\n"
           "@triton.jit\ndef bad2_kernel(x_ptr):\n    tl.store(x_ptr, undefined_name2)\n")
    ns = {}
    exec(src, ns)
    with pytest.raises(triton.TritonError, match="undefined_name2"):
        ns["bad2_kernel"][(1,)](torch.zeros(1))


def test_compile_error_chains_its_messages_as_triton_does(monkeypatch):
    monkeypatch.setenv("TRITON_INTERPRET", "1")
    # Triton chains the ValueError/TypeError of its front end as __cause__, and
    # its interpreter raises InterpreterError: tests match on both
    from triton.runtime.errors import InterpreterError
    src = ("import triton\nimport triton.language as tl\n"
           "@triton.jit\ndef bad3_kernel(x_ptr):\n    tl.store(x_ptr, tl.program_id(7))\n")
    ns = {}
    exec(src, ns)
    with pytest.raises(InterpreterError) as e:
        ns["bad3_kernel"][(1,)](torch.zeros(1))
    assert isinstance(e.value, triton.CompilationError) and isinstance(e.value, tritium.CompileError)
    cause = str(e.value.__cause__)
    assert cause == "program_id axis must be 0, 1, or 2 but got 7", cause
    assert e.value.error_message == cause
    assert "tl.program_id(7)" in str(e.value) and "^" in str(e.value)    # the located diagnostic stays
