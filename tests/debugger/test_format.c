/* test_format.c — value formatting (numpy style) on hand-made values; the
 * expected strings are written out by hand from numpy's rules. */
#include <string.h>
#include "tdbg.h"

static dbg_value make(tt_dtype dt, int rank, const int64_t *shape)
{
    dbg_value v = { .dt = dt, .rank = rank, .numel = 1, .pt = TT_DTYPE_COUNT };
    for (int k = 0; k < rank; k++) {
        v.shape[k] = shape[k];
        v.numel *= shape[k];
    }
    v.data = xcalloc((size_t)v.numel, (size_t)tt_dtype_size(dt));
    return v;
}

static void check(const dbg_value *v, int fmt, int limit, const char *want)
{
    char *s = dbg_format_value(v, fmt, limit, 0);
    ck_assert_str_eq(s, want);
    free(s);
}

START_TEST(ints_and_elision)
{
    int64_t n = 4;
    dbg_value v = make(TT_I32, 1, &n);
    for (int i = 0; i < 4; i++) tt_store_i64(v.data, TT_I32, i, i - 1);
    check(&v, 0, 1000, "[-1  0  1  2]");
    check(&v, 'x', 1000, "[0xffffffff        0x0        0x1        0x2]");
    check(&v, 'd', 1000, "[-1  0  1  2]");
    check(&v, 'u', 1000, "[4294967295          0          1          2]");
    check(&v, 't', 1000, "[11111111111111111111111111111111                                0\n"
                         "                                1                               10]");
    dbg_value_free(&v);
    n = 2000;
    v = make(TT_I64, 1, &n);
    for (int i = 0; i < 2000; i++) tt_store_i64(v.data, TT_I64, i, i);
    check(&v, 0, 1000, "[   0    1    2 ... 1997 1998 1999]");
    char *p = dbg_preview(&v, 0);
    ck_assert_str_eq(p, "[0 1 2 ... 1997 1998 1999]");
    free(p);
    dbg_value_free(&v);
    /* scalars */
    v = make(TT_I8, 0, NULL);
    tt_store_i64(v.data, TT_I8, 0, -5);
    check(&v, 0, 1000, "-5");
    check(&v, 'x', 1000, "0xfb");
    check(&v, 'c', 1000, "-5 '\\373'");
    dbg_value_free(&v);
}
END_TEST

START_TEST(floats)
{
    int64_t n = 5;
    dbg_value v = make(TT_F32, 1, &n);
    float vals[] = { 0.0f, 0.5f, 10.0f, 0.1f, -2.25f };
    for (int i = 0; i < 5; i++) tt_store_f64(v.data, TT_F32, i, vals[i]);
    check(&v, 0, 1000, "[   0.   0.5   10.   0.1 -2.25]");
    check(&v, 'x', 1000, "[       0x0 0x3f000000 0x41200000 0x3dcccccd 0xc0100000]");
    dbg_value_free(&v);
    v = make(TT_F32, 0, NULL);
    struct { double x; const char *s; } cases[] = {
        { 1e20, "1.e+20" }, { 1.5e-7, "1.5e-07" }, { 1.0 / 3, "0.33333334" }, { 123456.0, "123456." },
        { -0.0, "-0." }, { 1.0 / 0.0, "inf" }, { -1.0 / 0.0, "-inf" }, { 0.1, "0.1" }, { 16777216.0, "16777216." },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        tt_store_f64(v.data, TT_F32, 0, cases[i].x);
        check(&v, 0, 1000, cases[i].s);
    }
    dbg_value_free(&v);
    /* f16 and f64 use their own shortest forms */
    v = make(TT_F16, 0, NULL);
    tt_store_f64(v.data, TT_F16, 0, 0.1);
    check(&v, 0, 1000, "0.1");
    check(&v, 'x', 1000, "0x2e66");
    dbg_value_free(&v);
    v = make(TT_F64, 0, NULL);
    tt_store_f64(v.data, TT_F64, 0, 0.1);
    check(&v, 0, 1000, "0.1");
    tt_store_f64(v.data, TT_F64, 0, 1.0 / 3);
    check(&v, 0, 1000, "0.3333333333333333");
    dbg_value_free(&v);
}
END_TEST

START_TEST(matrices_and_bools)
{
    int64_t sh[2] = { 2, 3 };
    dbg_value v = make(TT_I32, 2, sh);
    for (int i = 0; i < 6; i++) tt_store_i64(v.data, TT_I32, i, i * 10);
    check(&v, 0, 1000, "[[ 0 10 20]\n [30 40 50]]");
    dbg_value_free(&v);
    int64_t big[2] = { 64, 64 };
    v = make(TT_I32, 2, big);
    for (int i = 0; i < 64 * 64; i++) tt_store_i64(v.data, TT_I32, i, i % 7);
    /* row r starts with (64 r) % 7 */
    check(&v, 0, 1000, "[[0 1 2 ... 5 6 0]\n [1 2 3 ... 6 0 1]\n [2 3 4 ... 0 1 2]\n ...\n"
                       " [5 6 0 ... 3 4 5]\n [6 0 1 ... 4 5 6]\n [0 1 2 ... 5 6 0]]");
    dbg_value_free(&v);
    int64_t s3[3] = { 2, 1, 2 };
    v = make(TT_I32, 3, s3);
    for (int i = 0; i < 4; i++) tt_store_i64(v.data, TT_I32, i, i);
    check(&v, 0, 1000, "[[[0 1]]\n\n [[2 3]]]");
    dbg_value_free(&v);
    int64_t n = 3;
    v = make(TT_BOOL, 1, &n);
    ((uint8_t *)v.data)[1] = 1;
    check(&v, 0, 1000, "[False  True False]");
    char *t = dbg_format_type(&v);
    ck_assert_str_eq(t, "bool[3]");
    free(t);
    dbg_value_free(&v);
    /* long rows wrap at 80 columns, continuation under the first element */
    n = 30;
    v = make(TT_I32, 1, &n);
    for (int i = 0; i < 30; i++) tt_store_i64(v.data, TT_I32, i, 100 + i);
    check(&v, 0, 1000, "[100 101 102 103 104 105 106 107 108 109 110 111 112 113 114 115 116 117 118 119\n"
                       " 120 121 122 123 124 125 126 127 128 129]");
    dbg_value_free(&v);
    int64_t sh2[1] = { 4 };
    v = make(TT_U64, 1, sh2);
    v.is_ptr = true;
    v.pt = TT_F16;
    t = dbg_format_type(&v);
    ck_assert_str_eq(t, "ptr<f16>[4]");
    free(t);
    dbg_value_free(&v);
}
END_TEST

TCase *format_tcase(void)
{
    TCase *tc = tcase_create("format");
    tcase_add_test(tc, ints_and_elision);
    tcase_add_test(tc, floats);
    tcase_add_test(tc, matrices_and_bools);
    return tc;
}
