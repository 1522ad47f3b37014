/* test_dtype.c — dtype names and scalar conversions against known IEEE bit
 * patterns (values worked out by hand from the formats, not by this code). */
#include <math.h>
#include <string.h>
#include "tsupport.h"
#include "tritium/dtype.h"
#include "tritium/support.h"

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

/* The dtype table (dtype.c) is the one list of dtypes: every name of a dtype
 * parses back to it, its tl and IR names look it up, no two dtypes share a
 * name in one column, and the .npy descriptor has the element's size.
 * tests/python/test_dtypes.py checks the same columns against tritium.h,
 * numpy, ml_dtypes, torch, Triton and the Python package. */
START_TEST(table_columns)
{
    for (int i = 0; i < TT_DTYPE_COUNT; i++) {
        tt_dtype d = (tt_dtype)i, e;
        const char *cols[] = { tt_dtype_name(d), tt_dtype_triton_name(d), tt_dtype_tl_name(d), tt_dtype_torch_name(d),
                               tt_dtype_ml_name(d) };
        for (size_t k = 0; k < TT_COUNTOF(cols); k++) {
            if (!cols[k]) continue;
            if (d == TT_PTR) {
                ck_assert_msg(!tt_dtype_parse(cols[k], &e), "%s: pointers have no dtype name", cols[k]);
                continue;
            }
            ck_assert_msg(tt_dtype_parse(cols[k], &e) && e == d, "%s does not parse to %s", cols[k], tt_dtype_name(d));
            for (int j = 0; j < i; j++) {
                const char *other[] = { tt_dtype_name((tt_dtype)j), tt_dtype_triton_name((tt_dtype)j),
                                        tt_dtype_tl_name((tt_dtype)j), tt_dtype_torch_name((tt_dtype)j),
                                        tt_dtype_ml_name((tt_dtype)j) };
                ck_assert_msg(!other[k] || strcmp(other[k], cols[k]), "%s names two dtypes", cols[k]);
            }
        }
        if (tt_dtype_tl_name(d)) ck_assert(tt_dtype_from_tl(tt_dtype_tl_name(d), &e) && e == d);
        else ck_assert_int_eq(d, TT_PTR);
        const char *ir = tt_dtype_ir_name(d);
        if (ir) ck_assert(tt_dtype_from_ir(ir, strlen(ir), &e) && e == d);
        else ck_assert(d == TT_PTR || (d >= TT_U8 && d <= TT_U64));     /* the IR is signless */
        const char *npy = tt_dtype_npy_descr(d);
        ck_assert_int_eq(npy[strlen(npy) - 1] - '0', tt_dtype_size(d));
        ck_assert(tt_dtype_bits(d) <= 8 * tt_dtype_size(d));
    }
    tt_dtype e;
    ck_assert(!tt_dtype_from_tl("float", &e) && !tt_dtype_from_tl("fp32", &e));   /* not triton.language's */
    ck_assert(!tt_dtype_from_ir("f32x", 4, &e) && tt_dtype_from_ir("f32x", 3, &e) && e == TT_F32);
}
END_TEST

/* fp8 encodings against values worked out by hand from the formats (OCP
 * e4m3fn/e5m2, the fnuz variants) and PTX's .satfinite rule; the
 * conformance suite checks every case against ml_dtypes. */
START_TEST(fp8_known_values)
{
    static const struct { tt_dtype d; float x; bool rtz; uint8_t want; } enc[] = {
        { TT_F8E4NV, 1.0f, false, 0x38 }, { TT_F8E4NV, -1.0f, false, 0xb8 }, { TT_F8E4NV, 448.0f, false, 0x7e },
        { TT_F8E4NV, 464.0f, false, 0x7e }, { TT_F8E4NV, 1e6f, false, 0x7e }, { TT_F8E4NV, -INFINITY, false, 0xfe },
        { TT_F8E4NV, NAN, false, 0x7f }, { TT_F8E4NV, 0x1p-9f, false, 0x01 }, { TT_F8E4NV, 0x1p-10f, false, 0x00 },
        { TT_F8E4NV, 0x1.8p-10f, false, 0x01 }, { TT_F8E4NV, 0x1.8p-9f, false, 0x02 }, { TT_F8E4NV, 1.0625f, false, 0x38 },
        { TT_F8E4NV, 1.1875f, false, 0x3a }, { TT_F8E4NV, -0.0f, false, 0x80 },
        { TT_F8E5, 1.0f, false, 0x3c }, { TT_F8E5, 57344.0f, false, 0x7b }, { TT_F8E5, INFINITY, false, 0x7b },
        { TT_F8E5, 0x1p-16f, false, 0x01 }, { TT_F8E5, 1.99f, true, 0x3f }, { TT_F8E5, INFINITY, true, 0x7c },
        { TT_F8E5, 1e9f, true, 0x7b }, { TT_F8E5, -0x1.fp-16f, true, 0x81 },
        { TT_F8E4B8, 1.0f, false, 0x40 }, { TT_F8E4B8, 240.0f, false, 0x7f }, { TT_F8E4B8, 1e4f, false, 0x7f },
        { TT_F8E4B8, INFINITY, false, 0x80 }, { TT_F8E4B8, -0.0f, false, 0x00 }, { TT_F8E4B8, -1e-9f, false, 0x00 },
        { TT_F8E5B16, 1.0f, false, 0x40 }, { TT_F8E5B16, -57344.0f, false, 0xff }, { TT_F8E5B16, NAN, false, 0x80 },
        { TT_F8E4B15, 1.0f, false, 0x78 }, { TT_F8E4B15, 1.75f, false, 0x7e }, { TT_F8E4B15, 2.0f, false, 0x7e },
        { TT_F8E4B15, -NAN, false, 0xfe }, { TT_F8E4B15, 1.0625f, false, 0x79 }, { TT_F8E4B15, 0x1p-17f, false, 0x01 },
    };
    for (size_t i = 0; i < TT_COUNTOF(enc); i++)
        ck_assert_msg(tt_fp8_encode(enc[i].d, enc[i].x, enc[i].rtz) == enc[i].want, "%s(%a%s) = 0x%02x, want 0x%02x",
                      tt_dtype_name(enc[i].d), (double)enc[i].x, enc[i].rtz ? ", rtz" : "",
                      tt_fp8_encode(enc[i].d, enc[i].x, enc[i].rtz), enc[i].want);
    ck_assert(tt_fp8_decode(TT_F8E4NV, 0x7e, false) == 448.0f);
    ck_assert(isnan(tt_fp8_decode(TT_F8E4NV, 0xff, false)));
    ck_assert(tt_fp8_decode(TT_F8E5, 0x7c, false) == INFINITY);
    ck_assert(tt_fp8_decode(TT_F8E5, 0x7c, true) == 65536.0f);       /* Triton's fp8e5 -> bf16 */
    ck_assert(tt_fp8_decode(TT_F8E5, 0xff, true) == -114688.0f);
    ck_assert(isnan(tt_fp8_decode(TT_F8E4B8, 0x80, false)));
    ck_assert(tt_fp8_decode(TT_F8E4B15, 0x7f, false) == 1.875f);
    ck_assert(tt_fp8_decode(TT_F8E4B15, 0x01, false) == 0x1p-17f);
    ck_assert(tt_fp8_max(TT_F8E5B16) == 57344.0 && tt_fp8_max(TT_F8E4B8) == 240.0);
    /* f32 -> f16 / bf16 toward zero */
    ck_assert_uint_eq(tt_f32_to_f16_rz(1.0f + 0x1p-11f + 0x1p-12f), 0x3c00);
    ck_assert_uint_eq(tt_f32_to_f16_rz(-70000.0f), 0xfbff);
    ck_assert_uint_eq(tt_f32_to_f16_rz(INFINITY), 0x7c00);
    ck_assert_uint_eq(tt_f32_to_f16_rz(0x1p-25f), 0x0000);
    ck_assert_uint_eq(tt_f32_to_bf16_rz(1.0f + 0x1p-8f + 0x1p-9f), 0x3f80);
    ck_assert_uint_eq(tt_f32_to_bf16_rz(NAN), 0x7fff);
    /* names: command line, Triton, ml_dtypes */
    tt_dtype d;
    ck_assert(tt_dtype_parse("f8e4nv", &d) && d == TT_F8E4NV);
    ck_assert(tt_dtype_parse("fp8e5b16", &d) && d == TT_F8E5B16);
    ck_assert(tt_dtype_parse("float8_e4m3fnuz", &d) && d == TT_F8E4B8);
    ck_assert(tt_dtype_parse("float8e4b15", &d) && d == TT_F8E4B15);
    ck_assert_str_eq(tt_dtype_ml_name(TT_F8E5), "float8_e5m2");
    ck_assert_ptr_null(tt_dtype_ml_name(TT_F8E4B15));
    ck_assert(tt_dtype_is_fp8(TT_F8E4B8) && tt_dtype_is_float(TT_F8E4B8) && !tt_dtype_is_fp8(TT_F16));
    ck_assert_int_eq(tt_dtype_size(TT_F8E5), 1);
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
    tcase_add_test(tc, table_columns);
    tcase_add_test(tc, fp8_known_values);
    return tc;
}
