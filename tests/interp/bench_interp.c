/* bench_interp.c — micro benchmark of the interpreter (not a test):
 * vector add 2^20 f32 (BLOCK 1024, 1024 programs), softmax 1024x1024 f32
 * (one row per program), matmul 256^3 f16 with 64x64x32 tiles, each with
 * hand-built IR shaped like the Triton tutorials' kernels.
 *
 *   meson test -C BUILD --benchmark --suite interp   (or run bench_interp) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tinterp.h"

/* cpu_seconds (support.h, the process's CPU time): steadier than wall
 * time on a shared machine (the parallel schedule is timed by wall clock). */

/* Best time of the second and later launches of one session: no first
 * touch of shadow and tile memory. */
static double best_reused(kb *k, const interp_options *o, int reps)
{
    interp_session *s = interp_session_new(k->f, &k->l, o);
    if (!s) abort();
    double best = 1e9;
    bool wall = o->sched == SCHED_PARALLEL;
    for (int r = 0; r <= reps; r++) {
        double t0 = wall ? now_seconds() : cpu_seconds();
        interp_run_launch(s);
        double t = (wall ? now_seconds() : cpu_seconds()) - t0;
        if (r > 0 && t < best) best = t;
    }
    interp_session_free(s);
    return best;
}

/* Best time of a launch in a fresh session (as `tritium run` does). */
static double best_of(kb *k, const interp_options *o, int reps)
{
    double best = 1e9;
    for (int r = 0; r < reps; r++) {
        interp_session *s = interp_session_new(k->f, &k->l, o);
        if (!s) abort();
        bool wall = o->sched == SCHED_PARALLEL;
        double t0 = wall ? now_seconds() : cpu_seconds();
        interp_run_launch(s);
        double t = (wall ? now_seconds() : cpu_seconds()) - t0;
        interp_stats st;
        interp_get_stats(s, &st);
        if (st.faults || st.races) fprintf(stderr, "bench: unexpected faults/races\n");
        interp_session_free(s);
        if (t < best) best = t;
    }
    return best;
}

static void build_softmax(kb *k, int64_t rows, int64_t cols)
{
    kb_init(k, "softmax");
    int64_t n = rows * cols;
    tt_tensor *tx = tt_tensor_new("x", TT_F32, 1, &n);
    for (int64_t i = 0; i < n; i++) ((float *)tx->data)[i] = (float)((i * 7919) % 1000) / 250.0f - 2.0f;
    ir_value po = kb_tensor_arg(k, "out", tt_tensor_new("out", TT_F32, 1, &n));
    ir_value px = kb_tensor_arg(k, "x", tx);
    ir_value stride = kb_int_arg(k, "stride", TT_I32, cols);
    ir_value ncols = kb_int_arg(k, "n_cols", TT_I32, cols);
    ir_type it = ty(TT_I32), t = TYT(TT_I32, cols), ft = TYT(TT_F32, cols), f1 = ty(TT_F32);
    ir_value row = pid(k, 0);
    ir_value start = op(k, IR_MULI, it, 2, row, stride);
    ir_value r = range(k, 0, cols);
    ir_value offs = op(k, IR_ADDI, t, 2, splat(k, start, t), r);
    ir_value mask = opa(k, IR_CMPI, TYT(TT_BOOL, cols), CMPI_SLT, 0, 2, r, splat(k, ncols, t));
    ir_value x = load(k, ptrs(k, px, offs), mask, cflt(k, ft, -INFINITY));
    ir_value mx = opa(k, IR_REDUCE, f1, 0, RED_MAX, 1, x);
    ir_value z = op(k, IR_SUBF, ft, 2, x, splat(k, mx, ft));
    ir_value e = op(k, IR_EXP, ft, 1, z);
    ir_value sum = opa(k, IR_REDUCE, f1, 0, RED_ADD, 1, e);
    ir_value y = op(k, IR_DIVF, ft, 2, e, splat(k, sum, ft));
    store(k, ptrs(k, po, offs), y, mask);
    ret(k);
    k->l.grid[0] = rows;
}

/* C = A @ B, f16 in, f32 accumulate, f16 out; program (m, n) tile */
static void build_matmul(kb *k, int64_t M, int64_t N, int64_t K, int64_t BM, int64_t BN, int64_t BK)
{
    kb_init(k, "matmul");
    int64_t na = M * K, nb = K * N, nc = M * N;
    tt_tensor *ta = tt_tensor_new("a", TT_F16, 1, &na), *tb = tt_tensor_new("b", TT_F16, 1, &nb);
    for (int64_t i = 0; i < na; i++) ((uint16_t *)ta->data)[i] = f2h((float)((i * 31) % 17) / 8.0f - 1.0f);
    for (int64_t i = 0; i < nb; i++) ((uint16_t *)tb->data)[i] = f2h((float)((i * 17) % 13) / 6.0f - 1.0f);
    ir_value pa = kb_tensor_arg(k, "a", ta), pb = kb_tensor_arg(k, "b", tb);
    ir_value pc = kb_tensor_arg(k, "c", tt_tensor_new("c", TT_F16, 1, &nc));
    ir_type it = ty(TT_I32);
    ir_value p = pid(k, 0);
    ir_value tiles_n = cint(k, it, N / BN);
    ir_value tm = op(k, IR_DIVSI, it, 2, p, tiles_n), tn = op(k, IR_REMSI, it, 2, p, tiles_n);
    /* a_ptrs = a + (tm*BM + i)*K + kk ; b_ptrs = b + kk*N + tn*BN + j */
    ir_value aoff = op(k, IR_ADDI, TYT(TT_I32, BM, BK), 2, offs2d(k, BM, BK, K),
                       splat(k, op(k, IR_MULI, it, 2, tm, cint(k, it, BM * K)), TYT(TT_I32, BM, BK)));
    ir_value boff = op(k, IR_ADDI, TYT(TT_I32, BK, BN), 2, offs2d(k, BK, BN, N),
                       splat(k, op(k, IR_MULI, it, 2, tn, cint(k, it, BN)), TYT(TT_I32, BK, BN)));
    ir_value ap0 = ptrs(k, pa, aoff), bp0 = ptrs(k, pb, boff);
    ir_value acc0 = cflt(k, TYT(TT_F32, BM, BN), 0.0);
    ir_type types[4] = { it, TYT(TT_F32, BM, BN), ir_value_type(k->f, ap0), ir_value_type(k->f, bp0) };
    int32_t body = ir_new_region(k->f, 4, types);
    ir_value lb = cint(k, it, 0), ub = cint(k, it, K / BK), st = cint(k, it, 1);
    int fi = ir_emit(&k->b, IR_FOR, 3, types + 1, 6, (ir_value[]){ lb, ub, st, acc0, ap0, bp0 });
    ir_op_add_region(k->f, IR_BODY, fi, body);
    ir_builder saved = k->b;
    k->b.region = body;
    ir_value acc = k->f->regions.v[body].args[1], ap = k->f->regions.v[body].args[2], bp = k->f->regions.v[body].args[3];
    ir_value a = load(k, ap, -1, -1), b = load(k, bp, -1, -1);
    ir_value d = opa(k, IR_DOT, types[1], PREC_TF32, 0, 3, a, b, acc);
    ir_value an = op(k, IR_ADDPTR, types[2], 2, ap, cint(k, TYT(TT_I32, BM, BK), BK));
    ir_value bn = op(k, IR_ADDPTR, types[3], 2, bp, cint(k, TYT(TT_I32, BK, BN), BK * N));
    op0(k, IR_YIELD, 3, d, an, bn);
    k->b = saved;
    ir_value res = ir_op_at(k->f, IR_BODY, fi)->res;
    ir_value c16 = op(k, IR_TRUNCF, TYT(TT_F16, BM, BN), 1, res);
    ir_value coff = op(k, IR_ADDI, TYT(TT_I32, BM, BN), 2, offs2d(k, BM, BN, N),
                       splat(k, op(k, IR_ADDI, it, 2, op(k, IR_MULI, it, 2, tm, cint(k, it, BM * N)),
                                   op(k, IR_MULI, it, 2, tn, cint(k, it, BN))), TYT(TT_I32, BM, BN)));
    store(k, ptrs(k, pc, coff), c16, -1);
    ret(k);
    k->l.grid[0] = (M / BM) * (N / BN);
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 5;
    interp_options o;
    interp_options_default(&o);
    printf("%-34s %10s %14s\n", "kernel", "ms", "programs/s");

    kb k;
    build_vadd(&k, 1 << 20, 1 << 20, 1024, true);
    double t = best_of(&k, &o, reps);
    printf("%-34s %10.2f %14.0f\n", "vector add 2^20 f32, BLOCK 1024", t * 1e3, 1024 / t);
    interp_options nor = o;
    nor.check_races = false;
    t = best_of(&k, &nor, reps);
    printf("%-34s %10.2f %14.0f\n", "  same, check_races off", t * 1e3, 1024 / t);
    interp_options par = o;
    par.sched = SCHED_PARALLEL;
    t = best_of(&k, &par, reps);
    printf("%-34s %10.2f %14.0f\n", "  same, parallel", t * 1e3, 1024 / t);
    t = best_reused(&k, &o, reps);
    printf("%-34s %10.2f %14.0f\n", "  same, session reused", t * 1e3, 1024 / t);
    t = best_reused(&k, &par, reps);
    printf("%-34s %10.2f %14.0f\n", "  same, parallel, session reused", t * 1e3, 1024 / t);
    kb_free(&k);

    build_vadd(&k, 1 << 16, 1 << 16, 64, true);
    t = best_of(&k, &o, reps);
    printf("%-34s %10.2f %14.0f\n", "vector add 2^16 f32, BLOCK 64", t * 1e3, 1024 / t);
    kb_free(&k);

    build_softmax(&k, 1024, 1024);
    t = best_of(&k, &o, reps);
    printf("%-34s %10.2f %14.0f\n", "softmax 1024x1024 f32", t * 1e3, 1024 / t);
    kb_free(&k);

    build_matmul(&k, 256, 256, 256, 64, 64, 32);
    t = best_of(&k, &o, reps);
    printf("%-34s %10.2f %14.0f\n", "matmul 256^3 f16, 64x64x32 tiles", t * 1e3, 16 / t);
    /* check one element against a C reference */
    {
        interp_session *s = interp_session_new(k.f, &k.l, &o);
        interp_run_launch(s);
        interp_session_free(s);
        const uint16_t *a = kb_tensor(&k, 0)->data, *b = kb_tensor(&k, 1)->data, *c = kb_tensor(&k, 2)->data;
        int bad = 0;
        for (int i = 0; i < 256; i += 37)
            for (int j = 0; j < 256; j += 41) {
                float acc = 0;
                for (int kk = 0; kk < 256; kk++) acc = fmaf(h2f(a[i * 256 + kk]), h2f(b[kk * 256 + j]), acc);
                bad += f2h(acc) != c[i * 256 + j];
            }
        if (bad) printf("matmul: %d mismatches\n", bad);
    }
    kb_free(&k);
    return 0;
}
