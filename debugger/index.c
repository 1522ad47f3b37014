/* index.c — numpy basic indexing in debugger expressions: `x[0:4]`,
 * `acc[2:4, 0:8]`, `x[::-1]`, `x[None, 1:]`, `a[..., 0]`, on tiles and on
 * buffers (buffers.c). Integers, slices with steps, None and one ellipsis,
 * with numpy's rules: a negative index counts from the end, slice bounds are
 * clamped (CPython's PySlice_AdjustIndices), an integer out of range is an
 * IndexError, and the messages are numpy's (numpy/_core/src/multiarray/
 * mapping.c, prepare_index). Kernels cannot slice a tile (Triton 3.6 allows
 * only ':' and None in a subscript), so the front end never sees these:
 * dbg_eval_in evaluates the indexed operand, applies the index here and
 * hands the result to the rest of the expression as a variable. */
#include "dbg_int.h"
#include "tritium/limits.h"

#include <ctype.h>
#include <inttypes.h>

static const char *trim(const char *s, const char *e, const char **end)
{
    while (s < e && isspace((unsigned char)*s)) s++;
    while (e > s && isspace((unsigned char)e[-1])) e--;
    *end = e;
    return s;
}

static bool is_word(const char *s, const char *e, const char *w)
{
    return (size_t)(e - s) == strlen(w) && !strncmp(s, w, (size_t)(e - s));
}

/* The end of the top-level component starting at s (a ',' or e). */
static const char *comp_end(const char *s, const char *e, char stop)
{
    int depth = 0;
    char q = 0;
    for (; s < e; s++) {
        if (q) {
            if (*s == '\\' && s + 1 < e) s++;
            else if (*s == q) q = 0;
            continue;
        }
        if (*s == '\'' || *s == '"') q = *s;
        else if (*s == '(' || *s == '[' || *s == '{') depth++;
        else if (*s == ')' || *s == ']' || *s == '}') depth--;
        else if (depth == 0 && *s == stop) return s;
    }
    return e;
}

bool dbg_index_is_native(const char *s, const char *e)
{
    while (s < e) {
        const char *c = comp_end(s, e, ',');
        const char *ce;
        const char *cs = trim(s, c, &ce);
        if (!is_word(cs, ce, ":") && !is_word(cs, ce, "None")) return false;
        s = c < e ? c + 1 : c;
    }
    return true;
}

/* Python's slice.indices(n): bounds clamped, *count elements. */
static void adjust_slice(int64_t n, bool has_a, int64_t a, bool has_b, int64_t b, int64_t step, int64_t *start,
                         int64_t *count)
{
    if (!has_a) a = step < 0 ? n - 1 : 0;
    else if (a < 0) {
        a += n;
        if (a < 0) a = step < 0 ? -1 : 0;
    } else if (a >= n) a = step < 0 ? n - 1 : n;
    if (!has_b) b = step < 0 ? -1 : n;
    else if (b < 0) {
        b += n;
        if (b < 0) b = step < 0 ? -1 : 0;
    } else if (b >= n) b = step < 0 ? n - 1 : n;
    int64_t c = 0;
    if (step < 0) { if (b < a) c = (a - b - 1) / -step + 1; }
    else if (a < b) c = (b - a - 1) / step + 1;
    *start = a;
    *count = c;
}

bool dbg_index_parse(dbg_session *d, const char *s, const char *e, int srank, const int64_t *sshape,
                     dbg_index_eval_fn eval, void *user, dbg_index *out)
{
    memset(out, 0, sizeof *out);
    out->srank = srank;
    /* the components, classified */
    enum { C_INT, C_SLICE, C_NONE, C_ELLIPSIS };
    struct { int kind; const char *s, *e; } comp[2 * TT_MAX_RANK + 2];
    int nc = 0, nreal = 0, nell = 0;
    while (s < e) {
        const char *c = comp_end(s, e, ',');
        const char *ce;
        const char *cs = trim(s, c, &ce);
        if (cs == ce) {
            if (c == e && nc > 0) break;   /* a trailing comma: x[1,] */
            dbg_error(d, "invalid syntax: an empty index");
            return false;
        }
        if (nc == (int)TT_COUNTOF(comp)) {
            dbg_error(d, "too many indices (at most %d)", (int)TT_COUNTOF(comp));
            return false;
        }
        int k = is_word(cs, ce, "None") ? C_NONE
              : is_word(cs, ce, "...") || is_word(cs, ce, "Ellipsis") ? C_ELLIPSIS
              : comp_end(cs, ce, ':') < ce ? C_SLICE : C_INT;
        comp[nc].kind = k;
        comp[nc].s = cs;
        comp[nc].e = ce;
        nc++;
        if (k == C_INT || k == C_SLICE) nreal++;
        if (k == C_ELLIPSIS) nell++;
        s = c < e ? c + 1 : c;
    }
    if (nell > 1) {
        dbg_error(d, "an index can only have a single ellipsis ('...')");
        return false;
    }
    if (nreal > srank) {
        dbg_error(d, "too many indices for array: array is %d-dimensional, but %d were indexed", srank, nreal);
        return false;
    }
    int dim = 0;
    for (int i = 0; i < nc; i++) {
        if (comp[i].kind == C_NONE) {
            if (out->rank == TT_MAX_RANK) goto too_deep;
            out->shape[out->rank++] = 1;
            continue;
        }
        if (comp[i].kind == C_ELLIPSIS) {
            for (int k = 0; k < srank - nreal; k++, dim++) {
                if (out->rank == TT_MAX_RANK) goto too_deep;
                out->start[dim] = 0;
                out->step[dim] = 1;
                out->count[dim] = sshape[dim];
                out->kept[dim] = true;
                out->shape[out->rank++] = sshape[dim];
            }
            continue;
        }
        int64_t n = sshape[dim];
        if (comp[i].kind == C_INT) {
            bool empty;
            int64_t v;
            if (!eval(d, user, comp[i].s, comp[i].e, &empty, &v)) return false;
            int64_t w = v < 0 ? v + n : v;
            if (w < 0 || w >= n) {
                dbg_error(d, "index %" PRId64 " is out of bounds for axis %d with size %" PRId64, v, dim, n);
                return false;
            }
            out->start[dim] = w;
            out->step[dim] = 1;
            out->count[dim] = 1;
            out->kept[dim] = false;
        } else {
            /* a:b[:c] */
            const char *p = comp[i].s, *pe = comp[i].e;
            const char *c1 = comp_end(p, pe, ':');
            const char *c2 = c1 < pe ? comp_end(c1 + 1, pe, ':') : pe;
            if (c2 < pe && comp_end(c2 + 1, pe, ':') < pe) {
                dbg_error(d, "invalid syntax: a slice has at most two ':'");
                return false;
            }
            bool ea, eb, ec = true;
            int64_t a = 0, b = 0, st = 1;
            if (!eval(d, user, p, c1, &ea, &a)) return false;
            if (!eval(d, user, c1 + 1, c2, &eb, &b)) return false;
            if (c2 < pe && !eval(d, user, c2 + 1, pe, &ec, &st)) return false;
            if (ec) st = 1;
            if (st == 0) {
                dbg_error(d, "slice step cannot be zero");
                return false;
            }
            if (st == INT64_MIN) st = -INT64_MAX;   /* -st must not overflow; the count is the same */
            if (out->rank == TT_MAX_RANK) goto too_deep;
            adjust_slice(n, !ea, a, !eb, b, st, &out->start[dim], &out->count[dim]);
            out->step[dim] = st;
            out->kept[dim] = true;
            out->shape[out->rank++] = out->count[dim];
        }
        dim++;
    }
    for (; dim < srank; dim++) {           /* the dimensions not named: whole */
        if (out->rank == TT_MAX_RANK) goto too_deep;
        out->start[dim] = 0;
        out->step[dim] = 1;
        out->count[dim] = sshape[dim];
        out->kept[dim] = true;
        out->shape[out->rank++] = sshape[dim];
    }
    out->numel = 1;
    for (int k = 0; k < out->rank; k++) out->numel *= out->shape[k];
    return true;
too_deep:
    dbg_error(d, "the result would have more than %d dimensions", TT_MAX_RANK);
    return false;
}

int64_t dbg_index_elem(const dbg_index *ix, const int64_t *sshape, int64_t i)
{
    int64_t idx[TT_MAX_RANK];
    for (int k = ix->srank - 1; k >= 0; k--) {
        int64_t c = ix->count[k] ? ix->count[k] : 1;
        idx[k] = ix->start[k] + (i % c) * ix->step[k];
        i /= c;
    }
    int64_t e = 0;
    for (int k = 0; k < ix->srank; k++) e = e * sshape[k] + idx[k];
    return e;
}

void dbg_index_apply(const dbg_value *v, const dbg_index *ix, dbg_value *out)
{
    memset(out, 0, sizeof *out);
    out->dt = v->dt;
    out->is_ptr = v->is_ptr;
    out->pt = v->pt;
    out->rank = ix->rank;
    memcpy(out->shape, ix->shape, sizeof ix->shape);
    out->numel = ix->numel;
    size_t es = (size_t)tt_dtype_size(v->dt);
    out->data = xmalloc(ix->numel ? (size_t)ix->numel * es : 1);
    for (int64_t i = 0; i < ix->numel; i++)
        memcpy((char *)out->data + (size_t)i * es, (const char *)v->data + (size_t)dbg_index_elem(ix, v->shape, i) * es,
               es);
}
