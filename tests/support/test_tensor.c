/* test_tensor.c — tensor allocation, description, stats and generators. */
#include <math.h>
#include <string.h>
#include "tsupport.h"
#include "tritium/tensor.h"

START_TEST(new_and_describe)
{
    int64_t shape[2] = { 3, 4 };
    tt_tensor *t = tt_tensor_new("x", TT_F32, 2, shape);
    ck_assert_ptr_nonnull(t);
    ck_assert_uint_eq(t->nbytes, 48);
    ck_assert_int_eq(t->strides[0], 4);
    ck_assert_int_eq(t->strides[1], 1);
    ck_assert_int_eq(tt_tensor_numel(t), 12);
    ck_assert_uint_eq((uintptr_t)t->data % 64, 0);
    for (int i = 0; i < 12; i++) ck_assert(((float *)t->data)[i] == 0.0f);
    ck_assert_str_eq(t->name, "x");
    char buf[64];
    ck_assert_str_eq(tt_tensor_describe(t, buf, sizeof buf), "f32[3,4]");
    tt_tensor *c = tt_tensor_clone(t);
    ((float *)t->data)[5] = 2.5f;
    ck_assert(((float *)c->data)[5] == 0.0f);          /* deep copy */
    ck_assert_str_eq(tt_tensor_describe(c, buf, sizeof buf), "f32[3,4]");
    tt_tensor_free(c);
    tt_tensor_free(t);

    tt_tensor *s = tt_tensor_new(NULL, TT_I64, 0, NULL);
    ck_assert_int_eq(tt_tensor_numel(s), 1);
    ck_assert_uint_eq(s->nbytes, 8);
    ck_assert_str_eq(tt_tensor_describe(s, buf, sizeof buf), "i64[]");
    ck_assert_str_eq(tt_tensor_describe(s, buf, 3), "i6");          /* truncated, terminated */
    tt_tensor_free(s);

    int64_t big[4] = { 64, 128, 2, 1 };
    t = tt_tensor_new("b", TT_BF16, 4, big);
    ck_assert_str_eq(tt_tensor_describe(t, buf, sizeof buf), "bf16[64,128,2,1]");
    ck_assert_int_eq(t->strides[0], 256);
    tt_tensor_free(t);
}
END_TEST

START_TEST(new_rejects)
{
    int64_t neg[2] = { 3, -1 };
    ck_assert_ptr_null(tt_tensor_new("x", TT_F32, 2, neg));
    int64_t ovf[2] = { (int64_t)1 << 40, (int64_t)1 << 40 };
    ck_assert_ptr_null(tt_tensor_new("x", TT_F32, 2, ovf));
    int64_t huge[2] = { (int64_t)1 << 38, 8 };                    /* 2^41 f32 = 2^43 bytes */
    ck_assert_ptr_null(tt_tensor_new("x", TT_F32, 2, huge));
    int64_t at[1] = { (int64_t)1 << 39 };                          /* 2^40 bytes + 1 elem */
    ck_assert_ptr_null(tt_tensor_new("x", TT_U16, 1, (int64_t[]){ at[0] + 1 }));
    int64_t zero_huge[2] = { 0, (int64_t)1 << 62 };
    ck_assert_ptr_null(tt_tensor_new("x", TT_F32, 2, zero_huge));
    int64_t s5[TT_MAX_RANK + 1];
    for (int d = 0; d <= TT_MAX_RANK; d++) s5[d] = 1;
    tt_tensor *full = tt_tensor_new("x", TT_F32, TT_MAX_RANK, s5);
    ck_assert_ptr_nonnull(full);
    tt_tensor_free(full);
    ck_assert_ptr_null(tt_tensor_new("x", TT_F32, TT_MAX_RANK + 1, s5));
    ck_assert_ptr_null(tt_tensor_new("x", TT_PTR, 1, s5));
    int64_t empty[2] = { 0, 3 };
    tt_tensor *t = tt_tensor_new("e", TT_F32, 2, empty);
    ck_assert_ptr_nonnull(t);
    ck_assert_int_eq(tt_tensor_numel(t), 0);
    ck_assert_uint_eq(t->nbytes, 0);
    tt_tensor_free(t);
}
END_TEST

/* Philox4x32-10 known-answer vector from Random123's kat_vectors:
 * counter 0, key 0 -> 6627e8d5 e169c58d bc57ac4c 9b00dbd8. With seed 0 and
 * stream 0, element 0 of an f64 `rand` is the top 53 bits of the first two
 * words; element 1 of the next two. */
START_TEST(rand_known_answer)
{
    int64_t n[1] = { 2 };
    tt_tensor *t = tt_tensor_new("r", TT_F64, 1, n);
    ck_assert(tt_tensor_generate(t, "rand", 0, 0, 0, NULL, 0));
    double e0 = ldexp((double)((0x6627e8d5ull << 32 | 0xe169c58dull) >> 11), -53);
    double e1 = ldexp((double)((0xbc57ac4cull << 32 | 0x9b00dbd8ull) >> 11), -53);
    ck_assert(((double *)t->data)[0] == e0);
    ck_assert(((double *)t->data)[1] == e1);
    tt_tensor_free(t);
}
END_TEST

static void check_rand_range(tt_dtype d)
{
    int64_t n[1] = { 100000 };
    tt_tensor *t = tt_tensor_new("r", d, 1, n);
    ck_assert(tt_tensor_generate(t, "rand", 0, 1234, 7, NULL, 0));
    double sum = 0, lo = 1, hi = 0;
    int64_t outside = 0;
    for (int64_t i = 0; i < n[0]; i++) {
        double v = tt_load_f64(t->data, d, i);
        outside += !(v >= 0.0 && v < 1.0);
        sum += v;
        if (v < lo) lo = v;
        if (v > hi) hi = v;
    }
    ck_assert_msg(outside == 0, "%s: %lld values outside [0, 1)", tt_dtype_name(d), (long long)outside);
    ck_assert(fabs(sum / (double)n[0] - 0.5) < 0.01);
    ck_assert(lo < 0.01 && hi > 0.99);
    tt_tensor_free(t);
}

START_TEST(rand_range)
{
    check_rand_range(TT_F32);
    check_rand_range(TT_F16);
    check_rand_range(TT_BF16);
    check_rand_range(TT_F64);
}
END_TEST

START_TEST(randn_moments)
{
    int64_t n[2] = { 1000, 100 };
    tt_tensor *t = tt_tensor_new("r", TT_F32, 2, n);
    ck_assert(tt_tensor_generate(t, "randn", 0, 42, 0, NULL, 0));
    double sum = 0, sq = 0;
    int beyond3 = 0;
    const float *x = t->data;
    for (int i = 0; i < 100000; i++) {
        sum += x[i];
        sq += (double)x[i] * x[i];
        beyond3 += fabsf(x[i]) > 3.0f;
    }
    double mean = sum / 1e5, var = sq / 1e5 - mean * mean;
    ck_assert_msg(fabs(mean) < 0.02, "mean %g", mean);
    ck_assert_msg(fabs(var - 1.0) < 0.02, "var %g", var);
    /* P(|z| > 3) = 0.0027 for a standard normal */
    ck_assert_msg(beyond3 > 170 && beyond3 < 370, "tail count %d", beyond3);
    double mn, mx, avg;
    tt_tensor_stats(t, &mn, &mx, &avg);
    ck_assert(fabs(avg - mean) < 1e-9);
    ck_assert(mn < -3.5 && mx > 3.5);
    tt_tensor_free(t);
}
END_TEST

START_TEST(seeds_and_streams)
{
    int64_t n[1] = { 1001 };
    tt_tensor *a = tt_tensor_new("a", TT_F32, 1, n), *b = tt_tensor_new("b", TT_F32, 1, n);
    tt_tensor *c = tt_tensor_new("c", TT_F32, 1, n), *d = tt_tensor_new("d", TT_F32, 1, n);
    ck_assert(tt_tensor_generate(a, "randn", 0, 5, 1, NULL, 0));
    ck_assert(tt_tensor_generate(b, "randn", 0, 5, 1, NULL, 0));
    ck_assert(tt_tensor_generate(c, "randn", 0, 5, 2, NULL, 0));
    ck_assert(tt_tensor_generate(d, "randn", 0, 6, 1, NULL, 0));
    ck_assert(memcmp(a->data, b->data, a->nbytes) == 0);
    int same_c = 0, same_d = 0;
    for (int i = 0; i < 1001; i++) {
        same_c += ((float *)a->data)[i] == ((float *)c->data)[i];
        same_d += ((float *)a->data)[i] == ((float *)d->data)[i];
    }
    ck_assert_int_lt(same_c, 3);
    ck_assert_int_lt(same_d, 3);
    /* correlation between two streams is near 0 */
    double sab = 0;
    for (int i = 0; i < 1001; i++) sab += ((float *)a->data)[i] * ((float *)c->data)[i];
    ck_assert(fabs(sab / 1001) < 0.15);
    tt_tensor_free(a); tt_tensor_free(b); tt_tensor_free(c); tt_tensor_free(d);
}
END_TEST

START_TEST(fills)
{
    int64_t n[1] = { 5 };
    char err[128];
    tt_tensor *t = tt_tensor_new("t", TT_I32, 1, n);
    ck_assert(tt_tensor_generate(t, "arange", 0, 0, 0, err, sizeof err));
    for (int i = 0; i < 5; i++) ck_assert_int_eq(((int32_t *)t->data)[i], i);
    ck_assert(tt_tensor_generate(t, "full", -7.9, 0, 0, err, sizeof err));
    for (int i = 0; i < 5; i++) ck_assert_int_eq(((int32_t *)t->data)[i], -7);
    ck_assert(tt_tensor_generate(t, "ones", 0, 0, 0, err, sizeof err));
    for (int i = 0; i < 5; i++) ck_assert_int_eq(((int32_t *)t->data)[i], 1);
    ck_assert(tt_tensor_generate(t, "empty", 0, 0, 0, err, sizeof err));
    for (int i = 0; i < 5; i++) ck_assert_uint_eq(((uint32_t *)t->data)[i], 0xCDCDCDCDu);
    ck_assert(tt_tensor_generate(t, "zeros", 0, 0, 0, err, sizeof err));
    for (int i = 0; i < 5; i++) ck_assert_int_eq(((int32_t *)t->data)[i], 0);
    ck_assert(!tt_tensor_generate(t, "gauss", 0, 0, 0, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "unknown tensor generator 'gauss'"));
    tt_tensor_free(t);

    t = tt_tensor_new("h", TT_F16, 1, n);
    ck_assert(tt_tensor_generate(t, "ones", 0, 0, 0, err, sizeof err));
    for (int i = 0; i < 5; i++) ck_assert_uint_eq(((uint16_t *)t->data)[i], 0x3C00);
    ck_assert(tt_tensor_generate(t, "arange", 0, 0, 0, err, sizeof err));
    ck_assert_uint_eq(((uint16_t *)t->data)[4], 0x4400);          /* 4.0 */
    ck_assert(tt_tensor_generate(t, "full", 0.1, 0, 0, err, sizeof err));
    ck_assert_uint_eq(((uint16_t *)t->data)[2], 0x2E66);
    tt_tensor_free(t);

    t = tt_tensor_new("b", TT_BOOL, 1, n);
    ck_assert(tt_tensor_generate(t, "arange", 0, 0, 0, err, sizeof err));
    ck_assert_uint_eq(((uint8_t *)t->data)[0], 0);
    ck_assert_uint_eq(((uint8_t *)t->data)[3], 1);
    tt_tensor_free(t);

    int64_t big[1] = { 3 };
    t = tt_tensor_new("l", TT_I64, 1, big);
    ck_assert(tt_tensor_generate(t, "full", 9007199254740993.0, 0, 0, err, sizeof err));
    ck_assert(((int64_t *)t->data)[0] == 9007199254740992LL);     /* the double's value */
    tt_tensor_free(t);
}
END_TEST

START_TEST(stats)
{
    int64_t n[1] = { 4 };
    tt_tensor *t = tt_tensor_new("s", TT_F32, 1, n);
    float v[4] = { 1.0f, NAN, -3.0f, 5.0f };
    memcpy(t->data, v, sizeof v);
    double mn, mx, mean;
    tt_tensor_stats(t, &mn, &mx, &mean);
    ck_assert(mn == -3.0 && mx == 5.0);
    ck_assert(isnan(mean));
    v[1] = 1.0f;
    memcpy(t->data, v, sizeof v);
    tt_tensor_stats(t, &mn, &mx, &mean);
    ck_assert(mean == 1.0);
    tt_tensor_free(t);
}
END_TEST

/* The one flat-index formatter, splitmix64 and tt_sort_median, against known values. */
START_TEST(index_text_and_splitmix)
{
    char b[64];
    int64_t s2[2] = { 64, 64 }, s3[3] = { 2, 3, 4 }, s1[1] = { 10 };
    ck_assert_str_eq(tt_index_str(s2, 2, 3 * 64 + 17, b, sizeof b), "[3, 17]");
    ck_assert_str_eq(tt_index_str(s3, 3, 23, b, sizeof b), "[1, 2, 3]");
    ck_assert_str_eq(tt_index_str(s1, 1, 4113, b, sizeof b), "[4113]");      /* out of range stays flat */
    ck_assert_str_eq(tt_index_str(s2, 2, 64 * 64 + 1, b, sizeof b), "[64, 1]");
    ck_assert_str_eq(tt_index_str(s2, 2, -1, b, sizeof b), "[-1, 63]");      /* floor division */
    ck_assert_str_eq(tt_index_str(s1, 0, 0, b, sizeof b), "[]");
    ck_assert_str_eq(tt_index_str(s3, 3, 23, b, 4), "[1,");                    /* truncated, terminated */
    /* Vigna's splitmix64.c with seed 1234567: the first outputs */
    uint64_t st = 1234567;
    ck_assert_uint_eq(tt_splitmix64(&st), 6457827717110365317ull);
    ck_assert_uint_eq(tt_splitmix64(&st), 3203168211198807973ull);
    /* tt_sort_median: odd and even counts, sorted in place */
    double odd[] = { 3, -1, 7, 2, 5 }, even[] = { 4, 1, 8, 2 }, one[] = { 9 };
    ck_assert(tt_sort_median(odd, 5) == 3 && odd[0] == -1 && odd[4] == 7);
    ck_assert(tt_sort_median(even, 4) == 3 && even[0] == 1 && even[3] == 8);
    ck_assert(tt_sort_median(one, 1) == 9);
}
END_TEST

TCase *tensor_tcase(void)
{
    TCase *tc = tcase_create("tensor");
    tcase_add_test(tc, new_and_describe);
    tcase_add_test(tc, new_rejects);
    tcase_add_test(tc, rand_known_answer);
    tcase_add_test(tc, rand_range);
    tcase_add_test(tc, randn_moments);
    tcase_add_test(tc, seeds_and_streams);
    tcase_add_test(tc, fills);
    tcase_add_test(tc, stats);
    tcase_add_test(tc, index_text_and_splitmix);
    return tc;
}
