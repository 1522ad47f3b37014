"""Writes the conformance suite's inputs and numpy references (refs/*.npy).

The references are computed here with numpy / ml_dtypes, independently of
tritium; CI only reads the committed files. Run from anywhere:
    python3 tests/conformance/make_refs.py
"""
import os
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REFS = os.path.join(HERE, "refs")
rng = np.random.default_rng(1234)


def save(name, a):
    np.save(os.path.join(REFS, name + ".npy"), a)


def none_args():
    x = rng.standard_normal(37).astype(np.float32)
    w = rng.standard_normal(37).astype(np.float32)
    b = rng.standard_normal(37).astype(np.float32)
    save("none_x", x)
    save("none_w", w)
    save("none_b", b)
    save("none_y_nowb", x + np.float32(1))          # W=None, B default None
    save("none_y_wb", x * w + b)                    # both given
    save("none_y_w", x * w + np.float32(1))         # W given, B None


def imports():
    x = np.load(os.path.join(REFS, "none_x.npy"))[:32]
    f = np.float32
    sig = f(1) / (f(1) + np.exp(-x))
    a = x * sig
    b = (x * sig) * f(3)
    c = x * f(3) * f(0.5)
    d = (x + x) + f(3)
    e = x + f(0.5)
    g = (x * f(2)).astype(np.float16).astype(np.float32)
    save("imports_y", ((((((a + b) + c) + d) + e) + f(4)) + g).astype(np.float32))
    x16 = np.load(os.path.join(REFS, "none_x.npy"))[:16]
    save("functional_y", x16 * f(2) + f(16))


def control():
    save("group_min_y", np.array([3, 3], dtype=np.int32))        # min(8, cdiv(40, 16))
    x = np.arange(1, 5, dtype=np.float32) * np.float32(1.5)
    save("early_x", x)
    n = 1
    y = np.zeros(4, dtype=np.float32)
    for pid in range(4):
        if pid < 2:
            if n > pid:
                continue                      # returned: Y keeps its 0
            y[pid] = 5
        m = pid + n
        v = x[pid] * 2 if m > 4 else x[pid] + 1
        y[pid] = v + (m if m > 4 else m + 1)
    save("early_y", y)
    save("host_helpers_y", np.full(5, 8 * 100 + 2, dtype=np.int32))   # next_power_of_2(5), cdiv(5, 4)


def dot_precision():
    a = rng.standard_normal((16, 64)).astype(np.float32)
    b = rng.standard_normal((64, 16)).astype(np.float32)
    save("dot_a", a)
    save("dot_b", b)

    def trunc13(x):
        return (x.view(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32)

    exact = (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)
    tf32 = (trunc13(a).astype(np.float64) @ trunc13(b).astype(np.float64)).astype(np.float32)
    save("dot_ieee", exact)
    save("dot_tf32", tf32)


def dtypes():
    # the reference is Triton's own dtype class (triton/language/core.py)
    import triton.language as tl
    xd, yd, bd = tl.float32, tl.uint16, tl.int8
    vals = [
        xd.is_floating(), xd.is_fp32(), xd.is_fp16(), xd.is_int(), xd.primitive_bitwidth,
        xd.fp_mantissa_width, xd.exponent_bias, yd.is_int_signed(), yd.is_int_unsigned(), yd.int_bitwidth,
        bd.get_int_max_value(), bd.get_int_min_value(), tl.uint16.get_int_max_value(), tl.pointer_type(xd).is_ptr(),
        tl.bfloat16.is_standard_floating(), tl.int1.is_int_unsigned(), tl.float16.itemsize, xd.is_fp8(),
    ]
    save("dtype_queries", np.array([int(v) for v in vals], dtype=np.int32))
    save("ptr_bitcast", np.array([np.dtype(np.float32).itemsize, 0], dtype=np.int64))


def bf16_io():
    import ml_dtypes
    x = rng.standard_normal(50).astype(ml_dtypes.bfloat16)
    save("bf16_x", x)
    save("bf16_y", (x.astype(np.float32) * np.float32(3) + np.float32(0.25)).astype(ml_dtypes.bfloat16))


def standard():
    # tl.swizzle2d: standard.py's formula, checked against its docstring's
    # example, then on an 8x4 block of a 7-row matrix, groups of 3 rows
    def swizzle(rows, size_i, size_j, size_g):
        i, j = np.meshgrid(np.arange(rows), np.arange(size_j), indexing="ij")
        ij = i * size_j + j
        off = ij // (size_g * size_j) * size_g
        g = np.minimum(size_i - off, size_g)
        r = ij % (size_g * size_j)
        return (off + r % g).astype(np.int32), (r // g).astype(np.int32)
    ni, nj = swizzle(4, 4, 4, 2)
    doc = np.array([[0, 2, 4, 6], [1, 3, 5, 7], [8, 10, 12, 14], [9, 11, 13, 15]])
    assert ((ni * 4 + nj).ravel().argsort().reshape(4, 4) == doc).all()
    ni, nj = swizzle(8, 7, 4, 3)
    save("swizzle_i", ni)
    save("swizzle_j", nj)
    # tl.reduce_or over rows and columns
    x = rng.integers(0, 1 << 20, size=(8, 16), dtype=np.int32) & rng.integers(0, 1 << 20, size=(8, 16), dtype=np.int32)
    save("reduce_or_x", x)
    save("reduce_or_rows", np.bitwise_or.reduce(x, axis=1))
    save("reduce_or_cols", np.bitwise_or.reduce(x, axis=0, keepdims=True))
    # tl.softmax along dim 1 and along the default dim 0
    s = rng.standard_normal((8, 16)).astype(np.float32) * np.float32(4)
    save("softmax_x", s)
    for name, d in (("softmax_rows", 1), ("softmax_cols", 0)):
        e = np.exp(s.astype(np.float64) - s.max(axis=d, keepdims=True))
        save(name, (e / e.sum(axis=d, keepdims=True)).astype(np.float32))


def shape():
    # sort / topk / bitonic_merge (standard.py) against np.sort
    x = rng.standard_normal((8, 32)).astype(np.float32)
    save("sort_f32_x", x)
    save("sort_f32_asc", np.sort(x, axis=1))
    save("sort_f32_desc", -np.sort(-x, axis=1))
    xi = rng.integers(-50, 50, size=(16, 16), dtype=np.int32)      # many ties
    save("sort_i32_x", xi)
    save("sort_i32_asc", np.sort(xi, axis=1))
    save("sort_i32_desc", -np.sort(-xi, axis=1))
    xh = rng.standard_normal(64).astype(np.float16)
    save("sort_f16_x", xh)
    save("sort_f16_desc", np.sort(xh)[::-1].copy())
    xt = rng.standard_normal((4, 64)).astype(np.float32)
    save("topk_x", xt)
    save("topk_y", -np.sort(-xt, axis=1)[:, :8])
    up = np.sort(rng.integers(0, 1000, size=(4, 8), dtype=np.int32), axis=1)
    down = -np.sort(-rng.integers(0, 1000, size=(4, 8), dtype=np.int32), axis=1)
    bit = np.concatenate([up, down], axis=1)                       # bitonic rows
    save("bitonic_x", bit)
    save("bitonic_asc", np.sort(bit, axis=1))
    save("bitonic_desc", -np.sort(-bit, axis=1))
    # flip along each dim of a 3-D tile, f16 and i32
    f3 = rng.standard_normal((2, 4, 8)).astype(np.float16)
    save("flip_f16_x", f3)
    save("flip_f16_d1", np.flip(f3, 1).copy())
    i3 = rng.integers(-1 << 30, 1 << 30, size=(2, 4, 8), dtype=np.int32)
    save("flip_i32_x", i3)
    save("flip_i32_d0", np.flip(i3, 0).copy())
    save("flip_i32_dm1", np.flip(i3, -1).copy())
    # join / split / interleave against np.stack
    a = rng.standard_normal((4, 8)).astype(np.float32)
    b = rng.standard_normal((4, 8)).astype(np.float32)
    save("join_a", a)
    save("join_b", b)
    save("join_ab", np.stack([a, b], axis=-1))
    save("interleave_ab", np.stack([a, b], axis=-1).reshape(4, 16))
    save("join_scalars", np.array([3, 4, 40, 30], dtype=np.int32))
    # cat against np.concatenate (sorted: Triton's cat may reorder elements)
    ca = rng.integers(-100, 100, size=16, dtype=np.int32)
    cb = rng.integers(-100, 100, size=16, dtype=np.int32)
    save("cat_a", ca)
    save("cat_b", cb)
    save("cat_ab", np.sort(np.concatenate([ca, cb])))              # tl.cat may reorder: sorted
    # gather against np.take_along_axis, along axis 1 and axis 0
    src = rng.standard_normal((4, 16)).astype(np.float32)
    idx = rng.integers(0, 16, size=(4, 8), dtype=np.int32)
    save("gather_src", src)
    save("gather_idx", idx)
    save("gather_ax1", np.take_along_axis(src, idx, axis=1))
    save("gather_ax0", np.take_along_axis(src[:, :8], idx % 4, axis=0))
    # histogram against np.bincount, with and without a mask
    hx = rng.integers(0, 16, size=64, dtype=np.int32)
    save("hist_x", hx)
    save("hist_all", np.bincount(hx, minlength=16).astype(np.int32))
    save("hist_masked", np.bincount(hx[:40], minlength=16).astype(np.int32))
    # broadcast and map_elementwise against numpy broadcasting
    ba = rng.standard_normal(8).astype(np.float32)
    bb = rng.standard_normal(16).astype(np.float32)
    save("bcast_a", ba)
    save("bcast_b", bb)
    save("bcast_diff", ba[:, None] - bb[None, :])
    save("map_affine", ba[:, None] * bb[None, :] + np.float32(0.5))
    # map_elementwise with a branch per element and pack=2: sign, C-style // and %
    mx = rng.integers(-50, 50, size=64, dtype=np.int32)
    my = rng.integers(-9, 10, size=64, dtype=np.int32)
    my[my == 0] = 3
    my[:6] = mx[:6]                                                # some equal pairs
    save("map_x", mx)
    save("map_y", my)
    save("map_cmp", np.sign(mx - my).astype(np.int32))
    q = np.trunc(mx / my).astype(np.int32)
    save("map_div", q)
    save("map_mod", (mx - q * my).astype(np.int32))


def fp8():
    """fp8 conversions as Triton 3.6 compiles them (PTX cvt .satfinite for
    fp8e4nv/fp8e5, AMD's saturating RTNE for the fnuz types, the
    convert_custom_float8 rule for fp8e4b15); values from ml_dtypes'
    round-to-nearest-even casts with saturation applied here."""
    import ml_dtypes as md
    r8 = np.random.default_rng(8)
    f32 = np.float32
    types = {"e4nv": md.float8_e4m3fn, "e5": md.float8_e5m2, "e4b8": md.float8_e4m3fnuz, "e5b16": md.float8_e5m2fnuz}
    maxes = {"e4nv": 448.0, "e5": 57344.0, "e4b8": 240.0, "e5b16": 57344.0}
    # inputs: specials, every midpoint between neighbouring values of each
    # format (ties) and its neighbours, random values at several scales
    sp = [0.0, -0.0, 1.0, -1.0, 0.3, 448.0, 464.0, 479.0, 480.0, 500.0, 1e6, np.inf, -np.inf, np.nan, 57344.0,
          61439.0, 61440.0, 65504.0, 70000.0, 1e-9, 2.0 ** -9, 2.0 ** -10, 1.5 * 2.0 ** -10, 2.0 ** -16,
          2.0 ** -17, 2.0 ** -18, 1.75, 1.8, 1.8125, 1.875, 1.9, 240.0, 248.0, 250.0, 3e38, -3e38]
    vals = [sp]
    for t in types.values():
        v = np.arange(256, dtype=np.uint8).view(t).astype(np.float64)
        v = np.unique(v[np.isfinite(v) & (v >= 0)])
        mid = ((v[1:] + v[:-1]) / 2).astype(f32)
        vals += [mid, np.nextafter(mid, f32(0)), np.nextafter(mid, f32(np.inf))]
    vals += [r8.standard_normal(128) * s for s in (1.0, 100.0, 1e-3, 3e4)]
    x = np.concatenate([np.asarray(a, dtype=f32) for a in vals])
    x = np.concatenate([x, -x[: len(x) // 2]])
    save("fp8_x", x)
    with np.errstate(over="ignore", invalid="ignore"):
        save("fp8_x16", x.astype(np.float16))
        save("fp8_xbf16", x.astype(md.bfloat16))
        for name, t in types.items():
            for src, xs in (("", x), ("16", x.astype(np.float16).astype(f32)),
                            ("bf16", x.astype(md.bfloat16).astype(f32))):
                y = np.clip(xs, -maxes[name], maxes[name]).astype(t)       # satfinite: inf -> max
                if name in ("e4b8", "e5b16"):
                    y[np.isinf(xs)] = np.nan                                # fnuz: inf -> NaN
                save("fp8_%s_from%s" % (name, src or "32"), y)
        # fp8e4b15 (no ml_dtypes type): min(|x|, 1.75) (NaN -> 1.75), round half
        # away from zero to 3 mantissa bits, bias 15, the sign kept; as bytes
        for src, xs in (("32", x.astype(np.float64)), ("16", x.astype(np.float16).astype(np.float64))):
            a = np.where(np.isnan(xs), 1.75, np.minimum(np.abs(np.nan_to_num(xs, posinf=2.0, neginf=-2.0)), 1.75))
            e = np.maximum(np.floor(np.log2(np.where(a > 0, a, 1.0))), -14)
            q = np.floor(a / 2.0 ** (e - 3) + 0.5)
            sub = e == -14
            code = np.where(a == 0, 0, np.where(sub & (q < 8), q, (e + 15) * 8 + q - 8)).astype(np.uint8)
            # a float32 NaN goes through cvt.rz.f16.f32, whose NaN is positive
            neg = np.signbit(xs) & ~(np.isnan(xs) & (src == "32"))
            code |= np.where(neg, 0x80, 0).astype(np.uint8)
            save("fp8_e4b15_from" + src, code)
        # rtz: f32 -> f16 / bf16 / fp8e5 toward zero; inf and NaN stay
        for name, t in (("f16", np.float16), ("bf16", md.bfloat16)):
            y = x.astype(t)
            fin = np.isfinite(x)
            over = fin & (np.abs(y.astype(np.float64)) > np.abs(x.astype(np.float64)))
            y[over] = np.nextafter(y[over], np.zeros(1, dtype=t))
            save("fp8_rtz_" + name, y)
        v = np.arange(256, dtype=np.uint8).view(md.float8_e5m2).astype(np.float64)
        v = np.unique(v[np.isfinite(v) & (v >= 0)])
        ax = np.abs(x.astype(np.float64))
        t = v[np.clip(np.searchsorted(v, np.nan_to_num(ax, posinf=0.0), side="right") - 1, 0, len(v) - 1)]
        t = np.where(np.isnan(x), np.nan, np.where(np.isinf(x), np.inf, t))
        save("fp8_rtz_e5", (np.copysign(t, x)).astype(md.float8_e5m2))
    # every code of every format, and what it decodes to
    codes = np.arange(256, dtype=np.uint8)
    for name, t in types.items():
        save("fp8_codes_" + name, codes.view(t))
        save("fp8_codes_%s_f32" % name, codes.view(t).astype(f32))
    save("fp8_codes_e4b15", codes)
    e, m = (codes >> 3) & 15, codes & 7
    mag = np.where(e == 0, m * 2.0 ** -17, (8 + m) * 2.0 ** (e.astype(np.float64) - 18))
    save("fp8_codes_e4b15_f32", np.where(codes & 0x80, -mag, mag).astype(f32))
    # fp8e5 -> bf16 (Fp8E5M2_to_Bf16: bits shifted, times 2^112): the inf and
    # NaN codes come out as 2^16 * 1.mm
    e5 = codes.view(md.float8_e5m2).astype(np.float64)
    special = ((codes >> 2) & 31) == 31
    raw = np.where(codes & 0x80, -1.0, 1.0) * 2.0 ** 16 * (1 + (codes & 3) / 4.0)
    save("fp8_codes_e5_bf16", np.where(special, raw, e5).astype(f32))
    # tl.dot on fp8: exact products, summed in float64 here
    a = (r8.standard_normal((16, 32)) * 2).astype(md.float8_e4m3fn)
    b = (r8.standard_normal((32, 16)) * 2).astype(md.float8_e5m2)
    b4 = (r8.standard_normal((32, 16)) * 2).astype(md.float8_e4m3fn)
    save("fp8_dot_a", a)
    save("fp8_dot_b", b)
    save("fp8_dot_b4", b4)
    save("fp8_dot_ab", (a.astype(np.float64) @ b.astype(np.float64)).astype(f32))
    save("fp8_dot_ab4", (a.astype(np.float64) @ b4.astype(np.float64)).astype(f32))


def tdesc():
    """kernels/tdesc.py: descriptor gather/scatter/atomics over a shape
    [M, N] inside larger storage, loop-carried descriptors, host descriptors."""
    r = np.random.default_rng(808)
    f32 = np.float32
    # gather: X storage [20, 64], descriptor shape [16, 40], block [1, 32], columns 16..47
    M, N, y0, BX, BY = 16, 40, 16, 16, 32
    x = r.standard_normal((20, 64)).astype(f32)
    idx = np.array([3, -1, 0, 15, 16, 17, 19, 7, 7, 2, 9, 11, 12, 1, 5, 14], dtype=np.int32)
    save("tdesc_gx", x)
    save("tdesc_gidx", idx)
    for pad, fill in (("zero", 0.0), ("nan", np.nan)):
        y = np.full((BX, BY), fill, dtype=f32)
        for i, row in enumerate(idx):
            if 0 <= row < M:
                y[i, :N - y0] = x[row, y0:N]
        save("tdesc_gather_" + pad, y)
    xi8 = r.integers(-128, 128, size=(20, 64), dtype=np.int8)
    save("tdesc_gx_i8", xi8)
    y = np.zeros((BX, BY), dtype=np.int8)
    for i, row in enumerate(idx):
        if 0 <= row < M:
            y[i, :N - y0] = xi8[row, y0:N]
    save("tdesc_gather_i8", y)
    # scatter: rows of V [16, 32] to Y storage [20, 64] (initially -1) at rows sidx, columns 16..47
    v = r.standard_normal((BX, BY)).astype(f32)
    sidx = np.array([4, 16, 0, 13, -2, 18, 1, 15, 6, 8, 2, 11, 3, 9, 10, 5], dtype=np.int32)
    out = np.full((20, 64), -1, dtype=f32)
    save("tdesc_sv", v)
    save("tdesc_sidx", sidx)
    save("tdesc_sinit", out.copy())
    for i, row in enumerate(sidx):
        if 0 <= row < M:
            out[row, y0:N] = v[i, :N - y0]
    save("tdesc_scatter", out)
    # atomics: Out storage [10, 32], shape [10, 27], blocks [4, 16], grid (3, 2); each program
    # reduces its block and then the block at (0, 0)
    M, N, BM, BN, GM, GN = 10, 27, 4, 16, 3, 2
    xa = r.integers(-1000, 1000, size=(GM * BM, GN * BN), dtype=np.int32)
    init = r.integers(-1000, 1000, size=(M, 32), dtype=np.int32)
    save("tdesc_ax", xa)
    save("tdesc_ainit", init)
    ops = {"add": np.add, "min": np.minimum, "max": np.maximum, "and": np.bitwise_and, "or": np.bitwise_or,
           "xor": np.bitwise_xor}
    for name, op in ops.items():
        o = init.copy()
        for pm in range(GM):
            for pn in range(GN):
                blk = xa[pm * BM:(pm + 1) * BM, pn * BN:(pn + 1) * BN]
                for (m0, n0) in ((pm * BM, pn * BN), (0, 0)):
                    for i in range(BM):
                        for j in range(BN):
                            if m0 + i < M and n0 + j < N:
                                o[m0 + i, n0 + j] = op(o[m0 + i, n0 + j], blk[i, j])
        save("tdesc_atomic_" + name, o)
    xf = xa.astype(f32)                      # small integers: every order of the float adds is exact
    save("tdesc_axf", xf)
    save("tdesc_ainitf", init.astype(f32))
    o = init.astype(f32)
    for pm in range(GM):
        for pn in range(GN):
            blk = xf[pm * BM:(pm + 1) * BM, pn * BN:(pn + 1) * BN]
            for (m0, n0) in ((pm * BM, pn * BN), (0, 0)):
                for i in range(BM):
                    for j in range(BN):
                        if m0 + i < M and n0 + j < N:
                            o[m0 + i, n0 + j] += blk[i, j]
    save("tdesc_atomic_addf", o)
    # carried: A, B [24, 40], blocks [8, 16]
    M, N, BM, BN = 24, 40, 8, 16
    a = r.standard_normal((M, N)).astype(f32)
    b = r.standard_normal((M, N)).astype(f32)
    save("tdesc_ca", a)
    save("tdesc_cb", b)
    nb = -(-N // BN)
    pa = np.zeros((M, nb * BN), dtype=f32)
    pb = np.zeros((M, nb * BN), dtype=f32)
    pa[:, :N] = a
    pb[:, :N] = b
    acc = np.zeros((M, BN), dtype=f32)
    for j in range(nb):
        acc += (pa if j % 3 == 0 else pb)[:, j * BN:(j + 1) * BN]
    cur = pa if (nb - 1) % 3 == 0 else pb
    for j in range(nb):
        if j % 2 == 1:
            cur = pa
        acc += cur[:, j * BN:(j + 1) * BN]
    save("tdesc_carried", acc)
    # host descriptors with a 512-wide block: X f32 [6, 600] -> E f16 [6, 512]
    hx = r.standard_normal((6, 600)).astype(f32)
    save("tdesc_hx", hx)
    save("tdesc_hy", hx[:, :512].astype(np.float16))


def indexing():
    """kernels/indexing.py: permute(2, 0, 1) and trans() of a [2, 4, 8] tile."""
    x = np.random.default_rng(8).integers(-1000, 1000, size=(2, 4, 8), dtype=np.int32)
    save("index_x", x)
    save("index_permute", np.transpose(x, (2, 0, 1)))
    save("index_trans", np.transpose(x, (0, 2, 1)))


def tuples():
    """kernels/tuples.py, in the kernels' order of operations (float32)."""
    r = np.random.default_rng(88)
    f = np.float32
    x = r.standard_normal(64).astype(f)
    save("tuple_x", x)
    a = x * f(2) + f(1)                               # F(x, 2, 1) with F = axpb
    save("tuple_apply_sub", ((a + (x * f(1) - f(2))) + f(-0.5) * x) + f(0))   # G = axmb
    save("tuple_apply_add", ((a + (x * f(1) + f(2))) + f(-0.5) * x) + f(0))   # G = axpb
    rows = r.standard_normal((5, 16)).astype(f)
    save("tuple_rows", rows)
    acc = np.zeros(16, dtype=f)
    for row in rows:
        acc = acc + row
    save("tuple_mean", acc / f(5))


def rank():
    """kernels/rank.py: tiles of rank 5, 8 and 9 and a rank-5 tensor
    descriptor; its own generator, so adding it changes no other reference."""
    r = np.random.default_rng(55)
    x = r.integers(-1000, 1000, size=(2, 4, 2, 8, 4), dtype=np.int32)
    bias = r.integers(-1000, 1000, size=(1, 4, 1, 8, 1), dtype=np.int32)
    save("rank5_x", x)
    save("rank5_bias", bias)
    save("rank5_permute", np.transpose(x, (4, 2, 0, 3, 1)).copy())
    save("rank5_sum2", x.sum(axis=2, dtype=np.int32))
    save("rank5_max3", x.max(axis=3, keepdims=True))
    save("rank5_sumall", x.sum(dtype=np.int32).reshape(1, 1, 1, 1, 1))
    save("rank5_bcast", x * 3 + bias)
    desc = -np.sort(-x, axis=-1)
    save("rank5_sort", desc - desc[..., 1:2])                       # minus the 2nd largest
    save("rank5_scan", np.cumsum(x, axis=1, dtype=np.int32) * 2 - x)
    x8 = r.standard_normal(256).astype(np.float32)
    save("rank8_x", x8)
    c = x8.reshape((2,) * 8)
    save("rank8_rev", np.transpose(c, tuple(range(7, -1, -1))).reshape(256).copy())
    save("rank8_sum5", c.sum(axis=5).reshape(128))                 # two terms: exact in any order
    h = x8[:16].reshape(2, 1, 2, 1, 2, 1, 2, 1)
    save("rank8_bcast", (c - h).reshape(256))
    # rank-5 descriptor: storage [2, 2, 4, 8, 16], shape [1, 2, 3, 7, 13], block [2, 2, 4, 8, 16] at (0, 0, 1, 2, 0)
    st = (2, 2, 4, 8, 16)
    shp = (1, 2, 3, 7, 13)
    o = (0, 0, 1, 2, 0)
    xs = r.standard_normal(st).astype(np.float32)
    save("desc5_x", xs)
    save("desc5_yinit", np.full(st, -1, dtype=np.float32))
    z = np.zeros(st, dtype=np.float32)                              # block shape == storage shape here
    inside = tuple(slice(0, max(0, min(b, s - off))) for b, s, off in zip(st, shp, o))
    src = tuple(slice(off, off + (sl.stop - sl.start)) for off, sl in zip(o, inside))
    z[inside] = xs[src]
    save("desc5_z", z)
    y = np.full(st, -1, dtype=np.float32)
    y[src] = z[inside] + np.float32(1)
    save("desc5_y", y)


def main():
    os.makedirs(REFS, exist_ok=True)
    none_args()
    imports()
    control()
    dot_precision()
    dtypes()
    bf16_io()
    standard()
    shape()
    fp8()
    tdesc()
    indexing()
    tuples()
    rank()


if __name__ == "__main__":
    main()


def core_rules():
    """kernels/core_rules.py: its own generator, so adding it changes no
    other reference (python3 -c 'import make_refs; make_refs.core_rules()')."""
    import ml_dtypes as md
    r = np.random.default_rng(77)
    x = r.integers(-128, 128, 64).astype(np.int8)
    y = r.integers(0, 8, 64).astype(np.uint8)
    save("core_shift_x", x)
    save("core_shift_y", y)
    save("core_shift_z", x >> y.astype(np.int8))                     # numpy: arithmetic on int8
    a = r.integers(-2**63, 2**63 - 1, 64, dtype=np.int64)
    b = r.integers(-2**63, 2**63 - 1, 64, dtype=np.int64)
    m = (1 << 64) - 1
    hi = [((int(p) & m) * (int(q) & m)) >> 64 for p, q in zip(a, b)]
    save("core_umulhi_x", a)
    save("core_umulhi_y", b)
    save("core_umulhi_z", np.array(hi, dtype=np.uint64).view(np.int64))
    codes = np.arange(256, dtype=np.uint8)
    f8 = codes.view(md.float8_e4m3fn)
    codes[~np.isfinite(f8.astype(np.float32))] = 0                     # NaN codes -> 0
    save("core_abs_codes", codes)                                      # read as :f8e4nv
    save("core_abs_out", np.abs(codes.view(md.float8_e4m3fn).astype(np.float32)))
    u = np.concatenate([np.array([-2**63, 2**63 - 1, 0, -1], dtype=np.int64),
                        r.integers(-2**63, 2**63 - 1, 60, dtype=np.int64)])
    save("core_uniform_x", u)
    s = [(-int(v) - 1) if v < 0 else int(v) for v in u]
    save("core_uniform_z", np.array([np.float32(v) * np.float32(1.0842020432385337e-19) for v in s], dtype=np.float32))
    t = r.integers(-50, 50, 16).astype(np.int32)
    t[0] = 7
    save("core_unsplat_x", t)
    s_ = int(t.sum())
    save("core_unsplat_z", np.array([s_ * 1000 + 107 if p % 2 == 0 else -s_ for p in range(4)], dtype=np.int32))
