/* sema_dot_scaled.c — tl.dot_scaled (microscaling dots: mxfp4, mxfp8) as a
 * decomposition into ops the interpreter and the GPU path already run, as
 * Triton's compiler does where the hardware has no scaled MMA (Hopper:
 * lib/Dialect/TritonGPU/Transforms/DecomposeScaledBlocked.cpp). Each
 * operand is upcast to the compute type (bfloat16, float16 when either
 * format is fp16), multiplied by its E8M0 scales broadcast along K, and the
 * two meet in a tt.dot with a float32 accumulator. docs/language.md,
 * "Scaled dots: tl.dot_scaled", has the numerics against Triton's interpreter and GPU. */
#include "sema_builtin.h"

#include <string.h>

enum { FMT_E2M1, FMT_E4M3, FMT_E5M2, FMT_BF16, FMT_FP16, FMT_COUNT };
static const char *const fmt_names[FMT_COUNT] = { "e2m1", "e4m3", "e5m2", "bf16", "fp16" };

/* semantic.py _str_to_fp_type and dot_scaled's allowed_formats: the format
 * string must name a ScaleDotElemTypeTY (upper-cased), and one of five */
static int want_format(sema *S, src_pos p, sval v, const char *which)
{
    if (v.k != V_STR) sema_error(S, p, "dot_scaled: %s must be a string (e2m1, e4m3, e5m2, bf16, fp16), got %s", which, sv_describe(S, &v));
    for (int f = 0; f < FMT_COUNT; f++)
        if (!strcmp(v.s, fmt_names[f])) return f;
    /* ScaleDotElemTypeTY also has E2M3, E3M2 (fp6): valid enum names, then "NYI" */
    static const char *const enum_only[] = { "e2m3", "e3m2", "E2M1", "E4M3", "E5M2", "BF16", "FP16", "E2M3", "E3M2" };
    for (size_t i = 0; i < sizeof enum_only / sizeof enum_only[0]; i++)
        if (!strcmp(v.s, enum_only[i])) sema_error(S, p, "NYI: %s %s", which, v.s);
    sema_error(S, p, "ValueError: Invalid float format: %s.", v.s);
}

/* semantic.py _bitcast_to_fp_type: e2m1 stays packed uint8; the others are
 * their float type, or its unsigned integer of the same width bitcast */
static sval to_fp_type(sema *S, src_pos p, sval x, int f)
{
    static const tt_dtype fty[FMT_COUNT] = { TT_U8, TT_F8E4NV, TT_F8E5, TT_BF16, TT_F16 };
    if (f == FMT_E2M1) {
        if (x.dt != TT_U8) sema_error(S, p, "e2m1 format must be packed as uint8. Got %s", tt_dtype_triton_name(x.dt));
        return x;
    }
    if (x.dt == fty[f]) return x;
    tt_dtype u = tt_dtype_bits(fty[f]) == 8 ? TT_U8 : TT_U16;
    if (x.dt != u) sema_error(S, p, "Unexpected dtype for %s. Got %s", fmt_names[f], x.dt == TT_PTR ? "pointer" : tt_dtype_triton_name(x.dt));
    return sema_cast(S, p, x, fty[f], 0, true);
}

static sval select3(sema *S, src_pos p, sval c, sval a, sval b)
{
    sema_setloc(S, p);
    ir_value ops[3] = { c.v, a.v, b.v };
    return sema_emit(S, IR_SELECT, ir_value_type(S->fn, a.v), 3, ops, a.dt, a.pt);
}

/* The e2m1 nibbles of packed uint8 x, two per byte along axis `ax` (the low
 * nibble first: sema_join_along interleaves them). Then each nibble s.e.e.m
 * as the compute type c: (1 + m/2) * 2^(e-1), or m/2 when e == 0, built from bits: the exponent
 * and mantissa field of c is (em < 2 ? em * B : em + B) << (mantissa - 1)
 * with B = 2 * (bias - 1): 252 for bfloat16, 28 for float16. Exact in both
 * types (interpreter.py _e2m1_to_f32's table: 0, 0.5, 1, 1.5, 2, 3, 4, 6). */
static sval unpack_e2m1(sema *S, src_pos p, sval x, int ax, tt_dtype c)
{
    sval lo = sema_binop(S, p, "&", x, sv_int(0x0f)), hi = sema_binop(S, p, ">>", x, sv_int(4));
    sval n = sema_cast(S, p, sema_join_along(S, p, lo, hi, ax, true), TT_U16, 0, false);
    int B = c == TT_BF16 ? 252 : 28, sh = c == TT_BF16 ? 6 : 9;
    sval em = sema_binop(S, p, "&", n, sv_int(7));
    sval field = select3(S, p, sema_binop(S, p, "<", em, sv_int(2)), sema_binop(S, p, "*", em, sv_int(B)),
                         sema_binop(S, p, "+", em, sv_int(B)));
    sval sign = sema_binop(S, p, "<<", sema_binop(S, p, "&", n, sv_int(8)), sv_int(12));
    sval bits = sema_binop(S, p, "|", sema_binop(S, p, "<<", field, sv_int(sh)), sign);
    return sema_cast(S, p, bits, c, 0, true);
}

/* E8M0 scale bytes as the compute type c, 2^(s-127): DecomposeScaledBlocked
 * scaleTo16 (the byte shifted into a bfloat16's exponent; for float16 into
 * a float32's, then rounded to float16: bytes below 103 give 0, above 142
 * inf), with interpreter.py _dot_scaled_scale_to_f32's two rules: byte 0
 * is 2^-127 (bfloat16 0x0040) for bfloat16, and byte 255 is NaN (the
 * GPU's maskNan). */
static sval scale_to(sema *S, src_pos p, sval s, tt_dtype c)
{
    const ir_type_info *t = sv_shape(S, &s);
    int r = t->rank;
    int64_t shape[IR_MAX_RANK];
    memcpy(shape, t->shape, sizeof(int64_t) * (size_t)r);
    sval s8 = s.dt == TT_U8 ? s : sema_cast(S, p, s, TT_U8, 0, true);
    sval is_nan = sema_binop(S, p, "==", s8, sv_int(255));
    if (c == TT_BF16) {
        sval b = sema_binop(S, p, "<<", sema_cast(S, p, s8, TT_U16, 0, false), sv_int(7));
        b = select3(S, p, sema_binop(S, p, "==", s8, sv_int(0)), sema_const_tensor(S, p, 0, 0x0040, TT_U16, r, shape), b);
        b = select3(S, p, is_nan, sema_const_tensor(S, p, 0, 0x7fc0, TT_U16, r, shape), b);
        return sema_cast(S, p, b, TT_BF16, 0, true);
    }
    sval b = sema_binop(S, p, "<<", sema_cast(S, p, s8, TT_U32, 0, false), sv_int(23));
    b = select3(S, p, is_nan, sema_const_tensor(S, p, 0, 0x7fc00000, TT_U32, r, shape), b);
    return sema_cast(S, p, sema_cast(S, p, b, TT_F32, 0, true), TT_F16, 0, false);
}

/* One operand as the compute type c, scaled: x is [.., M, K] (lhs) or
 * [.., K, N] (rhs, is_rhs), its scale [.., M, K/g] or [.., N, K/g]
 * (interpreter.py _prepare_dot_scaled_operand; the rhs scale is not
 * transposed by the caller). */
static sval operand(sema *S, src_pos p, sval x, int f, bool k_pack, bool is_rhs, sval scale, bool has_scale,
                    int64_t group, tt_dtype c)
{
    int r = sv_shape(S, &x)->rank;
    if (f == FMT_E2M1) {
        int ax = is_rhs ? (k_pack ? r - 2 : r - 1) : (k_pack ? r - 1 : r - 2);
        x = unpack_e2m1(S, p, x, ax, c);
    } else {
        /* e5m2 -> bfloat16 through float16: exact, inf and NaN kept (as
         * interpreter.py _mxfp_value_handle_to_float32 decodes fp8); a direct
         * cast is Triton's shift-and-multiply, which makes them finite */
        if (f == FMT_E5M2 && c == TT_BF16) x = sema_cast(S, p, x, TT_F16, 0, false);
        x = sema_cast(S, p, x, c, 0, false);
    }
    if (!has_scale) return x;
    sval s = scale_to(S, p, scale, c);
    const ir_type_info *t = sv_shape(S, &s);
    int64_t shape[IR_MAX_RANK];
    memcpy(shape, t->shape, sizeof(int64_t) * (size_t)r);
    s = sema_expand_dims(S, p, s, r);
    int64_t bshape[IR_MAX_RANK];
    memcpy(bshape, shape, sizeof(int64_t) * (size_t)r);
    bshape[r] = group;
    s = sema_broadcast_to(S, p, s, r + 1, bshape);
    shape[r - 1] *= group;
    s = sema_reshape(S, p, s, r, shape);
    if (is_rhs) {
        sval args[1] = { s };
        s = sema_call_builtin(S, NULL, B_TRANS, NULL, args, 1, NULL, NULL, 0);
    }
    return sema_binop(S, p, "*", x, s);
}

/* The scale argument: None, or a uint8 (or int8) tensor of E8M0 bytes
 * with the operand's rank. */
static bool want_scale(sema *S, src_pos p, const bargs *B, const char *name, int rank, sval *out)
{
    if (!sema_arg_has(B, name)) return false;
    sval s = sema_arg(B, name);
    if (s.k != V_TENSOR || (s.dt != TT_U8 && s.dt != TT_I8))
        sema_error(S, p, "%s must be a uint8 tensor of E8M0 exponents (interpreter.py _dot_scaled_scale_to_f32), "
                   "got %s", name, sv_describe(S, &s));
    if (sv_shape(S, &s)->rank != rank)
        sema_error(S, p, "%s must have the rank of its operand (%d), got %s", name, rank, sv_describe(S, &s));
    *out = s;
    return true;
}

/* core.py dot_scaled / semantic.py dot_scaled (Triton 3.9; the parameters
 * are the same from 3.6): the checks in Triton's order and words, then the
 * decomposition described at the top of this file. */
sval sema_builtin_dot_scaled(sema *S, src_pos p, const bargs *B)
{
    if (sema_arg_has(B, "out_dtype") && sema_want_dtype(S, p, sema_arg(B, "out_dtype"), NULL) != TT_F32)
        sema_error(S, p, "Only float32 is supported for out_dtype at the moment");
    sval a = sema_arg_req(S, p, B, "lhs"), b = sema_arg_req(S, p, B, "rhs");
    if (a.k != V_TENSOR || b.k != V_TENSOR || sv_shape(S, &a)->rank == 0 || sv_shape(S, &b)->rank == 0)
        sema_error(S, p, "dot_scaled operands must be block tensors (not scalars)");
    const ir_type_info *ta = sv_shape(S, &a), *tb = sv_shape(S, &b);
    int r = ta->rank;
    if (r != tb->rank || (r != 2 && r != 3))
        sema_error(S, p, "Both inputs must be either 2D or 3D; (lhs: %s vs rhs: %s)", sema_shape_str(S, ta->rank, ta->shape), sema_shape_str(S, tb->rank, tb->shape));
    int fa = want_format(S, p, sema_arg_req(S, p, B, "lhs_format"), "lhs_format");
    int fb = want_format(S, p, sema_arg_req(S, p, B, "rhs_format"), "rhs_format");
    a = to_fp_type(S, p, a, fa);
    b = to_fp_type(S, p, b, fb);
    bool ka = sema_arg_bool(S, p, B, "lhs_k_pack", true), kb = sema_arg_bool(S, p, B, "rhs_k_pack", true);
    if ((!ka && fa != FMT_E2M1) || (!kb && fb != FMT_E2M1))
        sema_error(S, p, "only mxfp4 inputs can be packed along a dimension different than K");
    ta = sv_shape(S, &a), tb = sv_shape(S, &b);
    int64_t M = ta->shape[r - 2], K = ta->shape[r - 1], KB = tb->shape[r - 2], N = tb->shape[r - 1];
    int64_t pa = fa == FMT_E2M1 ? 2 : 1, pb = fb == FMT_E2M1 ? 2 : 1;
    if ((ka ? pa * K : K) != (kb ? pb * KB : KB))
        sema_error(S, p, "Reduction dimension should pack the same number of elements; (lhs: %s vs rhs: %s)",
                   sema_shape_str(S, ta->rank, ta->shape), sema_shape_str(S, tb->rank, tb->shape));
    if (r == 3 && ta->shape[0] != tb->shape[0])
        sema_error(S, p, "dot_scaled: batch dimensions differ (lhs: %s vs rhs: %s)", sema_shape_str(S, ta->rank, ta->shape), sema_shape_str(S, tb->rank, tb->shape));
    if (!ka) M *= pa;
    else K *= pa;
    if (!kb) N *= pb;
    int64_t shape[3];
    if (r == 3) shape[0] = ta->shape[0];
    shape[r - 2] = M, shape[r - 1] = N;
    sval acc = { .k = V_NONE };
    bool has_acc = sema_arg_has(B, "acc");
    if (has_acc) {
        acc = sema_want_tensor(S, p, sema_arg(B, "acc"), "acc");
        const ir_type_info *tc = sv_shape(S, &acc);
        if (tc->rank != r || memcmp(tc->shape, shape, sizeof(int64_t) * (size_t)r))
            sema_error(S, p, "expected accumulator shape %s, got %s", sema_shape_str(S, r, shape),
                       sema_shape_str(S, tc->rank, tc->shape));
        if (acc.dt != TT_F32)
            sema_error(S, p, "expected accumulator dtype fp32, got %s; pass out_dtype=%s to use this accumulator dtype",
                       tt_dtype_triton_name(acc.dt), tt_dtype_triton_name(acc.dt));
    }
    sval sa = { .k = V_NONE }, sb = { .k = V_NONE };
    bool hsa = want_scale(S, p, B, "lhs_scale", r, &sa), hsb = want_scale(S, p, B, "rhs_scale", r, &sb);
    /* ir.deduce_scale_factor (3.8+): K over a scale's last dimension, 16
     * or 32 (32 without scales); before 3.8 always 32 (sema_version.c);
     * then verify_scaled_shape against it */
    int64_t group = 32;
    if ((hsa || hsb) && (sema_version_mx_groups() & 16)) {
        const ir_type_info *ts = sv_shape(S, hsa ? &sa : &sb);
        int64_t ks = ts->shape[r - 1];
        if (ks <= 0 || K % ks || (K / ks != 16 && K / ks != 32))
            sema_error(S, p, "RuntimeError: scale factor must be 16 or 32. Got %lld", (long long)(ks > 0 ? K / ks : 0));
        group = K / ks;
    }
    for (int i = 0; i < 2; i++) {
        if (!(i ? hsb : hsa)) continue;
        const ir_type_info *ts = sv_shape(S, i ? &sb : &sa);
        int64_t rows = i ? N : M;
        if (ts->shape[r - 2] != rows || ts->shape[r - 1] != K / group || (r == 3 && ts->shape[0] != shape[0]))
            sema_error(S, p, "%s must be a tensor of shape [..., %lld, %lld]. Got %s", i ? "rhs_scale" : "lhs_scale",
                       (long long)rows, (long long)(K / group), sema_shape_str(S, ts->rank, ts->shape));
    }
    sema_arg_bool(S, p, B, "fast_math", false);    /* accepted; NaN scales stay NaN (docs/language.md) */
    /* interpreter.py create_dot_scaled / DecomposeScaledBlocked getComputeType */
    tt_dtype c = fa == FMT_FP16 || fb == FMT_FP16 ? TT_F16 : TT_BF16;
    sval x = operand(S, p, a, fa, ka, false, sa, hsa, group, c);
    sval y = operand(S, p, b, fb, kb, true, sb, hsb, group, c);
    sval args[2] = { x, y };
    const char *kwn[1] = { "acc" };
    sval kwv[1] = { acc };
    sema_setloc(S, p);
    return sema_call_builtin(S, NULL, B_DOT, NULL, args, 2, kwn, kwv, has_acc ? 1 : 0);
}
