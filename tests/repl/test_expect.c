/* test_expect.c — repl_compare against numpy.allclose's rule worked out by
 * hand, and the exact per-element report. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "trepl.h"

static tt_tensor *vec(const char *name, tt_dtype d, int rank, const int64_t *shape, const double *v)
{
    tt_tensor *t = tt_tensor_new(name, d, rank, shape);
    for (int64_t i = 0; i < tt_tensor_numel(t); i++) tt_store_f64(t->data, d, i, v[i]);
    return t;
}

START_TEST(allclose_rule)
{
    int64_t n4[1] = { 4 };
    /* |2 - 2.00001| = 1e-5 <= 1e-8 + 1e-5 * 2.00001: close; 3.5 vs 3 is not */
    tt_tensor *got = vec("out", TT_F32, 1, n4, (double[]){ 1, 2, 3.5, -0.0 });
    tt_tensor *want = vec("ref", TT_F64, 1, n4, (double[]){ 1, 2.00001, 3, 0.0 });
    repl_expect_result r;
    repl_compare(got, want, false, 0, false, 0, 10, NULL, &r);
    ck_assert(!r.ok);
    ck_assert_int_eq(r.mismatches, 1);
    ck_assert_int_eq(r.numel, 4);
    ck_assert(r.rtol == 1e-5 && r.atol == 1e-8);
    ck_assert(r.max_abs == 0.5);
    ck_assert(fabs(r.max_rel - 0.5 / 3) < 1e-15);
    /* a looser rtol accepts it: 0.5 <= 0 + 0.2 * 3 */
    repl_compare(got, want, true, 0.2, true, 0, 10, NULL, &r);
    ck_assert(r.ok);
    /* but not 0.16: 0.5 > 0.48 */
    repl_compare(got, want, true, 0.16, true, 0, 10, NULL, &r);
    ck_assert(!r.ok);
    tt_tensor_free(got);
    tt_tensor_free(want);
}
END_TEST

START_TEST(nan_and_inf)
{
    int64_t n5[1] = { 5 };
    tt_tensor *got = vec("o", TT_F32, 1, n5, (double[]){ NAN, NAN, INFINITY, INFINITY, 1 });
    tt_tensor *want = vec("r", TT_F32, 1, n5, (double[]){ NAN, 1, INFINITY, -INFINITY, NAN });
    repl_expect_result r;
    repl_compare(got, want, false, 0, false, 0, 10, NULL, &r);
    ck_assert_int_eq(r.mismatches, 3);    /* NaN vs 1, inf vs -inf, 1 vs NaN */
    ck_assert(r.max_abs == 0 && r.max_rel == 0);   /* no finite pair differs */
    tt_tensor_free(got);
    tt_tensor_free(want);
}
END_TEST

START_TEST(integers_exact)
{
    int64_t n3[1] = { 3 };
    tt_tensor *got = vec("o", TT_I32, 1, n3, (double[]){ 1, 2, 3 });
    tt_tensor *want = vec("r", TT_I64, 1, n3, (double[]){ 1, 2, 4 });
    repl_expect_result r;
    repl_compare(got, want, false, 0, false, 0, 10, NULL, &r);
    ck_assert_int_eq(r.mismatches, 1);
    ck_assert(r.rtol == 0 && r.atol == 0);
    repl_compare(got, want, false, 0, true, 1, 10, NULL, &r);
    ck_assert(r.ok);
    tt_tensor_free(got);
    tt_tensor_free(want);
    /* 2**62 + 1 vs 2**62: equal as doubles, different as integers */
    got = tt_tensor_new("o", TT_I64, 1, (int64_t[]){ 1 });
    want = tt_tensor_new("r", TT_I64, 1, (int64_t[]){ 1 });
    ((int64_t *)got->data)[0] = (INT64_C(1) << 62) + 1;
    ((int64_t *)want->data)[0] = INT64_C(1) << 62;
    repl_compare(got, want, false, 0, false, 0, 10, NULL, &r);
    ck_assert_int_eq(r.mismatches, 1);
    tt_tensor_free(got);
    tt_tensor_free(want);
}
END_TEST

START_TEST(report_text)
{
    int64_t sh[2] = { 3, 5 };
    double g[15], w[15];
    for (int i = 0; i < 15; i++) g[i] = w[i] = i;
    g[6] = 100;            /* [1, 1] */
    g[14] = -1;            /* [2, 4] */
    tt_tensor *got = vec("out", TT_F32, 2, sh, g);
    tt_tensor *want = vec("ref", TT_F32, 2, sh, w);
    char *buf = NULL;
    size_t len;
    FILE *f = open_memstream(&buf, &len);
    repl_expect_result r;
    repl_compare(got, want, false, 0, false, 0, 10, f, &r);
    fclose(f);
    ck_assert_str_eq(buf,
        "tritium: error: --expect out: 2 of 15 elements differ (rtol=1e-05, atol=1e-08)\n"
        "  max abs error 94 at [1, 1], max rel error 15.6667 at [1, 1]\n"
        "    index                got                        expected\n"
        "    [1, 1]               100                        6\n"
        "    [2, 4]               -1                         14\n");
    free(buf);
    /* more mismatches than shown */
    for (int i = 0; i < 15; i++) g[i] = i + 1;
    tt_tensor_free(got);
    got = vec("out", TT_F32, 2, sh, g);
    buf = NULL;
    f = open_memstream(&buf, &len);
    repl_compare(got, want, false, 0, false, 0, 2, f, &r);
    fclose(f);
    ck_assert_int_eq(r.mismatches, 15);
    ck_assert_msg(strstr(buf, "  the first 2:\n") != NULL, "%s", buf);
    ck_assert_msg(strstr(buf, "    [0, 1]               2                          1\n") != NULL, "%s", buf);
    ck_assert(strstr(buf, "[0, 2]") == NULL);
    free(buf);
    tt_tensor_free(got);
    tt_tensor_free(want);
}
END_TEST

TCase *expect_tcase(void)
{
    TCase *tc = tcase_create("expect");
    tcase_add_test(tc, allclose_rule);
    tcase_add_test(tc, nan_and_inf);
    tcase_add_test(tc, integers_exact);
    tcase_add_test(tc, report_text);
    return tc;
}
