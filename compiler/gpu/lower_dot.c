/* lower_dot.c — tt.dot a[M,K] x b[K,N] + acc[M,N].
 *
 * Tensor cores: mma.sync.m16n8k16 for f16/bf16 inputs with an f32
 * accumulator and m16n8k8.tf32 for f32 inputs with input_precision tf32
 * (Triton's MMAv2 path). Operands are moved into the mma fragment layouts
 * (gl_mma; PTX ISA "warp-level matrix fragments") by the generic layout
 * conversion.
 * FMA path (input_precision="ieee" and everything else): every thread holds
 * whole rows of A and columns of B for its accumulator elements and computes
 * acc = fma(a[m,k], b[k,n], acc) for k = 0..K-1 in order — Triton's
 * DotOpToLLVM/FMA.cpp, bit-reproducible (docs/reference/triton-semantics.md
 * §2.11). */
#include "gpu_int.h"

#include <stdlib.h>
#include <string.h>

static ir_type vt(gctx *g, ir_value v) { return g->f->values.v[v].type; }

static int log2i(int64_t x)
{
    int b = 0;
    while (((int64_t)1 << b) < x) b++;
    return b;
}

static void lower_mma(gctx *g, ir_op *op)
{
    ir_func *f = g->f;
    const ir_type_info *ai = ir_type_get(vt(g, op->opnd[0])), *ci = ir_type_get(vt(g, op->res));
    tt_dtype ae = ir_type_get(ir_type_elem(vt(g, op->opnd[0])))->elem;
    int kw = ae == TT_F32 ? 8 : 16;
    int64_t M = ci->shape[0], N = ci->shape[1], K = ai->shape[1];
    glayout La, Lb, Lc;
    gl_mma(&La, 1, M, N, K, kw, g->num_warps);
    gl_mma(&Lb, 2, M, N, K, kw, g->num_warps);
    gl_mma(&Lc, 0, M, N, K, kw, g->num_warps);
    int la = gl_intern(g, &La), lb = gl_intern(g, &Lb), lc = gl_intern(g, &Lc);
    gv a = g_convert(g, op->opnd[0], la);
    gv b = g_convert(g, op->opnd[1], lb);
    gv c = g_convert(g, op->opnd[2], lc);
    int wm, wn;
    gl_mma_warps(M, N, g->nwarp, &wm, &wn);
    int mb = log2i(M), nb = log2i(N), kb = log2i(K);
    int mrep = mb - 4 - wm < 0 ? 0 : mb - 4 - wm, nrep = nb - 3 - wn < 0 ? 0 : nb - 3 - wn;
    int kfrag = kw == 16 ? 4 : 3;
    int krep = kb - kfrag;
    int abits = kw == 16 ? 3 : 2, bbits = kw == 16 ? 2 : 1;
    const char *name = ae == TT_F16 ? "llvm.nvvm.mma.m16n8k16.row.col.f32.f32"
                     : ae == TT_BF16 ? "llvm.nvvm.mma.m16n8k16.row.col.bf16"
                     : "llvm.nvvm.mma.m16n8k8.row.col.tf32";
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMValueRef fn = LLVMGetIntrinsicDeclaration(g->M, id, NULL, 0);
    LLVMTypeRef fty = LLVMIntrinsicGetType(g->C, id, NULL, 0);
    LLVMTypeRef pts[16];
    if (LLVMCountParamTypes(fty) != 10) die("%s: %u params", name, LLVMCountParamTypes(fty));
    LLVMGetParamTypes(fty, pts);
    gv y = g_new(g, c.n, lc);
    memcpy(y.r, c.r, sizeof(LLVMValueRef) * (size_t)c.n);
    int na = kw == 16 ? 4 : 4, nbo = 2;
    for (int mt = 0; mt < (1 << mrep); mt++)
        for (int nt = 0; nt < (1 << nrep); nt++) {
            int cbase = nt << 2 | mt << (2 + nrep);
            LLVMValueRef acc[4];
            for (int e = 0; e < 4; e++) acc[e] = y.r[cbase | e];
            for (int kt = 0; kt < (1 << krep); kt++) {
                int abase = kt << abits | mt << (abits + krep);
                int bbase = kt << bbits | nt << (bbits + krep);
                LLVMValueRef args[10];
                for (int i = 0; i < na; i++) {
                    LLVMTypeRef pt = pts[i];
                    if (kw == 16) {
                        LLVMTypeRef et = ae == TT_F16 ? g->t_f16 : g->t_bf16;
                        LLVMValueRef v = LLVMGetUndef(LLVMVectorType(et, 2));
                        v = LLVMBuildInsertElement(g->B, v, a.r[abase | (2 * i)], g_const_i32(g, 0), "");
                        v = LLVMBuildInsertElement(g->B, v, a.r[abase | (2 * i + 1)], g_const_i32(g, 1), "");
                        args[i] = LLVMBuildBitCast(g->B, v, pt, "");
                    } else {
                        args[i] = LLVMBuildBitCast(g->B, a.r[abase | i], pt, "");
                    }
                }
                for (int i = 0; i < nbo; i++) {
                    LLVMTypeRef pt = pts[na + i];
                    if (kw == 16) {
                        LLVMTypeRef et = ae == TT_F16 ? g->t_f16 : g->t_bf16;
                        LLVMValueRef v = LLVMGetUndef(LLVMVectorType(et, 2));
                        v = LLVMBuildInsertElement(g->B, v, b.r[bbase | (2 * i)], g_const_i32(g, 0), "");
                        v = LLVMBuildInsertElement(g->B, v, b.r[bbase | (2 * i + 1)], g_const_i32(g, 1), "");
                        args[na + i] = LLVMBuildBitCast(g->B, v, pt, "");
                    } else {
                        args[na + i] = LLVMBuildBitCast(g->B, b.r[bbase | i], pt, "");
                    }
                }
                for (int e = 0; e < 4; e++) args[na + nbo + e] = acc[e];
                LLVMValueRef r = LLVMBuildCall2(g->B, fty, fn, args, 10, "");
                for (int e = 0; e < 4; e++) acc[e] = LLVMBuildExtractValue(g->B, r, (unsigned)e, "");
            }
            for (int e = 0; e < 4; e++) y.r[cbase | e] = acc[e];
        }
    g_set(g, op->res, g_convert_gv(g, y, f->values.v[op->res].type, g->vlay[op->res]));
}

/* An f32 operand of a tf32 dot as the tensor cores read it: the low 13
 * mantissa bits dropped (inf and NaN kept), so that the FMA fallback agrees
 * with the mma path and the interpreter. */
static LLVMValueRef tf32_trunc(gctx *g, LLVMValueRef x)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetTypeContext(g->t_f32));
    LLVMValueRef u = LLVMBuildBitCast(g->B, x, i32, "");
    LLVMValueRef e = LLVMBuildAnd(g->B, u, LLVMConstInt(i32, 0x7f800000u, 0), "");
    LLVMValueRef special = LLVMBuildICmp(g->B, LLVMIntEQ, e, LLVMConstInt(i32, 0x7f800000u, 0), "");
    LLVMValueRef t = LLVMBuildAnd(g->B, u, LLVMConstInt(i32, ~0x1fffu, 0), "");
    return LLVMBuildBitCast(g->B, LLVMBuildSelect(g->B, special, u, t, ""), g->t_f32, "");
}

static void lower_fma(gctx *g, ir_op *op)
{
    const ir_type_info *ai = ir_type_get(vt(g, op->opnd[0])), *ci = ir_type_get(vt(g, op->res));
    if (ai->rank != 2) { gfail(g, op->loc, "tt.dot of rank %d is not supported on the GPU yet", ai->rank); return; }
    int lc = g->vlay[op->res];
    const glayout *C = gl_get(g, lc);
    int64_t K = ai->shape[1];
    int kb = log2i(K);
    glayout A, Bl;
    int64_t ashape[2] = { ci->shape[0], K }, bshape[2] = { K, ci->shape[1] };
    memset(&A, 0, sizeof A);
    memset(&Bl, 0, sizeof Bl);
    A.rank = Bl.rank = 2;
    A.shape[0] = ashape[0]; A.shape[1] = ashape[1];
    Bl.shape[0] = bshape[0]; Bl.shape[1] = bshape[1];
    A.nwarp = Bl.nwarp = C->nwarp;
    for (int i = 0; i < kb; i++) {
        A.reg[A.nreg++] = (gbasis){ 1, (int8_t)i };
        Bl.reg[Bl.nreg++] = (gbasis){ 0, (int8_t)i };
    }
    for (int i = 0; i < C->nreg; i++) {
        if (C->reg[i].dim == 0) A.reg[A.nreg++] = C->reg[i];
        else Bl.reg[Bl.nreg++] = C->reg[i];
    }
    if (A.nreg > GL_MAXREG || Bl.nreg > GL_MAXREG) { gfail(g, op->loc, "tt.dot tile too large"); return; }
    for (int i = 0; i < 5; i++) {
        gbasis b = C->lane[i];
        A.lane[i] = b.dim == 0 ? b : (gbasis){ -1, 0 };
        Bl.lane[i] = b.dim == 1 ? b : (gbasis){ -1, 0 };
    }
    for (int i = 0; i < C->nwarp; i++) {
        gbasis b = C->warp[i];
        A.warp[i] = b.dim == 0 ? b : (gbasis){ -1, 0 };
        Bl.warp[i] = b.dim == 1 ? b : (gbasis){ -1, 0 };
    }
    for (int i = C->nwarp; i < GL_MAXWARP; i++) A.warp[i] = Bl.warp[i] = (gbasis){ -1, 0 };
    int la = gl_intern(g, &A), lb = gl_intern(g, &Bl);
    C = gl_get(g, lc);
    const glayout *Ap = gl_get(g, la), *Bp = gl_get(g, lb);
    gv a = g_convert(g, op->opnd[0], la);
    gv b = g_convert(g, op->opnd[1], lb);
    gv c = g_convert(g, op->opnd[2], lc);
    LLVMTypeRef ct = g_type(g, vt(g, op->res));
    bool fl = ct == g->t_f32 || ct == g->t_f64 || ct == g->t_f16 || ct == g->t_bf16;
    bool tf = ir_type_get(ir_type_elem(vt(g, op->opnd[0])))->elem == TT_F32 && op->attr[0] == PREC_TF32;
    gv y = g_new(g, c.n, lc);
    for (int r = 0; r < c.n; r++) {
        int64_t m = gl_regcoord(C, r, 0), n = gl_regcoord(C, r, 1);
        LLVMValueRef acc = c.r[r];
        for (int64_t k = 0; k < K; k++) {
            int64_t ca[2] = { m, k }, cb[2] = { k, n };
            int ra = gl_reg_of(Ap, ca), rb = gl_reg_of(Bp, cb);
            if (ra < 0 || rb < 0) die("lower_fma: register lookup");
            LLVMValueRef x = a.r[ra], w = b.r[rb];
            if (fl) {
                if (tf) {
                    x = tf32_trunc(g, x);
                    w = tf32_trunc(g, w);
                }
                if (LLVMTypeOf(x) != ct) x = LLVMBuildFPExt(g->B, x, ct, "");
                if (LLVMTypeOf(w) != ct) w = LLVMBuildFPExt(g->B, w, ct, "");
                LLVMValueRef args[3] = { x, w, acc };
                acc = g_intrinsic(g, "llvm.fma", &ct, 1, args, 3);
            } else {
                if (LLVMTypeOf(x) != ct) x = LLVMBuildSExt(g->B, x, ct, "");
                if (LLVMTypeOf(w) != ct) w = LLVMBuildSExt(g->B, w, ct, "");
                acc = LLVMBuildAdd(g->B, acc, LLVMBuildMul(g->B, x, w, ""), "");
            }
        }
        y.r[r] = acc;
    }
    g_set(g, op->res, y);
}

/* ---- tensor cores from shared memory: ldmatrix + mma.sync (16-bit inputs) ---- */

static LLVMValueRef ci(gctx *g, int64_t v) { return g_const_i32(g, v); }

static LLVMValueRef sptr(gctx *g, LLVMValueRef base, LLVMValueRef off)
{
    return LLVMBuildGEP2(g->B, g->t_i8, base, &off, 1, "");
}

static LLVMValueRef ldmatrix(gctx *g, int n, bool trans, LLVMValueRef p, LLVMValueRef *out)
{
    char name[64];
    snprintf(name, sizeof name, "llvm.nvvm.ldmatrix.sync.aligned.m8n8.x%d%s.b16", n, trans ? ".trans" : "");
    LLVMValueRef r = g_intrinsic(g, name, &g->t_sptr, 1, &p, 1);
    if (n == 1) out[0] = r;
    else
        for (int i = 0; i < n; i++) out[i] = LLVMBuildExtractValue(g->B, r, (unsigned)i, "");
    return r;
}

/* acc (layout Lc of gl_mma op 0) += A[M,K] (tile ta) x B[K,N] (tile tb):
 * per k16 step, ldmatrix.x4 fetches each 16x16 A fragment and
 * ldmatrix.x4.trans two 16x8 B fragments, then mma.m16n8k16 (PTX ISA
 * "warp-level matrix load instruction: ldmatrix" and the m16n8k16 fragment
 * layouts; Triton's SharedToDotOperandMMAv2OrV3.cpp does the same). */
static void mma_from_tiles(gctx *g, tt_dtype ae, int64_t M, int64_t N, int64_t K, const gtile *ta, const gtile *tb,
                           gv *y)
{
    LLVMBuilderRef B = g->B;
    int wm, wn;
    gl_mma_warps(M, N, g->nwarp, &wm, &wn);
    int mb = log2i(M), nb = log2i(N), kb = log2i(K);
    int mrep = mb - 4 - wm < 0 ? 0 : mb - 4 - wm, nrep = nb - 3 - wn < 0 ? 0 : nb - 3 - wn;
    int krep = kb - 4;
    LLVMValueRef moff = ci(g, 0), noff = ci(g, 0);
    for (int i = 0; i < wm; i++)
        if (4 + i < mb) {
            LLVMValueRef b = LLVMBuildAnd(B, LLVMBuildLShr(B, g->warp, ci(g, i), ""), ci(g, 1), "");
            moff = LLVMBuildOr(B, moff, LLVMBuildShl(B, b, ci(g, 4 + i), ""), "");
        }
    for (int i = 0; i < wn; i++)
        if (3 + i < nb) {
            LLVMValueRef b = LLVMBuildAnd(B, LLVMBuildLShr(B, g->warp, ci(g, wm + i), ""), ci(g, 1), "");
            noff = LLVMBuildOr(B, noff, LLVMBuildShl(B, b, ci(g, 3 + i), ""), "");
        }
    LLVMValueRef lane = g->lane;
    LLVMValueRef r7 = LLVMBuildAnd(B, lane, ci(g, 7), "");
    LLVMValueRef jlo = LLVMBuildAnd(B, LLVMBuildLShr(B, lane, ci(g, 3), ""), ci(g, 1), "");
    LLVMValueRef jhi = LLVMBuildAnd(B, LLVMBuildLShr(B, lane, ci(g, 4), ""), ci(g, 1), "");
    LLVMValueRef rr = LLVMBuildOr(B, LLVMBuildShl(B, jlo, ci(g, 3), ""), r7, "");   /* row within 16 */
    int pa, ma, pb, mpb;
    g_tile_swizzle(ta, &pa, &ma);
    g_tile_swizzle(tb, &pb, &mpb);
    int64_t rba = ta->cols * ta->esz, rbb = tb->cols * tb->esz;
    /* A: lane row moff + rr (+ 16 << wm per m tile), chunk 2*kt + jhi, phase (row % 8) / pa */
    LLVMValueRef pha = LLVMBuildAnd(B, LLVMBuildLShr(B, r7, ci(g, log2i(pa)), ""), ci(g, ma - 1), "");
    LLVMValueRef qa = LLVMBuildXor(B, jhi, pha, "");
    LLVMValueRef rowa = LLVMBuildMul(B, LLVMBuildAdd(B, moff, rr, ""), ci(g, rba), "");
    /* B (trans): lane row kt*16 + rr, chunk noff/8 + (nt << wn) (+ jhi for the second n tile) */
    LLVMValueRef phb = LLVMBuildAnd(B, LLVMBuildLShr(B, r7, ci(g, log2i(pb)), ""), ci(g, mpb - 1), "");
    LLVMValueRef rowb = LLVMBuildMul(B, rr, ci(g, rbb), "");
    int nnt = 1 << nrep;
    bool pair = nnt >= 2;
    LLVMValueRef chb = LLVMBuildLShr(B, noff, ci(g, 3), "");
    if (pair) chb = LLVMBuildAdd(B, chb, LLVMBuildShl(B, jhi, ci(g, wn), ""), "");

    const char *name = ae == TT_F16 ? "llvm.nvvm.mma.m16n8k16.row.col.f32.f32" : "llvm.nvvm.mma.m16n8k16.row.col.bf16";
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMValueRef fn = LLVMGetIntrinsicDeclaration(g->M, id, NULL, 0);
    LLVMTypeRef fty = LLVMIntrinsicGetType(g->C, id, NULL, 0);
    LLVMTypeRef pts[16];
    LLVMGetParamTypes(fty, pts);
    int nmt = 1 << mrep;
    LLVMValueRef *af = xmalloc(sizeof(LLVMValueRef) * (size_t)(4 * nmt));
    LLVMValueRef *bf = xmalloc(sizeof(LLVMValueRef) * (size_t)(2 * nnt + 2));
    for (int kt = 0; kt < (1 << krep); kt++) {
        LLVMValueRef ca = LLVMBuildShl(B, LLVMBuildXor(B, qa, ci(g, 2 * kt), ""), ci(g, 4), "");
        LLVMValueRef offa = LLVMBuildAdd(B, rowa, ca, "");
        for (int mt = 0; mt < nmt; mt++) {
            LLVMValueRef off = LLVMBuildAdd(B, offa, ci(g, ((int64_t)mt << (4 + wm)) * rba), "");
            ldmatrix(g, 4, false, sptr(g, ta->base, off), af + 4 * mt);
        }
        LLVMValueRef offb = LLVMBuildAdd(B, rowb, ci(g, (int64_t)kt * 16 * rbb), "");
        for (int nt = 0; nt < nnt; nt += pair ? 2 : 1) {
            LLVMValueRef ch = LLVMBuildAdd(B, chb, ci(g, (int64_t)nt << wn), "");
            ch = LLVMBuildXor(B, ch, phb, "");
            LLVMValueRef off = LLVMBuildAdd(B, offb, LLVMBuildShl(B, ch, ci(g, 4), ""), "");
            ldmatrix(g, pair ? 4 : 2, true, sptr(g, tb->base, off), bf + 2 * nt);
        }
        /* operand registers in the intrinsic's types, once per fragment */
        for (int mt = 0; mt < nmt; mt++)
            for (int i = 0; i < 4; i++) af[4 * mt + i] = LLVMBuildBitCast(B, af[4 * mt + i], pts[i], "");
        for (int nt = 0; nt < nnt; nt++)
            for (int i = 0; i < 2; i++) bf[2 * nt + i] = LLVMBuildBitCast(B, bf[2 * nt + i], pts[4 + i], "");
        for (int mt = 0; mt < nmt; mt++)
            for (int nt = 0; nt < nnt; nt++) {
                int cbase = nt << 2 | mt << (2 + nrep);
                LLVMValueRef args[10];
                for (int i = 0; i < 4; i++) args[i] = af[4 * mt + i];
                for (int i = 0; i < 2; i++) args[4 + i] = bf[2 * nt + i];
                for (int e = 0; e < 4; e++) args[6 + e] = y->r[cbase | e];
                LLVMValueRef r = LLVMBuildCall2(B, fty, fn, args, 10, "");
                for (int e = 0; e < 4; e++) y->r[cbase | e] = LLVMBuildExtractValue(B, r, (unsigned)e, "");
            }
    }
    free(af);
    free(bf);
}

/* 16-bit operands: from the tiles of pipelined loads, or registers stored
 * into swizzled scratch shared memory first. */
static void lower_mma_smem(gctx *g, ir_op *op)
{
    ir_func *f = g->f;
    const ir_type_info *ai = ir_type_get(vt(g, op->opnd[0])), *ci_ = ir_type_get(vt(g, op->res));
    tt_dtype ae = ir_type_get(ir_type_elem(vt(g, op->opnd[0])))->elem;
    int64_t M = ci_->shape[0], N = ci_->shape[1], K = ai->shape[1];
    glayout Lc;
    gl_mma(&Lc, 0, M, N, K, 16, g->num_warps);
    int lc = gl_intern(g, &Lc);
    gv c = g_convert(g, op->opnd[2], lc);
    gtile t[2];
    const gtile *tp[2];
    bool in_regs[2];
    int64_t off = 0, rows[2] = { M, K }, cols[2] = { K, N };
    for (int i = 0; i < 2; i++) {
        in_regs[i] = g->stile[op->opnd[i]] == NULL;
        if (!in_regs[i]) {
            tp[i] = g->stile[op->opnd[i]];
            continue;
        }
        t[i] = (gtile){ NULL, rows[i], cols[i], 2, false };
        tp[i] = &t[i];
    }
    if (in_regs[0] || in_regs[1]) {
        int64_t bytes = (in_regs[0] ? M * K * 2 : 0) + (in_regs[1] ? K * N * 2 : 0);
        LLVMValueRef base = g_scratch(g, bytes);
        for (int i = 0; i < 2; i++) {
            if (!in_regs[i]) continue;
            t[i].base = sptr(g, base, ci(g, off));
            off += rows[i] * cols[i] * 2;
            gv x = g_get(g, op->opnd[i]);
            g_tile_store(g, x, &t[i]);
        }
        g_barrier(g);
    }
    gv y = g_new(g, c.n, lc);
    memcpy(y.r, c.r, sizeof(LLVMValueRef) * (size_t)c.n);
    mma_from_tiles(g, ae, M, N, K, tp[0], tp[1], &y);
    if (in_regs[0] || in_regs[1]) g_barrier(g);
    g_set(g, op->res, g_convert_gv(g, y, f->values.v[op->res].type, g->vlay[op->res]));
}

void g_lower_dot(gctx *g, ir_op *op)
{
    if (g_dot_uses_wgmma(g, op)) {
        g_lower_wgmma(g, op);
    } else if (g_dot_uses_mma(g, op)) {
        tt_dtype ae = ir_type_get(ir_type_elem(vt(g, op->opnd[0])))->elem;
        if ((ae == TT_F16 || ae == TT_BF16) && !g->o->set.gpu_old_mma) lower_mma_smem(g, op);
        else lower_mma(g, op);
    } else {
        lower_fma(g, op);
    }
}
