"""Writes the libdevice half of the conformance suite: one case per libdevice
overload of Triton 3.6, grouped into kernels by signature and tolerance.

Every overload listed in triton/language/extra/cuda/libdevice.py (parsed from
the installed triton) must have a reference below, or this script fails.
References are independent of tritium: mpmath at 50 digits for the
transcendental functions, exact rational/integer arithmetic (mpmath.libmp
with explicit rounding modes, Python ints) for the exact ones.

Writes kernels/libdevice_all.py, refs/ld_*.npy and prints the meson cases
(pasted into meson.build's `conformance_cases += [...]` block):
    python3 tests/conformance/make_libdevice.py > /tmp/cases.txt
"""
import ast
import math
import os
import struct

import mpmath
import numpy as np
from mpmath import libmp

import triton.language.extra.cuda.libdevice as ld_mod

HERE = os.path.dirname(os.path.abspath(__file__))
REFS = os.path.join(HERE, "refs")
N = 64
mpmath.mp.dps = 50
rng = np.random.default_rng(20261124)

NP = {"fp32": np.float32, "fp64": np.float64, "int32": np.int32, "uint32": np.uint32,
      "int64": np.int64, "uint64": np.uint64, "int1": np.int32}
SHORT = {"fp32": "f32", "fp64": "f64", "int32": "i32", "uint32": "u32", "int64": "i64", "uint64": "u64"}
PREC = {"fp32": 24, "fp64": 53}
RND = {"rn": libmp.round_nearest, "rz": libmp.round_down, "rd": libmp.round_floor, "ru": libmp.round_ceiling}


def overloads():
    """(name, argtypes, restype, to_int1) for every overload of libdevice.py."""
    src = open(ld_mod.__file__).read()
    out = []
    for f in ast.parse(src).body:
        if not isinstance(f, ast.FunctionDef):
            continue
        call = f.body[0].value
        to1 = False
        if isinstance(call.func, ast.Attribute) and call.func.attr == "to":
            to1, call = True, call.func.value
        d = call.args[3]
        for k, v in zip(d.keys, d.values):
            args = tuple(e.args[0].value for e in k.elts)
            out.append((f.name, args, "int1" if to1 else v.elts[1].args[0].value))
    return out


# ---- exact rounding with mpmath.libmp (no exponent limits: inputs keep the
# results normal) ----

def mpf(x):
    return libmp.from_float(float(x)) if not isinstance(x, (int, np.integer)) else libmp.from_int(int(x))


def to_float(m):
    return libmp.to_float(m)


def rounded(op, t, mode):
    def f(*a):
        return to_float(op(*[mpf(x) for x in a], PREC[t], RND[mode]))
    return f


def fma_exact(a, b, c, prec, rnd):
    return libmp.mpf_add(libmp.mpf_mul(a, b), c, prec, rnd)


def sat_int(v, lo, hi):
    if v is None:
        return 0
    return max(lo, min(hi, v))


def round_int(x, mode):
    if math.isnan(x):
        return None
    if math.isinf(x):
        return int(math.copysign(1 << 80, x))
    m = mpf(x)
    return int(libmp.to_int(m, RND[mode]))


# ---- mpmath references, rounded once to the result type ----

M = mpmath


def mp1(fn):
    return lambda x: float(fn(M.mpf(float(x))))


def mp2(fn):
    return lambda x, y: float(fn(M.mpf(float(x)), M.mpf(float(y))))


def lgamma(x):
    return float(M.log(abs(M.gamma(M.mpf(float(x))))))


def erfcinv(y):
    return float(M.erfinv(1 - M.mpf(float(y))))


def normcdfinv(p):
    return float(M.sqrt(2) * M.erfinv(2 * M.mpf(float(p)) - 1))


def bits_f32(x):
    return struct.unpack("<i", struct.pack("<f", float(x)))[0]


def bits_f64(x):
    return struct.unpack("<q", struct.pack("<d", float(x)))[0]


def wrap(v, bits, signed=True):
    v &= (1 << bits) - 1
    return v - (1 << bits) if signed and v >> (bits - 1) else v


def brev(v, bits):
    return int(format(v & ((1 << bits) - 1), f"0{bits}b")[::-1], 2)


def byte_perm(x, y, s):
    v = (y & 0xffffffff) << 32 | (x & 0xffffffff)
    return wrap(sum(((v >> (8 * ((s >> (4 * n)) & 7))) & 0xff) << (8 * n) for n in range(4)), 32)


def sx24(v):
    v &= 0xffffff
    return v - (1 << 24) if v & 0x800000 else v


# Domains: name -> list of input kinds per argument
U = "unit"         # (-1, 1)
P = "pos"          # (0.1, 10)
S = "sym"          # (-10, 10)
W = "wide"         # random mantissas, (-1e3, 1e3)
SMALLP = "p01"     # (0, 1)
B2 = "b2"          # (0, 2)
GE1 = "ge1"        # (1, 10)


def gen(kind, t, n=N):
    if t in ("int32", "int64", "uint32", "uint64"):
        bits = 32 if "32" in t else 64
        if kind == "small":
            return rng.integers(0, 8, n).astype(NP[t])
        if kind == "shift":
            return rng.integers(-20, 20, n).astype(NP[t])
        if kind == "order":
            return rng.integers(0, 6, n).astype(NP[t])
        if kind == "i24":
            return rng.integers(-(1 << 23), 1 << 23, n).astype(NP[t]) if t.startswith("int") else \
                rng.integers(0, 1 << 24, n).astype(NP[t])
        if kind == "intf":
            lim = 1 << 40 if bits == 64 else 1 << 30
            v = rng.integers(-lim, lim, n) if t.startswith("int") else rng.integers(0, 2 * lim, n)
            return v.astype(NP[t])
        info = np.iinfo(NP[t])
        v = rng.integers(info.min, info.max, n, dtype=NP[t], endpoint=True)
        v[:4] = [0, 1, info.max, info.min]
        return v
    f = NP[t]
    lo, hi = {U: (-0.99, 0.99), P: (0.1, 10), S: (-10, 10), W: (-1e3, 1e3), SMALLP: (0.01, 0.99), B2: (0.02, 1.98),
              GE1: (1.05, 10), "bes": (0.3, 7.5), "i0": (-20, 20), "exp": (-20, 20), "trig": (-3, 3),
              "big": (-1e9, 1e9), "sat": (-0.5, 1.5), "cx": (-3, 30), "d2i": (-3e9, 3e9), "gam": (0.2, 8),
              "f2ll": (-1e12, 1e12), "pw": (0.2, 4), "u": (0, 5e9)}[kind]
    v = rng.uniform(lo, hi, n).astype(f)
    if kind in (S, W, "trig", "big", "d2i", "f2ll"):
        v[:6] = np.array([0.5, -0.5, 1.5, -2.5, 3.0, 4.0], dtype=f)
    return v


def classify(x):
    return np.array([[math.isnan(float(v)), math.isinf(float(v))] for v in x])


SPECIAL = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -3.5, 1e-3])


def table():
    """name -> (domains, reference(*args) -> number, tolerance class). The
    reference receives Python floats/ints of the argument dtypes; `t` is the
    overload's argument dtypes, `r` the result's."""
    T = {}

    def add(name, dom, ref, tol):
        T[name] = (dom, ref, tol)

    for m in ("rn", "rz", "rd", "ru"):
        add("add_" + m, (W, W), lambda t, r, m=m: rounded(libmp.mpf_add, t[0], m), "exact")
        add("sub_" + m, (W, W), lambda t, r, m=m: rounded(libmp.mpf_sub, t[0], m), "exact")
        add("mul_" + m, (W, W), lambda t, r, m=m: rounded(libmp.mpf_mul, t[0], m), "exact")
        add("div_" + m, (W, W), lambda t, r, m=m: rounded(libmp.mpf_div, t[0], m), "exact")
        add("rcp_" + m, (W,), lambda t, r, m=m: (lambda x: rounded(libmp.mpf_div, t[0], m)(1.0, x)), "exact")
        add("sqrt_" + m, (P,), lambda t, r, m=m: rounded(libmp.mpf_sqrt, t[0], m), "exact")
        add("fma_" + m, (W, W, W), lambda t, r, m=m: rounded(fma_exact, t[0], m), "exact")
        add("double2float_" + m, (W,), lambda t, r, m=m: (lambda x: to_float(libmp.mpf_pos(mpf(x), 24, RND[m]))), "exact")
        add("double2int_" + m, ("d2i",), lambda t, r, m=m: (lambda x: sat_int(round_int(x, m), -2**31, 2**31 - 1)), "exact")
        add("double2uint_" + m, ("d2i",), lambda t, r, m=m: (lambda x: wrap(sat_int(round_int(x, m), 0, 2**32 - 1), 32)), "exact")
        add("float2int_" + m, ("d2i",), lambda t, r, m=m: (lambda x: sat_int(round_int(x, m), -2**31, 2**31 - 1)), "exact")
        add("float2uint_" + m, ("d2i",), lambda t, r, m=m: (lambda x: wrap(sat_int(round_int(x, m), 0, 2**32 - 1), 32)), "exact")
        add("float2ll_" + m, ("f2ll",), lambda t, r, m=m: (lambda x: sat_int(round_int(x, m), -2**63, 2**63 - 1)), "exact")
        add("float2ull_" + m, ("f2ll",), lambda t, r, m=m: (lambda x: wrap(sat_int(round_int(x, m), 0, 2**64 - 1), 64)), "exact")
        add("double2ll_" + m, ("f2ll",), lambda t, r, m=m: (lambda x: sat_int(round_int(x, m), -2**63, 2**63 - 1)), "exact")
        add("double2ull_" + m, ("f2ll",), lambda t, r, m=m: (lambda x: wrap(sat_int(round_int(x, m), 0, 2**64 - 1), 64)), "exact")
        for nm, p in (("int2float_", 24), ("uint2float_", 24), ("ll2float_", 24), ("ull2float_", 24),
                      ("ll2double_", 53), ("ull2double_", 53)):
            add(nm + m, ("any",), lambda t, r, m=m, p=p: (lambda x: to_float(libmp.mpf_pos(mpf(int(x)), p, RND[m]))), "exact")
    add("int2double_rn", ("any",), lambda t, r: float, "exact")
    add("uint2double_rn", ("any",), lambda t, r: float, "exact")
    add("rsqrt_rn", (P,), lambda t, r: (lambda x: float(np.float32(M.mpf(1) / M.sqrt(M.mpf(float(x)))))), "exact")
    add("rcp64h", (W,), lambda t, r: (lambda x: 1.0 / x), "loose")
    add("int_as_float", ("any",), lambda t, r: (lambda x: float(np.array([x], np.int32).view(np.float32)[0])), "bits")
    add("uint_as_float", ("any",), lambda t, r: (lambda x: float(np.array([x], np.uint32).view(np.float32)[0])), "bits")
    add("float_as_int", (W,), lambda t, r: bits_f32, "exact")
    add("float_as_uint", (W,), lambda t, r: bits_f32, "exact")
    add("longlong_as_double", ("intf",), lambda t, r: (lambda x: float(np.array([x], np.int64).view(np.float64)[0])), "exact")
    add("double_as_longlong", (W,), lambda t, r: bits_f64, "exact")
    add("double2loint", (W,), lambda t, r: (lambda x: wrap(bits_f64(x), 32)), "exact")
    add("double2hiint", (W,), lambda t, r: (lambda x: wrap(bits_f64(x) >> 32, 32)), "exact")
    add("hiloint2double", ("any", "any"), lambda t, r: (lambda h, l: float(np.array([((h & 0xffffffff) << 32) | (l & 0xffffffff)],
                                                                                      np.uint64).view(np.float64)[0])), "bits")
    bitsz = lambda t: 32 if "32" in t[0] else 64
    add("popc", ("any",), lambda t, r: (lambda x: bin(int(x) & ((1 << bitsz(t)) - 1)).count("1")), "exact")
    add("clz", ("any",), lambda t, r: (lambda x: bitsz(t) - (int(x) & ((1 << bitsz(t)) - 1)).bit_length()), "exact")
    add("ffs", ("any",), lambda t, r: (lambda x: ((int(x) & -int(x)).bit_length())), "exact")
    add("brev", ("any",), lambda t, r: (lambda x: wrap(brev(int(x), bitsz(t)), bitsz(t))), "exact")
    add("byte_perm", ("any", "any", "any"), lambda t, r: byte_perm, "exact")
    add("mulhi", ("any", "any"), lambda t, r: (lambda x, y: wrap((int(x) * int(y)) >> bitsz(t), bitsz(t), t[0].startswith("int"))), "exact")
    add("mul24", ("i24", "i24"), lambda t, r: (lambda x, y: wrap(sx24(x) * sx24(y), 32, True) if t[0] == "int32"
                                               else wrap((x & 0xffffff) * (y & 0xffffff), 32, False)), "exact")
    add("sad", ("any", "any", "any"), lambda t, r: (lambda x, y, z: wrap(abs(int(x) - int(y)) + int(z), 32, t[0] == "int32")), "exact")
    add("hadd", ("any", "any"), lambda t, r: (lambda x, y: (int(x) + int(y)) >> 1), "exact")
    add("rhadd", ("any", "any"), lambda t, r: (lambda x, y: (int(x) + int(y) + 1) >> 1), "exact")
    add("abs", (S,), lambda t, r: (lambda x: abs(x) if t[0].startswith("fp") else wrap(abs(int(x)), bitsz(t))), "exact")
    add("floor", (W,), lambda t, r: math.floor, "exact")
    add("ceil", (W,), lambda t, r: math.ceil, "exact")
    add("trunc", (W,), lambda t, r: math.trunc, "exact")
    add("round", (W,), lambda t, r: (lambda x: math.copysign(math.floor(abs(x) + 0.5), x)), "exact")
    add("rint", (W,), lambda t, r: (lambda x: float(round(x))), "exact")
    add("nearbyint", (W,), lambda t, r: (lambda x: float(round(x))), "exact")
    add("llrint", ("f2ll",), lambda t, r: (lambda x: round(x)), "exact")
    add("llround", ("f2ll",), lambda t, r: (lambda x: int(math.copysign(math.floor(abs(x) + 0.5), x))), "exact")
    add("saturatef", ("sat",), lambda t, r: (lambda x: min(max(x, 0.0), 1.0)), "exact")
    add("isnan", ("special",), lambda t, r: (lambda x: int(math.isnan(x))), "exact")
    add("isinf", ("special",), lambda t, r: (lambda x: int(math.isinf(x))), "exact")
    add("finitef", ("special",), lambda t, r: (lambda x: int(math.isfinite(x))), "exact")
    add("isfinited", ("special",), lambda t, r: (lambda x: int(math.isfinite(x))), "exact")
    add("signbit", ("special",), lambda t, r: (lambda x: int(math.copysign(1, x) < 0)), "exact")
    add("copysign", (S, S), lambda t, r: math.copysign, "exact")
    add("nextafter", (S, S), lambda t, r: (lambda x, y: float(np.nextafter(NP[t[0]](x), NP[t[0]](y)))), "exact")
    add("fdim", (S, S), lambda t, r: (lambda x, y: x - y if x > y else 0.0), "exact")
    add("fmod", (W, S), lambda t, r: math.fmod, "exact")
    add("remainder", (W, S), lambda t, r: math.remainder, "exact")
    add("ldexp", (S, "shift"), lambda t, r: (lambda x, e: math.ldexp(x, int(e))), "exact")
    add("scalbn", (S, "shift"), lambda t, r: (lambda x, e: math.ldexp(x, int(e))), "exact")
    add("ilogb", (W,), lambda t, r: (lambda x: math.frexp(x)[1] - 1), "exact")
    add("logb", (W,), lambda t, r: (lambda x: float(math.frexp(x)[1] - 1)), "exact")
    # transcendental: mpmath, rounded once
    acc = "acc"
    add("exp", ("exp",), lambda t, r: mp1(M.exp), acc)
    add("exp2", ("exp",), lambda t, r: mp1(lambda x: 2 ** x), acc)
    add("exp10", ("trig",), lambda t, r: mp1(lambda x: 10 ** x), acc)
    add("expm1", ("trig",), lambda t, r: mp1(M.expm1), acc)
    add("log", (P,), lambda t, r: mp1(M.log), acc)
    add("log2", (P,), lambda t, r: mp1(lambda x: M.log(x, 2)), acc)
    add("log10", (P,), lambda t, r: mp1(M.log10), acc)
    add("log1p", (P,), lambda t, r: mp1(M.log1p), acc)
    add("sqrt", (P,), lambda t, r: mp1(M.sqrt), acc)
    add("rsqrt", (P,), lambda t, r: mp1(lambda x: 1 / M.sqrt(x)), acc)
    add("cbrt", (S,), lambda t, r: mp1(lambda x: M.sign(x) * M.cbrt(abs(x))), acc)
    add("rcbrt", (P,), lambda t, r: mp1(lambda x: 1 / M.cbrt(x)), acc)
    add("sin", ("trig",), lambda t, r: mp1(M.sin), acc)
    add("cos", ("trig",), lambda t, r: mp1(M.cos), acc)
    add("tan", (U,), lambda t, r: mp1(M.tan), acc)
    add("sinpi", (S,), lambda t, r: mp1(M.sinpi), acc)
    add("cospi", (S,), lambda t, r: mp1(M.cospi), acc)
    add("asin", (U,), lambda t, r: mp1(M.asin), acc)
    add("acos", (U,), lambda t, r: mp1(M.acos), acc)
    add("atan", (S,), lambda t, r: mp1(M.atan), acc)
    add("atan2", (S, S), lambda t, r: mp2(M.atan2), acc)
    add("sinh", ("trig",), lambda t, r: mp1(M.sinh), acc)
    add("cosh", ("trig",), lambda t, r: mp1(M.cosh), acc)
    add("tanh", ("trig",), lambda t, r: mp1(M.tanh), acc)
    add("asinh", (S,), lambda t, r: mp1(M.asinh), acc)
    add("acosh", (GE1,), lambda t, r: mp1(M.acosh), acc)
    add("atanh", (U,), lambda t, r: mp1(M.atanh), acc)
    add("pow", ("pw", "pw"), lambda t, r: (lambda x, y: float(M.power(M.mpf(float(x)), int(y) if t[1] == "int32" else M.mpf(float(y))))), acc)
    add("hypot", (S, S), lambda t, r: mp2(M.hypot), acc)
    add("rhypot", (S, S), lambda t, r: mp2(lambda x, y: 1 / M.hypot(x, y)), acc)
    norm = lambda *a: M.sqrt(sum(M.mpf(float(v)) ** 2 for v in a))
    add("norm3d", (S, S, S), lambda t, r: (lambda *a: float(norm(*a))), acc)
    add("rnorm3d", (S, S, S), lambda t, r: (lambda *a: float(1 / norm(*a))), acc)
    add("norm4d", (S, S, S, S), lambda t, r: (lambda *a: float(norm(*a))), acc)
    add("rnorm4d", (S, S, S, S), lambda t, r: (lambda *a: float(1 / norm(*a))), acc)
    add("erf", ("trig",), lambda t, r: mp1(M.erf), acc)
    add("erfc", ("trig",), lambda t, r: mp1(M.erfc), acc)
    add("erfinv", (U,), lambda t, r: mp1(M.erfinv), acc)
    add("erfcinv", (B2,), lambda t, r: erfcinv, acc)
    add("erfcx", ("cx",), lambda t, r: mp1(lambda x: M.exp(x * x) * M.erfc(x)), acc)
    add("normcdf", (S,), lambda t, r: mp1(M.ncdf), acc)
    add("normcdfinv", (SMALLP,), lambda t, r: normcdfinv, acc)
    special = "special_fn"
    add("lgamma", ("gam",), lambda t, r: lgamma, special)
    add("tgamma", ("gam",), lambda t, r: mp1(M.gamma), special)
    add("j0", ("bes",), lambda t, r: mp1(lambda x: M.besselj(0, x)), special)
    add("j1", ("bes",), lambda t, r: mp1(lambda x: M.besselj(1, x)), special)
    add("y0", ("bes",), lambda t, r: mp1(lambda x: M.bessely(0, x)), special)
    add("y1", ("bes",), lambda t, r: mp1(lambda x: M.bessely(1, x)), special)
    add("jn", ("order", "bes"), lambda t, r: (lambda n, x: float(M.besselj(int(n), M.mpf(float(x))))), special)
    add("yn", ("order", "bes"), lambda t, r: (lambda n, x: float(M.bessely(int(n), M.mpf(float(x))))), special)
    add("cyl_bessel_i0", ("i0",), lambda t, r: mp1(lambda x: M.besseli(0, x)), special)
    add("cyl_bessel_i1", ("i0",), lambda t, r: mp1(lambda x: M.besseli(1, x)), special)
    add("fma", (S, S, S), lambda t, r: rounded(fma_exact, t[0], "rn"), "exact")
    fast = "fast"
    add("fast_sinf", ("trig",), lambda t, r: mp1(M.sin), fast)
    add("fast_cosf", ("trig",), lambda t, r: mp1(M.cos), fast)
    add("fast_tanf", (U,), lambda t, r: mp1(M.tan), fast)
    add("fast_expf", ("trig",), lambda t, r: mp1(M.exp), fast)
    add("fast_exp10f", (U,), lambda t, r: mp1(lambda x: 10 ** x), fast)
    add("fast_logf", (P,), lambda t, r: mp1(M.log), fast)
    add("fast_log2f", (P,), lambda t, r: mp1(lambda x: M.log(x, 2)), fast)
    add("fast_log10f", (P,), lambda t, r: mp1(M.log10), fast)
    add("fast_powf", ("pw", "pw"), lambda t, r: mp2(M.power), fast)
    add("fast_dividef", (S, P), lambda t, r: (lambda x, y: x / y), fast)
    return T


# tolerance per class and result dtype: (rtol, atol). The GPU half compares
# libdevice against the same references, so these cover libdevice's
# documented bounds (CUDA C Programming Guide) too.
TOL = {
    ("exact", "f32"): (0, 0), ("exact", "f64"): (0, 0), ("bits", "f32"): (0, 0), ("bits", "f64"): (0, 0),
    ("acc", "f32"): (1e-6, 1e-7), ("acc", "f64"): (3e-15, 1e-300),
    ("special_fn", "f32"): (4e-6, 4e-6), ("special_fn", "f64"): (1e-13, 5e-12),
    ("fast", "f32"): (2e-5, 4e-6), ("loose", "f64"): (1e-4, 0),
}


def mathops():
    """References of kernels/mathops.py (numpy; written by hand, not generated)."""
    r = np.random.default_rng(7)
    x = r.uniform(-4, 4, N).astype(np.float32)
    y = r.uniform(0.25, 4, N).astype(np.float32) * np.where(r.random(N) < 0.5, -1, 1).astype(np.float32)
    np.save(os.path.join(REFS, "mathops_x.npy"), x)
    np.save(os.path.join(REFS, "mathops_y.npy"), y)
    f = np.float32
    with np.errstate(all="ignore"):
        rows = [x / y, x / f(3), x / y, x / y, np.sqrt(np.abs(x)), np.sqrt(np.abs(y)),
                [float(M.tanh(M.mpf(float(v)))) for v in x], x.astype(np.float64) ** 3,
                [float(M.erf(M.mpf(float(v)))) for v in y], np.fmod(x, f(1.5))]
    np.save(os.path.join(REFS, "mathops_rn.npy"), np.array([np.asarray(v, dtype=np.float64) for v in rows]).astype(np.float32))
    # NaNs on both sides, never both at once
    xn, yn = x.copy(), y.copy()
    xn[::5] = np.nan
    yn[2::7] = np.nan
    np.save(os.path.join(REFS, "mathops_xn.npy"), xn)
    np.save(os.path.join(REFS, "mathops_yn.npy"), yn)
    with np.errstate(all="ignore"):
        rows = [np.fmin(xn, yn), np.minimum(xn, yn), np.fmax(xn, yn), np.maximum(xn, yn),
                np.fmin(np.fmax(xn, f(-0.5)), f(0.5)), np.minimum(np.maximum(xn, yn - f(1)), yn + f(1))]
    np.save(os.path.join(REFS, "mathops_nan.npy"), np.array(rows, dtype=np.float32))
    # float atomic_max / atomic_min from 4 programs over initial values
    g = r.uniform(-8, 8, (4, 32)).astype(np.float32)
    init = r.uniform(-8, 8, 32).astype(np.float32)
    np.save(os.path.join(REFS, "atom_x.npy"), g)
    np.save(os.path.join(REFS, "atom_init.npy"), init)
    np.save(os.path.join(REFS, "atom_max.npy"), np.maximum(init, g.max(axis=0)))
    mn = np.minimum(init, g.min(axis=0))
    mn[-2:] = init[-2:]
    np.save(os.path.join(REFS, "atom_min.npy"), mn)
    np.save(os.path.join(REFS, "atom_max1.npy"), np.maximum(init, g[0]))
    mn1 = np.minimum(init, g[0])
    mn1[-2:] = init[-2:]
    np.save(os.path.join(REFS, "atom_min1.npy"), mn1)
    old = init.copy()
    old[-2:] = 0
    np.save(os.path.join(REFS, "atom_old1.npy"), old)


def main():
    os.makedirs(REFS, exist_ok=True)
    mathops()
    T = table()
    groups = {}   # (argtypes, restype, tol) -> [(name, inputs, ref)]
    missing = []
    for name, args, res in overloads():
        print(name, args, file=__import__("sys").stderr) if os.environ.get("MAKE_LIBDEVICE_DEBUG") else None
        if name not in T:
            missing.append(name)
            continue
        dom, mk, tol = T[name]
        ins = []
        for i, t in enumerate(args):
            kind = dom[i] if i < len(dom) else dom[-1]
            if kind == "any" and t.startswith("fp"):
                kind = W
            if kind == "special":
                v = np.resize(SPECIAL, N).astype(NP[t])
            elif kind in ("intf", "any", "small", "shift", "order", "i24") or not t.startswith("fp"):
                v = gen(kind if not t.startswith("fp") else W, t)
            else:
                v = gen(kind, t)
            if kind == "pw" and t == "int32":
                v = rng.integers(-4, 6, N).astype(np.int32)
            ins.append(v)
        ref = mk(args, res)
        out = []
        for j in range(N):
            a = [x[j].item() for x in ins]
            out.append(ref(*a))
        rt = "int32" if res == "int1" else res
        groups.setdefault((args, rt, tol), []).append((name, ins, np.array(out, dtype=object)))
    if missing:
        raise SystemExit("no reference for: " + ", ".join(sorted(set(missing))))
    kern = ['"""libdevice conformance kernels, generated by make_libdevice.py: one kernel',
            'per signature and tolerance class, one row of Out per libdevice overload."""',
            "import triton", "import triton.language as tl",
            "from triton.language.extra import libdevice", ""]
    cases = []
    for gi, ((args, rt, tol), fns) in enumerate(sorted(groups.items(), key=lambda kv: str(kv[0]))):
        kname = "ld_%s_%s_%s" % ("_".join(SHORT[a] for a in args), SHORT[rt], tol)
        params = ", ".join(["A%d" % i for i in range(len(args))] + ["Out", "BLOCK: tl.constexpr"])
        kern += ["", "@triton.jit", "def %s(%s):" % (kname, params),
                 "    offs = tl.arange(0, BLOCK)"]
        for k, (name, ins, out) in enumerate(fns):
            loads = ", ".join("tl.load(A%d + %d * BLOCK + offs)" % (i, k) for i in range(len(args)))
            expr = "libdevice.%s(%s)" % (name, loads)
            if rt == "int32" and any(n == name for n in ("isnan", "isinf", "finitef", "isfinited")):
                expr += ".to(tl.int32)"
            kern.append("    tl.store(Out + %d * BLOCK + offs, %s)" % (k, expr))
        argv = ["kernels/libdevice_all.py:" + kname, "--grid", "1"]
        for i, t in enumerate(args):
            arr = np.stack([f[1][i] for f in fns])
            fn = "ld_%s_a%d" % (kname[3:], i)
            np.save(os.path.join(REFS, fn + ".npy"), arr)
            argv += ["--arg", "A%d=refs/%s.npy" % (i, fn)]
        ref = np.stack([np.array(list(f[2]), dtype=NP[rt]) for f in fns])
        rn = "ld_%s_out" % kname[3:]
        np.save(os.path.join(REFS, rn + ".npy"), ref)
        rtol, atol = TOL.get((tol, SHORT.get(rt, "f32")), (0, 0))
        argv += ["--arg", "Out=empty:%s[%d,%d]" % (SHORT[rt], len(fns), N), "--const", "BLOCK=%d" % N,
                 "--expect", "Out=refs/%s.npy,rtol=%g,atol=%g" % (rn, rtol, atol)]
        cases.append((kname, argv))
    with open(os.path.join(HERE, "kernels", "libdevice_all.py"), "w") as f:
        f.write("\n".join(kern) + "\n")
    print("conformance_cases += [")
    for name, argv in cases:
        print("  [%r, %r]," % (name, argv))
    print("]")


if __name__ == "__main__":
    main()
