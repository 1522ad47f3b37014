/* test_dot.c — tt.dot against sequential fmaf in k order (bit-exact), tf32
 * truncation under gpu numerics, f16 results, i8, f64, batched. */
#include <math.h>
#include <string.h>

#include "tinterp.h"

static uint32_t rng = 2463534242u;
static uint32_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}
static float frand(void) { return ((float)(next() >> 8) / 16777216.0f) * 4.0f - 2.0f; }

/* out = dot(a[M,K], b[K,N], acc[M,N]) with the given dtypes and precision */
static void run_dot(int64_t M, int64_t N, int64_t K, tt_dtype din, tt_dtype dacc, int prec, const void *a,
                    const void *b, const void *acc, void *out, tt_numerics num)
{
    kb k;
    kb_init(&k, "dot");
    int64_t na = M * K, nb = K * N, nc = M * N;
    tt_tensor *ta = tt_tensor_new("a", din, 1, &na), *tb = tt_tensor_new("b", din, 1, &nb),
              *tc = tt_tensor_new("acc", dacc, 1, &nc);
    memcpy(ta->data, a, (size_t)na * tt_dtype_size(din));
    memcpy(tb->data, b, (size_t)nb * tt_dtype_size(din));
    memcpy(tc->data, acc, (size_t)nc * tt_dtype_size(dacc));
    ir_value pa = kb_tensor_arg(&k, "a", ta), pb = kb_tensor_arg(&k, "b", tb), pc = kb_tensor_arg(&k, "acc", tc);
    ir_value po = kb_tensor_arg(&k, "out", tt_tensor_new("out", dacc, 1, &nc));
    ir_value va = load(&k, ptrs(&k, pa, offs2d(&k, M, K, K)), -1, -1);
    ir_value vb = load(&k, ptrs(&k, pb, offs2d(&k, K, N, N)), -1, -1);
    ir_value oc = offs2d(&k, M, N, N);
    ir_value vc = load(&k, ptrs(&k, pc, oc), -1, -1);
    ir_value d = opa(&k, IR_DOT, TYT(dacc, M, N), prec, 0, 3, va, vb, vc);
    store(&k, ptrs(&k, po, oc), d, -1);
    ret(&k);
    ck_assert_int_eq(ir_verify(k.f), 0);
    interp_options o;
    interp_options_default(&o);
    o.numerics = num;
    ck_assert_int_eq(kb_run(&k, &o, NULL, NULL), 0);
    memcpy(out, kb_tensor(&k, 3)->data, (size_t)nc * tt_dtype_size(dacc));
    kb_free(&k);
}

START_TEST(dot_f16)
{
    enum { M = 64, N = 64, K = 32 };
    static uint16_t a[M * K], b[K * N];
    static float acc[M * N], out[M * N];
    for (int i = 0; i < M * K; i++) a[i] = f2h(frand());
    for (int i = 0; i < K * N; i++) b[i] = f2h(frand());
    for (int i = 0; i < M * N; i++) acc[i] = frand();
    run_dot(M, N, K, TT_F16, TT_F32, PREC_TF32, a, b, acc, out, NUMERICS_IEEE);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float c = acc[i * N + j];
            for (int k = 0; k < K; k++) c = fmaf(h2f(a[i * K + k]), h2f(b[k * N + j]), c);
            ck_assert_msg(memcmp(&c, &out[i * N + j], 4) == 0, "c[%d][%d] = %a, want %a", i, j, out[i * N + j], c);
        }
    /* f16 result (out_dtype=f16): accumulated in f32, rounded once */
    static uint16_t acch[M * N], outh[M * N];
    for (int i = 0; i < M * N; i++) acch[i] = f2h(frand());
    run_dot(M, N, K, TT_F16, TT_F16, PREC_TF32, a, b, acch, outh, NUMERICS_IEEE);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float c = h2f(acch[i * N + j]);
            for (int k = 0; k < K; k++) c = fmaf(h2f(a[i * K + k]), h2f(b[k * N + j]), c);
            ck_assert_uint_eq(outh[i * N + j], f2h(c));
        }
}
END_TEST

static float trunc13(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    if ((u & 0x7f800000u) != 0x7f800000u) u &= ~0x1fffu;
    memcpy(&x, &u, 4);
    return x;
}

static float rna13(float x)   /* PTX cvt.rna.tf32.f32 */
{
    uint32_t u;
    memcpy(&u, &x, 4);
    if ((u & 0x7f800000u) != 0x7f800000u) u = (u + 0x1000u) & ~0x1fffu;
    memcpy(&x, &u, 4);
    return x;
}

/* ieee: exact f32 FMAs; tf32 (Triton's default for f32, under either
 * numerics): operands truncated to tf32 as the tensor cores read them;
 * tf32x3: F32DotTC.cpp's split, small products first, NaNs zeroed, then
 * big x big, then + acc. */
START_TEST(dot_f32_ieee_and_tf32)
{
    enum { M = 16, N = 32, K = 64 };
    static float a[M * K], b[K * N], acc[M * N], out[M * N];
    for (int i = 0; i < M * K; i++) a[i] = frand() * 1.000001f;
    for (int i = 0; i < K * N; i++) b[i] = frand() * 0.999999f;
    for (int i = 0; i < M * N; i++) acc[i] = frand();
    for (int mode = 0; mode < 4; mode++) {
        int prec = mode == 0 ? PREC_IEEE : mode == 3 ? PREC_TF32X3 : PREC_TF32;
        run_dot(M, N, K, TT_F32, TT_F32, prec, a, b, acc, out, mode == 2 ? NUMERICS_FAST : NUMERICS_IEEE);
        int differ = 0;
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                float c = acc[i * N + j], e = c;
                if (mode == 3) {
                    float s = 0, big = 0;
                    for (int k = 0; k < K; k++) {
                        float x = a[i * K + k], y = b[k * N + j];
                        s = fmaf(trunc13(x - rna13(x)), rna13(y), s);
                    }
                    for (int k = 0; k < K; k++) {
                        float x = a[i * K + k], y = b[k * N + j];
                        s = fmaf(rna13(x), trunc13(y - rna13(y)), s);
                    }
                    big = isnan(s) ? 0 : s;
                    for (int k = 0; k < K; k++) big = fmaf(rna13(a[i * K + k]), rna13(b[k * N + j]), big);
                    c = big + acc[i * N + j];
                }
                for (int k = 0; k < K; k++) {
                    float x = a[i * K + k], y = b[k * N + j];
                    if (mode == 1 || mode == 2) c = fmaf(trunc13(x), trunc13(y), c);
                    else if (mode == 0) c = fmaf(x, y, c);
                    e = fmaf(x, y, e);
                }
                ck_assert_msg(memcmp(&c, &out[i * N + j], 4) == 0, "mode %d c[%d][%d]: %a, want %a", mode, i, j,
                              out[i * N + j], c);
                differ += c != e;
                if (mode == 3) ck_assert_msg(fabsf(c - e) <= 1e-5f * (1 + fabsf(e)), "tf32x3 is close to f32");
            }
        if (mode == 1 || mode == 2) ck_assert_int_gt(differ, 0);   /* truncation did something */
    }
}
END_TEST

START_TEST(dot_i8_f64)
{
    enum { M = 8, N = 16, K = 32 };
    int8_t a[M * K], b[K * N];
    int32_t acc[M * N], out[M * N];
    for (int i = 0; i < M * K; i++) a[i] = (int8_t)next();
    for (int i = 0; i < K * N; i++) b[i] = (int8_t)next();
    for (int i = 0; i < M * N; i++) acc[i] = (int32_t)(next() % 1000) - 500;
    run_dot(M, N, K, TT_I8, TT_I32, PREC_IEEE, a, b, acc, out, NUMERICS_IEEE);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            int32_t c = acc[i * N + j];
            for (int k = 0; k < K; k++) c += a[i * K + k] * b[k * N + j];
            ck_assert_int_eq(out[i * N + j], c);
        }
    double da[M * K], db[K * N], dacc[M * N], dout[M * N];
    for (int i = 0; i < M * K; i++) da[i] = frand() / 3.0;
    for (int i = 0; i < K * N; i++) db[i] = frand() / 7.0;
    for (int i = 0; i < M * N; i++) dacc[i] = frand();
    run_dot(M, N, K, TT_F64, TT_F64, PREC_IEEE, da, db, dacc, dout, NUMERICS_IEEE);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double c = dacc[i * N + j];
            for (int k = 0; k < K; k++) c = fma(da[i * K + k], db[k * N + j], c);
            ck_assert(c == dout[i * N + j]);
        }
}
END_TEST

START_TEST(dot_batched)
{
    /* [2,4,16] x [2,16,8] + 0 via reshape of flat tiles */
    enum { B = 2, M = 4, K = 16, N = 8 };
    kb k;
    kb_init(&k, "bdot");
    int64_t na = B * M * K, nb = B * K * N, nc = B * M * N;
    tt_tensor *ta = tt_tensor_new("a", TT_BF16, 1, &na), *tb = tt_tensor_new("b", TT_BF16, 1, &nb);
    for (int i = 0; i < na; i++) ((uint16_t *)ta->data)[i] = tt_f32_to_bf16(frand());
    for (int i = 0; i < nb; i++) ((uint16_t *)tb->data)[i] = tt_f32_to_bf16(frand());
    ir_value pa = kb_tensor_arg(&k, "a", ta), pb = kb_tensor_arg(&k, "b", tb);
    ir_value po = kb_tensor_arg(&k, "out", tt_tensor_new("out", TT_F32, 1, &nc));
    ir_value va = op(&k, IR_RESHAPE, TYT(TT_BF16, B, M, K), 1, load(&k, ptrs(&k, pa, range(&k, 0, na)), -1, -1));
    ir_value vb = op(&k, IR_RESHAPE, TYT(TT_BF16, B, K, N), 1, load(&k, ptrs(&k, pb, range(&k, 0, nb)), -1, -1));
    ir_value d = opa(&k, IR_DOT, TYT(TT_F32, B, M, N), PREC_TF32, 0, 3, va, vb, cflt(&k, TYT(TT_F32, B, M, N), 0.0));
    store(&k, ptrs(&k, po, range(&k, 0, nc)), op(&k, IR_RESHAPE, TYT(TT_F32, nc), 1, d), -1);
    ret(&k);
    ck_assert_int_eq(ir_verify(k.f), 0);
    ck_assert_int_eq(kb_run(&k, NULL, NULL, NULL), 0);
    const uint16_t *a = ta->data, *b = tb->data;
    const float *o = kb_tensor(&k, 2)->data;
    for (int bb = 0; bb < B; bb++)
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                float c = 0;
                for (int kk = 0; kk < K; kk++)
                    c = fmaf(tt_bf16_to_f32(a[(bb * M + i) * K + kk]), tt_bf16_to_f32(b[(bb * K + kk) * N + j]), c);
                ck_assert(c == o[(bb * M + i) * N + j]);
            }
    kb_free(&k);
}
END_TEST

TCase *dot_tcase(void)
{
    TCase *tc = tcase_create("dot");
    tcase_add_test(tc, dot_f16);
    tcase_add_test(tc, dot_f32_ieee_and_tf32);
    tcase_add_test(tc, dot_i8_f64);
    tcase_add_test(tc, dot_batched);
    return tc;
}
