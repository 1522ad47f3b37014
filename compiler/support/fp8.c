/* fp8.c — Triton's fp8 dtypes: exact decoding and the conversions Triton 3.6
 * performs on the GPU that supports each dtype (dtype.h gives the rules and
 * their sources). One generic encoder: scale |x| by the format's quantum at
 * its exponent, round the integer, and rebuild the code; codes grow with the
 * value, so saturation is a comparison with the largest finite code. */
#include "tritium/dtype.h"

#include <math.h>
#include <string.h>

typedef struct {
    int mbits, bias;
    uint8_t maxcode;     /* largest finite magnitude code */
} fmt8;

static fmt8 fmt_of(tt_dtype d)
{
    switch (d) {
    case TT_F8E4NV:  return (fmt8){ 3, 7, 0x7e };
    case TT_F8E5:    return (fmt8){ 2, 15, 0x7b };
    case TT_F8E4B15: return (fmt8){ 3, 15, 0x7f };
    case TT_F8E4B8:  return (fmt8){ 3, 8, 0x7f };
    default:         return (fmt8){ 2, 16, 0x7f };   /* TT_F8E5B16 */
    }
}

/* Magnitude code of a finite a >= 0 in a format with mbits mantissa bits and
 * the given bias, unbounded above: round to nearest even (rint in the default
 * mode), toward zero, or half away from zero. */
enum { R_NE, R_Z, R_HALF_AWAY };
static uint32_t enc_mag(double a, int mbits, int bias, int mode)
{
    if (a == 0) return 0;
    int e;
    frexp(a, &e);                    /* a = f * 2^e, f in [0.5, 1) */
    int u = e - 1;                   /* unbiased exponent of a */
    bool sub = u < 1 - bias;
    double q = ldexp(a, -((sub ? 1 - bias : u) - mbits));   /* exact: a power-of-two scale */
    double n = mode == R_NE ? rint(q) : mode == R_Z ? trunc(q) : floor(q + 0.5);
    uint32_t c = (uint32_t)n;
    if (sub) return c;               /* c == 2^mbits is the smallest normal's code */
    return ((uint32_t)(u + bias) << mbits) + c - (1u << mbits);
}

double tt_fp8_max(tt_dtype d)
{
    return tt_fp8_decode(d, fmt_of(d).maxcode, false);
}

float tt_fp8_decode(tt_dtype d, uint8_t b, bool raw)
{
    fmt8 f = fmt_of(d);
    bool neg = b & 0x80;
    uint8_t c = b & 0x7f;
    if (d == TT_F8E4B8 || d == TT_F8E5B16) {
        if (b == 0x80) return NAN;
    } else if (d == TT_F8E4NV) {
        if (c == 0x7f) return neg ? -NAN : NAN;
    } else if (d == TT_F8E5 && !raw && c >= 0x7c) {
        if (c == 0x7c) return neg ? -INFINITY : INFINITY;
        return neg ? -NAN : NAN;
    }
    int e = c >> f.mbits, m = c & ((1 << f.mbits) - 1);
    double v = e == 0 ? ldexp(m, 1 - f.bias - f.mbits) : ldexp((1 << f.mbits) + m, e - f.bias - f.mbits);
    return (float)(neg ? -v : v);
}

uint8_t tt_fp8_encode(tt_dtype d, float x, bool rtz)
{
    fmt8 f = fmt_of(d);
    uint8_t sign = signbit(x) ? 0x80 : 0;
    double a = fabs((double)x);
    switch (d) {
    case TT_F8E4B15: {
        /* convert_float16_to_fp8e4b15 (a float32 source comes through
         * tt_f32_to_f16_rz first, as convert_custom_float8 does):
         * min.f16x2(|x|, 1.75) (NaN -> 1.75), + half an ulp, truncate */
        if (isnan(a) || a > 1.75) a = 1.75;
        return sign | (uint8_t)enc_mag(a, f.mbits, f.bias, R_HALF_AWAY);
    }
    case TT_F8E4B8:
    case TT_F8E5B16: {
        if (isnan(a) || isinf(a)) return 0x80;
        uint32_t c = enc_mag(a, f.mbits, f.bias, R_NE);
        if (c > f.maxcode) c = f.maxcode;
        return c ? sign | (uint8_t)c : 0;        /* no -0: 0x80 is NaN */
    }
    case TT_F8E5:
        if (rtz) {                               /* cvt.rz.f16.f32, then the high byte */
            if (isnan(a)) return 0x7f;
            if (isinf(a)) return sign | 0x7c;
            uint32_t c = enc_mag(a, f.mbits, f.bias, R_Z);
            return sign | (uint8_t)(c > f.maxcode ? f.maxcode : c);
        }
        /* fall through */
    default: {                                   /* cvt.rn.satfinite.{e4m3,e5m2}x2 */
        if (isnan(a)) return sign | 0x7f;
        if (isinf(a)) return sign | f.maxcode;
        uint32_t c = enc_mag(a, f.mbits, f.bias, R_NE);
        return sign | (uint8_t)(c > f.maxcode ? f.maxcode : c);
    }
    }
}

uint8_t tt_fp8_encode_f64(tt_dtype d, double x)
{
    /* round to odd into f32: f32 keeps more than two extra bits, so the
     * fp8 rounding after it equals one rounding of x */
    float f = (float)x;
    if (!isnan(x) && (double)f != x) {
        uint32_t u;
        memcpy(&u, &f, 4);
        if (fabs((double)f) > fabs(x)) u -= 1;
        u |= 1;
        memcpy(&f, &u, 4);
    }
    return tt_fp8_encode(d, f, false);
}

uint16_t tt_f32_to_f16_rz(float x)
{
    if (isnan(x)) return 0x7fff;
    uint16_t sign = signbit(x) ? 0x8000 : 0;
    if (isinf(x)) return sign | 0x7c00;
    uint32_t c = enc_mag(fabs((double)x), 10, 15, R_Z);
    return sign | (uint16_t)(c > 0x7bff ? 0x7bff : c);
}

uint16_t tt_f32_to_bf16_rz(float x)
{
    if (isnan(x)) return 0x7fff;
    uint32_t u;
    memcpy(&u, &x, 4);
    return (uint16_t)(u >> 16);      /* dropping bits is rounding toward zero */
}
