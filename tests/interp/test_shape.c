/* test_shape.c — splat, broadcast, expand_dims, reshape, trans, constants. */
#include <string.h>

#include "tinterp.h"

static tt_tensor *iota_f32(const char *name, int64_t n)
{
    tt_tensor *t = tt_tensor_new(name, TT_F32, 1, &n);
    for (int64_t i = 0; i < n; i++) ((float *)t->data)[i] = (float)i + 0.25f;
    return t;
}

START_TEST(trans_2d)
{
    enum { M = 8, N = 16 };
    kb k;
    kb_init(&k, "trans2d");
    ir_value px = kb_tensor_arg(&k, "x", iota_f32("x", M * N));
    ir_value po = kb_tensor_arg(&k, "out", tt_tensor_new("out", TT_F32, 1, (int64_t[]){ M * N }));
    ir_value x = load(&k, ptrs(&k, px, offs2d(&k, M, N, N)), -1, -1);
    ir_value t = opa(&k, IR_TRANS, TYT(TT_F32, N, M), ir_attr_array(k.f, 2, (int64_t[]){ 1, 0 }), 0, 1, x);
    store(&k, ptrs(&k, po, offs2d(&k, N, M, M)), t, -1);
    ret(&k);
    ck_assert_int_eq(ir_verify(k.f), 0);
    ck_assert_int_eq(kb_run(&k, NULL, NULL, NULL), 0);
    const float *xi = kb_tensor(&k, 0)->data, *o = kb_tensor(&k, 1)->data;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) ck_assert(o[j * M + i] == xi[i * N + j]);
    kb_free(&k);
}
END_TEST

START_TEST(trans_3d_reshape)
{
    /* x as [2,4,8], permuted with order (2,0,1): r[a][b][c] = x[b][c][a] */
    enum { A = 2, B = 4, C = 8, NN = A * B * C };
    kb k;
    kb_init(&k, "trans3d");
    ir_value px = kb_tensor_arg(&k, "x", iota_f32("x", NN));
    ir_value po = kb_tensor_arg(&k, "out", tt_tensor_new("out", TT_F32, 1, (int64_t[]){ NN }));
    ir_value r = range(&k, 0, NN);
    ir_value flat = load(&k, ptrs(&k, px, r), -1, -1);
    ir_value x3 = op(&k, IR_RESHAPE, TYT(TT_F32, A, B, C), 1, flat);
    ir_value t = opa(&k, IR_TRANS, TYT(TT_F32, C, A, B), ir_attr_array(k.f, 3, (int64_t[]){ 2, 0, 1 }), 0, 1, x3);
    ir_value back = op(&k, IR_RESHAPE, TYT(TT_F32, NN), 1, t);
    store(&k, ptrs(&k, po, r), back, -1);
    ret(&k);
    ck_assert_int_eq(ir_verify(k.f), 0);
    ck_assert_int_eq(kb_run(&k, NULL, NULL, NULL), 0);
    const float *xi = kb_tensor(&k, 0)->data, *o = kb_tensor(&k, 1)->data;
    for (int c = 0; c < C; c++)
        for (int a = 0; a < A; a++)
            for (int b = 0; b < B; b++) ck_assert(o[(c * A + a) * B + b] == xi[(a * B + b) * C + c]);
    kb_free(&k);
}
END_TEST

START_TEST(broadcast_trans_rank6)
{
    /* x as [2,1,4,2,1,8] broadcast to [2,4,4,2,2,8] (dims 2 and 3 walk
     * memory in one run and merge; five dims stay, one is walked outside
     * the 4-d loops), then permuted with order (5,3,1,0,4,2): checked
     * against plain C loops */
    enum { NX = 2 * 4 * 2 * 8, NB = 2 * 4 * 4 * 2 * 2 * 8 };
    kb k;
    kb_init(&k, "rank6");
    ir_value px = kb_tensor_arg(&k, "x", iota_f32("x", NX));
    ir_value po = kb_tensor_arg(&k, "out", tt_tensor_new("out", TT_F32, 1, (int64_t[]){ NB }));
    ir_value flat = load(&k, ptrs(&k, px, range(&k, 0, NX)), -1, -1);
    ir_value x6 = op(&k, IR_RESHAPE, TYT(TT_F32, 2, 1, 4, 2, 1, 8), 1, flat);
    ir_value b = op(&k, IR_BROADCAST, TYT(TT_F32, 2, 4, 4, 2, 2, 8), 1, x6);
    ir_value t = opa(&k, IR_TRANS, TYT(TT_F32, 8, 2, 4, 2, 2, 4), ir_attr_array(k.f, 6, (int64_t[]){ 5, 3, 1, 0, 4, 2 }),
                     0, 1, b);
    ir_value r = range(&k, 0, NB);
    store(&k, ptrs(&k, po, r), op(&k, IR_RESHAPE, TYT(TT_F32, NB), 1, t), -1);
    ret(&k);
    ck_assert_int_eq(ir_verify(k.f), 0);
    ck_assert_int_eq(kb_run(&k, NULL, NULL, NULL), 0);
    const float *xi = kb_tensor(&k, 0)->data, *o = kb_tensor(&k, 1)->data;
    int64_t n = 0;
    for (int i0 = 0; i0 < 8; i0++)
        for (int i1 = 0; i1 < 2; i1++)
            for (int i2 = 0; i2 < 4; i2++)
                for (int i3 = 0; i3 < 2; i3++)
                    for (int i4 = 0; i4 < 2; i4++)
                        for (int i5 = 0; i5 < 4; i5++, n++) {
                            /* t[i] = b[i3, i2, i5, i1, i4, i0] = x[i3, 0, i5, i1, 0, i0] */
                            ck_assert(o[n] == xi[((i3 * 4 + i5) * 2 + i1) * 8 + i0]);
                        }
    kb_free(&k);
}
END_TEST

START_TEST(broadcast_expand)
{
    /* out[i][j] = col[i] * 10 + row[j] from 1-D inputs */
    enum { M = 4, N = 8 };
    kb k;
    kb_init(&k, "outer");
    ir_value pc = kb_tensor_arg(&k, "col", iota_f32("col", M)), pr = kb_tensor_arg(&k, "row", iota_f32("row", N));
    ir_value po = kb_tensor_arg(&k, "out", tt_tensor_new("out", TT_F32, 2, (int64_t[]){ M, N }));
    ir_value c = load(&k, ptrs(&k, pc, range(&k, 0, M)), -1, -1);
    ir_value rw = load(&k, ptrs(&k, pr, range(&k, 0, N)), -1, -1);
    ir_value ce = opa(&k, IR_EXPAND_DIMS, TYT(TT_F32, M, 1), 1, 0, 1, c);
    ir_value re = opa(&k, IR_EXPAND_DIMS, TYT(TT_F32, 1, N), 0, 0, 1, rw);
    ir_value cb = op(&k, IR_BROADCAST, TYT(TT_F32, M, N), 1, ce);
    ir_value rb = op(&k, IR_BROADCAST, TYT(TT_F32, M, N), 1, re);
    ir_value ten = cflt(&k, TYT(TT_F32, M, N), 10.0);
    ir_value v = op(&k, IR_ADDF, TYT(TT_F32, M, N), 2, op(&k, IR_MULF, TYT(TT_F32, M, N), 2, cb, ten), rb);
    store(&k, ptrs(&k, po, offs2d(&k, M, N, N)), v, -1);
    ret(&k);
    ck_assert_int_eq(ir_verify(k.f), 0);
    ck_assert_int_eq(kb_run(&k, NULL, NULL, NULL), 0);
    const float *o = kb_tensor(&k, 2)->data;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) ck_assert(o[i * N + j] == ((float)i + 0.25f) * 10.0f + ((float)j + 0.25f));
    kb_free(&k);
}
END_TEST

START_TEST(splat_constants)
{
    /* scalar float argument splatted, constants of several types */
    enum { M = 16 };
    kb k;
    kb_init(&k, "consts");
    ir_value po = kb_tensor_arg(&k, "out", tt_tensor_new("out", TT_F32, 1, (int64_t[]){ M }));
    ir_value pi = kb_tensor_arg(&k, "iout", tt_tensor_new("iout", TT_I64, 1, (int64_t[]){ M }));
    ir_value ph = kb_tensor_arg(&k, "hout", tt_tensor_new("hout", TT_F16, 1, (int64_t[]){ M }));
    ir_value s = kb_float_arg(&k, "scale", 2.5);
    ir_value r = range(&k, 0, M);
    store(&k, ptrs(&k, po, r), splat(&k, s, TYT(TT_F32, M)), -1);
    store(&k, ptrs(&k, pi, r), cint(&k, TYT(TT_I64, M), -5000000000ll), -1);
    store(&k, ptrs(&k, ph, r), cflt(&k, TYT(TT_F16, M), 0.1), -1);
    ret(&k);
    ck_assert_int_eq(kb_run(&k, NULL, NULL, NULL), 0);
    for (int i = 0; i < M; i++) {
        ck_assert(((float *)kb_tensor(&k, 0)->data)[i] == 2.5f);
        ck_assert(((int64_t *)kb_tensor(&k, 1)->data)[i] == -5000000000ll);
        ck_assert_uint_eq(((uint16_t *)kb_tensor(&k, 2)->data)[i], 0x2e66);   /* f16(0.1) */
    }
    kb_free(&k);
}
END_TEST

TCase *shape_tcase(void)
{
    TCase *tc = tcase_create("shape");
    tcase_add_test(tc, trans_2d);
    tcase_add_test(tc, trans_3d_reshape);
    tcase_add_test(tc, broadcast_expand);
    tcase_add_test(tc, broadcast_trans_rank6);
    tcase_add_test(tc, splat_constants);
    return tc;
}
