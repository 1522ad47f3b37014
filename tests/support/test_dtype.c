/* test_dtype.c — dtype names and scalar conversions against known IEEE bit
 * patterns (values worked out by hand from the formats, not by this code). */
#include <math.h>
#include <string.h>
#include "tsupport.h"
#include "tritium/dtype.h"

static float f32_bits(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t bits_f32(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

START_TEST(f16_decode)
{
    ck_assert(tt_f16_to_f32(0x3C00) == 1.0f);
    ck_assert(tt_f16_to_f32(0xC000) == -2.0f);
    ck_assert(tt_f16_to_f32(0x7BFF) == 65504.0f);
    ck_assert(tt_f16_to_f32(0x0001) == ldexpf(1.0f, -24));   /* smallest subnormal */
    ck_assert(tt_f16_to_f32(0x3555) == f32_bits(0x3EAAA000)); /* 0.33325195 */
    ck_assert(isinf(tt_f16_to_f32(0x7C00)) && tt_f16_to_f32(0x7C00) > 0);
    ck_assert(isnan(tt_f16_to_f32(0x7E00)));
    ck_assert_uint_eq(bits_f32(tt_f16_to_f32(0x8000)), 0x80000000u);
}
END_TEST

START_TEST(f16_encode_rtne)
{
    ck_assert_uint_eq(tt_f32_to_f16(1.0f), 0x3C00);
    ck_assert_uint_eq(tt_f32_to_f16(-2.0f), 0xC000);
    /* 1 + 2^-11 lies halfway between 0x3C00 and 0x3C01: ties go to even */
    ck_assert_uint_eq(tt_f32_to_f16(1.0f + ldexpf(1, -11)), 0x3C00);
    /* 1 + 3*2^-11 lies halfway between 0x3C01 and 0x3C02 */
    ck_assert_uint_eq(tt_f32_to_f16(1.0f + 3 * ldexpf(1, -11)), 0x3C02);
    /* just above the tie rounds up */
    ck_assert_uint_eq(tt_f32_to_f16(f32_bits(0x3F801001)), 0x3C01);
    ck_assert_uint_eq(tt_f32_to_f16(65519.0f), 0x7BFF);
    ck_assert_uint_eq(tt_f32_to_f16(65520.0f), 0x7C00);      /* tie between max and 2^16 -> inf */
    ck_assert_uint_eq(tt_f32_to_f16(ldexpf(1, -25)), 0x0000); /* tie with 0 -> 0 */
    ck_assert_uint_eq(tt_f32_to_f16(ldexpf(3, -26)), 0x0001);
    uint16_t n = tt_f32_to_f16(NAN);
    ck_assert((n & 0x7C00) == 0x7C00 && (n & 0x3FF) != 0);
}
END_TEST

START_TEST(bf16_conv)
{
    ck_assert_uint_eq(tt_f32_to_bf16(1.0f), 0x3F80);
    ck_assert(tt_bf16_to_f32(0x3F80) == 1.0f);
    ck_assert(tt_bf16_to_f32(0xC0A0) == -5.0f);
    ck_assert_uint_eq(tt_f32_to_bf16(f32_bits(0x3F808000)), 0x3F80);  /* tie -> even */
    ck_assert_uint_eq(tt_f32_to_bf16(f32_bits(0x3F818000)), 0x3F82);  /* tie -> even (up) */
    ck_assert_uint_eq(tt_f32_to_bf16(f32_bits(0x3F808001)), 0x3F81);
    ck_assert_uint_eq(tt_f32_to_bf16(f32_bits(0x7F7FFFFF)), 0x7F80);  /* FLT_MAX -> inf */
    /* NaNs stay NaN (a signalling NaN must not round to inf), sign kept */
    ck_assert_uint_eq(tt_f32_to_bf16(f32_bits(0x7FC00000)), 0x7FC0);
    ck_assert_uint_eq(tt_f32_to_bf16(f32_bits(0x7F800001)), 0x7FC0);
    ck_assert_uint_eq(tt_f32_to_bf16(f32_bits(0xFF800001)), 0xFFC0);
    ck_assert_uint_eq(tt_f32_to_bf16(INFINITY), 0x7F80);
}
END_TEST

START_TEST(store_f64_single_rounding)
{
    uint16_t h[1];
    /* rounding via f32 first would give 1.0 (double rounding) */
    tt_store_f64(h, TT_F16, 0, 1.0 + ldexp(1, -11) + ldexp(1, -40));
    ck_assert_uint_eq(h[0], 0x3C01);
    tt_store_f64(h, TT_BF16, 0, 1.0 + ldexp(1, -8) + ldexp(1, -30));
    ck_assert_uint_eq(h[0], 0x3F81);
    tt_store_f64(h, TT_BF16, 0, -(1.0 + ldexp(1, -8) + ldexp(1, -30)));
    ck_assert_uint_eq(h[0], 0xBF81);
    tt_store_f64(h, TT_BF16, 0, 1.0 + ldexp(1, -8));             /* exact tie -> even */
    ck_assert_uint_eq(h[0], 0x3F80);
    tt_store_f64(h, TT_BF16, 0, 1e39);                           /* beyond f32 -> inf */
    ck_assert_uint_eq(h[0], 0x7F80);
    tt_store_f64(h, TT_BF16, 0, 1e-50);                          /* underflows to +0 */
    ck_assert_uint_eq(h[0], 0x0000);
    tt_store_f64(h, TT_F16, 0, 0.1);
    ck_assert_uint_eq(h[0], 0x2E66);
}
END_TEST

START_TEST(store_int_casts)
{
    int32_t i32[1];
    uint8_t u8[1];
    int64_t i64[1];
    tt_store_f64(i32, TT_I32, 0, 3e9);   ck_assert_int_eq(i32[0], INT32_MAX);
    tt_store_f64(i32, TT_I32, 0, -3e9);  ck_assert_int_eq(i32[0], INT32_MIN);
    tt_store_f64(i32, TT_I32, 0, NAN);   ck_assert_int_eq(i32[0], 0);
    tt_store_f64(i32, TT_I32, 0, -1.7);  ck_assert_int_eq(i32[0], -1);
    tt_store_f64(u8, TT_U8, 0, -5);      ck_assert_uint_eq(u8[0], 0);
    tt_store_f64(u8, TT_U8, 0, 300);     ck_assert_uint_eq(u8[0], 255);
    tt_store_f64(u8, TT_BOOL, 0, NAN);   ck_assert_uint_eq(u8[0], 1);
    tt_store_f64(u8, TT_BOOL, 0, 0.0);   ck_assert_uint_eq(u8[0], 0);
    tt_store_f64(i64, TT_I64, 0, 1e19);  ck_assert(i64[0] == INT64_MAX);
    uint32_t u32[1] = { 0xFFFFFFFFu };
    ck_assert(tt_load_i64(u32, TT_U32, 0) == 4294967295LL);
    ck_assert(tt_load_i64(u32, TT_I32, 0) == -1);
    ck_assert(tt_load_f64(u32, TT_U32, 0) == 4294967295.0);
    tt_store_i64(u8, TT_U8, 0, 257);     ck_assert_uint_eq(u8[0], 1);   /* wraps */
}
END_TEST

START_TEST(names)
{
    tt_dtype d;
    ck_assert(tt_dtype_parse("float32", &d) && d == TT_F32);
    ck_assert(tt_dtype_parse("fp16", &d) && d == TT_F16);
    ck_assert(tt_dtype_parse("bfloat16", &d) && d == TT_BF16);
    ck_assert(tt_dtype_parse("uint8", &d) && d == TT_U8);
    ck_assert(tt_dtype_parse("int1", &d) && d == TT_BOOL);
    ck_assert(tt_dtype_parse("i64", &d) && d == TT_I64);
    ck_assert(!tt_dtype_parse("f8", &d));
    ck_assert(!tt_dtype_parse("", &d));
    ck_assert_str_eq(tt_dtype_npy_descr(TT_F32), "<f4");
    ck_assert_str_eq(tt_dtype_npy_descr(TT_BOOL), "|b1");
    ck_assert_str_eq(tt_dtype_npy_descr(TT_BF16), "<V2");
    ck_assert_int_eq(tt_dtype_size(TT_BF16), 2);
    ck_assert_int_eq(tt_dtype_bits(TT_BOOL), 1);
    ck_assert(tt_dtype_is_int(TT_BOOL) && !tt_dtype_is_signed(TT_U32) && tt_dtype_is_signed(TT_I8));
    ck_assert(tt_dtype_is_float(TT_BF16) && !tt_dtype_is_float(TT_PTR));
}
END_TEST

TCase *dtype_tcase(void)
{
    TCase *tc = tcase_create("dtype");
    tcase_add_test(tc, f16_decode);
    tcase_add_test(tc, f16_encode_rtne);
    tcase_add_test(tc, bf16_conv);
    tcase_add_test(tc, store_f64_single_rounding);
    tcase_add_test(tc, store_int_casts);
    tcase_add_test(tc, names);
    return tc;
}
