/* lower_reduce.c — tt.reduce along one axis, Triton's fast path
 * (ReduceOpToLLVM.cpp): (1) combine the registers a thread holds along the
 * axis, in register order; (2) butterfly shuffles over the lane bits that run
 * along the axis, highest first; (3) when warps run along the axis: each warp
 * writes its partial to shared memory, barrier, every thread combines the
 * partials in warp order. The result has the slice layout of the input. */
#include "gpu_int.h"

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

void g_lower_reduce(gctx *g, ir_op *op)
{
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
    gv x = g_get(g, src);
    const glayout *L = gl_get(g, x.lay);
    if (axis < 0 || axis >= L->rank) { gfail(g, op->loc, "reduce axis %d out of range", axis); return; }
    glayout S;
    gl_slice(&S, L, axis);
    int slay = gl_intern(g, &S);
    L = gl_get(g, x.lay);
    int nout = 1 << S.nreg;
    LLVMValueRef *acc = arena_alloc(&g->mem, sizeof(LLVMValueRef) * (size_t)nout);
    LLVMValueRef *idx = arena_alloc(&g->mem, sizeof(LLVMValueRef) * (size_t)nout);
    LLVMValueRef lwa = k.arg ? g_lw_coord(g, x.lay, axis) : NULL;
    for (int r = 0; r < x.n; r++) {
        int ro = 0, j = 0;
        for (int i = 0; i < L->nreg; i++) {
            if (L->reg[i].dim == axis) continue;
            if (r >> i & 1) ro |= 1 << j;
            j++;
        }
        LLVMValueRef ri = k.arg ? LLVMBuildAdd(g->B, lwa, g_const_i32(g, gl_regcoord(L, r, axis)), "") : NULL;
        if (!acc[ro]) {
            acc[ro] = x.r[r];
            idx[ro] = ri;
        } else {
            combine(g, &k, &acc[ro], &idx[ro], x.r[r], ri);
        }
    }
    for (int i = 4; i >= 0; i--) {
        if (L->lane[i].dim != axis) continue;
        for (int ro = 0; ro < nout; ro++) {
            LLVMValueRef o = shfl(g, acc[ro], 1 << i);
            LLVMValueRef oi = k.arg ? shfl(g, idx[ro], 1 << i) : NULL;
            combine(g, &k, &acc[ro], &idx[ro], o, oi);
        }
    }
    int wbits[GL_MAXWARP], nwa = 0;
    for (int i = 0; i < L->nwarp; i++)
        if (L->warp[i].dim == axis) wbits[nwa++] = i;
    if (nwa) {
        LLVMTypeRef vt = LLVMTypeOf(acc[0]);
        LLVMTargetDataRef dl = LLVMGetModuleDataLayout(g->M);
        int64_t vsz = (int64_t)LLVMABISizeOfType(dl, vt);
        int64_t numel = 1;
        for (int d = 0; d < S.rank; d++) numel *= S.shape[d];
        int nw = 1 << nwa;
        int64_t voff = numel * nw * vsz;
        voff = (voff + 15) & ~(int64_t)15;
        LLVMValueRef base = g_scratch(g, voff + (k.arg ? numel * nw * 4 : 0));
        LLVMValueRef ibase = NULL;
        if (k.arg) {
            LLVMValueRef o = LLVMConstInt(g->t_i32, (unsigned long long)voff, 0);
            ibase = LLVMBuildGEP2(g->B, g->t_i8, base, &o, 1, "");
        }
        LLVMValueRef wa = g_const_i32(g, 0);
        for (int j = 0; j < nwa; j++) {
            LLVMValueRef b = LLVMBuildAnd(g->B, LLVMBuildLShr(g->B, g->warp, g_const_i32(g, wbits[j]), ""), g_const_i32(g, 1), "");
            wa = LLVMBuildOr(g->B, wa, LLVMBuildShl(g->B, b, g_const_i32(g, j), ""), "");
        }
        LLVMValueRef lin = g_const_i32(g, 0);
        int64_t stride = 1;
        for (int d = S.rank - 1; d >= 0; d--) {
            lin = LLVMBuildAdd(g->B, lin, LLVMBuildMul(g->B, g_lw_coord(g, slay, d), g_const_i32(g, stride), ""), "");
            stride *= S.shape[d];
        }
        LLVMTypeRef mt = vt == g->t_i1 ? g->t_i8 : vt;
        LLVMValueRef *ri = arena_alloc(&g->mem, sizeof(LLVMValueRef) * (size_t)nout);
        const glayout *Sp = gl_get(g, slay);
        for (int ro = 0; ro < nout; ro++) {
            int64_t off = 0, st = 1;
            for (int d = Sp->rank - 1; d >= 0; d--) {
                off += gl_regcoord(Sp, ro, d) * st;
                st *= Sp->shape[d];
            }
            ri[ro] = LLVMBuildAdd(g->B, lin, g_const_i32(g, off), "");
            LLVMValueRef at = LLVMBuildAdd(g->B, LLVMBuildMul(g->B, wa, g_const_i32(g, numel), ""), ri[ro], "");
            LLVMValueRef v = vt == g->t_i1 ? LLVMBuildZExt(g->B, acc[ro], g->t_i8, "") : acc[ro];
            LLVMBuildStore(g->B, v, LLVMBuildGEP2(g->B, mt, base, &at, 1, ""));
            if (k.arg) LLVMBuildStore(g->B, idx[ro], LLVMBuildGEP2(g->B, g->t_i32, ibase, &at, 1, ""));
        }
        g_barrier(g);
        for (int ro = 0; ro < nout; ro++) {
            for (int w = 0; w < nw; w++) {
                LLVMValueRef at = LLVMBuildAdd(g->B, ri[ro], g_const_i32(g, (int64_t)w * numel), "");
                LLVMValueRef v = LLVMBuildLoad2(g->B, mt, LLVMBuildGEP2(g->B, mt, base, &at, 1, ""), "");
                if (vt == g->t_i1) v = LLVMBuildICmp(g->B, LLVMIntNE, v, LLVMConstInt(g->t_i8, 0, 0), "");
                LLVMValueRef vi = k.arg ? LLVMBuildLoad2(g->B, g->t_i32, LLVMBuildGEP2(g->B, g->t_i32, ibase, &at, 1, ""), "") : NULL;
                if (w == 0) {
                    acc[ro] = v;
                    idx[ro] = vi;
                } else {
                    combine(g, &k, &acc[ro], &idx[ro], v, vi);
                }
            }
        }
        g_barrier(g);
    }
    gv y = g_new(g, nout, slay);
    for (int ro = 0; ro < nout; ro++) y.r[ro] = k.arg ? idx[ro] : acc[ro];
    LLVMTypeRef want = g_type(g, f->values.v[op->res].type);
    if (k.arg && want != g->t_i32)
        for (int ro = 0; ro < nout; ro++) y.r[ro] = LLVMBuildSExt(g->B, y.r[ro], want, "");
    g_set(g, op->res, g_convert_gv(g, y, f->values.v[op->res].type, g->vlay[op->res]));
}
