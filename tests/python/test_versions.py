"""The installed Triton as tritium sees it (python/tritium/_versions.py):
the features each of 3.6-3.9 has, a clear message at start for a version
tritium does not support (an error below 3.6 or without a feature tritium
patches, a warning above the newest tested), launch binding as the
installed Triton's own binder does it (keyword-only parameters and *args
differ by version), and the launch keywords each version accepts."""
import inspect
import os
import subprocess
import sys

import pytest

torch = pytest.importorskip("torch")
triton = pytest.importorskip("triton")
import triton.language as tl  # noqa: E402

from tritium import _launch, _versions  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
V = _versions.parse_version(triton.__version__)[:2]


@pytest.fixture
def fresh_facts():
    """Facts recomputed for the test, the real ones put back after it."""
    saved, warned = list(_versions._FACTS), list(_versions._WARNED)
    _versions._FACTS.clear()
    _versions._WARNED.clear()
    yield
    _versions._FACTS[:] = saved
    _versions._WARNED[:] = warned


def test_parse_version():
    p = _versions.parse_version
    assert p("3.9.0") == (3, 9, 0)
    assert p("3.10.0+git1a2b3c") == (3, 10, 0)
    assert p("3.7.0rc1") == (3, 7, 0)
    assert p("3.8") == (3, 8, 0)
    assert p("garbage") == (0, 0, 0)


def test_the_installed_version_has_what_tritium_patches():
    f = _versions.check()
    assert f.missing == []
    assert f.version[:2] == V
    assert f.interpreter is not None and f.compiled_launch and f.knobs is not None
    assert {"do_bench", "do_bench_cudagraph"} <= set(f.benchmarks)
    assert {"num_warps", "num_stages", "debug"} <= f.option_keys


def test_facts_follow_the_version():
    """What changed from 3.6 to 3.9, as read from each release's sources."""
    f = _versions.facts()
    assert f.binds_var_positional == (V >= (3, 8))          # create_function_from_signature keeps *args
    assert f.binds_keyword_only == (V >= (3, 9))            # ... and the keyword-only separator
    assert f.autotune_single_config_not_benched == (V >= (3, 8))
    assert f.autotune_checks_key_names == (V >= (3, 9))
    assert ("do_bench_proton" in f.benchmarks) == (V >= (3, 8))
    assert ("round_f32_to_tf32" in f.descriptor_fields) == (V >= (3, 7))
    assert ("llvm_fn_attrs" in f.option_keys) == (V >= (3, 8))
    assert ("min_shared_mem" in f.option_keys) == (V >= (3, 9))


def test_an_older_triton_is_an_error(monkeypatch, fresh_facts):
    monkeypatch.setattr(triton, "__version__", "3.5.1")
    with pytest.raises(_versions.UnsupportedTriton, match=r"Triton 3\.5\.1 is older than the oldest this tritium "
                                                          r"supports \(3\.6\)"):
        _versions.check()


def test_a_newer_triton_is_a_warning_once(monkeypatch, capsys, fresh_facts):
    monkeypatch.setattr(triton, "__version__", "3.10.0")
    f = _versions.check()
    _versions.check()
    err = capsys.readouterr().err
    assert err.count("tritium: Triton 3.10 is newer than the newest this tritium was tested with (3.9)") == 1
    assert f.missing == []


def test_a_triton_without_a_patched_feature_is_an_error(monkeypatch, fresh_facts):
    from triton.runtime import autotuner, jit
    monkeypatch.setattr(jit.JITFunction, "run", lambda self, *args, **kwargs: None)
    monkeypatch.setattr(autotuner.Autotuner, "prune_configs", lambda self, kwargs, nargs: None)
    with pytest.raises(_versions.UnsupportedTriton) as e:
        _versions.check()
    msg = str(e.value)
    assert "JITFunction.run(*args, grid, warmup, **kwargs) (runtime/jit.py)" in msg
    assert "Autotuner.prune_configs(kwargs) (runtime/autotuner.py)" in msg
    assert "tritium supports Triton 3.6 to 3.9" in msg


PROG = """
import triton
triton.__version__ = %r
import sys
from tritium.__main__ import main
sys.exit(main(['%s']))
"""

VECADD = """
import torch, triton, triton.language as tl

@triton.jit
def add(x, y, out, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out + o, tl.load(x + o, mask=o < n) + tl.load(y + o, mask=o < n), mask=o < n)

x = torch.arange(100.); out = torch.empty(100)
add[(4,)](x, x, out, 100, BLOCK=32)
assert torch.equal(out, 2 * x)
print("program ok")
"""


def _run(tmp_path, version):
    (tmp_path / "prog.py").write_text(VECADD)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "python"), os.environ.get("PYTHONPATH", "")]))
    env.pop("TRITIUM_MODE", None)
    return subprocess.run([sys.executable, "-c", PROG % (version, tmp_path / "prog.py")], env=env,
                          capture_output=True, text=True, timeout=300)


def test_python_m_tritium_says_an_old_triton_is_unsupported(tmp_path):
    p = _run(tmp_path, "3.5.0")
    assert p.returncode == 2, p.stderr
    assert "Traceback" not in p.stderr
    assert "tritium: Triton 3.5.0 is older than the oldest this tritium supports (3.6)" in p.stderr
    assert "program ok" not in p.stdout


def test_python_m_tritium_runs_under_a_newer_triton_with_a_warning(tmp_path):
    p = _run(tmp_path, "3.11.2")
    assert p.returncode == 0, p.stderr
    assert "tritium: Triton 3.11 is newer than the newest this tritium was tested with (3.9)" in p.stderr
    assert "program ok" in p.stdout


# ---- binding: as the installed Triton's JITFunction.run binds a launch --------

@triton.jit
def kw_only(x_ptr, n, *, BLOCK: tl.constexpr, SCALE: tl.constexpr = 2):
    pass


@triton.jit
def var_pos(x_ptr, *rest):
    pass


def _triton_binds(k, args, kwargs):
    """Triton's own binder for k (runtime/jit.py create_function_from_signature)."""
    from triton.backends.compiler import BaseBackend
    from triton.runtime import jit
    binder = jit.create_function_from_signature(k.signature, k.params, BaseBackend)
    try:
        params, _, options = binder(*args, **kwargs)
    except TypeError:
        return TypeError
    return {n: v for n, v in params.items()}, dict(options)


def _tritium_binds(k, args, kwargs):
    try:
        return _launch.bind(k, args, kwargs)
    except TypeError:
        return TypeError


X = torch.zeros(4)


@pytest.mark.parametrize("k,args,kwargs", [
    (kw_only, (X, 4), {"BLOCK": 16}),
    (kw_only, (X, 4), {"BLOCK": 16, "SCALE": 3, "num_warps": 2}),
    (kw_only, (X, 4, 16), {}),                # by position: 3.6-3.8 bind it, 3.9 refuses
    (kw_only, (X, 4, 16, 3), {}),
    (var_pos, (X, 1, 2), {}),                 # *rest: a parameter named rest before 3.8, a tuple from 3.8
    (var_pos, (X, (1, 2)), {}),
])
def test_binding_follows_the_installed_triton(k, args, kwargs):
    mine, theirs = _tritium_binds(k, args, kwargs), _triton_binds(k, args, kwargs)
    if theirs is TypeError:
        assert mine is TypeError
        return
    assert mine is not TypeError, "Triton %s binds %r" % (triton.__version__, theirs)
    assert list(mine[0]) == list(theirs[0])
    assert all(mine[0][n] is theirs[0][n] or mine[0][n] == theirs[0][n] for n in theirs[0])
    assert mine[1] == theirs[1]


def test_keyword_only_by_position_follows_the_version():
    r = _tritium_binds(kw_only, (X, 4, 16), {})
    if V >= (3, 9):
        assert r is TypeError
    else:
        assert r[0]["BLOCK"] == 16 and r[0]["SCALE"] == 2


def test_binding_signature_keeps_a_signature_it_cannot_loosen():
    def f(a, *, b=1, c):
        pass
    sig = inspect.signature(f)
    f_ = _versions.facts().binding_signature(sig)
    if V >= (3, 9):
        assert f_ is sig
    else:
        assert list(f_.parameters) == ["a", "b", "c"]


# ---- launch keywords -----------------------------------------------------------

@triton.jit
def _copy(x_ptr, y_ptr, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    tl.store(y_ptr + o, tl.load(x_ptr + o))


def test_this_tritons_compile_options_are_launch_keywords():
    import tritium
    tritium.enable("interp")
    f = _versions.facts()
    assert f.option_keys <= _launch.OPTION_KEYS
    x, y = torch.arange(16.), torch.zeros(16)
    opt = "min_shared_mem" if V >= (3, 9) else "num_stages"
    _copy[(1,)](x, y, BLOCK=16, **{opt: 1})
    assert torch.equal(x, y)
    with pytest.raises(KeyError, match="Keyword argument no_such_option was specified but unrecognised"):
        _copy[(1,)](x, y, BLOCK=16, no_such_option=1)


# TensorDescriptor(round_f32_to_tf32=True) (3.7+) is rounded, not refused: tests/python/test_desc_ptrs.py


def test_language_version_follows_the_installed_triton():
    """The release whose language the front end follows (settings.def
    TRITON_VERSION, TRITIUM_TRITON_VERSION): the installed X.Y, clamped to
    3.6..3.9; the package sets it before loading the library."""
    assert _versions.language_version("3.6.0") == "3.6"
    assert _versions.language_version("3.8.1") == "3.8"
    assert _versions.language_version("3.10.0+git12") == "3.9"
    assert _versions.language_version("3.5.1") == "3.6"
    code = "import os, tritium._lib as L; L.lib(); print(os.environ['TRITIUM_TRITON_VERSION'])"
    env = dict(os.environ)
    env.pop("TRITIUM_TRITON_VERSION", None)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "%d.%d" % min(max(V, (3, 6)), (3, 9))
    # a version the user set wins (to follow another release's language on purpose)
    env["TRITIUM_TRITON_VERSION"] = "3.7"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "3.7"
