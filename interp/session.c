/* session.c — binding an ir_func to a launch: per-value type table, kernel
 * argument tiles, cached constants, the numerics analysis, and the public
 * inspection entry points of interp.h. */
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>

void interp_options_default(interp_options *o)
{
    memset(o, 0, sizeof *o);
    o->sched = SCHED_IN_ORDER;
    o->numerics = NUMERICS_IEEE;
    o->check_races = true;
    o->check_uninit = true;
    o->max_reports = 20;
    o->report = NULL;
}

static void arg_error(const ir_func *f, int i, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void arg_error(const ir_func *f, int i, const char *fmt, ...)
{
    const ir_region *body = &f->regions.v[IR_BODY];
    const char *name = i < body->nargs ? f->values.v[body->args[i]].name : NULL;
    fprintf(stderr, "tritium: error: kernel %s, argument %d (%s): ", f->name, i, name ? name : "?");
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

static void fill_vinfo(ival_info *vi, ir_type t)
{
    memset(vi, 0, sizeof *vi);
    if (!t) return;
    const ir_type_info *ti = ir_type_get(t);
    vi->dt = ti->elem;
    vi->esize = (uint8_t)tt_dtype_size(ti->elem);
    vi->rank = (uint8_t)ti->rank;
    vi->numel = 1;
    for (int d = 0; d < ti->rank; d++) {
        vi->shape[d] = ti->shape[d];
        vi->numel *= ti->shape[d];
    }
    if (ti->elem == TT_PTR) {
        vi->pdt = ir_type_get(ti->pointee)->elem;
        vi->psize = (uint8_t)tt_dtype_size(vi->pdt);
    }
}

/* A kernel argument's value as a scalar tile. */
static bool bind_arg(interp_session *s, int i)
{
    const ir_func *f = s->f;
    const launch_arg *a = &s->l->args[i];
    ir_value v = f->regions.v[IR_BODY].args[i];
    const ival_info *vi = &s->vi[v];
    if (vi->rank != 0) {
        arg_error(f, i, "tensor-typed kernel parameters are not supported by the interpreter");
        return false;
    }
    void *d = arena_alloc(&s->perm, 16);
    s->argdata[i] = d;
    if (vi->dt == TT_PTR) {
        if (a->kind != ARG_TENSOR) {
            arg_error(f, i, "the kernel expects a tensor (pointer), the launch gives a %s",
                      a->kind == ARG_INT ? "integer" : "float");
            return false;
        }
        uint64_t base = interp_buffer_base(s, i) + (uint64_t)a->offset * (uint64_t)tt_dtype_size(a->tensor->dtype);
        memcpy(d, &base, 8);
        return true;
    }
    if (a->kind == ARG_TENSOR) {
        arg_error(f, i, "the kernel expects a scalar, the launch gives a tensor");
        return false;
    }
    if (tt_dtype_is_int(vi->dt)) {
        if (a->kind != ARG_INT) {
            arg_error(f, i, "the kernel expects an integer, the launch gives a float");
            return false;
        }
        uint64_t x = (uint64_t)a->i;
        if (vi->dt == TT_BOOL) x = x != 0;
        memcpy(d, &x, vi->esize);               /* little-endian: low bytes */
        return true;
    }
    double x = a->kind == ARG_INT ? (double)a->i : a->f;
    switch (vi->dt) {
    case TT_F16: { uint16_t h = interp_d2h(x); memcpy(d, &h, 2); break; }
    case TT_BF16: { uint16_t h = interp_d2bf(x); memcpy(d, &h, 2); break; }
    case TT_F32: { float y = (float)x; memcpy(d, &y, 4); break; }
    case TT_F64: memcpy(d, &x, 8); break;
    default:
        arg_error(f, i, "unsupported parameter type");
        return false;
    }
    return true;
}

/* NUMERICS_FAST: addf/subf fed by a mulf of the same region contract into an
 * FMA, as LLVM does with AllowFPOpFusion=Fast (semantics §2.9): the lhs
 * product first (a*b + c*d -> fma(a, b, c*d)). */
static void find_fusions(interp_session *s)
{
    const ir_func *f = s->f;
    s->fuse = xcalloc((size_t)(s->nops_total ? s->nops_total : 1), 1);
    for (int r = 0; r < f->regions.n; r++) {
        const ir_region *reg = &f->regions.v[r];
        for (int i = 0; i < reg->nops; i++) {
            const ir_op *op = &reg->ops[i];
            if (op->opc != IR_ADDF && op->opc != IR_SUBF) continue;
            for (int k = 0; k < 2; k++) {
                const ir_value_info *vi = &f->values.v[op->opnd[k]];
                if (vi->def_kind != IR_DEF_OP || vi->region != r) continue;
                if (reg->ops[vi->index].opc != IR_MULF) continue;
                s->fuse[s->opbase[r] + i] = (uint8_t)(k + 1);
                break;
            }
        }
    }
}

/* Splats whose only uses are as the base of tt.addptr (eval_mem.c reads
 * the scalar directly), e.g. `x_ptr + offsets`. */
static void find_addr_splats(interp_session *s)
{
    const ir_func *f = s->f;
    s->addr_splat = xcalloc((size_t)(s->nvals ? s->nvals : 1), 1);
    for (int r = 0; r < f->regions.n; r++) {
        const ir_region *reg = &f->regions.v[r];
        for (int i = 0; i < reg->nops; i++)
            if (reg->ops[i].opc == IR_SPLAT) s->addr_splat[reg->ops[i].res] = 1;
    }
    for (int r = 0; r < f->regions.n; r++) {
        const ir_region *reg = &f->regions.v[r];
        for (int i = 0; i < reg->nops; i++) {
            const ir_op *op = &reg->ops[i];
            for (int k = 0; k < op->nopnd; k++)
                if (!(op->opc == IR_ADDPTR && k == 0)) s->addr_splat[op->opnd[k]] = 0;
        }
    }
}

/* Results of tt.addptr, arith.addi, tt.splat and arith.cmpi that only
 * tt.load and tt.store (as the pointer or the mask), arith.select (as the
 * condition), tt.addptr, arith.cmpi, arith.addi and the float
 * addf/subf/mulf/divf read: their row paths read
 * lane 0 of each row when the rows are runs or uniform (eval_mem.c,
 * eval_arith.c), so such a result may be left as row heads (CT_HEADS); any
 * other path of those ops fills the tile first (interp_full). */
static void find_heads(interp_session *s)
{
    const ir_func *f = s->f;
    s->heads_ok = xcalloc((size_t)(s->nvals ? s->nvals : 1), 1);
    for (int r = 0; r < f->regions.n; r++) {
        const ir_region *reg = &f->regions.v[r];
        for (int i = 0; i < reg->nops; i++) {
            const ir_op *op = &reg->ops[i];
            if ((op->opc == IR_ADDPTR || op->opc == IR_ADDI || op->opc == IR_SPLAT || op->opc == IR_CMPI) &&
                op->nres == 1 &&
                s->vi[op->res].numel > 1)
                s->heads_ok[op->res] = 1;
        }
    }
    for (int r = 0; r < f->regions.n; r++) {
        const ir_region *reg = &f->regions.v[r];
        for (int i = 0; i < reg->nops; i++) {
            const ir_op *op = &reg->ops[i];
            for (int k = 0; k < op->nopnd; k++) {
                bool ok = (op->opc == IR_LOAD && k < 2) || (op->opc == IR_STORE && k != 1) ||
                          (op->opc == IR_SELECT && k == 0) ||
                          ((op->opc == IR_ADDPTR || op->opc == IR_CMPI || op->opc == IR_ADDI || op->opc == IR_ADDF ||
                            op->opc == IR_SUBF || op->opc == IR_MULF || op->opc == IR_DIVF) && k < 2);
                if (!ok) s->heads_ok[op->opnd[k]] = 0;
            }
        }
    }
}

/* Splats of a kernel argument or a scalar constant hold the same tile in
 * every program: built once, like constants (exec.c hands them out), so a
 * loop's `cols < N` or `other=0.` costs no fill per iteration. Splats read
 * only as tt.addptr's base are never built. */
static void build_invariant_splats(interp_session *s)
{
    const ir_func *f = s->f;
    const ir_region *body = &f->regions.v[IR_BODY];
    for (int r = 0; r < f->regions.n; r++) {
        const ir_region *reg = &f->regions.v[r];
        for (int i = 0; i < reg->nops; i++) {
            const ir_op *op = &reg->ops[i];
            if (op->opc != IR_SPLAT || s->addr_splat[op->res]) continue;
            ir_value v = op->opnd[0];
            const ir_value_info *in = &f->values.v[v];
            const void *src = NULL;
            if (in->def_kind == IR_DEF_ARG && in->region == IR_BODY && in->index >= 0 && in->index < body->nargs)
                src = s->argdata[in->index];
            else if (in->def_kind == IR_DEF_OP && f->regions.v[in->region].ops[in->index].opc == IR_CONSTANT)
                src = s->constdata[v];
            if (!src || s->vi[v].numel != 1) continue;
            const ival_info *vi = &s->vi[op->res];
            void *d = arena_alloc(&s->perm, (size_t)vi->numel * vi->esize);
            interp_splat(d, src, vi->esize, vi->numel);
            s->constdata[op->res] = d;
        }
    }
}

/* Inline PTX (tt.elementwise_inline_asm) cannot run on the CPU: a located
 * error at the first such op, and no session. */
static bool refuse_inline_asm(const ir_func *f)
{
    for (int r = 0; r < f->regions.n; r++)
        for (int i = 0; i < f->regions.v[r].nops; i++) {
            const ir_op *op = &f->regions.v[r].ops[i];
            if (ir_ops[op->opc].family != F_ASM) continue;
            src_pos at = { -1, 0, 0 };
            if (op->loc >= 0 && op->loc < f->locs.n)
                at = (src_pos){ f->locs.v[op->loc].file, f->locs.v[op->loc].line, f->locs.v[op->loc].col };
            diag_error(at, "tritium cannot run PTX on the CPU: inline_asm_elementwise runs only on the GPU "
                           "(tritium run --device gpu; tritium ptx shows the code)");
            return true;
        }
    return false;
}

interp_session *interp_session_new(const ir_func *f, launch *l, const interp_options *o)
{
    const ir_region *body = &f->regions.v[IR_BODY];
    if (refuse_inline_asm(f)) return NULL;
    if (l->nargs != body->nargs) {
        fprintf(stderr, "tritium: error: kernel %s takes %d runtime arguments, the launch gives %d\n", f->name,
                body->nargs, l->nargs);
        return NULL;
    }
    interp_session *s = xcalloc(1, sizeof *s);
    s->f = f;
    s->l = l;
    if (o) s->o = *o;
    else interp_options_default(&s->o);
    s->out = s->o.report ? s->o.report : stderr;
    s->pout = s->o.output ? s->o.output : stdout;
    pthread_mutex_init(&s->shadow_lock, NULL);
    pthread_mutex_init(&s->hook_lock, NULL);
    pthread_mutex_init(&s->rep_lock, NULL);
    for (int d = 0; d < 3; d++) s->grid[d] = l->grid[d] > 0 ? l->grid[d] : (l->grid[d] == 0 ? 0 : 1);
    s->nprograms = s->grid[0] * s->grid[1] * s->grid[2];

    s->nvals = f->values.n;
    s->vi = xcalloc((size_t)(s->nvals ? s->nvals : 1), sizeof *s->vi);
    for (int v = 0; v < s->nvals; v++) fill_vinfo(&s->vi[v], f->values.v[v].type);

    s->opbase = xcalloc((size_t)f->regions.n + 1, sizeof *s->opbase);
    for (int r = 0; r < f->regions.n; r++) s->opbase[r + 1] = s->opbase[r] + f->regions.v[r].nops;
    s->nops_total = s->opbase[f->regions.n];
    s->sites = xcalloc((size_t)(s->nops_total ? s->nops_total : 1) * FK_COUNT, sizeof *s->sites);

    bool ok = interp_buffers_new(s);
    s->argdata = xcalloc((size_t)(body->nargs ? body->nargs : 1), sizeof *s->argdata);
    for (int i = 0; ok && i < body->nargs; i++) ok = bind_arg(s, i);

    /* constants and ranges are computed once and shared by all programs */
    s->constdata = xcalloc((size_t)(s->nvals ? s->nvals : 1), sizeof *s->constdata);
    for (int r = 0; ok && r < f->regions.n; r++) {
        const ir_region *reg = &f->regions.v[r];
        for (int i = 0; i < reg->nops; i++) {
            const ir_op *op = &reg->ops[i];
            if (op->opc != IR_CONSTANT && op->opc != IR_MAKE_RANGE) continue;
            const ival_info *vi = &s->vi[op->res];
            void *d = arena_alloc(&s->perm, (size_t)vi->numel * vi->esize);
            interp_const_fill(vi, op, d);
            s->constdata[op->res] = d;
        }
    }
    if (s->o.numerics == NUMERICS_FAST) find_fusions(s);
    find_addr_splats(s);
    find_heads(s);
    if (ok) build_invariant_splats(s);
    interp_overflow_plan(s);
    if (ok) interp_views_plan(s);
    if (!ok) {
        interp_session_free(s);
        return NULL;
    }
    interp_bound_session(s);
    for (int i = 0; i < l->nargs + l->nextra; i++)
        if (l->args[i].kind == ARG_TENSOR && l->args[i].uninit) interp_mark_uninitialized(s, i);
    interp_prog_init(s, &s->main);
    return s;
}

void interp_session_free(interp_session *s)
{
    if (!s) return;
    interp_pool_free(s);
    interp_prog_free(&s->main);
    interp_bound_session_free(s);
    interp_buffers_free(s);
    arena_free(&s->perm);
    free(s->vi);
    free(s->argdata);
    free(s->constdata);
    free(s->opbase);
    free(s->sites);
    free(s->fuse);
    free(s->addr_splat);
    free(s->heads_ok);
    free(s->ovf);
    pthread_mutex_destroy(&s->shadow_lock);
    pthread_mutex_destroy(&s->hook_lock);
    pthread_mutex_destroy(&s->rep_lock);
    free(s);
}

void interp_set_hook(interp_session *s, interp_hook_fn fn, void *user)
{
    s->hook = fn;
    s->hook_user = user;
}

void interp_set_trap(interp_session *s, bool on) { TRAP_SET(s->trap, on || TRAP_GET(s->interrupted)); }

void interp_get_stats(const interp_session *s, interp_stats *st)
{
    *st = s->st;
    st->programs = __atomic_load_n(&s->st.programs, __ATOMIC_RELAXED);
}

const void *interp_value_data(interp_session *s, ir_value v)
{
    interp_prog *p = s->cur ? s->cur : &s->main;
    if (v < 0 || v >= s->nvals || !p->vals) return NULL;
    if (p->vals[v]) interp_full(p, v);         /* the debugger shows every lane */
    return p->vals[v];
}
