/* lower_move.c — ops that move elements between tiles: tt.join, tt.split,
 * tt.cat, tt.gather and tt.histogram. Each stores its operands in shared
 * memory as dense row-major tiles, synchronizes, and reads back the
 * elements each thread's result registers need (the simple form of
 * Triton's lowerings, which move registers where the layouts allow it).
 * tt.histogram counts with shared-memory atomics; only the first owner of a
 * replicated element counts it. Semantics as interp/eval_move.c. */
#include "gpu_int.h"

static LLVMValueRef c32(gctx *g, int64_t v) { return g_const_i32(g, v); }

/* Row-major linear index (i32) of coordinates c over shape[0..rank). */
static LLVMValueRef linear(gctx *g, LLVMValueRef *c, const int64_t *shape, int rank)
{
    LLVMValueRef idx = c32(g, 0);
    int64_t stride = 1;
    for (int d = rank - 1; d >= 0; d--) {
        idx = LLVMBuildAdd(g->B, idx, LLVMBuildMul(g->B, c[d], c32(g, stride), ""), "");
        stride *= shape[d];
    }
    return idx;
}

static ir_type vtype(gctx *g, ir_value v) { return g->f->values.v[v].type; }

/* Store value v at base (+ off bytes); returns the tile's base. */
static LLVMValueRef put(gctx *g, ir_value v, LLVMValueRef base, int64_t off)
{
    if (off) {
        LLVMValueRef o = c32(g, off);
        base = LLVMBuildGEP2(g->B, g->t_i8, base, &o, 1, "");
    }
    g_smem_put(g, g_get(g, v), vtype(g, v), base);
    return base;
}

static int64_t bytes_of(gctx *g, ir_value v)
{
    return (ir_type_numel(vtype(g, v)) * g_mem_size(g, vtype(g, v)) + 15) & ~(int64_t)15;
}

/* The registers of result k of op: element at coordinates c of the result
 * is read from the tile at base via index_of. */
typedef LLVMValueRef (*index_fn)(gctx *g, const ir_op *op, int k, int r, LLVMValueRef *c, LLVMValueRef *base,
                                 void *ctx);

static gv read_back(gctx *g, const ir_op *op, int k, LLVMValueRef base, index_fn index_of, void *ctx)
{
    ir_value res = op->res + k;
    int lay = g->vlay[res];
    const ir_type_info *ri = ir_type_get(vtype(g, res));
    gv y = g_new(g, 1 << gl_get(g, lay)->nreg, lay);
    for (int r = 0; r < y.n; r++) {
        LLVMValueRef c[IR_MAX_RANK];
        for (int d = 0; d < ri->rank; d++) c[d] = g_coord(g, lay, r, d);
        LLVMValueRef b = base;
        LLVMValueRef idx = index_of(g, op, k, r, c, &b, ctx);
        y.r[r] = g_smem_get(g, b, idx, vtype(g, res));
    }
    return y;
}

/* join: result [..., j] from a (j = 0) or b (j = 1), stored one after the
 * other at base and base2. */
typedef struct join_ctx { LLVMValueRef base2; } join_ctx;

static LLVMValueRef join_index(gctx *g, const ir_op *op, int k, int r, LLVMValueRef *c, LLVMValueRef *base, void *ctx)
{
    (void)k, (void)r;
    const ir_type_info *ai = ir_type_get(vtype(g, op->opnd[0]));
    LLVMValueRef j = c[ai->rank];
    *base = LLVMBuildSelect(g->B, LLVMBuildICmp(g->B, LLVMIntEQ, j, c32(g, 0), ""), *base,
                            ((join_ctx *)ctx)->base2, "");
    return linear(g, c, ai->shape, ai->rank);
}

/* split: result k at coordinates c is source element 2 * linear(c) + k. */
static LLVMValueRef split_index(gctx *g, const ir_op *op, int k, int r, LLVMValueRef *c, LLVMValueRef *base, void *ctx)
{
    (void)r, (void)base, (void)ctx;
    const ir_type_info *ri = ir_type_get(vtype(g, op->res));
    return LLVMBuildAdd(g->B, LLVMBuildMul(g->B, linear(g, c, ri->shape, ri->rank), c32(g, 2), ""), c32(g, k), "");
}

/* cat: a and b are stored back to back: element c of the result. */
static LLVMValueRef cat_index(gctx *g, const ir_op *op, int k, int r, LLVMValueRef *c, LLVMValueRef *base, void *ctx)
{
    (void)g, (void)op, (void)k, (void)r, (void)base, (void)ctx;
    return c[0];
}

/* gather: the index register of the same result register replaces the
 * coordinate along axis (its low bits: the interpreter reports the rest). */
typedef struct gather_ctx { gv idx; } gather_ctx;

static LLVMValueRef gather_index(gctx *g, const ir_op *op, int k, int r, LLVMValueRef *c, LLVMValueRef *base, void *ctx)
{
    (void)k, (void)base;
    const ir_type_info *si = ir_type_get(vtype(g, op->opnd[0]));
    int axis = (int)op->attr[0];
    LLVMValueRef i = ((gather_ctx *)ctx)->idx.r[r];
    i = LLVMBuildIntCast2(g->B, i, g->t_i32, 1, "");
    LLVMValueRef cc[IR_MAX_RANK];
    for (int d = 0; d < si->rank; d++) cc[d] = c[d];
    cc[axis] = LLVMBuildAnd(g->B, i, c32(g, si->shape[axis] - 1), "");
    return linear(g, cc, si->shape, si->rank);
}

static void lower_histogram(gctx *g, ir_op *op)
{
    ir_value src = op->opnd[0];
    int64_t nb = ir_type_numel(vtype(g, op->res));
    gv x = g_get(g, src);
    gv m = op->nopnd > 1 ? g_convert(g, op->opnd[1], x.lay) : (gv){ 0 };   /* before the scratch is used */
    LLVMValueRef base = g_scratch(g, nb * 4);
    int nthreads = 32 * g->num_warps;
    for (int64_t i = 0; i < nb; i += nthreads) {   /* zero the bins (threads past nb repeat a zero) */
        LLVMValueRef e = LLVMBuildAnd(g->B, LLVMBuildAdd(g->B, g->tid, c32(g, i), ""), c32(g, nb - 1), "");
        LLVMBuildStore(g->B, c32(g, 0), LLVMBuildGEP2(g->B, g->t_i32, base, &e, 1, ""));
    }
    g_barrier(g);
    LLVMValueRef own = g_owner(g, x.lay);
    for (int r = 0; r < x.n; r++) {
        LLVMValueRef v = LLVMBuildIntCast2(g->B, x.r[r], g->t_i32, 1, "");
        v = LLVMBuildAnd(g->B, v, c32(g, nb - 1), "");
        LLVMValueRef p = LLVMBuildGEP2(g->B, g->t_i32, base, &v, 1, "");
        LLVMValueRef cond = own;
        if (op->nopnd > 1) cond = cond ? LLVMBuildAnd(g->B, cond, m.r[r], "") : m.r[r];
        LLVMValueRef one = cond ? LLVMBuildZExt(g->B, cond, g->t_i32, "") : c32(g, 1);
        LLVMBuildAtomicRMW(g->B, LLVMAtomicRMWBinOpAdd, p, one, LLVMAtomicOrderingMonotonic, 0);
    }
    g_barrier(g);
    int lay = g->vlay[op->res];
    gv y = g_new(g, 1 << gl_get(g, lay)->nreg, lay);
    for (int r = 0; r < y.n; r++) y.r[r] = g_smem_get(g, base, g_coord(g, lay, r, 0), vtype(g, op->res));
    g_barrier(g);
    g_set(g, op->res, y);
}

void g_lower_move(gctx *g, ir_op *op)
{
    switch (op->opc) {
    case IR_JOIN: {
        int64_t half = bytes_of(g, op->opnd[0]);
        LLVMValueRef base = g_scratch(g, 2 * half);
        join_ctx jc = { put(g, op->opnd[1], base, half) };
        put(g, op->opnd[0], base, 0);
        g_barrier(g);
        g_set(g, op->res, read_back(g, op, 0, base, join_index, &jc));
        break;
    }
    case IR_SPLIT: {
        LLVMValueRef base = g_scratch(g, bytes_of(g, op->opnd[0]));
        put(g, op->opnd[0], base, 0);
        g_barrier(g);
        gv lo = read_back(g, op, 0, base, split_index, NULL);
        gv hi = read_back(g, op, 1, base, split_index, NULL);
        g_set(g, op->res, lo);
        g_set(g, op->res + 1, hi);
        break;
    }
    case IR_CAT: {
        /* 1-D operands of one type, back to back: a's size (a power of
         * two) is a multiple of put()'s vector width, at most the tile */
        int64_t n = ir_type_numel(vtype(g, op->opnd[0])) * g_mem_size(g, vtype(g, op->opnd[0]));
        LLVMValueRef base = g_scratch(g, 2 * n);
        put(g, op->opnd[0], base, 0);
        put(g, op->opnd[1], base, n);
        g_barrier(g);
        g_set(g, op->res, read_back(g, op, 0, base, cat_index, NULL));
        break;
    }
    case IR_GATHER: {
        gather_ctx gc = { g_convert(g, op->opnd[1], g->vlay[op->res]) };   /* before the scratch is used */
        LLVMValueRef base = g_scratch(g, bytes_of(g, op->opnd[0]));
        put(g, op->opnd[0], base, 0);
        g_barrier(g);
        g_set(g, op->res, read_back(g, op, 0, base, gather_index, &gc));
        break;
    }
    case IR_HISTOGRAM:
        lower_histogram(g, op);
        return;
    default:
        gfail(g, op->loc, "%s is not supported yet", ir_ops[op->opc].name);
        return;
    }
    g_barrier(g);
}
