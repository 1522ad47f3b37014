/* lower_reduce.c — tt.reduce along one axis, Triton's fast path
 * (ReduceOpToLLVM.cpp): (1) combine the registers a thread holds along the
 * axis, in register order; (2) butterfly shuffles over the lane bits that run
 * along the axis, highest first; (3) when warps run along the axis: each warp
 * writes its partial to shared memory, barrier, every thread combines the
 * partials in warp order. The result has the slice layout of the input.
 * tt.reduce_region runs the same steps with its combine region lowered on
 * the scalars at each combine; tt.scan: see lower_scan. */
#include "gpu_int.h"

#include <string.h>

typedef struct red { int kind; bool fl, uns, arg; } red;

static LLVMValueRef pick_gt(gctx *g, red *k, LLVMValueRef a, LLVMValueRef b, bool lt)
{
    if (k->fl) return LLVMBuildFCmp(g->B, lt ? LLVMRealOLT : LLVMRealOGT, b, a, "");
    LLVMIntPredicate p = k->uns ? (lt ? LLVMIntULT : LLVMIntUGT) : (lt ? LLVMIntSLT : LLVMIntSGT);
    return LLVMBuildICmp(g->B, p, b, a, "");
}

/* acc = combine(acc, b); for arg kinds also the index. */
static void combine(gctx *g, red *k, LLVMValueRef *acc, LLVMValueRef *ai, LLVMValueRef b, LLVMValueRef bi)
{
    LLVMBuilderRef B = g->B;
    LLVMValueRef a = *acc;
    LLVMTypeRef t = LLVMTypeOf(a);
    switch (k->kind) {
    case RED_ADD:
        *acc = k->fl ? LLVMBuildFAdd(B, a, b, "") : LLVMBuildAdd(B, a, b, "");
        return;
    case RED_MAX: case RED_UMAX: case RED_MIN: case RED_UMIN: {
        bool mx = k->kind == RED_MAX || k->kind == RED_UMAX;
        const char *n = k->fl ? (mx ? "llvm.maxnum" : "llvm.minnum")
                      : k->uns ? (mx ? "llvm.umax" : "llvm.umin") : (mx ? "llvm.smax" : "llvm.smin");
        LLVMValueRef args[2] = { a, b };
        *acc = g_intrinsic(g, n, &t, 1, args, 2);
        return;
    }
    case RED_XOR: *acc = LLVMBuildXor(B, a, b, ""); return;
    case RED_OR: *acc = LLVMBuildOr(B, a, b, ""); return;
    case RED_AND: *acc = LLVMBuildAnd(B, a, b, ""); return;
    default: {
        bool lt = k->kind == RED_ARGMIN || k->kind == RED_UARGMIN;
        LLVMValueRef better = pick_gt(g, k, a, b, lt);
        LLVMValueRef eq = k->fl ? LLVMBuildFCmp(B, LLVMRealOEQ, a, b, "") : LLVMBuildICmp(B, LLVMIntEQ, a, b, "");
        LLVMValueRef tie = LLVMBuildAnd(B, eq, LLVMBuildICmp(B, LLVMIntSLT, bi, *ai, ""), "");
        LLVMValueRef take = LLVMBuildOr(B, better, tie, "");
        *acc = LLVMBuildSelect(B, take, b, a, "");
        *ai = LLVMBuildSelect(B, take, bi, *ai, "");
        return;
    }
    }
}

/* shfl.sync.bfly of any scalar up to 64 bits. */
static LLVMValueRef shfl(gctx *g, LLVMValueRef v, int mask)
{
    LLVMTypeRef t = LLVMTypeOf(v);
    LLVMValueRef full = LLVMConstInt(g->t_i32, 0xffffffffu, 0);
    if (t == g->t_f32 || t == g->t_i32) {
        LLVMValueRef a[4] = { full, v, g_const_i32(g, mask), g_const_i32(g, 31) };
        return g_intrinsic(g, t == g->t_f32 ? "llvm.nvvm.shfl.sync.bfly.f32" : "llvm.nvvm.shfl.sync.bfly.i32", NULL, 0, a, 4);
    }
    if (t == g->t_i64 || t == g->t_f64) {
        LLVMValueRef x = t == g->t_f64 ? LLVMBuildBitCast(g->B, v, g->t_i64, "") : v;
        LLVMValueRef lo = LLVMBuildTrunc(g->B, x, g->t_i32, "");
        LLVMValueRef hi = LLVMBuildTrunc(g->B, LLVMBuildLShr(g->B, x, LLVMConstInt(g->t_i64, 32, 0), ""), g->t_i32, "");
        lo = shfl(g, lo, mask);
        hi = shfl(g, hi, mask);
        LLVMValueRef r = LLVMBuildOr(g->B, LLVMBuildZExt(g->B, lo, g->t_i64, ""),
                                     LLVMBuildShl(g->B, LLVMBuildZExt(g->B, hi, g->t_i64, ""), LLVMConstInt(g->t_i64, 32, 0), ""), "");
        return t == g->t_f64 ? LLVMBuildBitCast(g->B, r, g->t_f64, "") : r;
    }
    /* narrow: through i32 */
    LLVMValueRef x = v;
    LLVMTypeRef it = t;
    if (t == g->t_f16 || t == g->t_bf16) {
        it = g->t_i16;
        x = LLVMBuildBitCast(g->B, v, it, "");
    }
    LLVMValueRef w = shfl(g, LLVMBuildZExt(g->B, x, g->t_i32, ""), mask);
    LLVMValueRef r = LLVMBuildTrunc(g->B, w, it, "");
    return it != t ? LLVMBuildBitCast(g->B, r, t, "") : r;
}

/* A combiner over n values: acc[k] = combine(acc, b)[k]. */
typedef struct comb {
    int n;
    red k;                         /* named combiner (n = 1, or 2 for arg kinds) */
    ir_op *op;                     /* or the op with a combine region */
} comb;

typedef struct region_env { ir_func *f; int32_t reg; LLVMValueRef *args; LLVMValueRef *vals; } region_env;

static gv region_fetch(gctx *g, ir_value v, int lay, void *ctx)
{
    region_env *e = ctx;
    (void)lay;
    gv x = g_new(g, 1, 0);
    const ir_region *rg = &e->f->regions.v[e->reg];
    for (int i = 0; i < rg->nargs; i++)
        if (rg->args[i] == v) { x.r[0] = e->args[i]; return x; }
    if (e->vals[v]) { x.r[0] = e->vals[v]; return x; }
    gv o = g_get(g, v);                  /* a scalar from outside the region */
    x.r[0] = o.r[0];
    return x;
}

/* Lower the combine region of op on scalars: args are (acc..., b...). */
static void region_combine(gctx *g, ir_op *op, LLVMValueRef *acc, LLVMValueRef *b, int n)
{
    ir_func *f = g->f;
    int32_t reg = op->region[0];
    LLVMValueRef *args = arena_alloc(&g->mem, sizeof(LLVMValueRef) * (size_t)(2 * n));
    for (int k = 0; k < n; k++) { args[k] = acc[k]; args[n + k] = b[k]; }
    region_env e = { f, reg, args, arena_alloc(&g->mem, sizeof(LLVMValueRef) * (size_t)f->values.n) };
    memset(e.vals, 0, sizeof(LLVMValueRef) * (size_t)f->values.n);
    const ir_region *rg = &f->regions.v[reg];
    for (int i = 0; i < rg->nops && !g->failed; i++) {
        ir_op *o = &rg->ops[i];
        if (o->opc == IR_REDUCE_RETURN || o->opc == IR_SCAN_RETURN) {
            for (int k = 0; k < n; k++) acc[k] = region_fetch(g, o->opnd[k], 0, &e).r[0];
            return;
        }
        int fam = ir_ops[o->opc].family;
        if (o->nres != 1 || o->nregions || !(ir_ops[o->opc].props & P_PURE) || fam == F_REDUCE || fam == F_DOT ||
            (fam == F_SHAPE && o->opc != IR_SPLAT && o->opc != IR_BITCAST)) {
            gfail(g, o->loc, "%s in a combine region is not supported on the GPU yet", ir_ops[o->opc].name);
            return;
        }
        gv y = g_lower_pure_with(g, o, 0, region_fetch, &e);
        e.vals[o->res] = y.r[0];
    }
}

static void comb_apply(gctx *g, comb *c, LLVMValueRef *acc, LLVMValueRef *b)
{
    if (c->op) region_combine(g, c->op, acc, b, c->n);
    else combine(g, &c->k, &acc[0], c->n > 1 ? &acc[1] : NULL, b[0], c->n > 1 ? b[1] : NULL);
}

/* Reduce the n tiles x[] (one layout) along axis with c: registers, then
 * shuffles, then shared memory. Returns the slice layout; out[k][ro]. */
static int reduce_tiles(gctx *g, int32_t loc, comb *c, gv *x, int axis, LLVMValueRef **out)
{
    int n = c->n;
    const glayout *L = gl_get(g, x[0].lay);
    glayout S;
    gl_slice(&S, L, axis);
    int slay = gl_intern(g, &S);
    L = gl_get(g, x[0].lay);
    int nout = 1 << S.nreg;
    LLVMValueRef *acc = arena_alloc(&g->mem, sizeof(LLVMValueRef) * (size_t)(nout * n));
    memset(acc, 0, sizeof(LLVMValueRef) * (size_t)(nout * n));
    LLVMValueRef *b = arena_alloc(&g->mem, sizeof(LLVMValueRef) * (size_t)n);
    for (int r = 0; r < x[0].n; r++) {
        int ro = 0, j = 0;
        for (int i = 0; i < L->nreg; i++) {
            if (L->reg[i].dim == axis) continue;
            if (r >> i & 1) ro |= 1 << j;
            j++;
        }
        for (int k = 0; k < n; k++) b[k] = x[k].r[r];
        if (!acc[ro * n]) memcpy(&acc[ro * n], b, sizeof(LLVMValueRef) * (size_t)n);
        else comb_apply(g, c, &acc[ro * n], b);
    }
    for (int i = 4; i >= 0; i--) {
        if (L->lane[i].dim != axis) continue;
        for (int ro = 0; ro < nout; ro++) {
            for (int k = 0; k < n; k++) b[k] = shfl(g, acc[ro * n + k], 1 << i);
            comb_apply(g, c, &acc[ro * n], b);
        }
    }
    int wbits[GL_MAXWARP], nwa = 0;
    for (int i = 0; i < L->nwarp; i++)
        if (L->warp[i].dim == axis) wbits[nwa++] = i;
    if (nwa) {
        LLVMTargetDataRef dl = LLVMGetModuleDataLayout(g->M);
        int64_t numel = 1;
        for (int d = 0; d < S.rank; d++) numel *= S.shape[d];
        int nw = 1 << nwa;
        int64_t *off = arena_alloc(&g->mem, sizeof(int64_t) * (size_t)(n + 1));
        LLVMTypeRef *mt = arena_alloc(&g->mem, sizeof(LLVMTypeRef) * (size_t)n);
        off[0] = 0;
        for (int k = 0; k < n; k++) {
            LLVMTypeRef vt = LLVMTypeOf(acc[k]);
            mt[k] = vt == g->t_i1 ? g->t_i8 : vt;
            int64_t sz = numel * nw * (int64_t)LLVMABISizeOfType(dl, mt[k]);
            off[k + 1] = (off[k] + sz + 15) & ~(int64_t)15;
        }
        LLVMValueRef base = g_scratch(g, off[n]);
        LLVMValueRef *kb = arena_alloc(&g->mem, sizeof(LLVMValueRef) * (size_t)n);
        for (int k = 0; k < n; k++) {
            LLVMValueRef o = LLVMConstInt(g->t_i32, (unsigned long long)off[k], 0);
            kb[k] = LLVMBuildGEP2(g->B, g->t_i8, base, &o, 1, "");
        }
        LLVMValueRef wa = g_const_i32(g, 0);
        for (int j = 0; j < nwa; j++) {
            LLVMValueRef bit = LLVMBuildAnd(g->B, LLVMBuildLShr(g->B, g->warp, g_const_i32(g, wbits[j]), ""), g_const_i32(g, 1), "");
            wa = LLVMBuildOr(g->B, wa, LLVMBuildShl(g->B, bit, g_const_i32(g, j), ""), "");
        }
        LLVMValueRef lin = g_const_i32(g, 0);
        int64_t stride = 1;
        for (int d = S.rank - 1; d >= 0; d--) {
            lin = LLVMBuildAdd(g->B, lin, LLVMBuildMul(g->B, g_lw_coord(g, slay, d), g_const_i32(g, stride), ""), "");
            stride *= S.shape[d];
        }
        LLVMValueRef *ri = arena_alloc(&g->mem, sizeof(LLVMValueRef) * (size_t)nout);
        const glayout *Sp = gl_get(g, slay);
        for (int ro = 0; ro < nout; ro++) {
            int64_t o = 0, st = 1;
            for (int d = Sp->rank - 1; d >= 0; d--) {
                o += gl_regcoord(Sp, ro, d) * st;
                st *= Sp->shape[d];
            }
            ri[ro] = LLVMBuildAdd(g->B, lin, g_const_i32(g, o), "");
            LLVMValueRef at = LLVMBuildAdd(g->B, LLVMBuildMul(g->B, wa, g_const_i32(g, numel), ""), ri[ro], "");
            for (int k = 0; k < n; k++) {
                LLVMValueRef v = acc[ro * n + k];
                if (LLVMTypeOf(v) == g->t_i1) v = LLVMBuildZExt(g->B, v, g->t_i8, "");
                LLVMBuildStore(g->B, v, LLVMBuildGEP2(g->B, mt[k], kb[k], &at, 1, ""));
            }
        }
        g_barrier(g);
        for (int ro = 0; ro < nout; ro++) {
            for (int w = 0; w < nw; w++) {
                LLVMValueRef at = LLVMBuildAdd(g->B, ri[ro], g_const_i32(g, (int64_t)w * numel), "");
                for (int k = 0; k < n; k++) {
                    LLVMTypeRef vt = LLVMTypeOf(acc[ro * n + k]);
                    LLVMValueRef v = LLVMBuildLoad2(g->B, mt[k], LLVMBuildGEP2(g->B, mt[k], kb[k], &at, 1, ""), "");
                    if (vt == g->t_i1) v = LLVMBuildICmp(g->B, LLVMIntNE, v, LLVMConstInt(g->t_i8, 0, 0), "");
                    b[k] = v;
                }
                if (w == 0) memcpy(&acc[ro * n], b, sizeof(LLVMValueRef) * (size_t)n);
                else comb_apply(g, c, &acc[ro * n], b);
            }
        }
        g_barrier(g);
    }
    (void)loc;
    for (int k = 0; k < n; k++) {
        out[k] = arena_alloc(&g->mem, sizeof(LLVMValueRef) * (size_t)nout);
        for (int ro = 0; ro < nout; ro++) out[k][ro] = acc[ro * n + k];
    }
    return slay;
}

/* tt.scan: the scanned axis is brought into the registers of each thread
 * (a blocked layout with the whole axis per thread, the other dims over
 * lanes and warps), scanned there sequentially in index order (from the end
 * when reverse), and converted back. Correct for any combine region;
 * Triton's shuffle-up / shared-memory carry scan (ScanOpToLLVM.cpp) is not
 * implemented yet. */
static void lower_scan(gctx *g, ir_op *op)
{
    ir_func *f = g->f;
    int n = op->nopnd, axis = (int)op->attr[0];
    bool rev = op->attr[1] != 0;
    ir_type t0 = f->values.v[op->opnd[0]].type;
    const ir_type_info *ti = ir_type_get(t0);
    int spt[IR_MAX_RANK], tpw[IR_MAX_RANK], wpc[IR_MAX_RANK], order[IR_MAX_RANK];
    int lanes = 32, warps = g->num_warps;
    for (int d = 0; d < ti->rank; d++) { spt[d] = 1; tpw[d] = 1; wpc[d] = 1; }
    spt[axis] = (int)ti->shape[axis];
    for (int d = ti->rank - 1; d >= 0; d--) {           /* lanes, then warps, over the other dims */
        if (d == axis) continue;
        int64_t left = ti->shape[d];
        while (lanes > 1 && left > 1) { tpw[d] *= 2; lanes /= 2; left /= 2; }
        while (warps > 1 && left > 1) { wpc[d] *= 2; warps /= 2; left /= 2; }
    }
    for (int d = 0; d < ti->rank && lanes > 1; d++) if (d != axis) { tpw[d] *= lanes; lanes = 1; }
    for (int d = 0; d < ti->rank; d++) order[d] = ti->rank - 1 - d;
    /* lanes/warps left over are replicated: put them on the last dim (gl_blocked replicates past the shape) */
    int ld = ti->rank - 1;
    tpw[ld] *= lanes;
    wpc[ld] *= warps;
    glayout A;
    if (!gl_blocked(&A, ti->rank, ti->shape, spt, tpw, wpc, order, g->nwarp)) {
        gfail(g, op->loc, "tt.scan: the scanned axis (%lld elements) does not fit one thread's registers",
              (long long)ti->shape[axis]);
        return;
    }
    int al = gl_intern(g, &A);
    const glayout *AL = gl_get(g, al);
    gv *x = arena_alloc(&g->mem, sizeof(gv) * (size_t)n);
    for (int k = 0; k < n; k++) x[k] = g_convert(g, op->opnd[k], al);
    int nr = x[0].n;
    /* registers of one thread along the axis, by coordinate */
    LLVMValueRef *acc = arena_alloc(&g->mem, sizeof(LLVMValueRef) * (size_t)n);
    LLVMValueRef *b = arena_alloc(&g->mem, sizeof(LLVMValueRef) * (size_t)n);
    gv *y = arena_alloc(&g->mem, sizeof(gv) * (size_t)n);
    for (int k = 0; k < n; k++) y[k] = g_new(g, nr, al);
    comb c = { n, { 0, false, false, false }, op };
    int64_t R = ti->shape[axis];
    for (int r0 = 0; r0 < nr; r0++) {
        if (gl_regcoord(AL, r0, axis) != 0) continue;     /* one fold per start register */
        for (int64_t s = 0; s < R; s++) {
            int64_t want = rev ? R - 1 - s : s;
            int r = r0;
            for (int i = 0; i < AL->nreg; i++)
                if (AL->reg[i].dim == axis && (want >> AL->reg[i].bit & 1)) r |= 1 << i;
            for (int k = 0; k < n; k++) b[k] = x[k].r[r];
            if (s == 0) memcpy(acc, b, sizeof(LLVMValueRef) * (size_t)n);
            else comb_apply(g, &c, acc, b);
            for (int k = 0; k < n; k++) y[k].r[r] = acc[k];
        }
    }
    for (int k = 0; k < n; k++)
        g_set(g, op->res + k, g_convert_gv(g, y[k], f->values.v[op->res + k].type, g->vlay[op->res + k]));
}

static void lower_reduce_region(gctx *g, ir_op *op)
{
    ir_func *f = g->f;
    int n = op->nopnd, axis = (int)op->attr[0];
    gv *x = arena_alloc(&g->mem, sizeof(gv) * (size_t)n);
    x[0] = g_get(g, op->opnd[0]);
    for (int k = 1; k < n; k++) x[k] = g_convert(g, op->opnd[k], x[0].lay);
    if (axis < 0 || axis >= gl_get(g, x[0].lay)->rank) { gfail(g, op->loc, "reduce axis %d out of range", axis); return; }
    comb c = { n, { 0, false, false, false }, op };
    LLVMValueRef **out = arena_alloc(&g->mem, sizeof(LLVMValueRef *) * (size_t)n);
    int slay = reduce_tiles(g, op->loc, &c, x, axis, out);
    int nout = 1 << gl_get(g, slay)->nreg;
    for (int k = 0; k < n && !g->failed; k++) {
        gv y = g_new(g, nout, slay);
        for (int ro = 0; ro < nout; ro++) y.r[ro] = out[k][ro];
        g_set(g, op->res + k, g_convert_gv(g, y, f->values.v[op->res + k].type, g->vlay[op->res + k]));
    }
}

void g_lower_reduce(gctx *g, ir_op *op)
{
    if (op->opc == IR_REDUCE_REGION) { lower_reduce_region(g, op); return; }
    if (op->opc == IR_SCAN) { lower_scan(g, op); return; }
    ir_func *f = g->f;
    ir_value src = op->opnd[0];
    int axis = (int)op->attr[0];
    red k = { (int)op->attr[1], false, false, false };
    ir_type et = ir_type_elem(f->values.v[src].type);
    k.fl = ir_type_is_float(et);
    k.uns = k.kind == RED_UMAX || k.kind == RED_UMIN || k.kind == RED_UARGMAX || k.kind == RED_UARGMIN;
    k.arg = k.kind >= RED_ARGMAX && k.kind <= RED_UARGMIN;
    if (k.fl && (k.kind == RED_XOR || k.kind == RED_OR || k.kind == RED_AND)) {
        gfail(g, op->loc, "bitwise reduction of floats");
        return;
    }
    gv x[2];
    x[0] = g_get(g, src);
    const glayout *L = gl_get(g, x[0].lay);
    if (axis < 0 || axis >= L->rank) { gfail(g, op->loc, "reduce axis %d out of range", axis); return; }
    if (k.arg) {                          /* the index along the axis, as a second value */
        x[1] = g_new(g, x[0].n, x[0].lay);
        LLVMValueRef lwa = g_lw_coord(g, x[0].lay, axis);
        L = gl_get(g, x[0].lay);
        for (int r = 0; r < x[0].n; r++)
            x[1].r[r] = LLVMBuildAdd(g->B, lwa, g_const_i32(g, gl_regcoord(L, r, axis)), "");
    }
    comb c = { k.arg ? 2 : 1, k, NULL };
    LLVMValueRef *out[2];
    int slay = reduce_tiles(g, op->loc, &c, x, axis, out);
    int nout = 1 << gl_get(g, slay)->nreg;
    gv y = g_new(g, nout, slay);
    for (int ro = 0; ro < nout; ro++) y.r[ro] = out[k.arg ? 1 : 0][ro];
    LLVMTypeRef want = g_type(g, f->values.v[op->res].type);
    if (k.arg && want != g->t_i32)
        for (int ro = 0; ro < nout; ro++) y.r[ro] = LLVMBuildSExt(g->B, y.r[ro], want, "");
    g_set(g, op->res, g_convert_gv(g, y, f->values.v[op->res].type, g->vlay[op->res]));
}
