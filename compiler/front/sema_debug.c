/* sema_debug.c — compiles a debugger expression (`print acc[:, None] * 2`)
 * against the variables of a stopped program into a one-program kernel that
 * loads the tiles it uses, evaluates the expression and stores the result. */
#include "front_int.h"

#include <stdlib.h>
#include <string.h>

typedef VEC(const char *) name_vec;

static void collect_names(node *e, name_vec *out)
{
    if (!e) return;
    if (e->kind == E_NAME) {
        for (int i = 0; i < out->n; i++)
            if (!strcmp(out->v[i], e->name)) return;
        vec_push(out, e->name);
        return;
    }
    if (e->kind == E_ATTR) {           /* only the base of a.b.c is a variable */
        collect_names(e->a, out);
        return;
    }
    collect_names(e->a, out);
    collect_names(e->b, out);
    collect_names(e->c, out);
    for (int i = 0; i < e->items.n; i++) collect_names(e->items.v[i], out);
    for (int i = 0; i < e->kwvals.n; i++) collect_names(e->kwvals.v[i], out);
}

/* linear offsets 0..numel-1 shaped like the tile */
static sval dense_offsets(sema *S, src_pos p, int rank, const int64_t *shape)
{
    int64_t n = 1;
    for (int i = 0; i < rank; i++) n *= shape[i];
    ir_value r = ir_emit1(&S->b, IR_MAKE_RANGE, ir_tensor(ir_scalar(TT_I32), 1, &n), 0, NULL);
    ir_attr_set(ir_def(S->fn, r), "start", 0);
    ir_attr_set(ir_def(S->fn, r), "end", n);
    sval off = sv_tensor(r, TT_I32, 0);
    if (rank != 1) {
        sval args[2] = { off, { .k = V_TUPLE, .n = rank, .v = -1 } };
        args[1].items = arena_alloc(S->a, sizeof(sval) * (size_t)rank);
        for (int i = 0; i < rank; i++) args[1].items[i] = sv_int(shape[i]);
        sval f;
        if (!sema_module_attr(S, MOD_TL, "reshape", &f)) die("tl.reshape missing");
        off = sema_call_builtin(S, NULL, (int)f.i, NULL, args, 2, NULL, NULL, 0);
    }
    (void)p;
    return off;
}

static sval tile_ptr(sema *S, src_pos p, ir_value base, tt_dtype dt, int rank, const int64_t *shape)
{
    sval ptr = sv_tensor(base, TT_PTR, dt);
    if (rank == 0) return ptr;
    return sema_binop(S, p, "+", ptr, dense_offsets(S, p, rank, shape));
}

/* Python's repr of a constexpr (tuples nested); false for anything else. */
static bool const_repr(const sval *v, strbuf *b)
{
    switch (v->k) {
    case V_INT: sb_printf(b, "%lld", (long long)v->i); return true;
    case V_BOOL: sb_puts(b, v->i ? "True" : "False"); return true;
    case V_NONE: sb_puts(b, "None"); return true;
    case V_STR: sb_printf(b, "'%s'", v->s ? v->s : ""); return true;
    case V_DTYPE: sb_puts(b, tt_dtype_triton_name(v->dt)); return true;
    case V_FLOAT: {
        char buf[40];
        for (int prec = 1; prec <= 17; prec++) {       /* the shortest text that reads back */
            snprintf(buf, sizeof buf, "%.*g", prec, v->f);
            if (strtod(buf, NULL) == v->f) break;
        }
        sb_puts(b, buf);
        if (!strpbrk(buf, ".eni")) sb_puts(b, ".0");
        return true;
    }
    case V_TUPLE:
        sb_putc(b, '(');
        for (int i = 0; i < v->n; i++) {
            if (i) sb_puts(b, ", ");
            if (!const_repr(&v->items[i], b)) return false;
        }
        if (v->n == 1) sb_putc(b, ',');
        sb_putc(b, ')');
        return true;
    default: return false;
    }
}

ir_func *front_compile_expr(front_module *m, const char *origin, const char *text,
                            const front_var *vars, int nvars,
                            int **used, int *nused, tt_dtype *out_dt, int *rank, int64_t *shape, char **tuple)
{
    if (tuple) *tuple = NULL;
    int file = diag_add_source(origin, text);
    arena mem = {0};
    lexed lx;
    lex_file(&mem, diag_file_text(file), &lx);
    parser P = { .a = &mem, .file = file, .toks = lx.toks, .ntoks = lx.ntoks };
    while (P.toks[P.i].kind == TK_INDENT) P.i++;
    int errs = diag_error_count();
    node *e = parse_expr_list(&P);
    if (!e || diag_error_count() != errs) {
        arena_free(&mem);
        return NULL;
    }
    token *t = &P.toks[P.i];
    while (t->kind == TK_NEWLINE || t->kind == TK_DEDENT) t = &P.toks[++P.i];
    if (t->kind != TK_EOF) {
        diag_error(((src_pos){ file, t->line, t->col }), "unexpected '%.*s' after the expression", t->len, t->start);
        arena_free(&mem);
        return NULL;
    }

    sema S = { .m = m, .a = &mem, .caller_loc = -1, .func_name = "__expr" };
    scope sc = {0};
    S.sc = &sc;
    S.fn = ir_func_new("__expr");
    S.b = (ir_builder){ S.fn, IR_BODY, -1 };
    /* on the heap: locals changed after setjmp are indeterminate after
     * longjmp (C11 7.13.2.1), and a sema_error must free both lists */
    struct { VEC(int) use; name_vec names; } *lists = xcalloc(1, sizeof *lists);
    if (setjmp(S.fail)) {
        ir_func_free(S.fn);
        vec_free(&lists->use);
        vec_free(&lists->names);
        free(lists);
        arena_free(&mem);
        return NULL;
    }
    src_pos p0 = { file, 1, 1 };
    sema_setloc(&S, p0);
    collect_names(e, &lists->names);
    for (int n = 0; n < lists->names.n; n++) {
        int vi = -1;
        for (int i = nvars - 1; i >= 0 && vi < 0; i--)
            if (!strcmp(vars[i].name, lists->names.v[n])) vi = i;
        if (vi < 0) continue;   /* a global, a module or a builtin */
        const front_var *v = &vars[vi];
        if (v->is_const) {
            sema_bind(&S, v->name, sema_const_value(&S, p0, &v->cval));
            continue;
        }
        bool isptr = v->dt == TT_PTR;
        tt_dtype store = isptr ? TT_U64 : v->dt;
        ir_value arg = ir_add_arg(S.fn, v->name, ir_ptr(ir_scalar(store)), store, true);
        sval ptr = tile_ptr(&S, p0, arg, store, v->rank, v->shape);
        sema_setloc(&S, p0);
        ir_value ld = ir_emit1(&S.b, IR_LOAD, sema_type(store, 0, v->rank, v->shape), 1, &ptr.v);
        sval val = sv_tensor(ld, store, 0);
        if (isptr) {
            val = sv_tensor(ir_emit1(&S.b, IR_INT_TO_PTR, sema_type(TT_PTR, v->pt, v->rank, v->shape), 1, &ld), TT_PTR, v->pt);
        }
        sema_bind(&S, v->name, val);
        vec_push(&lists->use, vi);
    }
    vec_free(&lists->names);
    sval r = sema_expr(&S, e);
    if (r.k == V_TUPLE && tuple) {
        strbuf b = { 0 };
        if (!const_repr(&r, &b)) {
            sb_free(&b);
            sema_error(&S, e->pos, "the expression is a tuple holding tensors; print its elements one at a time");
        }
        *tuple = sb_take(&b);
        ir_func_free(S.fn);
        vec_free(&lists->use);
        free(lists);
        arena_free(&mem);
        return NULL;
    }
    if (sv_is_const(&r)) r = sema_to_tensor(&S, p0, r);
    if (r.k != V_TENSOR) sema_error(&S, e->pos, "the expression is %s, not a value that can be printed", sv_describe(&S, &r));
    if (r.dt == TT_PTR) {
        const ir_type_info *ti = sv_shape(&S, &r);
        r = sv_tensor(ir_emit1(&S.b, IR_PTR_TO_INT, sema_type(TT_I64, 0, ti->rank, ti->shape), 1, &r.v), TT_U64, 0);
    }
    const ir_type_info *ti = sv_shape(&S, &r);
    *rank = ti->rank;
    memcpy(shape, ti->shape, sizeof(int64_t) * (size_t)ti->rank);
    *out_dt = r.dt;
    ir_value out = ir_add_arg(S.fn, "__out", ir_ptr(ir_scalar(r.dt)), r.dt, true);
    sval optr = tile_ptr(&S, p0, out, r.dt, ti->rank, shape);
    ir_value ops[2] = { optr.v, r.v };
    ir_emit(&S.b, IR_STORE, 0, NULL, 2, ops);
    ir_emit(&S.b, IR_RETURN, 0, NULL, 0, NULL);
    arena_free(&mem);
    if (ir_verify(S.fn)) {
        ir_func_free(S.fn);
        vec_free(&lists->use);
        free(lists);
        return NULL;
    }
    *nused = lists->use.n;
    *used = lists->use.v ? lists->use.v : xmalloc(sizeof(int));
    free(lists);
    return S.fn;
}
