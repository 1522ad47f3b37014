/* lower_elem.c — one element of an elementwise op: integer and float
 * arithmetic, comparisons, casts, pointer arithmetic and math functions.
 *
 * Numerics (gpu.h): in IEEE mode every op is a single correctly rounded LLVM
 * op (fdiv -> div.rn.f32, llvm.sqrt -> sqrt.rn.f32) and nothing is contracted;
 * transcendental functions come from libdevice. In FAST mode mul/add carry the
 * `contract` flag (Triton: enable_fp_fusion), f32 division is div.full.f32 and
 * exp is ex2.approx of x*log2(e) (Triton's ElementwiseOpToLLVM.cpp). Math
 * functions take their forms from include/tritium/ops_math.def: libdevice
 * calls (linked by codegen.c) or LLVM intrinsics. */
#include "gpu_int.h"

#include <string.h>

static ir_type opnd_type(gctx *g, const ir_op *op, int i) { return g->f->values.v[op->opnd[i]].type; }
static ir_type res_type(gctx *g, const ir_op *op) { return g->f->values.v[op->res].type; }

static LLVMValueRef contract(gctx *g, LLVMValueRef v)
{
    if (g->fast && LLVMIsAInstruction(v) && LLVMCanValueUseFastMathFlags(v))
        LLVMSetFastMathFlags(v, LLVMFastMathAllowContract);
    return v;
}

static bool is_f64(gctx *g, LLVMValueRef v) { return LLVMTypeOf(v) == g->t_f64; }

static LLVMValueRef unary_intr(gctx *g, const char *name, LLVMValueRef x)
{
    LLVMTypeRef t = LLVMTypeOf(x);
    return g_intrinsic(g, name, &t, 1, &x, 1);
}

static LLVMValueRef binary_intr(gctx *g, const char *name, LLVMValueRef a, LLVMValueRef b)
{
    LLVMTypeRef t = LLVMTypeOf(a);
    LLVMValueRef args[2] = { a, b };
    return g_intrinsic(g, name, &t, 1, args, 2);
}

/* The PTX inline-asm register class of an LLVM scalar type (f32 'f', f64
 * 'd', i64 'l', else 'r'). */
static char ptx_reg(gctx *g, LLVMTypeRef t)
{
    return t == g->t_f32 ? 'f' : t == g->t_f64 ? 'd' : t == g->t_i64 ? 'l' : 'r';
}

/* One ops_math.def function of the operands a[0..arity) in the form of the
 * variant their types select (see ops_math.def for the spelling of forms). */
static LLVMValueRef math(gctx *g, const ir_op *op, LLVMValueRef *a)
{
    const ir_mathfn *m = &ir_mathfns[op->opc];
    ir_type t[4];
    for (int i = 0; i < op->nopnd && i < 4; i++) t[i] = opnd_type(g, op, i);
    int k = ir_mathfn_variant(op->opc, t, op->nopnd, res_type(g, op));
    LLVMTypeRef rt = g_type(g, ir_type_elem(res_type(g, op)));
    if (k < 0) {
        gfail(g, op->loc, "%s: no ops_math.def variant for these operand types", ir_ops[op->opc].name);
        return LLVMGetUndef(rt);
    }
    const char *form = m->var[k].gpu;
    if (g->fast && k == 0 && *m->fast) form = m->fast;
    if (!strcmp(form, "ex2.approx")) {          /* exp(x) = 2^(x * log2(e)) */
        LLVMValueRef x = LLVMBuildFMul(g->B, a[0], LLVMConstReal(g->t_f32, 1.4426950408889634), "");
        return g_intrinsic(g, "llvm.nvvm.ex2.approx.f", NULL, 0, &x, 1);
    }
    if (!strncmp(form, "1/", 2))
        return LLVMBuildFDiv(g->B, LLVMConstReal(rt, 1.0), unary_intr(g, form + 2, a[0]), "");
    if (!strncmp(form, "llvm.", 5)) return unary_intr(g, form, a[0]);
    if (!strncmp(form, "cvt.", 4)) {            /* one PTX instruction: cvt.rz.f32.s32 */
        char text[48], cons[8];
        snprintf(text, sizeof text, "%s $0, $1;", form);
        snprintf(cons, sizeof cons, "=%c,%c", ptx_reg(g, rt), ptx_reg(g, LLVMTypeOf(a[0])));
        return g_asm(g, rt, text, cons, a, 1, false);
    }
    if (strncmp(form, "__nv_", 5)) die("math: %s: unknown GPU form '%s' in ops_math.def", ir_ops[op->opc].name, form);
    /* libdevice returns int for predicates (isnan, isinf, finitef, isfinited):
     * Triton's .to(tl.int1) */
    if (m->var[k].res == TT_BOOL) {
        LLVMValueRef r = g_call(g, form, g->t_i32, a, m->arity);
        return LLVMBuildICmp(g->B, LLVMIntNE, r, LLVMConstInt(g->t_i32, 0, 0), "");
    }
    return g_call(g, form, rt, a, m->arity);
}

static const LLVMIntPredicate icmp_pred[] = {
    [CMPI_EQ] = LLVMIntEQ, [CMPI_NE] = LLVMIntNE, [CMPI_SLT] = LLVMIntSLT, [CMPI_SLE] = LLVMIntSLE,
    [CMPI_SGT] = LLVMIntSGT, [CMPI_SGE] = LLVMIntSGE, [CMPI_ULT] = LLVMIntULT, [CMPI_ULE] = LLVMIntULE,
    [CMPI_UGT] = LLVMIntUGT, [CMPI_UGE] = LLVMIntUGE,
};
static const LLVMRealPredicate fcmp_pred[] = {
    [CMPF_FALSE] = LLVMRealPredicateFalse, [CMPF_OEQ] = LLVMRealOEQ, [CMPF_OGT] = LLVMRealOGT,
    [CMPF_OGE] = LLVMRealOGE, [CMPF_OLT] = LLVMRealOLT, [CMPF_OLE] = LLVMRealOLE, [CMPF_ONE] = LLVMRealONE,
    [CMPF_ORD] = LLVMRealORD, [CMPF_UEQ] = LLVMRealUEQ, [CMPF_UGT] = LLVMRealUGT, [CMPF_UGE] = LLVMRealUGE,
    [CMPF_ULT] = LLVMRealULT, [CMPF_ULE] = LLVMRealULE, [CMPF_UNE] = LLVMRealUNE, [CMPF_UNO] = LLVMRealUNO,
    [CMPF_TRUE] = LLVMRealPredicateTrue,
};

bool g_truncf_pair(gctx *g, LLVMTypeRef rt, LLVMValueRef x0, LLVMValueRef x1, LLVMValueRef *y0, LLVMValueRef *y1)
{
    if (g->sm < 80 || LLVMTypeOf(x0) != g->t_f32 || LLVMTypeOf(x1) != g->t_f32 || (rt != g->t_f16 && rt != g->t_bf16))
        return false;
    /* cvt.rn.{f16x2,bf16x2}.f32 d, a, b puts a in the upper half: element 1 */
    LLVMValueRef a[2] = { x1, x0 };
    LLVMValueRef v = g_intrinsic(g, rt == g->t_f16 ? "llvm.nvvm.ff2f16x2.rn" : "llvm.nvvm.ff2bf16x2.rn", NULL, 0, a, 2);
    *y0 = LLVMBuildExtractElement(g->B, v, g_const_i32(g, 0), "");
    *y1 = LLVMBuildExtractElement(g->B, v, g_const_i32(g, 1), "");
    return true;
}

LLVMValueRef g_elem(gctx *g, const ir_op *op, LLVMValueRef *a)
{
    LLVMBuilderRef B = g->B;
    ir_type rt = res_type(g, op);
    LLVMTypeRef lt = g_type(g, rt);
    switch (op->opc) {
    case IR_ADDI: return LLVMBuildAdd(B, a[0], a[1], "");
    case IR_SUBI: return LLVMBuildSub(B, a[0], a[1], "");
    case IR_MULI: return LLVMBuildMul(B, a[0], a[1], "");
    case IR_DIVSI: return LLVMBuildSDiv(B, a[0], a[1], "");
    case IR_DIVUI: return LLVMBuildUDiv(B, a[0], a[1], "");
    case IR_REMSI: return LLVMBuildSRem(B, a[0], a[1], "");
    case IR_REMUI: return LLVMBuildURem(B, a[0], a[1], "");
    case IR_ANDI: return LLVMBuildAnd(B, a[0], a[1], "");
    case IR_ORI: return LLVMBuildOr(B, a[0], a[1], "");
    case IR_XORI: return LLVMBuildXor(B, a[0], a[1], "");
    case IR_SHLI: return LLVMBuildShl(B, a[0], a[1], "");
    case IR_SHRSI: return LLVMBuildAShr(B, a[0], a[1], "");
    case IR_SHRUI: return LLVMBuildLShr(B, a[0], a[1], "");
    case IR_MAXSI: return binary_intr(g, "llvm.smax", a[0], a[1]);
    case IR_MINSI: return binary_intr(g, "llvm.smin", a[0], a[1]);
    case IR_MAXUI: return binary_intr(g, "llvm.umax", a[0], a[1]);
    case IR_MINUI: return binary_intr(g, "llvm.umin", a[0], a[1]);
    case IR_MULHIUI: {
        LLVMTypeRef t = LLVMTypeOf(a[0]);
        unsigned w = LLVMGetIntTypeWidth(t);
        /* mul.hi.u32/u64, as Triton's __nv_umulhi/__nv_umul64hi: the widened
         * product is the same PTX but costs InstCombine's known-bits analysis
         * a third of tutorial 04's compile (Philox) */
        if ((w == 32 || w == 64) && LLVMIsAConstantInt(a[0]) && LLVMIsAConstantInt(a[1])) {
            unsigned __int128 p = (unsigned __int128)LLVMConstIntGetZExtValue(a[0]) * LLVMConstIntGetZExtValue(a[1]);
            return LLVMConstInt(t, (unsigned long long)(p >> w), 0);     /* LLVM does not fold the intrinsic */
        }
        if (w == 32 || w == 64)
            return g_intrinsic(g, w == 32 ? "llvm.nvvm.mulhi.ui" : "llvm.nvvm.mulhi.ull", NULL, 0, a, 2);
        LLVMTypeRef wt = LLVMIntTypeInContext(g->C, 2 * w);
        LLVMValueRef p = LLVMBuildMul(B, LLVMBuildZExt(B, a[0], wt, ""), LLVMBuildZExt(B, a[1], wt, ""), "");
        return LLVMBuildTrunc(B, LLVMBuildLShr(B, p, LLVMConstInt(wt, w, 0), ""), t, "");
    }
    case IR_CMPI:
        if ((int)op->attr[0] < 0 || op->attr[0] > CMPI_UGE) break;
        return LLVMBuildICmp(B, icmp_pred[op->attr[0]], a[0], a[1], "");
    case IR_ADDF: return contract(g, LLVMBuildFAdd(B, a[0], a[1], ""));
    case IR_SUBF: return contract(g, LLVMBuildFSub(B, a[0], a[1], ""));
    case IR_MULF: return contract(g, LLVMBuildFMul(B, a[0], a[1], ""));
    case IR_DIVF:
        if (g->fast && LLVMTypeOf(a[0]) == g->t_f32)
            return g_asm(g, g->t_f32, "div.full.f32 $0, $1, $2;", "=f,f,f", a, 2, false);
        return LLVMBuildFDiv(B, a[0], a[1], "");
    case IR_REMF:
        if (!g->fast && (LLVMTypeOf(a[0]) == g->t_f32 || is_f64(g, a[0]))) {
            char name[32];
            snprintf(name, sizeof name, "__nv_fmod%s", is_f64(g, a[0]) ? "" : "f");
            return g_call(g, name, LLVMTypeOf(a[0]), a, 2);
        }
        return LLVMBuildFRem(B, a[0], a[1], "");
    case IR_MAXNUMF: return binary_intr(g, "llvm.maxnum", a[0], a[1]);
    case IR_MINNUMF: return binary_intr(g, "llvm.minnum", a[0], a[1]);
    case IR_MAXIMUMF: return binary_intr(g, "llvm.maximum", a[0], a[1]);
    case IR_MINIMUMF: return binary_intr(g, "llvm.minimum", a[0], a[1]);
    case IR_CMPF:
        if ((int)op->attr[0] < 0 || op->attr[0] > CMPF_TRUE) break;
        return LLVMBuildFCmp(B, fcmp_pred[op->attr[0]], a[0], a[1], "");
    case IR_SELECT: return LLVMBuildSelect(B, a[0], a[1], a[2], "");
    case IR_EXTSI: return LLVMBuildSExt(B, a[0], lt, "");
    case IR_EXTUI: return LLVMBuildZExt(B, a[0], lt, "");
    case IR_TRUNCI: return LLVMBuildTrunc(B, a[0], lt, "");
    case IR_SITOFP: return LLVMBuildSIToFP(B, a[0], lt, "");
    case IR_UITOFP: return LLVMBuildUIToFP(B, a[0], lt, "");
    case IR_FPTOSI: case IR_FPTOUI: {
        /* saturating, NaN -> 0: what PTX cvt.rzi does (triton-semantics §2.7) */
        LLVMTypeRef ov[2] = { lt, LLVMTypeOf(a[0]) };
        LLVMValueRef x = a[0];
        if (ov[1] == g->t_f16 || ov[1] == g->t_bf16) {
            x = LLVMBuildFPExt(B, x, g->t_f32, "");
            ov[1] = g->t_f32;
        }
        if (lt == g->t_i1) {
            LLVMValueRef z = LLVMConstReal(ov[1], 0.0);
            return LLVMBuildFCmp(B, LLVMRealUNE, x, z, "");
        }
        return g_intrinsic(g, op->opc == IR_FPTOSI ? "llvm.fptosi.sat" : "llvm.fptoui.sat", ov, 2, &x, 1);
    }
    case IR_FP_TO_FP: return g_fp_to_fp(g, op, a[0]);
    case IR_EXTF: return LLVMBuildFPExt(B, a[0], lt, "");
    case IR_TRUNCF: return LLVMBuildFPTrunc(B, a[0], lt, "");
    case IR_BITCAST:
        if (LLVMTypeOf(a[0]) == lt) return a[0];
        return LLVMBuildBitCast(B, a[0], lt, "");
    case IR_INT_TO_PTR: return LLVMBuildIntToPtr(B, a[0], g->t_gptr, "");
    case IR_PTR_TO_INT: return LLVMBuildPtrToInt(B, a[0], lt, "");
    case IR_ADDPTR: {
        ir_type pt = ir_type_get(ir_type_elem(opnd_type(g, op, 0)))->pointee;
        LLVMTypeRef et = g_mem_type(g, pt);
        LLVMValueRef off = a[1];
        if (LLVMTypeOf(off) != g->t_i64) off = LLVMBuildSExt(B, off, g->t_i64, "");
        return LLVMBuildGEP2(B, et, a[0], &off, 1, "");
    }
    case IR_FMA: {
        LLVMTypeRef t = LLVMTypeOf(a[0]);
        return g_intrinsic(g, "llvm.fma", &t, 1, a, 3);
    }
    case IR_ABSF: return unary_intr(g, "llvm.fabs", a[0]);
    case IR_ABSI: {
        LLVMTypeRef t = LLVMTypeOf(a[0]);
        LLVMValueRef args[2] = { a[0], LLVMConstInt(g->t_i1, 0, 0) };
        return g_intrinsic(g, "llvm.abs", &t, 1, args, 2);
    }
    default:
        if (ir_mathfns[op->opc].arity) return math(g, op, a);
        break;
    }
    gfail(g, op->loc, "%s is not supported on the GPU yet", ir_ops[op->opc].name);
    return LLVMGetUndef(lt);
}
