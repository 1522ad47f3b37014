/* module.c — finds the @triton.jit functions, constexpr globals and imports
 * of a Python file and skips everything else, statement by statement. */
#include "front_int.h"
#include "tritium/limits.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

/* The package a relative import with `level` dots starts from (Python's
 * importlib._bootstrap._resolve_name); NULL outside any package. */
static const char *relative_base(front_module *m, int unit, int level)
{
    const struct unit *u = &m->units.v[unit];
    char *pkg = arena_strdup(&m->mem, u->name);
    if (!u->is_pkg) {
        char *dot = strrchr(pkg, '.');
        if (!dot) return NULL;
        *dot = 0;
    }
    for (int k = 1; k < level; k++) {
        char *dot = strrchr(pkg, '.');
        if (!dot) return NULL;
        *dot = 0;
    }
    return *pkg ? pkg : NULL;
}

/* cond: while the names under a module-level `if` tritium cannot evaluate
 * are recorded (record_body), that `if`; NULL otherwise */
typedef struct scanctx { front_module *m; int unit, try_id, branch; const src_pos *cond; } scanctx;

/* Bounds the names recorded under module-level ifs per module (their error
 * messages only; later ones are plainly "not defined"). */
#define MODULE_MAX_CONDS 4096

static void add_cond(scanctx *c, const char *name, int len)
{
    front_module *m = c->m;
    if (m->nconds >= MODULE_MAX_CONDS) return;
    condname *k = arena_alloc(&m->mem, sizeof *k);
    *k = (condname){ arena_strndup(&m->mem, name, (size_t)len), c->unit, *c->cond, m->conds };
    m->conds = k;
    m->nconds++;
}

static void add_alias(scanctx *c, src_pos pos, const char *name, const char *module, const char *attr)
{
    front_module *m = c->m;
    if (c->cond) {
        add_cond(c, name, (int)strlen(name));
        return;
    }
    alias a = { arena_strdup(&m->mem, name), module ? arena_strdup(&m->mem, module) : NULL,
                attr ? arena_strdup(&m->mem, attr) : NULL, c->unit, c->try_id, c->branch, pos };
    vec_push(&m->aliases, a);
}

/* import_stmt: 'import' dotted ['as' NAME] (',' ...)*
 *            | 'from' ('.'* dotted | '.'+) 'import' ('(' names ')' | names)
 * names: NAME ['as' NAME] (',' NAME ['as' NAME])* */
static void import_stmt(parser *P, scanctx *c)
{
    token *kw = peek(P);
    src_pos pos = { P->file, kw->line, kw->col };
    bool from = tok_is_name(kw, "from");
    P->i++;
    if (!from) {
        for (;;) {
            char *path = dotted(P);
            if (tok_is_name(peek(P), "as")) {
                P->i++;
                token *t = peek(P);
                if (t->kind == TK_NAME) {
                    P->i++;
                    add_alias(c, pos, arena_strndup(P->a, t->start, (size_t)t->len), path, NULL);
                }
            } else if (*path) {
                /* `import a.b` binds a */
                char *top = arena_strdup(P->a, path), *dot = strchr(top, '.');
                if (dot) *dot = 0;
                add_alias(c, pos, top, top, NULL);
            }
            if (!tok_is_op(peek(P), ",")) break;
            P->i++;
        }
    } else {
        int level = 0;
        while (peek(P)->kind == TK_OP && (tok_is_op(peek(P), ".") || tok_is_op(peek(P), "..."))) {
            level += (int)strlen(peek(P)->op);
            P->i++;
        }
        char *path = tok_is_name(peek(P), "import") ? "" : dotted(P);
        const char *module = path;
        if (level) {
            const char *base = relative_base(c->m, c->unit, level);
            if (base && *path) {
                char *full = xasprintf("%s.%s", base, path);
                module = arena_strdup(P->a, full);
                free(full);
            } else {
                module = base;
            }
        }
        if (tok_is_name(peek(P), "import")) {
            P->i++;
            if (tok_is_op(peek(P), "(")) P->i++;
            while (peek(P)->kind == TK_NAME || peek(P)->kind == TK_NEWLINE) {
                if (peek(P)->kind == TK_NEWLINE) { P->i++; continue; }   /* inside ( ) */
                token *t = &P->toks[P->i++];
                char *name = arena_strndup(P->a, t->start, (size_t)t->len);
                char *local = name;
                if (tok_is_name(peek(P), "as") && P->toks[P->i + 1].kind == TK_NAME) {
                    token *u = &P->toks[P->i + 1];
                    local = arena_strndup(P->a, u->start, (size_t)u->len);
                    P->i += 2;
                }
                add_alias(c, pos, local, module, name);
                if (!tok_is_op(peek(P), ",")) break;
                P->i++;
            }
        }
    }
    parse_skip_statement(P);
}

/* try_stmt at module level: the imports of the try block are branch 0, those
 * of each `except` block the next branches; a name takes the first branch
 * whose import resolves (sema_expr.c). Other statements are skipped. */
static void try_stmt(parser *P, scanctx *c)
{
    scanctx t = { c->m, c->unit, ++c->m->ntry, 0, NULL };
    for (bool first = true;; first = false) {
        token *kw = peek(P);
        if (!first && !tok_is_name(kw, "except")) break;
        while (peek(P)->kind != TK_NEWLINE && peek(P)->kind != TK_EOF) P->i++;
        if (peek(P)->kind == TK_NEWLINE) P->i++;
        if (peek(P)->kind != TK_INDENT) return;
        P->i++;
        while (peek(P)->kind != TK_DEDENT && peek(P)->kind != TK_EOF) {
            token *s = peek(P);
            if (s->kind == TK_NEWLINE) P->i++;
            else if (tok_is_name(s, "import") || tok_is_name(s, "from")) import_stmt(P, &t);
            else parse_skip_statement(P);
        }
        if (peek(P)->kind == TK_DEDENT) P->i++;
        t.branch++;
    }
    /* else: / finally: blocks are skipped */
    while (tok_is_name(peek(P), "else") || tok_is_name(peek(P), "finally")) parse_skip_statement(P);
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

static bool is_call_of(node *e, const char *name)
{
    return e->kind == E_CALL && (e->a->kind == E_ATTR || e->a->kind == E_NAME) && !strcmp(e->a->name, name);
}

/* `kernel = triton.jit(fn)`, also wrapped as in
 * `triton.heuristics({...})(triton.jit(fn))` or `triton.autotune(...)(...)`:
 * compile the plain def `fn` of this module as jit function `kernel`, with
 * the wrappers as its decorators. Returns false when `v` is not that form. */
static bool functional_jit(parser *P, scanctx *c, const char *name, node *v, const char *fn, bool *failed)
{
    node *wrap[16];
    int nw = 0;
    while (v && v->kind == E_CALL && v->a->kind == E_CALL && v->items.n == 1 && nw < 15) {
        wrap[nw++] = v->a;                   /* heuristics({...}) / autotune(...) */
        v = v->items.v[0];
    }
    if (v && is_call_of(v, "jit") && v->items.n == 1 && v->items.v[0]->kind == E_NAME) fn = v->items.v[0]->name;
    else if (v) return false;
    if (!fn) return false;
    front_module *m = c->m;
    int k = m->plain.n - 1;
    while (k >= 0 && (m->plain.v[k].unit != c->unit || strcmp(m->plain.v[k].name, fn))) k--;
    if (k < 0) return false;
    funcdef f = { .is_jit = true, .unit = c->unit, .tok = m->plain.v[k].tok };
    if (v) wrap[nw++] = v;
    f.decorators.v = arena_alloc(&m->mem, sizeof(node *) * (size_t)nw);
    memcpy(f.decorators.v, wrap, sizeof(node *) * (size_t)nw);
    f.decorators.n = nw;
    int save = P->i;
    P->i = f.tok;
    int errs = diag_error_count();
    bool ok = parse_funcdef(P, &f) && diag_error_count() == errs;
    P->i = save;
    if (!ok) {
        *failed = true;     /* diagnosed */
        return true;
    }
    f.name = name;
    vec_push(&m->funcs, f);
    return true;
}

/* ---- named tuple classes ---- */

static node *kwarg(node *call, const char *name, int pos);

static ntclass *add_class(scanctx *c, const char *name, const char *tname, src_pos pos)
{
    front_module *m = c->m;
    ntclass *k = arena_alloc(&m->mem, sizeof *k);
    *k = (ntclass){ .name = arena_strdup(&m->mem, name), .tname = arena_strdup(&m->mem, tname), .unit = c->unit,
                    .pos = pos };
    vec_push(&m->classes, k);
    return k;
}

static void add_field(front_module *m, ntclass *k, const char *field, node *def)
{
    const char **f = arena_alloc(&m->mem, sizeof(char *) * (size_t)(k->n + 1));
    node **d = arena_alloc(&m->mem, sizeof(node *) * (size_t)(k->n + 1));
    if (k->n) {
        memcpy(f, k->fields, sizeof(char *) * (size_t)k->n);
        memcpy(d, k->defaults, sizeof(node *) * (size_t)k->n);
    }
    f[k->n] = arena_strdup(&m->mem, field);
    d[k->n] = def;
    k->fields = f;
    k->defaults = d;
    k->n++;
}

/* `class NAME(NamedTuple):` (typing.NamedTuple too) at module level: its
 * annotated fields in order, with their defaults; docstrings, methods and
 * other statements of the body are skipped, as are all other classes. */
static void class_stmt(parser *P, scanctx *c)
{
    int start = P->i;
    token *kw = peek(P), *nt = &P->toks[P->i + 1];
    if (nt->kind != TK_NAME || !tok_is_op(&P->toks[P->i + 2], "(")) {
        parse_skip_statement(P);
        return;
    }
    P->i += 3;
    const char *base = dotted(P), *dot = strrchr(base, '.');
    if (strcmp(dot ? dot + 1 : base, "NamedTuple") || !tok_is_op(peek(P), ")") ||
        !tok_is_op(&P->toks[P->i + 1], ":") || P->toks[P->i + 2].kind != TK_NEWLINE ||
        P->toks[P->i + 3].kind != TK_INDENT) {
        P->i = start;
        parse_skip_statement(P);
        return;
    }
    P->i += 4;
    const char *name = arena_strndup(P->a, nt->start, (size_t)nt->len);
    ntclass *k = add_class(c, name, name, (src_pos){ P->file, kw->line, kw->col });
    while (peek(P)->kind != TK_DEDENT && peek(P)->kind != TK_EOF) {
        token *t = peek(P);
        if (t->kind == TK_NEWLINE) {
            P->i++;
            continue;
        }
        node *s = t->kind == TK_NAME && tok_is_op(&P->toks[P->i + 1], ":") ? quietly(P, parse_simple_statement) : NULL;
        if (s && s->kind == S_ANNASSIGN && s->a->kind == E_NAME) add_field(c->m, k, s->a->name, s->b);
        else parse_skip_statement(P);
    }
    if (peek(P)->kind == TK_DEDENT) P->i++;
}

/* ---- @triton.aggregate classes (Triton 3.8+ language/core.py _aggregate) ---- */

static bool alias_is_jit(front_module *m, int unit, const char *name);

char module_ann_kind(const char *name)
{
    if (!name) return 0;
    const char *dot = strrchr(name, '.');
    const char *n = dot ? dot + 1 : name;
    return !strcmp(n, "tensor") ? 't' : !strcmp(n, "constexpr") ? 'c' : !strcmp(n, "tuple") ? 'u' : 0;
}

static char ann_kind(node *a)
{
    return module_ann_kind(!a ? NULL : (a->kind == E_ATTR || a->kind == E_NAME || a->kind == E_STR) ? a->name : NULL);
}

/* Field `field` of aggregate k: a new one is appended; one a base declared
 * keeps its place, takes the new annotation, and the new default when there
 * is one (_resolve_aggregate_fields: dict updates, bases oldest first). */
static void agg_field(front_module *m, ntclass *k, const char *field, node *def, char ann)
{
    for (int i = 0; i < k->n; i++)
        if (!strcmp(k->fields[i], field)) {
            if (def) k->defaults[i] = def;
            k->ann[i] = ann;
            return;
        }
    char *a = arena_alloc(&m->mem, (size_t)k->n + 2);
    if (k->n) memcpy(a, k->ann, (size_t)k->n);
    a[k->n] = ann;
    k->ann = a;
    add_field(m, k, field, def);
}

static void agg_method(front_module *m, ntclass *k, const char *name, int fi, const char *why)
{
    for (int i = 0; i < k->nm; i++)
        if (!strcmp(k->mnames[i], name)) {
            k->mfuncs[i] = fi;
            k->mwhy[i] = why;
            return;
        }
    const char **n = arena_alloc(&m->mem, sizeof(char *) * (size_t)(k->nm + 1));
    const char **w = arena_alloc(&m->mem, sizeof(char *) * (size_t)(k->nm + 1));
    int *f = arena_alloc(&m->mem, sizeof(int) * (size_t)(k->nm + 1));
    if (k->nm) {
        memcpy(n, k->mnames, sizeof(char *) * (size_t)k->nm);
        memcpy(w, k->mwhy, sizeof(char *) * (size_t)k->nm);
        memcpy(f, k->mfuncs, sizeof(int) * (size_t)k->nm);
    }
    n[k->nm] = arena_strdup(&m->mem, name);
    w[k->nm] = why;
    f[k->nm] = fi;
    k->mnames = n, k->mwhy = w, k->mfuncs = f;
    k->nm++;
}

/* `@triton.aggregate class NAME(BASE, ...):` at module level (P->i at
 * `class`): the bases' fields and methods (aggregates of this module, last
 * base first as Python's MRO reversed), then the body's annotated fields
 * with their defaults, its methods and a user-defined __init__ (compiled as
 * functions named NAME.METHOD; a @triton.jit __init__ is refused when
 * called). Other statements of the body are skipped. */
static void aggregate_stmt(parser *P, scanctx *c)
{
    front_module *m = c->m;
    token *kw = peek(P), *nt = &P->toks[P->i + 1];
    if (nt->kind != TK_NAME) {
        parse_skip_statement(P);
        return;
    }
    int start = P->i;
    P->i += 2;
    const char *name = arena_strndup(P->a, nt->start, (size_t)nt->len);
    const char *bases[16];
    int nb = 0;
    if (tok_is_op(peek(P), "(")) {
        P->i++;
        while (peek(P)->kind == TK_NAME) {
            const char *b = dotted(P), *dot = strrchr(b, '.');
            if (nb < 16) bases[nb++] = arena_strdup(P->a, dot ? dot + 1 : b);
            if (!tok_is_op(peek(P), ",")) break;
            P->i++;
        }
        if (!tok_is_op(peek(P), ")")) {
            P->i = start;
            parse_skip_statement(P);
            return;
        }
        P->i++;
    }
    if (!tok_is_op(peek(P), ":") || P->toks[P->i + 1].kind != TK_NEWLINE || P->toks[P->i + 2].kind != TK_INDENT) {
        P->i = start;
        parse_skip_statement(P);
        return;
    }
    P->i += 3;
    ntclass *k = add_class(c, name, name, (src_pos){ P->file, kw->line, kw->col });
    k->aggregate = true;
    k->ann = arena_alloc(&m->mem, 1);
    for (int b = nb - 1; b >= 0; b--)
        for (int i = m->classes.n - 2; i >= 0; i--) {
            const ntclass *base = m->classes.v[i];
            if (base->unit != c->unit || !base->aggregate || strcmp(base->name, bases[b])) continue;
            for (int f = 0; f < base->n; f++)
                agg_field(m, k, base->fields[f], base->defaults ? base->defaults[f] : NULL, base->ann[f]);
            for (int j = 0; j < base->nm; j++) agg_method(m, k, base->mnames[j], base->mfuncs[j], base->mwhy[j]);
            break;
        }
    while (peek(P)->kind != TK_DEDENT && peek(P)->kind != TK_EOF) {
        token *t = peek(P);
        if (t->kind == TK_NEWLINE) {
            P->i++;
            continue;
        }
        bool jit = false, deco = false;
        while (tok_is_op(peek(P), "@")) {
            node *e;
            const char *d = decorator(P, &e);
            deco = true;
            if (!strcmp(d, "jit") || alias_is_jit(m, c->unit, d)) jit = true;
        }
        t = peek(P);
        if (tok_is_name(t, "def") && P->toks[P->i + 1].kind == TK_NAME) {
            token *mt = &P->toks[P->i + 1];
            const char *mname = arena_strndup(&m->mem, mt->start, (size_t)mt->len);
            if (!strcmp(mname, "__init__") && jit) {   /* 3.9 _aggregate calls it outside the code generator */
                k->init_why = "is a @triton.jit function";
                parse_skip_statement(P);
            } else {
                /* jit methods, and Python ones (a user-defined __init__, methods taking
                 * _semantic, constexpr_functions) that Triton runs in its code generator:
                 * compiled as helpers named NAME.METHOD */
                funcdef f = { .is_jit = true, .unit = c->unit, .tok = P->i };
                module_parse_helper(m, P, &f);
                char *q = xasprintf("%s.%s", name, mname);
                f.name = arena_strdup(&m->mem, q);
                free(q);
                vec_push(&m->funcs, f);
                if (!strcmp(mname, "__init__")) k->init_fi = m->funcs.n;
                else agg_method(m, k, mname, m->funcs.n - 1, NULL);
            }
            continue;
        }
        node *s = !deco && t->kind == TK_NAME && tok_is_op(&P->toks[P->i + 1], ":") ? quietly(P, parse_simple_statement)
                                                                                   : NULL;
        if (s && s->kind == S_ANNASSIGN && s->a->kind == E_NAME) agg_field(m, k, s->a->name, s->b, ann_kind(s->c));
        else parse_skip_statement(P);
    }
    if (peek(P)->kind == TK_DEDENT) P->i++;
}

/* A string node's text, or NULL. */
static const char *str_of(node *e) { return e && e->kind == E_STR ? e->name : NULL; }

/* `NAME = namedtuple("T", "a b" | ["a", "b"], defaults=(...))` (also
 * collections.namedtuple) and `NAME = NamedTuple("T", [("a", type), ...])`
 * (typing): a named tuple class bound to NAME. False when v is not one of
 * these forms with literal field names. */
static bool namedtuple_call(scanctx *c, const char *name, node *v, src_pos pos)
{
    bool typed = is_call_of(v, "NamedTuple");
    if (!typed && !is_call_of(v, "namedtuple")) return false;
    const char *tname = str_of(kwarg(v, "typename", 0));
    node *fl = kwarg(v, typed ? "fields" : "field_names", 1);
    if (!tname || !fl) return false;
    front_module *m = c->m;
    ntclass k = { 0 };
    ntclass *out = &k;
    out->fields = NULL;
    if (fl->kind == E_STR) {               /* "a b" or "a, b" */
        char *copy = xstrdup(fl->name), *save = NULL;
        for (char *f = strtok_r(copy, ", \t\n", &save); f; f = strtok_r(NULL, ", \t\n", &save)) add_field(m, out, f, NULL);
        free(copy);
    } else if (fl->kind == E_LIST || fl->kind == E_TUPLE) {
        for (int i = 0; i < fl->items.n; i++) {
            node *it = fl->items.v[i];
            if (typed && (it->kind == E_TUPLE || it->kind == E_LIST) && it->items.n == 2) it = it->items.v[0];
            if (!str_of(it)) return false;
            add_field(m, out, it->name, NULL);
        }
    } else {
        return false;
    }
    node *defs = typed ? NULL : kwarg(v, "defaults", 99);
    if (defs && defs->kind != E_LIST && defs->kind != E_TUPLE && defs->kind != E_NONE) return false;
    if (defs && defs->kind != E_NONE) {    /* the last len(defaults) fields */
        if (defs->items.n > out->n) return false;
        for (int i = 0; i < defs->items.n; i++) out->defaults[out->n - defs->items.n + i] = defs->items.v[i];
    }
    ntclass *r = add_class(c, name, tname, pos);
    r->n = out->n;
    r->fields = out->fields;
    r->defaults = out->defaults;
    return true;
}

/* The value of a `constexpr(v)` / `tl.constexpr(v)` call, or NULL. */
static node *constexpr_arg(node *v) { return is_call_of(v, "constexpr") && v->items.n == 1 ? v->items.v[0] : NULL; }

/* A top-level `NAME = tl.constexpr(expr)` or `NAME: ANNOT = tl.constexpr(expr)`
 * (a constexpr global), or `NAME: tl.constexpr = expr` / `NAME = expr` (kept
 * as non-constexpr globals so kernels using them get a precise error, or as
 * an alias of a function or module). Parsed quietly:
 * host code is not ours to judge. */
static void global_stmt(parser *P, scanctx *c, bool *failed)
{
    front_module *m = c->m;
    int start = P->i;
    node *s = quietly(P, parse_simple_statement);
    if (!s) {
        /* `k = triton.heuristics({"B": lambda args: ...})(triton.jit(fn))`
         * does not parse (lambda): find `jit ( NAME )` in the tokens; the
         * wrappers are ignored, as unreadable decorators are */
        const char *fn = NULL;
        for (int i = start; i + 3 < P->ntoks && P->toks[i].kind != TK_NEWLINE; i++)
            if (tok_is_name(&P->toks[i], "jit") && tok_is_op(&P->toks[i + 1], "(") && P->toks[i + 2].kind == TK_NAME &&
                tok_is_op(&P->toks[i + 3], ")"))
                fn = arena_strndup(&m->mem, P->toks[i + 2].start, (size_t)P->toks[i + 2].len);
        token *t = &P->toks[start];
        if (fn && tok_is_op(&P->toks[start + 1], "="))
            functional_jit(P, c, arena_strndup(&m->mem, t->start, (size_t)t->len), NULL, fn, failed);
        parse_skip_statement(P);
        return;
    }
    global g = { .unit = c->unit };
    if (s->kind == S_ANNASSIGN && s->b && s->a->kind == E_NAME) {
        node *an = s->c, *v = s->b;
        g.name = s->a->name;
        g.value = v;
        /* Triton 3.6 (code_generator.py global_lookup, _is_constexpr_global)
         * checks the value, not the annotation: `X: tl.constexpr =
         * tl.constexpr(0)` is a constexpr global (Liger-Kernel), `X:
         * tl.constexpr = 0` an int */
        if (constexpr_arg(v)) {
            g.is_constexpr = true;
            g.value = constexpr_arg(v);
        } else {
            g.annotated = (an->kind == E_ATTR || an->kind == E_NAME) && !strcmp(an->name, "constexpr");
        }
    } else if (s->kind == S_ASSIGN && s->a->kind == E_NAME && !s->items.n) {
        g.name = s->a->name;
        g.value = s->b;
        node *v = s->b;
        if (constexpr_arg(v)) {
            g.is_constexpr = true;
            g.value = constexpr_arg(v);
        } else if (functional_jit(P, c, g.name, v, NULL, failed) || namedtuple_call(c, g.name, v, s->pos)) {
            return;
        }
    } else {
        return;
    }
    g.pos = s->pos;
    vec_push(&m->globals, g);
}

/* `from triton import jit as tjit` makes @tjit a jit decorator */
static bool alias_is_jit(front_module *m, int unit, const char *name)
{
    for (int i = m->aliases.n - 1; i >= 0; i--) {
        const alias *a = &m->aliases.v[i];
        if (a->unit != unit || strcmp(a->name, name)) continue;
        return a->attr && !strcmp(a->attr, "jit") && a->module && !strcmp(a->module, "triton");
    }
    return false;
}

static bool scan_block(parser *P, scanctx *c, bool top);
static bool scan_stmt(parser *P, scanctx *c);

/* ---- module-level if ---- */

/* The truth of a condition made of literals (`True`, `0`, `None`, `not 1`,
 * `1 and False`, ...): 1 or 0; -1 when Python would have to evaluate it. */
static int literal_truth(const node *e)
{
    switch (e->kind) {
    case E_TRUE: return 1;
    case E_FALSE: case E_NONE: return 0;
    case E_INT: return e->big || e->ival != 0;
    case E_FLOAT: return e->fval != 0;
    case E_UNARY: {
        int t = literal_truth(e->a);
        if (!strcmp(e->op, "not")) return t < 0 ? -1 : !t;
        bool number = e->a->kind == E_INT || e->a->kind == E_FLOAT;
        return number && strcmp(e->op, "~") ? t : -1;      /* -1, +0.0 */
    }
    case E_BOOLOP: {   /* short-circuits as Python does */
        bool and = !strcmp(e->op, "and");
        int a = literal_truth(e->a);
        if (a < 0 || a == !and) return a;
        return literal_truth(e->b);
    }
    default: return -1;
    }
}

/* `__name__ == "__main__"` */
static bool is_main_test(const node *e)
{
    if (e->kind != E_COMPARE || strcmp(e->op, "==")) return false;
    const node *a = e->a, *b = e->b;
    if (a->kind == E_STR) a = e->b, b = e->a;
    return a->kind == E_NAME && !strcmp(a->name, "__name__") && b->kind == E_STR && !strcmp(b->name, "__main__");
}

/* The index of the `:` that ends the compound statement header at P->i
 * (outside brackets), or -1 when its logical line has none. */
static int header_colon(parser *P)
{
    int depth = 0;
    for (int i = P->i; P->toks[i].kind != TK_NEWLINE && P->toks[i].kind != TK_EOF; i++) {
        token *t = &P->toks[i];
        if (tok_is_op(t, "(") || tok_is_op(t, "[") || tok_is_op(t, "{")) depth++;
        else if (tok_is_op(t, ")") || tok_is_op(t, "]") || tok_is_op(t, "}")) depth--;
        else if (depth <= 0 && tok_is_op(t, ":")) return i;
    }
    return -1;
}

/* Past the end of the logical line at P->i (its NEWLINE). */
static void skip_line(parser *P)
{
    while (peek(P)->kind != TK_NEWLINE && peek(P)->kind != TK_EOF) P->i++;
    if (peek(P)->kind == TK_NEWLINE) P->i++;
}

static bool line_end(const token *t)
{
    return t->kind == TK_NEWLINE || t->kind == TK_EOF || t->kind == TK_INDENT || t->kind == TK_DEDENT;
}

static bool compound_kw(const token *t)
{
    static const char *const kw[] = { "if", "elif", "else", "try", "except", "finally", "with",
                                      "for", "while", "async", "def", "class" };
    for (size_t i = 0; i < TT_COUNTOF(kw); i++)
        if (tok_is_name(t, kw[i])) return true;
    return tok_is_op(t, "@");
}

/* Record the names the statement at P->i binds in the module (imports,
 * defs, classes, `NAME = ...`, `NAME: T = ...`) as bound under the `if`
 * c->cond, and move past its line. True for a def or class: what its body
 * binds is not the module's. */
static bool record_stmt(parser *P, scanctx *c)
{
    for (;;) {
        token *t = peek(P), *n = &P->toks[P->i + (t->kind != TK_EOF)];
        if (t->kind != TK_NAME) break;
        if (tok_is_name(t, "import") || tok_is_name(t, "from")) {
            import_stmt(P, c);
            return false;
        }
        if ((tok_is_name(t, "def") || tok_is_name(t, "class")) && n->kind == TK_NAME) {
            add_cond(c, n->start, n->len);
            skip_line(P);
            return true;
        }
        if (compound_kw(t)) {    /* a clause's header: its body may be on the same line */
            int colon = header_colon(P);
            if (colon < 0 || P->toks[colon + 1].kind == TK_NEWLINE) break;
            P->i = colon + 1;
            continue;
        }
        if (tok_is_op(n, "=") || tok_is_op(n, ":")) add_cond(c, t->start, t->len);
        break;
    }
    skip_line(P);
    return false;
}

/* The body after a branch's `:` under a condition tritium cannot evaluate:
 * record what it binds at any depth, outside def and class bodies; iterative,
 * so input nesting costs no stack. */
static void record_body(parser *P, scanctx *c, const src_pos *at)
{
    scanctx r = *c;
    r.cond = at;
    if (peek(P)->kind != TK_NEWLINE) {     /* `if c: stmt` */
        record_stmt(P, &r);
        return;
    }
    P->i++;
    if (peek(P)->kind != TK_INDENT) return;
    P->i++;
    int depth = 1, body = 0;               /* body: the depth of a def or class whose body is skipped */
    while (depth > 0 && peek(P)->kind != TK_EOF) {
        token *t = peek(P);
        if (t->kind == TK_INDENT) {
            depth++;
            P->i++;
        } else if (t->kind == TK_DEDENT) {
            if (--depth <= body) body = 0;
            P->i++;
        } else if (t->kind == TK_NEWLINE) {
            P->i++;
        } else if (body && depth > body) {
            skip_line(P);
        } else if (record_stmt(P, &r)) {
            body = depth;
        }
    }
}

/* The body after a branch's `:` that Python runs: module-level code. */
static bool scan_body(parser *P, scanctx *c)
{
    if (peek(P)->kind != TK_NEWLINE) {     /* `if True: stmt; stmt`: simple statements only */
        while (!line_end(peek(P)) && !compound_kw(peek(P))) {
            int at = P->i;
            if (!scan_stmt(P, c)) return false;
            if (P->i == at) break;
            if (P->toks[P->i - 1].kind == TK_NEWLINE || P->toks[P->i - 1].kind == TK_DEDENT) return true;
        }
        if (peek(P)->kind != TK_INDENT && peek(P)->kind != TK_DEDENT) skip_line(P);
        return true;
    }
    P->i++;
    if (peek(P)->kind != TK_INDENT) return true;
    P->i++;
    return scan_block(P, c, false);
}

/* A module-level `if` with its `elif` and `else` branches. Python runs the
 * first branch whose condition is true; tritium knows literal conditions
 * only (literal_truth). While they are all literal, the branch that runs is
 * scanned as module-level code (Liger-Kernel, mamba: imports and jit helpers
 * chosen by version checks) and the others are skipped. The branches from
 * the first other condition on may run or not: the names they bind are
 * recorded, for module_undefined_name. `if __name__ == "__main__":` binds
 * nothing a kernel sees. */
static bool if_stmt(parser *P, scanctx *c)
{
    token *kw = peek(P);
    src_pos at = { P->file, kw->line, kw->col };
    enum { OPEN, MAYBE, DONE } state = OPEN;
    for (bool first = true;; first = false) {
        token *t = peek(P);
        bool is_else = tok_is_name(t, "else");
        if (!first && !is_else && !tok_is_name(t, "elif")) break;
        P->i++;
        int truth = 1;
        bool main = false;
        if (!is_else) {
            int colon = header_colon(P);
            if (colon < 0) {             /* not Python */
                parse_skip_statement(P);
                return true;
            }
            node *e = quiet_expr(P);
            truth = e && P->i == colon ? literal_truth(e) : -1;
            main = e && is_main_test(e);
            P->i = colon;
        }
        if (!tok_is_op(peek(P), ":")) {
            parse_skip_statement(P);
            return true;
        }
        P->i++;
        if (main || state == DONE || truth == 0) {
            if (main && state == OPEN) state = MAYBE;
            parse_skip_statement(P);
        } else if (truth == 1 && state == OPEN) {
            if (!scan_body(P, c)) return false;
            state = DONE;
        } else {
            record_body(P, c, &at);
            state = truth == 1 ? DONE : MAYBE;
        }
        if (is_else) break;
    }
    return true;
}

char *module_conditional_name(const front_module *m, int unit, const char *name)
{
    const condname *found = NULL;
    for (const condname *k = m->conds; k; k = k->next)   /* newest first: keep the first `if` */
        if (k->unit == unit && !strcmp(k->name, name)) found = k;
    if (!found) return NULL;
    const char *f = diag_file_name(found->at.file);
    return xasprintf("'%s' is defined under a module-level `if` (%s:%d) whose condition tritium cannot evaluate "
                     "without Python; run the program with `python -m tritium` (names resolve through the live "
                     "module), or define it unconditionally", name, f ? f : "?", found->at.line);
}

_Noreturn void module_undefined_name(sema *S, src_pos p, const char *name)
{
    char *why = module_conditional_name(S->m, S->unit, name);
    if (why) {
        const char *w = arena_strdup(S->a, why);
        free(why);
        sema_error(S, p, "name %s", w);
    }
    sema_error(S, p, "name '%s' is not defined", name);
}

/* One module-level statement at P->i: a jit function, a plain def, an
 * import, a try, an if, a named tuple class or a global; anything else is
 * skipped. False after a diagnostic in code that must parse (scan). */
static bool scan_stmt(parser *P, scanctx *c)
{
    front_module *m = c->m;
    int unit = c->unit;
    bool quiet = unit != 1;
    token *t = peek(P);
    if (tok_is_op(t, "@")) {
        bool jit = false, aggregate = false;
        const char *must_use = NULL;
        node_list decos = { NULL, 0 };
        node *all[16];
        while (tok_is_op(peek(P), "@")) {
            node *e;
            const char *d = decorator(P, &e);
            if (!strcmp(d, "jit") || alias_is_jit(m, unit, d)) jit = true;
            if (!strcmp(d, "aggregate")) aggregate = true;
            /* core.py must_use_result sets the attribute on what it decorates: only over @jit
             * does the code generator see it (call_Function) */
            if (!strcmp(d, "must_use_result") && !jit)
                must_use = e && e->kind == E_CALL && e->items.n == 1 && e->items.v[0]->kind == E_STR
                               ? e->items.v[0]->name : "";
            if (e && decos.n < (int)TT_COUNTOF(all)) all[decos.n++] = e;
        }
        if (tok_is_name(peek(P), "class") && aggregate) {
            aggregate_stmt(P, c);
        } else if (tok_is_name(peek(P), "def") && jit) {
            funcdef f = { .is_jit = true, .unit = unit, .tok = P->i, .must_use = must_use };
            if (decos.n) {
                f.decorators.v = arena_alloc(&m->mem, sizeof(node *) * (size_t)decos.n);
                memcpy(f.decorators.v, all, sizeof(node *) * (size_t)decos.n);
                f.decorators.n = decos.n;
            }
            int errs = diag_error_count();
            /* a def without a name cannot be reached: report it now */
            if (quiet && (unit > 1 || P->toks[P->i + 1].kind == TK_NAME)) {
                module_parse_helper(m, P, &f);
            } else if (!parse_funcdef(P, &f) || diag_error_count() != errs) {
                return false;
            }
            vec_push(&m->funcs, f);
        } else {
            parse_skip_statement(P);
        }
        return true;
    }
    if (tok_is_name(t, "def") && P->toks[P->i + 1].kind == TK_NAME) {
        token *nt = &P->toks[P->i + 1];
        plaindef d = { arena_strndup(&m->mem, nt->start, (size_t)nt->len), P->i, unit };
        vec_push(&m->plain, d);
        parse_skip_statement(P);
        return true;
    }
    if (tok_is_name(t, "import") || tok_is_name(t, "from")) {
        import_stmt(P, c);
        return true;
    }
    if (tok_is_name(t, "try")) {
        try_stmt(P, c);
        return true;
    }
    if (tok_is_name(t, "if")) return if_stmt(P, c);
    if (tok_is_name(t, "class")) {
        class_stmt(P, c);
        return true;
    }
    if (t->kind == TK_NAME && (tok_is_op(&P->toks[P->i + 1], "=") || tok_is_op(&P->toks[P->i + 1], ":")) &&
        !tok_is_name(t, "else") && !tok_is_name(t, "try") && !tok_is_name(t, "while") &&
        !tok_is_name(t, "for") && !tok_is_name(t, "with") && !tok_is_name(t, "class") && !tok_is_name(t, "def")) {
        bool failed = false;
        global_stmt(P, c, &failed);
        return !failed || quiet;
    }
    parse_skip_statement(P);
    return true;
}

/* The statements of a block (the file when top, else up to the DEDENT that
 * ends the block, consumed). */
static bool scan_block(parser *P, scanctx *c, bool top)
{
    while (peek(P)->kind != TK_EOF) {
        token *t = peek(P);
        if (t->kind == TK_DEDENT) {
            P->i++;
            if (!top) return true;
        } else if (t->kind == TK_NEWLINE) {
            P->i++;
        } else if (t->kind == TK_INDENT) {
            parse_skip_statement(P);
        } else if (!scan_stmt(P, c)) {
            return false;
        }
    }
    return true;
}

/* Scan one file's tokens: jit functions, imports and globals, also in the
 * branch of a module-level `if` that runs (if_stmt); skip the rest.
 * A jit function that does not parse is kept as `bad` and diagnosed only
 * when it is compiled or called: Triton parses a function when a launch
 * reaches it (runtime/jit.py, JITFunction.parse at the first run), so one
 * broken helper does not fail the file's other kernels. Only the prelude
 * (unit 1) must parse. Returns false after a diagnostic in the kernel
 * file's code. */
static bool scan(front_module *m, int unit)
{
    struct unit *u = &m->units.v[unit];
    parser P = { .a = &m->mem, .file = u->file, .toks = u->lx.toks, .ntoks = u->lx.ntoks };
    scanctx c = { m, unit, 0, 0, NULL };
    if (P.ntoks && P.toks[0].kind == TK_ERROR && P.toks[0].sval) {   /* a whole-file error (lex.c: UTF-8) */
        diag_error(((src_pos){ u->file, P.toks[0].line, P.toks[0].col }), "%s", P.toks[0].sval);
        return false;
    }
    return scan_block(&P, &c, true);
}

void module_parse_helper(front_module *m, parser *P, funcdef *f)
{
    FILE *null = fopen("/dev/null", "w");
    FILE *old = diag_set_stream(null);
    int perrs = P->errors;
    bool ok = parse_funcdef(P, f);
    diag_set_stream(old);
    if (null) fclose(null);
    if (ok && P->errors == perrs) return;
    P->errors = perrs;
    token *nt = &P->toks[f->tok + 1];
    f->name = nt->kind == TK_NAME ? arena_strndup(&m->mem, nt->start, (size_t)nt->len) : "?";
    f->pos = (src_pos){ P->file, P->toks[f->tok].line, P->toks[f->tok].col };
    f->bad = true;
    P->i = f->tok;
    parse_skip_statement(P);
}

void module_reparse(front_module *m, int fi)
{
    funcdef f = m->funcs.v[fi];
    const struct unit *u = &m->units.v[f.unit];
    parser P = { .a = &m->mem, .file = u->file, .toks = u->lx.toks, .ntoks = u->lx.ntoks, .i = f.tok };
    funcdef g = {0};
    parse_funcdef(&P, &g);
}

int module_add_unit(front_module *m, const char *name, const char *display, const char *path, bool is_pkg, const char *text)
{
    struct unit u = { .name = arena_strdup(&m->mem, name), .path = path ? arena_strdup(&m->mem, path) : NULL, .is_pkg = is_pkg };
    u.file = diag_add_source(display, text);
    lex_file(&m->mem, diag_file_text(u.file), &u.lx);
    vec_push(&m->units, u);
    return m->units.n - 1;
}

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash) return xstrdup(".");
    if (slash == path) return xstrdup("/");
    return xstrndup(path, (size_t)(slash - path));
}

/* The dotted module name of a file and the directory its top package sits
 * in: walk up through directories that hold an __init__.py. */
static char *module_name_of(const char *path, char **root)
{
    char *dir = dir_of(path);
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    size_t bl = strlen(base);
    char *name = xstrndup(base, bl > 3 && !strcmp(base + bl - 3, ".py") ? bl - 3 : bl);
    bool pkg = !strcmp(name, "__init__");
    if (pkg) {
        free(name);
        name = xstrdup("");
    }
    for (;;) {
        char *init = xasprintf("%s/__init__.py", dir);
        bool has = is_file(init);
        free(init);
        if (!has) break;
        const char *slash = strrchr(dir, '/');
        const char *comp = slash ? slash + 1 : dir;
        char *nn = *name ? xasprintf("%s.%s", comp, name) : xstrdup(comp);
        free(name);
        name = nn;
        char *up = dir_of(dir);
        bool top = !strcmp(up, dir);
        free(dir);
        dir = up;
        if (top) break;
    }
    *root = dir;
    return name;
}

static void add_search(front_module *m, const char *dir)
{
    if (!dir || !*dir) return;
    for (int i = 0; i < m->search.n; i++)
        if (!strcmp(m->search.v[i], dir)) return;
    vec_push(&m->search, xstrdup(dir));
}

/* Search path, as Python builds sys.path: the kernel file's package root and
 * its directory, --path, PYTHONPATH; the python3 on PATH's own sys.path
 * (site-packages) is added only when nothing else has a module. */
static void build_search(front_module *m)
{
    if (m->search_built) return;
    m->search_built = true;
    const struct unit *k = &m->units.v[0];
    if (k->path) {
        char *root;
        free(module_name_of(k->path, &root));
        add_search(m, root);
        free(root);
        char *d = dir_of(k->path);
        add_search(m, d);
        free(d);
    }
    for (int i = 0; i < m->paths.n; i++) add_search(m, m->paths.v[i]);
    const char *pp = getenv("PYTHONPATH");
    if (pp) {
        char *copy = xstrdup(pp), *save = NULL;
        for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) add_search(m, d);
        free(copy);
    }
}

static void read_syspath(front_module *m)
{
    if (m->syspath_read) return;
    m->syspath_read = true;
    FILE *f = popen("python3 -c 'import sys; print(\"\\n\".join(p for p in sys.path if p))' 2>/dev/null", "r");
    if (!f) return;
    char line[4096];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        add_search(m, line);
    }
    pclose(f);
}

static char *find_file(front_module *m, const char *name, int from, bool *is_pkg)
{
    char *rel = xstrdup(name);
    for (char *p = rel; *p; p++)
        if (*p == '.') *p = '/';
    char *found = NULL;
    for (int i = from; i < m->search.n && !found; i++) {
        char *f = xasprintf("%s/%s.py", m->search.v[i], rel);
        char *g = xasprintf("%s/%s/__init__.py", m->search.v[i], rel);
        if (is_file(f)) found = f, f = NULL, *is_pkg = false;
        else if (is_file(g)) found = g, g = NULL, *is_pkg = true;
        free(f);
        free(g);
    }
    free(rel);
    return found;
}

/* Read and scan the file at `path` as unit `name`; -1 with *why set when it
 * cannot be read or its kernel code does not parse. */
static int load_unit(front_module *m, const char *name, const char *path, bool pkg, const char **why)
{
    size_t len;
    char *text = tt_read_file_limited(path, TT_LIM_SOURCE_BYTES, &len);
    if (!text || strlen(text) != len) {
        char *lim = !text && errno == EFBIG ? tt_limit_exceeded(TT_LIM_SOURCE_BYTES) : NULL;
        *why = arena_strdup(&m->mem, text ? "it contains a NUL byte" : lim ? lim : "it cannot be read");
        free(lim);
        free(text);
        return -1;
    }
    int u = module_add_unit(m, name, path, path, pkg, text);
    free(text);
    if (!scan(m, u)) {
        *why = "its kernel code does not parse";
        return -1;
    }
    return u;
}

int module_unit(front_module *m, const char *name, const char **why)
{
    for (int i = 2; i < m->units.n; i++)
        if (!strcmp(m->units.v[i].name, name)) return i;
    if (m->units.v[0].name[0] && !strcmp(m->units.v[0].name, name)) return 0;
    build_search(m);
    bool pkg = false;
    char *path = find_file(m, name, 0, &pkg);
    if (!path) {
        int n = m->search.n;
        read_syspath(m);
        path = find_file(m, name, n, &pkg);
    }
    if (!path) {
        strbuf b = {0};
        sb_printf(&b, "no module named '%s' (searched", name);
        for (int i = 0; i < m->search.n; i++) sb_printf(&b, "%s %s", i ? "," : "", m->search.v[i]);
        sb_printf(&b, "%s; add directories with --path or PYTHONPATH)", m->search.n ? "" : " nothing");
        *why = arena_strdup(&m->mem, b.s);
        sb_free(&b);
        return -1;
    }
    int u = load_unit(m, name, path, pkg, why);
    free(path);
    return u;
}

int module_unit_file(front_module *m, const char *path, const char **why)
{
    for (int i = 0; i < m->units.n; i++)
        if (m->units.v[i].path && !strcmp(m->units.v[i].path, path)) return i;
    char *root;
    char *name = module_name_of(path, &root);
    free(root);
    const char *b = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    int u = -1;
    for (int i = 2; i < m->units.n && u < 0; i++)
        if (*name && !strcmp(m->units.v[i].name, name)) u = i;
    if (u < 0) u = load_unit(m, name, path, !strcmp(b, "__init__.py"), why);
    free(name);
    return u;
}

void front_add_path(front_module *m, const char *dir)
{
    vec_push(&m->paths, xstrdup(dir));
    m->search_built = false;
    for (int i = 0; i < m->search.n; i++) free(m->search.v[i]);
    m->search.n = 0;
    m->syspath_read = false;
}

static front_module *load(const char *name, const char *path, const char *text)
{
    front_module *m = xcalloc(1, sizeof *m);
    const char *modname = "";
    char *owned = NULL, *root = NULL;
    bool pkg = false;
    if (path) {
        owned = module_name_of(path, &root);
        free(root);
        modname = owned;
        const char *b = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
        pkg = !strcmp(b, "__init__.py");
    }
    module_add_unit(m, modname, name, path, pkg, text);
    free(owned);
    m->file = m->units.v[0].file;
    m->lx = m->units.v[0].lx;
    if (!scan(m, 0)) {
        front_module_free(m);
        return NULL;
    }
    m->nuser = m->funcs.n;
    module_add_prelude(m);
    return m;
}

void module_add_prelude(front_module *m)
{
    /* the parts of triton.language written in Triton (prelude.c) */
    module_add_unit(m, front_prelude_name, front_prelude_name, NULL, false, front_prelude_text);
    if (!scan(m, 1)) die("the built-in prelude does not parse");
}

front_module *front_load_text(const char *name, const char *text) { return load(name, NULL, text); }

front_module *front_load(const char *path)
{
    size_t len;
    char *text = tt_read_file_limited(path, TT_LIM_SOURCE_BYTES, &len);
    if (!text) {
        if (errno == EFBIG) {
            char *why = tt_limit_exceeded(TT_LIM_SOURCE_BYTES);
            diag_error(((src_pos){ -1, 0, 0 }), "cannot read '%s': %s", path, why);
            free(why);
        } else {
            diag_error(((src_pos){ -1, 0, 0 }), "cannot read '%s': %s", path, strerror(errno));
        }
        return NULL;
    }
    if (strlen(text) != len) {
        free(text);
        diag_error(((src_pos){ -1, 0, 0 }), "'%s' contains a NUL byte; is it a Python file?", path);
        return NULL;
    }
    size_t pl = strlen(path);
    front_module *m = pl > 5 && !strcmp(path + pl - 5, ".json") ? front_load_live(path, text) : load(path, path, text);
    free(text);
    return m;
}

void front_module_free(front_module *m)
{
    if (!m) return;
    live_free(m);
    vec_free(&m->funcs);
    vec_free(&m->globals);
    vec_free(&m->aliases);
    vec_free(&m->units);
    vec_free(&m->plain);
    vec_free(&m->classes);
    for (int i = 0; i < m->paths.n; i++) free(m->paths.v[i]);
    vec_free(&m->paths);
    for (int i = 0; i < m->search.n; i++) free(m->search.v[i]);
    vec_free(&m->search);
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

bool front_jit_debug(const front_module *m, int fi)
{
    const funcdef *f = &m->funcs.v[fi];
    for (int d = 0; d < f->decorators.n; d++) {
        node *c = f->decorators.v[d];
        if (c->kind != E_CALL || (c->a->kind != E_ATTR && c->a->kind != E_NAME) || strcmp(c->a->name, "jit")) continue;
        node *v = kwarg(c, "debug", 99);
        if (v && v->kind == E_TRUE) return true;
    }
    return false;
}

int module_find_in(const front_module *m, int unit, const char *spec)
{
    int fi = -1;
    const char *at = strchr(spec, '@');
    if (!at) {
        for (int i = 0; i < m->funcs.n; i++)       /* the last definition, as Python's namespace has it */
            if (m->funcs.v[i].unit == unit && !strcmp(m->funcs.v[i].name, spec)) fi = i;
        return fi;
    }
    char *end;
    long line = strtol(at + 1, &end, 10);
    if (end == at + 1 || *end || line < 1) return -1;
    /* LINE is the def's line or its first decorator's (co_firstlineno), and
     * decorators may not have been kept (unreadable ones are skipped): the
     * first def of that name at or after LINE */
    size_t len = (size_t)(at - spec);
    int file = m->units.v[unit].file;
    for (int i = 0; i < m->funcs.n; i++) {
        const funcdef *f = &m->funcs.v[i];
        if (strlen(f->name) != len || strncmp(f->name, spec, len) || f->pos.file != file) continue;
        if (f->pos.line >= line && (fi < 0 || f->pos.line < m->funcs.v[fi].pos.line)) fi = i;
    }
    return fi;
}

int front_find_function(const front_module *m, const char *kernel, bool user_only)
{
    int n = user_only ? m->nuser : m->funcs.n, fi = -1;
    if (strchr(kernel, '@')) return module_find_in(m, 0, kernel);
    for (int i = 0; i < n; i++)       /* the last definition, as Python's namespace has it */
        if (!strcmp(m->funcs.v[i].name, kernel)) fi = i;
    return fi;
}

int front_params(const front_module *cm, const char *kernel, const front_param **out)
{
    front_module *m = (front_module *)cm;
    int fi = front_find_function(m, kernel, false);
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
