/* test_reduce.c — tt.reduce: sum/max/min/argmax/argmin with NaN and ties on
 * both axes, integer kinds, f16 sums rounded once. */
#include <math.h>
#include <string.h>

#include "tinterp.h"

enum { R = 8, C = 16 };

/* out = reduce(x[R, C], axis) as dout */
static void run_reduce(int kind, int axis, tt_dtype din, tt_dtype dout, const void *x, void *out)
{
    kb k;
    kb_init(&k, "reduce");
    int64_t n = R * C, m = axis == 0 ? C : R;
    tt_tensor *tx = tt_tensor_new("x", din, 1, &n);
    memcpy(tx->data, x, (size_t)n * tt_dtype_size(din));
    ir_value px = kb_tensor_arg(&k, "x", tx);
    ir_value po = kb_tensor_arg(&k, "out", tt_tensor_new("out", dout, 1, &m));
    ir_value v = load(&k, ptrs(&k, px, offs2d(&k, R, C, C)), -1, -1);
    ir_value red = opa(&k, IR_REDUCE, TYT(dout, m), axis, kind, 1, v);
    store(&k, ptrs(&k, po, range(&k, 0, m)), red, -1);
    ret(&k);
    ck_assert_int_eq(ir_verify(k.f), 0);
    ck_assert_int_eq(kb_run(&k, NULL, NULL, NULL), 0);
    memcpy(out, kb_tensor(&k, 1)->data, (size_t)m * tt_dtype_size(dout));
    kb_free(&k);
}

static float X[R * C];

static void fill_x(void)
{
    for (int i = 0; i < R * C; i++) X[i] = (float)((i * 37) % 23) * 0.75f - 5.0f;
    X[3] = NAN;                       /* row 0, column 3 */
    for (int r = 0; r < R; r++) X[r * C + 5] = NAN;   /* column 5 all NaN */
    X[2 * C + 7] = 100.0f;            /* ties: row 2 has 100 at columns 7 and 9 */
    X[2 * C + 9] = 100.0f;
    X[4 * C + 1] = -100.0f;           /* column 1 ties at rows 4 and 6 */
    X[6 * C + 1] = -100.0f;
}

static float at(int r, int c) { return X[r * C + c]; }

START_TEST(float_reductions)
{
    fill_x();
    for (int axis = 0; axis < 2; axis++) {
        int m = axis == 0 ? C : R, len = axis == 0 ? R : C;
        float sum[C], mx[C], mn[C];
        int32_t amax[C], amin[C];
        run_reduce(RED_ADD, axis, TT_F32, TT_F32, X, sum);
        run_reduce(RED_MAX, axis, TT_F32, TT_F32, X, mx);
        run_reduce(RED_MIN, axis, TT_F32, TT_F32, X, mn);
        run_reduce(RED_ARGMAX, axis, TT_F32, TT_I32, X, amax);
        run_reduce(RED_ARGMIN, axis, TT_F32, TT_I32, X, amin);
        for (int o = 0; o < m; o++) {
            float s = 0, best = NAN, worst = NAN;
            int bi = 0, wi = 0;
            bool first = true;
            for (int i = 0; i < len; i++) {
                float v = axis == 0 ? at(i, o) : at(o, i);
                s = first ? v : s + v;          /* index order from the first element */
                first = false;
                if (!isnan(v) && (isnan(best) || v > best)) { best = v; bi = i; }
                if (!isnan(v) && (isnan(worst) || v < worst)) { worst = v; wi = i; }
            }
            if (isnan(s)) ck_assert(isnan(sum[o]));
            else ck_assert(sum[o] == s);
            if (isnan(best)) {
                ck_assert(isnan(mx[o]) && isnan(mn[o]));    /* NaN only when all are NaN */
                ck_assert_int_eq(amax[o], 0);
            } else {
                ck_assert(mx[o] == best);
                ck_assert(mn[o] == worst);
                ck_assert_int_eq(amax[o], bi);
                ck_assert_int_eq(amin[o], wi);
            }
        }
        if (axis == 1) {
            ck_assert_int_eq(amax[2], 7);        /* tie: the smallest index */
            ck_assert(!isnan(mx[0]));            /* NaN ignored */
        } else {
            ck_assert_int_eq(amin[1], 4);
            ck_assert(isnan(mx[5]));
        }
    }
}
END_TEST

START_TEST(int_reductions)
{
    int32_t x[R * C];
    for (int i = 0; i < R * C; i++) x[i] = (i * 2654435761u) ^ (i << 7);
    x[0] = INT32_MAX;
    x[C] = INT32_MAX;                             /* column 0 sum wraps */
    for (int axis = 0; axis < 2; axis++) {
        int m = axis == 0 ? C : R, len = axis == 0 ? R : C;
        static const int kinds[] = { RED_ADD, RED_MAX, RED_MIN, RED_UMAX, RED_UMIN, RED_XOR, RED_OR, RED_AND,
                                     RED_ARGMAX, RED_UARGMIN };
        for (size_t kk = 0; kk < sizeof kinds / sizeof kinds[0]; kk++) {
            int32_t got[C];
            run_reduce(kinds[kk], axis, TT_I32, TT_I32, x, got);
            for (int o = 0; o < m; o++) {
                uint32_t acc = 0;
                int idx = 0;
                for (int i = 0; i < len; i++) {
                    int32_t v = axis == 0 ? x[i * C + o] : x[o * C + i];
                    uint32_t u = (uint32_t)v, a = acc;
                    if (i == 0) {
                        acc = u;
                        continue;
                    }
                    switch (kinds[kk]) {
                    case RED_ADD: acc = a + u; break;
                    case RED_MAX: acc = (int32_t)a > v ? a : u; break;
                    case RED_MIN: acc = (int32_t)a < v ? a : u; break;
                    case RED_UMAX: acc = a > u ? a : u; break;
                    case RED_UMIN: acc = a < u ? a : u; break;
                    case RED_XOR: acc = a ^ u; break;
                    case RED_OR: acc = a | u; break;
                    case RED_AND: acc = a & u; break;
                    case RED_ARGMAX: if (v > (int32_t)a) { acc = u; idx = i; } break;
                    case RED_UARGMIN: if (u < a) { acc = u; idx = i; } break;
                    }
                }
                if (kinds[kk] == RED_ARGMAX || kinds[kk] == RED_UARGMIN) ck_assert_int_eq(got[o], idx);
                else ck_assert_int_eq((uint32_t)got[o], acc);
            }
        }
    }
}
END_TEST

START_TEST(f16_sum_rounds_once)
{
    /* f16 sums accumulate in f32 and round once (eval_reduce.c): 2048 + 15
     * ones is 2063, 2064 in f16 (the GPU's tree adds the ones among
     * themselves first and gets the same); rounding every step in index
     * order would stay at 2048 */
    uint16_t x[R * C];
    for (int i = 0; i < R * C; i++) x[i] = f2h(i % C == 0 ? 2048.0f : 1.0f);
    uint16_t sum[R];
    run_reduce(RED_ADD, 1, TT_F16, TT_F16, x, sum);
    for (int r = 0; r < R; r++) {
        double acc = 0;
        for (int c = 0; c < C; c++) acc += h2f(x[r * C + c]);
        ck_assert_uint_eq(sum[r], f2h((float)acc));
        ck_assert(h2f(sum[r]) == 2064.0f);       /* 2063, a tie, to even */
    }
    /* reduce to a scalar over a 1-D tile, max over bf16 */
    kb k;
    kb_init(&k, "scalar");
    int64_t n = 64, one = 1;
    tt_tensor *tx = tt_tensor_new("x", TT_BF16, 1, &n);
    for (int i = 0; i < 64; i++) ((uint16_t *)tx->data)[i] = tt_f32_to_bf16((float)((i * 13) % 64) - 3.0f);
    ir_value px = kb_tensor_arg(&k, "x", tx), po = kb_tensor_arg(&k, "out", tt_tensor_new("o", TT_BF16, 1, &one));
    ir_value v = load(&k, ptrs(&k, px, range(&k, 0, 64)), -1, -1);
    store(&k, po, opa(&k, IR_REDUCE, ty(TT_BF16), 0, RED_MAX, 1, v), -1);
    ret(&k);
    ck_assert_int_eq(kb_run(&k, NULL, NULL, NULL), 0);
    ck_assert(tt_bf16_to_f32(*(uint16_t *)kb_tensor(&k, 1)->data) == 60.0f);
    kb_free(&k);
}
END_TEST

TCase *reduce_tcase(void)
{
    TCase *tc = tcase_create("reduce");
    tcase_add_test(tc, float_reductions);
    tcase_add_test(tc, int_reductions);
    tcase_add_test(tc, f16_sum_rounds_once);
    return tc;
}
