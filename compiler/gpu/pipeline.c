/* pipeline.c — multi-stage software pipelining of the loads that feed
 * tensor-core dots inside an scf.for (Triton's LoopPipelining with
 * num_stages, sm_80 flavour: cp.async into shared memory).
 *
 * A load qualifies when it sits at the top level of the loop body, has
 * 16-bit elements, is used only as operand A or B of an mma dot at the top
 * level of the same body, its "other" is absent or +0, the axis analysis
 * vectorizes it along the last dim (4, 8 or 16 bytes per access), and its
 * pointer and mask can be computed for a later iteration: they are built
 * from loop invariants, the induction variable and loop-carried values
 * advanced by an invariant tt.addptr / arith.addi each iteration, through
 * pure ops only.
 *
 * With S stages (4 when a stage is at most 16 KB, else 3; TRITIUM_GPU_STAGES
 * overrides, 1 disables), the prologue issues iterations 0..S-2 into stages
 * 0..S-2; iteration i waits until at most S-2 copy groups are pending (its
 * own group has landed), synchronizes the CTA (its copies are visible to
 * every warp, and every warp has finished reading the stage of iteration
 * i-1, which is the stage iteration i+S-1 refills), issues iteration i+S-1,
 * and its dots read stage i % S with ldmatrix. Masked-off elements and
 * iterations past the end are zero-filled (cp.async src-size 0), which is
 * what a load with other=0 yields. After the loop: wait for all groups and
 * synchronize before shared memory is reused.
 *
 * On sm_90a a wgmma operand that a 2-D tensor descriptor or block pointer
 * loads through a tensor map (ops.def, tt.load with desc operands;
 * gpu_tma_maps) is copied by TMA instead (tma.c), as Triton 3.6 does for
 * descriptors: thread 0 arms the stage's mbarrier with the stage's bytes and
 * issues one cp.async.bulk.tensor per 128-byte column slab at the block's
 * offsets; every thread waits on the mbarrier's phase before the stage is
 * read. The descriptor's bounds come from the tensor map, so the pointer
 * tile and mask are not computed. $TRITIUM_TMA=0 turns it off. */
#include "gpu_int.h"

#include <stdlib.h>
#include <string.h>

#define PIPE_MAXLOADS 8

typedef struct pload {
    ir_op *op;
    ir_value ptr, mask;            /* mask -1: none */
    int lay;
    vplan vp;
    int64_t rows, cols;
    int esz;
    bool wg;                       /* feeds a wgmma dot: tile in the wgmma layout */
    int tma;                       /* TMA: the tensor map it reads (gpu_tma_maps); -1: cp.async */
    uint32_t box[2];               /* TMA: box, innermost first (gpu_tma_box) */
    int64_t off;                   /* byte offset inside a stage */
    gtile tile;                    /* the current iteration's stage */
} pload;

typedef struct memo_ent { ir_value v; int lay; gv x; } memo_ent;

typedef struct gpipe {
    ir_op *loop;
    int body;
    int stages;
    int nload;
    pload ld[PIPE_MAXLOADS];
    int64_t stage_bytes;
    bool wg;                       /* some tile is read by wgmma (1024-byte alignment, proxy fence) */
    int64_t tma_bytes;             /* bytes a stage receives by TMA (0: none) */
    int64_t bar_off;               /* TMA: the stages' mbarriers, 8 bytes each, in shared memory */
    bool cp_async;                 /* some load goes through cp.async */
    ir_op *async;                  /* the wgmma dot left in flight across iterations, or NULL */
    int async_k;                   /* its result is carried value k (region arg k) */
    ir_op *async_retire;           /* an earlier wgmma dot of the body whose wait_group 0 retires it
                                    * (attention's q k^T for p v), or NULL (it chains on itself) */
    int dist;                      /* iterations between issuing a stage and reading it */
    gv *carried;                   /* the loop's header phis (g_pipe_begin) */
    int base_off, saved_scratch;
    bool *inloop;
} gpipe;

typedef struct ectx {
    gpipe *p;
    LLVMValueRef iv, step;         /* base iteration's induction variable */
    gv *carried;                   /* base iteration's loop-carried values (args 1..) */
    int64_t d;                     /* evaluate at base + d iterations */
    VEC(memo_ent) memo;
} ectx;

static void mark(gctx *g, int r, bool *in)
{
    ir_region *rg = &g->f->regions.v[r];
    for (int k = 0; k < rg->nargs; k++) in[rg->args[k]] = true;
    for (int i = 0; i < rg->nops; i++) {
        ir_op *op = &rg->ops[i];
        for (int k = 0; k < op->nres; k++) in[op->res + k] = true;
        for (int k = 0; k < op->nregions; k++) mark(g, op->region[k], in);
    }
}

static int count_uses(gctx *g, int r, ir_value v)
{
    ir_region *rg = &g->f->regions.v[r];
    int n = 0;
    for (int i = 0; i < rg->nops; i++) {
        ir_op *op = &rg->ops[i];
        for (int k = 0; k < op->nopnd; k++) n += op->opnd[k] == v;
        for (int k = 0; k < op->nregions; k++) n += count_uses(g, op->region[k], v);
    }
    return n;
}

static ir_op *top_def(gctx *g, gpipe *p, ir_value v)
{
    const ir_value_info *vi = &g->f->values.v[v];
    if (vi->def_kind != IR_DEF_OP || vi->region != p->body) return NULL;
    return ir_def(g->f, v);
}

static bool pure_op(const ir_op *op)
{
    int opc = op->opc;
    if (op->nres != 1 || op->nregions) return false;
    if (opc == IR_CONSTANT || opc == IR_MAKE_RANGE || opc == IR_SPLAT || opc == IR_BROADCAST || opc == IR_EXPAND_DIMS)
        return true;
    return (ir_ops[opc].props & P_ELEMWISE) && (ir_ops[opc].props & P_PURE);
}

static int carried_index(gctx *g, gpipe *p, ir_value v)
{
    ir_region *rg = &g->f->regions.v[p->body];
    for (int k = 1; k < rg->nargs; k++)
        if (rg->args[k] == v) return k;
    return -1;
}

/* Loop-carried arg k is yielded unchanged (ir_carried_init). */
static bool passthrough(gctx *g, gpipe *p, int k)
{
    return ir_carried_init(g->f, g->f->regions.v[p->body].args[k]) >= 0;
}

static bool invariant(gctx *g, gpipe *p, ir_value v, int depth)
{
    if (!p->inloop[v]) return true;
    if (depth > 24) return false;
    int k = carried_index(g, p, v);
    if (k >= 0) return passthrough(g, p, k);
    ir_op *op = top_def(g, p, v);
    if (!op || !pure_op(op)) return false;
    for (int i = 0; i < op->nopnd; i++)
        if (!invariant(g, p, op->opnd[i], depth + 1)) return false;
    return true;
}

/* The invariant increment of loop-carried arg k, or -1. */
static ir_value carried_inc(gctx *g, gpipe *p, int k)
{
    ir_region *rg = &g->f->regions.v[p->body];
    if (!rg->nops) return -1;
    ir_op *y = &rg->ops[rg->nops - 1];
    if (y->opc != IR_YIELD || k - 1 >= y->nopnd) return -1;
    ir_op *d = top_def(g, p, y->opnd[k - 1]);
    if (!d || (d->opc != IR_ADDPTR && d->opc != IR_ADDI)) return -1;
    ir_value a = rg->args[k];
    if (d->opnd[0] == a && invariant(g, p, d->opnd[1], 0)) return d->opnd[1];
    if (d->opc == IR_ADDI && d->opnd[1] == a && invariant(g, p, d->opnd[0], 0)) return d->opnd[0];
    return -1;
}

static bool can_eval(gctx *g, gpipe *p, ir_value v, int depth)
{
    if (!p->inloop[v]) return true;
    if (depth > 24) return false;
    ir_region *rg = &g->f->regions.v[p->body];
    if (v == rg->args[0]) return true;
    int k = carried_index(g, p, v);
    if (k >= 0) return passthrough(g, p, k) || carried_inc(g, p, k) >= 0;
    ir_op *op = top_def(g, p, v);
    if (!op || !pure_op(op)) return false;
    for (int i = 0; i < op->nopnd; i++)
        if (!can_eval(g, p, op->opnd[i], depth + 1)) return false;
    return true;
}

/* +0.0 / 0 through splats, broadcasts and conversions. */
static bool is_zero(gctx *g, ir_value v)
{
    for (int i = 0; i < 8; i++) {
        ir_op *d = ir_def(g->f, v);
        if (!d) return false;
        switch (d->opc) {
        case IR_SPLAT: case IR_BROADCAST: case IR_TRUNCF: case IR_EXTF: case IR_SITOFP: case IR_BITCAST:
            v = d->opnd[0];
            continue;
        case IR_CONSTANT:
            if (ir_type_is_float(g->f->values.v[v].type)) return d->fval == 0 && !__builtin_signbit(d->fval);
            return d->ival == 0;
        default:
            return false;
        }
    }
    return false;
}

#define PDBG(...) do { if (g->o->set.gpu_debug) fprintf(stderr, "pipeline: " __VA_ARGS__); } while (0)

/* The tensor map (gpu_tma_maps) a 2-D descriptor load (ops.def, tt.load
 * with desc operands) may read, or -1: a wgmma operand of a kernel with
 * maps (sm_90a, lower.c), a map for its descriptor and box, and offsets
 * computable for a later iteration. */
static int tma_map(gctx *g, gpipe *p, const ir_op *op, bool wg, uint32_t box[2])
{
    if (!wg || !g->nmaps) return -1;
    int j = gpu_tma_map_of(g->f, g->maps, g->nmaps, op);
    if (j < 0) {
        if (op->nopnd > 3) PDBG("%%%d: no tensor map (gpu_tma_maps' conditions)\n", op->res);
        return -1;
    }
    if (!can_eval(g, p, op->opnd[4], 0) || !can_eval(g, p, op->opnd[5], 0)) return -1;
    for (int k = 0; k + 2 < g->maps[j].rank; k++)
        if (!can_eval(g, p, g->maps[j].batch[k], 0)) return -1;
    memcpy(box, g->maps[j].box, sizeof g->maps[j].box);
    return j;
}

static void try_load(gctx *g, gpipe *p, ir_value v, bool wg)
{
    ir_op *op = top_def(g, p, v);
    if (!op || op->opc != IR_LOAD || p->nload == PIPE_MAXLOADS) return;
    for (int i = 0; i < p->nload; i++)
        if (p->ld[i].op == op) return;
    if (count_uses(g, p->body, v) != 1) { PDBG("%%%d: %d uses\n", v, count_uses(g, p->body, v)); return; }
    const ir_type_info *ti = ir_type_get(g->f->values.v[v].type);
    if (ti->rank != 2 || ir_type_bits(ir_type_elem(g->f->values.v[v].type)) != 16) return;
    ir_value mask = op->nopnd > 1 && !g_mask_is_true(g, op->opnd[1]) ? op->opnd[1] : -1;
    if (mask >= 0 && op->nopnd > 2 && !is_zero(g, op->opnd[2])) return;
    ir_value ptr = op->opnd[0];
    int lay = g->vlay[v];
    uint32_t box[2] = { 0, 0 };
    int tma = tma_map(g, p, op, wg, box);
    vplan vp = { 0 };
    if (tma < 0) {
        if (!can_eval(g, p, ptr, 0) || (mask >= 0 && !can_eval(g, p, mask, 0))) { PDBG("%%%d: pointer/mask not computable ahead\n", v); return; }
        if (lay != g->vlay[ptr] || (mask >= 0 && ir_type_rank(g->f->values.v[mask].type) != 2)) return;
        vp = g_plan_vec(g, lay, ptr, mask, 2);
        if (vp.dim != 1 || vp.vec < 2) { PDBG("%%%d: vector dim %d x %d\n", v, vp.dim, vp.vec); return; }
        if (ti->shape[1] * 2 < 16) return;
    }
    pload *l = &p->ld[p->nload++];
    memset(l, 0, sizeof *l);
    l->tma = tma;
    if (tma >= 0) g->tma_used |= 1ULL << tma;
    memcpy(l->box, box, sizeof box);
    l->op = op;
    l->ptr = ptr;
    l->mask = mask;
    l->lay = lay;
    l->vp = vp;
    l->rows = ti->shape[0];
    l->cols = ti->shape[1];
    l->esz = 2;
    l->wg = wg;
    p->wg |= wg;
}

static bool piped(gpipe *p, ir_value v)
{
    for (int i = 0; i < p->nload; i++)
        if (p->ld[i].op->res == v) return true;
    return false;
}

/* B = tt.trans(x) (2-D, [1,0]) of a wgmma dot, x used only there: x, whose
 * tile lower_wgmma.c reads K-major (attention's k.T); else -1. */
static ir_value trans_source(gctx *g, gpipe *p, ir_value b)
{
    ir_op *t = top_def(g, p, b);
    int64_t ord[IR_ATTR_ARRAY_MAX];
    if (!t || t->opc != IR_TRANS || ir_type_rank(g->f->values.v[b].type) != 2) return -1;
    if (ir_attr_array_get(g->f, t->attr[0], ord) == 2 && ord[0] != 1) return -1;
    if (count_uses(g, p->body, b) != 1) return -1;
    return t->opnd[0];
}

/* Uses of v by op: its operands and the ops of its regions. */
static int op_uses(gctx *g, const ir_op *op, ir_value v)
{
    int n = 0;
    for (int k = 0; k < op->nopnd; k++) n += op->opnd[k] == v;
    for (int k = 0; k < op->nregions; k++) n += count_uses(g, op->region[k], v);
    return n;
}

/* With $TRITIUM_WGMMA_ASYNC=1: a wgmma dot whose B operand is pipelined and
 * whose result is only yielded, as carried value k: its MMA group may stay
 * in flight into the next iteration (Triton's WGMMAPipeline.cpp), and
 * g_pipe_end waits for it after the loop. Two forms:
 *   - matmul: A pipelined too, the accumulator is carried value k itself
 *     (used there only): the next iteration's dot chains on it, and it
 *     waits with wait_group 1 (one group in flight);
 *   - attention (acc = tl.dot(p, v, acc * alpha)): an earlier wgmma dot of
 *     the body (q k^T) comes before every use of carried value k; its
 *     wait_group 0 retires the previous iteration's group too, and carries
 *     value k's registers through that wait (p->async_retire).
 * $TRITIUM_WGMMA_ASYNC unset: the attention form only (on the H100 at
 * 593e302 it took tutorial 06 from 0.91-0.99x Triton's time to 0.87-0.88x,
 * where the matmul form was 2 % slower than waiting); 1: both; 0: neither. */
static ir_op *async_dot(gctx *g, gpipe *p)
{
    bool all = g->o->set.wgmma_async == 1;
    if (g->o->set.wgmma_async == 0) return NULL;
    ir_region *rg = &g->f->regions.v[p->body];
    ir_op *y = rg->nops ? &rg->ops[rg->nops - 1] : NULL;
    if (!y || y->opc != IR_YIELD) return NULL;
    for (int i = 0; i < rg->nops; i++) {
        ir_op *op = &rg->ops[i];
        if (op->opc != IR_DOT || !g_dot_uses_wgmma(g, op)) continue;
        ir_value bs = trans_source(g, p, op->opnd[1]);
        if (!(piped(p, op->opnd[1]) || (bs >= 0 && piped(p, bs)))) continue;
        int k = -1;
        for (int j = 0; j < y->nopnd; j++)
            if (y->opnd[j] == op->res) k = j + 1;
        if (k < 1 || k >= rg->nargs || count_uses(g, p->body, op->res) != 1) continue;
        p->async_k = k;
        p->async_retire = NULL;
        if (op->opnd[2] == rg->args[k]) {
            if (all && piped(p, op->opnd[0]) && count_uses(g, p->body, rg->args[k]) == 1) return op;
            continue;
        }
        for (int j = 0; j < i; j++) {          /* the first wgmma dot before any use of value k */
            ir_op *d = &rg->ops[j];
            if (op_uses(g, d, rg->args[k])) break;
            if (d->opc == IR_DOT && g_dot_uses_wgmma(g, d)) {
                p->async_retire = d;
                return op;
            }
        }
    }
    return NULL;
}

gpipe *g_pipe_analyze(gctx *g, ir_op *forop)
{
    int stages = (int)g->o->set.gpu_stages;
    if ((stages && stages < 2) || g->o->set.gpu_old_mma || g->sm < 80 || g->npipes == (int)TT_COUNTOF(g->pipes)) return NULL;
    int body = forop->region[0];
    ir_region *rg = &g->f->regions.v[body];
    bool any = false;
    for (int i = 0; i < rg->nops && !any; i++) any = rg->ops[i].opc == IR_DOT;
    if (!any) return NULL;
    gpipe *p = arena_alloc(&g->mem, sizeof *p);
    memset(p, 0, sizeof *p);
    p->loop = forop;
    p->body = body;
    p->inloop = arena_alloc(&g->mem, (size_t)g->f->values.n + 1);   /* freed with g->mem */
    memset(p->inloop, 0, (size_t)g->f->values.n + 1);
    mark(g, body, p->inloop);
    for (int i = 0; i < rg->nops; i++) {
        ir_op *op = &rg->ops[i];
        if (op->opc != IR_DOT || !g_dot_uses_mma(g, op)) continue;
        tt_dtype ae = ir_type_get(ir_type_elem(g->f->values.v[op->opnd[0]].type))->elem;
        if (ae != TT_F16 && ae != TT_BF16) continue;
        bool wg = g_dot_uses_wgmma(g, op);
        try_load(g, p, op->opnd[0], wg);
        ir_value bs = wg ? trans_source(g, p, op->opnd[1]) : -1;
        try_load(g, p, bs >= 0 ? bs : op->opnd[1], wg);
    }
    if (!p->nload) return NULL;
    p->async = async_dot(g, p);
    int64_t sb = 0;
    for (int i = 0; i < p->nload; i++) {
        p->ld[i].off = sb;
        int64_t al = p->wg ? 1024 : 128;   /* wgmma: the swizzle repeats every 1024 bytes */
        sb += (p->ld[i].rows * p->ld[i].cols * p->ld[i].esz + al - 1) & ~(al - 1);
        if (p->ld[i].tma >= 0) p->tma_bytes += p->ld[i].rows * p->ld[i].cols * p->ld[i].esz;
        else p->cp_async = true;
    }
    p->stage_bytes = sb;
    /* Default depth: 4 stages while a stage is at most 16 KB (H200, matmul
     * 4096^3 128x128x32, 4 warps: 386 TFLOP/s with 4 stages, 344 with 3),
     * else 3 (Triton's num_stages default). */
    if (!stages) stages = (sb <= 16 * 1024 ? 4 : 3) + (p->async != NULL);
    int64_t limit = g->o->set.gpu_pipe_smem;
    while (stages > 2 && g->scratch_off + 1024 * p->wg + stages * sb > limit) stages--;
    if (stages < 3) p->async = NULL;
    p->stages = stages;
    /* an MMA in flight still reads the stage of the previous iteration:
     * refill the one before it */
    p->dist = stages - 1 - (p->async != NULL);
    return p;
}

/* ---- evaluating pointer and mask at a later iteration ---- */

static gv ev(gctx *g, ir_value v, int lay, void *ctxp)
{
    ectx *e = ctxp;
    gpipe *p = e->p;
    for (int i = 0; i < e->memo.n; i++)
        if (e->memo.v[i].v == v && e->memo.v[i].lay == lay) return e->memo.v[i].x;
    gv x;
    ir_region *rg = &g->f->regions.v[p->body];
    ir_type t = g->f->values.v[v].type;
    int k;
    if (!p->inloop[v]) {
        x = g_convert(g, v, lay);
    } else if (v == rg->args[0]) {
        x = g_new(g, 1, 0);
        LLVMTypeRef it = LLVMTypeOf(e->iv);
        x.r[0] = e->d ? LLVMBuildAdd(g->B, e->iv, LLVMBuildMul(g->B, e->step, LLVMConstInt(it, (unsigned long long)e->d, 0), ""), "")
                      : e->iv;
    } else if ((k = carried_index(g, p, v)) >= 0) {
        gv base = g_convert_gv(g, e->carried[k - 1], t, lay);
        if (!e->d || passthrough(g, p, k)) {
            x = base;
        } else {
            ir_value incv = carried_inc(g, p, k);
            int il = ir_type_rank(g->f->values.v[incv].type) ? lay : 0;
            gv inc = ev(g, incv, il, ctxp);
            ir_op *y = &rg->ops[rg->nops - 1];
            bool ptr = top_def(g, p, y->opnd[k - 1])->opc == IR_ADDPTR;
            x = g_new(g, base.n, lay);
            for (int r = 0; r < base.n; r++) {
                LLVMValueRef o = inc.r[il ? r : 0];
                o = LLVMBuildMul(g->B, o, LLVMConstInt(LLVMTypeOf(o), (unsigned long long)e->d, 0), "");
                if (ptr) {
                    ir_type pt = ir_type_get(ir_type_elem(t))->pointee;
                    if (LLVMTypeOf(o) != g->t_i64) o = LLVMBuildSExt(g->B, o, g->t_i64, "");
                    x.r[r] = LLVMBuildGEP2(g->B, g_mem_type(g, pt), base.r[r], &o, 1, "");
                } else {
                    x.r[r] = LLVMBuildAdd(g->B, base.r[r], o, "");
                }
            }
        }
    } else {
        x = g_lower_pure_with(g, top_def(g, p, v), lay, ev, ctxp);
    }
    memo_ent m = { v, lay, x };
    vec_push(&e->memo, m);
    return x;
}

static LLVMValueRef cst(gctx *g, int64_t v) { return g_const_i32(g, v); }

static LLVMValueRef stage_ptr(gctx *g, gpipe *p, LLVMValueRef s);
static LLVMValueRef bar_ptr(gctx *g, gpipe *p, LLVMValueRef s);

/* TMA: thread 0 arms stage s's mbarrier with the stage's bytes and issues
 * one copy per 128-byte column slab of every TMA load, at the offsets of
 * iteration base + e->d (computed before the branch: every thread's values
 * stay defined after it). Past the loop's end nothing is issued, so no
 * copy is left in flight after the last iteration's wait. */
static void issue_tma(gctx *g, gpipe *p, ectx *e, LLVMValueRef valid, LLVMValueRef s)
{
    LLVMValueRef stage = stage_ptr(g, p, s), bar = bar_ptr(g, p, s), c[PIPE_MAXLOADS][4];
    for (int i = 0; i < p->nload; i++) {
        if (p->ld[i].tma < 0) continue;
        const gpu_tmap *t = &g->maps[p->ld[i].tma];
        /* row, column, then the batch indices (i32 coordinates) */
        for (int d = 0; d < t->rank; d++) {
            LLVMValueRef x = ev(g, d < 2 ? p->ld[i].op->opnd[4 + d] : t->batch[d - 2], 0, e).r[0];
            c[i][d] = LLVMTypeOf(x) == g->t_i32 ? x : LLVMBuildTrunc(g->B, x, g->t_i32, "");
        }
    }
    LLVMValueRef cond = LLVMBuildAnd(g->B, valid, LLVMBuildICmp(g->B, LLVMIntEQ, g->tid, cst(g, 0), ""), "");
    LLVMBasicBlockRef join = g_if_begin(g, cond, "tma.issue");
    g_mbar_expect_tx(g, bar, p->tma_bytes);
    for (int i = 0; i < p->nload; i++) {
        pload *l = &p->ld[i];
        if (l->tma < 0) continue;
        int64_t slab = l->rows * l->box[0] * l->esz;
        for (int64_t j = 0; j * l->box[0] < l->cols; j++) {
            LLVMValueRef dst = LLVMBuildGEP2(g->B, g->t_i8, stage, (LLVMValueRef[]){ cst(g, l->off + j * slab) }, 1, "");
            const gpu_tmap *t = &g->maps[l->tma];
            LLVMValueRef at[4] = { LLVMBuildAdd(g->B, c[i][1], cst(g, j * l->box[0]), ""), c[i][0], c[i][2], c[i][3] };
            g_tma_load(g, dst, g->tmap[l->tma], at, t->rank, bar);
        }
    }
    g_if_end(g, join);
}

/* Issue the copies of every pipelined load for iteration base + e->d into
 * stage s (i32), then commit the cp.async group. */
static void issue(gctx *g, gpipe *p, ectx *e, LLVMValueRef ub, LLVMValueRef s)
{
    LLVMValueRef stage = stage_ptr(g, p, s);
    LLVMValueRef it = ev(g, g->f->regions.v[p->body].args[0], 0, e).r[0];
    LLVMValueRef valid = LLVMBuildICmp(g->B, LLVMIntSLT, it, ub, "");
    if (p->tma_bytes) issue_tma(g, p, e, valid, s);
    for (int i = 0; i < p->nload; i++) {
        pload *l = &p->ld[i];
        if (l->tma >= 0) continue;
        gv ptr = ev(g, l->ptr, l->lay, e);
        gv m = { 0 };
        if (l->mask >= 0) m = ev(g, l->mask, l->lay, e);
        const glayout *L = gl_get(g, l->lay);
        LLVMValueRef r0 = g_lw_coord(g, l->lay, 0), c0 = g_lw_coord(g, l->lay, 1);
        gtile t = { LLVMBuildGEP2(g->B, g->t_i8, stage, (LLVMValueRef[]){ cst(g, l->off) }, 1, ""), l->rows, l->cols, l->esz,
                    l->wg };
        int bytes = l->vp.vec * l->esz;
        /* inline asm: LLVM 19 cannot select the .s intrinsics with 32-bit shared pointers */
        char text[96];
        snprintf(text, sizeof text, "cp.async.%s.shared.global [$0], [$1], %d, $2;", bytes == 16 ? "cg" : "ca", bytes);
        for (int r = 0; r < ptr.n; r++) {
            bool base = true;
            for (int b = 0; b < l->vp.nbits; b++)
                if (r >> l->vp.bitreg[b] & 1) base = false;
            if (!base) continue;
            LLVMValueRef row = LLVMBuildAdd(g->B, r0, cst(g, gl_regcoord(L, r, 0)), "");
            LLVMValueRef col = LLVMBuildAdd(g->B, c0, cst(g, gl_regcoord(L, r, 1)), "");
            LLVMValueRef off = g_tile_offset(g, &t, row, col);
            LLVMValueRef dst = LLVMBuildGEP2(g->B, g->t_i8, t.base, &off, 1, "");
            LLVMValueRef pred = valid;
            if (l->mask >= 0) pred = LLVMBuildAnd(g->B, pred, m.r[r], "");
            LLVMValueRef args[3] = { LLVMBuildPtrToInt(g->B, dst, g->t_i32, ""), ptr.r[r],
                                     LLVMBuildSelect(g->B, pred, cst(g, bytes), cst(g, 0), "") };
            g_asm(g, g->t_void, text, "r,l,r,~{memory}", args, 3, true);
        }
    }
    if (p->cp_async) g_intrinsic(g, "llvm.nvvm.cp.async.commit.group", NULL, 0, NULL, 0);
}

static LLVMValueRef stage_ptr(gctx *g, gpipe *p, LLVMValueRef s)
{
    LLVMValueRef off = LLVMBuildAdd(g->B, cst(g, p->base_off), LLVMBuildMul(g->B, s, cst(g, p->stage_bytes), ""), "");
    return LLVMBuildGEP2(g->B, g->t_i8, g->smem, &off, 1, "");
}

static LLVMValueRef bar_ptr(gctx *g, gpipe *p, LLVMValueRef s)
{
    LLVMValueRef off = LLVMBuildAdd(g->B, cst(g, p->bar_off), LLVMBuildMul(g->B, s, cst(g, 8), ""), "");
    return LLVMBuildGEP2(g->B, g->t_i8, g->smem, &off, 1, "");
}

/* Thread 0 initializes (init) or invalidates the stages' mbarriers, then
 * the CTA synchronizes: no thread waits on one before it is initialized,
 * or reuses its memory before it is invalidated. */
static void bars(gctx *g, gpipe *p, bool init)
{
    LLVMBasicBlockRef join = g_if_begin(g, LLVMBuildICmp(g->B, LLVMIntEQ, g->tid, cst(g, 0), ""), "mbar");
    for (int s = 0; s < p->stages; s++) (init ? g_mbar_init : g_mbar_inval)(g, bar_ptr(g, p, cst(g, s)));
    if (init) g_mbar_init_fence(g);
    g_if_end(g, join);
    g_barrier(g);
}

void g_pipe_prologue(gctx *g, gpipe *p, LLVMValueRef lb, LLVMValueRef ub, LLVMValueRef step, gv *init)
{
    p->base_off = g->scratch_off;
    p->saved_scratch = g->scratch_off;
    if (p->wg) {
        p->base_off = (p->base_off + 1023) & ~1023;
        LLVMSetAlignment(g->smem, 1024);
    }
    int64_t end = p->base_off + (int64_t)p->stages * p->stage_bytes;
    p->bar_off = end;
    if (p->tma_bytes) end += (8 * p->stages + 127) & ~127;    /* scratch above stays 128-byte aligned */
    if (end > g->smem_bytes) g->smem_bytes = (int)end;
    g_barrier(g);                          /* earlier users of shared memory are done */
    if (p->tma_bytes) bars(g, p, true);
    g->scratch_off = (int)end;
    for (int s = 0; s < p->dist; s++) {
        ectx e = { p, lb, step, init, s, { 0 } };
        issue(g, p, &e, ub, cst(g, s));
        vec_free(&e.memo);
    }
    g->pipes[g->npipes++] = p;
}

void g_pipe_begin(gctx *g, gpipe *p, LLVMValueRef iv, LLVMValueRef lb, LLVMValueRef ub, LLVMValueRef step, gv *carried)
{
    LLVMValueRef it = LLVMBuildSDiv(g->B, LLVMBuildSub(g->B, iv, lb, ""), step, "");
    if (LLVMTypeOf(it) != g->t_i32) it = LLVMBuildTrunc(g->B, it, g->t_i32, "");
    LLVMValueRef cur = LLVMBuildURem(g->B, it, cst(g, p->stages), "");
    LLVMValueRef nxt = LLVMBuildURem(g->B, LLVMBuildAdd(g->B, it, cst(g, p->dist), ""), cst(g, p->stages), "");
    LLVMValueRef n = cst(g, p->dist - 1);
    p->carried = carried;
    /* no fence.proxy.async before wgmma reads the stage: Triton 3.6 fences
     * only register -> shared copies (FenceInsertion.cpp,
     * findCopyRegToSharedOps), never cp.async's. On the H100 the fence cost
     * attention 3-5 % (d64 causal, d128, d128 causal; outputs bit-equal)
     * and nothing measurable in the matmul. */
    if (p->cp_async) g_intrinsic(g, "llvm.nvvm.cp.async.wait.group", NULL, 0, &n, 1);
    /* TMA: the k-th fill of a stage (iteration cur + k S) completes phase k */
    if (p->tma_bytes)
        g_mbar_wait(g, bar_ptr(g, p, cur), LLVMBuildAnd(g->B, LLVMBuildUDiv(g->B, it, cst(g, p->stages), ""), cst(g, 1), ""));
    g_barrier(g);
    ectx e = { p, iv, step, carried, p->dist, { 0 } };
    issue(g, p, &e, ub, nxt);
    vec_free(&e.memo);
    LLVMValueRef sp = stage_ptr(g, p, cur);
    for (int i = 0; i < p->nload; i++) {
        pload *l = &p->ld[i];
        l->tile = (gtile){ LLVMBuildGEP2(g->B, g->t_i8, sp, (LLVMValueRef[]){ cst(g, l->off) }, 1, ""), l->rows, l->cols,
                           l->esz, l->wg };
    }
}

bool g_pipe_load(gctx *g, ir_op *op)
{
    for (int k = g->npipes - 1; k >= 0; k--) {
        gpipe *p = g->pipes[k];
        for (int i = 0; i < p->nload; i++)
            if (p->ld[i].op == op) {
                g->stile[op->res] = &p->ld[i].tile;
                g_set(g, op->res, g_new(g, 0, g->vlay[op->res]));
                return true;
            }
    }
    return false;
}

bool g_pipe_dot_async(gctx *g, const ir_op *op)
{
    for (int k = 0; k < g->npipes; k++)
        if (g->pipes[k]->async == op) return true;
    return false;
}

ir_value g_pipe_dot_retires(gctx *g, const ir_op *op)
{
    for (int k = 0; k < g->npipes; k++)
        if (g->pipes[k]->async_retire == op) return g->f->regions.v[g->pipes[k]->body].args[g->pipes[k]->async_k];
    return -1;
}

void g_pipe_end(gctx *g, gpipe *p)
{
    if (p->async) {                        /* the last MMA group lands before the loop's results are read */
        int k = p->async_k;
        gv w = g_new(g, p->carried[k - 1].n, p->carried[k - 1].lay);
        memcpy(w.r, p->carried[k - 1].r, sizeof(LLVMValueRef) * (size_t)w.n);
        g_wgmma_wait(g, 0, w.r, w.n);
        p->carried[k - 1] = w;
    }
    if (p->cp_async) g_intrinsic(g, "llvm.nvvm.cp.async.wait.all", NULL, 0, NULL, 0);
    g_barrier(g);
    if (p->tma_bytes) bars(g, p, false);
    g->scratch_off = p->saved_scratch;
    if (g->npipes > 0 && g->pipes[g->npipes - 1] == p) g->npipes--;
    /* p (arena) stays: g->stile of the loop's dead values points into it */
}
