/* lower_llvm.c — LLVM emission helpers shared by the lowering files: error
 * reporting, IR -> LLVM types, register vectors, constants, calls of
 * intrinsics, libdevice functions and inline PTX, barriers and the
 * shared-memory scratch area. No op is lowered here (lower.c dispatches). */
#include "gpu_int.h"

#include <stdarg.h>
#include <string.h>

void gfail(gctx *g, int32_t loc, const char *fmt, ...)
{
    if (g->failed) return;
    g->failed = true;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (loc >= 0 && loc < g->f->locs.n) {
        const ir_loc *l = &g->f->locs.v[loc];
        const char *fn = l->file >= 0 ? diag_file_name(l->file) : NULL;
        snprintf(g->err, g->errlen, "%s:%d:%d: gpu: %s", fn ? fn : "<kernel>", l->line, l->col, msg);
    } else {
        snprintf(g->err, g->errlen, "gpu: %s", msg);
    }
}

/* ---- types and small helpers -------------------------------------------- */

LLVMTypeRef g_type(gctx *g, ir_type t)
{
    const ir_type_info *ti = ir_type_get(ir_type_elem(t));
    switch (ti->elem) {
    case TT_BOOL: return g->t_i1;
    case TT_I8: case TT_U8: return g->t_i8;
    case TT_I16: case TT_U16: return g->t_i16;
    case TT_I32: case TT_U32: return g->t_i32;
    case TT_I64: case TT_U64: return g->t_i64;
    case TT_F16: return g->t_f16;
    case TT_BF16: return g->t_bf16;
    case TT_F32: return g->t_f32;
    case TT_F64: return g->t_f64;
    case TT_F8E4NV: case TT_F8E5: case TT_F8E4B15: case TT_F8E4B8: case TT_F8E5B16: return g->t_i8;   /* bits; lower_fp8.c */
    case TT_PTR: return g->t_gptr;
    default: die("g_type: bad dtype %d", ti->elem);
    }
}

LLVMTypeRef g_mem_type(gctx *g, ir_type elem)
{
    LLVMTypeRef t = g_type(g, elem);
    return t == g->t_i1 ? g->t_i8 : t;
}

gv g_new(gctx *g, int n, int lay)
{
    gv x = { arena_alloc(&g->mem, sizeof(LLVMValueRef) * (size_t)(n ? n : 1)), n, lay };
    return x;
}

gv g_get(gctx *g, ir_value v)
{
    if (!g->val[v].r) die("gpu: value %%%d used before it was lowered", v);
    return g->val[v];
}

void g_set(gctx *g, ir_value v, gv x)
{
    g->val[v] = x;
    g->vblock[v] = LLVMGetInsertBlock(g->B);
}

LLVMValueRef g_const_i32(gctx *g, int64_t v) { return LLVMConstInt(g->t_i32, (unsigned long long)v, 1); }

LLVMValueRef g_intrinsic(gctx *g, const char *name, LLVMTypeRef *ovl, int novl, LLVMValueRef *args, int nargs)
{
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    if (!id) die("unknown LLVM intrinsic %s", name);
    LLVMValueRef fn = LLVMGetIntrinsicDeclaration(g->M, id, ovl, (size_t)novl);
    LLVMTypeRef fty = LLVMIntrinsicGetType(g->C, id, ovl, (size_t)novl);
    return LLVMBuildCall2(g->B, fty, fn, args, (unsigned)nargs, "");
}

LLVMValueRef g_call(gctx *g, const char *name, LLVMTypeRef ret, LLVMValueRef *args, int nargs)
{
    LLVMTypeRef pt[8];
    for (int i = 0; i < nargs; i++) pt[i] = LLVMTypeOf(args[i]);
    LLVMTypeRef fty = LLVMFunctionType(ret, pt, (unsigned)nargs, 0);
    LLVMValueRef fn = LLVMGetNamedFunction(g->M, name);
    if (!fn) fn = LLVMAddFunction(g->M, name, fty);
    if (!strncmp(name, "__nv_", 5)) g->uses_libdevice = true;
    return LLVMBuildCall2(g->B, fty, fn, args, (unsigned)nargs, "");
}

LLVMValueRef g_asm(gctx *g, LLVMTypeRef ret, const char *text, const char *cons, LLVMValueRef *args, int nargs, bool side)
{
    LLVMTypeRef *pt = xmalloc(sizeof(LLVMTypeRef) * (size_t)(nargs + 1));   /* user asm: any count */
    for (int i = 0; i < nargs; i++) pt[i] = LLVMTypeOf(args[i]);
    LLVMTypeRef fty = LLVMFunctionType(ret, pt, (unsigned)nargs, 0);
    free(pt);
    LLVMValueRef a = LLVMGetInlineAsm(fty, (char *)text, strlen(text), (char *)cons, strlen(cons), side, 0,
                                      LLVMInlineAsmDialectATT, 0);
    return LLVMBuildCall2(g->B, fty, a, args, (unsigned)nargs, "");
}

void g_barrier(gctx *g)
{
    g_intrinsic(g, "llvm.nvvm.barrier0", NULL, 0, NULL, 0);
}

LLVMBasicBlockRef g_if_begin(gctx *g, LLVMValueRef cond, const char *name)
{
    if (!cond) return NULL;
    LLVMBasicBlockRef tb = LLVMAppendBasicBlockInContext(g->C, g->fn, name);
    LLVMBasicBlockRef jb = LLVMAppendBasicBlockInContext(g->C, g->fn, "if.join");
    LLVMBuildCondBr(g->B, cond, tb, jb);
    LLVMPositionBuilderAtEnd(g->B, tb);
    return jb;
}

void g_if_end(gctx *g, LLVMBasicBlockRef jb)
{
    if (!jb) return;
    LLVMBuildBr(g->B, jb);
    LLVMPositionBuilderAtEnd(g->B, jb);
}

LLVMValueRef g_scratch(gctx *g, int64_t n)
{
    if (g->scratch_off + n > g->smem_bytes) g->smem_bytes = (int)(g->scratch_off + n);
    if (!g->scratch_off) return g->smem;
    LLVMValueRef off = g_const_i32(g, g->scratch_off);
    return LLVMBuildGEP2(g->B, g->t_i8, g->smem, &off, 1, "");
}

/* ---- special registers and PTX primitives shared by the lowering files --- */

LLVMValueRef g_program(gctx *g, int axis, bool nprog)
{
    static const char *const names[2][3] = {
        { "llvm.nvvm.read.ptx.sreg.ctaid.x", "llvm.nvvm.read.ptx.sreg.ctaid.y", "llvm.nvvm.read.ptx.sreg.ctaid.z" },
        { "llvm.nvvm.read.ptx.sreg.nctaid.x", "llvm.nvvm.read.ptx.sreg.nctaid.y", "llvm.nvvm.read.ptx.sreg.nctaid.z" } };
    LLVMValueRef v = (nprog ? g->nprog : g->pid)[axis];
    return v ? v : g_intrinsic(g, names[nprog][axis], NULL, 0, NULL, 0);
}

void g_wgmma_wait(gctx *g, int pending, LLVMValueRef *acc, int n)
{
    size_t cap = (size_t)n * 8 + 64;
    char text[64], *cons = xmalloc(cap);
    snprintf(text, sizeof text, "wgmma.wait_group.sync.aligned %d;", pending);
    size_t cl = 0;
    for (int i = 0; i < n; i++) cl += (size_t)snprintf(cons + cl, cap - cl, "=f,");
    for (int i = 0; i < n; i++) cl += (size_t)snprintf(cons + cl, cap - cl, "%d,", i);
    snprintf(cons + cl, cap - cl, "~{memory}");
    LLVMTypeRef *ft = xmalloc(sizeof(LLVMTypeRef) * (size_t)n);
    for (int i = 0; i < n; i++) ft[i] = g->t_f32;
    LLVMValueRef r = g_asm(g, LLVMStructTypeInContext(g->C, ft, (unsigned)n, 0), text, cons, acc, n, true);
    for (int i = 0; i < n; i++) acc[i] = LLVMBuildExtractValue(g->B, r, (unsigned)i, "");
    free(ft);
    free(cons);
}
