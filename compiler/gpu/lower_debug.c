/* lower_debug.c — tt.print to vprintf, tt.assert to __assertfail and
 * tt.elementwise_inline_asm to LLVM inline asm, after Triton 3.6
 * (lib/Conversion/TritonGPUToLLVM/PrintOpToLLVM.cpp, AssertOpToLLVM.cpp,
 * ElementwiseOpToLLVM.cpp ElementwiseInlineAsmOpConversion; the NVIDIA
 * TargetInfo::printf / assertFail).
 *
 * vprintf(fmt, args) is CUDA's device printf: args points at the values
 * packed with their natural alignment, integers narrower than 32 bits
 * widened to i32 and floats to f64 (printfPromoteValue). Each element is
 * printed by the thread that owns it; replicated threads stay quiet (Triton
 * prints replicas too), so the lines of a launch are the interpreter's
 * lines in another order. */
#include "gpu_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A NUL-terminated constant string in global memory, as a generic pointer. */
static LLVMValueRef cstring(gctx *g, const char *name, const char *s)
{
    size_t n = strlen(s);
    LLVMValueRef init = LLVMConstStringInContext(g->C, s, (unsigned)n, 0);
    LLVMValueRef gl = LLVMAddGlobalInAddressSpace(g->M, LLVMTypeOf(init), name, 1);
    LLVMSetInitializer(gl, init);
    LLVMSetGlobalConstant(gl, 1);
    LLVMSetLinkage(gl, LLVMPrivateLinkage);
    LLVMSetUnnamedAddress(gl, LLVMGlobalUnnamedAddr);
    return LLVMConstAddrSpaceCast(gl, LLVMPointerTypeInContext(g->C, 0));
}

static LLVMValueRef vprintf_fn(gctx *g, LLVMTypeRef *fty)
{
    LLVMTypeRef p0 = LLVMPointerTypeInContext(g->C, 0);
    LLVMTypeRef pt[2] = { p0, p0 };
    *fty = LLVMFunctionType(g->t_i32, pt, 2, 0);
    LLVMValueRef fn = LLVMGetNamedFunction(g->M, "vprintf");
    return fn ? fn : LLVMAddFunction(g->M, "vprintf", *fty);
}

/* vprintf(fmt, {args...}) in the current block. */
static void call_vprintf(gctx *g, LLVMValueRef fmt, LLVMValueRef *args, int n)
{
    LLVMTypeRef fty;
    LLVMValueRef fn = vprintf_fn(g, &fty);
    LLVMValueRef buf = LLVMConstNull(LLVMPointerTypeInContext(g->C, 0));
    if (n) {
        LLVMTypeRef ts[40];
        for (int i = 0; i < n; i++) ts[i] = LLVMTypeOf(args[i]);
        LLVMTypeRef st = LLVMStructTypeInContext(g->C, ts, (unsigned)n, 0);
        /* the alloca goes to the entry block: one stack slot per call site */
        LLVMBasicBlockRef here = LLVMGetInsertBlock(g->B);
        LLVMValueRef first = LLVMGetFirstInstruction(g->entry);
        if (first) LLVMPositionBuilderBefore(g->B, first);
        else LLVMPositionBuilderAtEnd(g->B, g->entry);
        LLVMValueRef a = LLVMBuildAlloca(g->B, st, "printf.args");
        LLVMPositionBuilderAtEnd(g->B, here);
        for (int i = 0; i < n; i++) LLVMBuildStore(g->B, args[i], LLVMBuildStructGEP2(g->B, st, a, (unsigned)i, ""));
        buf = LLVMBuildAddrSpaceCast(g->B, a, LLVMPointerTypeInContext(g->C, 0), "");
    }
    LLVMValueRef cargs[2] = { fmt, buf };
    LLVMBuildCall2(g->B, fty, fn, cargs, 2, "");
}

/* printf's promotion of one element, and its conversion ("%f", "%lld", ...) */
static LLVMValueRef promote(gctx *g, LLVMValueRef v, ir_type t, bool sgn, bool hex, char *conv, size_t n)
{
    const ir_type_info *ti = ir_type_get(ir_type_elem(t));
    int bits = ir_type_bits(t);
    if (ti->elem == TT_PTR) {
        snprintf(conv, n, "0x%%llx");
        return LLVMBuildPtrToInt(g->B, v, g->t_i64, "");
    }
    if (ir_type_is_float(t)) {
        if (!hex) {
            snprintf(conv, n, "%%f");
            return LLVMTypeOf(v) == g->t_f64 ? v : LLVMBuildFPExt(g->B, v, g->t_f64, "");
        }
        v = LLVMBuildBitCast(g->B, v, LLVMIntTypeInContext(g->C, (unsigned)bits), "");   /* its bits */
    }
    if (hex) snprintf(conv, n, bits > 32 ? "0x%%0%dllx" : "0x%%0%dx", bits / 4);
    else if (bits == 64) snprintf(conv, n, sgn ? "%%lld" : "%%llu");
    else snprintf(conv, n, sgn ? "%%d" : "%%u");
    if (bits < 32) v = sgn && !hex ? LLVMBuildSExt(g->B, v, g->t_i32, "") : LLVMBuildZExt(g->B, v, g->t_i32, "");
    return v;
}

static void lower_print(gctx *g, ir_op *op)
{
    ir_func *f = g->f;
    const char *prefix = ir_str_at(f, op->attr[0]);
    bool hex = op->attr[1] != 0;
    uint64_t sgn = (uint64_t)op->attr[2];
    LLVMValueRef pid[3];
    for (int a = 0; a < 3; a++) pid[a] = g_program(g, a, false);
    if (op->nopnd == 0) {              /* once per program */
        char *fmt = xasprintf("pid (%%u, %%u, %%u)%s\n", prefix);
        LLVMValueRef fs = cstring(g, "printfFormat_", fmt);
        free(fmt);
        LLVMBasicBlockRef jb = g_if_begin(g, LLVMBuildICmp(g->B, LLVMIntEQ, g->tid, g_const_i32(g, 0), ""), "print.once");
        call_vprintf(g, fs, pid, 3);
        g_if_end(g, jb);
        return;
    }
    for (int k = 0; k < op->nopnd && !g->failed; k++) {
        ir_value v = op->opnd[k];
        ir_type t = f->values.v[v].type;
        int lay = g->vlay[v];
        gv x = g_get(g, v);
        const glayout *L = gl_get(g, lay);
        const ir_type_info *ti = ir_type_get(t);
        int rank = ti->rank;
        /* the format: index widths as Triton's dimWidths, ceil(log10(dim)) */
        strbuf fb = { 0 };
        sb_printf(&fb, "pid (%%u, %%u, %%u) idx (");
        for (int d = 0; d < rank; d++) {
            int w = 0;
            for (int64_t p = 1; p < ti->shape[d] && w < 20; p *= 10) w++;
            sb_printf(&fb, "%s%%%du", d ? ", " : "", w);
        }
        sb_printf(&fb, ")%s", prefix);
        if (op->nopnd > 1) sb_printf(&fb, "(operand %d) ", k);
        /* coordinates and promoted values before the owner branch, so that
         * everything cached (lane/warp coordinates) dominates later uses */
        LLVMValueRef *args = arena_alloc(&g->mem, sizeof(LLVMValueRef) * (size_t)x.n * (3 + IR_MAX_RANK + 1));
        char conv[24] = "";
        for (int r = 0; r < x.n; r++) {
            LLVMValueRef *a = args + (size_t)r * (3 + IR_MAX_RANK + 1);
            for (int i = 0; i < 3; i++) a[i] = pid[i];
            for (int d = 0; d < rank; d++)
                a[3 + d] = LLVMBuildAdd(g->B, g_lw_coord(g, lay, d), g_const_i32(g, gl_regcoord(L, r, d)), "");
            a[3 + rank] = promote(g, x.r[r], t, (sgn >> k) & 1, hex, conv, sizeof conv);
        }
        sb_printf(&fb, "%s\n", conv);
        LLVMValueRef fs = cstring(g, "printfFormat_", fb.s);
        sb_free(&fb);
        LLVMBasicBlockRef jb = g_if_begin(g, g_owner(g, lay), "print.owner");
        for (int r = 0; r < x.n; r++) call_vprintf(g, fs, args + (size_t)r * (3 + IR_MAX_RANK + 1), 3 + rank + 1);
        g_if_end(g, jb);
    }
}

/* Scalar condition v holds for every launch of this specialization: true,
 * a conjunction of such, or (x & m) == 0 with m below the power of two the
 * axis analysis proves divides x (tl.make_tensor_descriptor's alignment
 * check, sema_desc_check_alignment, over a base and strides specialized
 * as multiples of 16). */
static bool proved(gctx *g, ir_value v, int depth)
{
    ir_op *d = ir_def(g->f, v);
    if (!d || depth > 16 || ir_type_rank(g->f->values.v[v].type)) return false;
    if (d->opc == IR_CONSTANT) return d->ival != 0;
    if (d->opc == IR_ANDI) return proved(g, d->opnd[0], depth + 1) && proved(g, d->opnd[1], depth + 1);
    if (d->opc != IR_CMPI || d->attr[0] != CMPI_EQ) return false;
    ir_op *z = ir_def(g->f, d->opnd[1]), *and = ir_def(g->f, d->opnd[0]);
    if (!z || z->opc != IR_CONSTANT || z->ival != 0 || !and || and->opc != IR_ANDI) return false;
    for (int k = 0; k < 2; k++) {
        ir_op *m = ir_def(g->f, and->opnd[k]);
        if (m && m->opc == IR_CONSTANT && m->ival >= 0 && m->ival < g->ax[and->opnd[1 - k]].div[0]) return true;
    }
    return false;
}

/* __assertfail(message, file, line, function, sizeof(char)) when any element
 * this thread holds is false; a barrier follows a tensor condition. An
 * assert proved true is left out: a call in the kernel changes how ptxas
 * allocates its registers (tutorial 06 with in-kernel descriptors: 176
 * instead of 218, and slower). */
static void lower_assert(gctx *g, ir_op *op)
{
    ir_func *f = g->f;
    ir_value c = op->opnd[0];
    if (proved(g, c, 0)) return;
    gv x = g_get(g, c);
    LLVMValueRef bad = LLVMConstInt(g->t_i1, 0, 0);
    for (int r = 0; r < x.n; r++) bad = LLVMBuildOr(g->B, bad, LLVMBuildNot(g->B, x.r[r], ""), "");
    const char *file = "unknown", *func = "unknown";
    int line = 0;
    if (op->loc >= 0 && op->loc < f->locs.n) {
        const ir_loc *l = &f->locs.v[op->loc];
        file = diag_file_name(l->file);
        line = l->line;
        if (l->func) func = l->func;
    }
    LLVMValueRef args[5] = { cstring(g, "assertMessage_", ir_str_at(f, op->attr[0])), cstring(g, "assertFile_", file),
                             g_const_i32(g, line), cstring(g, "assertFunc_", func), LLVMConstInt(g->t_i64, 1, 0) };
    LLVMBasicBlockRef jb = g_if_begin(g, bad, "assert.fail");
    LLVMTypeRef pt[5];
    for (int i = 0; i < 5; i++) pt[i] = LLVMTypeOf(args[i]);
    LLVMTypeRef fty = LLVMFunctionType(g->t_void, pt, 5, 0);
    LLVMValueRef fn = LLVMGetNamedFunction(g->M, "__assertfail");
    if (!fn) {
        fn = LLVMAddFunction(g->M, "__assertfail", fty);
        LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                                   LLVMCreateEnumAttribute(g->C, LLVMGetEnumAttributeKindForName("noreturn", 8), 0));
    }
    LLVMBuildCall2(g->B, fty, fn, args, 5, "");
    g_if_end(g, jb);
    if (ir_type_rank(f->values.v[c].type)) g_barrier(g);
}

void g_lower_debug(gctx *g, ir_op *op)
{
    if (op->opc == IR_PRINT) lower_print(g, op);
    else lower_assert(g, op);
}

/* ---- inline asm ---------------------------------------------------------- */

/* Elements narrower than 32 bits travel packed into 32-bit vectors, at most
 * `pack` of them (ElementwiseInlineAsmOpConversion::packOperands). */
static int per_reg(int bits, int pack)
{
    int n = bits >= 32 ? 1 : 32 / bits;
    return n < pack ? n : pack;
}

void g_lower_asm(gctx *g, ir_op *op)
{
    ir_func *f = g->f;
    int lay = g->vlay[op->res];
    int n = 1 << gl_get(g, lay)->nreg;
    int pack = (int)op->attr[3];
    int nres = op->nres, nin = op->nopnd;
    const char *text = ir_str_at(f, op->attr[0]), *cons = ir_str_at(f, op->attr[1]);
    bool side = op->attr[2] == 0;
    gv *in = arena_alloc(&g->mem, sizeof(gv) * (size_t)(nin + 1));
    for (int i = 0; i < nin; i++) {
        if (ir_type_rank(f->values.v[op->opnd[i]].type) == 0) {
            gv s = g_get(g, op->opnd[i]);
            in[i] = g_new(g, n, lay);
            for (int r = 0; r < n; r++) in[i].r[r] = s.r[0];
        } else {
            in[i] = g_convert(g, op->opnd[i], lay);
        }
    }
    gv *out = arena_alloc(&g->mem, sizeof(gv) * (size_t)nres);
    for (int k = 0; k < nres; k++) out[k] = g_new(g, n, lay);
    /* result registers of one call: per result, pack / per_reg values */
    LLVMTypeRef rts[256];
    int nrt = 0;
    for (int k = 0; k < nres; k++) {
        ir_type et = ir_type_elem(f->values.v[op->res + k].type);
        LLVMTypeRef t = g_type(g, et);
        int pr = per_reg(ir_type_bits(et), pack);
        if (pr > 1) t = LLVMVectorType(t, (unsigned)pr);
        for (int j = 0; j < pack / pr && nrt < 256; j++) rts[nrt++] = t;
    }
    if (nrt >= 256) { gfail(g, op->loc, "inline_asm_elementwise: too many result registers"); return; }
    LLVMTypeRef rty = nrt > 1 ? LLVMStructTypeInContext(g->C, rts, (unsigned)nrt, 0) : rts[0];
    for (int base = 0; base < n; base += pack) {
        LLVMValueRef args[256];
        int na = 0;
        for (int i = 0; i < nin; i++) {
            ir_type et = ir_type_elem(f->values.v[op->opnd[i]].type);
            LLVMTypeRef t = g_type(g, et);
            int pr = per_reg(ir_type_bits(et), pack);
            for (int j = 0; j < pack; j += pr) {
                if (na >= 255) { gfail(g, op->loc, "inline_asm_elementwise: too many operand registers"); return; }
                if (pr == 1) {
                    args[na++] = base + j < n ? in[i].r[base + j] : LLVMGetUndef(t);
                    continue;
                }
                LLVMValueRef vec = LLVMGetUndef(LLVMVectorType(t, (unsigned)pr));
                for (int e = 0; e < pr; e++) {
                    LLVMValueRef el = base + j + e < n ? in[i].r[base + j + e] : LLVMGetUndef(t);
                    vec = LLVMBuildInsertElement(g->B, vec, el, g_const_i32(g, e), "");
                }
                args[na++] = vec;
            }
        }
        LLVMValueRef res = g_asm(g, rty, text, cons, args, na, side);
        int si = 0;
        for (int k = 0; k < nres; k++) {
            for (int j = 0; j < pack;) {
                LLVMValueRef v = nrt > 1 ? LLVMBuildExtractValue(g->B, res, (unsigned)si++, "") : res;
                if (LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMVectorTypeKind) {
                    unsigned m = LLVMGetVectorSize(LLVMTypeOf(v));
                    for (unsigned e = 0; e < m; e++, j++)
                        if (base + j < n) out[k].r[base + j] = LLVMBuildExtractElement(g->B, v, g_const_i32(g, e), "");
                } else {
                    if (base + j < n) out[k].r[base + j] = v;
                    j++;
                }
            }
        }
    }
    for (int k = 0; k < nres; k++) {
        int want = g->vlay[op->res + k];
        g_set(g, op->res + k, want == lay ? out[k] : g_convert_gv(g, out[k], f->values.v[op->res + k].type, want));
    }
}
