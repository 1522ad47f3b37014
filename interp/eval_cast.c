/* eval_cast.c — arith casts (docs/reference/triton-semantics.md §2.7).
 *
 *   extsi / extui / trunci   sign- or zero-extend, keep the low bits; i1 is
 *                            0/-1 for extsi, 0/1 for extui
 *   sitofp / uitofp          round to nearest even, one rounding
 *   fptosi / fptoui          truncate toward zero, saturate at the target's
 *                            range, NaN -> 0 (PTX cvt.rzi; dtype.h's rule)
 *   extf / truncf            round to nearest even, one rounding
 *   tt.fp_to_fp              to and from fp8, and rtz downcasts: the rules
 *                            of dtype.h (tt_fp8_encode / tt_fp8_decode,
 *                            tt_f32_to_f16_rz); sources are fp16, bf16 or
 *                            fp32 and every value of those is an f32
 *
 * Casts go through an int64 or double temporary tile (exact for every
 * source), then one tight loop per destination type. */
#include "internal.h"

#include <math.h>

double interp_get_f64(const void *data, tt_dtype dt, int64_t e, bool uns)
{
    switch (dt) {
    case TT_BOOL: return ((const uint8_t *)data)[e] & 1;
    case TT_I8: return uns ? (double)((const uint8_t *)data)[e] : (double)((const int8_t *)data)[e];
    case TT_I16: return uns ? (double)((const uint16_t *)data)[e] : (double)((const int16_t *)data)[e];
    case TT_I32: return uns ? (double)((const uint32_t *)data)[e] : (double)((const int32_t *)data)[e];
    case TT_I64: return uns ? (double)((const uint64_t *)data)[e] : (double)((const int64_t *)data)[e];
    case TT_F16: return interp_h2f(((const uint16_t *)data)[e]);
    case TT_BF16: return interp_bf2f(((const uint16_t *)data)[e]);
    case TT_F32: return ((const float *)data)[e];
    case TT_F64: return ((const double *)data)[e];
    case TT_F8E4NV: case TT_F8E5: case TT_F8E4B15: case TT_F8E4B8: case TT_F8E5B16:
        return tt_fp8_decode(dt, ((const uint8_t *)data)[e], false);
    default: return (double)((const uint64_t *)data)[e];
    }
}

/* tt.fp_to_fp: every source value is exact in f32 (fp16, bf16, fp32, fp8) */
static void fp_to_fp(tt_dtype from, tt_dtype to, bool rtz, void *o, const void *a, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        float x;
        if (tt_dtype_is_fp8(from))
            /* fp8e5 -> bf16 shifts the bits and multiplies by 2^112, so
             * inf and NaN come out finite (Fp8E5M2_to_Bf16) */
            x = tt_fp8_decode(from, ((const uint8_t *)a)[i], from == TT_F8E5 && to == TT_BF16);
        else
            x = (float)interp_get_f64(a, from, i, false);
        switch (to) {
        case TT_F16: ((uint16_t *)o)[i] = rtz ? tt_f32_to_f16_rz(x) : interp_f2h(x); break;
        case TT_BF16: ((uint16_t *)o)[i] = rtz ? tt_f32_to_bf16_rz(x) : interp_f2bf(x); break;
        case TT_F32: ((float *)o)[i] = x; break;
        default:
            if (!tt_dtype_is_fp8(to)) die("tt.fp_to_fp to %s", tt_dtype_name(to));
            ((uint8_t *)o)[i] = tt_fp8_encode(to, x, rtz);
            break;
        }
    }
}

/* Integer tile -> int64 tile, sign- or zero-extended. */
static int64_t *ints_to_i64(interp_prog *p, tt_dtype dt, const void *a, int64_t n, bool sign)
{
    int64_t *t = ts_alloc(&p->mem, (size_t)n * 8);
    switch (dt) {
    case TT_BOOL: {
        const uint8_t *x = a;
        for (int64_t i = 0; i < n; i++) t[i] = sign ? -(int64_t)(x[i] & 1) : (int64_t)(x[i] & 1);
        break;
    }
    case TT_I8:
        if (sign) { const int8_t *x = a; for (int64_t i = 0; i < n; i++) t[i] = x[i]; }
        else { const uint8_t *x = a; for (int64_t i = 0; i < n; i++) t[i] = x[i]; }
        break;
    case TT_I16:
        if (sign) { const int16_t *x = a; for (int64_t i = 0; i < n; i++) t[i] = x[i]; }
        else { const uint16_t *x = a; for (int64_t i = 0; i < n; i++) t[i] = x[i]; }
        break;
    case TT_I32:
        if (sign) { const int32_t *x = a; for (int64_t i = 0; i < n; i++) t[i] = x[i]; }
        else { const uint32_t *x = a; for (int64_t i = 0; i < n; i++) t[i] = (int64_t)x[i]; }
        break;
    default:
        memcpy(t, a, (size_t)n * 8);
        break;
    }
    return t;
}

/* int64 tile -> integer tile of dt (low bits; i1: bit 0). */
static void i64_to_ints(tt_dtype dt, void *o, const int64_t *t, int64_t n)
{
    switch (dt) {
    case TT_BOOL: { uint8_t *x = o; for (int64_t i = 0; i < n; i++) x[i] = (uint8_t)(t[i] & 1); break; }
    case TT_I8: { uint8_t *x = o; for (int64_t i = 0; i < n; i++) x[i] = (uint8_t)t[i]; break; }
    case TT_I16: { uint16_t *x = o; for (int64_t i = 0; i < n; i++) x[i] = (uint16_t)t[i]; break; }
    case TT_I32: { uint32_t *x = o; for (int64_t i = 0; i < n; i++) x[i] = (uint32_t)t[i]; break; }
    default: memcpy(o, t, (size_t)n * 8); break;
    }
}

static double *flts_to_f64(interp_prog *p, tt_dtype dt, const void *a, int64_t n)
{
    double *t = ts_alloc(&p->mem, (size_t)n * 8);
    switch (dt) {
    case TT_F16: { const uint16_t *x = a; for (int64_t i = 0; i < n; i++) t[i] = interp_h2f(x[i]); break; }
    case TT_BF16: { const uint16_t *x = a; for (int64_t i = 0; i < n; i++) t[i] = interp_bf2f(x[i]); break; }
    case TT_F32: { const float *x = a; for (int64_t i = 0; i < n; i++) t[i] = x[i]; break; }
    case TT_F64: memcpy(t, a, (size_t)n * 8); break;
    default: die("cast: %s is not a float type", tt_dtype_name(dt));
    }
    return t;
}

static void f64_to_flts(tt_dtype dt, void *o, const double *t, int64_t n)
{
    switch (dt) {
    case TT_F16: { uint16_t *x = o; for (int64_t i = 0; i < n; i++) x[i] = interp_d2h(t[i]); break; }
    case TT_BF16: { uint16_t *x = o; for (int64_t i = 0; i < n; i++) x[i] = interp_d2bf(t[i]); break; }
    case TT_F32: { float *x = o; for (int64_t i = 0; i < n; i++) x[i] = (float)t[i]; break; }
    case TT_F64: memcpy(o, t, (size_t)n * 8); break;
    default: die("cast: %s is not a float type", tt_dtype_name(dt));
    }
}

/* |m| rounded to 8 significant bits (RTNE) as a float, exactly: bf16 of an
 * integer with a single rounding. */
static uint16_t u64_to_bf16(uint64_t m, bool neg)
{
    if (m == 0) return neg ? 0x8000 : 0;
    int msb = 63 - __builtin_clzll(m);
    int shift = msb - 7;
    if (shift > 0) {
        uint64_t r = m >> shift, rem = m & ((1ull << shift) - 1), half = 1ull << (shift - 1);
        if (rem > half || (rem == half && (r & 1))) r++;
        m = r;
    } else {
        shift = 0;
    }
    float f = ldexpf((float)m, shift);     /* exact: at most 9 significant bits */
    return interp_f2bf(neg ? -f : f);
}

static void ints_to_flts(tt_dtype dt, void *o, const int64_t *t, int64_t n, bool sign)
{
    switch (dt) {
    case TT_F16: {
        /* every integer below 65520 is exact in f32, larger ones give inf
         * either way: one rounding */
        uint16_t *x = o;
        if (sign) for (int64_t i = 0; i < n; i++) x[i] = interp_f2h((float)t[i]);
        else for (int64_t i = 0; i < n; i++) x[i] = interp_f2h((float)(uint64_t)t[i]);
        break;
    }
    case TT_BF16: {
        uint16_t *x = o;
        for (int64_t i = 0; i < n; i++) {
            bool neg = sign && t[i] < 0;
            x[i] = u64_to_bf16(neg ? 0 - (uint64_t)t[i] : (uint64_t)t[i], neg);
        }
        break;
    }
    case TT_F32: {
        float *x = o;
        if (sign) for (int64_t i = 0; i < n; i++) x[i] = (float)t[i];
        else for (int64_t i = 0; i < n; i++) x[i] = (float)(uint64_t)t[i];
        break;
    }
    case TT_F64: {
        double *x = o;
        if (sign) for (int64_t i = 0; i < n; i++) x[i] = (double)t[i];
        else for (int64_t i = 0; i < n; i++) x[i] = (double)(uint64_t)t[i];
        break;
    }
    default: die("cast: %s is not a float type", tt_dtype_name(dt));
    }
}

/* double -> integer: truncate, saturate, NaN -> 0. */
static inline int64_t sat_s(double v, int bits)
{
    if (v != v) return 0;
    double lo = -ldexp(1.0, bits - 1), hi = ldexp(1.0, bits - 1);   /* exact powers of two */
    if (v <= lo) return bits == 64 ? INT64_MIN : (int64_t)lo;
    if (v >= hi) return bits == 64 ? INT64_MAX : (int64_t)hi - 1;
    return (int64_t)v;
}
static inline uint64_t sat_u(double v, int bits)
{
    if (v != v || v <= 0) return 0;
    double hi = ldexp(1.0, bits);
    if (v >= hi) return bits == 64 ? UINT64_MAX : (1ull << bits) - 1;
    return (uint64_t)v;
}

static void flts_to_ints(tt_dtype dt, void *o, const double *t, int64_t n, bool sign)
{
    int bits = tt_dtype_bits(dt);
    switch (dt) {
    case TT_BOOL: {
        /* i1 holds 0 and -1 (signed) or 0 and 1 (unsigned) */
        uint8_t *x = o;
        if (sign) for (int64_t i = 0; i < n; i++) x[i] = t[i] <= -1.0;
        else for (int64_t i = 0; i < n; i++) x[i] = t[i] >= 1.0;
        break;
    }
    case TT_I8: {
        uint8_t *x = o;
        for (int64_t i = 0; i < n; i++) x[i] = (uint8_t)(sign ? (uint64_t)sat_s(t[i], bits) : sat_u(t[i], bits));
        break;
    }
    case TT_I16: {
        uint16_t *x = o;
        for (int64_t i = 0; i < n; i++) x[i] = (uint16_t)(sign ? (uint64_t)sat_s(t[i], bits) : sat_u(t[i], bits));
        break;
    }
    case TT_I32: {
        uint32_t *x = o;
        for (int64_t i = 0; i < n; i++) x[i] = (uint32_t)(sign ? (uint64_t)sat_s(t[i], bits) : sat_u(t[i], bits));
        break;
    }
    default: {
        uint64_t *x = o;
        for (int64_t i = 0; i < n; i++) x[i] = sign ? (uint64_t)sat_s(t[i], 64) : sat_u(t[i], 64);
        break;
    }
    }
}

void interp_eval_cast(interp_prog *p, const ir_op *op)
{
    const ival_info *vr = &p->s->vi[op->res], *va = &p->s->vi[op->opnd[0]];
    int64_t n = vr->numel;
    const void *a = interp_operand(p, op, 0, n);
    void *o = interp_result(p, op, 0);
    switch (op->opc) {
    case IR_EXTSI:
    case IR_EXTUI:
    case IR_TRUNCI:
        i64_to_ints(vr->dt, o, ints_to_i64(p, va->dt, a, n, op->opc == IR_EXTSI), n);
        break;
    case IR_SITOFP:
    case IR_UITOFP:
        ints_to_flts(vr->dt, o, ints_to_i64(p, va->dt, a, n, op->opc == IR_SITOFP), n, op->opc == IR_SITOFP);
        break;
    case IR_FPTOSI:
    case IR_FPTOUI:
        flts_to_ints(vr->dt, o, flts_to_f64(p, va->dt, a, n), n, op->opc == IR_FPTOSI);
        break;
    case IR_EXTF:
    case IR_TRUNCF:
        if (va->dt == TT_F32 && vr->dt == TT_F16) {      /* the common case, one pass */
            const float *x = a;
            uint16_t *h = o;
            for (int64_t i = 0; i < n; i++) h[i] = interp_f2h(x[i]);
        } else if (va->dt == TT_F16 && vr->dt == TT_F32) {
            const uint16_t *h = a;
            float *x = o;
            for (int64_t i = 0; i < n; i++) x[i] = interp_h2f(h[i]);
        } else {
            f64_to_flts(vr->dt, o, flts_to_f64(p, va->dt, a, n), n);
        }
        break;
    case IR_FP_TO_FP:
        fp_to_fp(va->dt, vr->dt, op->attr[0] == ROUND_RTZ, o, a, n);
        break;
    default:
        die("interp_eval_cast: %s", ir_ops[op->opc].name);
    }
}
