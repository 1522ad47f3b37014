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
 * DotOpToLLVM/FMA.cpp, bit-reproducible (triton-semantics.md §2.11). */
#include "gpu_int.h"

#include <string.h>

static ir_type vt(gctx *g, ir_value v) { return g->f->values.v[v].type; }

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

void g_lower_dot(gctx *g, ir_op *op)
{
    if (g_dot_uses_mma(g, op)) lower_mma(g, op);
    else lower_fma(g, op);
}
