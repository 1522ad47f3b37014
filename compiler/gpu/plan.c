/* plan.c — choose a layout for every value before lowering.
 *
 * Rules (a simplified form of Triton's layout assignment + "remove layout
 * conversions"):
 *   - sources (constants, make_range, splat) and broadcast results take the
 *     default coalesced blocked layout of their shape; loads/atomics take
 *     their pointer's layout;
 *   - expand_dims inserts a dim into its operand's layout, reduce slices it;
 *   - elementwise ops take the layout of their first operand that cannot be
 *     recomputed cheaply (rematerialized), else of their first operand
 *     (with wgmma on (g_wgmma_enabled) loop-carried values with a cheap initial value
 *     do not count: they follow what the loop yields; and a broadcast of
 *     expand_dims(x) takes the layout x was reduced from);
 *   - tl.dot takes the wgmma or mma accumulator layout (or, on the FMA path, its
 *     accumulator's layout);
 *   - loop-carried values take their initial value's layout, unless that is
 *     cheap to recompute and the loop body yields another layout (so that the
 *     accumulator of a matmul loop lives in the mma layout).
 * Lowering converts operands to what each op needs; values that are cheap to
 * recompute are rematerialized in the wanted layout instead of being shuffled
 * through shared memory. */
#include "gpu_int.h"

#include <string.h>

int gl_intern(gctx *g, const glayout *L)
{
    for (int i = 0; i < g->lays.n; i++)
        if (gl_equal(&g->lays.v[i], L)) return i;
    vec_push(&g->lays, *L);
    return g->lays.n - 1;
}

int gl_default_for(gctx *g, ir_type t)
{
    const ir_type_info *ti = ir_type_get(t);
    if (ti->rank == 0) return 0;
    glayout L;
    if (!gl_default(&L, ti->rank, ti->shape, g->vec_default, g->num_warps)) {
        char buf[96];
        gfail(g, -1, "tile %s is not supported (dims must be powers of two, at most 2^%d elements per thread)",
              ir_type_str(t, buf, sizeof buf), GL_MAXREG);
        return 0;
    }
    return gl_intern(g, &L);
}

static bool is_source(int opc)
{
    return opc == IR_CONSTANT || opc == IR_MAKE_RANGE || opc == IR_SPLAT;
}

/* Ops that lowering may recompute in another layout (see g_convert). */
static bool remat_op(int opc)
{
    if (is_source(opc) || opc == IR_BROADCAST || opc == IR_EXPAND_DIMS) return true;
    return (ir_ops[opc].props & (P_ELEMWISE | P_COSTLY)) == P_ELEMWISE;
}

bool gpu_is_remat(gctx *g, ir_value v, int depth)
{
    if (ir_type_rank(g->f->values.v[v].type) == 0) return true;
    if (depth > 12) return false;
    ir_op *op = ir_def(g->f, v);
    if (!op || !remat_op(op->opc)) return false;
    for (int i = 0; i < op->nopnd; i++)
        if (!gpu_is_remat(g, op->opnd[i], depth + 1)) return false;
    return true;
}

/* ---- planning predicates: decisions the planner, the pipeliner and the
 * lowering files must agree on (which dot path, which masks, how wide a
 * memory access), so they live here, below all of them. ---- */

static ir_type vt(gctx *g, ir_value v) { return g->f->values.v[v].type; }

/* Constant-true masks are no masks. */
bool g_mask_is_true(gctx *g, ir_value m)
{
    ir_op *d = ir_def(g->f, m);
    while (d && (d->opc == IR_SPLAT || d->opc == IR_BROADCAST)) d = ir_def(g->f, d->opnd[0]);
    return d && d->opc == IR_CONSTANT && d->ival != 0;
}

/* The vector plan of a load or store (gpu_int.h's vplan; Triton's
 * LoadStoreOpToLLVM.cpp getVectorSize, getMaskAlignment): the most contiguous
 * dim of the pointer, as many elements as its contiguity, alignment (at most
 * 16 bytes) and a mask constant over the group allow. */
vplan g_plan_vec(gctx *g, int lay, ir_value ptr, ir_value mask, int esize)
{
    vplan p = { 1, 0, -1, { 0 } };
    const glayout *L = gl_get(g, lay);
    if (L->rank == 0) return p;
    const gaxis *ax = &g->ax[ptr];
    int best = -1;
    for (int d = 0; d < L->rank; d++)
        if (ax->contig[d] > 1 && (best < 0 || ax->contig[d] > ax->contig[best])) best = d;
    if (best < 0) return p;
    p.dim = best;
    int64_t lim = ax->contig[best];
    if (16 / esize < lim) lim = 16 / esize;
    if (ax->div[best] / esize < lim) lim = ax->div[best] / esize;
    if (mask >= 0 && g->ax[mask].cnst[best] < lim) lim = g->ax[mask].cnst[best];
    for (int i = 0; i < 8; i++) {
        if (((int64_t)2 << i) > lim) break;
        int found = -1;
        for (int r = 0; r < L->nreg; r++)
            if (L->reg[r].dim == best && L->reg[r].bit == i) found = r;
        if (found < 0) break;
        p.bitreg[i] = found;
        p.nbits = i + 1;
    }
    p.vec = 1 << p.nbits;
    return p;
}

bool g_wgmma_enabled(const gctx *g)
{
    return g->sm == 90 && !g->o->set.mma_sync;
}

bool g_dot_uses_mma(gctx *g, const ir_op *op)
{
    if (g->sm < 80) return false;
    const ir_type_info *a = ir_type_get(vt(g, op->opnd[0])), *c = ir_type_get(vt(g, op->res));
    if (a->rank != 2) return false;
    tt_dtype ae = ir_type_get(ir_type_elem(vt(g, op->opnd[0])))->elem;
    tt_dtype ce = ir_type_get(ir_type_elem(vt(g, op->res)))->elem;
    if (ce != TT_F32) return false;
    int kw;
    if (ae == TT_F16 || ae == TT_BF16) kw = 16;
    else if (ae == TT_F32 && (op->attr[0] == PREC_TF32)) kw = 8;
    else return false;
    int64_t M = c->shape[0], N = c->shape[1], K = a->shape[1];
    glayout L;
    return gl_mma(&L, 0, M, N, K, kw, g->num_warps) && gl_mma(&L, 1, M, N, K, kw, g->num_warps) &&
           gl_mma(&L, 2, M, N, K, kw, g->num_warps);
}

bool g_dot_uses_wgmma(gctx *g, const ir_op *op)
{
    if (!g_wgmma_enabled(g) || !g_dot_uses_mma(g, op)) return false;
    tt_dtype ae = ir_type_get(ir_type_elem(vt(g, op->opnd[0])))->elem;
    if (ae != TT_F16 && ae != TT_BF16) return false;
    const ir_type_info *c = ir_type_get(vt(g, op->res));
    glayout L;
    return gl_wgmma(&L, c->shape[0], c->shape[1], g->num_warps);
}

static void plan_region(gctx *g, int r);

static ir_op *terminator(gctx *g, int r)
{
    ir_region *rg = &g->f->regions.v[r];
    if (!rg->nops) return NULL;
    ir_op *t = &rg->ops[rg->nops - 1];
    return (ir_ops[t->opc].props & P_TERMINATOR) ? t : NULL;
}

static int lay_of(gctx *g, ir_value v) { return g->vlay[v]; }

static void plan_loop_args(gctx *g, ir_op *op, int carried_region, const ir_value *inits, int ninit,
                           int first_arg, int yield_region, int yield_first)
{
    ir_region *rg = &g->f->regions.v[carried_region];
    for (int k = 0; k < ninit && first_arg + k < rg->nargs; k++)
        g->vlay[rg->args[first_arg + k]] = lay_of(g, inits[k]);
    for (int it = 0; it < 4; it++) {
        for (int k = 0; k < op->nregions; k++) plan_region(g, op->region[k]);
        ir_op *y = terminator(g, yield_region);
        bool ch = false;
        for (int k = 0; y && k < ninit && yield_first + k < y->nopnd && first_arg + k < rg->nargs; k++) {
            ir_value a = rg->args[first_arg + k];
            int yl = lay_of(g, y->opnd[yield_first + k]);
            if (yl != g->vlay[a] && gpu_is_remat(g, inits[k], 0)) {
                g->vlay[a] = yl;
                ch = true;
            }
        }
        if (!ch) break;
    }
}

/* A loop-carried value of an scf.for whose initial value is cheap to
 * recompute: plan_loop_args gives it the layout the loop yields, so it
 * should not decide the layout of the ops that read it. */
static bool flexible(gctx *g, ir_value v)
{
    const ir_value_info *vi = &g->f->values.v[v];
    if (vi->def_kind != IR_DEF_REGION_ARG) return false;
    ir_region *rg = &g->f->regions.v[vi->region];
    if (rg->parent_op < 0 || rg->parent_region < 0) return false;
    ir_op *own = &g->f->regions.v[rg->parent_region].ops[rg->parent_op];
    if (own->opc != IR_FOR || vi->index < 1 || 3 + vi->index - 1 >= own->nopnd) return false;
    return gpu_is_remat(g, own->opnd[3 + vi->index - 1], 0);
}

/* broadcast(expand_dims(x, axis)): an interned layout of the result's shape
 * whose slice along axis is x's layout (the layout x was reduced from, e.g.
 * attention's row max broadcast back over the wgmma accumulator), or -1. */
static int unreduced_layout(gctx *g, ir_op *bc)
{
    ir_op *e = ir_def(g->f, bc->opnd[0]);
    if (!e || e->opc != IR_EXPAND_DIMS) return -1;
    const ir_type_info *ti = ir_type_get(g->f->values.v[bc->res].type);
    int axis = (int)e->attr[0], xl = lay_of(g, e->opnd[0]);
    for (int i = 0; i < g->lays.n; i++) {
        glayout L = g->lays.v[i], s;
        if (L.rank != ti->rank || memcmp(L.shape, ti->shape, sizeof(int64_t) * (size_t)ti->rank)) continue;
        gl_slice(&s, &L, axis);
        if (gl_equal(&s, gl_get(g, xl))) return i;
    }
    return -1;
}

/* Uses of v under region r: 1 when its only use is operand B of a dot on
 * the wgmma path, else 2 (some other use) or 0 (none). */
static int only_wgmma_b(gctx *g, int r, ir_value v)
{
    ir_region *rg = &g->f->regions.v[r];
    int n = 0;
    for (int i = 0; i < rg->nops && n < 2; i++) {
        ir_op *op = &rg->ops[i];
        for (int k = 0; k < op->nopnd; k++)
            if (op->opnd[k] == v) n += op->opc == IR_DOT && k == 1 && g_dot_uses_wgmma(g, op) ? 1 : 2;
        for (int k = 0; k < op->nregions && n < 2; k++) n += only_wgmma_b(g, op->region[k], v);
    }
    return n < 2 ? n : 2;
}

static void plan_op(gctx *g, ir_op *op)
{
    ir_func *f = g->f;
    int opc = op->opc;
    ir_value res = op->res;
    if (op->nres == 1 && ir_type_rank(f->values.v[res].type) == 0 && opc != IR_IF && opc != IR_FOR && opc != IR_WHILE) {
        g->vlay[res] = 0;
        return;
    }
    switch (opc) {
    case IR_CONSTANT: case IR_MAKE_RANGE: case IR_SPLAT: case IR_BROADCAST: {
        int u = opc == IR_BROADCAST && g_wgmma_enabled(g) ? unreduced_layout(g, op) : -1;
        g->vlay[res] = u >= 0 ? u : gl_default_for(g, f->values.v[res].type);
        return;
    }
    case IR_EXPAND_DIMS: {
        glayout L;
        gl_expand(&L, gl_get(g, lay_of(g, op->opnd[0])), (int)op->attr[0]);
        g->vlay[res] = gl_intern(g, &L);
        return;
    }
    case IR_REDUCE:
    case IR_REDUCE_REGION: {
        glayout L;
        gl_slice(&L, gl_get(g, lay_of(g, op->opnd[0])), (int)op->attr[0]);
        int sl = gl_intern(g, &L);
        for (int k = 0; k < op->nres; k++) g->vlay[res + k] = ir_type_rank(f->values.v[res + k].type) ? sl : 0;
        return;
    }
    case IR_SCAN:
        for (int k = 0; k < op->nres; k++) g->vlay[res + k] = lay_of(g, op->opnd[k]);
        return;
    case IR_MAP_ELEMWISE: {   /* scalars inside; the results in the first operand's layout not cheap to recompute */
        plan_region(g, op->region[0]);
        int pick = lay_of(g, op->opnd[0]);
        for (int i = op->nopnd - 1; i >= 0; i--)
            if (!gpu_is_remat(g, op->opnd[i], 0)) pick = lay_of(g, op->opnd[i]);
        for (int k = 0; k < op->nres; k++) g->vlay[res + k] = pick;
        return;
    }
    case IR_LOAD: case IR_ATOMIC_RMW: case IR_ATOMIC_CAS: case IR_ATOMIC_POLL:
        g->vlay[res] = lay_of(g, op->opnd[0]);
        return;
    case IR_DOT: {
        const ir_type_info *ti = ir_type_get(f->values.v[res].type);
        if (g_dot_uses_wgmma(g, op)) {
            glayout L;
            gl_wgmma(&L, ti->shape[0], ti->shape[1], g->num_warps);
            g->vlay[res] = gl_intern(g, &L);
        } else if (g_dot_uses_mma(g, op)) {
            const ir_type_info *ai = ir_type_get(f->values.v[op->opnd[0]].type);
            glayout L;
            int kw = ai->elem == TT_F32 ? 8 : 16;
            gl_mma(&L, 0, ti->shape[0], ti->shape[1], ai->shape[1], kw, g->num_warps);
            g->vlay[res] = gl_intern(g, &L);
        } else if (!gpu_is_remat(g, op->opnd[2], 0)) {
            g->vlay[res] = lay_of(g, op->opnd[2]);
        } else {
            g->vlay[res] = gl_default_for(g, f->values.v[res].type);
        }
        return;
    }
    case IR_TRANS: case IR_RESHAPE:
        if (opc == IR_TRANS && only_wgmma_b(g, IR_BODY, res) == 1) {
            /* lower_wgmma.c stores the source: keep its registers (a relabeling, no conversion) */
            glayout L = *gl_get(g, lay_of(g, op->opnd[0]));
            if (L.rank == 2) {
                for (int k = 0; k < L.nreg; k++) if (L.reg[k].dim >= 0) L.reg[k].dim ^= 1;
                for (int k = 0; k < 5; k++) if (L.lane[k].dim >= 0) L.lane[k].dim ^= 1;
                for (int k = 0; k < L.nwarp; k++) if (L.warp[k].dim >= 0) L.warp[k].dim ^= 1;
                int64_t t = L.shape[0];
                L.shape[0] = L.shape[1];
                L.shape[1] = t;
                g->vlay[res] = gl_intern(g, &L);
                return;
            }
        }
        g->vlay[res] = gl_default_for(g, f->values.v[res].type);
        return;
    case IR_INLINE_ASM: {                        /* all results in the first tensor operand's layout */
        int lay = -1;
        for (int i = 0; i < op->nopnd && lay < 0; i++)
            if (ir_type_rank(f->values.v[op->opnd[i]].type)) lay = lay_of(g, op->opnd[i]);
        if (lay < 0) lay = gl_default_for(g, f->values.v[res].type);
        for (int k = 0; k < op->nres; k++) g->vlay[res + k] = ir_type_rank(f->values.v[res + k].type) ? lay : 0;
        return;
    }
    case IR_FOR: {
        ir_region *rg = &f->regions.v[op->region[0]];
        if (rg->nargs) g->vlay[rg->args[0]] = 0;
        plan_loop_args(g, op, op->region[0], op->opnd + 3, op->nopnd - 3, 1, op->region[0], 0);
        for (int k = 0; k < op->nres && k + 1 < rg->nargs; k++) g->vlay[res + k] = g->vlay[rg->args[k + 1]];
        return;
    }
    case IR_WHILE: {
        int before = op->region[0], after = op->region[1];
        ir_region *rb = &f->regions.v[before], *ra = &f->regions.v[after];
        for (int k = 0; k < rb->nargs && k < op->nopnd; k++) g->vlay[rb->args[k]] = lay_of(g, op->opnd[k]);
        for (int it = 0; it < 4; it++) {
            plan_region(g, before);
            ir_op *c = terminator(g, before);
            for (int k = 0; c && k < ra->nargs && k + 1 < c->nopnd; k++) g->vlay[ra->args[k]] = lay_of(g, c->opnd[k + 1]);
            plan_region(g, after);
            ir_op *y = terminator(g, after);
            bool ch = false;
            for (int k = 0; y && k < rb->nargs && k < y->nopnd && k < op->nopnd; k++) {
                int yl = lay_of(g, y->opnd[k]);
                if (yl != g->vlay[rb->args[k]] && gpu_is_remat(g, op->opnd[k], 0)) {
                    g->vlay[rb->args[k]] = yl;
                    ch = true;
                }
            }
            if (!ch) break;
        }
        for (int k = 0; k < op->nres && k < ra->nargs; k++) g->vlay[res + k] = g->vlay[ra->args[k]];
        return;
    }
    case IR_IF: {
        for (int k = 0; k < op->nregions; k++) plan_region(g, op->region[k]);
        ir_op *ty = op->nregions > 0 ? terminator(g, op->region[0]) : NULL;
        ir_op *ey = op->nregions > 1 ? terminator(g, op->region[1]) : NULL;
        for (int k = 0; k < op->nres; k++) {
            ir_value rv = res + k;
            if (ir_type_rank(f->values.v[rv].type) == 0) g->vlay[rv] = 0;
            else if (ty && ty->opc == IR_YIELD && k < ty->nopnd) g->vlay[rv] = lay_of(g, ty->opnd[k]);
            else if (ey && ey->opc == IR_YIELD && k < ey->nopnd) g->vlay[rv] = lay_of(g, ey->opnd[k]);
            else g->vlay[rv] = gl_default_for(g, f->values.v[rv].type);
        }
        return;
    }
    default:
        break;
    }
    if ((ir_ops[opc].props & P_ELEMWISE) && op->nres == 1) {
        int pick = -1, first = -1;
        bool wg = g_wgmma_enabled(g);     /* planner changes measured with the wgmma path first */
        for (int i = 0; i < op->nopnd; i++) {
            ir_value o = op->opnd[i];
            if (ir_type_rank(f->values.v[o].type) == 0) continue;
            if (first < 0) first = lay_of(g, o);
            if (pick < 0 && !gpu_is_remat(g, o, 0) && !(wg && flexible(g, o))) pick = lay_of(g, o);
        }
        g->vlay[res] = pick >= 0 ? pick : first >= 0 ? first : gl_default_for(g, f->values.v[res].type);
        return;
    }
    for (int k = 0; k < op->nres; k++) g->vlay[res + k] = gl_default_for(g, f->values.v[res + k].type);
}

static void plan_region(gctx *g, int r)
{
    for (int i = 0; i < g->f->regions.v[r].nops && !g->failed; i++) plan_op(g, &g->f->regions.v[r].ops[i]);
}

/* Smallest pointee of any memory op decides the vector width of default layouts. */
static int min_mem_bytes(gctx *g, int r, int cur)
{
    ir_region *rg = &g->f->regions.v[r];
    for (int i = 0; i < rg->nops; i++) {
        ir_op *op = &rg->ops[i];
        if (op->opc == IR_LOAD || op->opc == IR_STORE || op->opc == IR_ATOMIC_RMW || op->opc == IR_ATOMIC_CAS ||
            op->opc == IR_ATOMIC_POLL) {
            const ir_type_info *ti = ir_type_get(ir_type_elem(g->f->values.v[op->opnd[0]].type));
            if (ti->elem == TT_PTR && ir_type_rank(g->f->values.v[op->opnd[0]].type) > 0) {
                int b = ir_type_bits(ti->pointee) / 8;
                if (b < 1) b = 1;
                if (b < cur) cur = b;
            }
        }
        for (int k = 0; k < op->nregions; k++) cur = min_mem_bytes(g, op->region[k], cur);
    }
    return cur;
}

void gpu_plan(gctx *g)
{
    glayout s;
    gl_scalar(&s, g->nwarp);
    g->lays.n = 0;
    gl_intern(g, &s);
    int b = min_mem_bytes(g, IR_BODY, 16);
    if (b == 16) b = 4;
    g->vec_default = 16 / b;
    ir_region *body = &g->f->regions.v[IR_BODY];
    for (int k = 0; k < body->nargs; k++) g->vlay[body->args[k]] = 0;
    plan_region(g, IR_BODY);
}
