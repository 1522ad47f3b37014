/* eval_math.c — math dialect ops, elementwise.
 *
 * The functions of include/tritium/ops_math.def, one row each: f32 uses the
 * row's C expression with libm's float functions (expf, logf, ...), f64 the
 * double one;
 * Triton allows these only on fp32/fp64 (semantics §2.8), f16/bf16 operands
 * are nevertheless computed in f32 and rounded once. rsqrt is 1/sqrt (two
 * roundings, like Triton's own interpreter). The GPU's approximate versions
 * (ex2.approx, sqrt.approx, ...) are not emulated: transcendental functions
 * agree with the GPU to a tolerance only. floor, ceil, abs and fma are exact. */
#include "internal.h"

#include <math.h>

typedef void (*un32)(float *restrict o, const float *restrict a, int64_t n);
typedef void (*un64)(double *restrict o, const double *restrict a, int64_t n);

#define UNARY(NAME, E32, E64)                                                                     \
    static void NAME##_32(float *restrict o, const float *restrict a, int64_t n)                  \
    {                                                                                             \
        for (int64_t i = 0; i < n; i++) {                                                         \
            float x = a[i];                                                                       \
            o[i] = E32;                                                                           \
        }                                                                                         \
    }                                                                                             \
    static void NAME##_64(double *restrict o, const double *restrict a, int64_t n)                \
    {                                                                                             \
        for (int64_t i = 0; i < n; i++) {                                                         \
            double x = a[i];                                                                      \
            o[i] = E64;                                                                           \
        }                                                                                         \
    }
#define MATH(e, name, sig, props, c32, c64, ieee, fast) UNARY(e, c32, c64)
#include "tritium/ops_math.def"
#undef MATH

/* The C implementation of each ops_math.def function, by opcode. */
static const struct { un32 f32; un64 f64; } math_fn[IR_OP_COUNT] = {
#define MATH(e, name, sig, props, c32, c64, ieee, fast) [IR_##e] = { e##_32, e##_64 },
#include "tritium/ops_math.def"
#undef MATH
};

static void unary(interp_prog *p, const ir_op *op, un32 f32, un64 f64)
{
    const ival_info *vr = &p->s->vi[op->res];
    int64_t n = vr->numel;
    const void *a = interp_operand(p, op, 0, n);
    void *o = interp_result(p, op, 0);
    switch (vr->dt) {
    case TT_F32: f32(o, a, n); break;
    case TT_F64: f64(o, a, n); break;
    case TT_F16:
    case TT_BF16: {
        const uint16_t *h = a;
        uint16_t *ho = o;
        float *t = ts_alloc(&p->mem, (size_t)n * 4), *r = ts_alloc(&p->mem, (size_t)n * 4);
        if (vr->dt == TT_F16) {
            for (int64_t i = 0; i < n; i++) t[i] = interp_h2f(h[i]);
            f32(r, t, n);
            for (int64_t i = 0; i < n; i++) ho[i] = interp_f2h(r[i]);
        } else {
            for (int64_t i = 0; i < n; i++) t[i] = interp_bf2f(h[i]);
            f32(r, t, n);
            for (int64_t i = 0; i < n; i++) ho[i] = interp_f2bf(r[i]);
        }
        break;
    }
    default: die("%s on a non-float type", ir_ops[op->opc].name);
    }
}

static void eval_absi(interp_prog *p, const ir_op *op)
{
    const ival_info *vr = &p->s->vi[op->res];
    int64_t n = vr->numel;
    const void *a = interp_operand(p, op, 0, n);
    void *o = interp_result(p, op, 0);
    switch (vr->dt) {
    case TT_BOOL: memcpy(o, a, (size_t)n); break;     /* |0| = 0, |-1| wraps to -1 */
    case TT_I8: { const int8_t *x = a; uint8_t *y = o; for (int64_t i = 0; i < n; i++) y[i] = (uint8_t)(x[i] < 0 ? 0u - (uint8_t)x[i] : (uint8_t)x[i]); break; }
    case TT_I16: { const int16_t *x = a; uint16_t *y = o; for (int64_t i = 0; i < n; i++) y[i] = (uint16_t)(x[i] < 0 ? 0u - (uint16_t)x[i] : (uint16_t)x[i]); break; }
    case TT_I32: { const int32_t *x = a; uint32_t *y = o; for (int64_t i = 0; i < n; i++) y[i] = x[i] < 0 ? 0u - (uint32_t)x[i] : (uint32_t)x[i]; break; }
    case TT_I64: { const int64_t *x = a; uint64_t *y = o; for (int64_t i = 0; i < n; i++) y[i] = x[i] < 0 ? 0u - (uint64_t)x[i] : (uint64_t)x[i]; break; }
    default: die("math.absi on a non-integer type");
    }
}

static void eval_fma(interp_prog *p, const ir_op *op)
{
    const ival_info *vr = &p->s->vi[op->res];
    int64_t n = vr->numel;
    const void *a = interp_operand(p, op, 0, n), *b = interp_operand(p, op, 1, n), *c = interp_operand(p, op, 2, n);
    void *o = interp_result(p, op, 0);
    switch (vr->dt) {
    case TT_F32: {
        const float *x = a, *y = b, *z = c;
        float *r = o;
        for (int64_t i = 0; i < n; i++) r[i] = fmaf(x[i], y[i], z[i]);
        break;
    }
    case TT_F64: {
        const double *x = a, *y = b, *z = c;
        double *r = o;
        for (int64_t i = 0; i < n; i++) r[i] = fma(x[i], y[i], z[i]);
        break;
    }
    case TT_F16: {
        const uint16_t *x = a, *y = b, *z = c;
        uint16_t *r = o;
        for (int64_t i = 0; i < n; i++)
            r[i] = interp_d2h(fma(interp_h2f(x[i]), interp_h2f(y[i]), interp_h2f(z[i])));
        break;
    }
    case TT_BF16: {
        const uint16_t *x = a, *y = b, *z = c;
        uint16_t *r = o;
        for (int64_t i = 0; i < n; i++)
            r[i] = interp_d2bf(fma(interp_bf2f(x[i]), interp_bf2f(y[i]), interp_bf2f(z[i])));
        break;
    }
    default: die("math.fma on a non-float type");
    }
}

void interp_eval_math(interp_prog *p, const ir_op *op)
{
    switch (op->opc) {
    case IR_ABSI: eval_absi(p, op); break;
    case IR_FMA: eval_fma(p, op); break;
    default:
        if (!math_fn[op->opc].f32) die("interp_eval_math: %s has no row in ops_math.def", ir_ops[op->opc].name);
        unary(p, op, math_fn[op->opc].f32, math_fn[op->opc].f64);
        break;
    }
}
