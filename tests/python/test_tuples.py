"""Tuples, comprehensions and lazily reported errors in interp mode (pytest;
meson test --suite python), each launch checked against torch."""
import pytest

torch = pytest.importorskip("torch")
triton = pytest.importorskip("triton")
import triton.language as tl  # noqa: E402

import tritium  # noqa: E402

tritium.enable("interp")


@triton.jit
def _broken_helper(x):
    # not kernel code (Triton rejects lambdas too): only launches that reach
    # this helper may fail
    return (lambda v: v)(x)


@triton.jit
def _scaled(values, s):
    return tl.tuple([v * s for v in values])


@triton.jit
def comp_kernel(Ptrs, Out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    xs = _scaled([tl.load(p + offs, mask=mask) for p in Ptrs], 3.0)
    acc = tl.zeros((BLOCK,), tl.float32)
    for i in tl.static_range(len(xs)):
        acc += xs[i] * (i + 1)
    tl.store(Out + offs, acc, mask=mask)


@triton.jit
def concat_kernel(Out, T):
    t = T + (10, 20) + (5,) * 2
    tl.static_assert(len(t) == len(T) + 4)
    for i in tl.static_range(len(t)):
        tl.store(Out + i, t[i])


@triton.jit
def constexpr_elem_kernel(Out, T):
    tl.static_assert(T[1] == 4)                   # a tl.constexpr element stays a constexpr
    tl.store(Out, T[0] + T[1])


@triton.jit
def calls_broken(Out):
    tl.store(Out, _broken_helper(1))


def test_comprehension_over_tuple_of_pointers():
    xs = [torch.randn(50) for _ in range(3)]
    out = torch.empty(50)
    comp_kernel[(1,)](tuple(xs), out, 50, BLOCK=64)
    ref = sum(x * 3.0 * (i + 1) for i, x in enumerate(xs))
    torch.testing.assert_close(out, ref, rtol=1e-6, atol=1e-6)


def test_tuple_concatenation_and_repetition():
    out = torch.zeros(6, dtype=torch.int32)
    concat_kernel[(1,)](out, (7, 8))
    assert out.tolist() == [7, 8, 10, 20, 5, 5]


def test_constexpr_element_of_tuple_argument():
    out = torch.zeros(1, dtype=torch.int32)
    constexpr_elem_kernel[(1,)](out, (3, tl.constexpr(4)))
    assert out.item() == 7


def test_unreached_broken_helper_is_reported_only_when_used():
    # the kernels above ran although _broken_helper is in this file; the one
    # that calls it fails with the helper's own location
    out = torch.zeros(1, dtype=torch.int32)
    with pytest.raises(Exception) as e:
        calls_broken[(1,)](out)
    assert "lambda" in str(e.value) and "test_tuples.py" in str(e.value)


@triton.jit
def positive_kernel(X, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    tl.device_assert(x > 0, f"x must be positive (N={N})")


@triton.jit(debug=True)
def positive_kernel_dbg(X, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    tl.device_assert(x > 0, f"x must be positive (N={N})")


def test_debug_launch_option_and_decorator():
    # runtime/jit.py: debug = the launch's debug= if given, else the decorator's
    x = torch.tensor([1.0, -2.0, 3.0, 4.0])
    positive_kernel[(1,)](x, N=4)                            # asserts are not compiled
    with pytest.raises(Exception) as e:
        positive_kernel[(1,)](x, N=4, debug=True)
    assert "x must be positive (N=4)" in str(e.value)
    with pytest.raises(Exception) as e:
        positive_kernel_dbg[(1,)](x, N=4)
    assert "x must be positive (N=4)" in str(e.value)
    positive_kernel_dbg[(1,)](x, N=4, debug=False)
    positive_kernel[(1,)](torch.ones(4), N=4, debug=True)    # holds: no error


def test_nested_helpers_closed_over():
    # helpers defined in the test function: the kernel reaches them through
    # its closure, and one helper through the other's
    @triton.jit
    def sign(v):
        return tl.where(v > 0, 1, tl.where(v < 0, -1, 0))

    @triton.jit
    def compare(a, b):
        return sign(a - b)

    @triton.jit
    def kernel(X, Y, Z, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        tl.store(Z + offs, compare(tl.load(X + offs), tl.load(Y + offs)))

    x = torch.randint(-5, 5, (64,), dtype=torch.int32)
    y = torch.randint(-5, 5, (64,), dtype=torch.int32)
    z = torch.empty(64, dtype=torch.int32)
    kernel[(1,)](x, y, z, BLOCK=64)
    assert torch.equal(z, torch.sign(x - y).to(torch.int32))


def test_subprocess_runs_under_tritium(tmp_path):
    # python -m tritium exports its mode to Python programs it starts
    import subprocess
    import sys
    child = tmp_path / "child.py"
    child.write_text("import triton, tritium._config as c\nprint('child mode', c.CONFIG.mode)\n")
    parent = tmp_path / "parent.py"
    parent.write_text("import subprocess, sys\n"
                      "r = subprocess.run([sys.executable, %r], capture_output=True, text=True)\n"
                      "print(r.stdout, r.stderr)\n" % str(child))
    p = subprocess.run([sys.executable, "-m", "tritium", str(parent)], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert "child mode interp" in p.stdout, p.stdout + p.stderr
