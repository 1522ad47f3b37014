/* lower_fp8.c — one element of tt.fp_to_fp: conversions to and from fp8 and
 * the rtz downcasts, as Triton 3.6's NVIDIA backend emits them
 * (third_party/nvidia/lib/TritonNVIDIAGPUToLLVM/ElementwiseOpToLLVM.cpp
 * FpToFpOpConversion on sm_89+, and nvidia/language/cuda/utils.py
 * convert_custom_float8 for fp8e4b15). fp8 values live in i8 registers.
 * PTX converts pairs (e4m3x2, f16x2); each element converts alone here with
 * a zero in the other half. The interpreter computes the same functions
 * (dtype.h: tt_fp8_encode / tt_fp8_decode). */
#include "gpu_int.h"

static const char *ptx_fmt(tt_dtype d) { return d == TT_F8E4NV ? "e4m3x2" : "e5m2x2"; }

static LLVMValueRef bits16_to(gctx *g, LLVMValueRef h, LLVMTypeRef t) { return LLVMBuildBitCast(g->B, h, t, ""); }

/* cvt.rz.{f16,bf16}.f32: the 16 result bits */
static LLVMValueRef cvt_rz16(gctx *g, LLVMValueRef x, bool bf)
{
    return g_asm(g, g->t_i16, bf ? "cvt.rz.bf16.f32 $0, $1;" : "cvt.rz.f16.f32 $0, $1;", "=h,f", &x, 1, false);
}

/* fp8e4nv/fp8e5 -> f16 (cvt.rn.f16x2.e4m3x2, exact) */
static LLVMValueRef fp8_to_f16(gctx *g, tt_dtype from, LLVMValueRef x)
{
    char text[64];
    snprintf(text, sizeof text, "cvt.rn.f16x2.%s $0, $1;", ptx_fmt(from));
    LLVMValueRef h = LLVMBuildZExt(g->B, x, g->t_i16, "");
    LLVMValueRef r = g_asm(g, g->t_i32, text, "=r,h", &h, 1, false);
    return bits16_to(g, LLVMBuildTrunc(g->B, r, g->t_i16, ""), g->t_f16);
}

/* fp8e5 -> bf16 as Fp8E5M2_to_Bf16 computes it: the bits shifted into bf16
 * position and scaled by 2^112, so the inf/NaN codes become finite
 * (2^16 * 1.mm) and subnormals stay exact. Built here from the code c:
 * normal values have bf16 bits (c << 5) + (112 << 7), subnormal ones are
 * m * 2^-16. */
static LLVMValueRef e5_to_bf16(gctx *g, LLVMValueRef x)
{
    LLVMBuilderRef B = g->B;
    LLVMValueRef c = LLVMBuildZExt(B, LLVMBuildAnd(B, x, LLVMConstInt(g->t_i8, 0x7f, 0), ""), g->t_i32, "");
    LLVMValueRef nbits = LLVMBuildShl(B, LLVMBuildAdd(B, LLVMBuildShl(B, c, g_const_i32(g, 5), ""),
                                                      g_const_i32(g, 112 << 7), ""), g_const_i32(g, 16), "");
    LLVMValueRef normal = LLVMBuildBitCast(B, nbits, g->t_f32, "");
    LLVMValueRef m = LLVMBuildAnd(B, c, g_const_i32(g, 3), "");
    LLVMValueRef sub = LLVMBuildFMul(B, LLVMBuildUIToFP(B, m, g->t_f32, ""), LLVMConstReal(g->t_f32, 0x1p-16), "");
    LLVMValueRef is_sub = LLVMBuildICmp(B, LLVMIntULT, c, g_const_i32(g, 4), "");
    LLVMValueRef mag = LLVMBuildSelect(B, is_sub, sub, normal, "");
    LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntNE, LLVMBuildAnd(B, x, LLVMConstInt(g->t_i8, 0x80, 0), ""),
                                     LLVMConstInt(g->t_i8, 0, 0), "");
    LLVMValueRef v = LLVMBuildSelect(B, neg, LLVMBuildFNeg(B, mag, ""), mag, "");
    return LLVMBuildFPTrunc(B, v, g->t_bf16, "");       /* exact */
}

/* fp8e4b15 -> f16 (convert_fp8e4b15_to_float16): sign | (x & 0x7f) << 7 */
static LLVMValueRef e4b15_to_f16(gctx *g, LLVMValueRef x)
{
    LLVMBuilderRef B = g->B;
    LLVMValueRef w = LLVMBuildZExt(B, x, g->t_i16, "");
    LLVMValueRef mag = LLVMBuildShl(B, LLVMBuildAnd(B, w, LLVMConstInt(g->t_i16, 0x7f, 0), ""), LLVMConstInt(g->t_i16, 7, 0), "");
    LLVMValueRef sgn = LLVMBuildShl(B, LLVMBuildAnd(B, w, LLVMConstInt(g->t_i16, 0x80, 0), ""), LLVMConstInt(g->t_i16, 8, 0), "");
    return bits16_to(g, LLVMBuildOr(B, mag, sgn, ""), g->t_f16);
}

/* f16 -> fp8e4b15 (convert_float16_to_fp8e4b15, sm_80+ form): |x| clamped
 * to 1.75 by min.f16 (NaN -> 1.75), then (bits * 2 + 0x80) >> 8 with the
 * sign of x */
static LLVMValueRef f16_to_e4b15(gctx *g, LLVMValueRef x)
{
    LLVMBuilderRef B = g->B;
    LLVMValueRef h = LLVMBuildBitCast(B, x, g->t_i16, "");
    LLVMValueRef a = LLVMBuildBitCast(B, LLVMBuildAnd(B, h, LLVMConstInt(g->t_i16, 0x7fff, 0), ""), g->t_f16, "");
    LLVMValueRef args[2] = { a, LLVMConstReal(g->t_f16, 1.75) };
    LLVMTypeRef t = g->t_f16;
    a = LLVMBuildBitCast(B, g_intrinsic(g, "llvm.minnum", &t, 1, args, 2), g->t_i16, "");
    LLVMValueRef r = LLVMBuildAdd(B, LLVMBuildShl(B, a, LLVMConstInt(g->t_i16, 1, 0), ""), LLVMConstInt(g->t_i16, 0x80, 0), "");
    r = LLVMBuildLShr(B, r, LLVMConstInt(g->t_i16, 8, 0), "");
    LLVMValueRef sgn = LLVMBuildLShr(B, LLVMBuildAnd(B, h, LLVMConstInt(g->t_i16, 0x8000, 0), ""), LLVMConstInt(g->t_i16, 8, 0), "");
    return LLVMBuildTrunc(B, LLVMBuildOr(B, r, sgn, ""), g->t_i8, "");
}

/* f16/bf16/f32 -> fp8e4nv/fp8e5, cvt.rn.satfinite (bf16 through f32, exact) */
static LLVMValueRef to_fp8_rn(gctx *g, tt_dtype to, LLVMValueRef x)
{
    char text[128];
    LLVMValueRef r;
    if (LLVMTypeOf(x) == g->t_f16) {
        snprintf(text, sizeof text, "cvt.rn.satfinite.%s.f16x2 $0, $1;", ptx_fmt(to));
        LLVMValueRef w = LLVMBuildZExt(g->B, LLVMBuildBitCast(g->B, x, g->t_i16, ""), g->t_i32, "");
        r = g_asm(g, g->t_i16, text, "=h,r", &w, 1, false);
    } else {
        if (LLVMTypeOf(x) == g->t_bf16) x = LLVMBuildFPExt(g->B, x, g->t_f32, "");
        /* the first source goes to the high byte */
        snprintf(text, sizeof text, "cvt.rn.satfinite.%s.f32 $0, $2, $1;", ptx_fmt(to));
        LLVMValueRef args[2] = { x, LLVMConstReal(g->t_f32, 0.0) };
        r = g_asm(g, g->t_i16, text, "=h,f,f", args, 2, false);
    }
    return LLVMBuildTrunc(g->B, r, g->t_i8, "");
}

LLVMValueRef g_fp_to_fp(gctx *g, const ir_op *op, LLVMValueRef x)
{
    tt_dtype from = ir_type_get(ir_type_elem(g->f->values.v[op->opnd[0]].type))->elem;
    tt_dtype to = ir_type_get(ir_type_elem(g->f->values.v[op->res].type))->elem;
    bool rtz = op->attr[0] == ROUND_RTZ;
    LLVMTypeRef lt = g_type(g, g->f->values.v[op->res].type);
    if (from == TT_F8E4B8 || from == TT_F8E5B16 || to == TT_F8E4B8 || to == TT_F8E5B16) {
        gfail(g, op->loc, "type %s is not supported on NVIDIA GPUs (Triton 3.6 supports fp8e4b15, fp8e4nv and fp8e5 "
              "there; fp8e4b8 and fp8e5b16 are AMD's)", tt_dtype_triton_name(tt_dtype_is_fp8(from) ? from : to));
        return LLVMGetUndef(lt);
    }
    if ((from == TT_F8E4NV || from == TT_F8E5 || to == TT_F8E4NV || to == TT_F8E5) && g->sm < 89) {
        gfail(g, op->loc, "conversions from/to %s need compute capability >= 89 (sm_%d)",
              tt_dtype_triton_name(tt_dtype_is_fp8(from) ? from : to), g->sm);
        return LLVMGetUndef(lt);
    }
    if (from == TT_F8E4B15 && to == TT_F16) return e4b15_to_f16(g, x);
    if (from == TT_F16 && to == TT_F8E4B15) return f16_to_e4b15(g, x);
    if (from == TT_F8E5 && to == TT_BF16) return e5_to_bf16(g, x);
    if (from == TT_F8E4NV || from == TT_F8E5) {
        LLVMValueRef h = fp8_to_f16(g, from, x);
        if (to == TT_F16) return h;
        LLVMValueRef f = LLVMBuildFPExt(g->B, h, g->t_f32, "");
        if (to == TT_F32) return f;
        if (to == TT_BF16) return LLVMBuildFPTrunc(g->B, f, g->t_bf16, "");   /* exact */
    } else if (to == TT_F8E4NV || to == TT_F8E5) {
        if (!rtz) return to_fp8_rn(g, to, x);
        if (from == TT_F32 && to == TT_F8E5)                                    /* high byte of f16 rz */
            return LLVMBuildTrunc(g->B, LLVMBuildLShr(g->B, cvt_rz16(g, x, false), LLVMConstInt(g->t_i16, 8, 0), ""),
                                  g->t_i8, "");
    } else if (rtz && from == TT_F32 && (to == TT_F16 || to == TT_BF16)) {
        return bits16_to(g, cvt_rz16(g, x, to == TT_BF16), lt);
    }
    gfail(g, op->loc, "tt.fp_to_fp from %s to %s%s is not supported on the GPU", tt_dtype_triton_name(from),
          tt_dtype_triton_name(to), rtz ? " with rounding rtz" : "");
    return LLVMGetUndef(lt);
}
