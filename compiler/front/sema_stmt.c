/* sema_stmt.c — statements and structured control flow: assignment
 * (scalars become tensors), static and runtime if, runtime for/while with
 * loop-carried values (scf.for / scf.while), tl.static_range unrolling,
 * return from helpers; and front_compile, which specializes a kernel. */
#include "sema_builtin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- names assigned in a block (for loop-carried values and if results) ---- */

typedef struct { const char **v; int n, cap; } names;

static bool names_has(const names *ns, const char *name)
{
    for (int i = 0; i < ns->n; i++)
        if (!strcmp(ns->v[i], name)) return true;
    return false;
}

static void names_add(sema *S, names *ns, const char *name)
{
    if (names_has(ns, name)) return;
    if (ns->n == ns->cap) {
        int cap = ns->cap ? ns->cap * 2 : 8;
        const char **nv = arena_alloc(S->a, sizeof *nv * (size_t)cap);
        if (ns->n) memcpy(nv, ns->v, sizeof *nv * (size_t)ns->n);
        ns->v = nv;
        ns->cap = cap;
    }
    ns->v[ns->n++] = name;
}

static void target_names(sema *S, node *t, names *ns)
{
    if (t->kind == E_NAME) names_add(S, ns, t->name);
    else if (t->kind == E_TUPLE || t->kind == E_LIST)
        for (int i = 0; i < t->items.n; i++) target_names(S, t->items.v[i], ns);
}

/* The branch a static if compiles, or NULL for a runtime if; *c receives the
 * condition. An if is static when its condition is not a tensor (a
 * constexpr, None, a dtype, ...): only the taken branch is compiled, the
 * other is dead code (code_generator.py visit_If visits only the branch a
 * constexpr condition takes). The one place sema decides this: exec_if,
 * early_return and the analysis ahead of a construct (static_branch_ahead)
 * all ask here. */
static node_list *static_branch(sema *S, node *s, sval *c)
{
    *c = sema_expr(S, s->a);
    if (c->k == V_TENSOR) return NULL;
    return sv_truthy(S, s->pos, c) ? &s->body : &s->orelse;
}

/* static_branch for an if inside a construct not compiled yet (a loop's
 * body, a runtime if's branches), on the bindings in front of the
 * construct: quietly, leaving no IR behind (what the condition emits goes
 * to a scratch region, and the function is cut back to its size before).
 * NULL for a runtime condition and for one that is an error here (the
 * compilation proper reports it where it is compiled). */
static node_list *static_branch_ahead(sema *S, node *s)
{
    ir_func *f = S->fn;
    int nvalues = f->values.n, nregions = f->regions.n, nlocs = f->locs.n, nstrs = f->strs.n, narrs = f->arrs.n;
    sema saved = *S;    /* S->fail and every other field, whatever state an error leaves them in */
    FILE *null = fopen("/dev/null", "w");
    FILE *old = diag_set_stream(null);
    node_list *volatile taken = NULL;
    S->b.region = ir_new_region(f, 0, NULL);
    if (!setjmp(S->fail)) {
        sval c;
        taken = static_branch(S, s, &c);
    }
    diag_set_stream(old);
    if (null) fclose(null);
    for (int r = nregions; r < f->regions.n; r++) free(f->regions.v[r].ops);
    f->regions.n = nregions;
    f->values.n = nvalues;
    f->locs.n = nlocs;
    f->strs.n = nstrs;
    f->arrs.n = narrs;
    *S = saved;
    return taken;
}

/* Does expression e read one of the names ns? (Conservatively: any E_NAME
 * in it, keyword names aside.) */
static bool reads_any(const node *e, const names *ns)
{
    if (!e || !ns->n) return false;
    if (e->kind == E_NAME) return names_has(ns, e->name);
    if (e->kind == E_LISTCOMP && e->name && names_has(ns, e->name)) return true;
    if (reads_any(e->a, ns) || reads_any(e->b, ns) || reads_any(e->c, ns)) return true;
    for (int i = 0; i < e->items.n; i++)
        if (reads_any(e->items.v[i], ns)) return true;
    for (int i = 0; i < e->kwvals.n; i++)
        if (reads_any(e->kwvals.v[i], ns)) return true;
    return false;
}

/* Names the statements of body assign when compiled. varying: the names
 * that may hold other values inside the construct than in front of it; an
 * if whose condition reads none of them is decided now, as it will be when
 * compiled (static_branch_ahead), and only its taken branch counts; any
 * other if counts both branches. */
/* The names that `name := ...` expressions in e assign. */
static void walrus_names(sema *S, const node *e, names *ns)
{
    if (!e) return;
    if (e->kind == E_NAMEDEXPR) names_add(S, ns, e->name);
    walrus_names(S, e->a, ns);
    walrus_names(S, e->b, ns);
    walrus_names(S, e->c, ns);
    for (int i = 0; i < e->items.n; i++) walrus_names(S, e->items.v[i], ns);
    for (int i = 0; i < e->kwvals.n; i++) walrus_names(S, e->kwvals.v[i], ns);
}

static void live_assigned(sema *S, node_list *body, const names *varying, names *ns)
{
    for (int i = 0; i < body->n; i++) {
        node *s = body->v[i];
        walrus_names(S, s->a, ns);
        walrus_names(S, s->b, ns);
        walrus_names(S, s->c, ns);
        for (int j = 0; j < s->items.n; j++) walrus_names(S, s->items.v[j], ns);
        switch (s->kind) {
        case S_ASSIGN:
            target_names(S, s->a, ns);
            for (int j = 0; j < s->items.n; j++) target_names(S, s->items.v[j], ns);
            break;
        case S_AUGASSIGN: case S_ANNASSIGN: target_names(S, s->a, ns); break;
        case S_IF: {
            node_list *taken = reads_any(s->a, varying) ? NULL : static_branch_ahead(S, s);
            if (taken) {
                live_assigned(S, taken, varying, ns);
                break;
            }
            live_assigned(S, &s->body, varying, ns);
            live_assigned(S, &s->orelse, varying, ns);
            break;
        }
        case S_FOR: target_names(S, s->a, ns); /* fallthrough */
        case S_WHILE:
            live_assigned(S, &s->body, varying, ns);
            live_assigned(S, &s->orelse, varying, ns);
            break;
        default: break;
        }
    }
}

/* The names assigned in a construct that is about to be compiled (a loop's
 * body: a, with its induction variable var; a runtime if: branches a and
 * b), leaving out the dead code under static ifs, as Triton, which finds
 * them by compiling the construct (code_generator.py visit_For and
 * visit_While run the body once, visit_If visits only the taken branch of a
 * constexpr condition). The least set V of names such that V holds var and
 * every name live_assigned finds with V as the varying names: no name
 * outside V is assigned by the code that compiles, so the conditions that
 * read none of V have in the construct the values they have now, and are
 * decided now as they will be there. */
static void assigned_names(sema *S, node_list *a, node_list *b, const char *var, names *ns)
{
    names v = { 0 };
    if (var) names_add(S, &v, var);
    for (;;) {
        names found = { 0 };
        live_assigned(S, a, &v, &found);
        if (b) live_assigned(S, b, &v, &found);
        int n = v.n;
        for (int i = 0; i < found.n; i++) names_add(S, &v, found.v[i]);
        if (v.n == n) {
            *ns = found;
            return;
        }
    }
}

/* ---- assignment ---- */

/* Plain assignment turns Python numbers into 0-d tensors (code_generator.py
 * _sanitize_value); dtypes, tuples, strings and None stay as they are. A jit
 * function or a named tuple class cannot be assigned (also not inside a
 * tuple): _sanitize_value's to_tensor refuses them. An aggregate (Triton
 * 3.8+) is kept as it is, constexpr fields too. */
static sval sanitize(sema *S, src_pos p, sval v)
{
    if (sv_is_const(&v)) return sema_to_tensor(S, p, v);
    if (v.k == V_FUNC || v.k == V_CLASS)
        sema_error(S, p, "cannot assign %s to a variable: Triton 3.6 converts assigned values to tensors "
                         "(code_generator.py _sanitize_value); call it, or pass it where it is used", sv_describe(S, &v));
    if (sv_is_aggregate(&v)) return v;   /* a Triton value: kept whole (3.9 _sanitize_value) */
    if (v.k == V_TUPLE) {
        sval t = v;
        t.items = arena_alloc(S->a, sizeof(sval) * (size_t)(v.n + 1));
        for (int i = 0; i < v.n; i++) t.items[i] = sanitize(S, p, v.items[i]);
        return t;
    }
    return v;
}

static bool is_constexpr_name(sema *S, const char *name)
{
    for (int i = 0; i < S->sc->n; i++)
        if (!strcmp(S->sc->v[i].name, name)) return S->sc->v[i].constexpr_decl;
    return false;
}

/* Is target `self.f` of the aggregate __init__ being inlined (its Python
 * code keeps values as they are: no _sanitize_value)? */
static bool ctor_field(const sema *S, const node *target)
{
    return target->kind == E_ATTR && S->ctor_self && S->ctor_depth == S->depth && target->a->kind == E_NAME &&
           !strcmp(target->a->name, S->ctor_self);
}

static void assign(sema *S, node *target, sval v)
{
    if (target->kind == E_NAME) {
        /* a plain assignment may rebind a constexpr (`GROUP_M = min(GROUP_M, n)`:
         * code_generator.py visit_Assign does not check); the name then holds
         * the sanitized value and is no longer a constexpr */
        if (v.k == V_TENSOR && !S->fn->values.v[v.v].name) ir_value_set_name(S->fn, v.v, target->name);
        sema_bind(S, target->name, v);
        for (int i = 0; i < S->sc->n; i++)
            if (!strcmp(S->sc->v[i].name, target->name)) S->sc->v[i].constexpr_decl = false;
        return;
    }
    if (target->kind == E_TUPLE || target->kind == E_LIST) {
        if (sv_is_aggregate(&v))   /* not a tl.tuple (code_generator.py _sanitize_target_value) */
            sema_error(S, target->pos, "TypeError: cannot unpack non-iterable value (aggregate %s)", v.nt->tname);
        if (v.k != V_TUPLE) sema_error(S, target->pos, "cannot unpack %s", sv_describe(S, &v));
        if (v.n != target->items.n)
            sema_error(S, target->pos, "cannot unpack %d values into %d targets", v.n, target->items.n);
        for (int i = 0; i < v.n; i++) assign(S, target->items.v[i], v.items[i]);
        return;
    }
    if (ctor_field(S, target)) {
        /* `self.f = v` in an aggregate's user-defined __init__ (3.9 core.py
         * aggregate_value.__setattr__: an annotated field, checked against its
         * annotation): self is rebound to a copy with field f set */
        sval self = sema_expr(S, target->a);
        const ntclass *k = self.k == V_TUPLE ? self.nt : NULL;
        int f = 0;
        while (k && f < k->n && strcmp(k->fields[f], target->name)) f++;
        if (!k || f == k->n)
            sema_error(S, target->pos, "AttributeError: %s has no attribute '%s'", k ? k->tname : "self", target->name);
        sema_aggregate_check(S, target->pos, k, f, &v);
        sval t = self;
        t.items = arena_alloc(S->a, sizeof(sval) * (size_t)(k->n + 1));
        memcpy(t.items, self.items, sizeof(sval) * (size_t)k->n);
        t.items[f] = v;
        sema_bind(S, target->a->name, t);
        return;
    }
    if (target->kind == E_ATTR)   /* code_generator.py assignTarget; aggregates are immutable (3.8+) */
        sema_error(S, target->pos, "NotImplementedError: Attribute assignment is not supported in triton%s",
                   front_triton_version() >= 8 ? " (an aggregate is immutable: tl.aggregate_replace() makes a modified copy)" : "");
    sema_error(S, target->pos, "unsupported assignment target (only names and tuples of names; tensors cannot be assigned into)");
}

/* `name := value` (Triton 3.8+ code_generator.py visit_NamedExpr: an
 * Assign of the target, then the name's value). */
sval sema_named_expr(sema *S, node *e, sval v)
{
    v = sanitize(S, e->pos, v);
    node target = { .kind = E_NAME, .pos = e->pos, .name = e->name };
    assign(S, &target, v);
    return v;
}

/* ---- control flow helpers ---- */

static scope scope_copy(sema *S, const scope *sc)
{
    scope c = { NULL, sc->n, sc->n ? sc->n : 1 };
    c.v = arena_alloc(S->a, sizeof(binding) * (size_t)c.cap);
    if (sc->n) memcpy(c.v, sc->v, sizeof(binding) * (size_t)sc->n);
    return c;
}

static bool scope_get(const scope *sc, const char *name, sval *out)
{
    for (int i = 0; i < sc->n; i++)
        if (!strcmp(sc->v[i].name, name)) {
            *out = sc->v[i].val;
            return true;
        }
    return false;
}

static bool same_type(sema *S, sval a, sval b)
{
    if (a.k != V_TENSOR || b.k != V_TENSOR) return false;
    return a.dt == b.dt && a.pt == b.pt && ir_value_type(S->fn, a.v) == ir_value_type(S->fn, b.v);
}

/* Emit a value into the current region as a tensor (constexpr numbers become
 * constants). */
static sval as_carried(sema *S, src_pos p, const char *name, sval v)
{
    if (sv_is_const(&v)) return sema_to_tensor(S, p, v);
    if (v.k != V_TENSOR)
        sema_error(S, p, "'%s' is %s, which cannot change inside runtime control flow (only tensors can)", name, sv_describe(S, &v));
    return v;
}

/* ---- if ---- */

/* Block pointers and tensor descriptors are carried through control flow
 * as their tensor components (sema_bp_tensors); two such values merge when
 * they have the same kind, rank, block shape and (descriptors) padding,
 * which are compile-time properties. */
static bool bp_like(const sval *v) { return v->k == V_BLOCKPTR || v->k == V_TDESC; }

static bool same_bp(const sval *a, const sval *b)
{
    if (!bp_like(a)) return true;
    if (a->k != b->k || a->i != b->i) return false;
    int r = (int)a->i;
    for (int d = 0; d < r; d++)
        if (a->items[1 + 3 * r + d].i != b->items[1 + 3 * r + d].i) return false;
    return a->k != V_TDESC || (!strcmp(a->s, b->s) && a->n == b->n);
}

static int leaf_count(sema *S, src_pos p, const char *name, sval v);
static bool same_static(sema *S, const sval *a, const sval *b, bool in_agg, const char **why);
static void leaf_fill(sema *S, src_pos p, const char *name, sval v, sval *out, int *n);
static sval leaf_rebuild(sema *S, sval tmpl, const sval *vals, int *k);

/* The runtime condition of an if as a 0-d bool: a one-element tensor is
 * unsplatted (code_generator.py visit_If: _unsplat with a warning), a larger
 * one is an error. */
static sval if_cond(sema *S, src_pos p, sval c)
{
    if (sv_shape(S, &c)->rank != 0) {
        if (ir_type_numel(ir_value_type(S->fn, c.v)) != 1)
            sema_error(S, p, "the condition of an if must be a scalar or a one-element tensor, got %s", sv_describe(S, &c));
        c = sema_reshape(S, p, c, 0, NULL);
    }
    if (c.dt != TT_BOOL) c = sema_cast(S, p, c, TT_BOOL, 0, false);
    return c;
}

static void exec_if(sema *S, node *s)
{
    sval c;
    node_list *taken = static_branch(S, s, &c);
    if (taken) {
        sema_block(S, taken);   /* a static if: only the taken branch is compiled */
        return;
    }
    c = if_cond(S, s->a->pos, c);

    names assigned;
    assigned_names(S, &s->body, &s->orelse, NULL, &assigned);

    scope before = scope_copy(S, S->sc);
    int32_t parent = S->b.region;
    int32_t loc = S->b.loc;
    scope *outer = S->sc;
    S->runtime_cf++;

    int32_t rthen = ir_new_region(S->fn, 0, NULL);
    scope sthen = scope_copy(S, &before);
    S->sc = &sthen;
    S->b.region = rthen;
    sema_block(S, &s->body);
    if (S->returned) sema_error(S, s->pos, "tritium does not support this return inside a runtime if yet");
    S->returned = false;

    int32_t relse = ir_new_region(S->fn, 0, NULL);
    scope selse = scope_copy(S, &before);
    S->sc = &selse;
    S->b.region = relse;
    sema_block(S, &s->orelse);
    if (S->returned) sema_error(S, s->pos, "tritium does not support this return inside a runtime if yet");
    S->returned = false;

    /* results: assigned names visible after the if (defined before, or in both branches) */
    VEC(const char *) rn = {0};
    VEC(ir_value) ythen = {0}, yelse = {0};
    VEC(ir_type) types = {0};
    VEC(sval) proto = {0};                   /* per result: its type */
    VEC(sval) tmpl = {0};                    /* per name: its value's shape (tuples, block pointers) */
    VEC(int) nleaf = {0};                    /* per name: how many results carry it */
    for (int i = 0; i < assigned.n; i++) {
        const char *name = assigned.v[i];
        sval b0, t, e;
        bool hb = scope_get(&before, name, &b0);
        bool ht = scope_get(&sthen, name, &t), he = scope_get(&selse, name, &e);
        if (!ht || !he) continue;                 /* defined in one branch only: not visible */
        if (t.k == V_TUPLE || e.k == V_TUPLE || bp_like(&t) || bp_like(&e)) {
            /* tuples, block pointers and descriptors: their leaves become results */
            bool shape_ok = t.k == e.k && same_bp(&t, &e) && (t.k != V_TUPLE || t.n == e.n);
            int nt = leaf_count(S, s->pos, name, t);
            if (!shape_ok || nt != leaf_count(S, s->pos, name, e))
                sema_error(S, s->pos, "'%s' is %s in the then-branch but %s in the else-branch of a runtime if", name,
                           sv_describe(S, &t), sv_describe(S, &e));
            const char *why = NULL;
            if (!same_static(S, &t, &e, false, &why))
                sema_error(S, s->pos, "'%s' is %s in the then-branch but %s in the else-branch of a runtime if: %s", name,
                           sv_describe(S, &t), sv_describe(S, &e), why);
            sval *lt = arena_alloc(S->a, sizeof(sval) * (size_t)nt), *le = arena_alloc(S->a, sizeof(sval) * (size_t)nt);
            int k = 0;
            S->b.region = rthen;
            S->sc = &sthen;
            leaf_fill(S, s->pos, name, t, lt, &k);
            k = 0;
            S->b.region = relse;
            S->sc = &selse;
            leaf_fill(S, s->pos, name, e, le, &k);
            for (int j = 0; j < nt; j++) {
                if (!same_type(S, lt[j], le[j]))
                    sema_error(S, s->pos, "'%s' has an element of type %s in the then-branch but %s in the else-branch of "
                               "a runtime if", name, sv_describe(S, &lt[j]), sv_describe(S, &le[j]));
                vec_push(&ythen, lt[j].v);
                vec_push(&yelse, le[j].v);
                vec_push(&types, ir_value_type(S->fn, lt[j].v));
                vec_push(&proto, lt[j]);
            }
            k = 0;
            vec_push(&rn, name);
            vec_push(&tmpl, leaf_rebuild(S, t, lt, &k));
            vec_push(&nleaf, nt);
            continue;
        }
        if (hb && t.k != V_TENSOR && e.k != V_TENSOR && !sv_is_const(&t)) continue; /* unchanged non-tensors */
        S->b.region = rthen;
        S->sc = &sthen;
        t = as_carried(S, s->pos, name, t);
        S->b.region = relse;
        S->sc = &selse;
        e = as_carried(S, s->pos, name, e);
        if (!same_type(S, t, e))
            sema_error(S, s->pos, "'%s' has type %s in the then-branch but %s in the else-branch of a runtime if",
                       name, sv_describe(S, &t), sv_describe(S, &e));
        if (hb && b0.k == V_TENSOR && !same_type(S, t, b0))
            sema_error(S, s->pos, "'%s' has type %s before the runtime if but %s after it; its type must not change",
                       name, sv_describe(S, &b0), sv_describe(S, &t));
        vec_push(&rn, name);
        vec_push(&ythen, t.v);
        vec_push(&yelse, e.v);
        vec_push(&types, ir_value_type(S->fn, t.v));
        vec_push(&proto, t);
        vec_push(&tmpl, t);
        vec_push(&nleaf, 1);
    }
    S->b.loc = loc;
    S->b.region = rthen;
    ir_emit(&S->b, IR_YIELD, 0, NULL, ythen.n, ythen.v);
    S->b.region = relse;
    ir_emit(&S->b, IR_YIELD, 0, NULL, yelse.n, yelse.v);
    S->b.region = parent;
    S->sc = outer;
    S->runtime_cf--;
    int op = ir_emit(&S->b, IR_IF, types.n, types.v, 1, &c.v);
    ir_op_add_region(S->fn, parent, op, rthen);
    ir_op_add_region(S->fn, parent, op, relse);
    ir_value res0 = ir_op_at(S->fn, parent, op)->res;
    sval *rv = arena_alloc(S->a, sizeof(sval) * (size_t)(types.n + 1));
    for (int j = 0; j < types.n; j++) rv[j] = sv_tensor(res0 + j, proto.v[j].dt, proto.v[j].pt);
    for (int i = 0, j = 0; i < rn.n; j += nleaf.v[i], i++) {
        int k = j;
        sval r = leaf_rebuild(S, tmpl.v[i], rv, &k);
        if (r.k == V_TENSOR) ir_value_set_name(S->fn, r.v, rn.v[i]);
        sema_bind(S, rn.v[i], r);
    }
    vec_free(&rn); vec_free(&ythen); vec_free(&yelse); vec_free(&types); vec_free(&proto);
    vec_free(&tmpl); vec_free(&nleaf);
}

/* `a if c else b` with a runtime c: an scf.if whose branches evaluate only
 * their own side (code_generator.py visit_IfExp); both sides must have the
 * same type. */
sval sema_ternary(sema *S, node *e, sval c)
{
    if (sv_shape(S, &c)->rank != 0) sema_error(S, e->b->pos, "the condition of a conditional expression must be a scalar");
    if (c.dt != TT_BOOL) c = sema_cast(S, e->b->pos, c, TT_BOOL, 0, false);
    int32_t parent = S->b.region, loc = S->b.loc;
    S->runtime_cf++;
    int32_t rthen = ir_new_region(S->fn, 0, NULL);
    S->b.region = rthen;
    sval x = sema_expr(S, e->a);
    /* both sides void (tl.store(...) if c else tl.store(...)): an scf.if
     * without results (code_generator.py visit_IfExp, ret_type void) */
    bool is_void = x.k == V_NONE;
    if (!is_void) x = sema_to_tensor(S, e->a->pos, x);
    int32_t relse = ir_new_region(S->fn, 0, NULL);
    S->b.region = relse;
    sval y = sema_expr(S, e->c);
    if (is_void && y.k != V_NONE) sema_to_tensor(S, e->a->pos, x);   /* the error of a None beside a value */
    S->runtime_cf--;
    if (is_void) {
        S->b.loc = loc;
        S->b.region = rthen;
        ir_emit(&S->b, IR_YIELD, 0, NULL, 0, NULL);
        S->b.region = relse;
        ir_emit(&S->b, IR_YIELD, 0, NULL, 0, NULL);
        S->b.region = parent;
        int op = ir_emit(&S->b, IR_IF, 0, NULL, 1, &c.v);
        ir_op_add_region(S->fn, parent, op, rthen);
        ir_op_add_region(S->fn, parent, op, relse);
        return sv_none();
    }
    y = sema_to_tensor(S, e->c->pos, y);
    if (!same_type(S, x, y))
        sema_error(S, e->pos, "the two sides of a conditional expression have different types: %s and %s",
                   sv_describe(S, &x), sv_describe(S, &y));
    S->b.loc = loc;
    S->b.region = rthen;
    ir_emit(&S->b, IR_YIELD, 0, NULL, 1, &x.v);
    S->b.region = relse;
    ir_emit(&S->b, IR_YIELD, 0, NULL, 1, &y.v);
    S->b.region = parent;
    ir_type t = ir_value_type(S->fn, x.v);
    int op = ir_emit(&S->b, IR_IF, 1, &t, 1, &c.v);
    ir_op_add_region(S->fn, parent, op, rthen);
    ir_op_add_region(S->fn, parent, op, relse);
    return sv_tensor(ir_op_at(S->fn, parent, op)->res, x.dt, x.pt);
}

/* ---- loops ---- */

/* Loop-carried values, one slot per tensor: a block pointer is carried as
 * its tensor components (base, shapes, strides, offsets), a tuple as its
 * leaves in order (Triton flattens tuples into the loop's values too). */
typedef struct carried {
    const char **name;       /* per slot */
    sval *init;              /* per slot: the initial tensor */
    sval *whole;             /* per slot: the name's whole initial value (the template) */
    int *comp;               /* per slot: its leaf index within the name's value */
    int n;
} carried;

/* Inside an aggregate (Triton 3.8+ core.py _aggregate: _flatten_ir), only
 * tensors become control-flow values: a constexpr field is part of the
 * aggregate's type and keeps its value (fixed). */
static bool agg_fixed(const sval *v) { return v->k != V_TENSOR && v->k != V_TUPLE && !bp_like(v); }

static const char *afmt(sema *S, const char *fmt, const char *f, const char *a, const char *b)
{
    char *m = f ? xasprintf(fmt, f, a, b) : xasprintf(fmt, a, b);
    const char *r = arena_strdup(S->a, m);
    free(m);
    return r;
}

static bool same_fixed(const sval *a, const sval *b)
{
    if (a->k != b->k) return false;
    switch (a->k) {
    case V_INT: case V_BOOL: case V_FUNC: case V_MODULE: return a->i == b->i;
    case V_FLOAT: return a->f == b->f || (a->f != a->f && b->f != b->f);
    case V_STR: return !strcmp(a->s, b->s);
    case V_DTYPE: return a->dt == b->dt && a->pt == b->pt;
    case V_CLASS: return a->nt == b->nt;
    default: return true;
    }
}

/* Do a and b (the same name on two paths of control flow) agree on what
 * is not carried: aggregates' classes and their constexpr fields? On a
 * mismatch, *why says which field (arena). */
static bool same_static(sema *S, const sval *a, const sval *b, bool in_agg, const char **why)
{
    if (sv_is_aggregate(a) || sv_is_aggregate(b)) {
        if (a->k != b->k || a->nt != b->nt) {
            *why = "a different aggregate class";
            return false;
        }
        for (int i = 0; i < a->n && i < b->n; i++) {
            if (agg_fixed(&a->items[i]) && !same_fixed(&a->items[i], &b->items[i])) {
                *why = afmt(S, "its constexpr field '%s' is %s on one path but %s on the other", a->nt->fields[i],
                            sv_describe(S, &a->items[i]), sv_describe(S, &b->items[i]));
                return false;
            }
            if (!same_static(S, &a->items[i], &b->items[i], true, why)) return false;
        }
        return true;
    }
    if (a->k == V_TUPLE && b->k == V_TUPLE)
        for (int i = 0; i < a->n && i < b->n; i++)
            if (!same_static(S, &a->items[i], &b->items[i], in_agg, why)) return false;
    if (in_agg && agg_fixed(a) && !same_fixed(a, b)) {
        *why = afmt(S, "a constexpr inside it is %s on one path but %s on the other", NULL, sv_describe(S, a),
                    sv_describe(S, b));
        return false;
    }
    return true;
}

/* How many tensors carry v; an error for values that cannot change in a loop. */
static int leaf_count_in(sema *S, src_pos p, const char *name, sval v, bool in_agg)
{
    if (in_agg && agg_fixed(&v)) return 0;
    if (bp_like(&v)) return sema_bp_tensors(&v);
    if (v.k == V_TUPLE) {
        int n = 0;
        for (int i = 0; i < v.n; i++) n += leaf_count_in(S, p, name, v.items[i], in_agg || sv_is_aggregate(&v));
        return n;
    }
    if (v.k == V_TENSOR || sv_is_const(&v)) return 1;
    sema_error(S, p, "'%s' is reassigned in a runtime loop and holds %s; only tensors, block pointers and tuples of them "
                     "can be loop-carried", name, sv_describe(S, &v));
}

static int leaf_count(sema *S, src_pos p, const char *name, sval v) { return leaf_count_in(S, p, name, v, false); }

static void leaf_fill_in(sema *S, src_pos p, const char *name, sval v, sval *out, int *n, bool in_agg)
{
    if (in_agg && agg_fixed(&v)) return;
    if (bp_like(&v)) {
        for (int k = 0; k < sema_bp_tensors(&v); k++) out[(*n)++] = v.items[k];
    } else if (v.k == V_TUPLE) {
        for (int i = 0; i < v.n; i++) leaf_fill_in(S, p, name, v.items[i], out, n, in_agg || sv_is_aggregate(&v));
    } else {
        out[(*n)++] = as_carried(S, p, name, v);
    }
}

static void leaf_fill(sema *S, src_pos p, const char *name, sval v, sval *out, int *n)
{
    leaf_fill_in(S, p, name, v, out, n, false);
}

/* The template's shape with its leaves replaced by vals[*k], vals[*k + 1], ... */
static sval leaf_rebuild_in(sema *S, sval tmpl, const sval *vals, int *k, bool in_agg)
{
    if (in_agg && agg_fixed(&tmpl)) return tmpl;
    if (bp_like(&tmpl)) {
        for (int c = 0; c < sema_bp_tensors(&tmpl); c++) tmpl = sema_bp_with(S, tmpl, c, vals[(*k)++]);
        return tmpl;
    }
    if (tmpl.k == V_TUPLE) {
        sval *items = arena_alloc(S->a, sizeof(sval) * (size_t)(tmpl.n + 1));
        for (int i = 0; i < tmpl.n; i++) items[i] = leaf_rebuild_in(S, tmpl.items[i], vals, k, in_agg || sv_is_aggregate(&tmpl));
        tmpl.items = items;
        return tmpl;
    }
    return vals[(*k)++];
}

static sval leaf_rebuild(sema *S, sval tmpl, const sval *vals, int *k) { return leaf_rebuild_in(S, tmpl, vals, k, false); }

/* Names assigned in the body or in more (a while condition; not in dead
 * code: assigned_names) and defined before the loop become loop-carried;
 * var: the induction variable of a for loop, else NULL. */
static void collect_carried(sema *S, src_pos p, node_list *body, node_list *more, const char *var, carried *c)
{
    names assigned;
    assigned_names(S, body, more, var, &assigned);
    int cap = 0;
    for (int i = 0; i < assigned.n; i++) {
        sval v;
        if (!sema_lookup(S, assigned.v[i], &v)) continue;
        if (v.k == V_STR || v.k == V_DTYPE || v.k == V_NONE)
            sema_error(S, p, "'%s' (%s) is reassigned in a runtime loop; only tensors, block pointers and tuples of them "
                             "can be loop-carried", assigned.v[i], sv_describe(S, &v));
        if (v.k == V_TENSOR || bp_like(&v) || v.k == V_TUPLE || sv_is_const(&v))
            cap += leaf_count(S, p, assigned.v[i], v);
    }
    c->name = arena_alloc(S->a, sizeof(char *) * (size_t)(cap + 1));
    c->init = arena_alloc(S->a, sizeof(sval) * (size_t)(cap + 1));
    c->whole = arena_alloc(S->a, sizeof(sval) * (size_t)(cap + 1));
    c->comp = arena_alloc(S->a, sizeof(int) * (size_t)(cap + 1));
    c->n = 0;
    for (int i = 0; i < assigned.n; i++) {
        sval v;
        const char *name = assigned.v[i];
        if (!sema_lookup(S, name, &v)) continue;
        if (is_constexpr_name(S, name) && (v.k == V_TENSOR || sv_is_const(&v)))
            sema_error(S, p, "cannot reassign constexpr '%s' in a loop", name);
        if (v.k != V_TENSOR && !bp_like(&v) && v.k != V_TUPLE && !sv_is_const(&v)) continue;
        int first = c->n, n = 0;
        leaf_fill(S, p, name, v, c->init + first, &n);
        int k = 0;
        sval whole = leaf_rebuild(S, v, c->init + first, &k);   /* numbers now tensors */
        for (int j = 0; j < n; j++) {
            c->name[first + j] = name;
            c->whole[first + j] = whole;
            c->comp[first + j] = j;
        }
        c->n += n;
    }
}

/* Bind every carried name to the values vals[0..n) (region arguments or the
 * loop's results), rebuilding block pointers and tuples from their leaves. */
static void bind_slots(sema *S, carried *c, const ir_value *vals)
{
    sval *leaves = arena_alloc(S->a, sizeof(sval) * (size_t)(c->n + 1));
    for (int i = 0; i < c->n; i++) {
        leaves[i] = sv_tensor(vals[i], c->init[i].dt, c->init[i].pt);
        if (c->whole[i].k == V_TENSOR) ir_value_set_name(S->fn, vals[i], c->name[i]);
        if (i + 1 < c->n && c->comp[i + 1] > 0) continue;
        int k = i - c->comp[i];
        sema_bind(S, c->name[i], leaf_rebuild(S, c->whole[i], leaves, &k));
    }
}

/* After the body: yield the carried names' values, checking their types. */
/* The carried names' current values as c->n leaves, checked against what
 * they were before the loop; ys[0..c->n). */
static void carried_values(sema *S, src_pos p, carried *c, ir_value *ys)
{
    sval *leaves = arena_alloc(S->a, sizeof(sval) * (size_t)(c->n + 1));
    for (int i = 0; i < c->n;) {
        sval v, w = c->whole[i];
        if (!sema_lookup(S, c->name[i], &v)) die("carried name vanished");
        int n = 0;
        while (i + n < c->n && (n == 0 || c->comp[i + n] > 0)) n++;
        bool shape_ok = bp_like(&w) == bp_like(&v) && (w.k == V_TUPLE) == (v.k == V_TUPLE) && same_bp(&w, &v) &&
                        (w.k != V_TUPLE || v.n == w.n);
        if (!shape_ok || leaf_count(S, p, c->name[i], v) != n)
            sema_error(S, p, "loop-carried variable '%s' was %s before the loop but is %s in it", c->name[i],
                       sv_describe(S, &w), sv_describe(S, &v));
        const char *why = NULL;
        if (!same_static(S, &w, &v, false, &why))
            sema_error(S, p, "loop-carried variable '%s' was %s before the loop but is %s in it: %s", c->name[i],
                       sv_describe(S, &w), sv_describe(S, &v), why);
        int k = 0;
        leaf_fill(S, p, c->name[i], v, leaves + i, &k);
        for (int j = i; j < i + n; j++) {
            if (!same_type(S, leaves[j], c->init[j]))
                sema_error(S, p, "loop-carried variable '%s' has initial type %s but is re-assigned to %s in the loop; "
                                 "make sure its type stays the same", c->name[j], sv_describe(S, &c->init[j]),
                           sv_describe(S, &leaves[j]));
            ys[j] = leaves[j].v;
        }
        i += n;
    }
}

static void yield_carried(sema *S, src_pos p, carried *c)
{
    ir_value *ys = arena_alloc(S->a, sizeof(ir_value) * (size_t)(c->n + 1));
    carried_values(S, p, c, ys);
    ir_emit(&S->b, IR_YIELD, 0, NULL, c->n, ys);
}

static void bind_results(sema *S, carried *c, ir_value first)
{
    ir_value *vals = arena_alloc(S->a, sizeof(ir_value) * (size_t)(c->n + 1));
    for (int i = 0; i < c->n; i++) vals[i] = first + i;   /* an op's results are consecutive */
    bind_slots(S, c, vals);
}

static sval loop_bound(sema *S, src_pos p, sval v)
{
    if (v.k == V_BOOL) v = sv_int(v.i);
    v = sema_to_tensor(S, p, v);
    if (!tt_dtype_is_int(v.dt) || sv_shape(S, &v)->rank != 0)
        sema_error(S, p, "range bounds must be integer scalars, got %s", sv_describe(S, &v));
    return v;
}

static void exec_for(sema *S, node *s)
{
    node *it = s->b;
    if (it->kind != E_CALL) sema_error(S, it->pos, "a kernel loop must iterate over range(), tl.range() or tl.static_range()");
    sval fn = sema_expr(S, it->a);
    const char *fname = fn.k == V_BUILTIN ? sema_builtin_name((int)fn.i) : "";
    bool is_static = !strcmp(fname, "static_range");
    if (!is_static && strcmp(fname, "range"))
        sema_error(S, it->pos, "a kernel loop must iterate over range(), tl.range() or tl.static_range()");
    /* bound as core.py range/static_range bind (arg1, arg2=None, step=None,
     * hints...); the hints have no semantic effect */
    enum { MAXA = 16 };
    sval *args;
    int n = sema_call_args(S, it, &args), nkw = it->kwnames.n;
    if (n > MAXA || nkw > MAXA) sema_error(S, it->pos, "too many arguments to %s", fname);
    sval kwv[MAXA];
    const char *kwn[MAXA];
    for (int i = 0; i < nkw; i++) {
        kwn[i] = it->kwnames.v[i]->name;
        kwv[i] = sema_expr(S, it->kwvals.v[i]);
    }
    bargs B;
    sema_bind_args(S, it->pos, (int)fn.i, NULL, args, n, kwn, kwv, nkw, &B);
    sval a1 = sema_arg_req(S, it->pos, &B, "arg1");
    bool two = sema_arg_has(&B, "arg2");
    sval lb = two ? a1 : sv_int(0), ub = two ? sema_arg(&B, "arg2") : a1;
    sval st = sema_arg_has(&B, "step") ? sema_arg(&B, "step") : sv_int(1);
    if (s->a->kind != E_NAME) sema_error(S, s->a->pos, "the loop variable must be a single name");
    const char *var = s->a->name;

    if (is_static) {
        if (lb.k != V_INT || ub.k != V_INT || st.k != V_INT)
            sema_error(S, it->pos, "static_range bounds must be constexpr integers");
        if (st.i == 0) sema_error(S, it->pos, "static_range step must not be zero");
        int64_t count = 0;
        for (int64_t i = lb.i; st.i > 0 ? i < ub.i : i > ub.i; i += st.i) {
            if (++count > 4096) sema_error(S, it->pos, "static_range unrolls more than 4096 iterations");
            sema_bind(S, var, sv_int(i));
            S->loops++;
            sema_block(S, &s->body);
            S->loops--;
            if (S->returned) sema_error(S, s->pos, "return inside a loop is not supported");
        }
        return;
    }

    /* a negative constexpr step: iterate an up-counting trip counter instead */
    bool neg = st.k == V_INT && st.i < 0;
    if (st.k == V_INT && st.i == 0) sema_error(S, it->pos, "range step must not be zero");
    sval lbt = loop_bound(S, it->pos, lb), ubt = loop_bound(S, it->pos, ub), stt = loop_bound(S, it->pos, neg ? sv_int(-st.i) : st);
    /* the induction variable's type is the promotion of the bounds (int32 unless one is int64) */
    tt_dtype ivt = TT_I32;
    sval bs[3] = { lbt, ubt, stt };
    for (int i = 0; i < 3; i++)
        if (tt_dtype_bits(bs[i].dt) > 32) ivt = tt_dtype_is_signed(bs[i].dt) ? TT_I64 : TT_U64;
    for (int i = 0; i < 3; i++) bs[i] = sema_cast(S, it->pos, bs[i], ivt, 0, false);
    sval base = bs[0];
    if (neg) {
        /* trips = max(0, cdiv(lb - ub, -step)); iv = lb - k * (-step) */
        sval diff = sema_binop(S, it->pos, "-", bs[0], bs[1]);
        sval trips = sema_binop(S, it->pos, "//", sema_binop(S, it->pos, "-", sema_binop(S, it->pos, "+", diff, bs[2]), sv_int(1)), bs[2]);
        bs[1] = sema_minmax(S, it->pos, true, trips, sema_const_tensor(S, it->pos, 0, 0, ivt, 0, NULL));
        bs[0] = sema_const_tensor(S, it->pos, 0, 0, ivt, 0, NULL);
        bs[2] = sema_const_tensor(S, it->pos, 1, 1, ivt, 0, NULL);
    }

    carried c;
    collect_carried(S, s->pos, &s->body, NULL, var, &c);
    ir_type *types = arena_alloc(S->a, sizeof(ir_type) * (size_t)(c.n + 1));
    ir_value *ops = arena_alloc(S->a, sizeof(ir_value) * (size_t)(c.n + 3));
    ir_type ivty = ir_scalar(ivt);
    types[0] = ivty;
    for (int i = 0; i < 3; i++) ops[i] = bs[i].v;
    for (int i = 0; i < c.n; i++) {
        types[i + 1] = ir_value_type(S->fn, c.init[i].v);
        ops[i + 3] = c.init[i].v;
    }
    int32_t parent = S->b.region, loc = S->b.loc;
    sema_setloc(S, s->pos);
    int32_t for_loc = S->b.loc;
    /* names first bound inside the body are not visible after the loop */
    scope *outer = S->sc, inner = scope_copy(S, S->sc);
    S->sc = &inner;
    int32_t body = ir_new_region(S->fn, c.n + 1, types);
    ir_region *br = &S->fn->regions.v[body];
    sval ivv = sv_tensor(br->args[0], ivt, 0);
    ir_value_set_name(S->fn, ivv.v, var);
    S->b.region = body;
    S->runtime_cf++;
    bind_slots(S, &c, S->fn->regions.v[body].args + 1);
    if (neg) ivv = sema_binop(S, s->pos, "-", sema_to_tensor(S, s->pos, base), sema_binop(S, s->pos, "*", ivv, stt));
    sema_bind(S, var, ivv);
    S->loops++;
    sema_block(S, &s->body);
    S->loops--;
    if (S->returned) sema_error(S, s->pos, "return inside a loop is not supported (Triton rejects it)");
    S->b.loc = for_loc;
    yield_carried(S, s->pos, &c);
    S->runtime_cf--;
    S->sc = outer;
    S->b.region = parent;
    S->b.loc = for_loc;
    int op = ir_emit(&S->b, IR_FOR, c.n, types + 1, c.n + 3, ops);
    ir_op_add_region(S->fn, parent, op, body);
    bind_results(S, &c, ir_op_at(S->fn, parent, op)->res);
    S->b.loc = loc;
}

static void exec_while(sema *S, node *s)
{
    /* names the condition assigns (`while (i := i + 1) < n:`) are carried too, and
     * scf.condition passes their new values to the body and out of the loop, as
     * Python's while does (3.9's compiler passes the old ones: invalid IR when the
     * body reads them; its interpreter runs Python) */
    node cond_stmt = { .kind = S_EXPR, .pos = s->a->pos, .a = s->a };
    node *stmts_v[1] = { &cond_stmt };
    node_list stmts = { stmts_v, 1 };
    carried c;
    collect_carried(S, s->pos, &s->body, &stmts, NULL, &c);
    ir_type *types = arena_alloc(S->a, sizeof(ir_type) * (size_t)(c.n + 1));
    ir_value *inits = arena_alloc(S->a, sizeof(ir_value) * (size_t)(c.n + 1));
    for (int i = 0; i < c.n; i++) {
        types[i] = ir_value_type(S->fn, c.init[i].v);
        inits[i] = c.init[i].v;
    }
    int32_t parent = S->b.region;
    sema_setloc(S, s->pos);
    int32_t wloc = S->b.loc;
    S->runtime_cf++;
    scope *outer = S->sc, inner = scope_copy(S, S->sc);
    S->sc = &inner;
    /* before: evaluate the condition on the carried values */
    int32_t before = ir_new_region(S->fn, c.n, types);
    S->b.region = before;
    bind_slots(S, &c, S->fn->regions.v[before].args);
    sval cond = sema_expr(S, s->a);
    if (cond.k != V_TENSOR) sema_error(S, s->a->pos, "a while condition must be a runtime value (constexpr while loops are not supported)");
    if (sv_shape(S, &cond)->rank != 0) sema_error(S, s->a->pos, "a while condition must be a scalar");
    if (cond.dt != TT_BOOL) cond = sema_cast(S, s->a->pos, cond, TT_BOOL, 0, false);
    ir_value *cops = arena_alloc(S->a, sizeof(ir_value) * (size_t)(c.n + 1));
    cops[0] = cond.v;
    carried_values(S, s->a->pos, &c, cops + 1);
    S->b.loc = wloc;
    ir_emit(&S->b, IR_CONDITION, 0, NULL, c.n + 1, cops);
    /* after: the body */
    int32_t after = ir_new_region(S->fn, c.n, types);
    S->b.region = after;
    bind_slots(S, &c, S->fn->regions.v[after].args);
    S->loops++;
    sema_block(S, &s->body);
    S->loops--;
    if (S->returned) sema_error(S, s->pos, "return inside a loop is not supported (Triton rejects it)");
    S->b.loc = wloc;
    yield_carried(S, s->pos, &c);
    S->runtime_cf--;
    S->sc = outer;
    S->b.region = parent;
    S->b.loc = wloc;
    int op = ir_emit(&S->b, IR_WHILE, c.n, types, c.n, inits);
    ir_op_add_region(S->fn, parent, op, before);
    ir_op_add_region(S->fn, parent, op, after);
    bind_results(S, &c, ir_op_at(S->fn, parent, op)->res);
}

/* ---- statements ---- */

static void exec_stmt(sema *S, node *s)
{
    sema_setloc(S, s->pos);
    switch (s->kind) {
    case S_EXPR: {
        const node *saved = S->unused_call;
        S->unused_call = s->a->kind == E_CALL ? s->a : NULL;   /* code_generator.py visit_Expr: _is_unused */
        sema_expr(S, s->a);
        S->unused_call = saved;
        break;
    }
    case S_ASSIGN: {
        sval v = sema_expr(S, s->b);
        if (!ctor_field(S, s->a)) v = sanitize(S, s->pos, v);
        assign(S, s->a, v);
        for (int i = 0; i < s->items.n; i++) assign(S, s->items.v[i], v);
        break;
    }
    case S_AUGASSIGN: {
        if (s->a->kind != E_NAME) sema_error(S, s->a->pos, "augmented assignment needs a plain name on the left");
        sval cur = sema_expr(S, s->a);
        sval rhs = sema_expr(S, s->b);
        sval v = sanitize(S, s->pos, sema_check_tile(S, s->pos, sema_binop(S, s->pos, s->op, cur, rhs)));
        assign(S, s->a, v);
        break;
    }
    case S_ANNASSIGN: {
        node *an = s->c;
        bool cx = an && ((an->kind == E_ATTR && !strcmp(an->name, "constexpr")) || (an->kind == E_NAME && !strcmp(an->name, "constexpr")));
        if (!s->b) sema_error(S, s->pos, "a variable annotation needs a value in a kernel");
        sval v = sema_expr(S, s->b);
        if (cx) {
            if (v.k == V_TENSOR) sema_error(S, s->b->pos, "'%s' is annotated tl.constexpr but its value is a runtime tensor", s->a->name);
            if (is_constexpr_name(S, s->a->name)) sema_error(S, s->pos, "cannot reassign constexpr '%s'", s->a->name);
            sval prev;
            if (sema_lookup(S, s->a->name, &prev))
                sema_error(S, s->pos, "'%s' is already defined; a constexpr must be declared before any other use", s->a->name);
            sema_bind(S, s->a->name, v);
            for (int i = 0; i < S->sc->n; i++)
                if (!strcmp(S->sc->v[i].name, s->a->name)) S->sc->v[i].constexpr_decl = true;
        } else {
            /* other annotations are ignored, as Triton does */
            assign(S, s->a, sanitize(S, s->pos, v));
        }
        break;
    }
    case S_IF: exec_if(S, s); break;
    case S_FOR: exec_for(S, s); break;
    case S_WHILE: exec_while(S, s); break;
    case S_RETURN:
        if (S->depth == 0 && s->a) sema_error(S, s->pos, "a kernel cannot return a value");
        if (S->loops) sema_error(S, s->pos, "return inside a loop is not supported (Triton rejects it)");
        if (S->runtime_cf && !S->tail)
            sema_error(S, s->pos, "tritium does not support this return inside runtime control flow yet");
        S->ret = s->a ? sema_expr(S, s->a) : sv_none();
        S->returned = true;
        break;
    case S_PASS: break;
    case S_ASSERT: {
        /* code_generator.visit_Assert: device_assert(test, msg), compiled
         * only with debug (a constexpr condition too) */
        sval c = sema_expr(S, s->a);
        sval msg = s->b ? sema_expr(S, s->b) : sv_none();
        sema_device_assert(S, s->pos, c, msg, sv_none());
        break;
    }
    case S_BREAK: sema_error(S, s->pos, "'break' is not supported in kernels (Triton rejects it)");
    case S_CONTINUE: sema_error(S, s->pos, "'continue' is not supported in kernels (Triton rejects it)");
    default: sema_error(S, s->pos, "unsupported statement");
    }
}

static bool contains_return(const node_list *b)
{
    for (int i = 0; i < b->n; i++) {
        const node *s = b->v[i];
        if (s->kind == S_RETURN) return true;
        if (s->kind == S_IF && (contains_return(&s->body) || contains_return(&s->orelse))) return true;
    }
    return false;
}

static bool ends_in_return(const node_list *b)
{
    return b->n && b->v[b->n - 1]->kind == S_RETURN;
}

/* branch ++ stmts[from..]: the continuation of an if that returns on some
 * path is compiled inside each branch that may fall through. Duplicated
 * statements are counted so that many early returns cannot blow up. */
static node_list with_rest(sema *S, src_pos p, const node_list *branch, const node_list *stmts, int from)
{
    int extra = ends_in_return(branch) ? 0 : stmts->n - from;
    S->dup += extra;
    if (S->dup > 100000)
        sema_error(S, p, "too many early returns: their continuations would be compiled more than 100000 times");
    node_list r = { arena_alloc(S->a, sizeof(node *) * (size_t)(branch->n + extra + 1)), 0 };
    for (int k = 0; k < branch->n; k++) r.v[r.n++] = branch->v[k];
    for (int k = 0; k < extra; k++) r.v[r.n++] = stmts->v[from + k];
    return r;
}

/* A helper's return value as a list of tensors (constexpr numbers become
 * tensors, tuples are flattened, None is nothing). */
static void flatten_ret(sema *S, src_pos p, sval v, sval *out, int *n, int cap)
{
    if (v.k == V_NONE) return;
    if (v.k == V_TUPLE) {
        for (int i = 0; i < v.n; i++) flatten_ret(S, p, v.items[i], out, n, cap);
        return;
    }
    if (sv_is_const(&v)) v = sema_to_tensor(S, p, v);
    if (v.k != V_TENSOR)
        sema_error(S, p, "a return inside a runtime if returns %s; only tensors (and tuples of them) can be", sv_describe(S, &v));
    if (*n >= cap) sema_error(S, p, "a return inside a runtime if returns more than %d values", cap);
    out[(*n)++] = v;
}

static sval rebuild_ret(sema *S, sval shape, const sval *vals, int *k)
{
    if (shape.k == V_NONE) return shape;
    if (shape.k == V_TUPLE) {
        sval t = shape;
        t.items = arena_alloc(S->a, sizeof(sval) * (size_t)(shape.n + 1));
        for (int i = 0; i < shape.n; i++) t.items[i] = rebuild_ret(S, shape.items[i], vals, k);
        return t;
    }
    return vals[(*k)++];
}

/* `if c: ... return ...` in tail position with a runtime c: both branches
 * (each already followed by the continuation) end the function, so the if's
 * results are the return values (Triton: code_generator.py
 * visit_if_top_level, which branches to the function's exit instead). */
static void tail_if(sema *S, node *s, sval c)
{
    c = if_cond(S, s->a->pos, c);
    enum { CAP = 64 };
    scope before = scope_copy(S, S->sc), *outer = S->sc;
    int32_t parent = S->b.region, loc = S->b.loc;
    node_list *saved_tail = S->tail;
    int32_t reg[2];
    sval rv[2], flat[2][CAP];
    int nflat[2] = { 0, 0 };
    scope sk[2];
    S->runtime_cf++;
    for (int k = 0; k < 2; k++) {
        reg[k] = ir_new_region(S->fn, 0, NULL);
        sk[k] = scope_copy(S, &before);
        S->sc = &sk[k];
        S->b.region = reg[k];
        S->tail = k ? &s->orelse : &s->body;
        S->returned = false;
        S->ret = sv_none();
        sema_block(S, S->tail);
        rv[k] = S->returned ? S->ret : sv_none();
        flatten_ret(S, s->pos, rv[k], flat[k], &nflat[k], CAP);
    }
    S->runtime_cf--;
    if (nflat[0] != nflat[1] || (rv[0].k == V_TUPLE) != (rv[1].k == V_TUPLE))
        sema_error(S, s->pos, "the branches of this runtime if return different things (%s and %s)",
                   sv_describe(S, &rv[0]), sv_describe(S, &rv[1]));
    ir_type types[CAP];
    ir_value ys[2][CAP];
    for (int i = 0; i < nflat[0]; i++) {
        if (!same_type(S, flat[0][i], flat[1][i]))
            sema_error(S, s->pos, "the branches of this runtime if return %s and %s; the types must be the same",
                       sv_describe(S, &flat[0][i]), sv_describe(S, &flat[1][i]));
        types[i] = ir_value_type(S->fn, flat[0][i].v);
        ys[0][i] = flat[0][i].v;
        ys[1][i] = flat[1][i].v;
    }
    S->b.loc = loc;
    for (int k = 0; k < 2; k++) {
        S->b.region = reg[k];
        ir_emit(&S->b, IR_YIELD, 0, NULL, nflat[k], ys[k]);
    }
    S->b.region = parent;
    S->sc = outer;
    S->tail = saved_tail;
    int op = ir_emit(&S->b, IR_IF, nflat[0], types, 1, &c.v);
    ir_op_add_region(S->fn, parent, op, reg[0]);
    ir_op_add_region(S->fn, parent, op, reg[1]);
    ir_value res0 = ir_op_at(S->fn, parent, op)->res;
    sval vals[CAP];
    for (int i = 0; i < nflat[0]; i++) vals[i] = sv_tensor(res0 + i, flat[0][i].dt, flat[0][i].pt);
    int k = 0;
    S->ret = rebuild_ret(S, rv[0], vals, &k);
    S->returned = true;
}

/* An if that returns on some path, in tail position (its block ends the
 * function): the statements after it move into its branches. A static if
 * just continues with the taken branch. Returns inside loops stay errors,
 * as in Triton. */
static bool early_return(sema *S, node_list *stmts, int i)
{
    node *s = stmts->v[i];
    if (s->kind != S_IF || stmts != S->tail) return false;
    if (!contains_return(&s->body) && !contains_return(&s->orelse)) return false;
    sval c;
    node_list *taken = static_branch(S, s, &c);
    if (taken) {
        node_list *rest = arena_alloc(S->a, sizeof *rest);
        *rest = with_rest(S, s->pos, taken, stmts, i + 1);
        S->tail = rest;
        sema_block(S, rest);
        S->returned = true;    /* the rest of stmts ran inside */
        return true;
    }
    node *n = arena_alloc(S->a, sizeof *n);
    *n = *s;
    n->body = with_rest(S, s->pos, &s->body, stmts, i + 1);
    n->orelse = with_rest(S, s->pos, &s->orelse, stmts, i + 1);
    tail_if(S, n, c);
    return true;
}

void sema_block(sema *S, node_list *stmts)
{
    for (int i = 0; i < stmts->n && !S->returned; i++) {
        node *s = stmts->v[i];
        if (i == 0 && s->kind == S_EXPR && s->a->kind == E_STR) continue;   /* docstring */
        if (early_return(S, stmts, i)) return;
        exec_stmt(S, s);
    }
}

/* ---- entry ---- */

/* A CONST_FUNC reference (launch.h) as the jit function it names. */
static sval func_ref(sema *S, src_pos p, const char *ref)
{
    const char *colon = strrchr(ref, ':');
    int fi;
    if (ref[0] == '#' && S->m->live_root) {        /* "#K": function K of a live module */
        char *end;
        long k = strtol(ref + 1, &end, 10);
        fi = *end || end == ref + 1 || k < 0 || k >= S->m->live_nfuncs ? -1 : k ? S->m->live_func0 + (int)k - 1 : 0;
    } else if (colon) {
        char *path = arena_strndup(S->a, ref, (size_t)(colon - ref));
        const char *why = NULL;
        int u = module_unit_file(S->m, path, &why);
        if (u < 0) sema_error(S, p, "jit function argument '%s': %s", ref, why ? why : "its file cannot be loaded");
        fi = module_find_in(S->m, u, colon + 1);
    } else {
        fi = front_find_function(S->m, ref, true);
    }
    if (fi < 0) sema_error(S, p, "jit function argument '%s': there is no such @triton.jit function", ref);
    return (sval){ .k = V_FUNC, .i = fi, .v = -1 };
}

sval sema_const_value(sema *S, src_pos p, const launch_const *c)
{
    switch (c->kind) {
    case CONST_INT: return sv_int(c->i);
    case CONST_FLOAT: return sv_float(c->f);
    case CONST_BOOL: return sv_bool(c->i != 0);
    case CONST_STR: return (sval){ .k = V_STR, .s = c->s, .v = -1 };
    case CONST_DTYPE: return sv_dtype((tt_dtype)c->i, TT_BOOL);
    case CONST_FUNC: return func_ref(S, p, c->s ? c->s : "");
    default: return sv_none();
    }
}

/* A runtime argument as a kernel parameter (an IR argument named `name`),
 * specialized as Triton's specialize_impl does. */
static sval runtime_arg(sema *S, const front_param *fp, const launch_arg *a, const char *name)
{
    if (a->kind == ARG_TENSOR) {
        tt_dtype et = a->tensor->dtype;
        return sv_tensor(ir_add_arg(S->fn, name, ir_ptr(ir_scalar(et)), et, true), TT_PTR, et);
    }
    tt_dtype dt = a->kind == ARG_FLOAT ? TT_F32 : a->dtype;
    if (fp->annotated_dtype) dt = fp->annot;
    sval v = sv_tensor(ir_add_arg(S->fn, name, ir_scalar(dt), dt, false), dt, 0);
    /* an unannotated int equal to 1 specializes as the constexpr 1
     * (specialize_impl; not under do_not_specialize); the argument
     * stays in the signature, unused, so launches keep their shape */
    if (a->kind == ARG_INT && a->dtype != TT_BOOL && a->i == 1 && !fp->annotated_dtype && !fp->no_specialize)
        v = sv_int(1);
    return v;
}

/* Is `x` the name of element k of tuple `name` ("T[3]", also the prefix of
 * a nested element "T[3][0]")? Returns k, or -1. */
static int64_t tuple_elem_index(const char *x, const char *name, bool *nested)
{
    size_t n = strlen(name);
    if (strncmp(x, name, n) || x[n] != '[') return -1;
    char *end;
    long long k = strtoll(x + n + 1, &end, 10);
    if (end == x + n + 1 || *end != ']' || k < 0 || k > 4096) return -1;
    *nested = end[1] == '[';
    return k;
}

static const launch_const *find_const(const launch *l, const char *name)
{
    for (int j = 0; j < l->nconsts; j++)
        if (!strcmp(l->consts[j].name, name)) return &l->consts[j];
    return NULL;
}

/* The class of a named tuple argument from its CONST_TUPLE text "CLASS
 * FIELD..." (launch.h); "CLASS" alone: the kernel file's class of that name. */
static const ntclass *arg_class(sema *S, src_pos pos, const char *pname, const char *spec, int n)
{
    front_module *m = S->m;
    const char *sp = strchr(spec, ' ');
    if (!sp) {
        for (int i = m->classes.n - 1; i >= 0; i--) {
            const ntclass *k = m->classes.v[i];
            if (k->unit != 0 || (strcmp(k->name, spec) && strcmp(k->tname, spec))) continue;
            if (k->n != n)
                sema_error(S, pos, "tuple parameter '%s': named tuple %s has %d fields but the launch gives %d elements",
                           pname, spec, k->n, n);
            return k;
        }
        sema_error(S, pos, "tuple parameter '%s': no named tuple class '%s' in the kernel's file "
                           "(a `class %s(NamedTuple)` or `%s = namedtuple(...)` at module level)", pname, spec, spec, spec);
    }
    ntclass *k = arena_alloc(S->a, sizeof *k);
    *k = (ntclass){ .tname = arena_strndup(S->a, spec, (size_t)(sp - spec)), .unit = 0, .pos = pos };
    k->fields = arena_alloc(S->a, sizeof(char *) * (size_t)(n + 1));
    char *copy = arena_strdup(S->a, sp + 1), *save = NULL;
    int words = 0;
    for (char *f = strtok_r(copy, " ", &save); f; f = strtok_r(NULL, " ", &save), words++)
        if (k->n < n) k->fields[k->n++] = f;
    if (words != n)
        sema_error(S, pos, "tuple parameter '%s': named tuple %s needs one field name per element (%d)", pname, k->tname, n);
    return k;
}

static sval host_desc(sema *S, src_pos pos, const char *name, const launch *l, int k);

/* A tuple parameter (runtime/jit.py specializes each element): the launch
 * gives its elements as NAME[0], NAME[1], ... (nested: NAME[0][1]), as the
 * launch spec's `--arg T='(x, y)'` and the Python entry point do, and may
 * give NAME itself as a CONST_TUPLE (its length, for empty tuples, and a
 * named tuple's class). Each element is specialized like a parameter of its
 * own (None and 1 become constexprs; a host TensorDescriptor element
 * "T[k]" and the integers "T[k].shape[d]", "T[k].strides[d]" after it are
 * one descriptor, as for a parameter: host_desc). False when the launch has
 * no element of `name`. */
static bool tuple_param(sema *S, src_pos pos, const front_param *fp, const launch *l, const char *name, int depth,
                        sval *out)
{
    const launch_const *hdr = find_const(l, name);
    if (hdr && hdr->kind != CONST_TUPLE) hdr = NULL;
    if (hdr && (hdr->i < 0 || hdr->i > 4096)) sema_error(S, pos, "tuple parameter '%s': %lld elements", name, (long long)hdr->i);
    int64_t count = -1;
    bool nested;
    for (int j = 0; j < l->nargs; j++) {
        int64_t k = tuple_elem_index(l->args[j].name, name, &nested);
        if (k > count) count = k;
    }
    for (int j = 0; j < l->nconsts; j++) {
        int64_t k = tuple_elem_index(l->consts[j].name, name, &nested);
        if (k > count) count = k;
    }
    if (count < 0 && !hdr) return false;
    if (depth > 8) sema_error(S, pos, "tuple parameter '%s' is nested too deeply", name);
    if (hdr && count >= hdr->i)
        sema_error(S, pos, "tuple parameter '%s' has %lld elements but the launch gives %s[%lld]", name,
                   (long long)hdr->i, name, (long long)count);
    if (hdr) count = hdr->i - 1;
    sval t = { .k = V_TUPLE, .n = (int)count + 1, .v = -1 };
    t.items = arena_alloc(S->a, sizeof(sval) * (size_t)(t.n + 1));
    if (hdr && hdr->s) t.nt = arg_class(S, pos, name, hdr->s, t.n);
    for (int k = 0; k < t.n; k++) {
        char *en = arena_alloc(S->a, strlen(name) + 24);
        sprintf(en, "%s[%d]", name, k);
        const launch_arg *a = NULL;
        const launch_const *c = find_const(l, en);
        for (int j = 0; j < l->nargs; j++)
            if (!strcmp(l->args[j].name, en)) a = &l->args[j];
        if (a && a->kind == ARG_TENSOR && a->desc_rank > 0) t.items[k] = host_desc(S, pos, en, l, (int)(a - l->args));
        else if (a) t.items[k] = runtime_arg(S, fp, a, en);
        else if (c && c->kind != CONST_TUPLE) t.items[k] = sema_const_value(S, pos, c);
        else if (!tuple_param(S, pos, fp, l, en, depth + 1, &t.items[k]))
            sema_error(S, pos, "tuple parameter '%s' has no element %d (the launch gives elements up to %s[%lld])", name,
                       k, name, (long long)count);
    }
    *out = t;
    return true;
}

/* A host TensorDescriptor parameter or tuple element `name` (at pos):
 * launch argument k (its base) and the 2 * rank integers after it become
 * kernel arguments NAME, NAME.shape[d] (i32) and NAME.strides[d] (i64), as
 * Triton 3.6 expands them (core.py tensor_descriptor_type._unflatten_ir:
 * handle, shape, strides; a tuple's elements in order, jit.py); the kernel
 * sees the descriptor tl.make_tensor_descriptor would make from them. The
 * last stride is the constant 1 (TensorDescriptor.__post_init__ asserts
 * it). round_f32_to_tf32 (Triton 3.7+) marks it (V_TDESC's n): its loads
 * round to tf32 (sema_tdesc.c). */
static sval host_desc(sema *S, src_pos pos, const char *name, const launch *l, int k)
{
    const launch_arg *a = &l->args[k];
    int rank = a->desc_rank;
    if (rank > TT_MAX_DESC_RANK)   /* tools/tensor_descriptor.py __post_init__: "rank cannot be more than 5" */
        sema_error(S, pos, "tensor descriptor '%s': rank %d, but a TensorDescriptor has at most %d dims", name,
                   rank, TT_MAX_DESC_RANK);
    if (k + 2 * rank >= l->nargs) die("launch: descriptor '%s' lacks its shape and strides", name);
    tt_dtype et = a->tensor->dtype;
    sval base = sv_tensor(ir_add_arg(S->fn, name, ir_ptr(ir_scalar(et)), et, true), TT_PTR, et);
    sval tup[3];
    for (int t = 0; t < 3; t++) {
        tup[t] = (sval){ .k = V_TUPLE, .n = rank, .v = -1 };
        tup[t].items = arena_alloc(S->a, sizeof(sval) * (size_t)(rank + 1));
    }
    for (int d = 0; d < 2 * rank; d++) {
        const launch_arg *x = &l->args[k + 1 + d];
        if (x->kind != ARG_INT) die("launch: descriptor '%s': argument %d is not an integer", name, k + 1 + d);
        tt_dtype dt = d < rank ? TT_I32 : TT_I64;
        char nm[256];
        snprintf(nm, sizeof nm, "%s.%s[%d]", name, d < rank ? "shape" : "strides", d % rank);
        sval v = sv_tensor(ir_add_arg(S->fn, nm, ir_scalar(dt), dt, false), dt, 0);
        tup[d < rank ? 0 : 1].items[d % rank] = d == 2 * rank - 1 ? sv_int(1) : v;
    }
    for (int d = 0; d < rank; d++) tup[2].items[d] = sv_int(a->desc_block[d]);
    sval pad = { .k = V_STR, .s = a->desc_nan ? "nan" : "zero", .v = -1 };
    for (int d = 0; d < rank; d++)
        if (a->desc_block[d] <= 0 || (a->desc_block[d] & (a->desc_block[d] - 1)))
            sema_error(S, pos, "tensor descriptor '%s': block_shape[%d] = %lld is not a power of two", name, d,
                       (long long)a->desc_block[d]);
    if (a->desc_tf32 && et != TT_F32)   /* tools/tensor_descriptor.py __post_init__ (Triton 3.7+) */
        sema_error(S, pos, "tensor descriptor '%s': round_f32_to_tf32 is only supported for float32 tensors", name);
    sval d = sema_make_tensor_desc(S, pos, base, tup[0], tup[1], tup[2], pad);
    d.n = a->desc_tf32;
    return d;
}

ir_func *front_compile(front_module *m, const char *kernel, const launch *l)
{
    int fi = front_find_function(m, kernel, true);
    if (fi < 0) {
        diag_error(((src_pos){ m->file, 0, 0 }), "no @triton.jit function named '%s'", kernel);
        return NULL;
    }
    funcdef fdv = m->funcs.v[fi], *fd = &fdv;   /* a copy: imports may grow the table */
    if (fd->bad) {                               /* its diagnostics were held back until now (module.c scan) */
        int errs = diag_error_count();
        module_reparse(m, fi);
        if (diag_error_count() == errs) diag_error(fd->pos, "'%s' does not parse as kernel code", fd->name);
        return NULL;
    }
    const front_param *params;
    front_params(m, kernel, &params);
    arena mem = {0};
    sema S = { .m = m, .a = &mem, .caller_loc = -1, .func_name = fd->name, .tail = &fd->body };
    scope top = {0};
    S.sc = &top;
    S.fn = ir_func_new(fd->name);
    S.b = (ir_builder){ S.fn, IR_BODY, -1 };
    S.debug = (l->debug ? l->debug == LAUNCH_DEBUG_ON : front_jit_debug(m, fi)) ||
              sema_debug_enabled(getenv("TRITON_DEBUG"));
    if (setjmp(S.fail)) {
        ir_func_free(S.fn);
        arena_free(&mem);
        return NULL;
    }
    sema_setloc(&S, fd->pos);
    for (int i = 0; i < fd->nparams; i++)
        if (fd->params[i].kind == PARAM_VARARGS)
            sema_error(&S, fd->params[i].pos, "a kernel's *%s parameter is not supported (launch arguments are bound by "
                       "name)", fd->params[i].name);
    for (int i = 0; i < fd->nparams; i++) {
        const param *pa = &fd->params[i];
        const front_param *fp = &params[i];
        const launch_const *c = NULL;
        const launch_arg *a = NULL;
        for (int j = 0; j < l->nconsts; j++)
            if (!strcmp(l->consts[j].name, pa->name)) c = &l->consts[j];
        for (int j = 0; j < l->nargs; j++)
            if (!strcmp(l->args[j].name, pa->name)) a = &l->args[j];
        if (fp->is_constexpr) {
            sval v;
            if (c && c->kind != CONST_TUPLE) v = sema_const_value(&S, pa->pos, c);
            else if (a && a->kind == ARG_INT) v = sv_int(a->i);
            else if (a && a->kind == ARG_FLOAT) v = sv_float(a->f);
            else if (!a && tuple_param(&S, pa->pos, fp, l, pa->name, 0, &v)) {
                /* a tuple constexpr (out_shape: tl.constexpr = (8, 8)): elements NAME[k] */
            } else if (pa->def) {
                scope empty = {0};
                S.sc = &empty;
                S.plain_globals = true;
                v = sema_expr(&S, pa->def);
                S.plain_globals = false;
                S.sc = &top;
            } else if (fp->has_default) {
                v = sema_const_value(&S, pa->pos, &fp->def);   /* from @triton.autotune's first config */
            } else
                sema_error(&S, pa->pos, "constexpr parameter '%s' has no value; pass --const %s=VALUE", pa->name, pa->name);
            if (a && a->kind == ARG_TENSOR) sema_error(&S, pa->pos, "constexpr parameter '%s' was given a tensor", pa->name);
            sema_bind(&S, pa->name, v);
            top.v[top.n - 1].constexpr_decl = true;
            continue;
        }
        if (!a && c && (c->kind == CONST_NONE || c->kind == CONST_FUNC)) {
            /* None and jit functions specialize as constexprs (runtime/jit.py
             * specialize_impl, specialize.cc handle_jit_callable) */
            sema_bind(&S, pa->name, sema_const_value(&S, pa->pos, c));
            continue;
        }
        sema_setloc(&S, pa->pos);
        sval v;
        if (!a && (!c || c->kind == CONST_TUPLE) && tuple_param(&S, pa->pos, fp, l, pa->name, 0, &v)) {
            sema_bind(&S, pa->name, v);
            continue;
        }
        if (!a) {
            if (c) sema_error(&S, pa->pos, "'%s' is a runtime parameter; pass it with --arg %s=..., not --const", pa->name, pa->name);
            sema_error(&S, pa->pos, "runtime parameter '%s' has no value; pass --arg %s=...", pa->name, pa->name);
        }
        if (a->kind == ARG_TENSOR && a->desc_rank > 0) v = host_desc(&S, pa->pos, pa->name, l, (int)(a - l->args));
        else v = runtime_arg(&S, fp, a, pa->name);
        sema_bind(&S, pa->name, v);
    }
    sema_block(&S, &fd->body);
    sema_setloc(&S, fd->pos);
    ir_emit(&S.b, IR_RETURN, 0, NULL, 0, NULL);
    arena_free(&mem);
    if (ir_verify(S.fn)) {
        diag_error(fd->pos, "internal error: the IR of '%s' failed verification (please report this)", kernel);
        ir_func_free(S.fn);
        return NULL;
    }
    return S.fn;
}
