/* module.c — finds the @triton.jit functions, constexpr globals and imports
 * of a Python file and skips everything else, statement by statement. */
#include "front_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static token *peek(parser *P) { return &P->toks[P->i]; }

/* decorator: '@' dotted_name ['(' ... ')'] NEWLINE; returns the dotted name's
 * last component ("jit", "autotune", "heuristics", ...). */
static node *quiet_expr(parser *P);

/* decorator: '@' expr NEWLINE. Returns the last name of the decorator's
 * dotted name ("jit", "autotune", "heuristics", ...) and its parsed
 * expression in *expr (NULL when it is not an expression we can read). */
static const char *decorator(parser *P, node **expr)
{
    P->i++;   /* '@' */
    int start = P->i;
    const char *last = "";
    while (peek(P)->kind == TK_NAME || tok_is_op(peek(P), ".")) {
        token *t = &P->toks[P->i++];
        if (t->kind == TK_NAME) last = arena_strndup(P->a, t->start, (size_t)t->len);
    }
    P->i = start;
    *expr = quiet_expr(P);
    if (!*expr || peek(P)->kind != TK_NEWLINE) *expr = NULL;
    /* skip what is left of the line (brackets keep NEWLINE out) */
    while (peek(P)->kind != TK_NEWLINE && peek(P)->kind != TK_EOF) P->i++;
    if (peek(P)->kind == TK_NEWLINE) P->i++;
    return last;
}

static char *dotted(parser *P)
{
    /* dotted_name: NAME ('.' NAME)* */
    strbuf b = {0};
    while (peek(P)->kind == TK_NAME) {
        token *t = &P->toks[P->i++];
        sb_printf(&b, "%.*s", t->len, t->start);
        if (!tok_is_op(peek(P), ".")) break;
        P->i++;
        sb_putc(&b, '.');
    }
    char *s = arena_strdup(P->a, b.s ? b.s : "");
    sb_free(&b);
    return s;
}

static void add_alias(front_module *m, const char *name, const char *target)
{
    alias a = { arena_strdup(&m->mem, name), arena_strdup(&m->mem, target) };
    vec_push(&m->aliases, a);
}

/* import_stmt: 'import' dotted ['as' NAME] (',' ...)* | 'from' dotted 'import' NAME ['as' NAME] (',' ...)* */
static void import_stmt(parser *P, front_module *m)
{
    bool from = tok_is_name(peek(P), "from");
    P->i++;
    if (!from) {
        for (;;) {
            char *path = dotted(P);
            if (tok_is_name(peek(P), "as")) {
                P->i++;
                token *t = peek(P);
                if (t->kind == TK_NAME) {
                    P->i++;
                    add_alias(m, arena_strndup(P->a, t->start, (size_t)t->len), path);
                }
            } else {
                char *dot = strchr(path, '.');
                if (dot) *dot = 0;
                add_alias(m, path, path);
            }
            if (!tok_is_op(peek(P), ",")) break;
            P->i++;
        }
    } else {
        char *path = dotted(P);
        if (tok_is_name(peek(P), "import")) {
            P->i++;
            if (tok_is_op(peek(P), "(")) P->i++;
            while (peek(P)->kind == TK_NAME) {
                token *t = &P->toks[P->i++];
                char *name = arena_strndup(P->a, t->start, (size_t)t->len);
                char *local = name;
                if (tok_is_name(peek(P), "as") && P->toks[P->i + 1].kind == TK_NAME) {
                    token *u = &P->toks[P->i + 1];
                    local = arena_strndup(P->a, u->start, (size_t)u->len);
                    P->i += 2;
                }
                char *full = xasprintf("%s.%s", path, name);
                add_alias(m, local, full);
                free(full);
                if (!tok_is_op(peek(P), ",")) break;
                P->i++;
            }
        }
    }
    parse_skip_statement(P);
}

/* Parse host code with `fn` without reporting errors: host code is not ours
 * to judge. Returns NULL (position restored) when it does not parse. */
static node *quietly(parser *P, node *(*fn)(parser *))
{
    int start = P->i, errs = P->errors;
    FILE *null = fopen("/dev/null", "w");
    FILE *old = diag_set_stream(null);
    node *e = fn(P);
    diag_set_stream(old);
    if (null) fclose(null);
    if (!e || P->errors != errs) {
        P->errors = errs;
        P->i = start;
        return NULL;
    }
    return e;
}

static node *quiet_expr(parser *P) { return quietly(P, parse_expr); }

/* A top-level `NAME = tl.constexpr(expr)`, `NAME: tl.constexpr = expr` or
 * `NAME = expr` (kept as a non-constexpr global so kernels using it get a
 * precise error). Parsed quietly: host code is not ours to judge. */
static void global_stmt(parser *P, front_module *m)
{
    node *s = quietly(P, parse_simple_statement);
    if (!s) {
        parse_skip_statement(P);
        return;
    }
    global g = {0};
    if (s->kind == S_ANNASSIGN && s->b && s->a->kind == E_NAME) {
        node *an = s->c;
        g.is_constexpr = (an->kind == E_ATTR || an->kind == E_NAME) && !strcmp(an->name, "constexpr");
        g.name = s->a->name;
        g.value = s->b;
    } else if (s->kind == S_ASSIGN && s->a->kind == E_NAME && !s->items.n) {
        g.name = s->a->name;
        g.value = s->b;
        node *v = s->b;
        if (v->kind == E_CALL && v->a->kind != E_NAME && v->a->kind == E_ATTR && !strcmp(v->a->name, "constexpr") && v->items.n == 1) {
            g.is_constexpr = true;
            g.value = v->items.v[0];
        } else if (v->kind == E_CALL && v->a->kind == E_NAME && !strcmp(v->a->name, "constexpr") && v->items.n == 1) {
            g.is_constexpr = true;
            g.value = v->items.v[0];
        }
    } else {
        return;
    }
    g.pos = s->pos;
    vec_push(&m->globals, g);
}

/* `from triton import jit as tjit` makes @tjit a jit decorator */
static bool alias_is_jit(front_module *m, const char *name)
{
    for (int i = m->aliases.n - 1; i >= 0; i--) {
        if (strcmp(m->aliases.v[i].name, name)) continue;
        const char *t = m->aliases.v[i].target;
        size_t n = strlen(t);
        return n >= 4 && !strcmp(t + n - 4, ".jit");
    }
    return false;
}

/* Scan one file's tokens: jit functions, imports and globals; skip the rest.
 * Returns false after a diagnostic in kernel code. */
static bool scan(front_module *m, int file, lexed *lx)
{
    parser P = { .a = &m->mem, .file = file, .toks = lx->toks, .ntoks = lx->ntoks };
    while (peek(&P)->kind != TK_EOF) {
        token *t = peek(&P);
        if (t->kind == TK_NEWLINE || t->kind == TK_DEDENT || t->kind == TK_INDENT) {
            if (t->kind == TK_INDENT) parse_skip_statement(&P);
            else P.i++;
            continue;
        }
        if (tok_is_op(t, "@")) {
            bool jit = false;
            node_list decos = { NULL, 0 };
            node *all[16];
            while (tok_is_op(peek(&P), "@")) {
                node *e;
                const char *d = decorator(&P, &e);
                if (!strcmp(d, "jit") || alias_is_jit(m, d)) jit = true;
                if (e && decos.n < (int)TT_COUNTOF(all)) all[decos.n++] = e;
            }
            if (tok_is_name(peek(&P), "def") && jit) {
                funcdef f = {0};
                f.is_jit = true;
                if (decos.n) {
                    f.decorators.v = arena_alloc(&m->mem, sizeof(node *) * (size_t)decos.n);
                    memcpy(f.decorators.v, all, sizeof(node *) * (size_t)decos.n);
                    f.decorators.n = decos.n;
                }
                int errs = diag_error_count();
                if (!parse_funcdef(&P, &f) || diag_error_count() != errs) return false;
                vec_push(&m->funcs, f);
            } else {
                parse_skip_statement(&P);
            }
            continue;
        }
        if (tok_is_name(t, "import") || tok_is_name(t, "from")) {
            import_stmt(&P, m);
            continue;
        }
        if (t->kind == TK_NAME && (tok_is_op(&P.toks[P.i + 1], "=") || tok_is_op(&P.toks[P.i + 1], ":")) &&
            !tok_is_name(t, "if") && !tok_is_name(t, "else") && !tok_is_name(t, "try") && !tok_is_name(t, "while") &&
            !tok_is_name(t, "for") && !tok_is_name(t, "with") && !tok_is_name(t, "class") && !tok_is_name(t, "def")) {
            global_stmt(&P, m);
            continue;
        }
        parse_skip_statement(&P);
    }
    return true;
}

static front_module *load(const char *name, const char *text)
{
    front_module *m = xcalloc(1, sizeof *m);
    m->file = diag_add_source(name, text);
    lex_file(&m->mem, diag_file_text(m->file), &m->lx);
    if (!scan(m, m->file, &m->lx)) {
        front_module_free(m);
        return NULL;
    }
    m->nuser = m->funcs.n;
    /* the parts of triton.language written in Triton (prelude.c) */
    static int prelude = -1;
    if (prelude < 0) prelude = diag_add_source(front_prelude_name, front_prelude_text);
    lexed plx;
    lex_file(&m->mem, diag_file_text(prelude), &plx);
    if (!scan(m, prelude, &plx)) die("the built-in prelude does not parse");
    return m;
}

front_module *front_load_text(const char *name, const char *text) { return load(name, text); }

front_module *front_load(const char *path)
{
    size_t len;
    char *text = read_file(path, &len);
    if (!text) {
        diag_error(((src_pos){ -1, 0, 0 }), "cannot read '%s': %s", path, strerror(errno));
        return NULL;
    }
    if (strlen(text) != len) {
        free(text);
        diag_error(((src_pos){ -1, 0, 0 }), "'%s' contains a NUL byte; is it a Python file?", path);
        return NULL;
    }
    front_module *m = load(path, text);
    free(text);
    return m;
}

void front_module_free(front_module *m)
{
    if (!m) return;
    vec_free(&m->funcs);
    vec_free(&m->globals);
    vec_free(&m->aliases);
    vec_free(&m->params);
    vec_free(&m->nparams);
    arena_free(&m->mem);
    free(m);
}

int front_function_count(const front_module *m) { return m->nuser; }
const char *front_function_name(const front_module *m, int i) { return i >= 0 && i < m->nuser ? m->funcs.v[i].name : NULL; }
const char *front_launch_comment(const front_module *m) { return m->lx.launch_comment ? m->lx.launch_comment : ""; }
int front_file(const front_module *m) { return m->file; }

static bool literal_default(node *d, launch_const *out)
{
    memset(out, 0, sizeof *out);
    bool neg = false;
    if (d->kind == E_UNARY && !strcmp(d->op, "-")) {
        neg = true;
        d = d->a;
    }
    switch (d->kind) {
    case E_INT: out->kind = CONST_INT; out->i = neg ? -d->ival : d->ival; return !d->big;
    case E_FLOAT: out->kind = CONST_FLOAT; out->f = neg ? -d->fval : d->fval; return true;
    case E_TRUE: case E_FALSE: out->kind = CONST_BOOL; out->i = d->kind == E_TRUE; return !neg;
    case E_STR: out->kind = CONST_STR; out->s = (char *)d->name; return !neg;
    case E_NONE: out->kind = CONST_NONE; return !neg;
    default: return false;
    }
}

static node *kwarg(node *call, const char *name, int pos)
{
    for (int i = 0; i < call->kwnames.n; i++)
        if (!strcmp(call->kwnames.v[i]->name, name)) return call->kwvals.v[i];
    return pos < call->items.n ? call->items.v[pos] : NULL;
}

/* The value a `@triton.autotune(configs=[triton.Config({...}), ...])` decorator's
 * first config gives `name`: tritium runs the first config (a correct kernel's
 * results differ between configs only through float ordering). */
static node *autotune_value(const funcdef *f, const char *name)
{
    for (int d = 0; d < f->decorators.n; d++) {
        node *c = f->decorators.v[d];
        if (c->kind != E_CALL || (c->a->kind != E_ATTR && c->a->kind != E_NAME) || strcmp(c->a->name, "autotune")) continue;
        node *configs = kwarg(c, "configs", 0);
        if (!configs || (configs->kind != E_LIST && configs->kind != E_TUPLE) || !configs->items.n) continue;
        node *cfg = configs->items.v[0];
        if (cfg->kind != E_CALL || (cfg->a->kind != E_ATTR && cfg->a->kind != E_NAME) || strcmp(cfg->a->name, "Config")) continue;
        node *kw = kwarg(cfg, "kwargs", 0);
        if (!kw || kw->kind != E_DICT) continue;
        for (int i = 0; i < kw->items.n; i++)
            if (kw->items.v[i]->kind == E_STR && !strcmp(kw->items.v[i]->name, name)) return kw->kwvals.v[i];
    }
    return NULL;
}

/* Is parameter `idx` (`name`) listed in @triton.jit(do_not_specialize=[...])
 * (by name or by index, as runtime/jit.py accepts both)? */
static bool not_specialized(const funcdef *f, const char *name, int idx)
{
    for (int d = 0; d < f->decorators.n; d++) {
        node *c = f->decorators.v[d];
        if (c->kind != E_CALL || (c->a->kind != E_ATTR && c->a->kind != E_NAME) || strcmp(c->a->name, "jit")) continue;
        node *l = kwarg(c, "do_not_specialize", 99);
        if (!l || (l->kind != E_LIST && l->kind != E_TUPLE)) continue;
        for (int i = 0; i < l->items.n; i++) {
            node *x = l->items.v[i];
            if ((x->kind == E_STR && !strcmp(x->name, name)) || (x->kind == E_INT && x->ival == idx)) return true;
        }
    }
    return false;
}

int front_params(const front_module *cm, const char *kernel, const front_param **out)
{
    front_module *m = (front_module *)cm;
    int fi = -1;
    for (int i = 0; i < m->funcs.n; i++)
        if (!strcmp(m->funcs.v[i].name, kernel)) fi = i;
    if (fi < 0) return -1;
    while (m->params.n < m->funcs.n) {
        vec_push(&m->params, NULL);
        vec_push(&m->nparams, 0);
    }
    funcdef *f = &m->funcs.v[fi];
    if (!m->params.v[fi]) {
        front_param *ps = arena_alloc(&m->mem, sizeof *ps * (size_t)(f->nparams + 1));
        for (int i = 0; i < f->nparams; i++) {
            param *p = &f->params[i];
            ps[i].name = p->name;
            node *an = p->annot;
            if (an && (an->kind == E_ATTR || an->kind == E_NAME) && !strcmp(an->name, "constexpr")) ps[i].is_constexpr = true;
            if (an && an->kind == E_STR && strstr(an->name, "constexpr")) ps[i].is_constexpr = true;
            if (an && an->kind == E_ATTR && an->a->kind == E_NAME && !ps[i].is_constexpr) {
                static const struct { const char *n; tt_dtype d; } ann[] = {
                    { "int32", TT_I32 }, { "int64", TT_I64 }, { "uint32", TT_U32 }, { "uint64", TT_U64 },
                    { "float32", TT_F32 }, { "float64", TT_F64 }, { "int1", TT_BOOL },
                };
                for (size_t k = 0; k < TT_COUNTOF(ann); k++)
                    if (!strcmp(an->name, ann[k].n)) {
                        ps[i].annotated_dtype = true;
                        ps[i].annot = ann[k].d;
                    }
            }
            ps[i].no_specialize = not_specialized(f, p->name, i);
            if (p->def) ps[i].has_default = literal_default(p->def, &ps[i].def);
            if (ps[i].is_constexpr && !ps[i].has_default) {
                node *v = autotune_value(f, p->name);
                if (v) ps[i].has_default = literal_default(v, &ps[i].def);
            }
        }
        m->params.v[fi] = ps;
        m->nparams.v[fi] = f->nparams;
    }
    *out = m->params.v[fi];
    return m->nparams.v[fi];
}
