/* format.c — values as text, in numpy's style (numpy/core/arrayprint.py):
 * one bracket pair per dimension, elements right-aligned to a common width,
 * the last dimension wrapped at 80 columns, and arrays of more than
 * `print elements` elements (default 1000, numpy's threshold) summarized to
 * their first and last 3 entries per dimension (numpy's edgeitems) with "...".
 * Floats print with the fewest digits that read back to the same value of
 * their dtype (numpy's unique repr), with a trailing "." for integral values
 * ("1."), as numpy does. */
#include "dbg_int.h"

#include <inttypes.h>
#include <math.h>

#define EDGE 3
#define WIDTH 80

void dbg_value_free(dbg_value *v)
{
    if (!v) return;
    free(v->data);
    free(v->text);
    memset(v, 0, sizeof *v);
}

static uint64_t raw_bits(const dbg_value *v, int64_t i)
{
    size_t es = (size_t)tt_dtype_size(v->dt);
    uint64_t x = 0;
    memcpy(&x, (const char *)v->data + (size_t)i * es, es);
    return x;
}

static double round_to(double y, tt_dtype dt)
{
    switch (dt) {
    case TT_F32: return (double)(float)y;
    case TT_F16: return tt_f16_to_f32(tt_f32_to_f16((float)y));
    case TT_BF16: return tt_bf16_to_f32(tt_f32_to_bf16((float)y));
    case TT_F8E4NV: case TT_F8E5: case TT_F8E4B15: case TT_F8E4B8: case TT_F8E5B16:
        return tt_fp8_decode(dt, tt_fp8_encode_f64(dt, y), false);
    default: return y;
    }
}

/* numpy's repr of one float: the fewest significant digits that read back
 * as the same value of the dtype; positional notation for 1e-4 <= |x| < 1e16,
 * scientific otherwise; integral values end in "." ("10."). */
static void fmt_float(double x, tt_dtype dt, char *buf, size_t n)
{
    if (isnan(x)) { snprintf(buf, n, "nan"); return; }
    if (isinf(x)) { snprintf(buf, n, x < 0 ? "-inf" : "inf"); return; }
    if (x == 0) { snprintf(buf, n, signbit(x) ? "-0." : "0."); return; }
    int maxp = dt == TT_F64 ? 17 : dt == TT_F32 ? 9 : 5;
    int p = 1;
    char tmp[64];
    for (; p < maxp; p++) {
        snprintf(tmp, sizeof tmp, "%.*e", p - 1, x);
        if (round_to(strtod(tmp, NULL), dt) == x) break;
    }
    double ax = fabs(x);
    if (ax >= 1e-4 && ax < 1e16) {
        int e10 = (int)floor(log10(ax));
        /* log10 can be off by one near powers of ten: use the printed exponent */
        snprintf(tmp, sizeof tmp, "%.*e", p - 1, x);
        const char *ep = strchr(tmp, 'e');
        if (ep) e10 = atoi(ep + 1);
        int dec = p - 1 - e10;
        if (dec < 0) dec = 0;
        snprintf(buf, n, "%.*f", dec, x);
        if (!strchr(buf, '.')) {
            size_t l = strlen(buf);
            if (l + 1 < n) { buf[l] = '.'; buf[l + 1] = 0; }
        }
        return;
    }
    /* scientific: mantissa digits, "1.e+20" for a single digit (numpy) */
    snprintf(tmp, sizeof tmp, "%.*e", p - 1, x);
    char *ep = strchr(tmp, 'e');
    if (ep && p == 1) {
        *ep = 0;
        snprintf(buf, n, "%s.e%s", tmp, ep + 1);
    } else {
        snprintf(buf, n, "%s", tmp);
    }
}

char *dbg_elem_format(const dbg_value *v, int64_t i, int fmt)
{
    char buf[128];
    tt_dtype dt = v->dt;
    int bits = tt_dtype_size(dt) * 8;
    uint64_t raw = raw_bits(v, i);
    bool isf = tt_dtype_is_float(dt);
    switch (fmt) {
    case 'x': snprintf(buf, sizeof buf, "0x%" PRIx64, raw); return xstrdup(buf);
    case 'o': snprintf(buf, sizeof buf, "0%" PRIo64, raw); return xstrdup(buf);
    case 't': {
        int hi = bits - 1;
        while (hi > 0 && !((raw >> hi) & 1)) hi--;
        int k = 0;
        for (int b = hi; b >= 0; b--) buf[k++] = (char)('0' + ((raw >> b) & 1));
        buf[k] = 0;
        return xstrdup(buf);
    }
    case 'd':
        if (isf) snprintf(buf, sizeof buf, "%" PRId64, (int64_t)tt_load_f64(v->data, dt, i));
        else {
            int64_t s = bits < 64 ? (int64_t)(raw << (64 - bits)) >> (64 - bits) : (int64_t)raw;
            if (dt == TT_BOOL) s = raw != 0;
            snprintf(buf, sizeof buf, "%" PRId64, s);
        }
        return xstrdup(buf);
    case 'u':
        if (isf) snprintf(buf, sizeof buf, "%" PRIu64, (uint64_t)tt_load_f64(v->data, dt, i));
        else snprintf(buf, sizeof buf, "%" PRIu64, raw);
        return xstrdup(buf);
    case 'c': {
        int64_t c = isf ? (int64_t)tt_load_f64(v->data, dt, i) : tt_load_i64(v->data, dt, i);
        if (c >= 32 && c < 127) snprintf(buf, sizeof buf, "%" PRId64 " '%c'", c, (char)c);
        else snprintf(buf, sizeof buf, "%" PRId64 " '\\%03" PRIo64 "'", c, (uint64_t)c & 0xff);
        return xstrdup(buf);
    }
    case 'f':
        fmt_float(tt_load_f64(v->data, dt, i), isf ? dt : TT_F64, buf, sizeof buf);
        return xstrdup(buf);
    default: break;
    }
    if (v->is_ptr) snprintf(buf, sizeof buf, "0x%" PRIx64, raw);
    else if (dt == TT_BOOL) snprintf(buf, sizeof buf, "%s", raw & 0xff ? "True" : "False");
    else if (isf) fmt_float(tt_load_f64(v->data, dt, i), dt, buf, sizeof buf);
    else if (tt_dtype_is_signed(dt)) snprintf(buf, sizeof buf, "%" PRId64, tt_load_i64(v->data, dt, i));
    else snprintf(buf, sizeof buf, "%" PRIu64, raw);
    return xstrdup(buf);
}

char *dbg_format_type(const dbg_value *v)
{
    strbuf b = { 0 };
    if (v->is_ptr) {
        if (v->pt < TT_DTYPE_COUNT && v->pt != TT_PTR) sb_printf(&b, "ptr<%s>", tt_dtype_name(v->pt));
        else sb_puts(&b, "ptr");
    } else {
        sb_puts(&b, tt_dtype_name(v->dt));
    }
    if (v->rank > 0) {
        sb_putc(&b, '[');
        for (int k = 0; k < v->rank; k++) sb_printf(&b, "%s%" PRId64, k ? ", " : "", v->shape[k]);
        sb_putc(&b, ']');
    }
    return sb_take(&b);
}

/* ---- arrays ------------------------------------------------------------------- */

typedef struct fctx {
    const dbg_value *v;
    int fmt;
    bool summarize;
    int width;                         /* element width */
    int indent;
    strbuf out;
    int col;                           /* current column */
    const volatile sig_atomic_t *stop; /* Ctrl-C: give up (NULL: never) */
} fctx;

static int64_t stride_of(const dbg_value *v, int dim)
{
    int64_t s = 1;
    for (int k = dim + 1; k < v->rank; k++) s *= v->shape[k];
    return s;
}

/* Visit the displayed elements of dimension dim starting at flat offset off. */
static void measure(fctx *c, int dim, int64_t off)
{
    int64_t n = c->v->shape[dim], st = stride_of(c->v, dim);
    for (int64_t i = 0; i < n && !(c->stop && __atomic_load_n(c->stop, __ATOMIC_RELAXED)); i++) {
        if (c->summarize && n > 2 * EDGE && i == EDGE) i = n - EDGE;
        if (dim + 1 == c->v->rank) {
            char *s = dbg_elem_format(c->v, off + i * st, c->fmt);
            int w = (int)strlen(s);
            if (w > c->width) c->width = w;
            free(s);
        } else {
            measure(c, dim + 1, off + i * st);
        }
    }
}

static void put(fctx *c, const char *s)
{
    for (const char *p = s; *p; p++) {
        sb_putc(&c->out, *p);
        c->col = *p == '\n' ? 0 : c->col + 1;
    }
}

static void newline_indent(fctx *c, int n)
{
    put(c, "\n");
    for (int i = 0; i < n; i++) put(c, " ");
}

static void emit(fctx *c, int dim, int64_t off)
{
    int64_t n = c->v->shape[dim], st = stride_of(c->v, dim);
    int rank = c->v->rank;
    int inner = c->indent + dim + 1;   /* column of the elements inside this bracket */
    put(c, "[");
    for (int64_t i = 0; i < n && !(c->stop && __atomic_load_n(c->stop, __ATOMIC_RELAXED)); i++) {
        bool elide = c->summarize && n > 2 * EDGE && i == EDGE;
        if (dim + 1 == rank) {
            char item[160];
            if (elide) snprintf(item, sizeof item, "...");
            else {
                char *s = dbg_elem_format(c->v, off + i * st, c->fmt);
                snprintf(item, sizeof item, "%*s", c->width, s);
                free(s);
            }
            int need = (int)strlen(item) + (i ? 1 : 0) + (i + 1 == n ? (int)(rank - dim) : 0);
            if (i && c->col + need > WIDTH) newline_indent(c, inner);
            else if (i) put(c, " ");
            put(c, item);
        } else {
            if (i) {
                put(c, "\n");
                for (int k = 0; k < rank - dim - 2; k++) put(c, "\n");
                for (int k = 0; k < inner; k++) put(c, " ");
            }
            if (elide) put(c, "...");
            else emit(c, dim + 1, off + i * st);
        }
        if (elide) i = n - EDGE - 1;
    }
    put(c, "]");
}

char *dbg_format_value(const dbg_value *v, int fmt, int limit, int indent)
{
    return dbg_format_value_until(v, fmt, limit, indent, NULL);
}

char *dbg_format_value_until(const dbg_value *v, int fmt, int limit, int indent, const volatile sig_atomic_t *stop)
{
    if (v->rank == 0) return dbg_elem_format(v, 0, fmt);
    fctx c = { .v = v, .fmt = fmt, .indent = indent, .col = indent, .stop = stop };
    c.summarize = limit > 0 && v->numel > limit;
    for (int k = 0; k < v->rank; k++)
        if (v->shape[k] == 0) return xstrdup("[]");
    measure(&c, 0, 0);
    emit(&c, 0, 0);
    return sb_take(&c.out);
}

char *dbg_preview(const dbg_value *v, int fmt)
{
    if (v->rank == 0) return dbg_elem_format(v, 0, fmt);
    /* flat: first 3 ... last 3 */
    strbuf b = { 0 };
    sb_putc(&b, '[');
    int64_t n = v->numel;
    for (int64_t i = 0; i < n; i++) {
        if (n > 2 * EDGE && i == EDGE) {
            sb_puts(&b, " ...");
            i = n - EDGE - 1;
            continue;
        }
        char *s = dbg_elem_format(v, i, fmt);
        sb_printf(&b, "%s%s", i ? " " : "", s);
        free(s);
    }
    sb_putc(&b, ']');
    return sb_take(&b);
}
