/* lower_wgmma.c — tt.dot on Hopper's warpgroup MMA (sm_90a).
 *
 * A [M,K] and B [K,N] (f16 or bf16) are read from shared memory through
 * 64-bit matrix descriptors; the f32 accumulator stays in registers in the
 * wgmma fragment layout (gl_wgmma). Each warpgroup (4 consecutive warps)
 * issues, per 64-row block and per k16 step, one
 * wgmma.mma_async.sync.aligned.m64nNk16.f32.T.T with N = the tile's N,
 * bracketed by wgmma.fence / commit_group / wait_group (0, or 1 for the
 * accumulating dot of a pipelined loop: pipeline.c) (Triton 3.6:
 * third_party/nvidia/lib/TritonNVIDIAGPUToLLVM/DotOpToLLVM/WGMMA.cpp,
 * convertDot; descriptor fields: DotOpToLLVM/MMAHelpers.h, SMEMDescriptor
 * and DotOpMmaSmemLoader::getDescriptor).
 *
 * Tiles are row-major with the last dim contiguous (gtile with wg set), so
 * A is K-major (imm-trans-a 0) and B is N-major (imm-trans-b 1). With W =
 * min(row bytes, 128) the swizzle mode is W bytes; PTX ISA "Matrix
 * Descriptor" canonical layouts:
 *   A, K-major:  8-row groups at SBO = 8 W; a k16 step moves the start
 *                address 32 bytes (into the next 128-byte slab past 128);
 *   B, MN-major: 8-row (K) groups at SBO = 8 W, 128-byte column slabs at
 *                LBO = K W; a k16 step moves the start 16 W bytes;
 *   B, K-major (a transposed operand stored untransposed, imm-trans-b 0):
 *                as A, with N rows.
 * Operands come from the cp.async pipeline's stages (pipeline.c stores them
 * in this layout); otherwise A is read from registers in its fragment layout
 * (gl_wgmma_a; attention's p and q) and B is stored into scratch first. */
#include "gpu_int.h"

#include <stdlib.h>
#include <string.h>

static ir_type vt(gctx *g, ir_value v) { return g->f->values.v[v].type; }
static LLVMValueRef ci(gctx *g, int64_t v) { return g_const_i32(g, v); }

void g_fence_proxy_async(gctx *g)
{
    g_asm(g, g->t_void, "fence.proxy.async.shared::cta;", "~{memory}", NULL, 0, true);
}

/* Descriptor bits other than the start address: leading and stride byte
 * offsets (16-byte units, bits 16-29 and 32-45) and the swizzle mode (bits
 * 62-63: 1 = 128 B, 2 = 64 B, 3 = 32 B). */
static uint64_t desc_bits(int64_t lbo, int64_t sbo, int64_t w)
{
    uint64_t mode = w == 128 ? 1 : w == 64 ? 2 : 3;
    return ((uint64_t)(lbo >> 4) & 0x3fff) << 16 | ((uint64_t)(sbo >> 4) & 0x3fff) << 32 | mode << 62;
}

/* The descriptor (i64) of the matrix starting `off` bytes into tile t. */
static LLVMValueRef descriptor(gctx *g, const gtile *t, LLVMValueRef off, uint64_t bits)
{
    LLVMBuilderRef B = g->B;
    LLVMValueRef a = LLVMBuildPtrToInt(B, t->base, g->t_i32, "");
    a = LLVMBuildAdd(B, a, off, "");
    a = LLVMBuildLShr(B, LLVMBuildAnd(B, a, ci(g, 0x3ffff), ""), ci(g, 4), "");
    LLVMValueRef d = LLVMBuildZExt(B, a, g->t_i64, "");
    return LLVMBuildOr(B, d, LLVMConstInt(g->t_i64, bits, 0), "");
}

/* One wgmma.mma_async m64nNk16: acc[0..N/2) += A x B(db), A from the
 * descriptor da, or (da NULL) from the four f16x2/bf16x2 registers ar. */
static void wgmma_call(gctx *g, tt_dtype ae, int64_t N, LLVMValueRef da, const LLVMValueRef *ar, LLVMValueRef db,
                       int trans_b, LLVMValueRef *acc)
{
    int n = (int)(N / 2), na = da ? 1 : 4;
    const char *ty = ae == TT_F16 ? "f16" : "bf16";
    size_t cap = (size_t)n * 16 + 512;
    char *text = xmalloc(cap), *cons = xmalloc(cap);
    size_t tl = (size_t)snprintf(text, cap, "{\n.reg .pred p;\nsetp.ne.b32 p, $%d, 0;\n"
                                 "wgmma.mma_async.sync.aligned.m64n%dk16.f32.%s.%s {", 2 * n + na + 1, (int)N, ty, ty);
    size_t cl = 0;
    for (int i = 0; i < n; i++) {
        tl += (size_t)snprintf(text + tl, cap - tl, "%s$%d", i ? "," : "", i);
        cl += (size_t)snprintf(cons + cl, cap - cl, "=f,");
    }
    if (da)   /* imm-trans-a 0 (K-major); imm-trans-b 1: B N-major */
        snprintf(text + tl, cap - tl, "}, $%d, $%d, p, 1, 1, 0, %d;\n}", 2 * n, 2 * n + 1, trans_b);
    else      /* A in registers: no imm-trans-a */
        snprintf(text + tl, cap - tl, "}, {$%d,$%d,$%d,$%d}, $%d, p, 1, 1, %d;\n}", 2 * n, 2 * n + 1, 2 * n + 2,
                 2 * n + 3, 2 * n + 4, trans_b);
    for (int i = 0; i < n; i++) cl += (size_t)snprintf(cons + cl, cap - cl, "%d,", i);
    snprintf(cons + cl, cap - cl, da ? "l,l,r" : "r,r,r,r,l,r");
    LLVMTypeRef *ft = xmalloc(sizeof(LLVMTypeRef) * (size_t)n);
    LLVMValueRef *args = xmalloc(sizeof(LLVMValueRef) * (size_t)(n + na + 2));
    for (int i = 0; i < n; i++) {
        ft[i] = g->t_f32;
        args[i] = acc[i];
    }
    for (int i = 0; i < na; i++) args[n + i] = da ? da : ar[i];
    args[n + na] = db;
    args[n + na + 1] = ci(g, 1);
    LLVMValueRef r = g_asm(g, LLVMStructTypeInContext(g->C, ft, (unsigned)n, 0), text, cons, args, n + na + 2, true);
    for (int i = 0; i < n; i++) acc[i] = LLVMBuildExtractValue(g->B, r, (unsigned)i, "");
    free(ft);
    free(args);
    free(text);
    free(cons);
}

/* Whether instruction i computes a value only: no memory access, call or
 * control flow (LLVM may place it on either side of a wgmma wait). */
static bool pure_value(LLVMValueRef i)
{
    switch (LLVMGetInstructionOpcode(i)) {
    case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMShl: case LLVMLShr: case LLVMAShr: case LLVMAnd:
    case LLVMOr: case LLVMXor: case LLVMICmp: case LLVMSelect: case LLVMZExt: case LLVMSExt: case LLVMTrunc:
    case LLVMGetElementPtr: case LLVMBitCast: case LLVMPtrToInt: case LLVMIntToPtr: case LLVMExtractValue:
    case LLVMInsertValue: case LLVMExtractElement: case LLVMInsertElement: case LLVMShuffleVector:
        return true;
    default:
        return false;
    }
}

static bool is_wgmma_wait(LLVMValueRef i)
{
    if (!LLVMIsACallInst(i)) return false;
    LLVMValueRef callee = LLVMGetCalledValue(i);
    if (!callee || !LLVMIsAInlineAsm(callee)) return false;
    size_t n = 0;
    const char *s = LLVMGetInlineAsmAsmString(callee, &n);
    return s && n >= 16 && !strncmp(s, "wgmma.wait_group", 16);
}

void g_wgmma_waits_first(gctx *g)
{
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(g->fn); b; b = LLVMGetNextBasicBlock(b))
        for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
            if (!is_wgmma_wait(i)) continue;
            LLVMValueRef at = i;      /* the earliest pure instruction i may move above */
            for (LLVMValueRef p = LLVMGetPreviousInstruction(i); p && pure_value(p); p = LLVMGetPreviousInstruction(p)) {
                bool feeds = false;
                for (int k = 0; k < LLVMGetNumOperands(i) && !feeds; k++) feeds = LLVMGetOperand(i, k) == p;
                if (feeds) break;
                at = p;
            }
            if (at == i) continue;
            LLVMBuilderRef B = LLVMCreateBuilderInContext(g->C);
            LLVMPositionBuilderBefore(B, at);
            LLVMInstructionRemoveFromParent(i);
            LLVMInsertIntoBuilder(B, i);
            LLVMDisposeBuilder(B);
        }
}

/* v in layout lay, converted once at the end of v's defining block when
 * that is not the current one (a loop-invariant operand is not moved
 * through shared memory on every iteration); cached like a
 * rematerialization. */
static gv convert_at_def(gctx *g, ir_value v, int lay)
{
    gv x = g_get(g, v);
    if (x.lay == lay) return x;
    for (int i = 0; i < g->remat.n; i++)
        if (g->remat.v[i].v == v && g->remat.v[i].lay == lay) return g->remat.v[i].g;
    LLVMBasicBlockRef cur = LLVMGetInsertBlock(g->B), def = g->vblock[v];
    LLVMValueRef term = def ? LLVMGetBasicBlockTerminator(def) : NULL;
    if (!def || def == cur || !term) return g_convert(g, v, lay);
    LLVMValueRef here = LLVMGetBasicBlockTerminator(cur);
    LLVMPositionBuilderBefore(g->B, term);
    gv y = g_convert(g, v, lay);
    if (here) LLVMPositionBuilderBefore(g->B, here);
    else LLVMPositionBuilderAtEnd(g->B, cur);
    remat_ent e = { v, lay, y };
    vec_push(&g->remat, e);
    return y;
}

/* Registers r0, r1 (16-bit floats) as one f16x2/bf16x2 register (i32). */
static LLVMValueRef pack2(gctx *g, LLVMValueRef r0, LLVMValueRef r1)
{
    LLVMValueRef v = LLVMGetUndef(LLVMVectorType(LLVMTypeOf(r0), 2));
    v = LLVMBuildInsertElement(g->B, v, r0, ci(g, 0), "");
    v = LLVMBuildInsertElement(g->B, v, r1, ci(g, 1), "");
    return LLVMBuildBitCast(g->B, v, g->t_i32, "");
}

void g_lower_wgmma(gctx *g, ir_op *op)
{
    LLVMBuilderRef B = g->B;
    const ir_type_info *ai = ir_type_get(vt(g, op->opnd[0])), *ri = ir_type_get(vt(g, op->res));
    tt_dtype ae = ir_type_get(ir_type_elem(vt(g, op->opnd[0])))->elem;
    int64_t M = ri->shape[0], N = ri->shape[1], K = ai->shape[1];
    glayout Lc;
    gl_wgmma(&Lc, M, N, g->num_warps);
    int lc = gl_intern(g, &Lc);
    LLVMSetAlignment(g->smem, 1024);            /* the swizzle patterns are address based */
    gv c = g_convert(g, op->opnd[2], lc);

    gtile t[2];
    const gtile *tp[2];
    bool in_regs[2];
    int64_t rows[2] = { M, K }, cols[2] = { K, N }, bytes = 0, off[2] = { 0, 0 };
    /* A not in a pipeline stage: wgmma reads it from registers, in the A
     * fragment layout ($TRITIUM_WGMMA_SMEM_A=1: through shared memory) */
    bool areg = g->stile[op->opnd[0]] == NULL && !g->o->set.wgmma_smem_a;
    /* B = tt.trans(x) (attention's k^T): x's [N,K] tile, from the pipeline
     * or stored from registers, is read K-major (imm-trans-b 0) */
    ir_op *bt = ir_def(g->f, op->opnd[1]);
    int64_t ord[IR_ATTR_ARRAY_MAX];
    bool bkmaj = g->stile[op->opnd[1]] == NULL && bt && bt->opc == IR_TRANS &&
                 (ir_attr_array_get(g->f, bt->attr[0], ord) != 2 || ord[0] == 1);
    const gtile *btile = bkmaj ? g->stile[bt->opnd[0]] : g->stile[op->opnd[1]];   /* x of a pipelined load */
    if (bkmaj) {
        rows[1] = N;
        cols[1] = K;
    }
    gv a = { 0 };
    if (areg) {
        glayout La;
        gl_wgmma_a(&La, M, K, g->num_warps);
        a = convert_at_def(g, op->opnd[0], gl_intern(g, &La));
    }
    for (int i = 0; i < 2; i++) {
        const gtile *st = i ? btile : g->stile[op->opnd[i]];
        if (st && !st->wg) { gfail(g, op->loc, "internal: wgmma operand tile not in the wgmma layout"); return; }
        in_regs[i] = st == NULL;
        tp[i] = in_regs[i] ? &t[i] : st;
        if (i == 0 && areg) continue;
        if (in_regs[i]) {
            off[i] = bytes;
            bytes += (rows[i] * cols[i] * 2 + 1023) & ~(int64_t)1023;
        }
    }
    if (bytes) {
        int64_t pad = (1024 - g->scratch_off % 1024) % 1024;
        LLVMValueRef base = g_scratch(g, pad + bytes);
        for (int i = 0; i < 2; i++) {
            if (!in_regs[i] || (i == 0 && areg)) continue;
            LLVMValueRef o = ci(g, pad + off[i]);
            t[i] = (gtile){ LLVMBuildGEP2(B, g->t_i8, base, &o, 1, ""), rows[i], cols[i], 2, true };
            g_tile_store(g, g_get(g, i == 1 && bkmaj ? bt->opnd[0] : op->opnd[i]), &t[i]);
        }
        g_fence_proxy_async(g);
        g_barrier(g);
    }

    int64_t wa = K * 2 < 128 ? K * 2 : 128, wb = (bkmaj ? K : N) * 2 < 128 ? (bkmaj ? K : N) * 2 : 128;
    uint64_t bits_a = desc_bits(0, 8 * wa, wa);
    uint64_t bits_b = bkmaj ? desc_bits(0, 8 * wb, wb) : desc_bits(K * wb, 8 * wb, wb);
    /* this warpgroup's first row: warp bit 2 is M bit 6 (gl_wgmma) */
    LLVMValueRef wgrow = ci(g, 0);
    if (g->num_warps == 8) wgrow = LLVMBuildShl(B, LLVMBuildLShr(B, g->warp, ci(g, 2), ""), ci(g, 6), "");
    LLVMValueRef rowoff = LLVMBuildMul(B, wgrow, ci(g, wa), "");
    int n = (int)(N / 2), nmt = (int)(M / (16 * g->num_warps));
    gv y = g_new(g, c.n, lc);
    memcpy(y.r, c.r, sizeof(LLVMValueRef) * (size_t)c.n);
    /* A's registers packed before the fence: writing them between the
     * wgmmas would make ptxas insert warpgroup.arrive (C7519) */
    LLVMValueRef *ap = NULL;
    if (areg) {
        ap = xmalloc(sizeof(LLVMValueRef) * (size_t)(a.n / 2));
        for (int i = 0; i < a.n / 2; i++) ap[i] = pack2(g, a.r[2 * i], a.r[2 * i + 1]);
    }
    g_asm(g, g->t_void, "wgmma.fence.sync.aligned;", "~{memory}", NULL, 0, true);
    for (int mt = 0; mt < nmt; mt++)
        for (int64_t k = 0; k < K / 16; k++) {
            int64_t kb = k * 32;
            int64_t oa = (kb / wa) * M * wa + (int64_t)mt * 16 * g->num_warps * wa + kb % wa;
            int64_t ob = bkmaj ? (kb / wb) * N * wb + kb % wb : k * 16 * wb;
            LLVMValueRef db = descriptor(g, tp[1], ci(g, ob), bits_b);
            if (areg) {             /* gl_wgmma_a: 8 registers per (64-row block, k16 step) */
                wgmma_call(g, ae, N, NULL, ap + 4 * ((size_t)mt * (size_t)(K / 16) + (size_t)k), db, !bkmaj,
                           y.r + (size_t)mt * (size_t)n);
            } else {
                LLVMValueRef da = descriptor(g, tp[0], LLVMBuildAdd(B, rowoff, ci(g, oa), ""), bits_a);
                wgmma_call(g, ae, N, da, NULL, db, !bkmaj, y.r + (size_t)mt * (size_t)n);
            }
        }
    g_asm(g, g->t_void, "wgmma.commit_group.sync.aligned;", "~{memory}", NULL, 0, true);
    free(ap);
    /* in a pipelined loop the group may stay in flight: the next iteration's
     * wgmma chains on the accumulator, g_pipe_end waits after the loop */
    ir_value inflight = g_pipe_dot_retires(g, op);
    if (inflight >= 0) {                         /* also wait for, and carry, the other dot's accumulator */
        gv o = g_get(g, inflight);
        LLVMValueRef *r = xmalloc(sizeof(LLVMValueRef) * (size_t)(y.n + o.n));
        memcpy(r, y.r, sizeof(LLVMValueRef) * (size_t)y.n);
        memcpy(r + y.n, o.r, sizeof(LLVMValueRef) * (size_t)o.n);
        g_wgmma_wait(g, 0, r, y.n + o.n);
        memcpy(y.r, r, sizeof(LLVMValueRef) * (size_t)y.n);
        gv w = g_new(g, o.n, o.lay);
        memcpy(w.r, r + y.n, sizeof(LLVMValueRef) * (size_t)o.n);
        g_set(g, inflight, w);
        free(r);
    } else {
        g_wgmma_wait(g, g_pipe_dot_async(g, op) ? 1 : 0, y.r, y.n);
    }
    if (bytes) g_barrier(g);                     /* scratch is reused by later ops */
    g_set(g, op->res, g_convert_gv(g, y, vt(g, op->res), g->vlay[op->res]));
}
