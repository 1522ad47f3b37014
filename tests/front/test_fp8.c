/* test_fp8.c — fp8 dtypes and fp_downcast_rounding in the front end
 * (semantic.py cast / computation_type_impl / dot of Triton 3.6): which casts
 * become tt.fp_to_fp and with what rounding, and the located error for each
 * construct Triton 3.6 refuses or cannot compile for an NVIDIA GPU. Values
 * are checked by the conformance suite (kernels/fp8.py). */
#include <stdlib.h>
#include "tfront.h"

/* y = EXPR over x = load(X) (dtype xd), stored to Y (dtype yd). */
static const char *ykernel(const char *expr)
{
    static char src[1024];
    snprintf(src, sizeof src, PRELUDE
             "def k(X, Y):\n"
             "    offs = tl.arange(0, 32)\n"
             "    x = tl.load(X + offs)\n"
             "    y = %s\n"
             "    tl.store(Y + offs, y)\n", expr);
    return src;
}

static ir_func *yok(const char *expr, const char *xd, const char *yd)
{
    char spec[128];
    snprintf(spec, sizeof spec, "X:*%s[32] Y:*%s[32]", xd, yd);
    return compile_ok(ykernel(expr), "k", spec);
}

/* Compiling fails with a located error on the `y = ...` line (line 7 of
 * PRELUDE + ykernel) whose text contains `want`. */
static void yerr(const char *expr, const char *xd, const char *yd, const char *want)
{
    char spec[128];
    snprintf(spec, sizeof spec, "X:*%s[32] Y:*%s[32]", xd, yd);
    const char *d = compile_err(ykernel(expr), "k", spec);
    ck_assert_msg(strstr(d, want), "y = %s (x: %s, Y: %s): expected '%s' in:\n%s", expr, xd, yd, want, d);
    ck_assert_msg(strstr(d, "k.py:") && strstr(d, ": error: "), "not a located error:\n%s", d);
}

/* The rounding attribute of the only tt.fp_to_fp producing y. */
static int64_t y_rounding(ir_func *f)
{
    ir_value y = find_named(f, "y");
    ck_assert_int_eq(def_opc(f, y), IR_FP_TO_FP);
    return ir_attr_get(ir_def(f, y), "rounding");
}

START_TEST(casts_to_fp_to_fp)
{
    ir_func *f = yok("x.to(tl.float8e4nv)", "f32", "f8e4nv");
    ck_assert_int_eq(y_rounding(f), ROUND_RTNE);
    ck_assert_str_eq(vtype(f, find_named(f, "y")), "tensor<32xf8E4M3FN>");
    ir_func_free(f);
    f = yok("x.to(tl.float8e5, fp_downcast_rounding='rtz')", "f32", "f8e5");
    ck_assert_int_eq(y_rounding(f), ROUND_RTZ);
    ir_func_free(f);
    f = yok("x.to(tl.float16, fp_downcast_rounding='rtz')", "f32", "f16");
    ck_assert_int_eq(y_rounding(f), ROUND_RTZ);
    ir_func_free(f);
    f = yok("tl.cast(x, tl.bfloat16, fp_downcast_rounding='rtz')", "f32", "bf16");
    ck_assert_int_eq(y_rounding(f), ROUND_RTZ);
    ir_func_free(f);
    /* rtne downcasts between standard types stay arith.truncf */
    f = yok("x.to(tl.float16, fp_downcast_rounding='rtne')", "f32", "f16");
    ck_assert_int_eq(def_opc(f, find_named(f, "y")), IR_TRUNCF);
    ir_func_free(f);
    /* fp8 upcasts and fp16 -> fp8 are direct */
    f = yok("x.to(tl.float32)", "f8e5", "f32");
    ck_assert_int_eq(count_ops(f, IR_FP_TO_FP), 1);
    ir_func_free(f);
    f = yok("x.to(tl.float8e4nv)", "f16", "f8e4nv");
    ck_assert_int_eq(count_ops(f, IR_FP_TO_FP), 1);
    ir_func_free(f);
    /* fp8e4b15 from float32 goes through float16 rounded toward zero */
    f = yok("x.to(tl.float8e4b15)", "f32", "f8e4b15");
    ck_assert_int_eq(count_ops(f, IR_FP_TO_FP), 2);
    ir_func_free(f);
    /* fp8 with fp32 computes in fp32 */
    f = yok("x + x.to(tl.float32)", "f8e4nv", "f32");
    ir_func_free(f);
}
END_TEST

START_TEST(refused_casts_are_located_errors)
{
    yerr("x.to(tl.int32)", "f8e4nv", "i32", "cannot cast fp8e4nv to int32");
    yerr("x.to(tl.float8e5)", "i32", "f8e5", "cannot cast int32 to fp8e5");
    yerr("x.to(tl.int1)", "f8e5", "i8", "cannot cast fp8e5 to int1");
    yerr("x.to(tl.float8e4nv)", "f64", "f8e4nv", "fp8 is converted to only from float16, bfloat16 and float32");
    yerr("x.to(tl.float64)", "f8e4nv", "f64", "fp8 converts only to float16, bfloat16 and float32");
    yerr("x.to(tl.float8e5)", "f8e4nv", "f8e5", "no direct fp8 -> fp8 conversion");
    yerr("x.to(tl.float32, fp_downcast_rounding='rtz')", "f16", "f32", "should be set only for truncating fp conversions");
    yerr("x.to(tl.float8e5, fp_downcast_rounding='rtz')", "f16", "f8e5", "exists only for float32 -> float8e5");
    yerr("x.to(tl.float8e4nv, fp_downcast_rounding='rtz')", "f32", "f8e4nv", "exists only for float32 -> float8e5");
    yerr("x.to(tl.float32, fp_downcast_rounding='rtz')", "f64", "f32", "exists only for float32 -> float16/bfloat16");
    yerr("x.to(tl.float16, fp_downcast_rounding='rtnz')", "f32", "f16", "must be 'rtne' or 'rtz'");
    yerr("x.to(tl.bfloat16)", "f8e4b15", "bf16", "converts it only to float16 and float32");
    yerr("x.to(tl.float8e4b15)", "bf16", "f8e4b15", "converts to it only from float16 and float32");
    /* the store's implicit cast is checked the same way */
    yerr("x", "f8e4nv", "f8e5", "no direct fp8 -> fp8 conversion");
}
END_TEST

START_TEST(fp8_arithmetic_is_refused)
{
    yerr("x + x", "f8e4nv", "f32", "+ on fp8e4nv values is not supported");
    yerr("x * 2.0", "f8e5", "f32", "* on fp8e5 values is not supported");
    yerr("-x", "f8e4nv", "f32", "on fp8e4nv values is not supported");
    yerr("x < 1.0", "f8e5", "i8", "< on fp8e5 values is not supported");
    yerr("tl.maximum(x, x)", "f8e4nv", "f32", "maximum on fp8e4nv values is not supported");
}
END_TEST

/* Reductions and math functions on fp8, as Triton 3.6 compiles them for an
 * H100 (triton.compile to cubin for cuda:90, checked by hand): tl.max/tl.min
 * upcast to fp32 (standard.py); tl.sum keeps fp8 and argmax/max with indices
 * compare fp8, which ConvertTritonGPUToLLVM fails on; tl.exp, tl.sqrt and
 * libdevice take only fp32/fp64 (math.py _check_dtype, extern_elementwise);
 * tl.abs clears the sign bit. */
START_TEST(fp8_reductions_and_math)
{
    ir_func *f = yok("tl.max(x, axis=0)", "f8e4nv", "f32");
    ck_assert_str_eq(vtype(f, find_named(f, "y")), "f32");
    ck_assert_int_eq(count_ops(f, IR_FP_TO_FP), 1);
    ir_func_free(f);
    f = yok("tl.min(x, axis=0)", "f8e5", "f32");
    ck_assert_str_eq(vtype(f, find_named(f, "y")), "f32");
    ir_func_free(f);
    f = yok("tl.sum(x, axis=0, dtype=tl.float32)", "f8e4nv", "f32");
    ck_assert_str_eq(vtype(f, find_named(f, "y")), "f32");
    ir_func_free(f);
    yerr("tl.sum(x, axis=0)", "f8e4nv", "f32", "sum of fp8e4nv values is not supported");
    yerr("x.sum(axis=0)", "f8e5", "f32", "sum of fp8e5 values is not supported");
    yerr("tl.argmax(x, axis=0)", "f8e4nv", "i32", "argmax on fp8e4nv values is not supported");
    yerr("tl.argmin(x, axis=0)", "f8e5", "i32", "argmin on fp8e5 values is not supported");
    yerr("tl.max(x, axis=0, return_indices=True)[1]", "f8e4nv", "i32", "max with indices on fp8e4nv values");
    yerr("tl.cumsum(x, axis=0)", "f8e4nv", "f32", "+ on fp8e4nv values is not supported");
    yerr("tl.xor_sum(x, axis=0)", "f8e4nv", "f32", "xor_sum requires integers");
    yerr("tl.exp(x)", "f8e4nv", "f32", "expected dtype ['fp32', 'fp64'] but got fp8e4nv");
    yerr("tl.sqrt(x)", "f8e5", "f32", "expected dtype ['fp32', 'fp64'] but got fp8e5");
    yerr("tl.extra.cuda.libdevice.tanh(x)", "f8e4nv", "f32", "has no overload for (fp8e4nv)");
    /* abs: a bitwise and, no float op on fp8 */
    static const char *const abs_types[] = { "f8e4nv", "f8e5", "f8e4b15", "f8e4b8", "f8e5b16" };
    for (size_t i = 0; i < sizeof abs_types / sizeof *abs_types; i++) {
        f = yok("tl.abs(x)", abs_types[i], abs_types[i]);
        ck_assert_int_eq(count_ops(f, IR_ABSF), 0);
        ck_assert_int_eq(count_ops(f, IR_ANDI), 1);
        ir_func_free(f);
    }
}
END_TEST

START_TEST(fp8_dot)
{
    static const char src[] = PRELUDE
        "def k(A, B, C):\n"
        "    r = tl.arange(0, 32)\n"
        "    a = tl.load(A + r[:, None] * 32 + r[None, :])\n"
        "    b = tl.load(B + r[:, None] * 32 + r[None, :])\n"
        "    c = tl.dot(a, b)\n"
        "    tl.store(C + r[:, None] * 32 + r[None, :], c)\n";
    /* any two fp8 types; multiplied as fp16, f32 result */
    ir_func *f = compile_ok(src, "k", "A:*f8e4nv[1024] B:*f8e5[1024] C:*f32[1024]");
    ck_assert_int_eq(count_ops(f, IR_FP_TO_FP), 2);
    ck_assert_str_eq(vtype(f, find_named(f, "c")), "tensor<32x32xf32>");
    ir_func_free(f);
    const char *d = compile_err(src, "k", "A:*f8e4nv[1024] B:*f16[1024] C:*f32[1024]");
    ck_assert_msg(strstr(d, "both operands must have the same dtype"), "%s", d);
    static const char small[] = PRELUDE
        "def k(A, C):\n"
        "    r = tl.arange(0, 16)\n"
        "    a = tl.load(A + r[:, None] * 16 + r[None, :])\n"
        "    tl.store(C + r[:, None] * 16 + r[None, :], tl.dot(a, a))\n";
    d = compile_err(small, "k", "A:*f8e5[256] C:*f32[256]");
    ck_assert_msg(strstr(d, "K must be >= 32"), "%s", d);
}
END_TEST

START_TEST(fp8_dtype_queries)
{
    static const char src[] = PRELUDE
        "def k(X, O):\n"
        "    DT: tl.constexpr = X.dtype.element_ty\n"
        "    tl.store(O + 0, DT.is_fp8() + 0)\n"
        "    tl.store(O + 1, DT.is_fp8e4nv() + 0)\n"
        "    tl.store(O + 2, DT.is_floating() + 0)\n"
        "    tl.store(O + 3, DT.is_standard_floating() + 0)\n"
        "    tl.store(O + 4, DT.fp_mantissa_width)\n"
        "    tl.store(O + 5, DT.exponent_bias)\n"
        "    tl.store(O + 6, DT.primitive_bitwidth)\n";
    static const int64_t want[][7] = {
        { 1, 1, 1, 0, 3, 7, 8 }, { 1, 0, 1, 0, 2, 15, 8 }, { 1, 0, 1, 0, 3, 15, 8 }, { 1, 0, 1, 0, 3, 8, 8 },
        { 1, 0, 1, 0, 2, 16, 8 }, { 0, 0, 1, 1, 10, 15, 16 },
    };
    static const char *const dts[] = { "f8e4nv", "f8e5", "f8e4b15", "f8e4b8", "f8e5b16", "f16" };
    for (int i = 0; i < 6; i++) {
        char spec[64];
        snprintf(spec, sizeof spec, "X:*%s[4] O:*i32[8]", dts[i]);
        ir_func *f = compile_ok(src, "k", spec);
        /* the stored values are constants: find them in store order */
        int k = 0;
        const ir_region *r = &f->regions.v[IR_BODY];
        for (int j = 0; j < r->nops && k < 7; j++) {
            const ir_op *st = &r->ops[j];
            if (st->opc != IR_STORE) continue;
            const ir_op *c = ir_def(f, st->opnd[1]);
            while (c && c->opc == IR_SPLAT) c = ir_def(f, c->opnd[0]);
            ck_assert_msg(c && c->opc == IR_CONSTANT, "%s: store %d is not a constant", dts[i], k);
            ck_assert_msg(c->ival == want[i][k], "%s: query %d is %lld, want %lld", dts[i], k, (long long)c->ival,
                          (long long)want[i][k]);
            k++;
        }
        ck_assert_int_eq(k, 7);
        ir_func_free(f);
    }
}
END_TEST

TCase *tc_fp8(void)
{
    TCase *tc = tcase_create("fp8");
    tcase_add_test(tc, casts_to_fp_to_fp);
    tcase_add_test(tc, refused_casts_are_located_errors);
    tcase_add_test(tc, fp8_arithmetic_is_refused);
    tcase_add_test(tc, fp8_reductions_and_math);
    tcase_add_test(tc, fp8_dot);
    tcase_add_test(tc, fp8_dtype_queries);
    return tc;
}
