/* test_arith.c — integer and float elementwise ops, compares, select, math,
 * against plain C references. */
#include <math.h>
#include <string.h>

#include "tinterp.h"

#define N 24
static const int32_t A32[N] = { 7, -7, 7, -7, 0, INT32_MIN, INT32_MIN, INT32_MAX, 5, -5, 1, -1,
                                123456789, -123456789, 100, INT32_MAX, INT32_MIN, 3, -3, 0, 65536, -65536, 46341, 9 };
static const int32_t B32[N] = { 2, 2, -2, -2, 0, -1, 1, 0, 0, 0, -1, -1,
                                1000, 1000, 7, -1, 2, 3, 3, 5, 65536, 65536, 46341, -4 };

static void bin32(int opc, int64_t attr, const int32_t *a, const int32_t *b, void *out, tt_dtype dout)
{
    const void *in[2] = { a, b };
    ew_run(opc, attr, TT_I32, dout, 2, N, in, out, NULL);
}

/* The documented choices: x/0 = -1, x%0 = x, INT_MIN/-1 = INT_MIN. */
static int32_t ref_divsi(int32_t a, int32_t b) { return b == 0 ? -1 : (a == INT32_MIN && b == -1) ? INT32_MIN : a / b; }
static int32_t ref_remsi(int32_t a, int32_t b) { return b == 0 ? a : b == -1 ? 0 : a % b; }

START_TEST(int_division)
{
    int32_t q[N], r[N];
    uint32_t uq[N], ur[N];
    bin32(IR_DIVSI, 0, A32, B32, q, TT_I32);
    bin32(IR_REMSI, 0, A32, B32, r, TT_I32);
    bin32(IR_DIVUI, 0, A32, B32, uq, TT_U32);
    bin32(IR_REMUI, 0, A32, B32, ur, TT_U32);
    for (int i = 0; i < N; i++) {
        ck_assert_int_eq(q[i], ref_divsi(A32[i], B32[i]));
        ck_assert_int_eq(r[i], ref_remsi(A32[i], B32[i]));
        uint32_t ua = (uint32_t)A32[i], ub = (uint32_t)B32[i];
        ck_assert_uint_eq(uq[i], ub ? ua / ub : 0xffffffffu);
        ck_assert_uint_eq(ur[i], ub ? ua % ub : ua);
    }
    /* C truncation, sign of the dividend (semantics §2.3) */
    ck_assert_int_eq(q[1], -3);
    ck_assert_int_eq(r[1], -1);
    ck_assert_int_eq(q[2], -3);
    ck_assert_int_eq(r[2], 1);
    ck_assert_int_eq(q[5], INT32_MIN);   /* INT_MIN / -1 wraps */
    ck_assert_int_eq(r[5], 0);
    ck_assert_int_eq(q[4], -1);          /* 0 / 0 */
}
END_TEST

START_TEST(int_wrap)
{
    int32_t add[N], sub[N], mul[N];
    bin32(IR_ADDI, 0, A32, B32, add, TT_I32);
    bin32(IR_SUBI, 0, A32, B32, sub, TT_I32);
    bin32(IR_MULI, 0, A32, B32, mul, TT_I32);
    for (int i = 0; i < N; i++) {
        ck_assert_int_eq(add[i], (int32_t)((uint32_t)A32[i] + (uint32_t)B32[i]));
        ck_assert_int_eq(sub[i], (int32_t)((uint32_t)A32[i] - (uint32_t)B32[i]));
        ck_assert_int_eq(mul[i], (int32_t)((uint32_t)A32[i] * (uint32_t)B32[i]));
    }
    ck_assert_int_eq(sub[15], INT32_MIN);       /* INT_MAX - (-1) */
    ck_assert_int_eq(mul[22], -2147479015);     /* 46341^2 wraps */
    /* i8 */
    int8_t a8[4] = { 127, -128, -128, 100 }, b8[4] = { 1, -1, -1, 3 }, s8[4], d8[4], m8[4];
    const void *in[2] = { a8, b8 };
    ew_run(IR_ADDI, 0, TT_I8, TT_I8, 2, 4, in, s8, NULL);
    ew_run(IR_DIVSI, 0, TT_I8, TT_I8, 2, 4, in, d8, NULL);
    ew_run(IR_MULI, 0, TT_I8, TT_I8, 2, 4, in, m8, NULL);
    ck_assert_int_eq(s8[0], -128);
    ck_assert_int_eq(s8[1], 127);
    ck_assert_int_eq(d8[1], -128);
    ck_assert_int_eq(m8[3], 44);                /* 300 mod 256 */
    /* i64 and mulhi */
    uint64_t a64[2] = { UINT64_MAX, 0x123456789abcdefull }, b64[2] = { UINT64_MAX, 0xfedcba9876543210ull }, h64[2];
    const void *in64[2] = { a64, b64 };
    ew_run(IR_MULHIUI, 0, TT_U64, TT_U64, 2, 2, in64, h64, NULL);
    for (int i = 0; i < 2; i++) ck_assert(h64[i] == (uint64_t)(((unsigned __int128)a64[i] * b64[i]) >> 64));
    uint32_t a32[2] = { 0xffffffffu, 0x80000000u }, b32[2] = { 0xffffffffu, 4 }, h32[2];
    const void *in32[2] = { a32, b32 };
    ew_run(IR_MULHIUI, 0, TT_U32, TT_U32, 2, 2, in32, h32, NULL);
    ck_assert_uint_eq(h32[0], 0xfffffffeu);
    ck_assert_uint_eq(h32[1], 2);
}
END_TEST

START_TEST(int_shift_bitwise)
{
    int32_t a[8] = { 1, -8, -8, 12345, -1, 0x40000000, -8, 5 };
    int32_t b[8] = { 31, 1, 40, 32, 33, 1, -1, 0 };
    int32_t shl[8], sra[8], srl[8], band[8], bor[8], bxor[8];
    const void *in[2] = { a, b };
    ew_run(IR_SHLI, 0, TT_I32, TT_I32, 2, 8, in, shl, NULL);
    ew_run(IR_SHRSI, 0, TT_I32, TT_I32, 2, 8, in, sra, NULL);
    ew_run(IR_SHRUI, 0, TT_I32, TT_I32, 2, 8, in, srl, NULL);
    ew_run(IR_ANDI, 0, TT_I32, TT_I32, 2, 8, in, band, NULL);
    ew_run(IR_ORI, 0, TT_I32, TT_I32, 2, 8, in, bor, NULL);
    ew_run(IR_XORI, 0, TT_I32, TT_I32, 2, 8, in, bxor, NULL);
    for (int i = 0; i < 8; i++) {
        uint32_t ua = (uint32_t)a[i], ub = (uint32_t)b[i];
        /* documented: amounts >= 32 (unsigned) give 0, or the sign for shrsi */
        ck_assert_int_eq(shl[i], ub >= 32 ? 0 : (int32_t)(ua << ub));
        ck_assert_int_eq(srl[i], ub >= 32 ? 0 : (int32_t)(ua >> ub));
        ck_assert_int_eq(sra[i], ub >= 32 ? (a[i] < 0 ? -1 : 0) : a[i] >> ub);
        ck_assert_int_eq(band[i], a[i] & b[i]);
        ck_assert_int_eq(bor[i], a[i] | b[i]);
        ck_assert_int_eq(bxor[i], a[i] ^ b[i]);
    }
    ck_assert_int_eq(shl[0], INT32_MIN);
    ck_assert_int_eq(sra[1], -4);
    ck_assert_int_eq(srl[1], 0x7ffffffc);
}
END_TEST

START_TEST(int_compare_minmax)
{
    static const int preds[] = { CMPI_EQ, CMPI_NE, CMPI_SLT, CMPI_SLE, CMPI_SGT, CMPI_SGE, CMPI_ULT, CMPI_ULE,
                                 CMPI_UGT, CMPI_UGE };
    for (size_t p = 0; p < sizeof preds / sizeof preds[0]; p++) {
        uint8_t c[N];
        bin32(IR_CMPI, preds[p], A32, B32, c, TT_BOOL);
        for (int i = 0; i < N; i++) {
            int32_t x = A32[i], y = B32[i];
            uint32_t ux = (uint32_t)x, uy = (uint32_t)y;
            bool want = false;
            switch (preds[p]) {
            case CMPI_EQ: want = x == y; break;
            case CMPI_NE: want = x != y; break;
            case CMPI_SLT: want = x < y; break;
            case CMPI_SLE: want = x <= y; break;
            case CMPI_SGT: want = x > y; break;
            case CMPI_SGE: want = x >= y; break;
            case CMPI_ULT: want = ux < uy; break;
            case CMPI_ULE: want = ux <= uy; break;
            case CMPI_UGT: want = ux > uy; break;
            case CMPI_UGE: want = ux >= uy; break;
            }
            ck_assert_int_eq(c[i], want);
        }
    }
    int32_t mx[N], mn[N];
    uint32_t umx[N], umn[N];
    bin32(IR_MAXSI, 0, A32, B32, mx, TT_I32);
    bin32(IR_MINSI, 0, A32, B32, mn, TT_I32);
    bin32(IR_MAXUI, 0, A32, B32, umx, TT_U32);
    bin32(IR_MINUI, 0, A32, B32, umn, TT_U32);
    for (int i = 0; i < N; i++) {
        ck_assert_int_eq(mx[i], A32[i] > B32[i] ? A32[i] : B32[i]);
        ck_assert_int_eq(mn[i], A32[i] < B32[i] ? A32[i] : B32[i]);
        uint32_t ua = (uint32_t)A32[i], ub = (uint32_t)B32[i];
        ck_assert_uint_eq(umx[i], ua > ub ? ua : ub);
        ck_assert_uint_eq(umn[i], ua < ub ? ua : ub);
    }
}
END_TEST

static bool same_f32(float a, float b)
{
    if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
    return memcmp(&a, &b, 4) == 0;
}

#define NF 12
static const float FA[NF] = { 1.0f, -2.5f, NAN, 3.0f, 0.0f, -0.0f, INFINITY, 1e30f, 1.0f / 3.0f, 7.0f, NAN, -1e-40f };
static const float FB[NF] = { 3.0f, 0.5f, 1.0f, NAN, -0.0f, 0.0f, INFINITY, 1e-30f, 3.0f, -2.0f, NAN, 2.0f };

START_TEST(float_ops)
{
    const void *in[2] = { FA, FB };
    float add[NF], sub[NF], mul[NF], div[NF], rem[NF], mxn[NF], mnn[NF], mxm[NF], mnm[NF];
    ew_run(IR_ADDF, 0, TT_F32, TT_F32, 2, NF, in, add, NULL);
    ew_run(IR_SUBF, 0, TT_F32, TT_F32, 2, NF, in, sub, NULL);
    ew_run(IR_MULF, 0, TT_F32, TT_F32, 2, NF, in, mul, NULL);
    ew_run(IR_DIVF, 0, TT_F32, TT_F32, 2, NF, in, div, NULL);
    ew_run(IR_REMF, 0, TT_F32, TT_F32, 2, NF, in, rem, NULL);
    ew_run(IR_MAXNUMF, 0, TT_F32, TT_F32, 2, NF, in, mxn, NULL);
    ew_run(IR_MINNUMF, 0, TT_F32, TT_F32, 2, NF, in, mnn, NULL);
    ew_run(IR_MAXIMUMF, 0, TT_F32, TT_F32, 2, NF, in, mxm, NULL);
    ew_run(IR_MINIMUMF, 0, TT_F32, TT_F32, 2, NF, in, mnm, NULL);
    for (int i = 0; i < NF; i++) {
        float a = FA[i], b = FB[i];
        ck_assert(same_f32(add[i], a + b));
        ck_assert(same_f32(sub[i], a - b));
        ck_assert(same_f32(mul[i], a * b));
        ck_assert(same_f32(div[i], a / b));
        ck_assert(same_f32(rem[i], fmodf(a, b)));
        /* maxnum: the non-NaN operand */
        float wmx = isnan(a) ? b : isnan(b) ? a : (a > b ? a : b);
        float wmn = isnan(a) ? b : isnan(b) ? a : (a < b ? a : b);
        if (a == 0 && b == 0) {
            wmx = 0.0f;        /* -0 < +0 */
            wmn = -0.0f;
        }
        ck_assert(same_f32(mxn[i], wmx));
        ck_assert(same_f32(mnn[i], wmn));
        ck_assert(same_f32(mxm[i], isnan(a) || isnan(b) ? NAN : wmx));
        ck_assert(same_f32(mnm[i], isnan(a) || isnan(b) ? NAN : wmn));
    }
    ck_assert(mxn[2] == 1.0f && mxn[3] == 3.0f);
}
END_TEST

START_TEST(float_compare)
{
    const void *in[2] = { FA, FB };
    for (int pred = CMPF_FALSE; pred <= CMPF_TRUE; pred++) {
        uint8_t c[NF];
        ew_run(IR_CMPF, pred, TT_F32, TT_BOOL, 2, NF, in, c, NULL);
        for (int i = 0; i < NF; i++) {
            float a = FA[i], b = FB[i];
            bool uno = isnan(a) || isnan(b), want = false;
            switch (pred) {
            case CMPF_FALSE: want = false; break;
            case CMPF_OEQ: want = !uno && a == b; break;
            case CMPF_OGT: want = !uno && a > b; break;
            case CMPF_OGE: want = !uno && a >= b; break;
            case CMPF_OLT: want = !uno && a < b; break;
            case CMPF_OLE: want = !uno && a <= b; break;
            case CMPF_ONE: want = !uno && a != b; break;
            case CMPF_ORD: want = !uno; break;
            case CMPF_UEQ: want = uno || a == b; break;
            case CMPF_UGT: want = uno || a > b; break;
            case CMPF_UGE: want = uno || a >= b; break;
            case CMPF_ULT: want = uno || a < b; break;
            case CMPF_ULE: want = uno || a <= b; break;
            case CMPF_UNE: want = uno || a != b; break;
            case CMPF_UNO: want = uno; break;
            case CMPF_TRUE: want = true; break;
            }
            ck_assert_msg(c[i] == want, "pred %d lane %d", pred, i);
        }
    }
}
END_TEST

START_TEST(half_arith)
{
    /* f16 and bf16 arithmetic: computed in f32 and rounded once */
    enum { M = 4096 };
    static uint16_t a[M], b[M], o[M];
    uint32_t x = 12345;
    for (int i = 0; i < M; i++) {
        x = x * 1664525u + 1013904223u;
        a[i] = (uint16_t)(x >> 16);
        x = x * 1664525u + 1013904223u;
        b[i] = (uint16_t)(x >> 16);
    }
    const void *in[2] = { a, b };
    static const int ops[] = { IR_ADDF, IR_SUBF, IR_MULF, IR_DIVF };
    for (int t = 0; t < 2; t++) {
        tt_dtype dt = t ? TT_BF16 : TT_F16;
        for (size_t k = 0; k < 4; k++) {
            ew_run(ops[k], 0, dt, dt, 2, M, in, o, NULL);
            for (int i = 0; i < M; i++) {
                float fa = t ? tt_bf16_to_f32(a[i]) : h2f(a[i]), fb = t ? tt_bf16_to_f32(b[i]) : h2f(b[i]);
                float r = ops[k] == IR_ADDF ? fa + fb : ops[k] == IR_SUBF ? fa - fb : ops[k] == IR_MULF ? fa * fb : fa / fb;
                uint16_t want = t ? tt_f32_to_bf16(r) : f2h(r);
                float got = t ? tt_bf16_to_f32(o[i]) : h2f(o[i]);
                if (isnan(r)) ck_assert(isnan(got));
                else ck_assert_msg(o[i] == want, "dtype %d op %zu lane %d: %04x want %04x", dt, k, i, o[i], want);
            }
        }
    }
}
END_TEST

START_TEST(select_op)
{
    uint8_t c[6] = { 1, 0, 1, 0, 1, 1 };
    int64_t a[6] = { 1, 2, 3, 4, 5, 6 }, b[6] = { -1, -2, -3, -4, -5, -6 }, o[6];
    /* select takes i1 and two i64: build by hand */
    kb k;
    kb_init(&k, "select");
    int64_t n = 6;
    tt_tensor *tc = tt_tensor_new("c", TT_BOOL, 1, &n), *ta = tt_tensor_new("a", TT_I64, 1, &n),
              *tb = tt_tensor_new("b", TT_I64, 1, &n);
    memcpy(tc->data, c, 6);
    memcpy(ta->data, a, 48);
    memcpy(tb->data, b, 48);
    ir_value pc = kb_tensor_arg(&k, "c", tc), pa = kb_tensor_arg(&k, "a", ta), pb = kb_tensor_arg(&k, "b", tb);
    ir_value po = kb_tensor_arg(&k, "o", tt_tensor_new("o", TT_I64, 1, &n));
    ir_value r = range(&k, 0, 6);
    ir_value vc = load(&k, ptrs(&k, pc, r), -1, -1), va = load(&k, ptrs(&k, pa, r), -1, -1),
             vb = load(&k, ptrs(&k, pb, r), -1, -1);
    ir_value s = op(&k, IR_SELECT, TYT(TT_I64, 6), 3, vc, va, vb);
    store(&k, ptrs(&k, po, r), s, -1);
    ret(&k);
    ck_assert_int_eq(kb_run(&k, NULL, NULL, NULL), 0);
    memcpy(o, kb_tensor(&k, 3)->data, 48);
    for (int i = 0; i < 6; i++) ck_assert_int_eq(o[i], c[i] ? a[i] : b[i]);
    kb_free(&k);
}
END_TEST

START_TEST(math_ops)
{
    enum { M = 64 };
    float a[M], b[M], c[M], o[M];
    for (int i = 0; i < M; i++) {
        a[i] = (float)(i - 20) * 0.37f;
        b[i] = (float)(i % 7) * 1.3f - 2.0f;
        c[i] = (float)(i % 5) * 0.1f;
    }
    const void *in1[1] = { a };
    struct { int opc; float (*ref)(float); } un[] = {
        { IR_EXP, expf }, { IR_EXP2, exp2f }, { IR_LOG, logf }, { IR_LOG2, log2f }, { IR_SQRT, sqrtf },
        { IR_SIN, sinf }, { IR_COS, cosf }, { IR_ERF, erff }, { IR_FLOOR, floorf }, { IR_CEIL, ceilf },
        { IR_ABSF, fabsf },
    };
    for (size_t k = 0; k < sizeof un / sizeof un[0]; k++) {
        ew_run(un[k].opc, 0, TT_F32, TT_F32, 1, M, in1, o, NULL);
        for (int i = 0; i < M; i++) ck_assert(same_f32(o[i], un[k].ref(a[i])));
    }
    ew_run(IR_RSQRT, 0, TT_F32, TT_F32, 1, M, in1, o, NULL);
    for (int i = 0; i < M; i++) ck_assert(same_f32(o[i], 1.0f / sqrtf(a[i])));
    const void *in3[3] = { a, b, c };
    ew_run(IR_FMA, 0, TT_F32, TT_F32, 3, M, in3, o, NULL);
    for (int i = 0; i < M; i++) ck_assert(same_f32(o[i], fmaf(a[i], b[i], c[i])));
    /* f64 */
    double d[4] = { 0.5, -1.25, 2.0, 100.0 }, r[4];
    const void *ind[1] = { d };
    ew_run(IR_EXP, 0, TT_F64, TT_F64, 1, 4, ind, r, NULL);
    for (int i = 0; i < 4; i++) ck_assert(r[i] == exp(d[i]));
    /* absi keeps INT_MIN */
    int32_t ia[4] = { -5, 5, INT32_MIN, 0 }, io[4];
    const void *ini[1] = { ia };
    ew_run(IR_ABSI, 0, TT_I32, TT_I32, 1, 4, ini, io, NULL);
    ck_assert_int_eq(io[0], 5);
    ck_assert_int_eq(io[1], 5);
    ck_assert_int_eq(io[2], INT32_MIN);
    ck_assert_int_eq(io[3], 0);
}
END_TEST

/* a*b + c: separate roundings in ieee mode, one fma in gpu mode (§2.9) */
START_TEST(gpu_contraction)
{
    float a = 1.0f + 0x1p-12f, b = 1.0f + 0x1p-12f, c = -1.0f;
    for (int mode = 0; mode < 2; mode++) {
        kb k;
        kb_init(&k, "contract");
        int64_t n = 1;
        tt_tensor *t = tt_tensor_new("x", TT_F32, 1, &n);
        float vals[3] = { a, b, c };
        tt_tensor *tv = tt_tensor_new("v", TT_F32, 1, (int64_t[]){ 3 });
        memcpy(tv->data, vals, 12);
        ir_value pv = kb_tensor_arg(&k, "v", tv), po = kb_tensor_arg(&k, "out", t);
        ir_value x = load(&k, ptrs(&k, pv, cint(&k, ty(TT_I32), 0)), -1, -1);
        ir_value y = load(&k, ptrs(&k, pv, cint(&k, ty(TT_I32), 1)), -1, -1);
        ir_value z = load(&k, ptrs(&k, pv, cint(&k, ty(TT_I32), 2)), -1, -1);
        ir_value m = op(&k, IR_MULF, ty(TT_F32), 2, x, y);
        ir_value s = op(&k, IR_ADDF, ty(TT_F32), 2, m, z);
        store(&k, po, s, -1);
        ret(&k);
        interp_options o;
        interp_options_default(&o);
        o.numerics = mode ? NUMERICS_FAST : NUMERICS_IEEE;
        ck_assert_int_eq(kb_run(&k, &o, NULL, NULL), 0);
        float got = *(float *)kb_tensor(&k, 1)->data;
        volatile float prod = a * b;
        float want = mode ? fmaf(a, b, c) : prod + c;
        ck_assert(same_f32(got, want));
        kb_free(&k);
    }
    volatile float prod = a * b;
    ck_assert(fmaf(a, b, c) != prod + c);     /* the two modes do differ here */
}
END_TEST

TCase *arith_tcase(void)
{
    TCase *tc = tcase_create("arith");
    tcase_add_test(tc, int_division);
    tcase_add_test(tc, int_wrap);
    tcase_add_test(tc, int_shift_bitwise);
    tcase_add_test(tc, int_compare_minmax);
    tcase_add_test(tc, float_ops);
    tcase_add_test(tc, float_compare);
    tcase_add_test(tc, half_arith);
    tcase_add_test(tc, select_op);
    tcase_add_test(tc, math_ops);
    tcase_add_test(tc, gpu_contraction);
    return tc;
}
