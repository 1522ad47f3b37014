/* buffers.c — the launch's tensors as the debugger shows them: buffer
 * references (`out[17]`, `out[3:9]`, `a[2, 4:8]`, numpy indexing with
 * negative indices; index expressions may name scalar arguments and
 * constexprs), `print BUFFER[...]`, `x`, and `info buffers`.
 *
 * Buffers are read from the live launch (the host tensors the interpreter
 * updates in place), so they show the memory as the programs left it. */
#include "dbg_int.h"
#include "tritium/limits.h"

#include <ctype.h>
#include <inttypes.h>

int dbg_buf_arg(dbg_session *d, const char *name, size_t len)
{
    const launch *l = d->have_live ? &d->live : &d->pristine;
    if (!d->loaded) return -1;
    for (int i = 0; i < l->nargs + l->nextra; i++)
        if (l->args[i].kind == ARG_TENSOR && strlen(l->args[i].name) == len && !strncmp(l->args[i].name, name, len))
            return i;
    return -1;
}

tt_tensor *dbg_buf_tensor(dbg_session *d, int arg)
{
    const launch *l = d->have_live ? &d->live : &d->pristine;
    return l->args[arg].tensor;
}

void dbg_buf_elem(dbg_session *d, int arg, int64_t e, dbg_value *out)
{
    const tt_tensor *t = dbg_buf_tensor(d, arg);
    memset(out, 0, sizeof *out);
    out->dt = t->dtype;
    out->numel = 1;
    size_t es = (size_t)tt_dtype_size(t->dtype);
    out->data = xmalloc(es);
    memcpy(out->data, (const char *)t->data + (size_t)e * es, es);
}

char *dbg_elem_str(dbg_session *d, int arg, int64_t e)
{
    dbg_value v;
    dbg_buf_elem(d, arg, e, &v);
    char *s = dbg_elem_format(&v, 0, 0);
    dbg_value_free(&v);
    return s;
}

char *dbg_elem_name(dbg_session *d, int arg, int64_t e)
{
    const tt_tensor *t = dbg_buf_tensor(d, arg);
    char ib[TT_INDEX_STR_LEN];
    int64_t flat_shape[1] = { 0 };
    if (t->rank <= 1) tt_index_str(flat_shape, 1, e, ib, sizeof ib);
    else tt_index_str(t->shape, t->rank, e, ib, sizeof ib);
    return xasprintf("%s%s", t->name ? t->name : "?", ib);
}

/* ---- selections ------------------------------------------------------------- */

/* NAME[...] or NAME.flat[...] on a tensor argument: numpy indexing over the
 * buffer's shape, or over its elements in order (flat). */
typedef struct bufsel {
    int arg;
    int srank;                         /* the indexed shape: the buffer's, or [numel] when flat */
    int64_t sshape[TT_MAX_RANK];
    dbg_index ix;
} bufsel;

typedef struct lookup_ctx { dbg_session *d; } lookup_ctx;

static bool host_lookup(void *user, const char *name, hostval *out)
{
    lookup_ctx *c = user;
    const launch *l = &c->d->pristine;
    for (int i = 0; i < l->nargs + l->nextra; i++) {
        if (strcmp(l->args[i].name, name)) continue;
        if (l->args[i].kind == ARG_INT) { *out = (hostval){ .kind = HV_INT, .i = l->args[i].i }; return true; }
        if (l->args[i].kind == ARG_FLOAT) { *out = (hostval){ .kind = HV_FLOAT, .f = l->args[i].f }; return true; }
        *out = (hostval){ .kind = HV_TENSOR, .t = l->args[i].tensor };
        return true;
    }
    for (int i = 0; i < l->nconsts; i++) {
        if (strcmp(l->consts[i].name, name)) continue;
        const launch_const *k = &l->consts[i];
        if (k->kind == CONST_INT) { *out = (hostval){ .kind = HV_INT, .i = k->i }; return true; }
        if (k->kind == CONST_BOOL) { *out = (hostval){ .kind = HV_BOOL, .i = k->i }; return true; }
        if (k->kind == CONST_FLOAT) { *out = (hostval){ .kind = HV_FLOAT, .f = k->f }; return true; }
    }
    return false;
}

/* An index into a buffer: a number, or a host expression over the launch's
 * scalar arguments and constexprs (the same in every program). */
static bool eval_index(dbg_session *d, void *user, const char *s0, const char *e0, bool *empty, int64_t *v)
{
    (void)user;
    char *t = xstrndup(s0, (size_t)(e0 - s0));
    const char *s = dbg_skip(t);
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) n--;
    *empty = n == 0;
    if (*empty) { free(t); return true; }
    char *e = xstrndup(s, n);
    free(t);
    const char *p = e;
    if (dbg_parse_int(&p, v) && dbg_blank(p)) { free(e); return true; }
    lookup_ctx c = { d };
    hostval h;
    FILE *saved = diag_set_stream(d->err);
    bool ok = front_eval_host("index", e, host_lookup, &c, &h);
    diag_set_stream(saved);
    free(e);
    if (!ok) return false;
    if (h.kind != HV_INT && h.kind != HV_BOOL) {
        dbg_error(d, "an index must be an integer");
        return false;
    }
    *v = h.i;
    return true;
}

/* NAME[...] or NAME.flat[...]. mem: for the memory commands (x, watch),
 * where NAME[i] with one integer on an N-d buffer is the element the
 * kernel's pointer reaches at NAME + i, as in C. Returns 1 when text is such
 * a reference to a tensor argument (sel filled; *end after the ']', or the
 * rest must be blank when end is NULL), 0 when it is not one, -1 after an
 * error. */
static int parse_sel(dbg_session *d, const char *text, bufsel *sel, const char **end, bool mem)
{
    const char *s = dbg_skip(text);
    const char *name = s;
    while (isalnum((unsigned char)*s) || *s == '_') s++;
    size_t nlen = (size_t)(s - name);
    if (!nlen || isdigit((unsigned char)*name)) return 0;
    const char *b = dbg_skip(s);
    bool flat = false;
    if (!strncmp(b, ".flat", 5)) {
        flat = true;
        b = dbg_skip(b + 5);
    }
    if (*b != '[') return 0;
    int arg = dbg_buf_arg(d, name, nlen);
    if (arg < 0) return 0;
    const tt_tensor *t = dbg_buf_tensor(d, arg);
    /* find the matching ']' */
    int depth = 0;
    const char *q = b;
    for (; *q; q++) {
        if (*q == '[' || *q == '(') depth++;
        else if (*q == ']' || *q == ')') { if (--depth == 0) break; }
    }
    if (*q != ']') return 0;
    if (end) *end = q + 1;
    else if (!dbg_blank(q + 1)) return 0;
    memset(sel, 0, sizeof *sel);
    sel->arg = arg;
    if (mem && !flat && t->rank >= 2) {
        /* one integer component: the flat element */
        const char *c = b + 1;
        int dd = 0;
        bool single = true;
        for (; c < q; c++) {
            if (*c == '(' || *c == '[') dd++;
            else if (*c == ')' || *c == ']') dd--;
            else if (dd == 0 && (*c == ',' || *c == ':')) single = false;
        }
        char *in = xstrndup(b + 1, (size_t)(q - b - 1));
        const char *ie;
        const char *is = in;
        while (isspace((unsigned char)*is)) is++;
        ie = is + strlen(is);
        while (ie > is && isspace((unsigned char)ie[-1])) ie--;
        if (single && !(ie - is == 4 && !strncmp(is, "None", 4)) && !(ie - is == 3 && !strncmp(is, "...", 3))) {
            bool empty;
            int64_t v;
            bool ok = eval_index(d, NULL, is, ie, &empty, &v);
            free(in);
            if (!ok) return -1;
            int64_t n = tt_tensor_numel(t);
            if (empty || v < 0 || v >= n) {
                if (empty) dbg_error(d, "invalid syntax: an empty index");
                else dbg_error(d, "element %" PRId64 " (%s + %" PRId64 ") is out of bounds for %s, which has %" PRId64
                               " elements", v, t->name, v, t->name, n);
                return -1;
            }
            sel->srank = 1;
            sel->sshape[0] = n;
            sel->ix = (dbg_index){ .srank = 1, .start = { v }, .step = { 1 }, .count = { 1 }, .numel = 1 };
            return 1;
        }
        free(in);
    }
    if (!mem && !flat && t->rank >= 2) {
        /* print c_ptr[3705] meant as the kernel's pointer would: say how */
        const char *p = b + 1;
        int64_t v;
        bool num = dbg_parse_int(&p, &v) && p <= q;
        while (num && p < q && isspace((unsigned char)*p)) p++;
        if (num && p == q && v >= t->shape[0] && v < tt_tensor_numel(t)) {
            dbg_error(d, "index %" PRId64 " is out of bounds for axis 0 with size %" PRId64 " (the element at %s + %"
                      PRId64 " is %s.flat[%" PRId64 "] or *(%s + %" PRId64 "))", v, t->shape[0], t->name, v, t->name,
                      v, t->name, v);
            return -1;
        }
    }
    if (flat) {
        sel->srank = 1;
        sel->sshape[0] = tt_tensor_numel(t);
    } else {
        sel->srank = t->rank;
        memcpy(sel->sshape, t->shape, sizeof(int64_t) * (size_t)t->rank);
    }
    return dbg_index_parse(d, b + 1, q, sel->srank, sel->sshape, eval_index, NULL, &sel->ix) ? 1 : -1;
}

static int64_t sel_elem(const bufsel *sel, int64_t i) { return dbg_index_elem(&sel->ix, sel->sshape, i); }

/* The selected elements as one run of consecutive elements [*lo, *hi) in
 * increasing order; false (no message) when they are not. */
static bool sel_run(const bufsel *sel, int64_t *lo, int64_t *hi)
{
    int64_t n = sel->ix.numel;
    if (n == 0) return false;
    int64_t a = sel_elem(sel, 0);
    for (int64_t i = 1; i < n; i++)
        if (sel_elem(sel, i) != a + i) return false;
    *lo = a;
    *hi = a + n;
    return true;
}

bool dbg_parse_bufref(dbg_session *d, const char *text, int *arg, int rank_max, int64_t *lo, int64_t *hi,
                      bool *is_slice, const char **end)
{
    (void)rank_max;
    bufsel sel;
    int r = parse_sel(d, text, &sel, end, true);
    if (r == 0) {
        dbg_error(d, "expected BUFFER[INDEX], BUFFER[LO:HI] or *(BUFFER + OFFSET) where BUFFER is a tensor argument "
                  "of the launch");
        return false;
    }
    if (r < 0) return false;
    if (sel.ix.numel == 0) {
        dbg_error(d, "the selection is empty");
        return false;
    }
    if (!sel_run(&sel, lo, hi)) {
        dbg_error(d, "the selection is not contiguous in memory; watch a range of consecutive elements");
        return false;
    }
    *arg = sel.arg;
    *is_slice = sel.ix.rank > 0;
    return true;
}

bool dbg_buf_read_expr(dbg_session *d, const char *text, dbg_value *out, bool *failed)
{
    *failed = false;
    if (!d->loaded) return false;
    bufsel sel;
    int r = parse_sel(d, text, &sel, NULL, false);
    if (r == 0) return false;
    if (r < 0) { *failed = true; return true; }
    const tt_tensor *t = dbg_buf_tensor(d, sel.arg);
    int64_t n = sel.ix.numel;
    memset(out, 0, sizeof *out);
    out->dt = t->dtype;
    out->rank = sel.ix.rank;
    memcpy(out->shape, sel.ix.shape, sizeof sel.ix.shape);
    out->numel = n;
    size_t es = (size_t)tt_dtype_size(t->dtype);
    out->data = xmalloc(n ? (size_t)n * es : 1);
    for (int64_t i = 0; i < n; i++)
        memcpy((char *)out->data + (size_t)i * es, (const char *)t->data + (size_t)sel_elem(&sel, i) * es, es);
    return true;
}

int dbg_buf_flat_ref(dbg_session *d, const char *text, int *arg, int64_t *elem)
{
    const char *s = dbg_skip(text), *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1])) e--;
    if (*s == '(' && e > s && e[-1] == ')') {
        s = dbg_skip(s + 1);
        e--;
    }
    const char *name = s;
    while (s < e && (isalnum((unsigned char)*s) || *s == '_')) s++;
    int a = s > name && !isdigit((unsigned char)*name) ? dbg_buf_arg(d, name, (size_t)(s - name)) : -1;
    if (a < 0) return 0;
    s = dbg_skip(s);
    int64_t k = 0;
    if (s < e) {
        if (*s != '+') return 0;
        bool empty;
        if (!eval_index(d, NULL, s + 1, e, &empty, &k)) return -1;
        if (empty) return 0;
    }
    const tt_tensor *t = dbg_buf_tensor(d, a);
    if (k < 0 || k >= tt_tensor_numel(t)) {
        dbg_error(d, "element %" PRId64 " (%s + %" PRId64 ") is out of bounds for %s, which has %" PRId64 " elements",
                  k, t->name, k, t->name, tt_tensor_numel(t));
        return -1;
    }
    *arg = a;
    *elem = k;
    return 1;
}

/* ---- info buffers ------------------------------------------------------------ */

int dbg_cmd_info_buffers(dbg_session *d, const char *args)
{
    (void)args;
    if (!d->loaded) return dbg_error(d, "No kernel loaded.");
    const launch *l = d->have_live ? &d->live : &d->pristine;
    int w = 4;
    for (int i = 0; i < l->nargs + l->nextra; i++)
        if (l->args[i].kind == ARG_TENSOR && (int)strlen(l->args[i].name) > w) w = (int)strlen(l->args[i].name);
    int shown = 0;
    for (int i = 0; i < l->nargs + l->nextra; i++) {
        const launch_arg *a = &l->args[i];
        if (a->kind != ARG_TENSOR) continue;
        if (!shown++) dbg_printf(d, "%-3s %-*s %-6s %-16s %-10s %s\n", "Arg", w, "Name", "Dtype", "Shape", "Elements",
                                 "Address range");
        const tt_tensor *t = a->tensor;
        char sh[96];
        int o = snprintf(sh, sizeof sh, "[");
        for (int k = 0; k < t->rank && o < (int)sizeof sh - 24; k++)
            o += snprintf(sh + o, sizeof sh - (size_t)o, "%s%" PRId64, k ? ", " : "", t->shape[k]);
        snprintf(sh + o, sizeof sh - (size_t)o, "]");
        char range[64] = "(no session)";
        if (d->s) {
            uint64_t base = interp_buffer_base(d->s, i);
            snprintf(range, sizeof range, "0x%012" PRIx64 "-0x%012" PRIx64, base, base + (uint64_t)t->nbytes);
        }
        dbg_printf(d, "%-3d %-*s %-6s %-16s %-10" PRId64 " %s\n", i, w, a->name, tt_dtype_name(t->dtype), sh,
                   tt_tensor_numel(t), range);
    }
    if (!shown) dbg_printf(d, "The launch has no tensor arguments.\n");
    return 0;
}

/* ---- x ---------------------------------------------------------------------- */

/* x[/NF] BUFFER[INDEX] | x[/NF] EXPR (pointers: the elements they point at) */
int dbg_cmd_x(dbg_session *d, const char *args)
{
    if (!d->loaded) return dbg_error(d, "No kernel loaded.");
    const char *s = dbg_skip(args);
    int64_t count = 1;
    int fmt = 0;
    if (*s == '/') {
        s++;
        if (isdigit((unsigned char)*s) && !tt_parse_digits(&s, &count))
            return dbg_error(d, "the count %.*s is too large", (int)strspn(s, "0123456789"), s);
        while (isalpha((unsigned char)*s)) {
            if (strchr("xduotcf", *s)) fmt = *s;
            else if (!strchr("bhwg", *s)) return dbg_error(d, "Invalid format letter '%c' (x d u o t c f).", *s);
            s++;
        }
        if (count <= 0) return dbg_error(d, "the count must be positive");
    }
    s = dbg_skip(s);
    if (!*s) return dbg_error(d, "Argument required (starting display address).");
    bufsel sel;
    int r = parse_sel(d, s, &sel, NULL, true);
    if (r < 0) return -1;
    if (r > 0) {
        const tt_tensor *t = dbg_buf_tensor(d, sel.arg);
        if (sel.ix.numel == 0) return dbg_error(d, "the selection is empty");
        int64_t first = sel_elem(&sel, 0), numel = tt_tensor_numel(t), lo, hi;
        if (count == 1 && sel.ix.rank > 0) {
            if (!sel_run(&sel, &lo, &hi))
                return dbg_error(d, "x shows consecutive elements, and this selection is not a run of them (print "
                                 "shows it)");
            count = sel.ix.numel;
        }
        if (count > numel - first) {
            dbg_error(d, "warning: only %" PRId64 " element%s left in %s", numel - first, numel - first == 1 ? "" : "s",
                      t->name);
            count = numel - first;
        }
        int per = tt_dtype_size(t->dtype) <= 2 ? 8 : 4;
        size_t es = (size_t)tt_dtype_size(t->dtype);
        for (int64_t i = 0; i < count; i++) {
            if (dbg_quit(d)) return -1;
            int64_t e = first + i;
            if (i % per == 0) {
                if (i) dbg_printf(d, "\n");
                char *nm = dbg_elem_name(d, sel.arg, e);
                if (d->s) dbg_printf(d, "0x%012" PRIx64 " <%s>:", interp_buffer_base(d->s, sel.arg) + (uint64_t)e * es, nm);
                else dbg_printf(d, "<%s>:", nm);
                free(nm);
            }
            dbg_value v;
            dbg_buf_elem(d, sel.arg, e, &v);
            char *str = dbg_elem_format(&v, 0, fmt);
            dbg_printf(d, "\t%s", str);
            free(str);
            dbg_value_free(&v);
        }
        dbg_printf(d, "\n");
        return 0;
    }
    /* an expression: pointers (scalars or tiles) */
    dbg_value v;
    if (!dbg_eval_in(d, s, d->sel_frame, &v)) return -1;
    if (!v.is_ptr && v.dt != TT_U64 && v.dt != TT_I64) {
        dbg_value_free(&v);
        return dbg_error(d, "x needs BUFFER[INDEX] or an expression giving pointers");
    }
    if (!d->s) {
        dbg_value_free(&v);
        return dbg_error(d, "no interpreter session");
    }
    int64_t lanes = v.numel;
    if (lanes > 1) count = 1;          /* a tile: what each lane points at */
    int64_t shown = 0, limit = lanes > 1 ? 16 : 1;
    for (int64_t i = 0; i < lanes && shown < limit; i++, shown++) {
        uint64_t addr = ((const uint64_t *)v.data)[i];
        int arg;
        int64_t elem;
        if (!interp_resolve(d->s, addr, &arg, &elem)) {
            if (lanes > 1) dbg_printf(d, "[%" PRId64 "] ", i);
            dbg_printf(d, "0x%012" PRIx64 ":\t<not in any buffer>\n", addr);
            continue;
        }
        const tt_tensor *t = dbg_buf_tensor(d, arg);
        int64_t left = tt_tensor_numel(t) - elem, n = count < left ? count : left;
        size_t es = (size_t)tt_dtype_size(t->dtype);
        for (int64_t c = 0; c < n; c++) {
            if (dbg_quit(d)) {
                dbg_value_free(&v);
                return -1;
            }
            int64_t e = elem + c;
            if (c % 4 == 0) {
                if (c) dbg_printf(d, "\n");
                if (lanes > 1) dbg_printf(d, "[%" PRId64 "] ", i);
                char *nm = dbg_elem_name(d, arg, e);
                dbg_printf(d, "0x%012" PRIx64 " <%s>:", interp_buffer_base(d->s, arg) + (uint64_t)e * es, nm);
                free(nm);
            }
            dbg_value ev;
            dbg_buf_elem(d, arg, e, &ev);
            char *str = dbg_elem_format(&ev, 0, fmt);
            dbg_printf(d, "\t%s", str);
            free(str);
            dbg_value_free(&ev);
        }
        dbg_printf(d, "\n");
    }
    if (lanes > shown) dbg_printf(d, "... (%" PRId64 " more lanes)\n", lanes - shown);
    dbg_value_free(&v);
    return 0;
}
