/* test_cast.c — arith casts: saturation, NaN, single rounding, extension. */
#include <math.h>
#include <string.h>

#include "tinterp.h"

static void cast(int opc, tt_dtype din, tt_dtype dout, int64_t n, const void *in, void *out)
{
    const void *ins[1] = { in };
    ew_run(opc, 0, din, dout, 1, n, ins, out, NULL);
}

START_TEST(float_to_int)
{
    float f[10] = { 1.5f, -1.5f, NAN, INFINITY, -INFINITY, 3e9f, -3e9f, 2147483520.0f, -0.0f, -2147483648.0f };
    int32_t i32[10];
    cast(IR_FPTOSI, TT_F32, TT_I32, 10, f, i32);
    int32_t want[10] = { 1, -1, 0, INT32_MAX, INT32_MIN, INT32_MAX, INT32_MIN, 2147483520, 0, INT32_MIN };
    for (int i = 0; i < 10; i++) ck_assert_int_eq(i32[i], want[i]);
    /* dtype.c's tt_store_f64 is the shared rule: compare with it as well */
    for (int i = 0; i < 10; i++) {
        int32_t r;
        tt_store_f64(&r, TT_I32, 0, f[i]);
        ck_assert_int_eq(i32[i], r);
    }
    uint8_t u8[10];
    cast(IR_FPTOUI, TT_F32, TT_U8, 10, f, u8);
    uint8_t wu[10] = { 1, 0, 0, 255, 0, 255, 0, 255, 0, 0 };
    for (int i = 0; i < 10; i++) ck_assert_uint_eq(u8[i], wu[i]);
    int8_t s8[10];
    cast(IR_FPTOSI, TT_F32, TT_I8, 10, f, s8);
    int8_t ws8[10] = { 1, -1, 0, 127, -128, 127, -128, 127, 0, -128 };
    for (int i = 0; i < 10; i++) ck_assert_int_eq(s8[i], ws8[i]);
    double d[4] = { 1e19, -1e19, NAN, -9.5 };
    int64_t i64[4];
    uint64_t u64[4];
    cast(IR_FPTOSI, TT_F64, TT_I64, 4, d, i64);
    cast(IR_FPTOUI, TT_F64, TT_U64, 4, d, u64);
    ck_assert(i64[0] == INT64_MAX && i64[1] == INT64_MIN && i64[2] == 0 && i64[3] == -9);
    ck_assert(u64[0] == 10000000000000000000ull && u64[1] == 0 && u64[2] == 0 && u64[3] == 0);
    /* f16 source */
    uint16_t h[3] = { f2h(65504.0f), f2h(-3.75f), 0x7e00 /* NaN */ };
    int16_t i16[3];
    cast(IR_FPTOSI, TT_F16, TT_I16, 3, h, i16);
    ck_assert_int_eq(i16[0], 32767);
    ck_assert_int_eq(i16[1], -3);
    ck_assert_int_eq(i16[2], 0);
}
END_TEST

START_TEST(int_to_float)
{
    int32_t a[5] = { 16777217, -16777219, INT32_MAX, -1, 0 };
    float f[5];
    cast(IR_SITOFP, TT_I32, TT_F32, 5, a, f);
    for (int i = 0; i < 5; i++) ck_assert(f[i] == (float)a[i]);
    ck_assert(f[0] == 16777216.0f);                   /* RTNE */
    cast(IR_UITOFP, TT_I32, TT_F32, 5, a, f);
    ck_assert(f[3] == 4294967296.0f);
    /* int64 -> bf16 with one rounding: 2^24 + 2^16 + 1 lies just above the
     * bf16 tie 2^24 + 2^16; rounding through f32 first would give 2^24 */
    int64_t b[4] = { 257, 259, 16842753, -16842753 };
    uint16_t bf[4];
    cast(IR_SITOFP, TT_I64, TT_BF16, 4, b, bf);
    ck_assert(tt_bf16_to_f32(bf[0]) == 256.0f);
    ck_assert(tt_bf16_to_f32(bf[1]) == 260.0f);
    ck_assert(tt_bf16_to_f32(bf[2]) == 16908288.0f);
    ck_assert(tt_bf16_to_f32(bf[3]) == -16908288.0f);
    /* i32 -> f16: 65519 rounds to 65504, 65520 to inf */
    int32_t c[3] = { 65519, 65520, -2049 };
    uint16_t h[3];
    cast(IR_SITOFP, TT_I32, TT_F16, 3, c, h);
    ck_assert(h2f(h[0]) == 65504.0f);
    ck_assert(isinf(h2f(h[1])));
    ck_assert(h2f(h[2]) == -2048.0f);
    /* i1 -> f32: sitofp reads true as -1, uitofp as 1 */
    uint8_t t[2] = { 1, 0 };
    cast(IR_SITOFP, TT_BOOL, TT_F32, 2, t, f);
    ck_assert(f[0] == -1.0f && f[1] == 0.0f);
    cast(IR_UITOFP, TT_BOOL, TT_F32, 2, t, f);
    ck_assert(f[0] == 1.0f && f[1] == 0.0f);
}
END_TEST

START_TEST(int_ext_trunc)
{
    int8_t a[4] = { -1, 127, -128, 5 };
    int32_t s[4];
    uint32_t u[4];
    cast(IR_EXTSI, TT_I8, TT_I32, 4, a, s);
    cast(IR_EXTUI, TT_I8, TT_U32, 4, a, u);
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(s[i], a[i]);
        ck_assert_uint_eq(u[i], (uint8_t)a[i]);
    }
    int32_t b[4] = { 0x1ff, 0x80, -129, 0x12345678 };
    int8_t t[4];
    cast(IR_TRUNCI, TT_I32, TT_I8, 4, b, t);
    for (int i = 0; i < 4; i++) ck_assert_int_eq(t[i], (int8_t)(uint8_t)b[i]);
    uint8_t bits[4];
    cast(IR_TRUNCI, TT_I32, TT_BOOL, 4, b, bits);
    for (int i = 0; i < 4; i++) ck_assert_int_eq(bits[i], b[i] & 1);
    uint8_t one[2] = { 1, 0 };
    int64_t e[2];
    cast(IR_EXTSI, TT_BOOL, TT_I64, 2, one, e);
    ck_assert(e[0] == -1 && e[1] == 0);
    cast(IR_EXTUI, TT_BOOL, TT_I64, 2, one, e);
    ck_assert(e[0] == 1 && e[1] == 0);
}
END_TEST

START_TEST(float_float)
{
    /* every f16 bit pattern widened to f32 and back */
    enum { M = 65536 };
    static uint16_t h[M], back[M];
    static float f[M];
    for (int i = 0; i < M; i++) h[i] = (uint16_t)i;
    cast(IR_EXTF, TT_F16, TT_F32, M, h, f);
    for (int i = 0; i < M; i++) {
        float want = h2f(h[i]);
        if (isnan(want)) ck_assert(isnan(f[i]));
        else ck_assert_msg(memcmp(&f[i], &want, 4) == 0, "f16 %04x", i);
    }
    cast(IR_TRUNCF, TT_F32, TT_F16, M, f, back);
    for (int i = 0; i < M; i++)
        if (!isnan(f[i])) ck_assert_uint_eq(back[i], h[i]);
    /* random f32 bit patterns narrowed to f16 and bf16 */
    enum { R = 1 << 18 };
    static uint32_t bitsv[R];
    static uint16_t o16[R];
    uint64_t x = 88172645463325252ull;
    for (int i = 0; i < R; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        bitsv[i] = (uint32_t)x;
        if (i % 4 == 1) bitsv[i] = (bitsv[i] & 0x83ffffffu) | 0x38000000u;   /* near the f16 range */
    }
    bitsv[0] = 0x477ff000u;           /* 65520: rounds to inf */
    bitsv[1] = 0x477fefffu;           /* just below: 65504 */
    bitsv[2] = 0x33000000u;           /* 2^-25: ties to 0 */
    bitsv[3] = 0x33000001u;           /* just above: smallest subnormal */
    cast(IR_TRUNCF, TT_F32, TT_F16, R, bitsv, o16);
    for (int i = 0; i < R; i++) {
        float v;
        memcpy(&v, &bitsv[i], 4);
        if (isnan(v)) ck_assert(isnan(h2f(o16[i])));
        else ck_assert_msg(o16[i] == f2h(v), "f32 %08x -> %04x, want %04x", bitsv[i], o16[i], f2h(v));
    }
    cast(IR_TRUNCF, TT_F32, TT_BF16, R, bitsv, o16);
    for (int i = 0; i < R; i++) {
        float v;
        memcpy(&v, &bitsv[i], 4);
        if (isnan(v)) ck_assert(isnan(tt_bf16_to_f32(o16[i])));
        else ck_assert_uint_eq(o16[i], tt_f32_to_bf16(v));
    }
    /* f64 -> f16 with one rounding: 1 + 2^-11 + 2^-30 is above the tie */
    double d[2] = { 1.0 + 0x1p-11 + 0x1p-30, 1.0 + 0x1p-11 };
    uint16_t hd[2];
    cast(IR_TRUNCF, TT_F64, TT_F16, 2, d, hd);
    ck_assert_uint_eq(hd[0], 0x3c01);
    ck_assert_uint_eq(hd[1], 0x3c00);
    float fd[2];
    cast(IR_TRUNCF, TT_F64, TT_F32, 2, d, fd);
    ck_assert(fd[0] == (float)d[0]);
}
END_TEST

TCase *cast_tcase(void)
{
    TCase *tc = tcase_create("cast");
    tcase_add_test(tc, float_to_int);
    tcase_add_test(tc, int_to_float);
    tcase_add_test(tc, int_ext_trunc);
    tcase_add_test(tc, float_float);
    return tc;
}
