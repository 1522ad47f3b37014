/* ir.c — the op table, functions, regions and the builder. */
#include "tritium/ir.h"
#include "attrspec.h"

#include <stdlib.h>
#include <string.h>

const ir_opdesc ir_ops[IR_OP_COUNT] = {
#define X(e, name, mino, maxo, nres, nreg, attrs, props, fam, sig, roles) \
    [IR_##e] = { name, mino, maxo, nres, nreg, attrs, props, fam, sig, roles },
#include "tritium/ops.def"
#undef X
};

/* ops_math.def's type tokens as Triton dtypes ("no": absent) */
#define MF_DT_f32 TT_F32
#define MF_DT_f64 TT_F64
#define MF_DT_i1 TT_BOOL
#define MF_DT_i32 TT_I32
#define MF_DT_u32 TT_U32
#define MF_DT_i64 TT_I64
#define MF_DT_u64 TT_U64
#define MF_DT_no TT_DTYPE_COUNT
#define MF_VAR(r, a, b, c, g, u) { MF_DT_##r, { MF_DT_##a, MF_DT_##b, MF_DT_##c, MF_DT_##c }, g, u }

const ir_mathfn ir_mathfns[IR_OP_COUNT] = {
#define FN(e, name, lib, n, props, fast, r0, a0, b0, c0, x0, g0, u0, r1, a1, b1, c1, x1, g1, u1) \
    [IR_##e] = { lib, n, fast, { MF_VAR(r0, a0, b0, c0, g0, u0), MF_VAR(r1, a1, b1, c1, g1, u1) } },
#include "tritium/ops_math.def"
#undef FN
};

int ir_mathfn_variant(int opc, const ir_type *opnd, int n, ir_type res)
{
    const ir_mathfn *m = &ir_mathfns[opc];
    if (!m->arity || n != m->arity) return -1;
    for (int k = 0; k < 2; k++) {
        const ir_mathvar *v = &m->var[k];
        if (!*v->gpu || ir_type_elem(res) != ir_scalar(v->res)) continue;
        int i = 0;
        while (i < n && ir_type_elem(opnd[i]) == ir_scalar(v->opnd[i])) i++;
        if (i == n) return k;
    }
    return -1;
}

int ir_op_lookup(const char *name, size_t len)
{
    for (int i = 0; i < IR_OP_COUNT; i++)
        if (strlen(ir_ops[i].name) == len && !memcmp(ir_ops[i].name, name, len)) return i;
    return -1;
}

int ir_attr_index(int opc, const char *name)
{
    ir_attrspec spec[4];
    int n = ir_attrspec_split(ir_ops[opc].attrs, spec);
    for (int i = 0; i < n; i++)
        if (spec[i].name_len == strlen(name) && !memcmp(spec[i].name, name, spec[i].name_len)) return i;
    die("%s has no attribute '%s' (ops.def)", ir_ops[opc].name, name);
}

void ir_attr_set(ir_op *op, const char *name, int64_t v) { op->attr[ir_attr_index(op->opc, name)] = v; }
int64_t ir_attr_get(const ir_op *op, const char *name) { return op->attr[ir_attr_index(op->opc, name)]; }

int64_t ir_str_intern(ir_func *f, const char *s)
{
    for (int i = 0; i < f->strs.n; i++)
        if (!strcmp(f->strs.v[i], s)) return i;
    vec_push(&f->strs, arena_strdup(&f->mem, s));
    return f->strs.n - 1;
}

void ir_attr_set_str(ir_func *f, ir_op *op, const char *name, const char *s)
{
    int k = ir_attr_index(op->opc, name);   /* before interning: the op may not be f's */
    op->attr[k] = ir_str_intern(f, s);
}

int64_t ir_attr_array(ir_func *f, int n, const int64_t *v)
{
    if (n < 0 || n > IR_ATTR_ARRAY_MAX) die("ir_attr_array: %d elements", n);
    for (int i = 0; i < f->arrs.n; i += 1 + (int)f->arrs.v[i])
        if (f->arrs.v[i] == n && (n == 0 || !memcmp(&f->arrs.v[i + 1], v, sizeof *v * (size_t)n))) return i;
    int at = f->arrs.n;
    vec_push(&f->arrs, (int64_t)n);
    for (int i = 0; i < n; i++) vec_push(&f->arrs, v[i]);
    return at;
}

int ir_attr_array_get(const ir_func *f, int64_t a, int64_t out[IR_ATTR_ARRAY_MAX])
{
    if (a < 0 || a >= f->arrs.n) return -1;
    int64_t n = f->arrs.v[a];
    if (n < 0 || n > IR_ATTR_ARRAY_MAX || a + 1 + n > f->arrs.n) return -1;
    memcpy(out, &f->arrs.v[a + 1], sizeof *out * (size_t)n);
    return (int)n;
}

const char *ir_str_at(const ir_func *f, int64_t idx) { return idx >= 0 && idx < f->strs.n ? f->strs.v[idx] : ""; }

const char *ir_attr_str(const ir_func *f, const ir_op *op, const char *name)
{
    return ir_str_at(f, op->attr[ir_attr_index(op->opc, name)]);
}

static const char *const cmpi_names[] = { "eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge", NULL };
static const char *const cmpf_names[] = { "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq",
                                          "ugt", "uge", "ult", "ule", "une", "uno", "true", NULL };
static const char *const red_names[] = { "add", "max", "umax", "min", "umin", "argmax", "uargmax",
                                         "argmin", "uargmin", "xor", "or", "and", NULL };
static const char *const rmw_names[] = { "add", "fadd", "max", "umax", "min", "umin", "and", "or", "xor", "exch", NULL };
static const char *const sem_names[] = { "acq_rel", "acquire", "release", "relaxed", NULL };
static const char *const scope_names[] = { "gpu", "cta", "sys", NULL };
static const char *const prec_names[] = { "tf32", "tf32x3", "ieee", "bf16x3", "bf16x6", NULL };
static const char *const round_names[] = { "rtne", "rtz", NULL };

const char *const *ir_enum_names(const char *kind, size_t len)
{
    static const struct { const char *kind; const char *const *names; } tab[] = {
        { "cmpi", cmpi_names }, { "cmpf", cmpf_names }, { "red", red_names }, { "rmw", rmw_names },
        { "sem", sem_names }, { "scope", scope_names }, { "prec", prec_names },
        { "round", round_names },
    };
    for (size_t i = 0; i < TT_COUNTOF(tab); i++)
        if (strlen(tab[i].kind) == len && !memcmp(tab[i].kind, kind, len)) return tab[i].names;
    return NULL;
}

ir_func *ir_func_new(const char *name)
{
    static _Atomic uint64_t next_serial = 1;
    ir_func *f = xcalloc(1, sizeof *f);
    f->name = xstrdup(name);
    f->serial = next_serial++;
    ir_new_region(f, 0, NULL);    /* the body */
    return f;
}

void ir_func_free(ir_func *f)
{
    if (!f) return;
    for (int i = 0; i < f->regions.n; i++) free(f->regions.v[i].ops);
    vec_free(&f->regions);
    vec_free(&f->values);
    vec_free(&f->locs);
    vec_free(&f->strs);
    vec_free(&f->arrs);
    arena_free(&f->mem);
    free(f->arg_dtype);
    free(f->arg_is_ptr);
    free(f->name);
    free(f);
}

ir_op *ir_def(const ir_func *f, ir_value v)
{
    const ir_value_info *vi = &f->values.v[v];
    if (vi->def_kind != IR_DEF_OP) return NULL;
    return &f->regions.v[vi->region].ops[vi->index];
}

const ir_op *ir_for_arg(const ir_func *f, ir_value v, ir_value *init, ir_value *next)
{
    const ir_value_info *vi = &f->values.v[v];
    if (vi->def_kind != IR_DEF_REGION_ARG) return NULL;
    const ir_region *r = &f->regions.v[vi->region];
    if (r->parent_op < 0 || !r->nops) return NULL;
    const ir_op *loop = &f->regions.v[r->parent_region].ops[r->parent_op];
    if (loop->opc != IR_FOR || loop->region[0] != vi->region) return NULL;
    *init = *next = -1;
    if (vi->index == 0) return loop;
    const ir_op *y = &r->ops[r->nops - 1];
    int k = vi->index - 1;
    if (y->opc != IR_YIELD || k >= y->nopnd || 3 + k >= loop->nopnd) return NULL;
    *init = loop->opnd[3 + k];
    *next = y->opnd[k];
    return loop;
}

ir_value ir_carried_init(const ir_func *f, ir_value v)
{
    ir_value init, next;
    return ir_for_arg(f, v, &init, &next) && next == v ? init : -1;
}

static ir_value new_value(ir_func *f, ir_type t, int kind, int32_t region, int32_t index)
{
    ir_value_info vi = { .type = t, .def_kind = (uint8_t)kind, .region = region, .index = index };
    vec_push(&f->values, vi);
    return f->values.n - 1;
}

ir_value ir_add_arg(ir_func *f, const char *name, ir_type t, tt_dtype dt, bool is_ptr)
{
    ir_region *body = &f->regions.v[IR_BODY];
    ir_value v = new_value(f, t, IR_DEF_ARG, IR_BODY, body->nargs);
    if (name) f->values.v[v].name = arena_strdup(&f->mem, name);
    ir_value *args = arena_alloc(&f->mem, sizeof *args * (size_t)(body->nargs + 1));
    if (body->nargs) memcpy(args, body->args, sizeof *args * (size_t)body->nargs);
    args[body->nargs++] = v;
    body->args = args;
    f->arg_dtype = xrealloc(f->arg_dtype, sizeof *f->arg_dtype * (size_t)(f->nargs + 1));
    f->arg_is_ptr = xrealloc(f->arg_is_ptr, sizeof *f->arg_is_ptr * (size_t)(f->nargs + 1));
    f->arg_dtype[f->nargs] = dt;
    f->arg_is_ptr[f->nargs] = is_ptr;
    f->nargs++;
    return v;
}

int32_t ir_new_region(ir_func *f, int nargs, const ir_type *types)
{
    ir_region r = { .parent_region = -1, .parent_op = -1 };
    vec_push(&f->regions, r);
    int32_t id = f->regions.n - 1;
    if (nargs) {
        ir_value *args = arena_alloc(&f->mem, sizeof *args * (size_t)nargs);
        for (int i = 0; i < nargs; i++) args[i] = new_value(f, types[i], IR_DEF_REGION_ARG, id, i);
        f->regions.v[id].args = args;
        f->regions.v[id].nargs = nargs;
    }
    return id;
}

int32_t ir_add_loc(ir_func *f, int file, int line, int col, int32_t caller, const char *func)
{
    for (int i = f->locs.n - 1; i >= 0 && i >= f->locs.n - 64; i--) {
        ir_loc *l = &f->locs.v[i];
        if (l->file == file && l->line == line && l->col == col && l->caller == caller &&
            (l->func == func || (l->func && func && !strcmp(l->func, func))))
            return i;
    }
    ir_loc l = { file, line, col, caller, func ? arena_strdup(&f->mem, func) : NULL };
    vec_push(&f->locs, l);
    return f->locs.n - 1;
}

int ir_emit(ir_builder *b, int opc, int nres, const ir_type *types, int nopnd, const ir_value *opnd)
{
    ir_func *f = b->fn;
    ir_region *r = &f->regions.v[b->region];
    if (r->nops == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 16;
        r->ops = xrealloc(r->ops, sizeof *r->ops * (size_t)r->cap);
    }
    int idx = r->nops++;
    ir_op *op = &r->ops[idx];
    memset(op, 0, sizeof *op);
    op->opc = (uint16_t)opc;
    op->nres = (uint8_t)nres;
    op->region[0] = op->region[1] = -1;
    op->loc = b->loc;
    op->nopnd = nopnd;
    op->res = -1;
    if (nopnd) {
        op->opnd = arena_alloc(&f->mem, sizeof *opnd * (size_t)nopnd);
        memcpy(op->opnd, opnd, sizeof *opnd * (size_t)nopnd);
    }
    for (int i = 0; i < nres; i++) {
        ir_value v = new_value(f, types[i], IR_DEF_OP, b->region, idx);
        if (i == 0) f->regions.v[b->region].ops[idx].res = v;
    }
    return idx;
}

ir_value ir_emit1(ir_builder *b, int opc, ir_type t, int nopnd, const ir_value *opnd)
{
    int idx = ir_emit(b, opc, 1, &t, nopnd, opnd);
    return ir_op_at(b->fn, b->region, idx)->res;
}

ir_value ir_const_int(ir_builder *b, ir_type t, int64_t v)
{
    ir_value r = ir_emit1(b, IR_CONSTANT, t, 0, NULL);
    ir_def(b->fn, r)->ival = v;
    ir_def(b->fn, r)->fval = (double)v;
    return r;
}

ir_value ir_const_float(ir_builder *b, ir_type t, double v)
{
    ir_value r = ir_emit1(b, IR_CONSTANT, t, 0, NULL);
    ir_def(b->fn, r)->fval = v;
    return r;
}

void ir_op_add_region(ir_func *f, int region, int op, int32_t child)
{
    ir_op *o = ir_op_at(f, region, op);
    if (o->nregions >= 2) die("ir_op_add_region: too many regions");
    o->region[o->nregions++] = child;
    f->regions.v[child].parent_region = region;
    f->regions.v[child].parent_op = op;
}

void ir_value_set_name(ir_func *f, ir_value v, const char *name)
{
    f->values.v[v].name = name ? arena_strdup(&f->mem, name) : NULL;
}
