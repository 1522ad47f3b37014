/* live.c — a module built from what Python has: the kernel and every jit
 * function it reaches, each with its current source (JITFunction.src) and
 * the value of each free name in it as the running program resolved it (the
 * function's __globals__, then its closure), written as JSON by the Python
 * entry point (python/tritium/_resolve.py, which documents the format) or
 * read back from a recorded launch. Nothing is re-read from files: names
 * resolve the way Triton 3.6's code generator resolves them
 * (compiler/code_generator.py, CodeGenerator._define_name_lookup). */
#include "front_int.h"
#include "tritium/limits.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#define LIVE_FORMAT "tritium-live-module"
#define LIVE_VERSION 1
/* A def's line in its file; more lines than this is not a real file. */
#define LIVE_MAX_LINE 10000000

static bool fail(const char *name, const char *what)
{
    diag_error(((src_pos){ -1, 0, 0 }), "%s: not a tritium live module: %s", name, what);
    return false;
}

/* @triton.jit(do_not_specialize=[i, ...]) as a decorator node, so that
 * front_params reads it as it reads a file's decorator. */
static void nospec_decorator(front_module *m, funcdef *f, json_t *list)
{
    if (!json_is_array(list) || !json_array_size(list)) return;
    node *call = arena_alloc(&m->mem, sizeof *call), *fn = arena_alloc(&m->mem, sizeof *fn);
    node *kw = arena_alloc(&m->mem, sizeof *kw), *l = arena_alloc(&m->mem, sizeof *l);
    *fn = (node){ .kind = E_NAME, .name = "jit" };
    *kw = (node){ .kind = E_NAME, .name = "do_not_specialize" };
    *l = (node){ .kind = E_LIST };
    size_t n = json_array_size(list);
    l->items.v = arena_alloc(&m->mem, sizeof(node *) * n);
    for (size_t i = 0; i < n; i++) {
        node *x = arena_alloc(&m->mem, sizeof *x);
        *x = (node){ .kind = E_INT, .ival = json_integer_value(json_array_get(list, i)) };
        l->items.v[l->items.n++] = x;
    }
    *call = (node){ .kind = E_CALL, .a = fn };
    call->kwnames.v = arena_alloc(&m->mem, sizeof(node *));
    call->kwvals.v = arena_alloc(&m->mem, sizeof(node *));
    call->kwnames.v[0] = kw;
    call->kwvals.v[0] = l;
    call->kwnames.n = call->kwvals.n = 1;
    f->decorators.v = arena_alloc(&m->mem, sizeof(node *));
    f->decorators.v[0] = call;
    f->decorators.n = 1;
}

/* One function of the JSON: its source as a unit of its own, placed at its
 * line in its file (blank lines before it) so that diagnostics and
 * breakpoints use the file's line numbers. A helper that does not parse is
 * kept as `bad`, diagnosed when it is called (as module.c does); the kernel
 * must parse. */
static bool add_function(front_module *m, const char *name, json_t *jf, bool kernel)
{
    const char *src = json_string_value(json_object_get(jf, "src"));
    const char *file = json_string_value(json_object_get(jf, "file"));
    json_t *jl = json_object_get(jf, "line");
    json_int_t line = json_is_integer(jl) ? json_integer_value(jl) : 1;
    if (!src || !file || line < 1 || line > LIVE_MAX_LINE)
        return fail(name, "a function needs \"src\", \"file\" and a \"line\" in 1..10^7");
    if ((int64_t)strlen(src) + line > tt_limit(TT_LIM_SOURCE_BYTES)) {
        char *why = tt_limit_exceeded(TT_LIM_SOURCE_BYTES);
        fail(name, why);
        free(why);
        return false;
    }
    char *text = xmalloc((size_t)line + strlen(src) + 1);
    memset(text, '\n', (size_t)line - 1);
    strcpy(text + line - 1, src);
    int u = module_add_unit(m, "", file, NULL, false, text);
    free(text);
    m->units.v[u].live = json_object_get(jf, "names");
    const struct unit *un = &m->units.v[u];
    parser P = { .a = &m->mem, .file = un->file, .toks = un->lx.toks, .ntoks = un->lx.ntoks };
    while (P.i < P.ntoks && P.toks[P.i].kind != TK_EOF && !tok_is_name(&P.toks[P.i], "def")) P.i++;
    if (P.i >= P.ntoks || P.toks[P.i].kind == TK_EOF) return fail(name, "a function's \"src\" has no `def`");
    funcdef f = { .is_jit = true, .unit = u, .tok = P.i };
    if (kernel) {
        int errs = diag_error_count();
        if (!parse_funcdef(&P, &f) || diag_error_count() != errs) return false;
    } else {
        module_parse_helper(m, &P, &f);
    }
    nospec_decorator(m, &f, json_object_get(jf, "do_not_specialize"));
    json_t *mur = json_object_get(jf, "must_use_result");      /* the JITFunction's _must_use_result */
    if (json_is_string(mur)) f.must_use = arena_strdup(&m->mem, json_string_value(mur));
    else if (json_is_true(mur)) f.must_use = "";
    vec_push(&m->funcs, f);
    return true;
}

front_module *front_load_live(const char *name, const char *text)
{
    json_error_t err;
    json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &err);
    if (!root) {
        diag_error(((src_pos){ -1, 0, 0 }), "%s:%d:%d: error: not valid JSON: %s", name, err.line, err.column, err.text);
        return NULL;
    }
    json_t *fns = json_object_get(root, "functions"), *mods = json_object_get(root, "modules");
    const char *fmt = json_string_value(json_object_get(root, "format"));
    if (!fmt || strcmp(fmt, LIVE_FORMAT) || json_integer_value(json_object_get(root, "version")) != LIVE_VERSION) {
        fail(name, "\"format\" must be \"" LIVE_FORMAT "\", \"version\" 1");
        json_decref(root);
        return NULL;
    }
    if (!json_is_array(fns) || !json_array_size(fns) || (mods && !json_is_array(mods))) {
        fail(name, "\"functions\" must be a non-empty array (the kernel first), \"modules\" an array");
        json_decref(root);
        return NULL;
    }
    front_module *m = xcalloc(1, sizeof *m);
    m->live_root = root;
    size_t nf = json_array_size(fns);
    bool ok = add_function(m, name, json_array_get(fns, 0), true);
    if (ok) {
        m->file = m->units.v[0].file;
        m->lx = m->units.v[0].lx;
        m->nuser = 1;
        module_add_prelude(m);
    }
    /* function k of the JSON is funcs.v[live_func0 + k - 1] for k >= 1 */
    m->live_func0 = m->funcs.n;
    for (size_t k = 1; ok && k < nf; k++) ok = add_function(m, name, json_array_get(fns, k), false);
    m->live_mod0 = m->units.n;
    for (size_t k = 0; ok && mods && k < json_array_size(mods); k++) {
        json_t *jm = json_array_get(mods, k);
        const char *mname = json_string_value(json_object_get(jm, "name"));
        if (!mname) ok = fail(name, "a module needs a \"name\"");
        else {
            int u = module_add_unit(m, mname, mname, NULL, false, "");   /* may move m->units.v */
            m->units.v[u].live = json_object_get(jm, "names");
        }
    }
    m->live_nfuncs = (int)nf;
    if (!ok) {
        front_module_free(m);
        return NULL;
    }
    return m;
}

/* ---- values ---- */

static sval live_value(sema *S, src_pos p, const char *name, json_t *v);

static int func_index(sema *S, src_pos p, json_int_t k)
{
    front_module *m = S->m;
    if (k < 0 || k >= m->live_nfuncs) sema_error(S, p, "live module: function %lld out of range", (long long)k);
    return k == 0 ? 0 : m->live_func0 + (int)k - 1;
}

/* {"k": "class"|"tuple", "class": T, "fields": [...], "defaults": [V|null]}:
 * a named tuple class (defaults: scalars, as Python evaluated them); with
 * "aggregate": true, a @triton.aggregate class (Triton 3.8+): "defaults"
 * any values, "ann" the annotation kind of each field ("tensor",
 * "constexpr", "tuple" or null), "methods" {NAME: V} (a jit function, or an
 * error entry saying what else it is), "init" a user-defined __init__'s
 * description (null: the generated one). One class per JSON entry, so that
 * every use of the name is the same class. */
static const ntclass *live_class(sema *S, src_pos p, const char *name, json_t *v)
{
    front_module *m = S->m;
    for (int i = 0; i < m->classes.n; i++)
        if (m->classes.v[i]->live == v) return m->classes.v[i];
    json_t *fields = json_object_get(v, "fields"), *defs = json_object_get(v, "defaults");
    const char *tname = json_string_value(json_object_get(v, "class"));
    if (!tname || !json_is_array(fields)) return NULL;
    ntclass *k = arena_alloc(&m->mem, sizeof *k);
    size_t n = json_array_size(fields);
    *k = (ntclass){ .name = arena_strdup(&m->mem, name), .tname = arena_strdup(&m->mem, tname), .unit = S->unit,
                    .pos = p, .n = (int)n, .live = v, .aggregate = json_is_true(json_object_get(v, "aggregate")) };
    k->fields = arena_alloc(&m->mem, sizeof(char *) * (n + 1));
    for (size_t i = 0; i < n; i++) {
        const char *f = json_string_value(json_array_get(fields, i));
        k->fields[i] = arena_strdup(&m->mem, f ? f : "?");
    }
    if (!json_is_array(defs) || json_array_size(defs) != n) k->live = NULL;
    if (k->aggregate) {
        json_t *ann = json_object_get(v, "ann"), *meths = json_object_get(v, "methods");
        k->ann = arena_alloc(&m->mem, n + 1);
        for (size_t i = 0; i < n; i++) {
            k->ann[i] = module_ann_kind(json_string_value(json_array_get(ann, i)));
        }
        const char *init = json_string_value(json_object_get(v, "init"));
        if (init) k->init_why = arena_strdup(&m->mem, init);
        json_t *initf = json_object_get(v, "init_func");       /* a user-defined __init__ to run */
        if (json_is_integer(initf)) k->init_fi = 1 + func_index(S, p, json_integer_value(initf));
        size_t nm = json_is_object(meths) ? json_object_size(meths) : 0;
        k->mnames = arena_alloc(&m->mem, sizeof(char *) * (nm + 1));
        k->mfuncs = arena_alloc(&m->mem, sizeof(int) * (nm + 1));
        k->mwhy = arena_alloc(&m->mem, sizeof(char *) * (nm + 1));
        const char *mname;
        json_t *mv;
        json_object_foreach(meths, mname, mv) {
            const char *kind = json_string_value(json_object_get(mv, "k"));
            int i = k->nm++;
            k->mnames[i] = arena_strdup(&m->mem, mname);
            k->mfuncs[i] = -1;
            k->mwhy[i] = NULL;
            if (kind && !strcmp(kind, "func")) k->mfuncs[i] = func_index(S, p, json_integer_value(json_object_get(mv, "v")));
            else k->mwhy[i] = arena_strdup(&m->mem, json_string_value(json_object_get(mv, "v")) ?
                                                    json_string_value(json_object_get(mv, "v")) : "not a @triton.jit function");
        }
    }
    vec_push(&m->classes, k);
    return k;
}

bool live_class_default(sema *S, src_pos p, const ntclass *k, int f, sval *out)
{
    json_t *d = json_array_get(json_object_get((json_t *)k->live, "defaults"), (size_t)f);
    if (!d || json_is_null(d)) return false;
    *out = live_value(S, p, k->fields[f], d);
    return true;
}

/* One entry of a names table (the format: python/tritium/_resolve.py). */
static sval live_value(sema *S, src_pos p, const char *name, json_t *v)
{
    const char *k = json_string_value(json_object_get(v, "k"));
    json_t *x = json_object_get(v, "v");
    if (!k) sema_error(S, p, "live module: the entry for '%s' has no kind", name);
    const char *refuse = json_string_value(json_object_get(v, "refuse"));
    if (refuse && !S->plain_globals) sema_error(S, p, "%s", refuse);   /* Triton reads it only in a default */
    if (!strcmp(k, "error")) sema_error(S, p, "%s", json_string_value(x) ? json_string_value(x) : name);
    if (!strcmp(k, "none")) return sv_none();
    if (!strcmp(k, "bool")) return sv_bool(json_is_true(x));
    if (!strcmp(k, "int")) return sv_int(json_integer_value(x));
    if (!strcmp(k, "float")) return sv_float(strtod(json_string_value(x) ? json_string_value(x) : "nan", NULL));
    if (!strcmp(k, "str")) return (sval){ .k = V_STR, .s = arena_strdup(S->a, json_string_value(x) ? json_string_value(x) : ""), .v = -1 };
    if (!strcmp(k, "dtype")) {
        tt_dtype d;
        if (!json_string_value(x) || !tt_dtype_parse(json_string_value(x), &d))
            sema_error(S, p, "'%s' is dtype %s, which tritium does not support", name, json_string_value(x) ? json_string_value(x) : "?");
        return sv_dtype(d, TT_BOOL);
    }
    if (!strcmp(k, "func")) return (sval){ .k = V_FUNC, .i = func_index(S, p, json_integer_value(x)), .v = -1 };
    if (!strcmp(k, "module")) {
        if (json_is_integer(x)) {
            json_int_t i = json_integer_value(x);
            if (i < 0 || S->m->live_mod0 + i >= S->m->units.n) sema_error(S, p, "live module: module %lld out of range", (long long)i);
            return (sval){ .k = V_MODULE, .i = MOD_USER + S->m->live_mod0 + i, .v = -1 };
        }
        const char *why = NULL;
        sval out;
        if (!sema_module_by_name(S, json_string_value(x) ? json_string_value(x) : "", &out, &why))
            sema_error(S, p, "'%s' is module %s: %s", name, json_string_value(x), why ? why : "not supported");
        return out;
    }
    if (!strcmp(k, "triton")) {    /* a Triton function or object, by its module and name */
        const char *mod = json_string_value(json_object_get(v, "module")), *attr = json_string_value(json_object_get(v, "attr"));
        const char *why = NULL;
        sval mv, out;
        if (!mod || !attr || !sema_module_by_name(S, mod, &mv, &why) || !sema_attr(S, p, mv, attr, &out))
            sema_error(S, p, "'%s' is %s.%s, which tritium does not support in kernels yet", name, mod ? mod : "?",
                       attr ? attr : "?");
        return out;
    }
    if (!strcmp(k, "builtin")) {
        sval out;
        if (!sema_python_builtin(json_string_value(x) ? json_string_value(x) : "", &out))
            sema_error(S, p, "'%s' is Python's %s, which kernels cannot call", name, json_string_value(x));
        return out;
    }
    if (!strcmp(k, "class")) {
        const ntclass *c = live_class(S, p, name, v);
        if (!c) sema_error(S, p, "live module: malformed class entry for '%s'", name);
        return (sval){ .k = V_CLASS, .nt = c, .v = -1 };
    }
    if (!strcmp(k, "tuple")) {
        if (!json_is_array(x)) sema_error(S, p, "live module: malformed tuple entry for '%s'", name);
        size_t n = json_array_size(x);
        if (n > 4096) sema_error(S, p, "'%s' is a tuple of %zu elements; tritium takes at most 4096", name, n);
        sval t = { .k = V_TUPLE, .n = (int)n, .v = -1 };
        t.items = arena_alloc(S->a, sizeof(sval) * (n + 1));
        for (size_t i = 0; i < n; i++) t.items[i] = live_value(S, p, name, json_array_get(x, i));
        if (json_object_get(v, "class")) t.nt = live_class(S, p, name, v);
        return t;
    }
    sema_error(S, p, "live module: unknown kind '%s' for '%s'", k, name);
}

bool live_name(sema *S, src_pos p, int unit, const char *name, sval *out)
{
    json_t *e = json_object_get((json_t *)S->m->units.v[unit].live, name);
    if (!e) return false;
    int saved = S->unit;
    S->unit = unit;
    *out = live_value(S, p, name, e);
    S->unit = saved;
    return true;
}

void live_free(front_module *m) { json_decref((json_t *)m->live_root); }
