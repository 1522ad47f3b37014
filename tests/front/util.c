/* util.c — helpers of the front-end tests: diagnostics capture, launches
 * from a compact spec, compiling, and IR queries. */
#include <ctype.h>
#include <stdlib.h>
#include "tfront.h"

static char *cap_buf;
static size_t cap_len;
static FILE *cap_f;

void cap_start(void)
{
    if (cap_f) cap_end();
    free(cap_buf);
    cap_buf = NULL;
    cap_f = open_memstream(&cap_buf, &cap_len);
    ck_assert_ptr_nonnull(cap_f);
    diag_set_stream(cap_f);
}

const char *cap_end(void)
{
    if (!cap_f) return cap_buf ? cap_buf : "";
    diag_set_stream(NULL);
    fclose(cap_f);
    cap_f = NULL;
    return cap_buf ? cap_buf : "";
}

int count_str(const char *hay, const char *needle)
{
    int n = 0;
    size_t len = strlen(needle);
    for (const char *p = hay; (p = strstr(p, needle)); p += len) n++;
    return n;
}

/* ---- launches ---- */

static void add_arg(launch *l, launch_arg a)
{
    l->args = realloc(l->args, sizeof *l->args * (size_t)(l->nargs + 1));
    l->args[l->nargs++] = a;
}

static void add_const(launch *l, launch_const c)
{
    l->consts = realloc(l->consts, sizeof *l->consts * (size_t)(l->nconsts + 1));
    l->consts[l->nconsts++] = c;
}

static tt_dtype parse_dt(const char *s)
{
    tt_dtype d;
    if (!tt_dtype_parse(s, &d)) ck_abort_msg("test spec: unknown dtype '%s'", s);
    return d;
}

static void one_item(launch *l, const char *item)
{
    const char *colon = strchr(item, ':'), *eq = strchr(item, '=');
    if (colon && (!eq || colon < eq)) {
        char *name = strndup(item, (size_t)(colon - item));
        const char *rest = colon + 1;
        launch_arg a = { .name = name };
        if (*rest == '*') {
            rest++;
            const char *br = strchr(rest, '[');
            char *dt = br ? strndup(rest, (size_t)(br - rest)) : strdup(rest);
            int64_t shape[TT_MAX_RANK] = { 1024 };
            int rank = 1;
            if (br) {
                rank = 0;
                const char *p = br + 1;
                while (*p && *p != ']') {
                    shape[rank++] = strtoll(p, (char **)&p, 10);
                    if (*p == ',') p++;
                }
            }
            a.kind = ARG_TENSOR;
            a.tensor = tt_tensor_new(name, parse_dt(dt), rank, shape);
            ck_assert_ptr_nonnull(a.tensor);
            free(dt);
        } else {
            char *dt = eq ? strndup(rest, (size_t)(eq - rest)) : strdup(rest);
            tt_dtype d = parse_dt(dt);
            free(dt);
            if (tt_dtype_is_float(d)) {
                a.kind = ARG_FLOAT;
                a.dtype = TT_F32;
                a.f = eq ? strtod(eq + 1, NULL) : 1.0;
            } else {
                a.kind = ARG_INT;
                a.dtype = d;
                a.i = eq ? strtoll(eq + 1, NULL, 10) : 1;
            }
        }
        add_arg(l, a);
        return;
    }
    ck_assert_msg(eq != NULL, "test spec: bad item '%s'", item);
    launch_const c = { .name = strndup(item, (size_t)(eq - item)) };
    const char *v = eq + 1;
    if (!strcmp(v, "True") || !strcmp(v, "False")) {
        c.kind = CONST_BOOL;
        c.i = v[0] == 'T';
    } else if (!strcmp(v, "None")) {
        c.kind = CONST_NONE;
    } else if (v[0] == '\'') {
        c.kind = CONST_STR;
        c.s = strndup(v + 1, strlen(v) - 2);
    } else if (!strncmp(v, "tuple:", 6)) {      /* T=tuple:N[:CLASS,FIELD,...]: a CONST_TUPLE header */
        c.kind = CONST_TUPLE;
        char *end;
        c.i = strtoll(v + 6, &end, 10);
        if (*end == ':') {
            c.s = strdup(end + 1);
            for (char *q = c.s; *q; q++)
                if (*q == ',') *q = ' ';
        }
    } else if (!strncmp(v, "fn:", 3)) {         /* F=fn:REF: a CONST_FUNC */
        c.kind = CONST_FUNC;
        c.s = strdup(v + 3);
    } else if (!strncmp(v, "tl.", 3)) {
        tt_dtype d;
        ck_assert_msg(tt_dtype_parse(v + 3, &d), "test spec: dtype %s", v);
        c.kind = CONST_DTYPE;
        c.i = d;
    } else if (strpbrk(v, ".eE")) {
        c.kind = CONST_FLOAT;
        c.f = strtod(v, NULL);
    } else {
        c.kind = CONST_INT;
        c.i = strtoll(v, NULL, 10);
    }
    add_const(l, c);
}

void mk_launch(launch *l, const char *spec)
{
    memset(l, 0, sizeof *l);
    l->grid[0] = l->grid[1] = l->grid[2] = 1;
    l->num_warps = 4;
    char *s = strdup(spec ? spec : "");
    for (char *tok = strtok(s, " \t\n"); tok; tok = strtok(NULL, " \t\n")) one_item(l, tok);
    free(s);
}

/* ---- compiling ---- */

ir_func *compile_src(const char *src, const char *kernel, const char *spec, const char **diag)
{
    launch l;
    mk_launch(&l, spec);
    cap_start();
    front_module *m = front_load_text("k.py", src);
    ir_func *f = m ? front_compile(m, kernel, &l) : NULL;
    const char *d = cap_end();
    if (diag) *diag = d;
    front_module_free(m);
    launch_free(&l);
    return f;
}

ir_func *compile_ok(const char *src, const char *kernel, const char *spec)
{
    const char *d;
    ir_func *f = compile_src(src, kernel, spec, &d);
    ck_assert_msg(f != NULL, "expected '%s' to compile, got:\n%.1500s\n--- source:\n%.1500s", kernel, d, src);
    ck_assert_msg(!strstr(d, "error:"), "unexpected diagnostics:\n%s", d);
    return f;
}

const char *compile_err(const char *src, const char *kernel, const char *spec)
{
    const char *d;
    ir_func *f = compile_src(src, kernel, spec, &d);
    if (f) {
        char *txt = NULL;
        size_t n;
        FILE *o = open_memstream(&txt, &n);
        ir_print(o, f);
        fclose(o);
        if (n > 1500) strcpy(txt + 1400, "\n  ... (IR cut)\n");   /* Check limits message sizes */
        ck_abort_msg("expected '%s' (%s) to be rejected, but it compiled:\n%s\n--- source:\n%s", kernel, spec, txt, src);
    }
    ck_assert_msg(strstr(d, "error:"), "rejected without a diagnostic; source:\n%s", src);
    return d;
}

/* ---- IR queries ---- */

int count_ops_in(const ir_func *f, int region, int opc)
{
    int n = 0;
    const ir_region *r = &f->regions.v[region];
    for (int i = 0; i < r->nops; i++) n += r->ops[i].opc == opc;
    return n;
}

int count_ops(const ir_func *f, int opc)
{
    int n = 0;
    for (int r = 0; r < f->regions.n; r++) n += count_ops_in(f, r, opc);
    return n;
}

int total_ops(const ir_func *f)
{
    int n = 0;
    for (int r = 0; r < f->regions.n; r++) n += f->regions.v[r].nops;
    return n;
}

ir_op *find_op_at(ir_func *f, int opc, int nth, int *region, int *index)
{
    for (int r = 0; r < f->regions.n; r++) {
        ir_region *rg = &f->regions.v[r];
        for (int i = 0; i < rg->nops; i++) {
            if (rg->ops[i].opc != opc) continue;
            if (nth-- == 0) {
                if (region) *region = r;
                if (index) *index = i;
                return &rg->ops[i];
            }
        }
    }
    return NULL;
}

ir_op *find_op(ir_func *f, int opc, int nth) { return find_op_at(f, opc, nth, NULL, NULL); }

const char *vtype(const ir_func *f, ir_value v)
{
    static char bufs[8][128];
    static int k;
    char *b = bufs[k++ & 7];
    if (v < 0 || v >= f->values.n) {
        snprintf(b, 128, "<no value %d>", v);
        return b;
    }
    return ir_type_str(ir_value_type(f, v), b, 128);
}

const char *rtype(const ir_func *f, const ir_op *op)
{
    if (!op) return "<no op>";
    if (op->nres < 1) return "<no result>";
    return vtype(f, op->res);
}

ir_value find_named(const ir_func *f, const char *name)
{
    for (int v = f->values.n - 1; v >= 0; v--)
        if (f->values.v[v].name && !strcmp(f->values.v[v].name, name)) return v;
    return -1;
}

bool const_of(ir_func *f, ir_value v, double *out)
{
    for (int guard = 0; guard < 8 && v >= 0; guard++) {
        ir_op *op = ir_def(f, v);
        if (!op) return false;
        if (op->opc == IR_SPLAT || op->opc == IR_BROADCAST) {
            v = op->opnd[0];
            continue;
        }
        if (op->opc != IR_CONSTANT) return false;
        *out = ir_type_is_float(ir_value_type(f, v)) ? op->fval : (double)op->ival;
        return true;
    }
    return false;
}

int def_opc(ir_func *f, ir_value v)
{
    ir_op *op = ir_def(f, v);
    return op ? op->opc : -1;
}

ir_op *last_op(ir_func *f, int region)
{
    ir_region *r = &f->regions.v[region];
    return r->nops ? &r->ops[r->nops - 1] : NULL;
}
