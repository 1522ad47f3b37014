/* pyarith.c — Python's arithmetic on int64 and float scalars, shared by
 * constexpr folding (sema) and launch-spec expressions (host_eval): floor
 * // and %, true division, ** by squaring, shifts, comparisons; overflow of
 * int64 is an error rather than wrap-around (Python ints do not wrap). */
#include "front_int.h"

#include <math.h>
#include <string.h>

static bool cmp(const char *op, double x, double y, int64_t i, int64_t j, bool fl)
{
    if (!strcmp(op, "<")) return fl ? x < y : i < j;
    if (!strcmp(op, ">")) return fl ? x > y : i > j;
    if (!strcmp(op, "<=")) return fl ? x <= y : i <= j;
    if (!strcmp(op, ">=")) return fl ? x >= y : i >= j;
    if (!strcmp(op, "==")) return fl ? x == y : i == j;
    return fl ? x != y : i != j;
}

static bool ipow(int64_t b, int64_t e, int64_t *r)
{
    int64_t acc = 1;
    while (e > 0) {
        if ((e & 1) && __builtin_mul_overflow(acc, b, &acc)) return false;
        e >>= 1;
        if (e && __builtin_mul_overflow(b, b, &b)) return false;
    }
    *r = acc;
    return true;
}

const char *py_binop(const char *op, pynum a, pynum b, pynum *out)
{
    bool fl = a.kind == 'f' || b.kind == 'f';
    double x = a.kind == 'f' ? a.f : (double)a.i, y = b.kind == 'f' ? b.f : (double)b.i;
    int64_t i = a.i, j = b.i, r = 0;
    if (!strcmp(op, "<") || !strcmp(op, ">") || !strcmp(op, "<=") || !strcmp(op, ">=") ||
        !strcmp(op, "==") || !strcmp(op, "!=")) {
        *out = (pynum){ 'b', cmp(op, x, y, i, j, fl), 0 };
        return NULL;
    }
    if (!strcmp(op, "/")) {
        if (y == 0) return "division by zero";
        *out = (pynum){ 'f', 0, x / y };
        return NULL;
    }
    if (fl) {
        double v;
        if (!strcmp(op, "+")) v = x + y;
        else if (!strcmp(op, "-")) v = x - y;
        else if (!strcmp(op, "*")) v = x * y;
        else if (!strcmp(op, "**")) v = pow(x, y);
        else if (!strcmp(op, "//") || !strcmp(op, "%")) {
            if (y == 0) return "division by zero";
            double q = floor(x / y);
            v = !strcmp(op, "//") ? q : x - q * y;
        } else
            return "this operator is not defined on floats";
        *out = (pynum){ 'f', 0, v };
        return NULL;
    }
    bool bad = false;
    if (!strcmp(op, "+")) bad = __builtin_add_overflow(i, j, &r);
    else if (!strcmp(op, "-")) bad = __builtin_sub_overflow(i, j, &r);
    else if (!strcmp(op, "*")) bad = __builtin_mul_overflow(i, j, &r);
    else if (!strcmp(op, "//") || !strcmp(op, "%")) {
        if (j == 0) return "division by zero";
        if (i == INT64_MIN && j == -1) return "integer overflow";
        int64_t q = i / j, m = i % j;
        if (m != 0 && ((m < 0) != (j < 0))) { q--; m += j; }   /* floor, not C truncation */
        r = !strcmp(op, "//") ? q : m;
    } else if (!strcmp(op, "**")) {
        if (j < 0) {
            *out = (pynum){ 'f', 0, pow(x, y) };
            return NULL;
        }
        bad = !ipow(i, j, &r);
    } else if (!strcmp(op, "&")) r = i & j;
    else if (!strcmp(op, "|")) r = i | j;
    else if (!strcmp(op, "^")) r = i ^ j;
    else if (!strcmp(op, "<<")) {
        if (j < 0) return "negative shift count";
        if (j > 62 || (i != 0 && (i > (INT64_MAX >> j) || i < (INT64_MIN >> j)))) return "integer overflow";
        r = (int64_t)((uint64_t)i << j);
    } else if (!strcmp(op, ">>")) {
        if (j < 0) return "negative shift count";
        r = j > 63 ? (i < 0 ? -1 : 0) : i >> j;
    } else
        return "unsupported operator";
    if (bad) return "integer overflow";
    bool logical = a.kind == 'b' && b.kind == 'b' && (!strcmp(op, "&") || !strcmp(op, "|") || !strcmp(op, "^"));
    *out = (pynum){ logical ? 'b' : 'i', r, 0 };
    return NULL;
}
