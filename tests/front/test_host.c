/* test_host.c — front_eval_host: Python semantics on the host (launch specs):
 * floor division and modulo, cdiv, tensor shapes/strides/numel through the
 * lookup callback, and diagnostics with carets. Expected values are Python's. */
#include <stdlib.h>
#include "tfront.h"

static tt_tensor *host_x;

static bool lookup(void *user, const char *name, hostval *out)
{
    (void)user;
    if (!strcmp(name, "n")) { *out = (hostval){ .kind = HV_INT, .i = 10 }; return true; }
    if (!strcmp(name, "neg")) { *out = (hostval){ .kind = HV_INT, .i = -7 }; return true; }
    if (!strcmp(name, "B")) { *out = (hostval){ .kind = HV_INT, .i = 4 }; return true; }
    if (!strcmp(name, "fl")) { *out = (hostval){ .kind = HV_FLOAT, .f = 2.5 }; return true; }
    if (!strcmp(name, "x")) { *out = (hostval){ .kind = HV_TENSOR, .t = host_x }; return true; }
    return false;
}

static void setup(void)
{
    int64_t shape[2] = { 3, 5 };
    host_x = tt_tensor_new("x", TT_F32, 2, shape);
}

static void teardown(void)
{
    tt_tensor_free(host_x);
    host_x = NULL;
}

static hostval ev(const char *text)
{
    hostval v;
    cap_start();
    bool ok = front_eval_host("--grid", text, lookup, NULL, &v);
    const char *d = cap_end();
    ck_assert_msg(ok, "'%s' failed:\n%s", text, d);
    return v;
}

static void evi(const char *text, int64_t want)
{
    hostval v = ev(text);
    ck_assert_msg(v.kind == HV_INT, "'%s': kind %d, expected an int", text, v.kind);
    ck_assert_msg(v.i == want, "'%s' = %lld, expected %lld", text, (long long)v.i, (long long)want);
}

static void evf(const char *text, double want)
{
    hostval v = ev(text);
    ck_assert_msg(v.kind == HV_FLOAT, "'%s': kind %d, expected a float", text, v.kind);
    ck_assert_msg(v.f == want, "'%s' = %g, expected %g", text, v.f, want);
}

/* text must fail with "--grid:1:COL: error: ..." containing substr, quoted
 * with a caret under COL (0: any column). */
static void everr(const char *text, int col, const char *substr)
{
    hostval v;
    cap_start();
    bool ok = front_eval_host("--grid", text, lookup, NULL, &v);
    const char *d = cap_end();
    ck_assert_msg(!ok, "'%s' must fail", text);
    char head[64];
    if (col <= 0) {   /* any column, but the caret must match it */
        ck_assert_msg(sscanf(d, "--grid:1:%d:", &col) == 1 && col > 0, "'%s': no position:\n%s", text, d);
    }
    snprintf(head, sizeof head, "--grid:1:%d: error: ", col);
    ck_assert_msg(!strncmp(d, head, strlen(head)), "'%s': expected '%s...', got:\n%s", text, head, d);
    if (substr) ck_assert_msg(strstr(d, substr), "'%s': message lacks '%s':\n%s", text, substr, d);
    char quote[256];
    snprintf(quote, sizeof quote, "    1 | %s\n      | %*s^\n", text, col - 1, "");
    ck_assert_msg(strstr(d, quote), "'%s': expected the quote\n%s\ngot:\n%s", text, quote, d);
    ck_assert_int_eq(count_str(d, "error:"), 1);
}

START_TEST(floor_semantics)
{
    evi("-7 // 2", -4);
    evi("-7 % 2", 1);
    evi("7 // -2", -4);
    evi("7 % -2", -1);
    evi("-7 // -2", 3);
    evi("-7 % -2", -1);
    evi("neg // 2", -4);
    evi("neg % 3", 2);
    evi("7 // 2 * 2", 6);
    evf("-7.0 // 2", -4.0);
    evf("-7.5 % 2", 0.5);
    evf("7 / 2", 3.5);
    evf("6 / 3", 2.0);                   /* true division is always a float */
    evf("fl * 2", 5.0);
}
END_TEST

START_TEST(cdiv_and_friends)
{
    evi("cdiv(10, 4)", 3);
    evi("triton.cdiv(10, 4)", 3);
    evi("cdiv(n, B)", 3);
    evi("cdiv(0, 4)", 0);
    evi("cdiv(8, 4)", 2);
    evi("cdiv(-7, 2)", -3);              /* (x + d - 1) // d, Python floor */
    /* Python's ints do not wrap: (2**63-1 + 2**63-1 - 1) // (2**63-1) == 1 */
    evi("cdiv(9223372036854775807, 9223372036854775807)", 1);
    evi("cdiv(9223372036854775807, 2)", 4611686018427387904);
    evi("cdiv(7, -2)", -2);
    evi("min(3, 1, 2)", 1);
    evi("max(n, 12)", 12);
    evi("next_power_of_2(100)", 128);
    evi("next_power_of_2(128)", 128);
    evi("next_power_of_2(1)", 1);
    evi("int(7.9)", 7);
    evi("int(-7.9)", -7);                /* int() truncates */
    evf("float(3)", 3.0);
}
END_TEST

START_TEST(arithmetic_precedence)
{
    evi("1 + 2 * 3", 7);
    evi("(1 + 2) * 3", 9);
    evi("10 - 2 - 3", 5);
    evi("-2 ** 2", -4);                  /* ** binds tighter than unary minus */
    evi("2 ** 3 ** 2", 512);             /* right-associative */
    evi("2 ** 10", 1024);
    evf("2 ** -1", 0.5);
    evi("1 << 4 | 1", 17);
    evi("0xff & 0x0f", 15);
    hostval v = ev("n > 5");
    ck_assert(v.kind == HV_BOOL && v.i == 1);
    evi("1 if n > 20 else 2", 2);
}
END_TEST

START_TEST(tensor_queries)
{
    evi("numel(x)", 15);
    evi("x.numel()", 15);
    evi("x.shape[0]", 3);
    evi("x.shape[1]", 5);
    evi("x.shape[-1]", 5);
    evi("x.stride(0)", 5);
    evi("x.stride(1)", 1);
    evi("x.stride(-1)", 1);
    evi("x.size(0)", 3);
    evi("len(x)", 3);
    evi("cdiv(numel(x), 4) * x.stride(0)", 20);
    hostval v = ev("x.shape");
    ck_assert_int_eq(v.kind, HV_TUPLE);
    ck_assert_int_eq(v.n, 2);
    ck_assert_int_eq(v.tup[0], 3);
    ck_assert_int_eq(v.tup[1], 5);
    v = ev("(cdiv(n, B), 2)");
    ck_assert_int_eq(v.kind, HV_TUPLE);
    ck_assert_int_eq(v.n, 2);
    ck_assert_int_eq(v.tup[0], 3);
    ck_assert_int_eq(v.tup[1], 2);
    v = ev("cdiv(n, B),");
    ck_assert_int_eq(v.kind, HV_TUPLE);
    ck_assert_int_eq(v.n, 1);
}
END_TEST

START_TEST(errors_with_carets)
{
    everr("foo + 1", 1, "'foo'");
    everr("n + foo", 5, "'foo'");
    everr("n // 0", 3, "zero");
    everr("1 +", 4, NULL);
    everr("n n", 3, NULL);
    everr("x.stride(2)", 0, "range");
    everr("numel(n)", 1, NULL);
    everr("cdiv(n)", 1, NULL);
    everr("frobnicate(1)", 1, "frobnicate");
    everr("x.shape[5]", 0, "range");
    everr("9223372036854775807 + 1", 21, "overflow");
}
END_TEST

TCase *tc_host(void)
{
    TCase *tc = tcase_create("host");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, floor_semantics);
    tcase_add_test(tc, cdiv_and_friends);
    tcase_add_test(tc, arithmetic_precedence);
    tcase_add_test(tc, tensor_queries);
    tcase_add_test(tc, errors_with_carets);
    return tc;
}
