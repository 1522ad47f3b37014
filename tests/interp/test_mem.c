/* test_mem.c — loads, stores, masks, pointers, atomics and the memory
 * queries (interp_resolve, interp_buffer_base, interp_last_writer). */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "internal.h"
#include "tinterp.h"

START_TEST(vector_add)
{
    kb k;
    build_vadd(&k, 5000, 5000, 1024, true);
    ck_assert_int_eq(ir_verify(k.f), 0);
    interp_stats st;
    ck_assert_int_eq(kb_run(&k, NULL, &st, NULL), 0);
    ck_assert_int_eq(st.programs, 5);
    ck_assert_int_eq(st.faults, 0);
    ck_assert_int_eq(st.races, 0);
    const float *x = kb_tensor(&k, 0)->data, *y = kb_tensor(&k, 1)->data, *o = kb_tensor(&k, 2)->data;
    for (int i = 0; i < 5000; i++) ck_assert(o[i] == x[i] + y[i]);
    kb_free(&k);
}
END_TEST

START_TEST(masked_load_other)
{
    /* 10 elements, 16 lanes: lanes 10..15 are masked out (and would be out
     * of bounds): they read `other` (-7) or 0 and are never reported */
    for (int with_other = 0; with_other < 2; with_other++) {
        kb k;
        kb_init(&k, "masked");
        int64_t n = 10, m = 16;
        tt_tensor *tx = tt_tensor_new("x", TT_F32, 1, &n);
        for (int i = 0; i < 10; i++) ((float *)tx->data)[i] = (float)i + 1.0f;
        ir_value px = kb_tensor_arg(&k, "x", tx);
        ir_value po = kb_tensor_arg(&k, "out", tt_tensor_new("out", TT_F32, 1, &m));
        ir_value r = range(&k, 0, 16);
        ir_value mask = opa(&k, IR_CMPI, TYT(TT_BOOL, 16), CMPI_SLT, 0, 2, r, cint(&k, TYT(TT_I32, 16), 10));
        ir_value other = with_other ? cflt(&k, TYT(TT_F32, 16), -7.0) : -1;
        ir_value v = load(&k, ptrs(&k, px, r), mask, other);
        store(&k, ptrs(&k, po, r), v, -1);
        ret(&k);
        interp_stats st;
        ck_assert_int_eq(kb_run(&k, NULL, &st, NULL), 0);
        ck_assert_int_eq(st.faults, 0);
        ck_assert_int_eq(st.fault_lanes, 0);
        const float *o = kb_tensor(&k, 1)->data;
        for (int i = 0; i < 16; i++) ck_assert(o[i] == (i < 10 ? (float)i + 1.0f : with_other ? -7.0f : 0.0f));
        kb_free(&k);
    }
}
END_TEST

START_TEST(all_masked_garbage_pointer)
{
    /* a tile of garbage pointers with an all-false mask is never resolved */
    kb k;
    kb_init(&k, "garbage");
    int64_t m = 8;
    ir_value po = kb_tensor_arg(&k, "out", tt_tensor_new("out", TT_I32, 1, &m));
    ir_value r = range(&k, 0, 8);
    ir_value addr = op(&k, IR_EXTSI, TYT(TT_I64, 8), 1, r);
    ir_value p = op(&k, IR_INT_TO_PTR, TYPT(TT_I32, 8), 1, addr);
    ir_value f = cint(&k, TYT(TT_BOOL, 8), 0);
    ir_value v = load(&k, p, f, -1);
    store(&k, p, v, f);
    store(&k, ptrs(&k, po, r), v, -1);
    ret(&k);
    interp_stats st;
    ck_assert_int_eq(kb_run(&k, NULL, &st, NULL), 0);
    ck_assert_int_eq(st.faults, 0);
    kb_free(&k);
}
END_TEST

START_TEST(scalar_and_int_ptr)
{
    /* out[0] = *(x + 3) via ptr_to_int / int_to_ptr, out[1] = x[5] (scalar
     * pointer arithmetic with an i64 offset), bool round trip */
    kb k;
    kb_init(&k, "scalar");
    int64_t n = 8, two = 2, nb = 4;
    tt_tensor *tx = tt_tensor_new("x", TT_F32, 1, &n);
    for (int i = 0; i < 8; i++) ((float *)tx->data)[i] = (float)(i * i);
    tt_tensor *tb = tt_tensor_new("b", TT_BOOL, 1, &nb);
    ((uint8_t *)tb->data)[1] = 1;
    ((uint8_t *)tb->data)[2] = 7;      /* any non-zero byte reads as true */
    ir_value px = kb_tensor_arg(&k, "x", tx), po = kb_tensor_arg(&k, "out", tt_tensor_new("out", TT_F32, 1, &two));
    ir_value pb = kb_tensor_arg(&k, "b", tb), pbo = kb_tensor_arg(&k, "bout", tt_tensor_new("bout", TT_BOOL, 1, &nb));
    ir_value xi = op(&k, IR_PTR_TO_INT, ty(TT_I64), 1, px);
    ir_value xi3 = op(&k, IR_ADDI, ty(TT_I64), 2, xi, cint(&k, ty(TT_I64), 12));
    ir_value p3 = op(&k, IR_INT_TO_PTR, typ(TT_F32), 1, xi3);
    ir_value v3 = load(&k, p3, -1, -1);
    store(&k, po, v3, -1);
    ir_value v5 = load(&k, op(&k, IR_ADDPTR, typ(TT_F32), 2, px, cint(&k, ty(TT_I64), 5)), -1, -1);
    store(&k, op(&k, IR_ADDPTR, typ(TT_F32), 2, po, cint(&k, ty(TT_I32), 1)), v5, -1);
    ir_value r = range(&k, 0, 4);
    ir_value bv = load(&k, ptrs(&k, pb, r), -1, -1);
    ir_value nb_ = op(&k, IR_XORI, TYT(TT_BOOL, 4), 2, bv, cint(&k, TYT(TT_BOOL, 4), 1));
    store(&k, ptrs(&k, pbo, r), nb_, -1);
    ret(&k);
    ck_assert_int_eq(ir_verify(k.f), 0);
    interp_stats st;
    ck_assert_int_eq(kb_run(&k, NULL, &st, NULL), 0);
    ck_assert_int_eq(st.faults, 0);
    const float *o = kb_tensor(&k, 1)->data;
    ck_assert(o[0] == 9.0f);
    ck_assert(o[1] == 25.0f);
    const uint8_t *bo = kb_tensor(&k, 3)->data;
    ck_assert(bo[0] == 1 && bo[1] == 0 && bo[2] == 0 && bo[3] == 1);
    kb_free(&k);
}
END_TEST

START_TEST(queries)
{
    kb k;
    build_vadd(&k, 5000, 5000, 1024, true);
    interp_session *s = kb_session(&k, NULL);
    ck_assert_int_eq(interp_run_launch(s), 0);
    uint64_t bx = interp_buffer_base(s, 0), bo = interp_buffer_base(s, 2);
    ck_assert(bx != 0 && bo != 0);
    ck_assert_uint_eq(bx % 4096, 0);
    ck_assert_uint_eq(bo % 4096, 0);
    ck_assert_uint_eq(interp_buffer_base(s, 3), 0);          /* n is not a tensor */
    /* guard gap: the byte after a buffer's end resolves to nothing */
    ck_assert(!interp_resolve(s, bx + 5000 * 4, NULL, NULL));
    ck_assert(!interp_resolve(s, bx - 1, NULL, NULL));
    int arg;
    int64_t e;
    ck_assert(interp_resolve(s, bo + 17 * 4, &arg, &e));
    ck_assert_int_eq(arg, 2);
    ck_assert_int_eq(e, 17);
    int64_t prog;
    int32_t loc;
    ck_assert(interp_last_writer(s, 2, 4100, &prog, &loc));
    ck_assert_int_eq(prog, 4);
    ck_assert(loc >= 0);
    ck_assert_int_eq(k.f->locs.v[loc].line, 8);
    ck_assert(interp_last_writer(s, 2, 0, &prog, NULL));
    ck_assert_int_eq(prog, 0);
    ck_assert(!interp_last_writer(s, 0, 0, &prog, NULL));    /* x is never written */
    ck_assert(!interp_last_writer(s, 2, 5000, &prog, NULL));  /* out of range */
    interp_session_free(s);
    kb_free(&k);
}
END_TEST

/* counter[0] += 1 per lane of a [256] tile of pointers to the same element
 * and counter[1] += 1 once per program through a scalar pointer; fcount
 * gets 0.5 per lane. */
static void build_atomics(kb *k, int64_t programs)
{
    kb_init(k, "atomics");
    int64_t two = 2;
    ir_value pc = kb_tensor_arg(k, "counter", tt_tensor_new("counter", TT_I32, 1, &two));
    ir_value pf = kb_tensor_arg(k, "fcount", tt_tensor_new("fcount", TT_F32, 1, &two));
    ir_type t = TYT(TT_I32, 256);
    ir_value zeros = cint(k, t, 0);
    ir_value old = opa(k, IR_ATOMIC_RMW, t, RMW_ADD, SEM_ACQ_REL, 2, ptrs(k, pc, zeros), cint(k, t, 1));
    (void)old;
    opa(k, IR_ATOMIC_RMW, ty(TT_I32), RMW_ADD, SEM_ACQ_REL, 2,
        op(k, IR_ADDPTR, typ(TT_I32), 2, pc, cint(k, ty(TT_I32), 1)), cint(k, ty(TT_I32), 1));
    opa(k, IR_ATOMIC_RMW, TYT(TT_F32, 256), RMW_FADD, SEM_ACQ_REL, 2, ptrs(k, pf, zeros),
        cflt(k, TYT(TT_F32, 256), 0.5));
    /* max of pids in fcount[1] (as float) */
    ir_value pf1 = op(k, IR_ADDPTR, typ(TT_F32), 2, pf, cint(k, ty(TT_I32), 1));
    opa(k, IR_ATOMIC_RMW, ty(TT_F32), RMW_MAX, SEM_ACQ_REL, 2, pf1, op(k, IR_SITOFP, ty(TT_F32), 1, pid(k, 0)));
    ret(k);
    k->l.grid[0] = programs;
}

/* The row facts (CT_*, internal.h) let tt.addptr compute a row from its
 * first lane; these kernels would give other addresses if a fact were
 * claimed that does not hold. The addresses are read back through
 * tt.ptr_to_int and compared with the wrapped int32 sums computed here. */
START_TEST(row_facts_exact)
{
    int64_t n = 8;
    for (int variant = 0; variant < 3; variant++) {
        kb k;
        kb_init(&k, "facts");
        tt_tensor *tx = tt_tensor_new("x", TT_F32, 1, &n);
        ir_value px = kb_tensor_arg(&k, "x", tx);
        ir_value po = kb_tensor_arg(&k, "out", tt_tensor_new("out", TT_I64, 1, &n));
        /* 0: splat(K) + range wraps past INT32_MAX in the middle of the row;
         * 1: range + range is no run (0, 2, 4, ...);  2: range + splat(K) is */
        int32_t K = variant == 0 ? INT32_MAX - 3 : 5;
        ir_value kv = kb_int_arg(&k, "K", TT_I32, K);
        ir_value r = range(&k, 0, 8), sk = splat(&k, kv, TYT(TT_I32, 8));
        ir_value offs = variant == 1 ? op(&k, IR_ADDI, TYT(TT_I32, 8), 2, r, range(&k, 0, 8))
                                     : variant == 0 ? op(&k, IR_ADDI, TYT(TT_I32, 8), 2, sk, r)
                                                    : op(&k, IR_ADDI, TYT(TT_I32, 8), 2, r, sk);
        ir_value pi = op(&k, IR_PTR_TO_INT, TYT(TT_I64, 8), 1, ptrs(&k, px, offs));
        ir_value base = splat(&k, op(&k, IR_PTR_TO_INT, ty(TT_I64), 1, px), TYT(TT_I64, 8));
        store(&k, ptrs(&k, po, range(&k, 0, 8)), op(&k, IR_SUBI, TYT(TT_I64, 8), 2, pi, base), -1);
        ret(&k);
        interp_stats st;
        ck_assert_int_eq(kb_run(&k, NULL, &st, NULL), 0);
        ck_assert_int_eq(st.overflows, variant == 0);       /* the wrap is still reported */
        const int64_t *o = kb_tensor(&k, 1)->data;
        for (int c = 0; c < 8; c++) {
            int64_t off = variant == 1 ? 2 * c : (int32_t)((uint32_t)K + (uint32_t)c);
            ck_assert_int_eq(o[c], off * 4);
        }
        kb_free(&k);
    }
}
END_TEST

/* A run compared with a uniform row is a prefix or a suffix of true lanes
 * (eval_arith.c, cmpi_rows); checked through arith.select against C. */
START_TEST(row_facts_compare)
{
    static const int preds[4] = { CMPI_SLT, CMPI_SLE, CMPI_SGT, CMPI_SGE };
    static const int32_t ks[5] = { -5, 10, 13, 17, 40 };
    for (int pi = 0; pi < 4; pi++)
        for (int swap = 0; swap < 2; swap++)
            for (int ki = 0; ki < 5; ki++) {
                kb k;
                kb_init(&k, "cmp");
                int64_t n = 8;
                ir_value po = kb_tensor_arg(&k, "out", tt_tensor_new("out", TT_I32, 1, &n));
                ir_value kv = kb_int_arg(&k, "K", TT_I32, ks[ki]);
                ir_type t = TYT(TT_I32, 8), tb = TYT(TT_BOOL, 8);
                ir_value r = range(&k, 10, 18), sk = splat(&k, kv, t);
                ir_value m = swap ? opa(&k, IR_CMPI, tb, preds[pi], 0, 2, sk, r)
                                  : opa(&k, IR_CMPI, tb, preds[pi], 0, 2, r, sk);
                ir_value v = op(&k, IR_SELECT, t, 3, m, cint(&k, t, 7), cint(&k, t, -1));
                store(&k, ptrs(&k, po, range(&k, 0, 8)), v, -1);
                ret(&k);
                interp_stats st;
                ck_assert_int_eq(kb_run(&k, NULL, &st, NULL), 0);
                const int32_t *o = kb_tensor(&k, 0)->data;
                for (int c = 0; c < 8; c++) {
                    int32_t x = swap ? ks[ki] : 10 + c, y = swap ? 10 + c : ks[ki];
                    bool want = pi == 0 ? x < y : pi == 1 ? x <= y : pi == 2 ? x > y : x >= y;
                    ck_assert_msg(o[c] == (want ? 7 : -1), "pred %d swap %d K %d lane %d: %d", pi, swap, ks[ki], c, o[c]);
                }
                kb_free(&k);
            }
}
END_TEST

/* A mask whose rows are each all true or all false (cmpi of row runs
 * against a bound at a row boundary) is not scanned by loads and stores
 * (eval_mem.c, row_mask); rows cut in the middle still are. out = where(
 * offs < K, x[offs], -1) over a [4, 8] tile, then stored under the same
 * mask into y, against C; with x of 24 elements the fourth row is out of
 * bounds and must still be reported lane by lane when its mask is on. */
START_TEST(mask_rows_uniform)
{
    static const int32_t ks[6] = { 0, 16, 20, 32, 5, 31 };
    for (int small = 0; small < 2; small++)
        for (int ki = 0; ki < 6; ki++) {
            kb k;
            kb_init(&k, "maskrows");
            int64_t nx = small ? 24 : 32, n = 32;
            tt_tensor *tx = tt_tensor_new("x", TT_F32, 1, &nx);
            for (int i = 0; i < nx; i++) ((float *)tx->data)[i] = (float)i * 0.5f + 1.0f;
            ir_value px = kb_tensor_arg(&k, "x", tx);
            ir_value po = kb_tensor_arg(&k, "out", tt_tensor_new("out", TT_F32, 1, &n));
            ir_value py = kb_tensor_arg(&k, "y", tt_tensor_new("y", TT_F32, 1, &n));
            ir_value kv = kb_int_arg(&k, "K", TT_I32, ks[ki]);
            ir_type t = TYT(TT_I32, 4, 8);
            ir_value offs = offs2d(&k, 4, 8, 8);
            ir_value m = opa(&k, IR_CMPI, TYT(TT_BOOL, 4, 8), CMPI_SLT, 0, 2, offs, splat(&k, kv, t));
            ir_value v = load(&k, ptrs(&k, px, offs), m, cflt(&k, TYT(TT_F32, 4, 8), -1.0));
            store(&k, ptrs(&k, po, offs), v, -1);
            store(&k, ptrs(&k, py, offs), v, m);
            ret(&k);
            for (int i = 0; i < n; i++) ((float *)kb_tensor(&k, 2)->data)[i] = 99.0f;
            interp_stats st;
            kb_run(&k, NULL, &st, NULL);
            int64_t want_faults = 0;
            for (int i = 0; i < n; i++)
                want_faults += i < ks[ki] && i >= nx;
            ck_assert_msg(st.fault_lanes == want_faults, "K %d nx %d: %lld fault lanes", ks[ki], (int)nx,
                          (long long)st.fault_lanes);
            const float *o = kb_tensor(&k, 1)->data, *y = kb_tensor(&k, 2)->data;
            for (int i = 0; i < n; i++) {
                float want = i < ks[ki] && i < nx ? (float)i * 0.5f + 1.0f : -1.0f;
                ck_assert_msg(o[i] == want, "K %d nx %d lane %d: %g", ks[ki], (int)nx, i, o[i]);
                ck_assert_msg(y[i] == (i < ks[ki] ? want : 99.0f), "K %d y lane %d: %g", ks[ki], i, y[i]);
            }
            kb_free(&k);
        }
}
END_TEST

START_TEST(atomics_parallel)
{
    for (int sched = SCHED_IN_ORDER; sched <= SCHED_PARALLEL; sched++) {
        kb k;
        build_atomics(&k, 200);
        interp_options o;
        interp_options_default(&o);
        o.sched = (interp_sched)sched;
        o.threads = 4;
        o.sched_seed = 7;
        interp_stats st;
        ck_assert_int_eq(kb_run(&k, &o, &st, NULL), 0);
        ck_assert_int_eq(st.programs, 200);
        ck_assert_int_eq(st.faults, 0);
        ck_assert_int_eq(st.races, 0);                      /* atomics don't race */
        const int32_t *c = kb_tensor(&k, 0)->data;
        const float *f = kb_tensor(&k, 1)->data;
        ck_assert_int_eq(c[0], 200 * 256);
        ck_assert_int_eq(c[1], 200);                        /* scalar: once per program */
        ck_assert(f[0] == 200 * 256 * 0.5f);                /* exact: multiples of 0.5 */
        ck_assert(f[1] == 199.0f);
        kb_free(&k);
    }
}
END_TEST

START_TEST(atomic_old_values_and_cas)
{
    /* one program: atomic_xchg returns the old values, atomic_cas swaps
     * only where the comparison holds, masked lanes do nothing */
    kb k;
    kb_init(&k, "cas");
    int64_t n = 4;
    tt_tensor *tb = tt_tensor_new("buf", TT_I32, 1, &n);
    int32_t init[4] = { 10, 20, 30, 40 };
    memcpy(tb->data, init, 16);
    ir_value pb = kb_tensor_arg(&k, "buf", tb);
    ir_value po = kb_tensor_arg(&k, "old", tt_tensor_new("old", TT_I32, 1, &n));
    ir_value po2 = kb_tensor_arg(&k, "old2", tt_tensor_new("old2", TT_I32, 1, &n));
    ir_value r = range(&k, 0, 4);
    ir_type t = TYT(TT_I32, 4);
    ir_value mask = opa(&k, IR_CMPI, TYT(TT_BOOL, 4), CMPI_NE, 0, 2, r, cint(&k, t, 3));
    ir_value old = opa(&k, IR_ATOMIC_RMW, t, RMW_XCHG, SEM_ACQ_REL, 3, ptrs(&k, pb, r), op(&k, IR_MULI, t, 2, r, cint(&k, t, 2)), mask);
    store(&k, ptrs(&k, po, r), old, mask);
    /* buf is now {0, 2, 4, 40}; cas(buf, cmp={0, 5, 4, 40}, val=100+i) */
    ir_value cmpv = op(&k, IR_MULI, t, 2, r, cint(&k, t, 2));
    cmpv = op(&k, IR_SELECT, t, 3, opa(&k, IR_CMPI, TYT(TT_BOOL, 4), CMPI_EQ, 0, 2, r, cint(&k, t, 1)), cint(&k, t, 5), cmpv);
    cmpv = op(&k, IR_SELECT, t, 3, opa(&k, IR_CMPI, TYT(TT_BOOL, 4), CMPI_EQ, 0, 2, r, cint(&k, t, 3)), cint(&k, t, 40), cmpv);
    ir_value old2 = opa(&k, IR_ATOMIC_CAS, t, SEM_ACQ_REL, SCOPE_GPU, 3, ptrs(&k, pb, r), cmpv,
                        op(&k, IR_ADDI, t, 2, r, cint(&k, t, 100)));
    store(&k, ptrs(&k, po2, r), old2, -1);
    ret(&k);
    ck_assert_int_eq(ir_verify(k.f), 0);
    ck_assert_int_eq(kb_run(&k, NULL, NULL, NULL), 0);
    const int32_t *b = kb_tensor(&k, 0)->data, *o = kb_tensor(&k, 1)->data, *o2 = kb_tensor(&k, 2)->data;
    ck_assert(o[0] == 10 && o[1] == 20 && o[2] == 30);
    ck_assert(o2[0] == 0 && o2[1] == 2 && o2[2] == 4 && o2[3] == 40);
    ck_assert(b[0] == 100 && b[1] == 2 && b[2] == 102 && b[3] == 103);
    kb_free(&k);
}
END_TEST

/* A spin lock as in Triton's layer-norm backward (tutorial 05): each program
 * takes lock[0] with atomic_cas, increments counter[0] with a plain load and
 * store, and releases the lock with atomic_xchg. Exact under every
 * schedule, and the plain accesses under the lock are not races. */
START_TEST(spin_lock)
{
    for (int sched = SCHED_IN_ORDER; sched <= SCHED_PARALLEL; sched++) {
        kb k;
        kb_init(&k, "locked");
        int64_t one = 1;
        ir_value pl = kb_tensor_arg(&k, "lock", tt_tensor_new("lock", TT_I32, 1, &one));
        ir_value pc = kb_tensor_arg(&k, "counter", tt_tensor_new("counter", TT_F32, 1, &one));
        ir_type it = ty(TT_I32), bt = ty(TT_BOOL);
        /* while atomic_cas(lock, 0, 1) == 1: pass */
        int wi = ir_emit(&k.b, IR_WHILE, 0, NULL, 0, NULL);
        int32_t before = ir_new_region(k.f, 0, NULL), after = ir_new_region(k.f, 0, NULL);
        ir_op_add_region(k.f, IR_BODY, wi, before);
        ir_op_add_region(k.f, IR_BODY, wi, after);
        ir_builder saved = k.b;
        k.b.region = before;
        ir_value old = opa(&k, IR_ATOMIC_CAS, it, SEM_ACQUIRE, SCOPE_GPU, 3, pl, cint(&k, it, 0), cint(&k, it, 1));
        op0(&k, IR_CONDITION, 1, opa(&k, IR_CMPI, bt, CMPI_EQ, 0, 2, old, cint(&k, it, 1)));
        k.b.region = after;
        op0(&k, IR_YIELD, 0);
        k.b = saved;
        ir_value v = load(&k, pc, -1, -1);
        store(&k, pc, op(&k, IR_ADDF, ty(TT_F32), 2, v, cflt(&k, ty(TT_F32), 1.0)), -1);
        opa(&k, IR_ATOMIC_RMW, it, RMW_XCHG, SEM_RELEASE, 2, pl, cint(&k, it, 0));
        ret(&k);
        k.l.grid[0] = 64;
        ck_assert_int_eq(ir_verify(k.f), 0);
        interp_options o;
        interp_options_default(&o);
        o.sched = (interp_sched)sched;
        o.threads = 4;
        interp_stats st;
        ck_assert_int_eq(kb_run(&k, &o, &st, NULL), 0);
        ck_assert_int_eq(st.races, 0);
        ck_assert_int_eq(st.faults, 0);
        ck_assert(*(float *)kb_tensor(&k, 1)->data == 64.0f);
        ck_assert_int_eq(*(int32_t *)kb_tensor(&k, 0)->data, 0);
        kb_free(&k);
    }
}
END_TEST

TCase *mem_tcase(void)
{
    TCase *tc = tcase_create("mem");
    tcase_add_test(tc, vector_add);
    tcase_add_test(tc, masked_load_other);
    tcase_add_test(tc, all_masked_garbage_pointer);
    tcase_add_test(tc, scalar_and_int_ptr);
    tcase_add_test(tc, queries);
    tcase_add_test(tc, row_facts_exact);
    tcase_add_test(tc, row_facts_compare);
    tcase_add_test(tc, mask_rows_uniform);
    tcase_add_test(tc, atomics_parallel);
    tcase_add_test(tc, atomic_old_values_and_cas);
    tcase_add_test(tc, spin_lock);
    return tc;
}
