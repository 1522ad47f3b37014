/* eval_math.c — math dialect ops, elementwise.
 *
 * The functions of include/tritium/ops_math.def, one row each with up to
 * two variants: each variant's C expression becomes one typed loop here
 * (helpers in mathfn.h); the variant is picked by the operand and result
 * types. Exact functions (rounding modes, conversions, bit functions) agree
 * with libdevice bit for bit; transcendental ones to the row's ULP bound
 * (docs/language.md, "libdevice and the rounded operations"). The GPU's
 * approximate versions (ex2.approx,
 * sqrt.approx, fast_sinf, ...) are not emulated. abs, fma are exact. */
#include "internal.h"
#include "mathfn.h"

#include <math.h>

typedef void (*mathfn_loop)(void *restrict o, void *const *in, int64_t n);

/* ops_math.def's type tokens as C types ("no": absent, never read) */
typedef float mf_ct_f32;
typedef double mf_ct_f64;
typedef uint8_t mf_ct_i1;
typedef int32_t mf_ct_i32;
typedef uint32_t mf_ct_u32;
typedef int64_t mf_ct_i64;
typedef uint64_t mf_ct_u64;
typedef int32_t mf_ct_no;

/* One variant's loop: o[i] = expression of a[i], b[i], c[i], d[i]; operands
 * past the arity are never read. */
#define MF_LOOP(NAME, N, R, A, B, C, EXPR)                                                        \
    static void NAME(void *restrict o_, void *const *in, int64_t n)                               \
    {                                                                                             \
        mf_ct_##R *o = o_;                                                                        \
        const mf_ct_##A *pa = in[0];                                                              \
        const mf_ct_##B *pb = in[1];                                                              \
        const mf_ct_##C *pc = in[2], *pd = in[3];                                                 \
        for (int64_t i = 0; i < n; i++) {                                                         \
            mf_ct_##A a = pa[i];                                                                  \
            mf_ct_##B b = N >= 2 ? pb[i] : 0;                                                     \
            mf_ct_##C c = N >= 3 ? pc[i] : 0, d = N >= 4 ? pd[i] : 0;                             \
            (void)a, (void)b, (void)c, (void)d;                                                   \
            o[i] = (mf_ct_##R)(EXPR);                                                             \
        }                                                                                         \
    }
#define FN(e, name, lib, N, props, fast, r0, a0, b0, c0, x0, g0, u0, r1, a1, b1, c1, x1, g1, u1) \
    MF_LOOP(e##_0, N, r0, a0, b0, c0, x0)                                                         \
    MF_LOOP(e##_1, N, r1, a1, b1, c1, x1)
#include "tritium/ops_math.def"
#undef FN

/* The loops of each ops_math.def function, by opcode and variant. */
static const mathfn_loop math_fn[IR_OP_COUNT][2] = {
#define FN(e, name, lib, N, props, fast, r0, a0, b0, c0, x0, g0, u0, r1, a1, b1, c1, x1, g1, u1) \
    [IR_##e] = { e##_0, e##_1 },
#include "tritium/ops_math.def"
#undef FN
};

static void eval_fn(interp_prog *p, const ir_op *op)
{
    const ir_func *f = p->s->f;
    ir_type t[4];
    for (int i = 0; i < op->nopnd && i < 4; i++) t[i] = ir_value_type(f, op->opnd[i]);
    int k = ir_mathfn_variant(op->opc, t, op->nopnd, ir_value_type(f, op->res));
    if (k < 0) die("interp_eval_math: %s: no variant of ops_math.def for these types", ir_ops[op->opc].name);
    int64_t n = p->s->vi[op->res].numel;
    void *in[4] = { NULL, NULL, NULL, NULL };
    for (int i = 0; i < op->nopnd && i < 4; i++) in[i] = interp_operand(p, op, i, n);
    math_fn[op->opc][k](interp_result(p, op, 0), in, n);
}

/* |x| of any float type: the sign bit cleared (exact, NaN payloads kept). */
static void eval_absf(interp_prog *p, const ir_op *op)
{
    const ival_info *vr = &p->s->vi[op->res];
    int64_t n = vr->numel;
    const unsigned char *a = interp_operand(p, op, 0, n);
    unsigned char *o = interp_result(p, op, 0);
    int sz = vr->esize;
    memcpy(o, a, (size_t)(n * sz));
    for (int64_t i = 0; i < n; i++) o[i * sz + sz - 1] &= 0x7f;     /* little-endian: sign in the last byte */
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
    case IR_ABSF: eval_absf(p, op); break;
    case IR_FMA: eval_fma(p, op); break;
    default:
        if (!ir_mathfns[op->opc].arity) die("interp_eval_math: %s has no row in ops_math.def", ir_ops[op->opc].name);
        eval_fn(p, op);
        break;
    }
}
