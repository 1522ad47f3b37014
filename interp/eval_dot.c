/* eval_dot.c — tt.dot a[M,K] x b[K,N] + acc[M,N], also batched [B,M,K]
 * (docs/reference/triton-semantics.md §2.11).
 *
 * Float inputs are converted to f32 tiles once and accumulated in f32 in k
 * order starting from acc: c[i][j] = fmaf(a[i][k], b[k][j], c[i][j]) for
 * k = 0..K-1, which is Triton's input_precision="ieee" FMA path
 * (DotOpToLLVM/FMA.cpp) bit for bit. The loop order is i-k-j so the inner
 * loop vectorizes while every c[i][j] still sees k in order. For f16 the
 * products are exact in f32, so a multiply and an add give the same result
 * as fmaf; bf16/f32 use fmaf. f32 inputs with precision tf32 (Triton's
 * default for f32) are truncated to tf32 (low 13 mantissa bits zeroed, as
 * the tensor cores read them); "tf32x3" and "bf16x3"/"bf16x6" are the
 * multi-pass splits of Triton's F32DotTC pass (TritonGPU/Transforms/
 * F32DotTC.cpp, release/3.6.x); "ieee" is exact f32 FMAs. f64 uses fma in
 * double, i8 accumulates in i32 (wrapping). An f16 result (out_dtype) is
 * rounded once at the end.
 *
 * The kernels are compiled twice: for AVX2+FMA, chosen at run time when the
 * CPU has both (__builtin_cpu_supports), and for the baseline x86-64 (where
 * fmaf is a libm call: correct, slower). Same results either way: the
 * compiler does not contract (-ffp-contract=off) and fmaf is exact. */
#include "internal.h"

#include <pthread.h>

#include <math.h>

/* DEF_MM(name, ...) defines name_avx2 and name_base (the same loop nest
 * compiled for two targets) and name(), which dispatches between them. */
#if defined(__x86_64__) || defined(__i386__)
#define FAST_TARGET __attribute__((target("avx2,fma")))
static bool g_avx2_fma;
static void probe_cpu(void)
{
    __builtin_cpu_init();
    g_avx2_fma = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}

/* once per process: the programs of a parallel launch may ask at the same time */
static bool have_avx2_fma(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, probe_cpu);
    return g_avx2_fma;
}
#else
#define FAST_TARGET
static bool have_avx2_fma(void) { return false; }
#endif

/* i-k-j: the inner loop runs over a row of c and vectorizes, while each
 * c[i][j] still accumulates k = 0..K-1 in order */
#define MM_LOOP(TC, TA, TB, STEP)                                                                 \
    for (int64_t i = 0; i < M; i++) {                                                             \
        TC *restrict ci = c + i * N;                                                              \
        for (int64_t k = 0; k < K; k++) {                                                         \
            TA aik = a[i * K + k];                                                                \
            const TB *restrict bk = b + k * N;                                                    \
            for (int64_t j = 0; j < N; j++) ci[j] = STEP;                                         \
        }                                                                                         \
    }

#define DEF_MM(NAME, TC, TA, TB, STEP)                                                            \
    FAST_TARGET static void NAME##_avx2(TC *restrict c, const TA *restrict a, const TB *restrict b, int64_t M, \
                                        int64_t N, int64_t K)                                     \
    {                                                                                             \
        MM_LOOP(TC, TA, TB, STEP)                                                                 \
    }                                                                                             \
    static void NAME##_base(TC *restrict c, const TA *restrict a, const TB *restrict b, int64_t M, int64_t N, \
                            int64_t K)                                                            \
    {                                                                                             \
        MM_LOOP(TC, TA, TB, STEP)                                                                 \
    }                                                                                             \
    static void NAME(TC *restrict c, const TA *restrict a, const TB *restrict b, int64_t M, int64_t N, int64_t K) \
    {                                                                                             \
        if (have_avx2_fma()) NAME##_avx2(c, a, b, M, N, K);                                       \
        else NAME##_base(c, a, b, M, N, K);                                                       \
    }

DEF_MM(mm_fma_f32, float, float, float, fmaf(aik, bk[j], ci[j]))
/* exact products (f16 inputs): mul + add == fmaf */
DEF_MM(mm_mad_f32, float, float, float, ci[j] + aik * bk[j])
DEF_MM(mm_fma_f64, double, double, double, fma(aik, bk[j], ci[j]))
DEF_MM(mm_i32, uint32_t, int32_t, int32_t, ci[j] + (uint32_t)aik * (uint32_t)bk[j])

/* cvt.rna.tf32.f32: round to 10 mantissa bits, ties away from zero */
static float tf32_rna(float x)
{
    union { float f; uint32_t u; } v = { x };
    if ((v.u & 0x7f800000u) == 0x7f800000u) return x;
    v.u = (v.u + 0x1000u) & ~0x1fffu;
    return v.f;
}

/* arith.truncf to bf16 (round to nearest even) and back */
static float bf16_rne(float x) { return interp_bf2f(interp_f2bf(x)); }

/* c[B][M][N] += a x b in k order, every operand truncated to tf32 when tf */
static void mm_batch(interp_prog *p, float *c, const float *a, const float *b, int64_t B, int64_t M, int64_t N,
                     int64_t K, bool tf)
{
    const float *ta = a, *tb = b;
    if (tf) {
        float *x = ts_alloc(&p->mem, (size_t)(B * M * K) * 4), *y = ts_alloc(&p->mem, (size_t)(B * K * N) * 4);
        for (int64_t i = 0; i < B * M * K; i++) x[i] = interp_tf32(a[i]);
        for (int64_t i = 0; i < B * K * N; i++) y[i] = interp_tf32(b[i]);
        ta = x;
        tb = y;
    }
    for (int64_t bb = 0; bb < B; bb++) mm_fma_f32(c + bb * M * N, ta + bb * M * K, tb + bb * K * N, M, N, K);
}

/* Triton's F32DotTC rewrite of an f32 dot with precision tf32x3, bf16x3 or
 * bf16x6 into tf32 / bf16 dots of split operands; c holds acc on entry. */
static void mm_split(interp_prog *p, int prec, float *c, const float *a, const float *b, int64_t B, int64_t M,
                     int64_t N, int64_t K)
{
    int64_t na = B * M * K, nb = B * K * N, nc = B * M * N;
    float *acc = ts_alloc(&p->mem, (size_t)nc * 4);
    memcpy(acc, c, (size_t)nc * 4);
    memset(c, 0, (size_t)nc * 4);
    if (prec == PREC_TF32X3) {
        float *ab = ts_alloc(&p->mem, (size_t)na * 4), *as = ts_alloc(&p->mem, (size_t)na * 4);
        float *bb = ts_alloc(&p->mem, (size_t)nb * 4), *bs = ts_alloc(&p->mem, (size_t)nb * 4);
        for (int64_t i = 0; i < na; i++) as[i] = a[i] - (ab[i] = tf32_rna(a[i]));
        for (int64_t i = 0; i < nb; i++) bs[i] = b[i] - (bb[i] = tf32_rna(b[i]));
        mm_batch(p, c, as, bb, B, M, N, K, true);
        mm_batch(p, c, ab, bs, B, M, N, K, true);
        for (int64_t i = 0; i < nc; i++) if (isnan(c[i])) c[i] = 0;
        mm_batch(p, c, ab, bb, B, M, N, K, true);
    } else {
        int parts = prec == PREC_BF16X6 ? 3 : 2;
        float *ap[3], *bp[3];
        for (int k = 0; k < parts; k++) {
            ap[k] = ts_alloc(&p->mem, (size_t)na * 4);
            bp[k] = ts_alloc(&p->mem, (size_t)nb * 4);
        }
        for (int64_t i = 0; i < na; i++) {
            float x = a[i];
            for (int k = 0; k < parts; k++) { ap[k][i] = bf16_rne(x); x -= ap[k][i]; }
        }
        for (int64_t i = 0; i < nb; i++) {
            float x = b[i];
            for (int k = 0; k < parts; k++) { bp[k][i] = bf16_rne(x); x -= bp[k][i]; }
        }
        if (parts == 3) {
            mm_batch(p, c, ap[1], bp[1], B, M, N, K, false);
            mm_batch(p, c, ap[2], bp[0], B, M, N, K, false);
            mm_batch(p, c, ap[0], bp[2], B, M, N, K, false);
        }
        mm_batch(p, c, ap[1], bp[0], B, M, N, K, false);
        mm_batch(p, c, ap[0], bp[1], B, M, N, K, false);
        for (int64_t i = 0; i < nc; i++) if (isnan(c[i])) c[i] = 0;
        mm_batch(p, c, ap[0], bp[0], B, M, N, K, false);
    }
    for (int64_t i = 0; i < nc; i++) c[i] += acc[i];
}

/* Tile of n elements of dt -> f32 (tf32-truncated when asked). */
static float *f32_tile(interp_prog *p, tt_dtype dt, const void *x, int64_t n, bool trunc)
{
    float *t = ts_alloc(&p->mem, (size_t)n * 4);
    switch (dt) {
    case TT_F16: { const uint16_t *h = x; for (int64_t i = 0; i < n; i++) t[i] = interp_h2f(h[i]); break; }
    case TT_BF16: { const uint16_t *h = x; for (int64_t i = 0; i < n; i++) t[i] = interp_bf2f(h[i]); break; }
    case TT_F32:
        if (trunc) { const float *f = x; for (int64_t i = 0; i < n; i++) t[i] = interp_tf32(f[i]); }
        else memcpy(t, x, (size_t)n * 4);
        break;
    default: die("tt.dot: f32 tile of %s", tt_dtype_name(dt));
    }
    return t;
}

void interp_eval_dot(interp_prog *p, const ir_op *op)
{
    interp_session *s = p->s;
    const ival_info *va = &s->vi[op->opnd[0]], *vb = &s->vi[op->opnd[1]], *vc = &s->vi[op->opnd[2]];
    const ival_info *vr = &s->vi[op->res];
    int rank = va->rank;
    if (rank != 2 && rank != 3) die("tt.dot: rank %d", rank);
    int64_t B = rank == 3 ? va->shape[0] : 1;
    int64_t M = va->shape[rank - 2], K = va->shape[rank - 1], N = vb->shape[rank - 1];
    if (vb->shape[rank - 2] != K || vr->numel != B * M * N || vc->numel != vr->numel) die("tt.dot: shapes");
    const void *a = p->vals[op->opnd[0]], *b = p->vals[op->opnd[1]], *acc = p->vals[op->opnd[2]];
    void *out = interp_result(p, op, 0);
    int64_t na = B * M * K, nb = B * K * N, nc = B * M * N;

    switch (va->dt) {
    case TT_F16:
    case TT_BF16:
    case TT_F32: {
        int prec = va->dt == TT_F32 ? (int)op->attr[0] : PREC_IEEE;
        bool trunc = prec == PREC_TF32;
        const float *fa = f32_tile(p, va->dt, a, na, trunc), *fb = f32_tile(p, vb->dt, b, nb, trunc);
        float *c = vr->dt == TT_F32 ? out : ts_alloc(&p->mem, (size_t)nc * 4);
        if (vc->dt == TT_F32) memcpy(c, acc, (size_t)nc * 4);
        else for (int64_t i = 0; i < nc; i++) c[i] = (float)interp_get_f64(acc, vc->dt, i, false);
        if (prec == PREC_TF32X3 || prec == PREC_BF16X3 || prec == PREC_BF16X6) {
            mm_split(p, prec, c, fa, fb, B, M, N, K);
        } else {
            for (int64_t bb = 0; bb < B; bb++) {
                if (va->dt == TT_F16) mm_mad_f32(c + bb * M * N, fa + bb * M * K, fb + bb * K * N, M, N, K);
                else mm_fma_f32(c + bb * M * N, fa + bb * M * K, fb + bb * K * N, M, N, K);
            }
        }
        if (vr->dt == TT_F16) for (int64_t i = 0; i < nc; i++) ((uint16_t *)out)[i] = interp_f2h(c[i]);
        else if (vr->dt == TT_BF16) for (int64_t i = 0; i < nc; i++) ((uint16_t *)out)[i] = interp_f2bf(c[i]);
        else if (vr->dt == TT_F64) for (int64_t i = 0; i < nc; i++) ((double *)out)[i] = c[i];
        else if (vr->dt != TT_F32) die("tt.dot: result type %s", tt_dtype_name(vr->dt));
        break;
    }
    case TT_F64: {
        if (vr->dt != TT_F64 || vc->dt != TT_F64) die("tt.dot: f64 inputs need an f64 result");
        memcpy(out, acc, (size_t)nc * 8);
        for (int64_t bb = 0; bb < B; bb++)
            mm_fma_f64((double *)out + bb * M * N, (const double *)a + bb * M * K, (const double *)b + bb * K * N, M,
                       N, K);
        break;
    }
    case TT_I8: {
        if (vr->dt != TT_I32 || vc->dt != TT_I32) die("tt.dot: i8 inputs need an i32 result");
        int32_t *ia = ts_alloc(&p->mem, (size_t)na * 4), *ib = ts_alloc(&p->mem, (size_t)nb * 4);
        for (int64_t i = 0; i < na; i++) ia[i] = ((const int8_t *)a)[i];
        for (int64_t i = 0; i < nb; i++) ib[i] = ((const int8_t *)b)[i];
        memcpy(out, acc, (size_t)nc * 4);
        for (int64_t bb = 0; bb < B; bb++)
            mm_i32((uint32_t *)out + bb * M * N, ia + bb * M * K, ib + bb * K * N, M, N, K);
        break;
    }
    default:
        die("tt.dot: inputs of type %s", tt_dtype_name(va->dt));
    }
}
