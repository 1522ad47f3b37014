/* expect.c — compare a tensor after a run with an expected one (--expect),
 * numpy.allclose's rule, with a per-element report. */
#include "repl.h"

#include <math.h>
#include <string.h>

static void format_value(const tt_tensor *t, int64_t i, char *buf, size_t n)
{
    if (tt_dtype_is_int(t->dtype)) {
        if (t->dtype == TT_U64) snprintf(buf, n, "%llu", (unsigned long long)tt_load_i64(t->data, t->dtype, i));
        else snprintf(buf, n, "%lld", (long long)tt_load_i64(t->data, t->dtype, i));
    } else {
        snprintf(buf, n, "%.*g", t->dtype == TT_F64 ? 17 : 9, tt_load_f64(t->data, t->dtype, i));
    }
}

/* numpy.isclose (numeric.py): equal NaNs and equal infinities are close;
 * otherwise |a - b| <= atol + rtol * |b|. */
static bool close_enough(double a, double b, double rtol, double atol)
{
    if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
    if (isinf(a) || isinf(b)) return a == b;
    return fabs(a - b) <= atol + rtol * fabs(b);
}

void repl_compare(const tt_tensor *got, const tt_tensor *expected, bool has_rtol, double rtol,
                  bool has_atol, double atol, int show, FILE *f, repl_expect_result *res)
{
    bool ints = tt_dtype_is_int(got->dtype) && tt_dtype_is_int(expected->dtype);
    if (!has_rtol) rtol = ints ? 0 : 1e-5;
    if (!has_atol) atol = ints ? 0 : 1e-8;
    bool exact = ints && rtol == 0 && atol == 0;
    int64_t n = tt_tensor_numel(got);
    int64_t ne = tt_tensor_numel(expected);
    if (ne < n) n = ne;
    memset(res, 0, sizeof *res);
    res->name = got->name;
    res->numel = n;
    res->rtol = rtol;
    res->atol = atol;
    int64_t first[10];
    int nfirst = 0;
    int64_t at_abs = -1, at_rel = -1;
    if (show > (int)TT_COUNTOF(first)) show = (int)TT_COUNTOF(first);
    for (int64_t i = 0; i < n; i++) {
        bool ok;
        double a = tt_load_f64(got->data, got->dtype, i);
        double b = tt_load_f64(expected->data, expected->dtype, i);
        if (exact) ok = tt_load_i64(got->data, got->dtype, i) == tt_load_i64(expected->data, expected->dtype, i);
        else ok = close_enough(a, b, rtol, atol);
        if (isfinite(a) && isfinite(b)) {
            double e = fabs(a - b);
            double rel = b != 0 ? e / fabs(b) : e > 0 ? INFINITY : 0;
            if (e > res->max_abs) { res->max_abs = e; at_abs = i; }
            if (rel > res->max_rel) { res->max_rel = rel; at_rel = i; }
        }
        if (!ok) {
            if (nfirst < show) first[nfirst++] = i;
            res->mismatches++;
        }
    }
    res->ok = res->mismatches == 0;
    if (!f || res->ok) return;
    char ib[TT_INDEX_STR_LEN], gb[64], eb[64];
    fprintf(f, "tritium: error: --expect %s: %lld of %lld elements differ (rtol=%g, atol=%g)\n", got->name,
            (long long)res->mismatches, (long long)n, rtol, atol);
    if (at_abs >= 0) {
        tt_index_str(got->shape, got->rank, at_abs, ib, sizeof ib);
        fprintf(f, "  max abs error %.6g at %s", res->max_abs, ib);
        tt_index_str(got->shape, got->rank, at_rel, ib, sizeof ib);
        fprintf(f, ", max rel error %.6g at %s\n", res->max_rel, ib);
    }
    if (res->mismatches > nfirst) fprintf(f, "  the first %d:\n", nfirst);
    fprintf(f, "    %-20s %-26s %s\n", "index", "got", "expected");
    for (int k = 0; k < nfirst; k++) {
        tt_index_str(got->shape, got->rank, first[k], ib, sizeof ib);
        format_value(got, first[k], gb, sizeof gb);
        format_value(expected, first[k], eb, sizeof eb);
        fprintf(f, "    %-20s %-26s %s\n", ib, gb, eb);
    }
}
