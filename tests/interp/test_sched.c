/* test_sched.c — the schedules run every program exactly once, and a
 * correct kernel gives identical results under each of them. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "tinterp.h"

enum { GX = 8, GY = 3, B = 64 };

/* out[(y*GX + x)*B + i] = in[...] * 2 + x - 10*y + num_programs(0) */
static void build_grid_kernel(kb *k)
{
    kb_init(k, "grid2d");
    int64_t n = GX * GY * B;
    tt_tensor *tin = tt_tensor_new("in", TT_F32, 1, &n);
    for (int64_t i = 0; i < n; i++) ((float *)tin->data)[i] = (float)(i % 101) * 0.5f;
    ir_value pin = kb_tensor_arg(k, "in", tin), po = kb_tensor_arg(k, "out", tt_tensor_new("out", TT_F32, 1, &n));
    ir_type it = ty(TT_I32), t = TYT(TT_I32, B), ft = TYT(TT_F32, B);
    ir_value x = pid(k, 0), y = pid(k, 1);
    ir_value np = opa(k, IR_GET_NPROG, it, 0, 0, 0);
    ir_value lin = op(k, IR_ADDI, it, 2, op(k, IR_MULI, it, 2, y, np), x);
    ir_value offs = op(k, IR_ADDI, t, 2, splat(k, op(k, IR_MULI, it, 2, lin, cint(k, it, B)), t), range(k, 0, B));
    ir_value v = load(k, ptrs(k, pin, offs), -1, -1);
    ir_value add = op(k, IR_ADDI, it, 2, op(k, IR_SUBI, it, 2, x, op(k, IR_MULI, it, 2, y, cint(k, it, 10))), np);
    ir_value r = op(k, IR_ADDF, ft, 2, op(k, IR_MULF, ft, 2, v, cflt(k, ft, 2.0)),
                    splat(k, op(k, IR_SITOFP, ty(TT_F32), 1, add), ft));
    store(k, ptrs(k, po, offs), r, -1);
    ret(k);
    k->l.grid[0] = GX;
    k->l.grid[1] = GY;
}

START_TEST(schedules_agree)
{
    kb k;
    build_grid_kernel(&k);
    ck_assert_int_eq(ir_verify(k.f), 0);
    ck_assert_int_eq(kb_run(&k, NULL, NULL, NULL), 0);
    int64_t n = GX * GY * B;
    float *ref = malloc((size_t)n * 4);
    memcpy(ref, kb_tensor(&k, 1)->data, (size_t)n * 4);
    const float *in = kb_tensor(&k, 0)->data;
    for (int y = 0; y < GY; y++)
        for (int x = 0; x < GX; x++)
            for (int i = 0; i < B; i++) {
                int64_t e = (int64_t)(y * GX + x) * B + i;
                ck_assert(ref[e] == in[e] * 2.0f + (float)(x - 10 * y + GX));
            }
    struct { interp_sched s; uint64_t seed; int threads; } cases[] = {
        { SCHED_REVERSE, 0, 0 }, { SCHED_RANDOM, 1, 0 }, { SCHED_RANDOM, 99, 0 },
        { SCHED_PARALLEL, 0, 0 }, { SCHED_PARALLEL, 0, 5 },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        memset(kb_tensor(&k, 1)->data, 0, (size_t)n * 4);
        interp_options o;
        interp_options_default(&o);
        o.sched = cases[c].s;
        o.sched_seed = cases[c].seed;
        o.threads = cases[c].threads;
        interp_stats st;
        ck_assert_int_eq(kb_run(&k, &o, &st, NULL), 0);
        ck_assert_int_eq(st.programs, GX * GY);
        ck_assert_int_eq(st.races, 0);
        ck_assert_msg(memcmp(ref, kb_tensor(&k, 1)->data, (size_t)n * 4) == 0, "schedule %zu differs", c);
    }
    free(ref);
    kb_free(&k);
}
END_TEST

static interp_hook_action abort_hook(void *user, interp_session *s, const interp_frame *fr)
{
    (void)user, (void)s, (void)fr;
    return HOOK_ABORT;
}

/* One session, many parallel launches: the pool's threads are kept while
 * the thread count stays (3, 3 and 24, 1000: clamped to the 24 programs)
 * and made anew when it changes; every launch runs every program on that
 * launch's inputs, and an aborted launch leaves no rc or abort behind. */
START_TEST(parallel_pool_across_launches)
{
    kb k;
    build_grid_kernel(&k);
    int64_t n = GX * GY * B;
    interp_options o;
    interp_options_default(&o);
    o.sched = SCHED_PARALLEL;
    interp_session *s = kb_session(&k, &o);
    float *in = kb_tensor(&k, 0)->data, *out = kb_tensor(&k, 1)->data;
    static const int threads[] = { 3, 3, 1, 5, 5, 2, 0, GX * GY, 1000, 4 };
    const interp_pool *prev = NULL;
    for (int c = 0; c < (int)(sizeof threads / sizeof threads[0]); c++) {
        s->o.threads = threads[c];
        for (int64_t i = 0; i < n; i++) in[i] = (float)((i * 7 + c * 13) % 101) - 50.0f;
        memset(out, 0xff, (size_t)n * 4);                  /* NaN: a program not run shows */
        if (c == 4) {
            interp_set_hook(s, abort_hook, NULL);
            interp_set_trap(s, true);
            ck_assert_int_eq(interp_run_launch(s), -1);
            interp_set_trap(s, false);
            interp_set_hook(s, NULL, NULL);
        }
        ck_assert_int_eq(interp_run_launch(s), 0);
        ck_assert_ptr_nonnull(s->pool);
        if (c > 0 && (threads[c] == threads[c - 1] || threads[c] == 1000)) ck_assert_ptr_eq(s->pool, prev);
        prev = s->pool;
        interp_stats st;
        interp_get_stats(s, &st);
        ck_assert_int_eq(st.programs, GX * GY);
        ck_assert_int_eq(st.races, 0);
        for (int y = 0; y < GY; y++)
            for (int x = 0; x < GX; x++)
                for (int i = 0; i < B; i++) {
                    int64_t e = (int64_t)(y * GX + x) * B + i;
                    ck_assert_msg(out[e] == in[e] * 2.0f + (float)(x - 10 * y + GX), "launch %d, element %ld", c,
                                  (long)e);
                }
    }
    interp_session_free(s);
    kb_free(&k);
}
END_TEST

START_TEST(schedules_differ_in_order)
{
    /* a racy kernel: every program writes its linear id to out[0]; the
     * schedules really run programs in different orders */
    int32_t last[3];
    for (int sc = 0; sc < 3; sc++) {
        kb k;
        kb_init(&k, "racy");
        int64_t one = 1;
        ir_value po = kb_tensor_arg(&k, "out", tt_tensor_new("out", TT_I32, 1, &one));
        ir_type it = ty(TT_I32);
        ir_value lin = op(&k, IR_ADDI, it, 2, op(&k, IR_MULI, it, 2, pid(&k, 1), cint(&k, it, 5)), pid(&k, 0));
        store(&k, po, lin, -1);
        ret(&k);
        k.l.grid[0] = 5;
        k.l.grid[1] = 4;
        interp_options o;
        interp_options_default(&o);
        o.sched = sc == 0 ? SCHED_IN_ORDER : sc == 1 ? SCHED_REVERSE : SCHED_RANDOM;
        o.sched_seed = 3;
        interp_stats st;
        ck_assert_int_eq(kb_run(&k, &o, &st, NULL), 0);
        ck_assert_int_eq(st.programs, 20);
        ck_assert_int_eq(st.races, 19);
        last[sc] = *(int32_t *)kb_tensor(&k, 0)->data;
        kb_free(&k);
    }
    ck_assert_int_eq(last[0], 19);
    ck_assert_int_eq(last[1], 0);
    ck_assert(last[2] >= 0 && last[2] < 20);
    ck_assert_int_eq(last[2], interp_sched_at(SCHED_RANDOM, 3, 20, 19));   /* the order is the shared one */
}
END_TEST

START_TEST(empty_grid_and_run_program)
{
    kb k;
    build_grid_kernel(&k);
    k.l.grid[1] = 0;
    interp_stats st;
    ck_assert_int_eq(kb_run(&k, NULL, &st, NULL), 0);
    ck_assert_int_eq(st.programs, 0);
    /* one program by hand */
    k.l.grid[1] = GY;
    interp_session *s = kb_session(&k, NULL);
    int64_t p[3] = { 2, 1, 0 };
    ck_assert_int_eq(interp_run_program(s, p), 0);
    interp_get_stats(s, &st);
    ck_assert_int_eq(st.programs, 1);
    const float *in = kb_tensor(&k, 0)->data, *out = kb_tensor(&k, 1)->data;
    int64_t e0 = (1 * GX + 2) * B;
    ck_assert(out[e0] == in[e0] * 2.0f + (float)(2 - 10 + GX));
    ck_assert(out[0] == 0.0f);
    interp_session_free(s);
    kb_free(&k);
}
END_TEST

/* The shared order: a permutation of [0, n) for every n (powers of four and
 * the sizes between them, where cycle-walking happens), reproducible from
 * the seed, different for different seeds; the grid helpers invert each
 * other and number x fastest. */
START_TEST(order_is_a_permutation)
{
    static const int64_t sizes[] = { 0, 1, 2, 3, 4, 5, 15, 16, 17, 63, 64, 65, 1000, 4096, 4097 };
    for (size_t c = 0; c < sizeof sizes / sizeof sizes[0]; c++) {
        int64_t n = sizes[c];
        for (int kind = 0; kind < 4; kind++) {
            interp_order o;
            interp_order_init(&o, (interp_sched)kind, 42, n);
            unsigned char *seen = calloc((size_t)n + 1, 1);
            int64_t fixed = 0;
            for (int64_t i = 0; i < n; i++) {
                int64_t v = interp_order_at(&o, i);
                ck_assert(v >= 0 && v < n && !seen[v]);
                seen[v] = 1;
                fixed += v == i;
                if (kind == SCHED_REVERSE) ck_assert_int_eq(v, n - 1 - i);
                if (kind == SCHED_IN_ORDER || kind == SCHED_PARALLEL) ck_assert_int_eq(v, i);
                ck_assert_int_eq(v, interp_sched_at((interp_sched)kind, 42, n, i));
            }
            if (kind == SCHED_RANDOM && n >= 64) ck_assert(fixed < n / 4);   /* really shuffled */
            free(seen);
        }
    }
    int differ = 0;
    for (int64_t i = 0; i < 64; i++) differ += interp_sched_at(SCHED_RANDOM, 1, 64, i) != interp_sched_at(SCHED_RANDOM, 2, 64, i);
    ck_assert_int_gt(differ, 32);
    int64_t grid[3] = { 5, 4, 3 };
    for (int64_t lin = 0; lin < 60; lin++) {
        int64_t p[3];
        interp_pid_of(grid, lin, p);
        ck_assert_int_eq(p[0], lin % 5);
        ck_assert_int_eq(p[1], lin / 5 % 4);
        ck_assert_int_eq(p[2], lin / 20);
        ck_assert_int_eq(interp_lin_of(grid, p), lin);
    }
}
END_TEST

TCase *sched_tcase(void)
{
    TCase *tc = tcase_create("sched");
    tcase_add_test(tc, schedules_agree);
    tcase_add_test(tc, parallel_pool_across_launches);
    tcase_add_test(tc, schedules_differ_in_order);
    tcase_add_test(tc, empty_grid_and_run_program);
    tcase_add_test(tc, order_is_a_permutation);
    return tc;
}
