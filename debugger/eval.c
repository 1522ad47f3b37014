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
 * argument reads the buffer instead (buffers.c). Compiled expressions are
 * cached per (text, op, frame). */
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

bool dbg_var_value(dbg_session *d, const dbg_var *v, dbg_value *out)
{
    memset(out, 0, sizeof *out);
    out->pt = TT_DTYPE_COUNT;
    if (v->kind == VAR_HIST) {
        const dbg_value *h = &d->history.v[v->hist];
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
        } else if (v->kind == VAR_HIST) {
            const dbg_value *h = &d->history.v[v->hist];
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
                               e->shape);
    diag_set_stream(saved);
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
    if (v->kind == VAR_HIST) {
        const dbg_value *h = &d->history.v[v->hist];
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
    bool hist;
    char *t = subst_history(d, t0, &hist);
    if (!t) return false;
    int32_t g = cur_g(d);
    /* compiled before at this op: no scope to build (conditions at every hit) */
    dbg_expr *e = hist ? NULL : cache_find(d, t, g, frame);
    if (e) {
        free(t);
        return run_expr(d, e, out);
    }
    dbg_var_vec vars = { 0 };
    dbg_scope(d, frame, &vars, true);
    /* a plain variable: no compile needed */
    for (int i = 0; i < vars.n && !hist; i++) {
        size_t n = strlen(t);
        while (n && isspace((unsigned char)t[n - 1])) n--;
        if (strlen(vars.v[i].name) == n && !strncmp(vars.v[i].name, t, n)) {
            if (dbg_var_value(d, &vars.v[i], out)) {
                vec_free(&vars);
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
    if (!compiled) {
        free(t);
        return false;
    }
    tmp.text = t;
    tmp.g = g;
    tmp.frame = frame;
    if (hist) {
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
    char *str = dbg_format_value_until(&v, fmt, d->print_elements, 0, &d->quit);
    dbg_puts_lines(d, str);
    free(str);
    dbg_value_free(&v);
    return dbg_quit(d) ? -1 : 0;
}

int dbg_cmd_whatis(dbg_session *d, const char *args)
{
    dbg_value v;
    if (!dbg_eval_in(d, args, d->sel_frame, &v)) return -1;
    char *ty = dbg_format_type(&v);
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
