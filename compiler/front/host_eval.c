/* host_eval.c — Python expressions evaluated on the host for launch specs
 * (--grid 'cdiv(n, BLOCK)', --arg n='numel(x)'), with the front end's lexer
 * and parser and Python's semantics (floor // and %). */
#include "front_int.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <string.h>

typedef struct heval {
    front_lookup_fn lookup;
    void *user;
    jmp_buf fail;
} heval;

static _Noreturn void herr(heval *H, src_pos p, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void herr(heval *H, src_pos p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vat(DIAG_ERROR, p, fmt, ap);
    va_end(ap);
    longjmp(H->fail, 1);
}

static hostval hint(int64_t i) { return (hostval){ .kind = HV_INT, .i = i }; }
static hostval hfloat(double f) { return (hostval){ .kind = HV_FLOAT, .f = f }; }
static bool isnum(const hostval *v) { return v->kind == HV_INT || v->kind == HV_FLOAT || v->kind == HV_BOOL; }
static double num(const hostval *v) { return v->kind == HV_FLOAT ? v->f : (double)v->i; }

static int64_t want_int(heval *H, src_pos p, hostval v, const char *what)
{
    if (v.kind == HV_INT || v.kind == HV_BOOL) return v.i;
    herr(H, p, "%s must be an integer", what);
}

static const tt_tensor *want_tensor(heval *H, src_pos p, hostval v, const char *fn)
{
    if (v.kind != HV_TENSOR) herr(H, p, "%s() needs a tensor argument", fn);
    return v.t;
}

static hostval heval_expr(heval *H, node *e);

static hostval binop(heval *H, src_pos p, const char *op, hostval a, hostval b)
{
    if (!isnum(&a) || !isnum(&b)) herr(H, p, "operator %s needs numbers", op);
    pynum x = { a.kind == HV_FLOAT ? 'f' : a.kind == HV_BOOL ? 'b' : 'i', a.i, a.f };
    pynum y = { b.kind == HV_FLOAT ? 'f' : b.kind == HV_BOOL ? 'b' : 'i', b.i, b.f };
    pynum r;
    const char *err = py_binop(op, x, y, &r);
    if (err) herr(H, p, "%s (%s)", err, op);
    if (r.kind == 'f') return hfloat(r.f);
    return (hostval){ .kind = r.kind == 'b' ? HV_BOOL : HV_INT, .i = r.i };
}

static hostval call(heval *H, node *e)
{
    node *f = e->a;
    const char *name = NULL;
    hostval self = { .kind = HV_NONE };
    bool method = false;
    if (f->kind == E_NAME) name = f->name;
    else if (f->kind == E_ATTR && f->a->kind == E_NAME && !strcmp(f->a->name, "triton")) name = f->name;
    else if (f->kind == E_ATTR) {
        name = f->name;
        self = heval_expr(H, f->a);
        method = true;
    }
    if (!name) herr(H, e->pos, "unsupported call");
    int n = e->items.n;
    if (e->kwnames.n) herr(H, e->pos, "keyword arguments are not supported here");
    hostval a[4];
    if (n > 4) herr(H, e->pos, "too many arguments");
    for (int i = 0; i < n; i++) a[i] = heval_expr(H, e->items.v[i]);
    if (method) {
        const tt_tensor *t = want_tensor(H, e->pos, self, name);
        if (!strcmp(name, "numel") && n == 0) return hint(tt_tensor_numel(t));
        if (!strcmp(name, "stride") && n == 1) {
            int64_t d = want_int(H, e->pos, a[0], "the dimension");
            if (d < 0) d += t->rank;
            if (d < 0 || d >= t->rank) herr(H, e->pos, "dimension %lld out of range for a rank-%d tensor", (long long)a[0].i, t->rank);
            return hint(t->strides[d]);
        }
        if (!strcmp(name, "size") && n == 1) {
            int64_t d = want_int(H, e->pos, a[0], "the dimension");
            if (d < 0) d += t->rank;
            if (d < 0 || d >= t->rank) herr(H, e->pos, "dimension out of range");
            return hint(t->shape[d]);
        }
        if (!strcmp(name, "dim") && n == 0) return hint(t->rank);
        herr(H, e->pos, "unknown tensor method '%s' (numel(), stride(d), size(d), dim())", name);
    }
    if (!strcmp(name, "cdiv")) {
        if (n != 2) herr(H, e->pos, "cdiv takes 2 arguments");
        int64_t x = want_int(H, e->pos, a[0], "cdiv's argument"), d = want_int(H, e->pos, a[1], "cdiv's divisor");
        if (d == 0) herr(H, e->pos, "cdiv by zero");
        /* triton.cdiv is (x + d - 1) // d on Python's unbounded ints: the
         * sum in 128 bits, then a floor division and a range check */
        __int128 num = (__int128)x + d - 1, q = num / d;
        if (num % d != 0 && ((num < 0) != (d < 0))) q--;
        if (q > INT64_MAX || q < INT64_MIN) herr(H, e->pos, "integer overflow (cdiv)");
        return hint((int64_t)q);
    }
    if (!strcmp(name, "min") || !strcmp(name, "max")) {
        if (n < 1) herr(H, e->pos, "%s needs arguments", name);
        hostval r = a[0];
        for (int i = 1; i < n; i++) {
            if (!isnum(&a[i]) || !isnum(&r)) herr(H, e->pos, "%s needs numbers", name);
            bool less = num(&a[i]) < num(&r);
            if (!strcmp(name, "min") ? less : num(&a[i]) > num(&r)) r = a[i];
        }
        return r;
    }
    if (!strcmp(name, "int") && n == 1) {
        if (a[0].kind == HV_FLOAT) {
            if (!isfinite(a[0].f) || fabs(a[0].f) > 9e18) herr(H, e->pos, "int() of a non-finite or huge float");
            return hint((int64_t)a[0].f);
        }
        return hint(want_int(H, e->pos, a[0], "int()'s argument"));
    }
    if (!strcmp(name, "float") && n == 1) {
        if (!isnum(&a[0])) herr(H, e->pos, "float() needs a number");
        return hfloat(num(&a[0]));
    }
    if (!strcmp(name, "next_power_of_2") && n == 1) {
        int64_t x = want_int(H, e->pos, a[0], "the argument");
        int64_t r = 1;
        while (r < x) {
            if (r > INT64_MAX / 2) herr(H, e->pos, "overflow");
            r *= 2;
        }
        return hint(r);
    }
    if (!strcmp(name, "numel") && n == 1) return hint(tt_tensor_numel(want_tensor(H, e->pos, a[0], "numel")));
    if (!strcmp(name, "len") && n == 1) {
        if (a[0].kind == HV_TENSOR) return hint(a[0].t->rank ? a[0].t->shape[0] : 0);
        if (a[0].kind == HV_TUPLE) return hint(a[0].n);
        if (a[0].kind == HV_STR) return hint((int64_t)strlen(a[0].s));
        herr(H, e->pos, "len() needs a tensor or tuple");
    }
    herr(H, e->pos, "unknown function '%s' (cdiv, min, max, int, float, len, next_power_of_2, numel)", name);
}

static hostval heval_expr(heval *H, node *e)
{
    switch (e->kind) {
    case E_INT:
        if (e->big) herr(H, e->pos, "integer literal too large");
        return hint(e->ival);
    case E_FLOAT: return hfloat(e->fval);
    case E_STR: return (hostval){ .kind = HV_STR, .s = e->name };
    case E_TRUE: return (hostval){ .kind = HV_BOOL, .i = 1 };
    case E_FALSE: return (hostval){ .kind = HV_BOOL, .i = 0 };
    case E_NONE: return (hostval){ .kind = HV_NONE };
    case E_NAME: {
        hostval v;
        if (H->lookup && H->lookup(H->user, e->name, &v)) return v;
        herr(H, e->pos, "name '%s' is not defined", e->name);
    }
    case E_ATTR: {
        hostval b = heval_expr(H, e->a);
        if (b.kind == HV_TENSOR && !strcmp(e->name, "shape")) {
            hostval t = { .kind = HV_TUPLE, .n = b.t->rank > 3 ? 3 : b.t->rank };
            for (int i = 0; i < t.n; i++) t.tup[i] = b.t->shape[i];
            if (b.t->rank > 3) herr(H, e->pos, ".shape of a rank-%d tensor (at most 3 dims here): use x.size(d)", b.t->rank);
            return t;
        }
        if (b.kind == HV_TENSOR && !strcmp(e->name, "ndim")) return hint(b.t->rank);
        herr(H, e->pos, "unknown attribute '%s'", e->name);
    }
    case E_SUBSCRIPT: {
        hostval b = heval_expr(H, e->a);
        if (e->items.n != 1 || e->items.v[0]->kind == E_SLICE) herr(H, e->pos, "only single integer indexing is supported");
        int64_t i = want_int(H, e->pos, heval_expr(H, e->items.v[0]), "an index");
        if (b.kind != HV_TUPLE) herr(H, e->pos, "only tuples (such as x.shape) can be indexed");
        if (i < 0) i += b.n;
        if (i < 0 || i >= b.n) herr(H, e->pos, "index out of range");
        return hint(b.tup[i]);
    }
    case E_CALL: return call(H, e);
    case E_BINOP: case E_COMPARE: {
        if (e->kind == E_COMPARE && e->c) herr(H, e->pos, "chained comparisons are not supported here");
        hostval a = heval_expr(H, e->a), b = heval_expr(H, e->b);
        return binop(H, e->pos, e->op, a, b);
    }
    case E_UNARY: {
        hostval a = heval_expr(H, e->a);
        if (!strcmp(e->op, "not")) return (hostval){ .kind = HV_BOOL, .i = !num(&a) };
        if (!isnum(&a)) herr(H, e->pos, "unary %s needs a number", e->op);
        if (!strcmp(e->op, "+")) return a;
        if (!strcmp(e->op, "-")) {
            if (a.kind == HV_FLOAT) return hfloat(-a.f);
            if (a.i == INT64_MIN) herr(H, e->pos, "integer overflow");
            return hint(-a.i);
        }
        if (a.kind == HV_FLOAT) herr(H, e->pos, "~ needs an integer");
        return hint(~a.i);
    }
    case E_IFEXP: {
        hostval c = heval_expr(H, e->b);
        return heval_expr(H, (c.kind == HV_NONE || (isnum(&c) && num(&c) == 0)) ? e->c : e->a);
    }
    case E_TUPLE: case E_LIST: {
        if (e->items.n > 3) herr(H, e->pos, "tuples of more than 3 elements are not supported here");
        hostval t = { .kind = HV_TUPLE, .n = e->items.n };
        for (int i = 0; i < t.n; i++) t.tup[i] = want_int(H, e->items.v[i]->pos, heval_expr(H, e->items.v[i]), "a tuple element");
        return t;
    }
    default:
        herr(H, e->pos, "unsupported expression");
    }
}

bool front_eval_host(const char *origin, const char *text, front_lookup_fn lookup, void *user, hostval *out)
{
    int file = diag_add_source(origin, text);
    arena a = {0};
    lexed lx;
    lex_file(&a, diag_file_text(file), &lx);
    parser P = { .a = &a, .file = file, .toks = lx.toks, .ntoks = lx.ntoks };
    heval H = { .lookup = lookup, .user = user };
    bool ok = false;
    int errs = diag_error_count();
    while (P.toks[P.i].kind == TK_INDENT) P.i++;
    node *e = parse_expr_list(&P);
    if (e && diag_error_count() == errs) {
        token *t = &P.toks[P.i];
        while (t->kind == TK_NEWLINE || t->kind == TK_DEDENT) t = &P.toks[++P.i];
        if (t->kind != TK_EOF) {
            diag_error(((src_pos){ file, t->line, t->col }), "unexpected '%.*s' after the expression", t->len, t->start);
        } else if (!setjmp(H.fail)) {
            *out = heval_expr(&H, e);
            ok = true;
        }
    }
    /* strings point into the arena: copy to a buffer valid until the next call */
    static char sbuf[512];
    if (ok && out->kind == HV_STR) {
        snprintf(sbuf, sizeof sbuf, "%s", out->s);
        out->s = sbuf;
    }
    arena_free(&a);
    return ok;
}
