/* test_scf.c — scf.for with carried tiles (bounded memory over 100000
 * iterations, swapped carries, nesting), scf.if, scf.while. */
#include <string.h>

#include "internal.h"
#include "tinterp.h"

static ir_value rarg(kb *k, int32_t region, int i) { return k->f->regions.v[region].args[i]; }

static int for_begin(kb *k, ir_value lb, ir_value ub, ir_value step, int n, const ir_value *init, int32_t *body,
                     ir_builder *saved)
{
    ir_type types[8];
    ir_value opnd[11] = { lb, ub, step };
    types[0] = ir_value_type(k->f, lb);
    for (int i = 0; i < n; i++) {
        types[1 + i] = ir_value_type(k->f, init[i]);
        opnd[3 + i] = init[i];
    }
    *body = ir_new_region(k->f, n + 1, types);
    int fi = ir_emit(&k->b, IR_FOR, n, types + 1, n + 3, opnd);
    ir_op_add_region(k->f, k->b.region, fi, *body);
    *saved = k->b;
    k->b.region = *body;
    return fi;
}

static void yield_end(kb *k, int n, const ir_value *y, const ir_builder *saved)
{
    ir_emit(&k->b, IR_YIELD, 0, NULL, n, y);
    k->b = *saved;
}

static ir_value res(kb *k, const ir_builder *at, int opi, int i) { return ir_op_at(k->f, at->region, opi)->res + i; }

START_TEST(long_loop_bounded_memory)
{
    enum { W = 256, ITERS = 100000 };
    kb k;
    kb_init(&k, "longloop");
    int64_t n = W;
    ir_value po = kb_tensor_arg(&k, "out", tt_tensor_new("out", TT_I32, 1, &n));
    ir_type t = TYT(TT_I32, W), it = ty(TT_I32);
    ir_value init = cint(&k, t, 0);
    int32_t body;
    ir_builder saved;
    int fi = for_begin(&k, cint(&k, it, 0), cint(&k, it, ITERS), cint(&k, it, 1), 1, &init, &body, &saved);
    ir_value iv = rarg(&k, body, 0), acc = rarg(&k, body, 1);
    ir_value odd = splat(&k, op(&k, IR_ANDI, it, 2, iv, cint(&k, it, 1)), t);
    ir_value nacc = op(&k, IR_ADDI, t, 2, op(&k, IR_ADDI, t, 2, acc, odd), cint(&k, t, 1));
    yield_end(&k, 1, &nacc, &saved);
    store(&k, ptrs(&k, po, range(&k, 0, W)), res(&k, &saved, fi, 0), -1);
    ret(&k);
    ck_assert_int_eq(ir_verify(k.f), 0);
    interp_session *s = kb_session(&k, NULL);
    ck_assert_int_eq(interp_run_launch(s), 0);
    /* without per-iteration release this would be ~300 MB of tiles */
    ck_assert_uint_lt(s->main.mem.reserved, (size_t)2 << 20);
    ck_assert_uint_lt(s->main.mem.peak, (size_t)1 << 20);
    interp_session_free(s);
    const int32_t *o = kb_tensor(&k, 0)->data;
    for (int i = 0; i < W; i++) ck_assert_int_eq(o[i], ITERS + ITERS / 2);
    kb_free(&k);
}
END_TEST

START_TEST(swapped_carries_and_nesting)
{
    kb k;
    kb_init(&k, "fib");
    int64_t n = 4, two = 2;
    ir_value pa = kb_tensor_arg(&k, "a", tt_tensor_new("a", TT_I32, 1, &n));
    ir_value pb = kb_tensor_arg(&k, "b", tt_tensor_new("b", TT_I32, 1, &n));
    ir_value ps = kb_tensor_arg(&k, "s", tt_tensor_new("s", TT_I32, 1, &two));
    ir_type t = TYT(TT_I32, 4), it = ty(TT_I32);
    /* (a, b) = (b, a + b), 10 times, from (r, 1) */
    ir_value init[2] = { range(&k, 0, 4), cint(&k, t, 1) };
    int32_t body;
    ir_builder saved;
    int fi = for_begin(&k, cint(&k, it, 0), cint(&k, it, 10), cint(&k, it, 1), 2, init, &body, &saved);
    ir_value a = rarg(&k, body, 1), b = rarg(&k, body, 2);
    ir_value y[2] = { b, op(&k, IR_ADDI, t, 2, a, b) };
    yield_end(&k, 2, y, &saved);
    ir_value r = range(&k, 0, 4);
    store(&k, ptrs(&k, pa, r), res(&k, &saved, fi, 0), -1);
    store(&k, ptrs(&k, pb, r), res(&k, &saved, fi, 1), -1);
    /* nested: s = sum over i < 4, j < 3 (step 2 from 0: j = 0, 2, 4) of i*j */
    ir_value s0 = cint(&k, it, 0);
    int32_t outer, inner;
    ir_builder so, si;
    int fo = for_begin(&k, cint(&k, it, 0), cint(&k, it, 4), cint(&k, it, 1), 1, &s0, &outer, &so);
    ir_value i = rarg(&k, outer, 0), sacc = rarg(&k, outer, 1);
    int fj = for_begin(&k, cint(&k, it, 0), cint(&k, it, 5), cint(&k, it, 2), 1, &sacc, &inner, &si);
    ir_value j = rarg(&k, inner, 0), sin_ = rarg(&k, inner, 1);
    ir_value ns = op(&k, IR_ADDI, it, 2, sin_, op(&k, IR_MULI, it, 2, i, j));
    yield_end(&k, 1, &ns, &si);
    ir_value sres = res(&k, &si, fj, 0);
    yield_end(&k, 1, &sres, &so);
    store(&k, ps, res(&k, &so, fo, 0), -1);
    ret(&k);
    ck_assert_int_eq(ir_verify(k.f), 0);
    ck_assert_int_eq(kb_run(&k, NULL, NULL, NULL), 0);
    const int32_t *oa = kb_tensor(&k, 0)->data, *ob = kb_tensor(&k, 1)->data;
    for (int l = 0; l < 4; l++) {
        int32_t x = l, z = 1;
        for (int it2 = 0; it2 < 10; it2++) {
            int32_t t2 = z;
            z = x + z;
            x = t2;
        }
        ck_assert_int_eq(oa[l], x);
        ck_assert_int_eq(ob[l], z);
    }
    ck_assert_int_eq(((int32_t *)kb_tensor(&k, 2)->data)[0], (0 + 1 + 2 + 3) * (0 + 2 + 4));
    kb_free(&k);
}
END_TEST

START_TEST(if_by_program)
{
    /* out[pid] = pid == 0 ? x[pid] * 2 : x[pid] + 1 */
    kb k;
    kb_init(&k, "ifk");
    int64_t n = 4;
    tt_tensor *tx = tt_tensor_new("x", TT_F32, 1, &n);
    for (int i = 0; i < 4; i++) ((float *)tx->data)[i] = 10.0f + (float)i;
    ir_value px = kb_tensor_arg(&k, "x", tx), po = kb_tensor_arg(&k, "out", tt_tensor_new("out", TT_F32, 1, &n));
    ir_value p = pid(&k, 0);
    ir_value x = load(&k, op(&k, IR_ADDPTR, typ(TT_F32), 2, px, p), -1, -1);
    ir_value c = opa(&k, IR_CMPI, ty(TT_BOOL), CMPI_EQ, 0, 2, p, cint(&k, ty(TT_I32), 0));
    ir_type ft = ty(TT_F32);
    int fi = ir_emit(&k.b, IR_IF, 1, &ft, 1, &c);
    int32_t rt = ir_new_region(k.f, 0, NULL), re = ir_new_region(k.f, 0, NULL);
    ir_op_add_region(k.f, IR_BODY, fi, rt);
    ir_op_add_region(k.f, IR_BODY, fi, re);
    ir_builder saved = k.b;
    k.b.region = rt;
    op0(&k, IR_YIELD, 1, op(&k, IR_MULF, ft, 2, x, cflt(&k, ft, 2.0)));
    k.b.region = re;
    op0(&k, IR_YIELD, 1, op(&k, IR_ADDF, ft, 2, x, cflt(&k, ft, 1.0)));
    k.b = saved;
    store(&k, op(&k, IR_ADDPTR, typ(TT_F32), 2, po, p), ir_op_at(k.f, IR_BODY, fi)->res, -1);
    ret(&k);
    k.l.grid[0] = 4;
    ck_assert_int_eq(ir_verify(k.f), 0);
    ck_assert_int_eq(kb_run(&k, NULL, NULL, NULL), 0);
    const float *o = kb_tensor(&k, 1)->data;
    ck_assert(o[0] == 20.0f && o[1] == 12.0f && o[2] == 13.0f && o[3] == 14.0f);
    kb_free(&k);
}
END_TEST

START_TEST(while_loop)
{
    /* i = 0, acc = 0; while i < n: acc += i; i = 2*i + 1 */
    kb k;
    kb_init(&k, "whilek");
    int64_t four = 4, one = 1;
    ir_value po = kb_tensor_arg(&k, "acc", tt_tensor_new("acc", TT_I32, 1, &four));
    ir_value pi = kb_tensor_arg(&k, "i", tt_tensor_new("i", TT_I32, 1, &one));
    ir_value n = kb_int_arg(&k, "n", TT_I32, 1000);
    ir_type it = ty(TT_I32), t = TYT(TT_I32, 4);
    ir_type types[2] = { it, t };
    ir_value inits[2] = { cint(&k, it, 0), range(&k, 0, 4) };
    int wi = ir_emit(&k.b, IR_WHILE, 2, types, 2, inits);
    int32_t before = ir_new_region(k.f, 2, types), after = ir_new_region(k.f, 2, types);
    ir_op_add_region(k.f, IR_BODY, wi, before);
    ir_op_add_region(k.f, IR_BODY, wi, after);
    ir_builder saved = k.b;
    k.b.region = before;
    ir_value bi = rarg(&k, before, 0), bacc = rarg(&k, before, 1);
    ir_value c = opa(&k, IR_CMPI, ty(TT_BOOL), CMPI_SLT, 0, 2, bi, n);
    op0(&k, IR_CONDITION, 3, c, bi, bacc);
    k.b.region = after;
    ir_value ai = rarg(&k, after, 0), aacc = rarg(&k, after, 1);
    ir_value ni = op(&k, IR_ADDI, it, 2, op(&k, IR_MULI, it, 2, ai, cint(&k, it, 2)), cint(&k, it, 1));
    op0(&k, IR_YIELD, 2, ni, op(&k, IR_ADDI, t, 2, aacc, splat(&k, ai, t)));
    k.b = saved;
    ir_value ri = ir_op_at(k.f, IR_BODY, wi)->res;
    store(&k, ptrs(&k, po, range(&k, 0, 4)), ri + 1, -1);
    store(&k, pi, ri, -1);
    ret(&k);
    ck_assert_int_eq(ir_verify(k.f), 0);
    ck_assert_int_eq(kb_run(&k, NULL, NULL, NULL), 0);
    int32_t i = 0, acc = 0;
    while (i < 1000) {
        acc += i;
        i = 2 * i + 1;
    }
    ck_assert_int_eq(((int32_t *)kb_tensor(&k, 1)->data)[0], i);
    for (int l = 0; l < 4; l++) ck_assert_int_eq(((int32_t *)kb_tensor(&k, 0)->data)[l], l + acc);
    kb_free(&k);
}
END_TEST

TCase *scf_tcase(void)
{
    TCase *tc = tcase_create("scf");
    tcase_add_test(tc, long_loop_bounded_memory);
    tcase_add_test(tc, swapped_carries_and_nesting);
    tcase_add_test(tc, if_by_program);
    tcase_add_test(tc, while_loop);
    return tc;
}
