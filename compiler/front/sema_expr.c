/* sema_expr.c — expressions: names, attributes, calls, subscripts,
 * operators, and calls of @triton.jit helpers (inlined, re-specialized on
 * their constexpr arguments). */
#include "front_int.h"
#include "sema_builtin.h"

#include <string.h>

/* ---- scopes ---- */

bool sema_lookup(sema *S, const char *name, sval *out)
{
    scope *sc = S->sc;
    for (int i = sc->n - 1; i >= 0; i--) {
        if (!strcmp(sc->v[i].name, name)) {
            *out = sc->v[i].val;
            return true;
        }
    }
    return false;
}

void sema_bind(sema *S, const char *name, sval v)
{
    scope *sc = S->sc;
    for (int i = 0; i < sc->n; i++) {
        if (!strcmp(sc->v[i].name, name)) {
            sc->v[i].val = v;
            return;
        }
    }
    if (sc->n == sc->cap) {
        int cap = sc->cap ? sc->cap * 2 : 16;
        binding *nv = arena_alloc(S->a, sizeof *nv * (size_t)cap);
        if (sc->n) memcpy(nv, sc->v, sizeof *nv * (size_t)sc->n);
        sc->v = nv;
        sc->cap = cap;
    }
    sc->v[sc->n++] = (binding){ name, v, false };
}

static int find_func(front_module *m, int unit, const char *name)
{
    for (int i = m->funcs.n - 1; i >= 0; i--)   /* a later definition wins, as in Python */
        if (m->funcs.v[i].unit == unit && !strcmp(m->funcs.v[i].name, name)) return i;
    return -1;
}

/* The modules of Triton that tritium implements itself. */
static int triton_module(const char *name)
{
    static const struct { const char *path; int mod; } mods[] = {
        { "triton", MOD_TRITON }, { "triton.language", MOD_TL }, { "triton.language.math", MOD_MATH },
        { "triton.language.random", MOD_RANDOM },
        { "triton.language.extra", MOD_EXTRA }, { "triton.language.extra.cuda", MOD_CUDA },
        { "triton.language.extra.libdevice", MOD_LIBDEVICE }, { "triton.language.extra.cuda.libdevice", MOD_LIBDEVICE },
    };
    for (size_t i = 0; i < TT_COUNTOF(mods); i++)
        if (!strcmp(mods[i].path, name)) return mods[i].mod;
    return -1;
}

bool front_triton_module(const char *name) { return name && triton_module(name) >= 0; }

/* Host modules whose kernel-relevant names are Triton modules chosen at run
 * time (Inductor's triton_compat picks libdevice in nested try blocks). */
static const char *shim(const char *module, const char *attr)
{
    static const struct { const char *module, *attr, *target; } shims[] = {
        { "torch._inductor.runtime.triton_compat", "tl", "triton.language" },
        { "torch._inductor.runtime.triton_compat", "triton", "triton" },
        { "torch._inductor.runtime.triton_compat", "libdevice", "triton.language.extra.libdevice" },
        { "torch._inductor.runtime.triton_compat", "math", "triton.language.math" },
    };
    for (size_t i = 0; i < TT_COUNTOF(shims); i++)
        if (!strcmp(shims[i].module, module) && !strcmp(shims[i].attr, attr)) return shims[i].target;
    return NULL;
}

static sval sv_module(int mod) { return (sval){ .k = V_MODULE, .i = mod, .v = -1 }; }

bool sema_module_by_name(sema *S, const char *name, sval *out, const char **why)
{
    int t = triton_module(name);
    if (t >= 0) {
        *out = sv_module(t);
        return true;
    }
    if (!strcmp(name, "triton") || !strncmp(name, "triton.", 7)) {
        *why = arena_strdup(S->a, "tritium does not support this module of Triton in kernels yet");
        return false;
    }
    int u = module_unit(S->m, name, why);
    if (u < 0) return false;
    *out = sv_module(MOD_USER + u);
    return true;
}

static bool unit_name(sema *S, src_pos p, int u, const char *name, sval *out, const char **why);

/* Attribute `name` of a module value: Triton's own (sema_builtin.c), or a
 * module-level name of a Python file, or its submodule. */
static bool module_attr(sema *S, src_pos p, sval mod, const char *name, sval *out, const char **why)
{
    *why = NULL;
    if (mod.i < MOD_USER) {
        if (mod.i == MOD_TL) sema_version_attr(S, p, name);
        if (sema_module_attr(S, (int)mod.i, name, out)) return true;
        *why = arena_strdup(S->a, "no such function or dtype in this module, or tritium does not support it yet");
        return false;
    }
    int u = (int)mod.i - MOD_USER;
    if (unit_name(S, p, u, name, out, why)) return true;
    if (*why) return false;
    const char *mname = S->m->units.v[u].name;
    if (!S->m->units.v[u].is_pkg) {
        char *cond = module_conditional_name(S->m, u, name);
        *why = arena_strdup(S->a, cond ? cond : "no such name in the module");
        free(cond);
        return false;
    }
    char *sub = xasprintf("%s.%s", mname, name);
    const char *w2 = NULL;
    bool ok = sema_module_by_name(S, sub, out, &w2);
    free(sub);
    if (!ok) *why = arena_strdup(S->a, "no such name in the package, nor a submodule");
    return ok;
}

/* Method `name` of aggregate class k: a @triton.jit method, bound to self
 * when given (code_generator.py get_Attribute: BoundJITMethod), else the
 * function itself (`Base.method(self, ...)`). False when k has none. */
static bool aggregate_method(sema *S, src_pos p, const ntclass *k, const sval *self, const char *name, sval *out)
{
    if (!k || !k->aggregate) return false;
    for (int i = 0; i < k->nm; i++) {
        if (strcmp(k->mnames[i], name)) continue;
        if (k->mfuncs[i] < 0)
            sema_error(S, p, "%s.%s is %s; tritium runs only @triton.jit methods of aggregates", k->tname, name,
                       k->mwhy && k->mwhy[i] ? k->mwhy[i] : "not a @triton.jit function");
        *out = (sval){ .k = V_FUNC, .i = k->mfuncs[i], .v = -1 };
        if (self) {
            out->self = arena_alloc(S->a, sizeof(sval));
            *out->self = *self;
        }
        return true;
    }
    return false;
}

bool sema_attr(sema *S, src_pos p, sval base, const char *name, sval *out)
{
    const char *why = NULL;
    if (base.k == V_MODULE) return module_attr(S, p, base, name, out, &why);
    if (base.k == V_TUPLE && base.nt) {   /* core.py tuple.__getattr__: the field's value */
        for (int i = 0; i < base.nt->n && i < base.n; i++)
            if (!strcmp(base.nt->fields[i], name)) {
                if (sema_field_unset(&base.items[i]))
                    sema_error(S, p, "AttributeError: '%s' object has no attribute '%s'", base.nt->tname, name);
                *out = base.items[i];
                return true;
            }
        return aggregate_method(S, p, base.nt, &base, name, out);
    }
    if (base.k == V_CLASS) return aggregate_method(S, p, base.nt, NULL, name, out);
    return sema_tensor_attr(S, p, base, name, out);
}

/* One import: the module, or the attribute imported from it. */
static bool resolve_alias(sema *S, src_pos p, const alias *a, sval *out, const char **why)
{
    if (!a->module) {
        *why = arena_strdup(S->a, "attempted relative import with no known parent package (no __init__.py next to the file)");
        return false;
    }
    if (!a->attr) return sema_module_by_name(S, a->module, out, why);
    const char *t = shim(a->module, a->attr);
    if (t) return sema_module_by_name(S, t, out, why);
    sval mod;
    if (!sema_module_by_name(S, a->module, &mod, why)) return false;
    return module_attr(S, p, mod, a->attr, out, why);
}

static const char *describe_import(sema *S, const alias *a)
{
    char buf[512];
    if (a->attr) snprintf(buf, sizeof buf, "from %s import %s", a->module ? a->module : ".", a->attr);
    else snprintf(buf, sizeof buf, "import %s", a->module);
    const char *f = diag_file_name(a->pos.file);
    char *r = xasprintf("`%s` (%s:%d)", buf, f ? f : "?", a->pos.line);
    const char *s = arena_strdup(S->a, r);
    free(r);
    return s;
}

static sval eval_global(sema *S, src_pos p, global g);

/* A module-level name of unit u: a jit function, a global or an import (in
 * a module-level try, the first branch whose import resolves). False with
 * *why NULL when the name is not defined there; with *why set when an import
 * of it fails. */
static bool unit_name(sema *S, src_pos p, int u, const char *name, sval *out, const char **why)
{
    front_module *m = S->m;
    *why = NULL;
    if (m->units.v[u].live) return live_name(S, p, u, name, out);
    int fi = find_func(m, u, name);
    if (fi >= 0) {
        *out = (sval){ .k = V_FUNC, .i = fi, .v = -1 };
        return true;
    }
    for (int i = m->classes.n - 1; i >= 0; i--)
        if (m->classes.v[i]->unit == u && !strcmp(m->classes.v[i]->name, name)) {
            *out = (sval){ .k = V_CLASS, .nt = m->classes.v[i], .v = -1 };
            return true;
        }
    for (int i = m->globals.n - 1; i >= 0; i--)
        if (m->globals.v[i].unit == u && !strcmp(m->globals.v[i].name, name)) {
            *out = eval_global(S, p, m->globals.v[i]);
            return true;
        }
    int last = -1;
    for (int i = m->aliases.n - 1; i >= 0 && last < 0; i--)
        if (m->aliases.v[i].unit == u && !strcmp(m->aliases.v[i].name, name)) last = i;
    if (last < 0) return false;
    alias a = m->aliases.v[last];
    if (!a.try_id) {
        const char *w = NULL;
        if (resolve_alias(S, p, &a, out, &w)) return true;
        char *full = xasprintf("'%s' cannot be imported by %s: %s", name, describe_import(S, &a), w ? w : "not found");
        *why = arena_strdup(S->a, full);
        free(full);
        return false;
    }
    const char *first = NULL;
    const alias *first_a = NULL;
    for (int i = 0; i < m->aliases.n; i++) {
        alias b = m->aliases.v[i];
        if (b.unit != u || b.try_id != a.try_id || strcmp(b.name, name)) continue;
        const char *w = NULL;
        if (resolve_alias(S, p, &b, out, &w)) return true;
        if (!first) {
            first = w ? w : "not found";
            first_a = &m->aliases.v[i];
        }
    }
    char *full = xasprintf("'%s' cannot be imported by %s (nor by the other branches of its try): %s", name,
                           describe_import(S, first_a), first);
    *why = arena_strdup(S->a, full);
    free(full);
    return false;
}

static sval lookup_name(sema *S, node *e)
{
    sval v;
    if (sema_lookup(S, e->name, &v)) return v;
    const char *why = NULL;
    if (unit_name(S, e->pos, S->unit, e->name, &v, &why)) return v;
    if (why) sema_error(S, e->pos, "%s", why);
    if (S->m->units.v[S->unit].live) {   /* Python had no such global: only Triton's builtins remain */
        if (sema_python_builtin(e->name, &v)) return v;
        sema_error(S, e->pos, "name '%s' is not defined", e->name);
    }
    /* the conventional names work even without a visible import */
    if (!strcmp(e->name, "tl")) return sv_module(MOD_TL);
    if (!strcmp(e->name, "triton")) return sv_module(MOD_TRITON);
    if (!strcmp(e->name, "libdevice")) return sv_module(MOD_LIBDEVICE);
    if (sema_python_builtin(e->name, &v)) return v;
    module_undefined_name(S, e->pos, e->name);
}

/* A non-constexpr global may still name a function, a module or a dtype
 * (`triton_cast = tl.cast`, `libdevice = tl.extra.cuda.libdevice`), as
 * Triton's dependency finder allows; anything else is refused. */
static bool callable_global(sema *S, global g, sval *out)
{
    node *e = g.value;
    while (e->kind == E_ATTR) e = e->a;
    if (e->kind != E_NAME) return false;
    jmp_buf saved;
    memcpy(saved, S->fail, sizeof saved);
    FILE *null = fopen("/dev/null", "w");
    FILE *old = diag_set_stream(null);
    scope empty = {0}, *sc = S->sc;
    bool ok = false;
    if (!setjmp(S->fail)) {
        S->sc = &empty;
        *out = sema_expr(S, g.value);
        ok = out->k == V_FUNC || out->k == V_BUILTIN || out->k == V_MODULE || out->k == V_DTYPE;
    }
    S->sc = sc;
    diag_set_stream(old);
    if (null) fclose(null);
    memcpy(S->fail, saved, sizeof saved);
    return ok;
}

static sval eval_global(sema *S, src_pos p, global g)
{
    int unit = S->unit;
    S->unit = g.unit;
    sval v;
    if (!g.is_constexpr && !S->plain_globals) {
        if (callable_global(S, g, &v)) {
            S->unit = unit;
            return v;
        }
        S->unit = unit;
        /* the wording of Triton 3.6's code_generator.py global_lookup */
        if (g.annotated)
            sema_error(S, p, "cannot access global variable '%s' from within @jit'ed function: annotating a global "
                             "as constexpr (`%s: tl.constexpr = ...`) does not make it one, as in Triton 3.6; "
                             "write `%s = tl.constexpr(...)`", g.name, g.name, g.name);
        sema_error(S, p, "cannot access global variable '%s' from within @jit'ed function: kernels may only use "
                         "constexpr globals (`%s = tl.constexpr(...)`)", g.name, g.name);
    }
    /* evaluate in an empty local scope */
    scope empty = {0}, *saved = S->sc;
    S->sc = &empty;
    v = sema_expr(S, g.value);
    S->sc = saved;
    S->unit = unit;
    if (v.k == V_TENSOR) sema_error(S, g.pos, "constexpr global '%s' must be a compile-time value", g.name);
    return v;
}

/* ---- calls ---- */

/* Arena-backed (an error may longjmp out of sema_expr mid-call). */
static void push_arg(sema *S, sval **v, int *n, int *cap, sval x)
{
    if (*n == *cap) {
        int nc = *cap * 2 + 8;
        sval *nv = arena_alloc(S->a, sizeof(sval) * (size_t)nc);
        if (*n) memcpy(nv, *v, sizeof(sval) * (size_t)*n);
        *v = nv;
        *cap = nc;
    }
    (*v)[(*n)++] = x;
}

int sema_call_args(sema *S, node *call, sval **out)
{
    sval *args = NULL;
    int n = 0, cap = 0;
    for (int i = 0; i < call->items.n; i++) {
        node *it = call->items.v[i];
        if (it->kind != E_STARRED) {
            push_arg(S, &args, &n, &cap, sema_expr(S, it));
            continue;
        }
        sval t = sema_expr(S, it->a);
        if (t.k != V_TUPLE) sema_error(S, it->pos, "argument after * must be a tuple, not %s", sv_describe(S, &t));
        for (int k = 0; k < t.n; k++) push_arg(S, &args, &n, &cap, t.items[k]);
    }
    if (!args) push_arg(S, &args, &n, &cap, sv_none()), n = 0;   /* callers may write one slot past n */
    *out = args;
    return n;
}

/* The Python class of v, as Triton's generated __init__ names it in its
 * TypeError (core.py _aggregate: __setattr__). */
static const char *py_class(sema *S, const sval *v)
{
    switch (v->k) {
    case V_TENSOR: return "<class 'triton.language.core.tensor'>";
    case V_TDESC: return "<class 'triton.language.core.tensor_descriptor'>";
    case V_TUPLE:
        if (sv_is_aggregate(v)) {
            char *s = xasprintf("<class '%s'>", v->nt->tname);
            const char *r = arena_strdup(S->a, s);
            free(s);
            return r;
        }
        return "<class 'triton.language.core.tuple'>";
    default: return "<class 'triton.language.core.constexpr'>";
    }
}

/* Does v pass the generated __init__'s isinstance(value, annotation)?
 * (_wrap_init_args: Python values become constexprs, Python tuples tl.tuple) */
static bool ann_ok(char ann, const sval *v)
{
    bool agg = sv_is_aggregate(v);
    switch (ann) {
    case 't': return v->k == V_TENSOR;
    case 'u': return v->k == V_TUPLE && !agg;
    case 'c': return v->k != V_TENSOR && v->k != V_TUPLE && v->k != V_TDESC && v->k != V_BLOCKPTR;
    default: return true;
    }
}

static const char *ann_class(char ann)
{
    return ann == 't' ? "<class 'triton.language.core.tensor'>" : ann == 'u' ? "<class 'triton.language.core.tuple'>"
                                                                             : "<class 'triton.language.core.constexpr'>";
}

void sema_aggregate_check(sema *S, src_pos p, const ntclass *k, int f, const sval *v)
{
    if (k->ann && !ann_ok(k->ann[f], v))
        sema_error(S, p, "TypeError: Expected %s for attribute '%s', got %s", ann_class(k->ann[f]), k->fields[f],
                   py_class(S, v));
}

static const char unset_mark[] = "unset";

bool sema_field_unset(const sval *v) { return v->k == V_NONE && v->s == unset_mark; }

static sval call_inlined(sema *S, src_pos pos, int fi, sval *args, int nargs, const char **kwn, sval *kwv, int nkw,
                         sval *self_out);

/* An aggregate whose class defines __init__ (Triton 3.9 core.py _aggregate:
 * aggregate_value.__new__ runs it on an instance whose fields are unset,
 * then requires every field set). tritium inlines it as a helper whose
 * `self.f = v` statements set fields (sema_stmt.c assign); the instance is
 * self's value when it returns. */
static sval construct_user(sema *S, src_pos p, const ntclass *k, sval *args, int n, const char **kwn, sval *kwv, int nk)
{
    const funcdef *fd = &S->m->funcs.v[k->init_fi - 1];
    if (fd->nparams < 1 || fd->params[0].kind != PARAM_PLAIN)
        sema_error(S, p, "%s.__init__ takes no self parameter", k->tname);
    sval self = { .k = V_TUPLE, .n = k->n, .nt = k, .v = -1 };
    self.items = arena_alloc(S->a, sizeof(sval) * (size_t)(k->n + 1));
    for (int f = 0; f < k->n; f++) self.items[f] = (sval){ .k = V_NONE, .s = unset_mark, .v = -1 };
    sval *a = arena_alloc(S->a, sizeof(sval) * (size_t)(n + 2));
    a[0] = self;
    for (int i = 0; i < n; i++) a[i + 1] = args[i];
    int saved_depth = S->ctor_depth;
    const char *saved_self = S->ctor_self;
    S->ctor_depth = S->depth + 1;
    S->ctor_self = fd->params[0].name;
    call_inlined(S, p, k->init_fi - 1, a, n + 1, kwn, kwv, nk, &self);
    S->ctor_depth = saved_depth;
    S->ctor_self = saved_self;
    for (int f = 0; f < k->n; f++)
        if (sema_field_unset(&self.items[f]))
            sema_error(S, p, "AttributeError: constructor for %s did not initialize attribute '%s'", k->tname,
                       k->fields[f]);
    return self;
}

/* Calling a named tuple class: its fields bound by position and keyword,
 * missing ones from the class's defaults (evaluated in its module), as
 * Python's generated __new__ does. An aggregate class (Triton 3.8+ core.py
 * _aggregate) binds them the same way in its generated __init__, with its
 * messages, and checks each field against its annotation. */
sval sema_construct(sema *S, src_pos p, const ntclass *k, sval *args, int n, const char **kwn, sval *kwv, int nk)
{
    char fn[300];
    if (k->aggregate) {
        sema_version_aggregate(S, p, k);
        if (k->init_why) sema_error(S, p, "%s.__init__ %s; tritium runs only the __init__ that @triton.aggregate "
                                          "generates from the class's annotations, or a Python one", k->tname, k->init_why);
        if (k->init_fi) return construct_user(S, p, k, args, n, kwn, kwv, nk);
        snprintf(fn, sizeof fn, "%s.__init__", k->tname);
    } else {
        snprintf(fn, sizeof fn, "%s", k->tname);
    }
    if (n > k->n) sema_error(S, p, "%s() takes %d positional arguments but %d were given", fn, k->n + k->aggregate,
                             n + k->aggregate);
    sval t = { .k = V_TUPLE, .n = k->n, .nt = k, .v = -1 };
    t.items = arena_alloc(S->a, sizeof(sval) * (size_t)(k->n + 1));
    bool *has = arena_alloc(S->a, sizeof(bool) * (size_t)(k->n + 1));
    for (int i = 0; i < n; i++) t.items[i] = args[i], has[i] = true;
    for (int j = 0; j < nk; j++) {
        int f = 0;
        while (f < k->n && strcmp(k->fields[f], kwn[j])) f++;
        if (f == k->n) sema_error(S, p, "%s() got an unexpected keyword argument '%s'", fn, kwn[j]);
        if (has[f]) sema_error(S, p, "%s() got multiple values for argument '%s'", fn, kwn[j]);
        t.items[f] = kwv[j];
        has[f] = true;
    }
    for (int f = 0; f < k->n; f++) {
        if (has[f]) continue;
        if (k->live && live_class_default(S, p, k, f, &t.items[f])) continue;   /* as Python evaluated it */
        if (!k->defaults || !k->defaults[f])
            sema_error(S, p, k->aggregate ? "%s() missing required argument: '%s'" : "%s() missing required argument '%s'",
                       fn, k->fields[f]);
        scope empty = {0}, *saved = S->sc;
        int unit = S->unit;
        bool pg = S->plain_globals;
        S->sc = &empty;
        S->unit = k->unit;
        S->plain_globals = true;   /* Python evaluated it when the class was made */
        t.items[f] = sema_expr(S, k->defaults[f]);
        S->sc = saved;
        S->unit = unit;
        S->plain_globals = pg;
    }
    if (k->aggregate)
        for (int f = 0; f < k->n; f++) sema_aggregate_check(S, p, k, f, &t.items[f]);
    return t;
}

/* tl.aggregate_replace(instance, **changes): a new instance of the same
 * class, the named fields replaced, through its generated __init__
 * (Triton 3.8+ core.py aggregate_replace). */
sval sema_aggregate_replace(sema *S, src_pos p, sval *args, int n, const char **kwn, sval *kwv, int nk)
{
    if (n != 1) sema_error(S, p, "aggregate_replace() takes 1 positional argument (the instance) but %d were given", n);
    const ntclass *k = args[0].k == V_TUPLE ? args[0].nt : NULL;
    if (!k || !k->aggregate)
        sema_error(S, p, "TypeError: aggregate_replace() expects an aggregate instance, got %s", py_class(S, &args[0]));
    for (int j = 0; j < nk; j++) {
        int f = 0;
        while (f < k->n && strcmp(k->fields[f], kwn[j])) f++;
        if (f == k->n) sema_error(S, p, "TypeError: %s has no field '%s'", k->tname, kwn[j]);
    }
    const char **names = arena_alloc(S->a, sizeof(char *) * (size_t)(k->n + 1));
    sval *vals = arena_alloc(S->a, sizeof(sval) * (size_t)(k->n + 1));
    for (int f = 0; f < k->n; f++) {
        names[f] = k->fields[f];
        vals[f] = args[0].items[f];
        for (int j = 0; j < nk; j++)
            if (!strcmp(kwn[j], k->fields[f])) vals[f] = kwv[j];
    }
    return sema_construct(S, p, k, NULL, 0, names, vals, k->n);
}

/* The source of a call's callee as ast.unparse writes it (names and
 * attributes; anything else as "..."). */
static void unparse_callee(const node *f, strbuf *b)
{
    if (f->kind == E_NAME) sb_puts(b, f->name);
    else if (f->kind == E_ATTR) {
        unparse_callee(f->a, b);
        sb_printf(b, ".%s", f->name);
    } else sb_puts(b, "...");
}

/* A call whose result an expression statement drops, of a function marked
 * @triton.must_use_result (or tl.advance, which Triton marks so): Triton's
 * CompilationError (code_generator.py call_Function). */
static void check_must_use(sema *S, const node *e, const sval *f)
{
    const char *why = NULL;
    if (f->k == V_FUNC) why = S->m->funcs.v[f->i].must_use;
    else if ((f->k == V_BUILTIN || f->k == V_METHOD) && f->i == B_ADVANCE)
        why = "Note that tl.advance does not have any side effects. To move the block pointer, you need to assign the "
              "result of tl.advance to a variable.";
    if (!why) return;
    strbuf b = {0};
    unparse_callee(e->a, &b);
    char *callee = arena_strdup(S->a, b.s ? b.s : "");
    sb_free(&b);
    sema_error(S, e->pos, "The result of %s is not being used.%s%s", callee, *why ? " " : "", why);
}

static sval eval_call(sema *S, node *e)
{
    sval f = sema_expr(S, e->a);
    int nk = e->kwnames.n;
    sval *args;
    int n = sema_call_args(S, e, &args);
    sval *kwv = arena_alloc(S->a, sizeof(sval) * (size_t)(nk + 1));
    const char **kwn = arena_alloc(S->a, sizeof(char *) * (size_t)(nk + 1));
    for (int i = 0; i < nk; i++) {
        kwn[i] = e->kwnames.v[i]->name;
        kwv[i] = sema_expr(S, e->kwvals.v[i]);
    }
    if (e == S->unused_call) check_must_use(S, e, &f);
    switch (f.k) {
    /* a libdevice function carries its name in .s (sema_libdevice.c) */
    case V_BUILTIN: return sema_call_builtin(S, e, (int)f.i, f.s ? &f : NULL, args, n, kwn, kwv, nk);
    case V_METHOD: return sema_call_builtin(S, e, (int)f.i, f.self, args, n, kwn, kwv, nk);
    case V_FUNC: {
        if (f.self) {   /* a prelude function as a tensor method (x.softmax()): self first */
            sval *a2 = arena_alloc(S->a, sizeof(sval) * (size_t)(n + 2));
            a2[0] = *f.self;
            memcpy(a2 + 1, args, sizeof(sval) * (size_t)n);
            args = a2;
            n++;
        }
        return sema_call_jit(S, e, (int)f.i, args, n, kwn, kwv, nk);
    }
    case V_CLASS: return sema_construct(S, e->pos, f.nt, args, n, kwn, kwv, nk);
    case V_DTYPE: sema_error(S, e->pos, "a dtype is not callable; use x.to(%s)", tt_dtype_triton_name(f.dt));
    default: sema_error(S, e->pos, "%s is not callable", sv_describe(S, &f));
    }
}

static bool is_constexpr_annot(sema *S, node *annot)
{
    if (!annot) return false;
    if (annot->kind == E_ATTR && !strcmp(annot->name, "constexpr")) return true;
    if (annot->kind == E_NAME && !strcmp(annot->name, "constexpr")) return true;
    if (annot->kind == E_STR && (!strcmp(annot->name, "tl.constexpr") || !strcmp(annot->name, "constexpr"))) return true;
    (void)S;
    return false;
}

sval sema_call_jit(sema *S, node *call, int fi, sval *args, int nargs, const char **kwn, sval *kwv, int nkw)
{
    return call_inlined(S, call->pos, fi, args, nargs, kwn, kwv, nkw, NULL);
}

/* Inline function fi at pos; self_out: the value the first parameter is
 * bound to when the body ends (a constructor's self). */
static sval call_inlined(sema *S, src_pos pos, int fi, sval *args, int nargs, const char **kwn, sval *kwv, int nkw,
                         sval *self_out)
{
    /* a copy: using a name may load a module and grow the function table */
    funcdef fdv = S->m->funcs.v[fi], *fd = &fdv;
    if (fd->bad) {
        module_reparse(S->m, fi);
        sema_error(S, pos, "helper '%s' (%s) does not parse as kernel code", fd->name, diag_file_name(fd->pos.file));
    }
    for (int d = 0; d < S->depth; d++)
        if (S->inlining[d] == fi) sema_error(S, pos, "'%s' calls itself: recursion is not supported", fd->name);
    if (S->depth >= SEMA_MAX_INLINE)
        sema_error(S, pos, "helper calls nested more than %d deep (a limit of tritium's inliner)", SEMA_MAX_INLINE);
    /* the prelude's __tl_softmax_39 is tl.softmax to the user */
    char name[128];
    const char *nm = strncmp(fd->name, "__tl_", 5) ? fd->name : fd->name + 5;
    snprintf(name, sizeof name, "%s", nm);
    char *us = strrchr(name, '_');
    if (nm != fd->name && us && us[1] == '3' && us[2] && !us[3]) *us = 0;
    int np = fd->nparams;
    sval *vals = arena_alloc(S->a, sizeof(sval) * (size_t)(np + 1));
    bool *has = arena_alloc(S->a, sizeof(bool) * (size_t)(np + 1));
    /* Python's binding (code_generator.py call_JitFunction: signature.bind):
     * positional arguments fill the plain parameters, the rest go to *args
     * (a tuple); keyword-only parameters take keywords only. visit_arguments
     * binds *args from Triton 3.8 and keyword-only parameters from 3.9. */
    int nplain = 0, var = -1;
    for (int i = 0; i < np; i++) {
        if (fd->params[i].kind == PARAM_PLAIN) nplain++;
        else if (fd->params[i].kind == PARAM_VARARGS) var = i;
    }
    int ver = front_triton_version();
    for (int i = 0; i < np; i++) {
        if (fd->params[i].kind == PARAM_VARARGS && ver < 8)
            sema_error(S, pos, "%s(): *%s parameters of jit functions are bound from Triton 3.8 (tritium follows "
                       "Triton 3.%d: TRITIUM_TRITON_VERSION)", fd->name, fd->params[i].name, ver);
        if (fd->params[i].kind == PARAM_KWONLY && ver < 9)
            sema_error(S, pos, "%s(): keyword-only parameters of jit functions ('%s') are bound from Triton 3.9 "
                       "(tritium follows Triton 3.%d: TRITIUM_TRITON_VERSION)", fd->name, fd->params[i].name, ver);
    }
    if (nargs > nplain && var < 0)
        sema_error(S, pos, "%s() takes %d positional arguments but %d were given", name, nplain, nargs);
    for (int i = 0; i < nargs && i < nplain; i++) vals[i] = args[i], has[i] = true;
    if (var >= 0) {
        sval t = { .k = V_TUPLE, .n = 0, .v = -1 };
        t.items = arena_alloc(S->a, sizeof(sval) * (size_t)(nargs + 1));
        for (int i = nplain; i < nargs; i++) t.items[t.n++] = args[i];
        vals[var] = t;
        has[var] = true;
    }
    for (int k = 0; k < nkw; k++) {
        int j = 0;
        while (j < np && (strcmp(fd->params[j].name, kwn[k]) || fd->params[j].kind == PARAM_VARARGS)) j++;
        if (j == np) sema_error(S, pos, "%s() got an unexpected keyword argument '%s'", name, kwn[k]);
        if (has[j]) sema_error(S, pos, "%s() got multiple values for argument '%s'", name, kwn[k]);
        vals[j] = kwv[k];
        has[j] = true;
    }
    /* defaults are evaluated with the module's globals only */
    scope callee = {0}, *saved = S->sc;
    S->sc = &callee;
    int saved_unit = S->unit;
    S->unit = fd->unit;
    for (int i = 0; i < np; i++) {
        if (!has[i]) {
            if (!fd->params[i].def)
                sema_error(S, pos, "%s() missing required argument '%s'", name, fd->params[i].name);
            bool pg = S->plain_globals;
            S->plain_globals = true;   /* Triton evaluates defaults in Python: any global */
            vals[i] = sema_expr(S, fd->params[i].def);
            S->plain_globals = pg;
        }
    }
    for (int i = 0; i < np; i++) sema_bind(S, fd->params[i].name, vals[i]);
    /* the callee's code gets locations inlined at this call site */
    int32_t saved_caller = S->caller_loc;
    const char *saved_func = S->func_name;
    int saved_cf = S->runtime_cf;
    sema_setloc(S, pos);
    S->caller_loc = S->b.loc;
    S->func_name = fd->name;
    S->runtime_cf = 0;
    node_list *saved_tail = S->tail;
    int saved_loops = S->loops;
    S->tail = &fd->body;
    S->loops = 0;
    S->inlining[S->depth++] = fi;
    S->returned = false;
    S->ret = sv_none();
    sema_block(S, &fd->body);
    sval r = S->ret;
    if (self_out)
        for (int i = S->sc->n - 1; i >= 0; i--)
            if (!strcmp(S->sc->v[i].name, fd->params[0].name)) {
                *self_out = S->sc->v[i].val;
                break;
            }
    S->returned = false;
    S->depth--;
    S->tail = saved_tail;
    S->loops = saved_loops;
    S->runtime_cf = saved_cf;
    S->caller_loc = saved_caller;
    S->func_name = saved_func;
    S->sc = saved;
    S->unit = saved_unit;
    (void)is_constexpr_annot;
    return r;
}

/* ---- expressions ---- */

/* t[a:b:c] with constexpr (or None) bounds, as Python slices a tuple
 * (core.py tuple.__getitem__ with a slice): a plain tuple. */
static sval tuple_slice(sema *S, node *sl, sval t)
{
    int64_t b[3];
    bool given[3];
    node *parts[3] = { sl->a, sl->b, sl->c };
    for (int k = 0; k < 3; k++) {
        sval v = parts[k] ? sema_expr(S, parts[k]) : sv_none();
        given[k] = v.k != V_NONE;
        if (given[k] && v.k != V_INT && v.k != V_BOOL)
            sema_error(S, parts[k]->pos, "tuple slice bounds must be constexpr integers or None, got %s", sv_describe(S, &v));
        b[k] = v.i;
    }
    int64_t n = t.n, step = given[2] ? b[2] : 1;
    if (step == 0) sema_error(S, sl->pos, "slice step cannot be zero");
    if (step > n + 1) step = n + 1;        /* a larger step takes the same one item; no overflow below */
    if (step < -n - 1) step = -n - 1;
    /* PySlice_AdjustIndices */
    int64_t lo = step < 0 ? -1 : 0, hi = step < 0 ? n - 1 : n;
    int64_t start = step < 0 ? hi : lo, stop = step < 0 ? lo : hi;
    for (int k = 0; k < 2; k++) {
        if (!given[k]) continue;
        int64_t x = b[k];
        if (x < 0) x = x + n < lo ? lo : x + n;
        else if (x > hi) x = hi;
        if (k == 0) start = x;
        else stop = x;
    }
    sval r = { .k = V_TUPLE, .v = -1 };
    r.items = arena_alloc(S->a, sizeof(sval) * (size_t)(n + 1));
    for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step) r.items[r.n++] = t.items[i];
    return r;
}

static sval eval_subscript(sema *S, node *e)
{
    sval base = sema_expr(S, e->a);
    if (sv_is_aggregate(&base)) {   /* a jit __getitem__, else not subscriptable */
        sval m;
        if (!aggregate_method(S, e->pos, base.nt, &base, "__getitem__", &m))
            sema_error(S, e->pos, "'%s' object is not subscriptable", base.nt->tname);
        if (e->items.n != 1 || e->items.v[0]->kind == E_SLICE)
            sema_error(S, e->pos, "%s.__getitem__ takes one index", base.nt->tname);
        sval args[2] = { base, sema_expr(S, e->items.v[0]) };
        return sema_call_jit(S, e, (int)m.i, args, 2, NULL, NULL, 0);
    }
    if (base.k == V_TUPLE) {
        if (e->items.n != 1) sema_error(S, e->pos, "tuple indices must be a single integer");
        if (e->items.v[0]->kind == E_SLICE) return tuple_slice(S, e->items.v[0], base);
        sval i = sema_expr(S, e->items.v[0]);
        if (i.k != V_INT) sema_error(S, e->pos, "tuple indices must be constexpr integers");
        int64_t k = i.i < 0 ? i.i + base.n : i.i;
        if (k < 0 || k >= base.n) sema_error(S, e->pos, "tuple index %lld out of range", (long long)i.i);
        return base.items[k];
    }
    if (base.k != V_TENSOR) sema_error(S, e->pos, "%s is not subscriptable", sv_describe(S, &base));
    /* only None and slices whose bounds are all None (core.py tensor.__getitem__):
     * None at position i inserts axis i, ':' is a no-op (so s[None, None, :] on
     * a 0-d s is 1x1; an axis past the rank is expand_dims's error) */
    for (int i = 0; i < e->items.n; i++) {
        node *it = e->items.v[i];
        node *vals[3] = { it, NULL, NULL };
        if (it->kind == E_SLICE) vals[0] = it->a, vals[1] = it->b, vals[2] = it->c;
        for (int k = 0; k < 3; k++) {
            if (!vals[k]) continue;
            sval v = sema_expr(S, vals[k]);
            if (v.k != V_NONE)
                sema_error(S, vals[k]->pos, "unsupported tensor index: %s%s (Triton indexes tensors only with None and ':', "
                           "whose bounds may only be None)", it->kind == E_SLICE ? "slice bound " : "", sv_describe(S, &v));
        }
    }
    int dim = 0;
    for (int i = 0; i < e->items.n; i++, dim++)
        if (e->items.v[i]->kind != E_SLICE) base = sema_expand_dims(S, e->items.v[i]->pos, base, dim);
    return base;
}

static sval expr_value(sema *S, node *e);

/* Tuples are unrolled at compile time; this caps what `t * n` can build. */
#define SEMA_MAX_TUPLE 65536

/* tuple + tuple concatenates, tuple * n repeats (core.py tuple.__add__,
 * __mul__ with a constexpr n); other operators on tuples are errors. */
/* a OP b where one side is an aggregate: its @triton.jit __add__ & co.
 * (Triton 3.9 code_generator.py _apply_binary_method: an aggregate operand
 * outranks tensors and constexprs; the left one's method first, then the
 * right one's reflected method). False when neither has one. */
static bool aggregate_binop(sema *S, src_pos p, const char *op, sval a, sval b, sval *out)
{
    static const char *const tab[][3] = {
        { "+", "__add__", "__radd__" }, { "-", "__sub__", "__rsub__" }, { "*", "__mul__", "__rmul__" },
        { "/", "__truediv__", "__rtruediv__" }, { "//", "__floordiv__", "__rfloordiv__" },
        { "%", "__mod__", "__rmod__" }, { "**", "__pow__", "__rpow__" }, { "<<", "__lshift__", "__rlshift__" },
        { ">>", "__rshift__", "__rrshift__" }, { "&", "__and__", "__rand__" }, { "|", "__or__", "__ror__" },
        { "^", "__xor__", "__rxor__" }, { "==", "__eq__", "__eq__" }, { "!=", "__ne__", "__ne__" },
        { "<", "__lt__", "__gt__" }, { "<=", "__le__", "__ge__" }, { ">", "__gt__", "__lt__" },
        { ">=", "__ge__", "__le__" },
    };
    bool aa = sv_is_aggregate(&a), ba = sv_is_aggregate(&b);
    if (!aa && !ba) return false;
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++) {
        if (strcmp(tab[i][0], op)) continue;
        sval m;
        if (aa && aggregate_method(S, p, a.nt, &a, tab[i][1], &m)) {
            sval args[2] = { a, b };
            *out = sema_call_jit(S, &(node){ .kind = E_CALL, .pos = p }, (int)m.i, args, 2, NULL, NULL, 0);
            return true;
        }
        if (ba && aggregate_method(S, p, b.nt, &b, tab[i][2], &m)) {
            sval args[2] = { b, a };
            *out = sema_call_jit(S, &(node){ .kind = E_CALL, .pos = p }, (int)m.i, args, 2, NULL, NULL, 0);
            return true;
        }
    }
    sema_error(S, p, "unsupported operand type(s) for %s: '%s' and '%s'", op,
               aa ? a.nt->tname : sv_describe(S, &a), ba ? b.nt->tname : sv_describe(S, &b));
}

static sval tuple_binop(sema *S, src_pos p, const char *op, sval a, sval b)
{
    sval r;
    if (aggregate_binop(S, p, op, a, b, &r)) return r;
    int64_t reps = 1;
    if (!strcmp(op, "+") && a.k == V_TUPLE && b.k == V_TUPLE) {
    } else if (!strcmp(op, "*") && a.k == V_TUPLE && (b.k == V_INT || b.k == V_BOOL)) {
        reps = b.i < 0 ? 0 : b.i;
        b.n = 0;
    } else {
        sema_error(S, p, "unsupported operand types for %s: %s and %s", op, sv_describe(S, &a), sv_describe(S, &b));
    }
    if ((int64_t)a.n * reps + b.n > SEMA_MAX_TUPLE)
        sema_error(S, p, "a tuple of more than %d items", SEMA_MAX_TUPLE);
    sval t = { .k = V_TUPLE, .n = (int)(a.n * reps + b.n), .v = -1 };
    t.items = arena_alloc(S->a, sizeof(sval) * (size_t)(t.n + 1));
    for (int64_t r = 0; r < reps; r++) memcpy(t.items + r * a.n, a.items, sizeof(sval) * (size_t)a.n);
    if (b.n) memcpy(t.items + reps * a.n, b.items, sizeof(sval) * (size_t)b.n);
    return t;
}


/* One comparison of a (possibly chained) E_COMPARE e on values a and b. */
static sval compare(sema *S, node *e, sval a, sval b)
{
    if (!strcmp(e->op, "in") || !strcmp(e->op, "not in")) {
        if (b.k != V_TUPLE) sema_error(S, e->pos, "'in' needs a constexpr tuple on the right");
        bool found = false;
        for (int i = 0; i < b.n && !found; i++) {
            sval r = sema_binop(S, e->pos, "==", a, b.items[i]);
            if (r.k == V_TENSOR) sema_error(S, e->pos, "'in' works only on constexprs");
            found = r.i != 0;
        }
        return sv_bool(found == !strcmp(e->op, "in"));
    }
    sval r;
    if (strncmp(e->op, "is", 2) && aggregate_binop(S, e->pos, e->op, a, b, &r)) return r;
    return sema_binop(S, e->pos, e->op, a, b);
}

/* A comprehension's tuple target bound to v, unpacked (Triton 3.9
 * _sanitize_target_value(sanitize_leaf=False) + assignTarget). */
static void bind_target(sema *S, node *t, sval v)
{
    if (t->kind == E_NAME) {
        sema_bind(S, t->name, v);
        return;
    }
    if (v.k != V_TUPLE) sema_error(S, t->pos, "cannot unpack %s", sv_describe(S, &v));
    if (v.n != t->items.n) sema_error(S, t->pos, "cannot unpack %d values into %d targets", v.n, t->items.n);
    for (int i = 0; i < v.n; i++) bind_target(S, t->items.v[i], v.items[i]);
}

sval sema_expr(sema *S, node *e)
{
    return sema_check_tile(S, e->pos, expr_value(S, e));
}

static sval expr_value(sema *S, node *e)
{
    switch (e->kind) {
    case E_INT:
        if (e->big) sema_error(S, e->pos, "integer literal too large");
        return sv_int(e->ival);
    case E_FLOAT: return sv_float(e->fval);
    case E_STR: return (sval){ .k = V_STR, .s = e->name, .v = -1 };
    case E_TRUE: return sv_bool(true);
    case E_FALSE: return sv_bool(false);
    case E_NONE: return sv_none();
    case E_NAME: return lookup_name(S, e);
    case E_ATTR: {
        sval base = sema_expr(S, e->a);
        sval out;
        if (base.k == V_MODULE) {
            const char *why = NULL;
            if (module_attr(S, e->pos, base, e->name, &out, &why)) return out;
            if (base.i < MOD_USER && sema_triton_defines((int)base.i, e->name))
                sema_error(S, e->pos, "tritium does not support %s.%s yet", base.i == MOD_LIBDEVICE ? "libdevice" :
                           base.i == MOD_MATH ? "tl.math" : "tl", e->name);
            if (base.i < MOD_USER)
                sema_error(S, e->pos, "'%s' is not supported (no such function or dtype in this module)", e->name);
            sema_error(S, e->pos, "module '%s' has no attribute '%s': %s", S->m->units.v[base.i - MOD_USER].name, e->name,
                       why ? why : "not found");
        }
        if (sema_attr(S, e->pos, base, e->name, &out)) return out;
        sema_error(S, e->pos, "%s has no attribute '%s'", sv_describe(S, &base), e->name);
    }
    case E_CALL: return eval_call(S, e);
    case E_SUBSCRIPT: return eval_subscript(S, e);
    case E_SLICE: sema_error(S, e->pos, "':' is only allowed inside a subscript");
    case E_STARRED: sema_error(S, e->pos, "a starred expression (*x) is only supported among a call's arguments");
    case E_BINOP: {
        sval a = sema_expr(S, e->a), b = sema_expr(S, e->b);
        if (a.k == V_TUPLE || b.k == V_TUPLE) return tuple_binop(S, e->pos, e->op, a, b);
        return sema_binop(S, e->pos, e->op, a, b);
    }
    case E_UNARY: {
        sval a = sema_expr(S, e->a);
        if (sv_is_aggregate(&a)) {
            /* 3.9 code_generator.py visit_UnaryOp: the operand's jit __neg__ & co. */
            const char *mn = !strcmp(e->op, "-") ? "__neg__" : !strcmp(e->op, "+") ? "__pos__"
                           : !strcmp(e->op, "~") ? "__invert__" : "__not__";
            sval m;
            bool found = aggregate_method(S, e->pos, a.nt, &a, mn, &m);
            if (!found && !strcmp(mn, "__not__")) return sv_bool(false);   /* `not` of an object */
            if (!found)
                sema_error(S, e->pos, "AST unary operator '%s' is not (currently) implemented on type %s", mn,
                           a.nt->tname);
            return sema_call_jit(S, e, (int)m.i, &a, 1, NULL, NULL, 0);
        }
        return sema_unop(S, e->pos, e->op, a);
    }
    case E_BOOLOP: {
        sval a = sema_expr(S, e->a);
        bool is_and = !strcmp(e->op, "and");
        if (a.k != V_TENSOR) {
            /* constexpr short-circuit */
            bool t = sv_truthy(S, e->pos, &a);
            if (is_and ? !t : t) return a;
            return sema_expr(S, e->b);
        }
        sval b = sema_expr(S, e->b);
        a = sema_cast(S, e->pos, a, TT_BOOL, 0, false);
        b = sema_cast(S, e->pos, b, TT_BOOL, 0, false);
        return sema_binop(S, e->pos, is_and ? "&" : "|", a, b);
    }
    case E_COMPARE: {
        sval a = sema_expr(S, e->a), b = sema_expr(S, e->b);
        if (!e->c) return compare(S, e, a, b);
        /* a chain: Triton 3.9's visit_Compare, `a < b and b < c` with b
         * evaluated once and _apply_boolean_values' short-circuit (a
         * constexpr False ends it; constexpr Trues drop out) */
        int v = front_triton_version();
        if (v < 9)
            sema_error(S, e->pos, "simultaneous multiple comparison is not supported (chained comparisons came in Triton "
                       "3.9; tritium follows Triton 3.%d: TRITIUM_TRITON_VERSION)", v);
        sval acc = { 0 }, last = { 0 };
        bool have = false;
        for (node *c = e;;) {
            sval r = compare(S, c, a, b);
            last = r;
            if (r.k == V_TENSOR) {
                r = sema_cast(S, e->pos, r, TT_BOOL, 0, false);
                acc = have ? sema_binop(S, e->pos, "&", acc, r) : r;
                have = true;
            } else if (!sv_truthy(S, c->pos, &r)) {
                return r;
            }
            if (!(c = c->c)) break;
            a = b;
            b = sema_expr(S, c->b);
        }
        return have ? acc : last;
    }
    case E_NAMEDEXPR: {
        int v = front_triton_version();
        if (v < 8)
            sema_error(S, e->pos, "unsupported AST node type: NamedExpr (the walrus operator came in Triton 3.8; tritium "
                       "follows Triton 3.%d: TRITIUM_TRITON_VERSION)", v);
        return sema_named_expr(S, e, sema_expr(S, e->a));
    }
    case E_IFEXP: {
        sval c = sema_expr(S, e->b);
        if (c.k != V_TENSOR) return sema_expr(S, sv_truthy(S, e->pos, &c) ? e->a : e->c);
        return sema_ternary(S, e, c);
    }
    case E_TUPLE:
    case E_LIST: {
        sval t = { .k = V_TUPLE, .n = e->items.n, .v = -1 };
        t.items = arena_alloc(S->a, sizeof(sval) * (size_t)(t.n + 1));
        for (int i = 0; i < t.n; i++) t.items[i] = sema_expr(S, e->items.v[i]);
        return t;
    }
    case E_LISTCOMP: {
        /* unrolled at compile time; the target stays bound afterwards, as
         * Triton's set_value leaves it (code_generator.py, visit_ListComp) */
        sval it = sema_expr(S, e->c);
        if (it.k != V_TUPLE)
            sema_error(S, e->c->pos, "only comprehensions over tuples are supported (got %s)", sv_describe(S, &it));
        /* Triton 3.9 assigns a tuple target and keeps the items whose `if`
         * filters (constexprs) all hold; 3.6-3.8 read comp.target.id and
         * ignore the filters */
        int ver = front_triton_version();
        if (ver < 9 && e->b)
            sema_error(S, e->b->pos, "a comprehension's target must be one name before Triton 3.9 (tritium follows "
                       "Triton 3.%d: TRITIUM_TRITON_VERSION)", ver);
        if (ver < 9 && e->items.n)
            sema_error(S, e->items.v[0]->pos, "'if' in a comprehension is not supported (Triton 3.%d ignores it; 3.9 "
                       "applies it; tritium follows Triton 3.%d: TRITIUM_TRITON_VERSION)", ver, ver);
        sval t = { .k = V_TUPLE, .n = 0, .v = -1 };
        t.items = arena_alloc(S->a, sizeof(sval) * (size_t)(it.n + 1));
        for (int i = 0; i < it.n; i++) {
            if (e->b) bind_target(S, e->b, it.items[i]);
            else sema_bind(S, e->name, it.items[i]);
            bool keep = true;
            for (int k = 0; k < e->items.n && keep; k++) {
                sval c = sema_expr(S, e->items.v[k]);
                if (c.k == V_TENSOR)
                    sema_error(S, e->items.v[k]->pos, "a comprehension's 'if' must be a constexpr (got %s)", sv_describe(S, &c));
                keep = sv_truthy(S, e->items.v[k]->pos, &c);
            }
            if (keep) t.items[t.n++] = sema_expr(S, e->a);
        }
        return t;
    }
    case E_FSTRING: {
        /* fields must be constexprs (code_generator.py, visit_JoinedStr) */
        strbuf b = {0};
        for (int i = 0; i < e->items.n; i++) {
            node *it = e->items.v[i];
            if (it->kind == E_STR) {
                sb_puts(&b, it->name);
                continue;
            }
            sval v = sema_expr(S, it->a);
            if (v.k == V_TENSOR || v.k == V_BLOCKPTR || v.k == V_TDESC || v.k == V_FUNC || v.k == V_MODULE ||
                v.k == V_BUILTIN || v.k == V_METHOD) {
                sb_free(&b);
                sema_error(S, it->pos, "cannot evaluate an f-string field that is not a constexpr (got %s)",
                           sv_describe(S, &v));
            }
            sema_py_str(S, &b, &v, it->ival == 'r' || it->ival == 'a');
        }
        sval r = { .k = V_STR, .s = arena_strdup(S->a, b.s ? b.s : ""), .v = -1 };
        sb_free(&b);
        return r;
    }
    case E_DICT:
        sema_error(S, e->pos, "dict literals are not supported in kernels");
    default:
        sema_error(S, e->pos, "unsupported expression");
    }
}
