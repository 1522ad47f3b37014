/* sema_expr.c — expressions: names, attributes, calls, subscripts,
 * operators, and calls of @triton.jit helpers (inlined, re-specialized on
 * their constexpr arguments). */
#include "front_int.h"

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

static int find_func(front_module *m, const char *name)
{
    for (int i = m->funcs.n - 1; i >= 0; i--)   /* a later definition wins, as in Python */
        if (!strcmp(m->funcs.v[i].name, name)) return i;
    return -1;
}

static bool module_of_alias(front_module *m, const char *name, int *mod)
{
    static const struct { const char *path; int mod; } mods[] = {
        { "triton", MOD_TRITON }, { "triton.language", MOD_TL }, { "triton.language.math", MOD_MATH },
        { "triton.language.extra", MOD_EXTRA }, { "triton.language.extra.cuda", MOD_CUDA },
        { "triton.language.extra.libdevice", MOD_LIBDEVICE }, { "triton.language.extra.cuda.libdevice", MOD_LIBDEVICE },
    };
    const char *target = NULL;
    for (int i = m->aliases.n - 1; i >= 0 && !target; i--)
        if (!strcmp(m->aliases.v[i].name, name)) target = m->aliases.v[i].target;
    if (!target) {
        /* the conventional names work even without a visible import */
        if (!strcmp(name, "tl")) target = "triton.language";
        else if (!strcmp(name, "triton")) target = "triton";
        else if (!strcmp(name, "libdevice")) target = "triton.language.extra.libdevice";
        else return false;
    }
    for (size_t i = 0; i < TT_COUNTOF(mods); i++) {
        if (!strcmp(mods[i].path, target)) {
            *mod = mods[i].mod;
            return true;
        }
    }
    return false;
}

static sval eval_global(sema *S, src_pos p, global *g);

static sval lookup_name(sema *S, node *e)
{
    sval v;
    if (sema_lookup(S, e->name, &v)) return v;
    front_module *m = S->m;
    int fi = find_func(m, e->name);
    if (fi >= 0) return (sval){ .k = V_FUNC, .i = fi, .v = -1 };
    for (int i = m->globals.n - 1; i >= 0; i--)
        if (!strcmp(m->globals.v[i].name, e->name)) return eval_global(S, e->pos, &m->globals.v[i]);
    int mod;
    if (module_of_alias(m, e->name, &mod)) return (sval){ .k = V_MODULE, .i = mod, .v = -1 };
    if (sema_python_builtin(e->name, &v)) return v;
    sema_error(S, e->pos, "name '%s' is not defined", e->name);
}

static sval eval_global(sema *S, src_pos p, global *g)
{
    if (!g->is_constexpr && !S->plain_globals)
        sema_error(S, p, "global '%s' is not a tl.constexpr; kernels may only use constexpr globals "
                         "(declare it as `%s: tl.constexpr = ...` or `%s = tl.constexpr(...)`)", g->name, g->name, g->name);
    /* evaluate in an empty local scope */
    scope empty = {0}, *saved = S->sc;
    S->sc = &empty;
    sval v = sema_expr(S, g->value);
    S->sc = saved;
    if (v.k == V_TENSOR) sema_error(S, g->pos, "constexpr global '%s' must be a compile-time value", g->name);
    return v;
}

/* ---- calls ---- */

static sval eval_call(sema *S, node *e)
{
    sval f = sema_expr(S, e->a);
    int n = e->items.n, nk = e->kwnames.n;
    sval *args = arena_alloc(S->a, sizeof(sval) * (size_t)(n + 1));
    sval *kwv = arena_alloc(S->a, sizeof(sval) * (size_t)(nk + 1));
    const char **kwn = arena_alloc(S->a, sizeof(char *) * (size_t)(nk + 1));
    for (int i = 0; i < n; i++) args[i] = sema_expr(S, e->items.v[i]);
    for (int i = 0; i < nk; i++) {
        kwn[i] = e->kwnames.v[i]->name;
        kwv[i] = sema_expr(S, e->kwvals.v[i]);
    }
    switch (f.k) {
    case V_BUILTIN: return sema_call_builtin(S, e, (int)f.i, NULL, args, n, kwn, kwv, nk);
    case V_METHOD: return sema_call_builtin(S, e, (int)f.i, f.self, args, n, kwn, kwv, nk);
    case V_FUNC: return sema_call_jit(S, e, (int)f.i, args, n, kwn, kwv, nk);
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
    funcdef *fd = &S->m->funcs.v[fi];
    if (S->depth >= 64) sema_error(S, call->pos, "helper calls nested too deeply (recursion is not supported)");
    int np = fd->nparams;
    sval *vals = arena_alloc(S->a, sizeof(sval) * (size_t)(np + 1));
    bool *has = arena_alloc(S->a, sizeof(bool) * (size_t)(np + 1));
    if (nargs > np) sema_error(S, call->pos, "%s() takes %d arguments but %d were given", fd->name, np, nargs);
    for (int i = 0; i < nargs; i++) vals[i] = args[i], has[i] = true;
    for (int k = 0; k < nkw; k++) {
        int j = 0;
        while (j < np && strcmp(fd->params[j].name, kwn[k])) j++;
        if (j == np) sema_error(S, call->pos, "%s() got an unexpected keyword argument '%s'", fd->name, kwn[k]);
        if (has[j]) sema_error(S, call->pos, "%s() got multiple values for argument '%s'", fd->name, kwn[k]);
        vals[j] = kwv[k];
        has[j] = true;
    }
    /* defaults are evaluated with the module's globals only */
    scope callee = {0}, *saved = S->sc;
    S->sc = &callee;
    for (int i = 0; i < np; i++) {
        if (!has[i]) {
            if (!fd->params[i].def)
                sema_error(S, call->pos, "%s() missing required argument '%s'", fd->name, fd->params[i].name);
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
    sema_setloc(S, call->pos);
    S->caller_loc = S->b.loc;
    S->func_name = fd->name;
    S->runtime_cf = 0;
    S->depth++;
    S->returned = false;
    S->ret = sv_none();
    sema_block(S, &fd->body);
    sval r = S->ret;
    S->returned = false;
    S->depth--;
    S->runtime_cf = saved_cf;
    S->caller_loc = saved_caller;
    S->func_name = saved_func;
    S->sc = saved;
    (void)is_constexpr_annot;
    return r;
}

/* ---- expressions ---- */

static sval eval_subscript(sema *S, node *e)
{
    sval base = sema_expr(S, e->a);
    if (base.k == V_TUPLE) {
        if (e->items.n != 1) sema_error(S, e->pos, "tuple indices must be a single integer");
        sval i = sema_expr(S, e->items.v[0]);
        if (i.k != V_INT) sema_error(S, e->pos, "tuple indices must be constexpr integers");
        int64_t k = i.i < 0 ? i.i + base.n : i.i;
        if (k < 0 || k >= base.n) sema_error(S, e->pos, "tuple index %lld out of range", (long long)i.i);
        return base.items[k];
    }
    if (base.k != V_TENSOR) sema_error(S, e->pos, "%s is not subscriptable", sv_describe(S, &base));
    /* only ':' and None (core.py tensor.__getitem__) */
    int rank = sv_shape(S, &base)->rank, dim = 0;
    int nslices = 0;
    for (int i = 0; i < e->items.n; i++) nslices += e->items.v[i]->kind == E_SLICE;
    if (nslices > rank) sema_error(S, e->pos, "too many ':' for a tensor of rank %d", rank);
    for (int i = 0; i < e->items.n; i++) {
        node *it = e->items.v[i];
        if (it->kind == E_SLICE) {
            dim++;
        } else if (it->kind == E_NONE) {
            base = sema_expand_dims(S, it->pos, base, dim);
            dim++;
        } else {
            sema_error(S, it->pos, "tensor indexing supports only ':' and None (integer indexing is not supported by Triton)");
        }
    }
    return base;
}

sval sema_expr(sema *S, node *e)
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
            if (sema_module_attr(S, (int)base.i, e->name, &out)) return out;
            sema_error(S, e->pos, "'%s' is not supported (no such function or dtype in this module)", e->name);
        }
        if (sema_tensor_attr(S, e->pos, base, e->name, &out)) return out;
        sema_error(S, e->pos, "%s has no attribute '%s'", sv_describe(S, &base), e->name);
    }
    case E_CALL: return eval_call(S, e);
    case E_SUBSCRIPT: return eval_subscript(S, e);
    case E_SLICE: sema_error(S, e->pos, "':' is only allowed inside a subscript");
    case E_BINOP: {
        sval a = sema_expr(S, e->a), b = sema_expr(S, e->b);
        return sema_binop(S, e->pos, e->op, a, b);
    }
    case E_UNARY: return sema_unop(S, e->pos, e->op, sema_expr(S, e->a));
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
        return sema_binop(S, e->pos, e->op, a, b);
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
    case E_DICT:
        sema_error(S, e->pos, "dict literals are not supported in kernels");
    default:
        sema_error(S, e->pos, "unsupported expression");
    }
}
