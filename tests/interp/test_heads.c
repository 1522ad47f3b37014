/* test_heads.c — values left as row heads (CT_HEADS, interp/internal.h):
 * tt.addptr, arith.addi and tt.splat results whose readers need only lane 0
 * of each row. Each kernel here reaches a path that needs every lane (a
 * gather, a fault, a compare with a non-uniform tile, the debugger's view
 * of a value, the fused multiply-add) and is checked against a plain C
 * loop; the tests also assert that the heads path was taken, so that they
 * keep testing it. */
#include <math.h>
#include <string.h>

#include "internal.h"
#include "tinterp.h"

/* The first result of opcode opc in the kernel body, -1 if none. */
static ir_value first_of(kb *k, int opc)
{
    const ir_region *body = &k->f->regions.v[IR_BODY];
    for (int i = 0; i < body->nops; i++)
        if (body->ops[i].opc == opc) return body->ops[i].res;
    return -1;
}

/* After a launch the last program's values stay in the session: offsets,
 * pointers and the splat were left as heads, and interp_value_data gives
 * every lane (what the debugger prints). */
START_TEST(debugger_sees_every_lane)
{
    kb k;
    build_vadd(&k, 5000, 5000, 1024, true);
    interp_session *s = kb_session(&k, NULL);
    ck_assert_int_eq(interp_run_launch(s), 0);
    ir_value offs = first_of(&k, IR_ADDI), ptr = first_of(&k, IR_ADDPTR), spl = first_of(&k, IR_SPLAT);
    ck_assert(offs >= 0 && ptr >= 0 && spl >= 0);
    ck_assert(s->main.contig[offs] & CT_HEADS);
    ck_assert(s->main.contig[ptr] & CT_HEADS);
    ck_assert(s->main.contig[spl] & CT_HEADS);
    const int32_t *o = interp_value_data(s, offs), *sp = interp_value_data(s, spl);
    const uint64_t *pp = interp_value_data(s, ptr);
    uint64_t xbase = interp_buffer_base(s, 0);
    for (int i = 0; i < 1024; i++) {
        ck_assert_int_eq(o[i], 4096 + i);                 /* the last program is pid 4 */
        ck_assert_int_eq(sp[i], 4096);
        ck_assert(pp[i] == xbase + (uint64_t)(4096 + i) * 4);
    }
    ck_assert(!(s->main.contig[offs] & CT_HEADS));       /* filled in place */
    interp_session_free(s);
    kb_free(&k);
}
END_TEST

/* A store through a heads pointer that runs past its buffer takes the lane
 * path: the same lanes are reported and the others written. */
START_TEST(fault_through_heads)
{
    kb k;
    build_vadd(&k, 5000, 4000, 1024, true);
    interp_stats st;
    kb_run(&k, NULL, &st, NULL);
    ck_assert_int_eq(st.fault_lanes, 1000);             /* elements 4000..4999 */
    const float *out = kb_tensor(&k, 2)->data;
    for (int i = 0; i < 4000; i++) ck_assert(out[i] == (float)i * 0.5f + (float)(i % 97) - 40.0f);
    kb_free(&k);
}
END_TEST

/* Heads values read by the full paths: a compare of the offsets with a
 * loaded (non-uniform) tile, and a gather through the heads pointer tile
 * plus loaded offsets. out[i] = i < perm[i] ? x[i + perm[i]] : -1. */
START_TEST(full_paths_fill)
{
    kb k;
    kb_init(&k, "full");
    int64_t n = 64, nx = 128;
    tt_tensor *tx = tt_tensor_new("x", TT_F32, 1, &nx), *tp = tt_tensor_new("perm", TT_I32, 1, &n);
    for (int i = 0; i < nx; i++) ((float *)tx->data)[i] = (float)i * 3.0f;
    for (int i = 0; i < n; i++) ((int32_t *)tp->data)[i] = (i * 37) % 61;
    ir_value px = kb_tensor_arg(&k, "x", tx), pp = kb_tensor_arg(&k, "perm", tp);
    ir_value po = kb_tensor_arg(&k, "out", tt_tensor_new("out", TT_F32, 1, &n));
    ir_type t = TYT(TT_I32, 64);
    ir_value offs = op(&k, IR_ADDI, t, 2, splat(&k, cint(&k, ty(TT_I32), 0), t), range(&k, 0, 64));
    ir_value perm = load(&k, ptrs(&k, pp, offs), -1, -1);
    ir_value m = opa(&k, IR_CMPI, TYT(TT_BOOL, 64), CMPI_SLT, 0, 2, offs, perm);
    ir_value xp = ptrs(&k, px, offs);                  /* heads: a run */
    ir_value g = op(&k, IR_ADDPTR, TYPT(TT_F32, 64), 2, xp, perm);   /* run + non-uniform: lane path */
    ir_value v = load(&k, g, m, cflt(&k, TYT(TT_F32, 64), -1.0));
    store(&k, ptrs(&k, po, offs), v, -1);
    ret(&k);
    interp_stats st;
    ck_assert_int_eq(kb_run(&k, NULL, &st, NULL), 0);
    ck_assert_int_eq(st.fault_lanes, 0);
    const float *o = kb_tensor(&k, 2)->data;
    for (int i = 0; i < n; i++) {
        int pm = (i * 37) % 61;
        ck_assert_msg(o[i] == (i < pm ? (float)(i + pm) * 3.0f : -1.0f), "lane %d: %g", i, o[i]);
    }
    kb_free(&k);
}
END_TEST

/* A pointer splat that only a load reads (tl.load(tl.broadcast_to(x + pid,
 * ...))) is left as heads and reaches the load's row check, which reads
 * every pointer lane and so fills the splat first. Every lane loads x[pid],
 * against C. The unwritten lanes this once read are not observable here
 * (they are stale, not contiguous): `valgrind build/tests/interp/test_interp`
 * with CK_FORK=no reported them. */
START_TEST(load_of_a_pointer_splat)
{
    kb k;
    kb_init(&k, "psplat");
    int64_t nx = 8, n = 4 * 16;
    tt_tensor *tx = tt_tensor_new("x", TT_F32, 1, &nx);
    for (int i = 0; i < nx; i++) ((float *)tx->data)[i] = (float)i * 2.5f;
    ir_value px = kb_tensor_arg(&k, "x", tx);
    ir_value po = kb_tensor_arg(&k, "out", tt_tensor_new("out", TT_F32, 1, &n));
    ir_value xp = op(&k, IR_ADDPTR, typ(TT_F32), 2, px, pid(&k, 0));
    const int64_t sh[2] = { 4, 16 };
    ir_value spl = splat(&k, xp, typt_arr(TT_F32, 2, sh));
    ir_value v = load(&k, spl, -1, -1);
    ir_value o2 = offs2d(&k, 4, 16, 16);
    store(&k, op(&k, IR_ADDPTR, typt_arr(TT_F32, 2, sh), 2, splat(&k, po, typt_arr(TT_F32, 2, sh)), o2), v, -1);
    ret(&k);
    k.l.grid[0] = 3;                                   /* the last program loads x[2] */
    interp_session *s = kb_session(&k, NULL);
    ck_assert_int_eq(interp_run_launch(s), 0);
    ck_assert(s->heads_ok[spl]);                       /* the heads path: the splat's only reader is the load */
    const float *o = kb_tensor(&k, 1)->data;
    for (int i = 0; i < n; i++) ck_assert_msg(o[i] == 5.0f, "lane %d: %g", i, o[i]);
    interp_session_free(s);
    kb_free(&k);
}
END_TEST

/* f32 ops with a splat operand, left as heads, read it as a scalar per row
 * (either side, [4, 8] tiles); with NUMERICS_FAST a mulf by a splat feeds
 * an fma, which reads every lane. Against C in float. */
START_TEST(float_splat_operand)
{
    static const int opcs[4] = { IR_ADDF, IR_SUBF, IR_MULF, IR_DIVF };
    for (int oi = 0; oi < 4; oi++)
        for (int side = 0; side < 3; side++) {
            kb k;
            kb_init(&k, "fsplat");
            int64_t n = 32;
            tt_tensor *tx = tt_tensor_new("x", TT_F32, 1, &n);
            for (int i = 0; i < n; i++) ((float *)tx->data)[i] = (float)i * 0.75f - 9.0f;
            ir_value px = kb_tensor_arg(&k, "x", tx);
            ir_value po = kb_tensor_arg(&k, "out", tt_tensor_new("out", TT_F32, 1, &n));
            ir_value sv = kb_float_arg(&k, "s", 1.5);
            ir_type ft = TYT(TT_F32, 4, 8);
            ir_value offs = offs2d(&k, 4, 8, 8);
            ir_value x = load(&k, ptrs(&k, px, offs), -1, -1);
            ir_value sc = op(&k, IR_MULF, ty(TT_F32), 2, sv, sv);       /* 2.25: not an argument splat */
            ir_value sp = splat(&k, sc, ft), v;
            if (side == 2) {                                           /* x * s + x, fused when fast */
                v = op(&k, IR_ADDF, ft, 2, op(&k, IR_MULF, ft, 2, x, sp), x);
            } else {
                v = side ? op(&k, opcs[oi], ft, 2, sp, x) : op(&k, opcs[oi], ft, 2, x, sp);
            }
            store(&k, ptrs(&k, po, offs), v, -1);
            ret(&k);
            interp_options o;
            interp_options_default(&o);
            if (side == 2) o.numerics = oi & 1 ? NUMERICS_FAST : NUMERICS_IEEE;
            interp_stats st;
            ck_assert_int_eq(kb_run(&k, &o, &st, NULL), 0);
            const float *out = kb_tensor(&k, 1)->data;
            for (int i = 0; i < n; i++) {
                volatile float xv = (float)i * 0.75f - 9.0f, s = 2.25f, a = side == 1 ? s : xv, b = side == 1 ? xv : s;
                volatile float prod = xv * s;
                float want = side == 2 ? (oi & 1 ? fmaf(xv, s, xv) : prod + xv)
                             : oi == 0 ? a + b : oi == 1 ? a - b : oi == 2 ? a * b : a / b;
                ck_assert_msg(out[i] == want, "op %d side %d lane %d: %g want %g", oi, side, i, out[i], want);
            }
            kb_free(&k);
        }
}
END_TEST

/* arith.select with a condition whose rows are each all true or all false
 * (left as row heads) copies rows or takes an operand's tile; a bound in
 * the middle of a row takes the lane path. out = where(offs < K, x, 2 x)
 * over [4, 8] tiles, against C. */
START_TEST(select_uniform_rows)
{
    static const int32_t ks[6] = { 0, 8, 16, 20, 32, 40 };
    for (int ki = 0; ki < 6; ki++) {
        kb k;
        kb_init(&k, "sel");
        int64_t n = 32;
        tt_tensor *tx = tt_tensor_new("x", TT_F32, 1, &n);
        for (int i = 0; i < n; i++) ((float *)tx->data)[i] = (float)i - 7.5f;
        ir_value px = kb_tensor_arg(&k, "x", tx);
        ir_value po = kb_tensor_arg(&k, "out", tt_tensor_new("out", TT_F32, 1, &n));
        ir_value kv = kb_int_arg(&k, "K", TT_I32, ks[ki]);
        ir_type ft = TYT(TT_F32, 4, 8);
        ir_value offs = offs2d(&k, 4, 8, 8);
        ir_value x = load(&k, ptrs(&k, px, offs), -1, -1);
        ir_value m = opa(&k, IR_CMPI, TYT(TT_BOOL, 4, 8), CMPI_SLT, 0, 2, offs, splat(&k, kv, TYT(TT_I32, 4, 8)));
        ir_value v = op(&k, IR_SELECT, ft, 3, m, x, op(&k, IR_ADDF, ft, 2, x, x));
        store(&k, ptrs(&k, po, offs), v, -1);
        ret(&k);
        interp_session *s = kb_session(&k, NULL);
        ck_assert_int_eq(interp_run_launch(s), 0);
        ck_assert_int_eq((s->main.contig[m] & CT_HEADS) != 0, ks[ki] % 8 == 0);
        const float *o = kb_tensor(&k, 1)->data;
        for (int i = 0; i < n; i++) {
            float xv = (float)i - 7.5f;
            ck_assert_msg(o[i] == (i < ks[ki] ? xv : xv + xv), "K %d lane %d: %g", ks[ki], i, o[i]);
        }
        interp_session_free(s);
        kb_free(&k);
    }
}
END_TEST

TCase *heads_tcase(void)
{
    TCase *tc = tcase_create("heads");
    tcase_add_test(tc, debugger_sees_every_lane);
    tcase_add_test(tc, fault_through_heads);
    tcase_add_test(tc, full_paths_fill);
    tcase_add_test(tc, float_splat_operand);
    tcase_add_test(tc, load_of_a_pointer_splat);
    tcase_add_test(tc, select_uniform_rows);
    return tc;
}
