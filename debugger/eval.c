/* eval.c — expressions and the commands that show values: print, output,
 * whatis, display, undisplay, info display, info locals, info args, and the
 * value history ($, $N, $$, $$N).
 *
 * An expression is Triton code in the scope of the stopped program's
 * selected frame (frames.c). front_compile_expr turns it into a one-program
 * kernel whose parameters are the tiles it reads; the engine copies those
 * tiles (interp_value_data) into fresh host tensors and runs the kernel as
 * program `pid` of a launch with the kernel's grid, in its own interpreter
 * session, so tl.program_id and tl.num_programs mean what they mean in the
 * stopped program. History values are passed the same way, under the names
 * __hist0, __hist1, ... that `$N` is rewritten to. `BUFFER[...]` on a tensor
 * argument reads the buffer instead (buffers.c). Subscripts the front end
 * does not compile (numpy slicing, x[0:4], acc[2:4, ::2], integer indices)
 * and unary '*' (*(out_ptr + 3705): the elements pointers reach) are
 * evaluated first, innermost by recursion, and passed to the rest as
 * variables __sliceK (index.c applies the index). Compiled expressions are
 * cached per (text, op, frame) when they use neither history nor those. */
#include "dbg_int.h"
#include "tritium/limits.h"

#include <ctype.h>
#include <inttypes.h>

void dbg_history_clear(dbg_session *d)
{
    for (int i = 0; i < d->history.n; i++) dbg_value_free(&d->history.v[i]);
    d->history.n = 0;
}

static void expr_free_run(dbg_expr *e);

static void expr_free(dbg_expr *e)
{
    expr_free_run(e);
    for (int k = 0; e->uvars && k < e->nused; k++) free((char *)e->uvars[k].name);
    free(e->uvars);
    free(e->text);
    free(e->tuple);
    free(e->used);
    if (e->fn) ir_func_free(e->fn);
    memset(e, 0, sizeof *e);
}

void dbg_expr_cache_clear(dbg_session *d)
{
    for (int i = 0; i < d->exprs.n; i++) expr_free(&d->exprs.v[i]);
    d->exprs.n = 0;
}

/* ---- variables ------------------------------------------------------------- */

static void var_type(dbg_session *d, const dbg_var *v, tt_dtype *dt, tt_dtype *pt, int *rank, int64_t *shape)
{
    const ir_type_info *ti = ir_type_get(ir_value_type(d->fn, v->v));
    *rank = ti->rank;
    memcpy(shape, ti->shape, sizeof(int64_t) * IR_MAX_RANK);
    *dt = ti->elem;
    *pt = ti->elem == TT_PTR ? ir_type_get(ti->pointee)->elem : TT_DTYPE_COUNT;
    if (v->kind == VAR_ARG) {
        const ir_region *body = &d->fn->regions.v[IR_BODY];
        for (int i = 0; i < body->nargs && i < d->fn->nargs; i++)
            if (body->args[i] == v->v) {
                if (d->fn->arg_is_ptr[i]) *pt = d->fn->arg_dtype[i];
                else *dt = d->fn->arg_dtype[i];
            }
    }
}

/* The value a history or temporary variable holds. */
static const dbg_value *held(dbg_session *d, const dbg_var *v)
{
    return v->kind == VAR_TEMP ? v->val : &d->history.v[v->hist];
}

bool dbg_var_value(dbg_session *d, const dbg_var *v, dbg_value *out)
{
    memset(out, 0, sizeof *out);
    out->pt = TT_DTYPE_COUNT;
    if (v->kind == VAR_HIST || v->kind == VAR_TEMP) {
        const dbg_value *h = held(d, v);
        if (h->text) {
            *out = *h;
            out->data = NULL;
            out->text = xstrdup(h->text);
            return true;
        }
        *out = *h;
        size_t nb = (size_t)h->numel * (size_t)tt_dtype_size(h->dt);
        out->data = xmalloc(nb ? nb : 1);
        memcpy(out->data, h->data, nb);
        return true;
    }
    if (v->kind == VAR_CONST) {
        out->numel = 1;
        out->data = xcalloc(1, 8);
        switch (v->cval.kind) {
        case CONST_INT: out->dt = v->cval.i == (int32_t)v->cval.i ? TT_I32 : TT_I64; tt_store_i64(out->data, out->dt, 0, v->cval.i); return true;
        case CONST_BOOL: out->dt = TT_BOOL; tt_store_i64(out->data, TT_BOOL, 0, v->cval.i); return true;
        case CONST_FLOAT: out->dt = TT_F32; tt_store_f64(out->data, TT_F32, 0, v->cval.f); return true;
        default: free(out->data); out->data = NULL; return false;
        }
    }
    const void *src = interp_value_data(d->s, v->v);
    if (!src) return false;
    tt_dtype dt, pt;
    var_type(d, v, &dt, &pt, &out->rank, out->shape);
    out->numel = 1;
    for (int k = 0; k < out->rank; k++) out->numel *= out->shape[k];
    if (dt == TT_PTR) {
        out->is_ptr = true;
        out->pt = pt;
        dt = TT_U64;
    }
    out->dt = dt;
    size_t nb = (size_t)out->numel * (size_t)tt_dtype_size(dt);
    out->data = xmalloc(nb ? nb : 1);
    memcpy(out->data, src, nb);
    return true;
}

/* ---- history references ------------------------------------------------------ */

/* Rewrite $, $N, $$, $$N outside strings to __histK. */
static char *subst_history(dbg_session *d, const char *text, bool *used)
{
    strbuf b = { 0 };
    *used = false;
    char q = 0;
    for (const char *p = text; *p; ) {
        if (q) {
            if (*p == '\\' && p[1]) { sb_putc(&b, *p++); sb_putc(&b, *p++); continue; }
            if (*p == q) q = 0;
            sb_putc(&b, *p++);
            continue;
        }
        if (*p == '\'' || *p == '"') { q = *p; sb_putc(&b, *p++); continue; }
        if (*p != '$') { sb_putc(&b, *p++); continue; }
        p++;
        bool back = false;
        if (*p == '$') { back = true; p++; }
        int64_t n = -1;
        if (isdigit((unsigned char)*p) && !tt_parse_digits(&p, &n)) {
            dbg_error(d, "History has not yet reached $%.*s.", (int)strspn(p, "0123456789"), p);
            sb_free(&b);
            return NULL;
        }
        int64_t idx;                   /* 0-based history index */
        int64_t last = d->history.n;   /* $last is history.n */
        if (!back) idx = n < 0 ? last - 1 : n - 1;
        else idx = last - 1 - (n < 0 ? 1 : n);
        if (idx < 0 || idx >= d->history.n) {
            if (!back && n > 0) dbg_error(d, "History has not yet reached $%" PRId64 ".", n);
            else dbg_error(d, "History is empty or too short for this reference.");
            sb_free(&b);
            return NULL;
        }
        if (d->history.v[idx].text) {
            dbg_error(d, "$%" PRId64 " is a tuple, %s; an expression cannot use a tuple from the history", idx + 1,
                      d->history.v[idx].text);
            sb_free(&b);
            return NULL;
        }
        sb_printf(&b, "__hist%" PRId64, idx);
        *used = true;
    }
    return sb_take(&b);
}

/* ---- compiling and running ------------------------------------------------------ */

static int32_t cur_g(dbg_session *d)
{
    if (!dbg_have_frame(d)) return -1;
    return d->opbase[d->stop.region] + d->stop.op;
}

static dbg_expr *cache_find(dbg_session *d, const char *text, int32_t g, int frame)
{
    for (int i = 0; i < d->exprs.n; i++) {
        dbg_expr *e = &d->exprs.v[i];
        if (e->g == g && e->frame == frame && !strcmp(e->text, text)) return e;
    }
    return NULL;
}

static bool compile(dbg_session *d, const char *text, const dbg_var_vec *vars, dbg_expr *e)
{
    front_var *fv = xcalloc((size_t)(vars->n ? vars->n : 1), sizeof *fv);
    for (int i = 0; i < vars->n; i++) {
        const dbg_var *v = &vars->v[i];
        fv[i].name = v->name;
        if (v->kind == VAR_CONST) {
            fv[i].is_const = true;
            fv[i].cval = v->cval;
        } else if (v->kind == VAR_HIST || v->kind == VAR_TEMP) {
            const dbg_value *h = held(d, v);
            fv[i].dt = h->is_ptr && h->pt < TT_DTYPE_COUNT && h->pt != TT_PTR ? TT_PTR : h->dt;
            fv[i].pt = h->pt;
            fv[i].rank = h->rank;
            memcpy(fv[i].shape, h->shape, sizeof h->shape);
        } else {
            var_type(d, v, &fv[i].dt, &fv[i].pt, &fv[i].rank, fv[i].shape);
        }
    }
    int before = diag_error_count();
    FILE *saved = diag_set_stream(d->err);
    fflush(d->out);
    e->fn = front_compile_expr(d->mod, "<expression>", text, fv, vars->n, &e->used, &e->nused, &e->dt, &e->rank,
                               e->shape, &e->tuple);
    diag_set_stream(saved);
    if (e->tuple) {                    /* a tuple of constexprs (a.shape): its text is the value */
        free(fv);
        return true;
    }
    if (!e->fn) {
        if (diag_error_count() == before) dbg_error(d, "cannot evaluate '%s'", text);
        free(fv);
        return false;
    }
    e->uvars = xcalloc((size_t)(e->nused ? e->nused : 1), sizeof *e->uvars);
    for (int k = 0; k < e->nused; k++) {
        e->uvars[k] = vars->v[e->used[k]];
        e->uvars[k].name = xstrdup(vars->v[e->used[k]].name);
    }
    e->is_ptr = false;
    e->pt = TT_DTYPE_COUNT;
    if (e->dt == TT_U64)
        for (int k = 0; k < e->nused; k++)
            if (fv[e->used[k]].dt == TT_PTR) {
                /* the pointee when all pointer operands agree */
                e->pt = !e->is_ptr || e->pt == fv[e->used[k]].pt ? fv[e->used[k]].pt : TT_DTYPE_COUNT;
                e->is_ptr = true;
            }
    free(fv);
    return true;
}

/* The bytes of a variable's value (not copied). */
static const void *var_bytes(dbg_session *d, const dbg_var *v, size_t *nbytes)
{
    if (v->kind == VAR_HIST || v->kind == VAR_TEMP) {
        const dbg_value *h = held(d, v);
        *nbytes = (size_t)h->numel * (size_t)tt_dtype_size(h->dt);
        return h->data;
    }
    if (v->kind == VAR_CONST) return NULL;
    const void *src = interp_value_data(d->s, v->v);
    const ir_type_info *ti = ir_type_get(ir_value_type(d->fn, v->v));
    int64_t n = 1;
    for (int k = 0; k < ti->rank; k++) n *= ti->shape[k];
    *nbytes = (size_t)n * (size_t)(ti->elem == TT_PTR ? 8 : tt_dtype_size(ti->elem));
    return src;
}

static void expr_free_run(dbg_expr *e)
{
    if (e->es) interp_session_free(e->es);
    e->es = NULL;
    if (e->have_l) launch_free(&e->l);
    e->have_l = false;
}

/* A launch with one tensor per input tile plus __out, and its interpreter
 * session; kept with a cached expression, so a condition evaluated at every
 * hit only copies its inputs and runs one program. */
static bool expr_prepare(dbg_session *d, dbg_expr *e)
{
    launch *l = &e->l;
    memset(l, 0, sizeof *l);
    e->have_l = true;
    l->nargs = e->nused + 1;
    l->args = xcalloc((size_t)l->nargs, sizeof *l->args);
    for (int k = 0; k < 3; k++) l->grid[k] = d->grid[k] > 0 ? d->grid[k] : 1;
    l->num_warps = d->pristine.num_warps ? d->pristine.num_warps : 4;
    l->seed = d->pristine.seed;
    for (int k = 0; k <= e->nused; k++) {
        tt_tensor *t;
        const char *name;
        if (k < e->nused) {
            const dbg_var *v = &e->uvars[k];
            dbg_value val;
            if (!dbg_var_value(d, v, &val)) {
                dbg_error(d, "the value of '%s' is not available", v->name);
                return false;
            }
            int64_t shp[IR_MAX_RANK];
            memcpy(shp, val.shape, sizeof shp);
            t = tt_tensor_new(v->name, val.dt, val.rank, shp);
            dbg_value_free(&val);
            name = v->name;
        } else {
            t = tt_tensor_new("__out", e->dt, e->rank, e->shape);
            name = "__out";
        }
        if (!t) {
            dbg_error(d, "the expression's value is too big");
            return false;
        }
        l->args[k].name = xstrdup(name);
        l->args[k].kind = ARG_TENSOR;
        l->args[k].tensor = t;
    }
    interp_options o;
    interp_options_default(&o);
    o.check_races = false;
    o.check_uninit = false;
    o.report = d->err;
    o.numerics = d->iopt.numerics;
    e->es = interp_session_new(e->fn, l, &o);
    return e->es != NULL;
}

static bool run_expr(dbg_session *d, dbg_expr *e, dbg_value *out)
{
    if (e->tuple) {
        memset(out, 0, sizeof *out);
        out->pt = TT_DTYPE_COUNT;
        out->text = xstrdup(e->tuple);
        return true;
    }
    if (!e->es) {
        expr_free_run(e);
        if (!expr_prepare(d, e)) {
            expr_free_run(e);
            return false;
        }
    }
    for (int k = 0; k < e->nused; k++) {
        size_t nb = 0;
        const void *src = var_bytes(d, &e->uvars[k], &nb);
        tt_tensor *t = e->l.args[k].tensor;
        if (!src || nb != t->nbytes) {
            dbg_error(d, "the value of '%s' is not available", e->uvars[k].name);
            return false;
        }
        memcpy(t->data, src, nb);
    }
    int64_t pid[3] = { 0, 0, 0 };
    if (dbg_have_frame(d)) memcpy(pid, d->stop.pid, sizeof pid);
    interp_stats before, after;
    interp_get_stats(e->es, &before);
    fflush(d->out);
    interp_run_program(e->es, pid);
    interp_get_stats(e->es, &after);
    if (after.fault_lanes > before.fault_lanes)
        return dbg_error(d, "the expression faulted (see the report above)"), false;
    const tt_tensor *ot = e->l.args[e->nused].tensor;
    memset(out, 0, sizeof *out);
    out->dt = e->dt;
    out->is_ptr = e->is_ptr;
    out->pt = e->pt;
    out->rank = e->rank;
    memcpy(out->shape, e->shape, sizeof e->shape);
    out->numel = tt_tensor_numel(ot);
    out->data = xmalloc(ot->nbytes ? ot->nbytes : 1);
    memcpy(out->data, ot->data, ot->nbytes);
    return true;
}

/* ---- numpy indexing and unary '*' ------------------------------------------------ */

typedef VEC(dbg_value) value_vec;

static bool eval_rest(dbg_session *d, const char *t0, int frame, const value_vec *temps, dbg_value *out);

static bool ident_char(char c) { return isalnum((unsigned char)c) || c == '_' || c == '$'; }

/* The index just after the bracket that closes t[i] ('(' or '['), 0 when unbalanced. */
static size_t close_of(const char *t, size_t i)
{
    int depth = 0;
    char q = 0;
    for (size_t j = i; t[j]; j++) {
        char c = t[j];
        if (q) {
            if (c == '\\' && t[j + 1]) j++;
            else if (c == q) q = 0;
            continue;
        }
        if (c == '\'' || c == '"') q = c;
        else if (c == '(' || c == '[' || c == '{') depth++;
        else if ((c == ')' || c == ']' || c == '}') && --depth == 0) return j + 1;
    }
    return 0;
}

/* Backwards from t[i]: where the primary ending at i starts (a name, an
 * attribute chain, calls, subscripts, a parenthesized group). */
static size_t primary_start(const char *t, size_t i)
{
    size_t j = i;
    while (j > 0) {
        char c = t[j - 1];
        if (c == ')' || c == ']') {
            int depth = 0;
            size_t k = j;
            while (k > 0) {
                char x = t[--k];
                if (x == ')' || x == ']') depth++;
                else if ((x == '(' || x == '[') && --depth == 0) break;
            }
            if (depth) return i;
            j = k;
        } else if (ident_char(c) || c == '.') {
            j--;
        } else {
            break;
        }
    }
    return j;
}

/* Forwards from t[i]: the end of the primary starting there. */
static size_t primary_end(const char *t, size_t i)
{
    size_t j = i;
    while (t[j] == ' ' || t[j] == '\t') j++;
    if (t[j] == '(') {
        j = close_of(t, j);
        if (!j) return i;
    } else {
        while (ident_char(t[j]) || t[j] == '.') j++;
    }
    for (;;) {
        if (t[j] == '(' || t[j] == '[') {
            size_t k = close_of(t, j);
            if (!k) return j;
            j = k;
        } else if (t[j] == '.' && ident_char(t[j + 1])) {
            for (j++; ident_char(t[j]); j++) {}
        } else {
            return j;
        }
    }
}

enum { SITE_INDEX, SITE_DEREF };
typedef struct site { int kind; size_t from, lb, to; } site;

/* Whether t[a, b) names a tensor argument, maybe with .flat (a buffer reference). */
static bool names_buffer(dbg_session *d, const char *t, size_t a, size_t b)
{
    while (a < b && isspace((unsigned char)t[a])) a++;
    while (b > a && isspace((unsigned char)t[b - 1])) b--;
    if (b - a > 5 && !strncmp(t + b - 5, ".flat", 5)) b -= 5;
    for (size_t k = a; k < b; k++)
        if (!isalnum((unsigned char)t[k]) && t[k] != '_') return false;
    return b > a && dbg_buf_arg(d, t + a, b - a) >= 0;
}

/* The leftmost subscript the front end cannot compile, or unary '*'. */
static bool next_site(dbg_session *d, const char *t, site *s)
{
    char q = 0;
    for (size_t i = 0; t[i]; i++) {
        char c = t[i];
        if (q) {
            if (c == '\\' && t[i + 1]) i++;
            else if (c == q) q = 0;
            continue;
        }
        if (c == '\'' || c == '"') { q = c; continue; }
        if (c == '*') {
            if (t[i + 1] == '*') { i++; continue; }   /* a power */
            size_t k = i;
            while (k > 0 && isspace((unsigned char)t[k - 1])) k--;
            if (k > 0 && !strchr("([,+-*/%<>=!&|^~", t[k - 1])) continue;   /* a product */
            size_t e = primary_end(t, i + 1);
            if (e == i + 1) continue;
            *s = (site){ SITE_DEREF, i, i, e };
            return true;
        }
        if (c == '[' && i > 0 && (ident_char(t[i - 1]) || t[i - 1] == ')' || t[i - 1] == ']')) {
            size_t rb = close_of(t, i);
            if (!rb) return false;
            size_t from = primary_start(t, i);
            if (from == i) continue;
            if (!names_buffer(d, t, from, i) && dbg_index_is_native(t + i + 1, t + rb - 1)) continue;
            *s = (site){ SITE_INDEX, from, i, rb };
            return true;
        }
    }
    return false;
}

/* An integer index of a tile: a number or a scalar expression in the frame. */
static bool eval_tile_index(dbg_session *d, void *user, const char *s, const char *e, bool *empty, int64_t *v)
{
    int frame = *(const int *)user;
    while (s < e && isspace((unsigned char)*s)) s++;
    while (e > s && isspace((unsigned char)e[-1])) e--;
    *empty = s == e;
    if (*empty) return true;
    char *txt = xstrndup(s, (size_t)(e - s));
    const char *p = txt;
    if (dbg_parse_int(&p, v) && dbg_blank(p)) {
        free(txt);
        return true;
    }
    dbg_value x;
    bool ok = dbg_eval_in(d, txt, frame, &x);
    free(txt);
    if (!ok) return false;
    ok = !x.text && x.rank == 0 && !x.is_ptr && tt_dtype_is_int(x.dt);
    if (ok) *v = tt_load_i64(x.data, x.dt, 0);
    else dbg_error(d, "only integers, slices (`:`), ellipsis (`...`) and None are valid indices here");
    dbg_value_free(&x);
    return ok;
}

/* *P: the elements the pointers P reach, shaped like P. */
static bool deref(dbg_session *d, const dbg_value *p, dbg_value *out)
{
    if (p->text || (!p->is_ptr && p->dt != TT_U64 && p->dt != TT_I64))
        return dbg_error(d, "'*' needs pointers, not %s", p->text ? "a tuple" : tt_dtype_name(p->dt)), false;
    if (!d->s) return dbg_error(d, "no interpreter session"), false;
    memset(out, 0, sizeof *out);
    out->pt = TT_DTYPE_COUNT;
    out->rank = p->rank;
    memcpy(out->shape, p->shape, sizeof p->shape);
    out->numel = p->numel;
    for (int64_t i = 0; i < p->numel; i++) {
        uint64_t a = ((const uint64_t *)p->data)[i];
        int arg;
        int64_t e;
        if (!interp_resolve(d->s, a, &arg, &e)) {
            dbg_value_free(out);
            if (p->numel == 1) return dbg_error(d, "address 0x%012" PRIx64 " is not in any buffer", a), false;
            return dbg_error(d, "lane %" PRId64 ": address 0x%012" PRIx64 " is not in any buffer", i, a), false;
        }
        const tt_tensor *t = dbg_buf_tensor(d, arg);
        size_t es = (size_t)tt_dtype_size(t->dtype);
        if (!out->data) {
            out->dt = t->dtype;
            out->data = xmalloc((size_t)p->numel * es);
        } else if (t->dtype != out->dt) {
            dbg_value_free(out);
            return dbg_error(d, "the pointers reach buffers of different dtypes"), false;
        }
        memcpy((char *)out->data + (size_t)i * es, (const char *)t->data + (size_t)e * es, es);
    }
    if (!out->data) {                  /* no lanes */
        out->dt = p->pt < TT_DTYPE_COUNT && p->pt != TT_PTR ? p->pt : TT_F32;
        out->data = xmalloc(1);
    }
    return true;
}

static bool eval_site(dbg_session *d, const char *t, const site *s, int frame, const value_vec *temps,
                      dbg_value *out)
{
    if (s->kind == SITE_DEREF) {
        char *inner = xstrndup(t + s->from + 1, s->to - s->from - 1);
        int arg;
        int64_t el;
        int r = dbg_have_frame(d) ? 0 : dbg_buf_flat_ref(d, inner, &arg, &el);   /* no program: by name */
        if (r) {
            free(inner);
            if (r > 0) dbg_buf_elem(d, arg, el, out);
            return r > 0;
        }
        dbg_value p;
        bool ok = dbg_eval_in(d, inner, frame, &p);
        free(inner);
        if (!ok) return false;
        ok = deref(d, &p, out);
        dbg_value_free(&p);
        return ok;
    }
    char *whole = xstrndup(t + s->from, s->to - s->from);
    bool failed;
    bool was_buf = dbg_buf_read_expr(d, whole, out, &failed);
    free(whole);
    if (was_buf) return !failed;
    size_t oe = s->lb;
    while (oe > s->from && isspace((unsigned char)t[oe - 1])) oe--;
    bool flat = oe - s->from > 5 && !strncmp(t + oe - 5, ".flat", 5);
    if (flat) oe -= 5;
    char *operand = xstrndup(t + s->from, oe - s->from);
    dbg_value v;
    int k;
    char tail;
    bool ok;
    if (sscanf(operand, "__slice%d%c", &k, &tail) == 1 && k >= 0 && k < temps->n) {
        /* x[1:3][::-1]: the first subscript's value */
        dbg_var tv = { .name = operand, .kind = VAR_TEMP, .v = -1, .val = &temps->v[k] };
        ok = dbg_var_value(d, &tv, &v);
    } else {
        ok = dbg_eval_in(d, operand, frame, &v);
    }
    free(operand);
    if (!ok) return false;
    if (v.text) {
        dbg_error(d, "cannot index the tuple %s here", v.text);
        dbg_value_free(&v);
        return false;
    }
    if (flat) {
        v.rank = 1;
        v.shape[0] = v.numel;
    }
    dbg_index ix;
    ok = dbg_index_parse(d, t + s->lb + 1, t + s->to - 1, v.rank, v.shape, eval_tile_index, &frame, &ix);
    if (ok) dbg_index_apply(&v, &ix, out);
    dbg_value_free(&v);
    return ok;
}

/* Evaluate the sites of text one by one, leftmost first, each replaced by a
 * variable __sliceK; *out is the rewritten text (NULL when there were none). */
static bool eval_sites(dbg_session *d, const char *text, int frame, char **out, value_vec *temps)
{
    char *t = xstrdup(text);
    site s;
    *out = NULL;
    while (next_site(d, t, &s)) {
        if (temps->n >= 64) {
            free(t);
            return dbg_error(d, "too many subscripts and '*' in one expression (at most 64)"), false;
        }
        dbg_value v;
        if (!eval_site(d, t, &s, frame, temps, &v)) {
            free(t);
            return false;
        }
        vec_push(temps, v);
        char *nt = xasprintf("%.*s__slice%d%s", (int)s.from, t, temps->n - 1, t + s.to);
        free(t);
        t = nt;
    }
    if (temps->n) *out = t;
    else free(t);
    return true;
}

bool dbg_deref_run(dbg_session *d, const char *text, int *arg, int64_t *lo, int64_t *hi)
{
    const char *s = dbg_skip(text);
    if (*s != '*') return dbg_error(d, "expected *(POINTER)"), false;
    size_t e = primary_end(s, 1);
    if (e == 1 || !dbg_blank(s + e)) return dbg_error(d, "expected *(POINTER), the pointer in parentheses"), false;
    int r = dbg_have_frame(d) ? 0 : dbg_buf_flat_ref(d, s + 1, arg, lo);   /* no program: by name */
    if (r) {
        *hi = *lo + 1;
        return r > 0;
    }
    dbg_value p;
    if (!dbg_eval_in(d, s + 1, d->sel_frame, &p)) return false;
    bool ok = false;
    if (p.text || (!p.is_ptr && p.dt != TT_U64 && p.dt != TT_I64)) {
        dbg_error(d, "'*' needs pointers, not %s", p.text ? "a tuple" : tt_dtype_name(p.dt));
    } else if (!d->s) {
        dbg_error(d, "no interpreter session");
    } else if (!p.numel) {
        dbg_error(d, "the selection is empty");
    } else {
        ok = true;
        for (int64_t i = 0; i < p.numel && ok; i++) {
            uint64_t a = ((const uint64_t *)p.data)[i];
            int ar;
            int64_t el;
            if (!interp_resolve(d->s, a, &ar, &el)) {
                ok = dbg_error(d, "address 0x%012" PRIx64 " is not in any buffer", a) == 0;
            } else if (i == 0) {
                *arg = ar;
                *lo = el;
            } else if (ar != *arg || el != *lo + i) {
                ok = dbg_error(d, "the pointers do not reach consecutive elements of one buffer; watch a range") == 0;
            }
        }
        *hi = *lo + p.numel;
    }
    dbg_value_free(&p);
    return ok;
}

bool dbg_eval_in(dbg_session *d, const char *text, int frame, dbg_value *out)
{
    if (!d->loaded) {
        dbg_error(d, "No kernel loaded.");
        return false;
    }
    const char *t0 = dbg_skip(text);
    if (!*t0) {
        dbg_error(d, "Argument required (expression to compute).");
        return false;
    }
    bool failed;
    if (dbg_buf_read_expr(d, t0, out, &failed)) return !failed;
    /* numpy subscripts and '*' first (history refs inside them included) */
    value_vec temps = { 0 };
    char *rw;
    if (!eval_sites(d, t0, frame, &rw, &temps)) {
        for (int i = 0; i < temps.n; i++) dbg_value_free(&temps.v[i]);
        vec_free(&temps);
        return false;
    }
    bool ok = eval_rest(d, rw ? rw : t0, frame, &temps, out);
    free(rw);
    for (int i = 0; i < temps.n; i++) dbg_value_free(&temps.v[i]);
    vec_free(&temps);
    return ok;
}

/* The expression after eval_sites: compiled (or cached) and run. */
static bool eval_rest(dbg_session *d, const char *t0, int frame, const value_vec *temps, dbg_value *out)
{
    bool hist;
    char *t = subst_history(d, t0, &hist);
    if (!t) return false;
    int32_t g = cur_g(d);
    bool once = hist || temps->n;      /* values of this evaluation only: not cached */
    /* compiled before at this op: no scope to build (conditions at every hit) */
    dbg_expr *e = once ? NULL : cache_find(d, t, g, frame);
    if (e) {
        free(t);
        return run_expr(d, e, out);
    }
    dbg_var_vec vars = { 0 };
    dbg_scope(d, frame, &vars, true);
    char (*tnames)[24] = xmalloc(sizeof *tnames * (size_t)(temps->n ? temps->n : 1));
    for (int k = 0; k < temps->n; k++) {
        snprintf(tnames[k], sizeof tnames[k], "__slice%d", k);
        dbg_var v = { .name = tnames[k], .kind = VAR_TEMP, .v = -1, .val = &temps->v[k] };
        vec_push(&vars, v);
    }
    /* a plain variable: no compile needed */
    for (int i = 0; i < vars.n && !hist; i++) {
        size_t n = strlen(t);
        while (n && isspace((unsigned char)t[n - 1])) n--;
        if (strlen(vars.v[i].name) == n && !strncmp(vars.v[i].name, t, n)) {
            if (dbg_var_value(d, &vars.v[i], out)) {
                vec_free(&vars);
                free(tnames);
                free(t);
                return true;
            }
            break;
        }
    }
    char (*hnames)[24] = NULL;
    if (hist) {
        hnames = xmalloc(sizeof *hnames * (size_t)d->history.n);
        for (int h = 0; h < d->history.n; h++) {
            snprintf(hnames[h], sizeof hnames[h], "__hist%d", h);
            dbg_var v = { .name = hnames[h], .kind = VAR_HIST, .v = -1, .hist = h };
            vec_push(&vars, v);
        }
    }
    dbg_expr tmp = { 0 };
    bool compiled = compile(d, t, &vars, &tmp);
    vec_free(&vars);
    free(hnames);
    free(tnames);
    if (!compiled) {
        free(t);
        return false;
    }
    tmp.text = t;
    tmp.g = g;
    tmp.frame = frame;
    if (once) {
        bool ok = run_expr(d, &tmp, out);
        expr_free(&tmp);
        return ok;
    }
    if (d->exprs.n >= 64) {            /* drop the oldest */
        expr_free(&d->exprs.v[0]);
        memmove(&d->exprs.v[0], &d->exprs.v[1], sizeof *d->exprs.v * (size_t)(d->exprs.n - 1));
        d->exprs.n--;
    }
    vec_push(&d->exprs, tmp);
    return run_expr(d, &d->exprs.v[d->exprs.n - 1], out);
}

bool dbg_eval(dbg_session *d, const char *expr, dbg_value *out) { return dbg_eval_in(d, expr, d->sel_frame, out); }

/* ---- print / output / whatis ------------------------------------------------------- */

static bool parse_fmt(dbg_session *d, const char **sp, int *fmt)
{
    const char *s = dbg_skip(*sp);
    *fmt = 0;
    if (*s != '/') return true;
    s++;
    while (isalpha((unsigned char)*s)) {
        if (!strchr("xduotcf", *s)) {
            dbg_error(d, "Undefined output format \"%c\".", *s);
            return false;
        }
        *fmt = *s++;
    }
    *sp = s;
    return true;
}

/* false when Ctrl-C cut it short */
static bool print_value(dbg_session *d, const char *prefix, const dbg_value *v, int fmt)
{
    if (v->text) {                     /* a tuple, as Python prints it */
        dbg_printf(d, "%s%s\n", prefix, v->text);
        return true;
    }
    if (v->rank == 0) {
        char *s = dbg_elem_format(v, 0, fmt);
        dbg_printf(d, "%s%s\n", prefix, s);
        free(s);
        return true;
    }
    char *ty = dbg_format_type(v);
    size_t head = strlen(prefix) + strlen(ty) + 1;
    /* more than 40 elements shown never fit one 80-column line: the header
     * goes out before the (maybe long, interruptible) formatting */
    bool shown_all = d->print_elements == 0 || v->numel <= d->print_elements;
    char *one = shown_all && v->numel > 40 ? xstrdup("\n")
                                           : dbg_format_value_until(v, fmt, d->print_elements, (int)head, &d->quit);
    if (dbg_quit(d)) {
        /* Ctrl-C while formatting a big tile */
    } else if (!strchr(one, '\n') && head + strlen(one) <= 80) {
        dbg_printf(d, "%s%s %s\n", prefix, ty, one);
    } else {
        dbg_printf(d, "%s%s\n", prefix, ty);
        fflush(d->out);
        char *multi = dbg_format_value_until(v, fmt, d->print_elements, 0, &d->quit);
        dbg_puts_lines(d, multi);
        dbg_printf(d, "\n");
        free(multi);
    }
    free(one);
    free(ty);
    return !dbg_quit(d);
}

int dbg_cmd_print(dbg_session *d, const char *args)
{
    const char *s = args;
    int fmt;
    if (!parse_fmt(d, &s, &fmt)) return -1;
    s = dbg_skip(s);
    dbg_value v;
    if (!*s) {
        if (!d->history.n) return dbg_error(d, "History is empty.");
        dbg_var hv = { .kind = VAR_HIST, .hist = d->history.n - 1 };
        dbg_var_value(d, &hv, &v);
    } else if (!dbg_eval_in(d, s, d->sel_frame, &v)) {
        return -1;
    }
    vec_push(&d->history, v);
    char prefix[32];
    snprintf(prefix, sizeof prefix, "$%d = ", d->history.n);
    return print_value(d, prefix, &d->history.v[d->history.n - 1], fmt) ? 0 : -1;
}

int dbg_cmd_output(dbg_session *d, const char *args)
{
    const char *s = args;
    int fmt;
    if (!parse_fmt(d, &s, &fmt)) return -1;
    dbg_value v;
    if (!dbg_eval_in(d, s, d->sel_frame, &v)) return -1;
    char *str = v.text ? xstrdup(v.text) : dbg_format_value_until(&v, fmt, d->print_elements, 0, &d->quit);
    dbg_puts_lines(d, str);
    free(str);
    dbg_value_free(&v);
    return dbg_quit(d) ? -1 : 0;
}

int dbg_cmd_whatis(dbg_session *d, const char *args)
{
    dbg_value v;
    if (!dbg_eval_in(d, args, d->sel_frame, &v)) return -1;
    char *ty = v.text ? xstrdup("tuple") : dbg_format_type(&v);
    dbg_printf(d, "type = %s\n", ty);
    free(ty);
    dbg_value_free(&v);
    return 0;
}

/* ---- display ---------------------------------------------------------------------- */

static void show_display(dbg_session *d, const dbg_display *x)
{
    dbg_value v;
    char prefix[256];
    char f[4] = "";
    if (x->fmt) snprintf(f, sizeof f, "/%c ", x->fmt);
    snprintf(prefix, sizeof prefix, "%d: %s%s = ", x->num, f, x->expr);
    FILE *saved_err = d->err;
    /* an expression out of scope at this stop shows as such, quietly */
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    if (mem) d->err = mem;
    bool ok = dbg_eval_in(d, x->expr, d->sel_frame, &v);
    if (mem) {
        fclose(mem);
        d->err = saved_err;
    }
    if (ok) {
        print_value(d, prefix, &v, x->fmt);
        dbg_value_free(&v);
    } else {
        char *nl = buf ? strchr(buf, '\n') : NULL;
        if (nl) *nl = 0;
        dbg_printf(d, "%s<error: %s>\n", prefix, buf && *buf ? buf : "cannot evaluate");
    }
    free(buf);
}

void dbg_show_displays(dbg_session *d)
{
    for (int i = 0; i < d->displays.n; i++)
        if (d->displays.v[i].enabled) show_display(d, &d->displays.v[i]);
}

int dbg_cmd_display(dbg_session *d, const char *args)
{
    const char *s = args;
    int fmt;
    if (!parse_fmt(d, &s, &fmt)) return -1;
    s = dbg_skip(s);
    if (!*s) {
        if (dbg_get_state(d) == DBG_STOPPED) dbg_show_displays(d);
        return 0;
    }
    dbg_display x = { .num = d->next_display++, .expr = xstrdup(s), .fmt = fmt, .enabled = true };
    size_t n = strlen(x.expr);
    while (n && isspace((unsigned char)x.expr[n - 1])) x.expr[--n] = 0;
    vec_push(&d->displays, x);
    if (dbg_get_state(d) == DBG_STOPPED) show_display(d, &d->displays.v[d->displays.n - 1]);
    return 0;
}

int dbg_cmd_undisplay(dbg_session *d, const char *args)
{
    const char *s = dbg_skip(args);
    if (!*s) {
        for (int i = 0; i < d->displays.n; i++) free(d->displays.v[i].expr);
        d->displays.n = 0;
        return 0;
    }
    int rc = 0;
    while (*s) {
        int64_t n;
        if (!dbg_parse_int(&s, &n)) return dbg_error(d, "Arguments must be display numbers.");
        int i;
        for (i = 0; i < d->displays.n; i++) if (d->displays.v[i].num == n) break;
        if (i == d->displays.n) rc = dbg_error(d, "No display number %" PRId64 ".", n);
        else {
            free(d->displays.v[i].expr);
            memmove(&d->displays.v[i], &d->displays.v[i + 1], sizeof *d->displays.v * (size_t)(d->displays.n - i - 1));
            d->displays.n--;
        }
        s = dbg_skip(s);
    }
    return rc;
}

int dbg_cmd_info_display(dbg_session *d, const char *args)
{
    (void)args;
    if (!d->displays.n) {
        dbg_printf(d, "There are no auto-display expressions now.\n");
        return 0;
    }
    dbg_printf(d, "Auto-display expressions now in effect:\nNum Enb Expression\n");
    for (int i = 0; i < d->displays.n; i++) {
        const dbg_display *x = &d->displays.v[i];
        if (x->fmt) dbg_printf(d, "%d:   %c  /%c %s\n", x->num, x->enabled ? 'y' : 'n', x->fmt, x->expr);
        else dbg_printf(d, "%d:   %c  %s\n", x->num, x->enabled ? 'y' : 'n', x->expr);
    }
    return 0;
}

/* ---- info locals / info args ------------------------------------------------------- */

static void const_text(const launch_const *c, char *buf, size_t n)
{
    switch (c->kind) {
    case CONST_INT: snprintf(buf, n, "%" PRId64, c->i); break;
    case CONST_BOOL: snprintf(buf, n, "%s", c->i ? "True" : "False"); break;
    case CONST_FLOAT: snprintf(buf, n, "%.9g", c->f); break;
    case CONST_STR: snprintf(buf, n, "'%s'", c->s ? c->s : ""); break;
    case CONST_DTYPE: snprintf(buf, n, "tl.%s", tt_dtype_triton_name((tt_dtype)c->i)); break;
    case CONST_NONE: snprintf(buf, n, "None"); break;
    case CONST_TUPLE:
        if (c->s) snprintf(buf, n, "named tuple %s", c->s);
        else snprintf(buf, n, "tuple of %lld", (long long)c->i);
        break;
    case CONST_FUNC: snprintf(buf, n, "jit function %s", c->s ? c->s : "?"); break;
    }
}

static void var_rows(dbg_session *d, const dbg_var_vec *v, int from, int to, int step)
{
    int w1 = 4, w2 = 4;
    char **types = xcalloc((size_t)(v->n ? v->n : 1), sizeof *types);
    char **prev = xcalloc((size_t)(v->n ? v->n : 1), sizeof *prev);
    for (int i = from; i != to; i += step) {
        const dbg_var *x = &v->v[i];
        if (x->kind == VAR_CONST) {
            char buf[256];
            const_text(&x->cval, buf, sizeof buf);
            types[i] = xstrdup("constexpr");
            prev[i] = xstrdup(buf);
        } else {
            dbg_value val;
            if (dbg_var_value(d, x, &val)) {
                types[i] = dbg_format_type(&val);
                prev[i] = dbg_preview(&val, 0);
                dbg_value_free(&val);
            } else {
                types[i] = xstrdup("?");
                prev[i] = xstrdup("<not computed>");
            }
        }
        if ((int)strlen(x->name) > w1) w1 = (int)strlen(x->name);
        if ((int)strlen(types[i]) > w2) w2 = (int)strlen(types[i]);
    }
    for (int i = from; i != to; i += step) {
        dbg_printf(d, "%-*s  %-*s  %s\n", w1, v->v[i].name, w2, types[i], prev[i]);
        free(types[i]);
        free(prev[i]);
    }
    free(types);
    free(prev);
}

int dbg_cmd_info_locals(dbg_session *d, const char *args)
{
    (void)args;
    if (dbg_get_state(d) != DBG_STOPPED || !d->in_prog) return dbg_error(d, "No frame selected.");
    dbg_var_vec v = { 0 }, loc = { 0 };
    dbg_scope(d, d->sel_frame, &v, false);
    for (int i = 0; i < v.n; i++)
        if (v.v[i].kind == VAR_LOCAL) vec_push(&loc, v.v[i]);
    if (!loc.n) dbg_printf(d, "No locals.\n");
    else var_rows(d, &loc, loc.n - 1, -1, -1);       /* in definition order */
    vec_free(&v);
    vec_free(&loc);
    return 0;
}

int dbg_cmd_info_args(dbg_session *d, const char *args)
{
    (void)args;
    if (!d->loaded) return dbg_error(d, "No kernel loaded.");
    bool stopped = dbg_get_state(d) == DBG_STOPPED && d->in_prog;
    if (stopped) {
        dbg_frameinfo fr[DBG_MAX_FRAMES];
        int n = dbg_frames(d, fr, DBG_MAX_FRAMES);
        if (d->sel_frame < n - 1) {
            dbg_printf(d, "%s is inlined: its arguments are the caller's values (`up` to see them).\n",
                       fr[d->sel_frame].func);
            return 0;
        }
    }
    dbg_var_vec v = { 0 }, a = { 0 };
    if (stopped) {
        dbg_scope(d, d->sel_frame, &v, true);
        /* kernel order: body args in order, then constexprs */
        const ir_region *body = &d->fn->regions.v[IR_BODY];
        for (int i = 0; i < body->nargs; i++)
            for (int k = 0; k < v.n; k++)
                if (v.v[k].kind == VAR_ARG && v.v[k].v == body->args[i]) vec_push(&a, v.v[k]);
        for (int k = 0; k < v.n; k++)
            if (v.v[k].kind == VAR_CONST) vec_push(&a, v.v[k]);
        var_rows(d, &a, 0, a.n, 1);
    } else {
        /* not running: the launch's values */
        const launch *l = &d->pristine;
        for (int i = 0; i < l->nargs; i++) {
            const launch_arg *x = &l->args[i];
            char buf[160];
            if (x->kind == ARG_TENSOR) dbg_printf(d, "%s = %s\n", x->name, tt_tensor_describe(x->tensor, buf, sizeof buf));
            else if (x->kind == ARG_INT) dbg_printf(d, "%s = %" PRId64 "\n", x->name, x->i);
            else dbg_printf(d, "%s = %.9g\n", x->name, x->f);
        }
        dbg_scope(d, 0, &v, true);
        for (int k = 0; k < v.n; k++) {
            char buf[256];
            const_text(&v.v[k].cval, buf, sizeof buf);
            dbg_printf(d, "%s = %s (constexpr)\n", v.v[k].name, buf);
        }
    }
    vec_free(&v);
    vec_free(&a);
    return 0;
}

/* ---- settings -------------------------------------------------------------------- */

int dbg_cmd_set_print_elements(dbg_session *d, const char *args)
{
    const char *s = args;
    int64_t n;
    if (dbg_blank(s) || !strncmp(dbg_skip(s), "unlimited", 9)) { d->print_elements = 0; return 0; }
    if (!dbg_parse_int(&s, &n) || !dbg_blank(s) || n < 0) return dbg_error(d, "usage: set print elements N|unlimited");
    d->print_elements = (int)n;
    return 0;
}

int dbg_cmd_set_stop_on_fault(dbg_session *d, const char *args)
{
    const char *s = dbg_skip(args);
    if (!strcmp(s, "on") || !strcmp(s, "1") || !*s) d->stop_on_fault = true;
    else if (!strcmp(s, "off") || !strcmp(s, "0")) d->stop_on_fault = false;
    else return dbg_error(d, "\"on\" or \"off\" expected.");
    return 0;
}

int dbg_cmd_show_settings(dbg_session *d, const char *args)
{
    (void)args;
    char sb[64];
    if (d->print_elements) dbg_printf(d, "print elements: %d\n", d->print_elements);
    else dbg_printf(d, "print elements: unlimited\n");
    dbg_printf(d, "stop-on-fault: %s\n", d->stop_on_fault ? "on" : "off");
    dbg_printf(d, "schedule: %s\n", dbg_sched_name(d, sb, sizeof sb));
    return 0;
}

/* ---- names for completion ------------------------------------------------------- */

char **dbg_names(dbg_session *d, dbg_names_kind kind)
{
    VEC(char *) v = { 0 };
    if (d->loaded) {
        if (kind == DBG_NAMES_VARS) {
            dbg_var_vec vars = { 0 };
            dbg_scope(d, d->sel_frame, &vars, true);
            for (int i = 0; i < vars.n; i++) vec_push(&v, xstrdup(vars.v[i].name));
            vec_free(&vars);
        } else if (kind == DBG_NAMES_BUFFERS) {
            for (int i = 0; i < d->pristine.nargs; i++)
                if (d->pristine.args[i].kind == ARG_TENSOR) vec_push(&v, xstrdup(d->pristine.args[i].name));
        } else if (kind == DBG_NAMES_FUNCS) {
            int n = front_function_count(d->mod);
            for (int i = 0; i < n; i++) vec_push(&v, xstrdup(front_function_name(d->mod, i)));
        } else if (kind == DBG_NAMES_FILES) {
            const char *f = diag_file_name(d->kfile);
            if (f) {
                const char *b = strrchr(f, '/');
                vec_push(&v, xstrdup(b ? b + 1 : f));
            }
        }
    }
    vec_push(&v, NULL);
    return v.v;
}

void dbg_names_free(char **names)
{
    if (!names) return;
    for (char **p = names; *p; p++) free(*p);
    free(names);
}
