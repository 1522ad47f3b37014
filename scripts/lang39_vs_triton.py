#!/usr/bin/env python3
"""Differential check of tritium against Triton's own interpreter on the
language of Triton 3.7-3.9 (not a CI test; like scripts/triton_versions.sh).

Each row of PROGRAMS is one feature: a small program (a @triton.jit kernel,
seeded CPU inputs, a launch) that hands its outputs to out(). The script
writes every program to a temporary directory and runs it twice with the same
Python, in subprocesses:

  TRITON_INTERPRET=1 python prog.py        Triton's interpreter (no tritium)
  python -m tritium prog.py                tritium's interpreter (TRITON_INTERPRET unset)

and compares what the two runs saved, output by output: dtype and shape must
match; then "exact" compares bits (integers, bools, float ops that round
once; any NaN equals any NaN), "ulp:N" allows N units in the last place of
the output's float type (NaN-aware; the largest difference is reported in
ulps), "tol:RTOL,ATOL" allows |a - b| <= ATOL + RTOL*|b|. A program may
expect an error (expect_error(tag, fn)): then what is compared is whether
each side raised, and the exception is shown. Outputs whose name starts with
"_" are shown but not compared.

One line per feature: "agree", "DIFFER" (the output, the largest difference
and where), "ERROR" (one side failed: its last message line), and rows whose
difference is a known deviation of Triton's interpreter from Triton's
compiler are marked "QUIRK" with the reason (they do not fail the run).
Exit 1 on any disagreement or error, else 0.

Run it with the Python that has Triton 3.9 (and torch), this checkout's
package and a built library:

  . /work/venv39/bin/activate
  TRITIUM_LIB=$PWD/build/api/libtritium.so PYTHONPATH=$PWD/python \\
      python scripts/lang39_vs_triton.py [-k SUBSTRING] [-j JOBS] [--keep DIR] [-v]

(TRITIUM_LIB and PYTHONPATH default to build/api/libtritium.so and python/ of
this checkout.)
"""
import argparse
import concurrent.futures
import os
import subprocess
import sys
import tempfile
import textwrap

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Put in front of every program: inputs are seeded CPU tensors; out() keeps
# an output's raw bits and dtype, expect_error() records whether a launch
# raised; done() writes them to $LANG39_OUT (.npz).
PRELUDE = r'''
import os, sys, warnings
import numpy as np
import torch
import triton
import triton.language as tl
warnings.simplefilter("ignore")
torch.manual_seed(0)
_OUT = {}
_BITS = {torch.bfloat16: torch.int16, torch.float8_e4m3fn: torch.uint8, torch.float8_e5m2: torch.uint8}

def out(name, v):
    if isinstance(v, torch.Tensor):
        v = v.detach().cpu().contiguous()
        _OUT[name + "@dtype"] = np.array(str(v.dtype).replace("torch.", ""))
        if v.dtype in _BITS:
            v = v.view(_BITS[v.dtype])
        _OUT[name] = v.numpy()
    else:
        _OUT[name] = np.asarray(v)
        _OUT[name + "@dtype"] = np.array(str(_OUT[name].dtype))

def expect_error(tag, fn):
    try:
        fn()
        out("raised_" + tag, False)
        out("_exc_" + tag, "no exception")
    except Exception as e:
        out("raised_" + tag, True)
        lines = str(e).strip().splitlines() or [""]
        msg = next((ln for ln in lines if ": error: " in ln), lines[-1]).strip()
        out("_exc_" + tag, "%s: %s" % (type(e).__name__, msg[:160]))

def done():
    np.savez(os.environ["LANG39_OUT"], **_OUT)
'''


def P(name, src, cmp="exact", quirk=None):
    """A row: the feature's name, its program (after PRELUDE; ends with
    done()), how to compare ("exact", "ulp:N", "tol:R,A", or a dict from
    output name to one of those with "*" the default), and, for a row where
    Triton's interpreter is known to deviate from its compiler, the reason."""
    return dict(name=name, src=textwrap.dedent(src), cmp=cmp, quirk=quirk)


PROGRAMS = [
    # standard.py squeeze/unsqueeze (3.7): reshape dropping/inserting a 1
    P("squeeze_unsqueeze", '''
    @triton.jit
    def k(X, Y, Z, W):
        r = tl.arange(0, 4)
        c = tl.arange(0, 8)
        x = tl.load(X + r[:, None] * 8 + c[None, :])
        u = tl.unsqueeze(x, 1)
        u2 = tl.unsqueeze(x, -1)
        tl.store(Y + r[:, None] * 8 + c[None, :], tl.squeeze(u, -2) + tl.squeeze(u2, 2))
        tl.store(Z + r, tl.squeeze(tl.sum(x, 1, keep_dims=True), 1))
        s = tl.unsqueeze(tl.unsqueeze(x, 0), 0)
        tl.store(W + r[:, None] * 8 + c[None, :], tl.squeeze(tl.squeeze(s, 0), 0) * 3)

    x = torch.randint(-100, 100, (4, 8), dtype=torch.int32)
    y, z, w = torch.zeros(4, 8, dtype=torch.int32), torch.zeros(4, dtype=torch.int32), torch.zeros(4, 8, dtype=torch.int32)
    k[(1,)](x, y, z, w)
    out("y", y); out("z", z); out("w", w)
    done()
    '''),
    # core.py cat(can_reorder=False, dim=0) (3.7): join + permute + reshape, order kept
    P("cat_dim", '''
    @triton.jit
    def k(X, Y0, Y1, Y2, Y3, Y4):
        r = tl.arange(0, 4)[:, None]
        c = tl.arange(0, 8)[None, :]
        a = tl.load(X + r * 8 + c)
        b = a + 100
        tl.store(Y0 + tl.arange(0, 8)[:, None] * 8 + c, tl.cat(a, b))
        tl.store(Y1 + r * 16 + tl.arange(0, 16)[None, :], tl.cat(a, b, dim=1))
        tl.store(Y2 + r * 16 + tl.arange(0, 16)[None, :], tl.cat(a, b, can_reorder=False, dim=-1))
        v = tl.load(X + tl.arange(0, 8))
        tl.store(Y3 + tl.arange(0, 16), tl.cat(v, v * -1))
        i = tl.arange(0, 2)[:, None, None]
        j = tl.arange(0, 2)[None, :, None]
        l = tl.arange(0, 4)[None, None, :]
        t = tl.load(X + i * 8 + j * 4 + l)
        jj = tl.arange(0, 4)[None, :, None]
        tl.store(Y4 + i * 16 + jj * 4 + l, tl.cat(t, t + 1000, dim=1))

    x = torch.randint(-50, 50, (4, 8), dtype=torch.int32)
    ys = [torch.zeros(n, dtype=torch.int32) for n in (64, 64, 64, 16, 32)]
    k[(1,)](x, *ys)
    for i, y in enumerate(ys):
        out("y%d" % i, y)
    done()
    '''),
    # standard.py topk(descending=) (3.9) and sort_impl's k == 1 path (a keep-dims max/min)
    P("topk_descending", '''
    @triton.jit
    def k(X, XI, A, B, C, D, E, F, G):
        r = tl.arange(0, 4)[:, None]
        c = tl.arange(0, 16)[None, :]
        x = tl.load(X + r * 16 + c)
        c4 = tl.arange(0, 4)[None, :]
        tl.store(A + r * 4 + c4, tl.topk(x, 4))
        tl.store(B + r * 4 + c4, tl.topk(x, 4, descending=False))
        tl.store(C + tl.arange(0, 4), tl.reshape(tl.topk(x, 1), (4,)))
        tl.store(D + r * 16 + c, tl.sort(x, descending=True))
        xi = tl.load(XI + r * 16 + c)
        c8 = tl.arange(0, 8)[None, :]
        tl.store(E + r * 8 + c8, tl.topk(xi, 8, dim=1))
        v = tl.load(X + tl.arange(0, 16))
        tl.store(F + tl.arange(0, 2), tl.topk(v, 2, descending=False))
        tl.store(G + r * 4 + c4, tl.topk(x, 4, descending=True))

    x = torch.randn(4, 16)
    xi = torch.randint(-5, 5, (4, 16), dtype=torch.int32)
    a, b, g = torch.zeros(4, 4), torch.zeros(4, 4), torch.zeros(4, 4)
    c, d = torch.zeros(4), torch.zeros(4, 16)
    e, f = torch.zeros(4, 8, dtype=torch.int32), torch.zeros(2)
    k[(1,)](x, xi, a, b, c, d, e, f, g)
    for n, t in zip("abcdefg", (a, b, c, d, e, f, g)):
        out(n, t)
    done()
    '''),
    # core.py atomic_load/atomic_store (3.9): masks, sems (acquire/relaxed, release/relaxed),
    # scopes, tensor methods, int8/fp16/bool elements (int1 goes through int8)
    P("atomic_load_store", '''
    @triton.jit
    def k(A, B, F16, I8, BO, OUT):
        o = tl.arange(0, 16)
        m = o < 11
        v = tl.atomic_load(A + o, mask=m, sem="relaxed", scope="cta")
        tl.store(OUT + o, tl.where(m, v, -1))
        v2 = tl.atomic_load(A + o)
        tl.atomic_store(B + o, v2 * 3, mask=o % 3 != 0, sem="release", scope="gpu")
        tl.atomic_store(B + 16 + o, v2, sem="relaxed", scope="sys")
        h = (F16 + o).atomic_load(sem="acquire")
        (F16 + 16 + o).atomic_store(h * 2)
        i8 = tl.atomic_load(I8 + o)
        tl.atomic_store(I8 + 16 + o, (i8 + 1).to(tl.int8), mask=m)
        bo = tl.atomic_load(BO + o)
        tl.atomic_store(BO + 16 + o, bo ^ (o % 2 == 0))
        s = tl.atomic_load(A + 3)
        tl.store(OUT + 16, s)
        tl.atomic_store(B + 32, s + 1)
        tl.atomic_store(B + 33, s + 2, mask=s > 1000000)

    a = torch.randint(-1000, 1000, (16,), dtype=torch.int32)
    b = torch.full((34,), 7, dtype=torch.int32)
    f16 = torch.randn(32).half()
    i8 = torch.randint(-128, 127, (32,), dtype=torch.int8)
    bo = torch.rand(32) > 0.5
    o = torch.zeros(17, dtype=torch.int32)
    k[(1,)](a, b, f16, i8, bo, o)
    out("b", b); out("f16", f16); out("i8", i8); out("bo", bo); out("out", o)
    done()
    '''),
    # core.py atomic_poll (3.9): timeout_ns=0 on a tile reads each lane once; int1 result;
    # int16 expected values cast to the element type (semantic.py atomic_poll)
    P("atomic_poll_timeout0", '''
    @triton.jit
    def k(F, E, H, R):
        o = tl.arange(0, 16)
        r = tl.atomic_poll(F + o, 1, timeout_ns=0)
        tl.store(R + o, r.to(tl.int8))
        e = tl.load(E + o)
        r2 = (F + o).atomic_poll(e, sem="relaxed", scope="cta", timeout_ns=0)
        tl.store(R + 16 + o, r2.to(tl.int8))
        r3 = tl.atomic_poll(F + 5, 1, timeout_ns=0)
        tl.store(R + 32, r3.to(tl.int8))
        r4 = tl.atomic_poll(H + o, -1, timeout_ns=0)
        tl.store(R + 33 + o, r4.to(tl.int8))
        r5 = tl.atomic_poll(F + o, tl.load(F + o))
        tl.store(R + 49 + o, r5.to(tl.int8))

    f = torch.randint(0, 2, (16,), dtype=torch.int32)
    e = torch.randint(0, 2, (16,), dtype=torch.int32)
    h = torch.where(torch.rand(16) > 0.5, -1, 5).to(torch.int16)
    r = torch.full((65,), 9, dtype=torch.int8)
    k[(1,)](f, e, h, r)
    out("r", r)
    done()
    '''),
    # atomic_poll as a chain: program p waits for p-1's release flag
    P("atomic_poll_chain", '''
    @triton.jit
    def k(F, X, OUT, OK):
        p = tl.program_id(0)
        if p > 0:
            ok = tl.atomic_poll(F + p - 1, 1)
            tl.store(OK + p, ok.to(tl.int8))
        prev = tl.atomic_load(OUT + p - 1, mask=p > 0)
        prev = tl.where(p > 0, prev, 0)
        tl.store(OUT + p, prev + tl.load(X + p))
        tl.atomic_store(F + p, 1)

    f = torch.zeros(8, dtype=torch.int32)
    x = torch.randint(0, 100, (8,), dtype=torch.int32)
    o = torch.zeros(8, dtype=torch.int32)
    ok = torch.zeros(8, dtype=torch.int8)
    k[(8,)](f, x, o, ok)
    out("out", o); out("ok", ok); out("f", f)
    done()
    '''),
    # math.py fdiv(approx=) (3.9): approx and the default fdiv are not IEEE on the GPU
    # (div.approx.f32 / div.full.f32, 2 ulp); ieee_rounding=True is div.rn
    P("fdiv_approx", '''
    @triton.jit
    def k(X, Y, A, B, C, D):
        o = tl.arange(0, 64)
        x = tl.load(X + o)
        y = tl.load(Y + o)
        tl.store(A + o, tl.fdiv(x, y, approx=True))
        tl.store(B + o, tl.fdiv(x, y, ieee_rounding=True))
        tl.store(C + o, tl.fdiv(x, y))
        tl.store(D + o, tl.math.fdiv(x, 3.0, approx=True))

    x = torch.randn(64)
    y = torch.randn(64) + 3.0
    a, b, c, d = (torch.zeros(64) for _ in range(4))
    k[(1,)](x, y, a, b, c, d)
    out("approx", a); out("ieee", b); out("default", c); out("approx_scalar", d)
    done()
    ''', cmp={"*": "ulp:2", "ieee": "exact"}),
    # semantic.py fdiv: approx needs fp32 (fp64 refused; fp16 / fp16 is promoted to fp32 by
    # binary_op_type_checking_impl(div_or_mod=True), so accepted); approx and ieee_rounding
    # exclude each other
    P("fdiv_approx_refused", '''
    @triton.jit
    def k64(X, Y):
        o = tl.arange(0, 16)
        x = tl.load(X + o)
        tl.store(Y + o, tl.fdiv(x, x + 1.0, approx=True))

    @triton.jit
    def both(X, Y):
        o = tl.arange(0, 16)
        x = tl.load(X + o)
        tl.store(Y + o, tl.fdiv(x, x + 1.0, approx=True, ieee_rounding=True))

    x = torch.rand(16).double()
    expect_error("fp64", lambda: k64[(1,)](x, torch.zeros(16).double()))
    expect_error("both", lambda: both[(1,)](x.float(), torch.zeros(16)))
    done()
    '''),
    # math.py fma + semantic.py ternary_op_type_checking_impl (3.9): Python scalars take
    # the tensors' kind (fp16 / bf16 stay), materialized once in the final type
    P("fma_python_scalars", '''
    @triton.jit
    def k(X16, X32, XB, A, B, C, D, T):
        o = tl.arange(0, 32)
        x16 = tl.load(X16 + o)
        x32 = tl.load(X32 + o)
        xb = tl.load(XB + o)
        a = tl.fma(x16, 2.5, 0.1)
        b = tl.fma(3.0, x32, 1e-7)
        d = tl.fma(2.0, 0.3, x16)
        tl.store(A + o, a)
        tl.store(B + o, b)
        tl.store(D + o, d)
        tl.store(T + 0, 1 if a.dtype == tl.float16 else 0)
        tl.store(T + 1, 1 if b.dtype == tl.float32 else 0)
        tl.store(T + 3, 1 if d.dtype == tl.float16 else 0)

    x16 = torch.randn(32).half(); x32 = torch.randn(32); xb = torch.randn(32).bfloat16()
    a, d = torch.zeros(32).half(), torch.zeros(32).half()
    b, c = torch.zeros(32), torch.zeros(32).bfloat16()
    t = torch.full((4,), -1, dtype=torch.int32)
    k[(1,)](x16, x32, xb, a, b, c, d, t)
    out("a", a); out("b", b); out("d", d); out("dtype_ok", t)
    done()
    '''),
    # the same rule on bf16 (3.9: fma(xb, xb, 1.0) stays bf16, rounded once)
    P("fma_bf16", '''
    @triton.jit
    def k(XB, C, T):
        o = tl.arange(0, 32)
        xb = tl.load(XB + o)
        c = tl.fma(xb, xb, 1.0)
        tl.store(C + o, c)
        tl.store(T, 1 if c.dtype == tl.bfloat16 else 0)

    xb = torch.randn(32).bfloat16()
    c = torch.zeros(32).bfloat16()
    t = torch.full((1,), -1, dtype=torch.int32)
    k[(1,)](xb, c, t)
    out("c", c); out("dtype_ok", t)
    out("ref_c", (xb.double() * xb.double() + 1.0).bfloat16())
    out("ref_dtype_ok", torch.tensor([1], dtype=torch.int32))
    done()
    ''', quirk="Triton 3.9's interpreter computes a bf16 fma wrongly (create_fma handles float16, float32 "
               "and float64; bf16 data come out as garbage), so tritium is checked against torch"),
    # semantic.py minus: floats are fneg, so -(+0.0) is -0.0 (sign bit set)
    P("neg_zero_sign", '''
    @triton.jit
    def k(X, Y, YB, H, S, s, ZERO: tl.constexpr):
        o = tl.arange(0, 8)
        x = tl.load(X + o)
        tl.store(Y + o, -x)
        tl.store(YB + o, (-x).to(tl.int32, bitcast=True))
        h = tl.load(H + o)
        tl.store(H + 8 + o, -h)
        tl.store(S, -s)
        z = tl.zeros((8,), tl.float32)
        tl.store(S + 1 + o, -z)
        tl.store(S + 9, -ZERO)
        tl.store(S + 10, -(s + 0.0))

    x = torch.tensor([0.0, -0.0, 1.0, -2.5, float("inf"), float("-inf"), float("nan"), 1e-40])
    y, s = torch.zeros(8), torch.ones(11)
    yb = torch.zeros(8, dtype=torch.int32)
    h = torch.cat([x.half(), torch.zeros(8).half()])
    k[(1,)](x, y, yb, h, s, 0.0, 0.0)
    out("y", y); out("ybits", yb); out("h", h); out("s", s)
    done()
    '''),
    # core.py expect_zero (3.9): returns x (no fpsan, no debug); mask may be a Python bool
    P("expect_zero", '''
    @triton.jit
    def k(X, Y):
        o = tl.arange(0, 16)
        x = tl.load(X + o)
        tl.store(Y + o, tl.expect_zero(x, x == 0.0))
        tl.store(Y + 16 + o, tl.expect_zero(x * 1e-30 * 1e-30, o < 4))
        tl.store(Y + 32 + o, tl.expect_zero(x, True))

    x = torch.randn(16); x[3] = 0.0
    y = torch.zeros(48)
    k[(1,)](x, y)
    out("y", y)
    done()
    '''),
    # standard.py cumsum/cumprod (3.9): _pick_sum_dtype (int < 32 bits -> int32/uint32,
    # bf16 stays bf16), dtype=, reverse=
    P("scan_dtypes", '''
    @triton.jit
    def k(XB, XI, XU, XS, CB, CP, CP64, CS8, CU, RV, C2, T):
        o = tl.arange(0, 16)
        xb = tl.load(XB + o)
        cb = tl.cumsum(xb)
        xi = tl.load(XI + o)
        cp = tl.cumprod(xi)
        tl.store(CP + o, cp)
        cp64 = tl.cumprod(xi, dtype=tl.int64)
        tl.store(CP64 + o, cp64)
        cs8 = tl.cumsum(xi, dtype=tl.int8)
        tl.store(CS8 + o, cs8)
        xu = tl.load(XU + o)
        cu = tl.cumsum(xu)
        tl.store(CU + o, cu)
        tl.store(RV + o, tl.cumsum(xi * 20, reverse=True))
        r = tl.arange(0, 4)[:, None]
        c = tl.arange(0, 8)[None, :]
        xs = tl.load(XS + r * 8 + c)
        c2 = tl.cumprod(xs, axis=1, reverse=True)
        tl.store(C2 + r * 8 + c, c2)
        tl.store(T + 0, 1 if cb.dtype == tl.bfloat16 else 0)
        tl.store(T + 1, 1 if cp.dtype == tl.int32 else 0)
        tl.store(T + 2, 1 if cp64.dtype == tl.int64 else 0)
        tl.store(T + 3, 1 if cs8.dtype == tl.int8 else 0)
        tl.store(T + 4, 1 if cu.dtype == tl.uint32 else 0)
        tl.store(T + 5, 1 if c2.dtype == tl.int32 else 0)

    xb = (torch.randn(16) * 4).bfloat16()
    xi = torch.randint(-3, 4, (16,), dtype=torch.int8); xi[xi == 0] = 2
    xu = torch.randint(200, 256, (16,), dtype=torch.uint8)
    xs = torch.randint(-4, 5, (4, 8), dtype=torch.int16)
    cb = torch.zeros(16).bfloat16()
    cp, rv = torch.zeros(16, dtype=torch.int32), torch.zeros(16, dtype=torch.int32)
    cp64, cs8 = torch.zeros(16, dtype=torch.int64), torch.zeros(16, dtype=torch.int8)
    cu = torch.zeros(16, dtype=torch.int64)
    c2 = torch.zeros(4, 8, dtype=torch.int32)
    t = torch.full((6,), -1, dtype=torch.int32)
    k[(1,)](xb, xi, xu, xs, cb, cp, cp64, cs8, cu.view(torch.int32)[:16], rv, c2, t)
    out("cumprod_i8", cp); out("cumprod_i64", cp64); out("cumsum_dtype_i8", cs8)
    out("cumsum_u8_as_u32", cu.view(torch.int32)[:16]); out("rev", rv); out("cumprod_i16_axis1_rev", c2)
    out("dtype_ok", t)
    done()
    '''),
    # bf16 cumsum stays bf16 (_pick_sum_dtype): values against torch's sequential bf16 cumsum
    P("scan_bf16_cumsum", '''
    @triton.jit
    def k(XB, CB):
        o = tl.arange(0, 16)
        tl.store(CB + o, tl.cumsum(tl.load(XB + o)))

    xb = (torch.randn(16) * 4).bfloat16()
    cb = torch.zeros(16).bfloat16()
    k[(1,)](xb, cb)
    out("cumsum_bf16", cb)
    ref = torch.zeros(16).bfloat16(); s = torch.zeros(()).bfloat16()
    for i in range(16):
        s = s + xb[i]; ref[i] = s
    out("ref_cumsum_bf16", ref)
    done()
    ''', cmp="ulp:2", quirk="Triton 3.9's interpreter stores garbage for a bf16 scan (every other element "
                           "~1e-38: float32 data written as bf16), so tritium is checked against torch's bf16 cumsum"),
    # standard.py softmax(x, dim=None, *, keep_dims=None, ieee_rounding=False) (3.9): the
    # shape is always kept, dim defaults to 0, keep_dims is ignored (a warning)
    P("softmax_keep_dims", '''
    @triton.jit
    def k(X, A, B, C, D, E, F):
        r = tl.arange(0, 4)[:, None]
        c = tl.arange(0, 8)[None, :]
        x = tl.load(X + r * 8 + c)
        tl.store(A + r * 8 + c, tl.softmax(x, 1))
        tl.store(B + r * 8 + c, tl.softmax(x))
        tl.store(C + r * 8 + c, tl.softmax(x, dim=1, ieee_rounding=True))
        tl.store(D + r * 8 + c, tl.softmax(x, 1, keep_dims=True))
        tl.store(E + r * 8 + c, x.softmax(1))
        v = tl.load(X + tl.arange(0, 8))
        tl.store(F + tl.arange(0, 8), tl.softmax(v))

    x = torch.randn(4, 8) * 3
    a, b, c, d, e = (torch.zeros(4, 8) for _ in range(5))
    f = torch.zeros(8)
    k[(1,)](x, a, b, c, d, e, f)
    for n, t in zip("abcdef", (a, b, c, d, e, f)):
        out(n, t)
    done()
    ''', cmp="ulp:8"),
    # keep_dims is keyword-only in 3.9: a third positional argument is refused
    P("softmax_keep_dims_positional_refused", '''
    @triton.jit
    def k(X, Y):
        o = tl.arange(0, 8)
        tl.store(Y + o, tl.softmax(tl.load(X + o), 0, False))

    expect_error("positional", lambda: k[(1,)](torch.randn(8), torch.zeros(8)))
    done()
    '''),
    # code_generator.py visit_Compare (3.9): a < b < c is (a < b) and (b < c), b once
    P("chained_comparison", '''
    @triton.jit
    def k(X, F, Y, lo, hi, N: tl.constexpr):
        o = tl.arange(0, 16)
        x = tl.load(X + o)
        tl.store(Y + o, (2 <= x < 9).to(tl.int32))
        tl.store(Y + 16 + o, (0 < x <= x + 1 < 12).to(tl.int32))
        tl.store(Y + 32 + o, (lo <= x < hi).to(tl.int32))
        f = tl.load(F + o)
        tl.store(Y + 48 + o, (0.0 < f < 1.0).to(tl.int32))
        if 0 < N < 100:
            tl.store(Y + 64, 1)
        else:
            tl.store(Y + 64, 2)
        p = tl.program_id(0)
        if 0 <= p < lo:
            tl.store(Y + 65, 3)
        else:
            tl.store(Y + 65, 4)
        tl.store(Y + 66, (lo < hi > 5).to(tl.int32))

    x = torch.arange(16, dtype=torch.int32)
    f = torch.tensor([0.5, -1.0, 1.0, 0.0, float("nan"), 0.999, 2.0, 1e-30] * 2)
    y = torch.zeros(67, dtype=torch.int32)
    k[(1,)](x, f, y, 3, 11, 7)
    out("y", y)
    done()
    '''),
    # keyword-only parameters of kernels and jit helpers (3.9 binder: keyword-only)
    P("keyword_only_params", '''
    @triton.jit
    def helper(x, *, scale, shift=1):
        return x * scale + shift

    @triton.jit
    def k(X, Y, *, N, BLOCK: tl.constexpr, MUL: tl.constexpr = 3):
        o = tl.arange(0, BLOCK)
        m = o < N
        x = tl.load(X + o, mask=m)
        tl.store(Y + o, helper(x, scale=MUL) + helper(x, shift=0, scale=2), mask=m)

    x = torch.randint(-9, 9, (16,), dtype=torch.int32)
    y = torch.zeros(16, dtype=torch.int32)
    k[(1,)](x, y, N=13, BLOCK=16)
    out("y", y)
    y2 = torch.zeros(16, dtype=torch.int32)
    k[(1,)](x, y2, BLOCK=16, N=16, MUL=-1)
    out("y2", y2)
    expect_error("positional", lambda: k[(1,)](x, y2, 13, 16))
    done()
    '''),
    # code_generator.py visit_NamedExpr (3.8)
    P("walrus", '''
    @triton.jit
    def k(X, Y):
        o = tl.arange(0, 16)
        x = tl.load(X + o)
        if (s := tl.sum(x)) > 0:
            tl.store(Y, s)
        else:
            tl.store(Y, -s + 1000)
        tl.store(Y + 1 + o, (w := x * 2) + w)
        for i in range(3):
            tl.store(Y + 17 + i, (t := s * i) + t)

    x = torch.randint(-20, 20, (16,), dtype=torch.int32)
    y = torch.zeros(24, dtype=torch.int32)
    k[(1,)](x, y)
    out("y", y)
    done()
    '''),
    # A walrus in a while condition that the body reads: Triton's compiler finds loop carries
    # in the body only (code_generator.py visit_While, _find_carries) and forwards the
    # before-block arguments, so its IR fails verification; its interpreter runs Python.
    # tritium carries the target and forwards the new value, as Python (and the interpreter) do
    P("walrus_in_while_condition", '''
    @triton.jit
    def k(Y):
        i = 0
        while (i := i + 1) < 4:
            tl.store(Y + i, i)
        tl.store(Y, i * 10)

    y = torch.zeros(8, dtype=torch.int32)
    k[(1,)](y)
    out("y", y)
    done()
    '''),
    # code_generator.py visit_ListComp (3.9): tuple comprehensions, constexpr `if`
    # filters, tuple targets (sanitize_leaf=False keeps a literal's ints constexpr; a tuple
    # assigned to a name first would have them sanitized to tensors, and the filter refused)
    P("comprehension_filters_tuple_targets", '''
    @triton.jit
    def k(X, Y):
        o = tl.arange(0, 8)
        a = tl.load(X + o)
        b = tl.load(X + 8 + o)
        c = tl.load(X + 16 + o)
        ys = [v * n for n, v in ((1, a), (2, b), (3, c)) if n != 2]
        tl.store(Y + o, ys[0] + ys[1])
        zs = [t + 1 for t in (a, b, c)]
        tl.store(Y + 8 + o, zs[2])
        big = [v for n, v in ((1, a), (2, b), (3, c)) if n > 1 if n < 3]
        tl.store(Y + 16 + o, big[0] * len(big))
        sq = [(n * n, v) for n, v in ((1, a), (2, b), (3, c))]
        tl.store(Y + 24 + o, sq[2][1] * sq[2][0])

    x = torch.randint(-9, 9, (24,), dtype=torch.int32)
    y = torch.zeros(32, dtype=torch.int32)
    k[(1,)](x, y)
    out("y", y)
    done()
    '''),
    # *args jit helpers (a tuple inside the helper)
    P("varargs_helpers", '''
    @triton.jit
    def add_all(*xs):
        acc = xs[0]
        for i in tl.static_range(1, len(xs)):
            acc = acc + xs[i]
        return acc

    @triton.jit
    def first_plus(a, *rest):
        return a * 10 + len(rest)

    @triton.jit
    def k(X, Y):
        o = tl.arange(0, 8)
        v0 = tl.load(X + o)
        v1 = tl.load(X + 8 + o)
        v2 = tl.load(X + 16 + o)
        tl.store(Y + o, add_all(v0, v1, v2))
        tl.store(Y + 8 + o, first_plus(v0, v1, v2))
        tl.store(Y + 16 + o, add_all(v2))
        tl.store(Y + 24 + o, first_plus(v1))

    x = torch.randint(-9, 9, (24,), dtype=torch.int32)
    y = torch.zeros(32, dtype=torch.int32)
    k[(1,)](x, y)
    out("y", y)
    done()
    '''),
    # *args on the kernel itself: Triton 3.9's interpreter refuses the launch (its binder passes
    # Xs= by keyword) and tritium refuses the parameter (docs/python.md); both must raise
    P("varargs_kernel", '''
    @triton.jit
    def k(Y, *Xs):
        o = tl.arange(0, 8)
        acc = tl.zeros((8,), tl.int32)
        for i in tl.static_range(len(Xs)):
            acc = acc * 3 + tl.load(Xs[i] + o)
        tl.store(Y + o, acc)

    xs = [torch.randint(-9, 9, (8,), dtype=torch.int32) for _ in range(3)]
    y = torch.zeros(8, dtype=torch.int32)
    expect_error("launch", lambda: k[(1,)](y, *xs))
    done()
    '''),
    # semantic.py dot (3.9): out_dtype=None follows acc's element type; fp16 acc -> fp16.
    # Values within fp16 accumulation error (Triton's interpreter rounds a @ b to fp16, then
    # adds acc: interpreter.py create_dot; tritium rounds a @ b + acc once)
    P("dot_fp16_acc", '''
    @triton.jit
    def k(A, B, C, O1, O2, O3, T):
        r = tl.arange(0, 16)[:, None]
        c = tl.arange(0, 16)[None, :]
        a = tl.load(A + r * 16 + c)
        b = tl.load(B + r * 16 + c)
        acc = tl.load(C + r * 16 + c)
        d1 = tl.dot(a, b, acc)
        d2 = tl.dot(a, b, out_dtype=tl.float16)
        d3 = tl.dot(a, b)
        tl.store(O1 + r * 16 + c, d1)
        tl.store(O2 + r * 16 + c, d2)
        tl.store(O3 + r * 16 + c, d3)
        tl.store(T + 0, 1 if d1.dtype == tl.float16 else 0)
        tl.store(T + 1, 1 if d2.dtype == tl.float16 else 0)
        tl.store(T + 2, 1 if d3.dtype == tl.float32 else 0)

    a = (torch.randn(16, 16) * 0.5).half(); b = (torch.randn(16, 16) * 0.5).half()
    c = torch.randn(16, 16).half()
    o1, o2, o3 = torch.zeros(16, 16).half(), torch.zeros(16, 16).half(), torch.zeros(16, 16)
    t = torch.full((3,), -1, dtype=torch.int32)
    k[(1,)](a, b, c, o1, o2, o3, t)
    out("acc_fp16", o1); out("out_fp16", o2); out("default_fp32", o3); out("dtype_ok", t)
    done()
    ''', cmp={"*": "tol:2e-3,4e-3", "dtype_ok": "exact"}),
    # core.py _aggregate (3.8): generated __init__ (positional, keyword, defaults), a tuple
    # field carried through a loop by aggregate_replace, inheritance (parent fields first).
    # Plain @triton.jit functions on aggregates: Triton 3.9's interpreter drops an
    # aggregate's @triton.jit methods.
    P("aggregate_init_replace_inherit", '''
    @triton.aggregate
    class Acc:
        total: tl.tensor
        pair: tl.tuple
        scale: tl.constexpr = 2

    @triton.aggregate
    class Acc2(Acc):
        extra: tl.tensor

    @triton.jit
    def step(a, x):
        return tl.aggregate_replace(a, total=a.total + x * a.scale, pair=(a.pair[1], a.pair[0] + x))

    @triton.jit
    def k(X, Y, n):
        o = tl.arange(0, 8)
        z = tl.zeros((8,), tl.float32)
        a = Acc(z, (z, z + 1))
        b = Acc(total=z, pair=(z, z), scale=3)
        for i in range(n):
            x = tl.load(X + i * 8 + o)
            a = step(a, x)
            b = step(b, x)
        tl.store(Y + o, a.total)
        tl.store(Y + 8 + o, a.pair[0])
        tl.store(Y + 16 + o, a.pair[1])
        tl.store(Y + 24 + o, b.total)
        c = Acc2(z + 5, (z, z), extra=z + 1)
        c = tl.aggregate_replace(c, extra=c.extra * c.scale)
        tl.store(Y + 32 + o, c.extra + c.total)
        tl.store(Y + 40 + o, step(c, z + 0.5).total)

    x = torch.randn(5, 8)
    y = torch.zeros(48)
    k[(1,)](x, y, 5)
    out("y", y)
    done()
    '''),
    # core.py _aggregate: fields are immutable after __init__ (use aggregate_replace)
    P("aggregate_immutable_refused", '''
    @triton.aggregate
    class Box:
        v: tl.tensor

    @triton.jit
    def k(X):
        o = tl.arange(0, 8)
        b = Box(tl.load(X + o))
        b.v = b.v + 1
        tl.store(X + o, b.v)

    expect_error("assign", lambda: k[(1,)](torch.zeros(8)))
    done()
    '''),
    # core.py _aggregate: a user-defined @triton.constexpr_function __init__ sets the fields
    P("aggregate_constexpr_function_init", '''
    @triton.aggregate
    class Scaled:
        v: tl.tensor
        k: tl.constexpr

        @triton.constexpr_function
        def __init__(self, v, k=2):
            self.v = v
            self.k = tl.constexpr(k * 10)

    @triton.jit
    def use(s):
        return s.v * s.k

    @triton.jit
    def k(X, Y):
        o = tl.arange(0, 8)
        x = tl.load(X + o)
        tl.store(Y + o, use(Scaled(x)))
        tl.store(Y + 8 + o, use(Scaled(x, 3)))
        tl.store(Y + 16 + o, use(Scaled(x, k=-1)))

    x = torch.randint(-9, 9, (8,), dtype=torch.int32)
    y = torch.zeros(24, dtype=torch.int32)
    k[(1,)](x, y)
    out("y", y)
    done()
    '''),
    # core.py dot_scaled: e2m1 x e2m1 with e8m0 scales (scales near 2^0: every sum is exact
    # in fp32), and e4m3 x e4m3 with scales (fp32 order may differ: a tolerance)
    P("dot_scaled", '''
    @triton.jit
    def k(A, SA, B, SB, O, AC: tl.constexpr, BR: tl.constexpr, FMT: tl.constexpr):
        M: tl.constexpr = 16
        N: tl.constexpr = 16
        a = tl.load(A + tl.arange(0, M)[:, None] * AC + tl.arange(0, AC)[None, :])
        b = tl.load(B + tl.arange(0, BR)[:, None] * N + tl.arange(0, N)[None, :])
        sa = tl.load(SA + tl.arange(0, M)[:, None] * 2 + tl.arange(0, 2)[None, :])
        sb = tl.load(SB + tl.arange(0, N)[:, None] * 2 + tl.arange(0, 2)[None, :])
        o = tl.dot_scaled(a, sa, FMT, b, sb, FMT)
        tl.store(O + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :], o)

    g = torch.Generator().manual_seed(1)
    sa = torch.randint(125, 130, (16, 2), dtype=torch.uint8, generator=g)
    sb = torch.randint(125, 130, (16, 2), dtype=torch.uint8, generator=g)
    a4 = torch.randint(0, 256, (16, 32), dtype=torch.uint8, generator=g)
    b4 = torch.randint(0, 256, (32, 16), dtype=torch.uint8, generator=g)
    o4 = torch.zeros(16, 16)
    k[(1,)](a4, sa, b4, sb, o4, 32, 32, "e2m1")
    out("e2m1", o4)
    a8 = (torch.randn(16, 64) * 4).to(torch.float8_e4m3fn)
    b8 = (torch.randn(64, 16) * 4).to(torch.float8_e4m3fn)
    o8 = torch.zeros(16, 16)
    k[(1,)](a8.view(torch.uint8), sa, b8.view(torch.uint8), sb, o8, 64, 64, "e4m3")
    out("e4m3", o8)
    done()
    ''', cmp={"e2m1": "exact", "e4m3": "tol:1e-5,1e-4"}),
    # host TensorDescriptors inside a tuple argument, with a partly out-of-bounds block
    # (zero padding) and a store through one
    P("tensor_descriptors_in_tuple", '''
    from triton.tools.tensor_descriptor import TensorDescriptor

    @triton.jit
    def k(descs, Y):
        r = tl.arange(0, 16)[:, None]
        c = tl.arange(0, 16)[None, :]
        a = descs[0].load([0, 0])
        b = descs[1].load([4, 8])
        tl.store(Y + r * 16 + c, a + b)
        descs[2].store([8, 0], a * 2)

    x = torch.randn(16, 16)
    w = torch.randn(12, 20)
    z = torch.zeros(32, 16)
    y = torch.zeros(16, 16)
    da = TensorDescriptor.from_tensor(x, [16, 16])
    db = TensorDescriptor(w, list(w.shape), list(w.stride()), [16, 16])
    dz = TensorDescriptor.from_tensor(z, [16, 16])
    k[(1,)]((da, db, dz), y)
    out("y", y); out("z", z)
    done()
    '''),
    # tools/tensor_descriptor.py round_f32_to_tf32=True (3.7): loads round to tf32 (RNE, 10
    # mantissa bits; inf/nan kept), interpreter.py _round_f32_to_tf32
    P("tensor_descriptor_round_tf32", '''
    from triton.tools.tensor_descriptor import TensorDescriptor

    @triton.jit
    def k(d, Y):
        r = tl.arange(0, 8)[:, None]
        c = tl.arange(0, 16)[None, :]
        tl.store(Y + r * 16 + c, d.load([0, 0]))

    x = torch.randn(8, 16)
    bits = x.view(torch.int32)
    bits[0, :8] = (bits[0, :8] & ~0x3FFF) | 0x1000
    bits[1, :8] = (bits[1, :8] & ~0x3FFF) | 0x3000
    x[2, 0] = float("inf"); x[2, 1] = float("nan"); x[2, 2] = 3.4e38; x[2, 3] = 1e-40
    y = torch.zeros(8, 16)
    k[(1,)](TensorDescriptor(x, list(x.shape), list(x.stride()), [8, 16], round_f32_to_tf32=True), y)
    out("y", y)
    done()
    '''),
    # core.py to_tensor (3.9): Python scalars to 0-d tensors; semantic.py to_tensor_type
    P("to_tensor", '''
    @triton.jit
    def k(X, I, F, T):
        a = tl.to_tensor(3)
        b = tl.to_tensor(2**40)
        c = tl.to_tensor(True)
        d = tl.to_tensor(1.5)
        e = tl.to_tensor(2**31 + 5)
        g = tl.to_tensor(1e-40)
        x = tl.load(X)
        h = tl.to_tensor(x)
        tl.store(I + 0, a.to(tl.int64))
        tl.store(I + 1, b)
        tl.store(I + 2, c.to(tl.int64))
        tl.store(I + 3, e.to(tl.int64))
        tl.store(F + 0, d.to(tl.float64))
        tl.store(F + 1, g)
        tl.store(F + 2, h.to(tl.float64))
        tl.store(T + 0, 1 if a.dtype == tl.int32 else 0)
        tl.store(T + 1, 1 if b.dtype == tl.int64 else 0)
        tl.store(T + 2, 1 if c.dtype == tl.int1 else 0)
        tl.store(T + 3, 1 if d.dtype == tl.float32 else 0)
        tl.store(T + 4, 1 if e.dtype == tl.uint32 else 0)
        tl.store(T + 5, 1 if g.dtype == tl.float64 else 0)
        tl.store(T + 6, 1 if h.dtype == tl.float32 else 0)

    x = torch.tensor([0.1])
    i, f = torch.zeros(4, dtype=torch.int64), torch.zeros(3, dtype=torch.float64)
    t = torch.full((7,), -1, dtype=torch.int32)
    k[(1,)](x, i, f, t)
    out("i", i); out("f", f); out("dtype_ok", t)
    done()
    '''),
    # core.py must_use_result on a jit helper whose result is used
    P("must_use_result_used", '''
    @triton.must_use_result
    @triton.jit
    def inc(x):
        return x + 1

    @triton.must_use_result("the sum is the point")
    @triton.jit
    def add(x, y):
        return x + y

    @triton.jit
    def k(X, Y):
        o = tl.arange(0, 8)
        y = inc(tl.load(X + o))
        tl.store(Y + o, add(y, y))

    x = torch.randint(-9, 9, (8,), dtype=torch.int32)
    y = torch.zeros(8, dtype=torch.int32)
    k[(1,)](x, y)
    out("y", y)
    done()
    '''),
    # code_generator.py call_Function: an unused must_use_result call is a CompilationError
    P("must_use_result_unused_refused", '''
    @triton.must_use_result
    @triton.jit
    def inc(x):
        return x + 1

    @triton.jit
    def k(X):
        o = tl.arange(0, 8)
        inc(tl.load(X + o))

    expect_error("unused", lambda: k[(1,)](torch.zeros(8, dtype=torch.int32)))
    out("ref_raised_unused", True)
    done()
    ''', quirk="Triton's interpreter runs the kernel as Python and never looks at _must_use_result "
               "(only code_generator.py visit_Expr/call_Function do: CompilationError 'The result of inc "
               "is not being used.'), so tritium is checked against raised_unused == True"),
    # core.py tensor.logical_and/logical_or (3.9 builtins; other goes through to_tensor)
    P("logical_and_or_int1", '''
    @triton.jit
    def k(X, Y):
        o = tl.arange(0, 16)
        x = tl.load(X + o)
        p = x > 3
        q = x < 10
        tl.store(Y + o, p.logical_and(q).to(tl.int8))
        tl.store(Y + 16 + o, p.logical_or(q == 0).to(tl.int8))
        tl.store(Y + 32 + o, p.logical_and(True).to(tl.int8))
        tl.store(Y + 48 + o, q.logical_or(False).to(tl.int8))

    x = torch.randint(-5, 15, (16,), dtype=torch.int32)
    y = torch.zeros(64, dtype=torch.int8)
    k[(1,)](x, y)
    out("y", y)
    done()
    '''),
    # semantic.py: an int16 tensor ^ a Python int keeps int16 (the scalar takes the tensor's
    # type), so the bitcast to fp16 is legal
    P("int16_xor_bitcast_fp16", '''
    @triton.jit
    def k(B, H, U, G):
        o = tl.arange(0, 32)
        bits = tl.load(B + o)
        tl.store(H + o, (bits ^ -32768).to(tl.float16, bitcast=True))
        u = tl.load(U + o)
        tl.store(G + o, (u ^ 0x8000).to(tl.bfloat16, bitcast=True))

    b = torch.randint(-32768, 32767, (32,), dtype=torch.int16)
    u = torch.randint(0, 65535, (32,), dtype=torch.int32).to(torch.uint16)
    h = torch.zeros(32).half()
    g = torch.zeros(32).bfloat16()
    k[(1,)](b, h, u, g)
    out("h", h); out("g", g)
    done()
    '''),
    # standard.py sum: fp16 stays fp16 (_pick_sum_dtype); the order of fp16 additions differs,
    # so an absolute tolerance of a few ulps of the partial sums (the notes give the ulps)
    P("sum_fp16", '''
    @triton.jit
    def k(X, S, R, T):
        r = tl.arange(0, 8)[:, None]
        c = tl.arange(0, 64)[None, :]
        x = tl.load(X + r * 64 + c)
        s = tl.sum(x)
        tl.store(S, s)
        tl.store(R + tl.arange(0, 8), tl.sum(x, 1))
        tl.store(R + 8 + tl.arange(0, 64), tl.sum(x, 0))
        tl.store(T, 1 if s.dtype == tl.float16 else 0)

    x = torch.randn(8, 64).half()
    s, r = torch.zeros(1).half(), torch.zeros(72).half()
    t = torch.full((1,), -1, dtype=torch.int32)
    k[(1,)](x, s, r, t)
    out("sum_all", s); out("sum_axes", r); out("dtype_ok", t)
    done()
    ''', cmp={"sum_all": "tol:0,0.25", "sum_axes": "tol:0,0.0625", "dtype_ok": "exact"}),
    # @triton.constexpr_function helpers on constexprs (and a dtype) inside a kernel
    P("constexpr_function_helper", '''
    @triton.constexpr_function
    def double_pow2(n, k):
        return triton.next_power_of_2(n) * k

    @triton.constexpr_function
    def bits_of(dt):
        return dt.primitive_bitwidth

    @triton.jit
    def k(X, Y, N: tl.constexpr):
        B: tl.constexpr = double_pow2(N, 2)
        o = tl.arange(0, B)
        x = tl.load(X + o)
        tl.store(Y + o, x + double_pow2(3, 1) + bits_of(x.dtype))

    x = torch.randint(-9, 9, (32,), dtype=torch.int32)
    y = torch.zeros(32, dtype=torch.int32)
    k[(1,)](x, y, 9)
    out("y", y)
    done()
    '''),
    # core.py make_block_ptr (3.9): raises NotImplementedError (block pointers removed)
    P("block_ptr_refused", '''
    @triton.jit
    def k(X, Y):
        p = tl.make_block_ptr(X, (16,), (1,), (0,), (16,), (0,))
        tl.store(Y + tl.arange(0, 16), tl.load(p))

    expect_error("make_block_ptr", lambda: k[(1,)](torch.zeros(16), torch.zeros(16)))
    done()
    '''),
    # 3.9 vs 3.6: bf16 min/max/clamp no longer promote to fp32 (3.6 core.py
    # _promote_bfloat16_to_float32 is gone; the max/min reductions of < 32-bit floats still
    # compute in fp32, standard.py max/min); Python-number operands (semantic.py clamp/minimum)
    P("bf16_minmax_no_promotion", '''
    @triton.jit
    def k(X, Y, O, F, T):
        o = tl.arange(0, 16)
        x = tl.load(X + o)
        y = tl.load(Y + o)
        a = tl.maximum(x, y)
        b = tl.minimum(x, 0.25)
        c = tl.clamp(x, -0.5, 0.5)
        r = tl.arange(0, 4)[:, None]
        cc = tl.arange(0, 4)[None, :]
        x2 = tl.load(X + r * 4 + cc)
        d = tl.max(x2, 1)
        e = tl.min(x2, 0)
        tl.store(O + o, a)
        tl.store(O + 16 + o, b)
        tl.store(O + 32 + o, c)
        tl.store(O + 48 + tl.arange(0, 4), d)
        tl.store(O + 52 + tl.arange(0, 4), e)
        f = tl.load(F + o)
        tl.store(F + 16 + o, tl.minimum(f, 0.25))
        tl.store(F + 32 + o, tl.clamp(f, -0.5, 0.5))
        tl.store(T + 0, 1 if a.dtype == tl.bfloat16 else 0)
        tl.store(T + 1, 1 if b.dtype == tl.bfloat16 else 0)
        tl.store(T + 2, 1 if c.dtype == tl.bfloat16 else 0)
        tl.store(T + 3, 1 if d.dtype == tl.bfloat16 else 0)
        tl.store(T + 4, 1 if e.dtype == tl.bfloat16 else 0)

    x = torch.randn(16).bfloat16(); y = torch.randn(16).bfloat16()
    o = torch.zeros(56).bfloat16()
    f = torch.cat([torch.randn(16), torch.zeros(32)])
    t = torch.full((5,), -1, dtype=torch.int32)
    k[(1,)](x, y, o, f, t)
    out("o", o); out("f", f); out("dtype_ok", t)
    x2 = x.view(4, 4)
    out("ref_o", torch.cat([torch.maximum(x, y), torch.clamp(x, max=0.25), x.clamp(-0.5, 0.5),
                            x2.max(1).values, x2.min(0).values]))
    out("ref_f", torch.cat([f[:16], torch.clamp(f[:16], max=0.25), f[:16].clamp(-0.5, 0.5)]))
    out("ref_dtype_ok", torch.tensor([1, 1, 1, 0, 0], dtype=torch.int32))
    done()
    ''', quirk="Triton 3.9's interpreter computes bf16 maximum/minimum/clamp wrongly (lanes come out "
               "as other lanes' values), so tritium is checked against torch"),
    # 3.9 vs 3.6: exp2/log2/floor/ceil/erf/sqrt_rn are tensor methods
    P("tensor_math_methods", '''
    @triton.jit
    def k(X, E, L, FL, CE, ER, SQ):
        o = tl.arange(0, 32)
        x = tl.load(X + o)
        tl.store(E + o, x.exp2())
        tl.store(L + o, x.abs().log2())
        tl.store(FL + o, x.floor())
        tl.store(CE + o, x.ceil())
        tl.store(ER + o, x.erf())
        tl.store(SQ + o, x.abs().sqrt_rn())

    x = torch.randn(32) * 3
    outs = [torch.zeros(32) for _ in range(6)]
    k[(1,)](x, *outs)
    for n, t in zip(("exp2", "log2", "floor", "ceil", "erf", "sqrt_rn"), outs):
        out(n, t)
    done()
    ''', cmp={"*": "exact", "exp2": "ulp:2", "log2": "ulp:2", "erf": "ulp:2"}),
    # histogram with a mask; values outside [0, bins) are dropped (3.9 interpreter fix,
    # as on the GPU)
    P("histogram_mask_range", '''
    @triton.jit
    def k(X, H):
        o = tl.arange(0, 64)
        x = tl.load(X + o)
        tl.store(H + tl.arange(0, 8), tl.histogram(x, 8, mask=o < 50))
        tl.store(H + 8 + tl.arange(0, 8), tl.histogram(x, 8))

    x = torch.randint(-2, 11, (64,), dtype=torch.int32)
    h = torch.zeros(16, dtype=torch.int32)
    k[(1,)](x, h)
    out("h", h)
    done()
    '''),
    # 3.9 core.py load(pointer, mask=None, other=None, *, cache_modifier=..., volatile=...):
    # the cache/eviction/volatile arguments are keyword-only (3.6 took boundary_check there)
    P("load_store_keyword_only_refused", '''
    @triton.jit
    def k_pos(X, Y):
        o = tl.arange(0, 8)
        tl.store(Y + o, tl.load(X + o, None, None, ".ca"))

    @triton.jit
    def k_kw(X, Y):
        o = tl.arange(0, 8)
        tl.store(Y + o, tl.load(X + o, cache_modifier=".ca", volatile=True), cache_modifier=".wb")

    x = torch.randn(8)
    y = torch.zeros(8)
    expect_error("positional", lambda: k_pos[(1,)](x, y))
    k_kw[(1,)](x, y)
    out("y", y)
    done()
    '''),
]


# ---- comparison -------------------------------------------------------------

FLOAT_BITS = {"float16": np.uint16, "bfloat16": np.uint16, "float32": np.uint32, "float64": np.uint64,
              "float8_e4m3fn": np.uint8, "float8_e5m2": np.uint8}


def _as_float(bits, dtype):
    if dtype == "bfloat16":
        return (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    if dtype in ("float16", "float32", "float64"):
        return bits.view(np.dtype(dtype)).astype(np.float64)
    import ml_dtypes  # fp8
    return bits.view(getattr(ml_dtypes, dtype)).astype(np.float64)


def _ordered(bits, dtype):
    """Float bits as integers whose difference counts ulps (+0 and -0 both 0)."""
    u = bits.view(FLOAT_BITS[dtype]).astype(np.int64) if dtype in FLOAT_BITS else bits.astype(np.int64)
    width = np.dtype(FLOAT_BITS[dtype]).itemsize * 8
    if width == 64:  # avoid overflow: map through Python ints
        w = [int(v) & ((1 << 64) - 1) for v in u.ravel()]
        return np.array([(x if x < (1 << 63) else -(x - (1 << 63))) for x in w], dtype=object).reshape(u.shape)
    sign = (u >> (width - 1)) & 1
    mag = u & ((1 << (width - 1)) - 1)
    return np.where(sign == 1, -mag, mag)


def compare_one(key, a, b, dta, dtb, mode):
    """None when they agree under mode, else a description."""
    if dta != dtb:
        return "%s: dtype %s (Triton) vs %s (tritium)" % (key, dta, dtb)
    if a.shape != b.shape:
        return "%s: shape %s vs %s" % (key, a.shape, b.shape)
    if a.size == 0:
        return None
    if dta not in FLOAT_BITS:
        if a.dtype.kind in "US":
            return None if np.array_equal(a, b) else "%s: %r vs %r" % (key, a.item(), b.item())
        eq = a == b
        if eq.all():
            return None
        i = np.unravel_index(np.argmax(~eq), a.shape)
        d = np.abs(a.astype(np.float64) - b.astype(np.float64))
        return "%s: %d of %d elements differ; at %s Triton %s, tritium %s (largest |diff| %g)" % (
            key, (~eq).sum(), a.size, tuple(int(j) for j in i), a[i], b[i], d.max())
    fa, fb = _as_float(a, dta), _as_float(b, dta)
    nan_a, nan_b = np.isnan(fa), np.isnan(fb)
    if not np.array_equal(nan_a, nan_b):
        i = np.unravel_index(np.argmax(nan_a != nan_b), a.shape)
        return "%s: NaN positions differ; at %s Triton %r, tritium %r" % (key, tuple(int(j) for j in i), fa[i], fb[i])
    ok = ~nan_a
    oa, ob = _ordered(a, dta), _ordered(b, dta)
    ulps = np.where(ok, np.abs(oa - ob), 0).astype(np.float64)
    with np.errstate(invalid="ignore"):
        absd = np.where(ok & np.isfinite(fa) & np.isfinite(fb), np.abs(fa - fb), 0.0)
    if mode == "exact":
        bad = ok & (a != b)
    elif mode.startswith("ulp:"):
        bad = ok & (ulps > float(mode[4:]))
    elif mode.startswith("tol:"):
        rtol, atol = (float(v) for v in mode[4:].split(","))
        with np.errstate(invalid="ignore"):
            bad = ok & ~((fa == fb) | (np.abs(fa - fb) <= atol + rtol * np.abs(fb)))
    else:
        raise ValueError("unknown compare mode %r" % mode)
    if not bad.any():
        return None
    i = np.unravel_index(np.argmax(np.where(bad, ulps + 1, 0)), a.shape)
    return ("%s (%s): %d of %d elements differ; largest at %s: Triton %r, tritium %r (%d ulps; "
            "largest |diff| %g, %g ulps)" % (key, mode, bad.sum(), a.size, tuple(int(j) for j in i), fa[i], fb[i],
                                             ulps[i], absd.max(), ulps.max()))


def compare_ref(prog, rb):
    """A quirk row's check of tritium's outputs against the reference values the
    program computed on the host (outputs named ref_NAME)."""
    cmp = prog["cmp"] if isinstance(prog["cmp"], dict) else {"*": prog["cmp"]}
    problems = []
    for key in sorted(k for k in rb.files if k.startswith("ref_") and "@" not in k):
        name = key[4:]
        if name not in rb.files:
            problems.append("%s: no such output" % name)
            continue
        mode = "exact" if str(rb[name + "@dtype"]) == "bool" else cmp.get(name, cmp.get("*", "exact"))
        p = compare_one(name, rb[key], rb[name], str(rb[key + "@dtype"]), str(rb[name + "@dtype"]), mode)
        if p:
            problems.append("tritium vs the reference (Triton's compiler semantics): " +
                            p.replace("(Triton)", "(reference)").replace("Triton ", "reference "))
    return problems


def compare(prog, ra, rb):
    cmp = prog["cmp"] if isinstance(prog["cmp"], dict) else {"*": prog["cmp"]}
    keys_a = sorted(k for k in ra.files if "@" not in k and not k.startswith("ref_"))
    keys_b = sorted(k for k in rb.files if "@" not in k and not k.startswith("ref_"))
    problems, notes = [], []
    if keys_a != keys_b:
        problems.append("outputs differ: Triton %s, tritium %s" % (keys_a, keys_b))
    for key in keys_a:
        if key not in keys_b:
            continue
        if key.startswith("_"):
            va, vb = str(ra[key]), str(rb[key])
            notes.append("%s: Triton %s | tritium %s" % (key[1:], va, vb))
            continue
        p = compare_one(key, ra[key], rb[key], str(ra[key + "@dtype"]), str(rb[key + "@dtype"]),
                        cmp.get(key, cmp.get("*", "exact")))
        if p:
            problems.append(p)
        elif str(ra[key + "@dtype"]) in FLOAT_BITS and cmp.get(key, cmp.get("*")) not in (None, "exact"):
            dt = str(ra[key + "@dtype"])
            fa = _as_float(ra[key], dt)
            ok = ~np.isnan(fa)
            u = np.abs(_ordered(ra[key], dt) - _ordered(rb[key], dt))
            notes.append("%s: max %d ulps" % (key, int(np.max(np.where(ok, u, 0))) if u.size else 0))
    return problems, notes


# ---- running ------------------------------------------------------------------

def last_line(text):
    lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
    for ln in lines:  # a compiler-style diagnostic first
        if ": error: " in ln:
            return ln[:300]
    for ln in reversed(lines):  # else the exception line, not a caret line
        if ":" in ln and not ln.startswith(("File ", "^", "|")) and " | " not in ln[:8]:
            return ln[:300]
    return lines[-1][:300] if lines else "(no output)"


def run_side(prog_path, out_path, side, python, timeout):
    env = dict(os.environ)
    env["LANG39_OUT"] = out_path
    env.pop("TRITIUM_MODE", None)
    env.pop("TRITIUM_OPTIONS", None)
    if side == "triton":
        env["TRITON_INTERPRET"] = "1"
        cmd = [python, prog_path]
    else:
        env.pop("TRITON_INTERPRET", None)
        cmd = [python, "-m", "tritium", prog_path]
    try:
        p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout,
                           cwd=os.path.dirname(prog_path))
    except subprocess.TimeoutExpired:
        return None, "timed out after %ds" % timeout
    if p.returncode != 0 or not os.path.exists(out_path):
        return None, "exit %d: %s" % (p.returncode, last_line(p.stderr + "\n" + p.stdout))
    return np.load(out_path, allow_pickle=False), None


def run_program(prog, workdir, python, timeout):
    path = os.path.join(workdir, prog["name"] + ".py")
    with open(path, "w") as f:
        f.write(PRELUDE + "\n" + prog["src"])
    ra, ea = run_side(path, os.path.join(workdir, prog["name"] + ".triton.npz"), "triton", python, timeout)
    rb, eb = run_side(path, os.path.join(workdir, prog["name"] + ".tritium.npz"), "tritium", python, timeout)
    if ea or eb:
        msg = "; ".join(s for s in ("Triton: " + ea if ea else "", "tritium: " + eb if eb else "") if s)
        return "ERROR", [msg], []
    problems, notes = compare(prog, ra, rb)
    if prog["quirk"] and any(k.startswith("ref_") for k in rb.files):
        ref_problems = compare_ref(prog, rb)
        if ref_problems:
            return "DIFFER", ref_problems, ["Triton vs tritium: " + p for p in problems] + notes
        return ("QUIRK" if problems else "agree"), [], ["Triton vs tritium: " + p for p in problems] + notes
    return ("DIFFER" if problems else "agree"), problems, notes


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-k", action="append", default=[], help="run only features whose name contains this")
    ap.add_argument("-j", type=int, default=2, help="programs run at once (default 2)")
    ap.add_argument("--keep", metavar="DIR", help="write the programs and outputs here and keep them")
    ap.add_argument("--timeout", type=int, default=300, help="seconds per run (default 300)")
    ap.add_argument("-v", action="store_true", help="also print the notes of agreeing rows (ulps, exceptions)")
    args = ap.parse_args()

    os.environ.setdefault("TRITIUM_LIB", os.path.join(ROOT, "build", "api", "libtritium.so"))
    pp = os.environ.get("PYTHONPATH", "")
    if os.path.join(ROOT, "python") not in pp.split(os.pathsep):
        os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (os.path.join(ROOT, "python"), pp) if p)
    import importlib.metadata
    try:
        tv = importlib.metadata.version("triton")
    except importlib.metadata.PackageNotFoundError:
        sys.exit("lang39_vs_triton: this Python (%s) has no Triton" % sys.executable)
    if not tv.startswith("3.9"):
        print("lang39_vs_triton: warning: Triton %s, not 3.9" % tv, file=sys.stderr)

    progs = [p for p in PROGRAMS if not args.k or any(s in p["name"] for s in args.k)]
    workdir = args.keep or tempfile.mkdtemp(prefix="lang39-")
    os.makedirs(workdir, exist_ok=True)
    print("Triton %s (%s), tritium library %s; programs in %s" % (tv, sys.executable, os.environ["TRITIUM_LIB"],
                                                                  workdir))
    width = max(len(p["name"]) for p in progs)
    counts = {"agree": 0, "DIFFER": 0, "ERROR": 0, "QUIRK": 0}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.j)) as ex:
        futs = [ex.submit(run_program, p, workdir, sys.executable, args.timeout) for p in progs]
        for prog, fut in zip(progs, futs):
            status, problems, notes = fut.result()
            if status == "ERROR" and prog["quirk"] and "Triton:" in problems[0] and "tritium:" not in problems[0]:
                status = "QUIRK"
            counts[status] += 1
            print("%-*s  %s" % (width, prog["name"], status))
            if status == "QUIRK":
                print("%-*s    Triton interpreter quirk: %s" % (width, "", prog["quirk"]))
            for p in problems:
                print("%-*s    %s" % (width, "", p))
            if args.v or status != "agree":
                for n in notes:
                    print("%-*s    note: %s" % (width, "", n))
    print("summary: %d features: %d agree, %d differ, %d error, %d Triton interpreter quirk" % (
        len(progs), counts["agree"], counts["DIFFER"], counts["ERROR"], counts["QUIRK"]))
    if not args.keep:
        import shutil
        shutil.rmtree(workdir, ignore_errors=True)
    return 1 if counts["DIFFER"] or counts["ERROR"] else 0


if __name__ == "__main__":
    sys.exit(main())
