/* literal.c — Python number literals and top-level comma splitting, the
 * pieces of launch-spec syntax that need no front end. */
#include "repl.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <string.h>
#include <strings.h>

static int digit_value(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'z') return c - 'a' + 10;
    if (c >= 'A' && c <= 'Z') return c - 'A' + 10;
    return 99;
}

/* intlit := [+-] ( '0' ('x'|'o'|'b') ['_'] digits | nonzero_decimal | '0'+ )
 * digits := digit ('_'? digit)*          (Python lexical analysis, 2.4.5) */
bool repl_parse_int(const char *s, int64_t *v, bool *is_u64)
{
    bool neg = false;
    int base = 10;
    if (*s == '+' || *s == '-') neg = *s++ == '-';
    if (s[0] == '0' && s[1] && strchr("xXoObB", s[1])) {
        base = (s[1] == 'x' || s[1] == 'X') ? 16 : (s[1] == 'o' || s[1] == 'O') ? 8 : 2;
        s += 2;
        if (*s == '_') s++;
    } else if (s[0] == '0') {
        /* Python forbids leading zeros in non-zero decimals ("007") */
        for (const char *q = s; *q; q++)
            if (*q != '0' && *q != '_') return false;
    }
    if (!*s || *s == '_') return false;
    uint64_t acc = 0;
    bool prev_us = false;
    for (; *s; s++) {
        if (*s == '_') {
            if (prev_us) return false;
            prev_us = true;
            continue;
        }
        int d = digit_value((unsigned char)*s);
        if (d >= base) return false;
        prev_us = false;
        if (acc > (UINT64_MAX - (uint64_t)d) / (uint64_t)base) return false; /* overflow */
        acc = acc * (uint64_t)base + (uint64_t)d;
    }
    if (prev_us) return false;
    if (neg) {
        if (acc > (uint64_t)INT64_MAX + 1) return false;
        *v = acc == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)acc;
        if (is_u64) *is_u64 = false;
        return true;
    }
    *v = (int64_t)acc;
    if (is_u64) *is_u64 = acc > (uint64_t)INT64_MAX;
    return true;
}

/* floatlit := [+-] ( 'inf' | 'infinity' | 'nan' | digits ['.' [digits]] [exp]
 *                   | '.' digits [exp] )       exp := ('e'|'E') [+-] digits */
bool repl_parse_float(const char *s, double *v)
{
    const char *p = s;
    if (*p == '+' || *p == '-') p++;
    if (!strcasecmp(p, "inf") || !strcasecmp(p, "infinity") || !strcasecmp(p, "nan")) {
        double x = tolower((unsigned char)*p) == 'n' ? NAN : INFINITY;
        *v = *s == '-' ? -x : x;
        return true;
    }
    /* validate, copying without underscores */
    char buf[128];
    size_t n = 0;
    if (*s == '+' || *s == '-') buf[n++] = *s;
    int ndig = 0;
    bool prev_digit = false;
#define PUT(c) do { if (n + 1 >= sizeof buf) return false; buf[n++] = (c); } while (0)
    for (; isdigit((unsigned char)*p) || *p == '_'; p++) {
        if (*p == '_') { if (!prev_digit || !isdigit((unsigned char)p[1])) return false; continue; }
        PUT(*p); ndig++; prev_digit = true;
    }
    if (*p == '.') {
        PUT('.'); p++;
        prev_digit = false;
        for (; isdigit((unsigned char)*p) || *p == '_'; p++) {
            if (*p == '_') { if (!prev_digit || !isdigit((unsigned char)p[1])) return false; continue; }
            PUT(*p); ndig++; prev_digit = true;
        }
    }
    if (!ndig) return false;
    if (*p == 'e' || *p == 'E') {
        PUT('e'); p++;
        if (*p == '+' || *p == '-') PUT(*p++);
        if (!isdigit((unsigned char)*p)) return false;
        prev_digit = false;
        for (; isdigit((unsigned char)*p) || *p == '_'; p++) {
            if (*p == '_') { if (!prev_digit || !isdigit((unsigned char)p[1])) return false; continue; }
            PUT(*p); prev_digit = true;
        }
    }
#undef PUT
    if (*p) return false;
    buf[n] = 0;
    errno = 0;
    *v = strtod(buf, NULL);     /* overflow gives inf, as Python's float() does */
    return true;
}

static char *trim_dup(const char *b, const char *e)
{
    while (b < e && isspace((unsigned char)*b)) b++;
    while (e > b && isspace((unsigned char)e[-1])) e--;
    return xstrndup(b, (size_t)(e - b));
}

int repl_split_commas(const char *s, char ***parts)
{
    VEC(char *) out = { 0 };
    int depth = 0;
    char quote = 0;
    const char *start = s, *p = s;
    for (; *p; p++) {
        if (quote) {
            if (*p == '\\' && p[1]) p++;
            else if (*p == quote) quote = 0;
        } else if (*p == '\'' || *p == '"') {
            quote = *p;
        } else if (*p == '(' || *p == '[' || *p == '{') {
            depth++;
        } else if (*p == ')' || *p == ']' || *p == '}') {
            if (depth > 0) depth--;
        } else if (*p == ',' && depth == 0) {
            vec_push(&out, trim_dup(start, p));
            start = p + 1;
        }
    }
    char *last = trim_dup(start, p);
    if (*last || out.n == 0) vec_push(&out, last);
    else free(last);                /* "a, b," : trailing comma */
    *parts = out.v;
    return out.n;
}

void repl_free_parts(int n, char **parts)
{
    for (int i = 0; i < n; i++) free(parts[i]);
    free(parts);
}
