/* test_combine.c — combine regions (tt.reduce_region, tt.scan) from
 * tl.reduce / tl.associative_scan / tl.cumsum / tl.cumprod with user
 * @triton.jit combine functions: run in the interpreter against plain C
 * loops, and against the named-combiner fast paths (tl.sum, tl.max,
 * tl.argmax, tl.xor_sum must agree bit for bit with the general form); the
 * same kernels compile to PTX that ptxas accepts (the GPU runs are in
 * launches.txt for device_check.sh). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tritium/interp.h"
#include "gpu_util.h"

static const char src[] =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "@triton.jit\n"
    "def add_fn(a, b):\n"
    "    return a + b\n"
    "\n"
    "@triton.jit\n"
    "def max_fn(a, b):\n"
    "    return tl.maximum(a, b)\n"
    "\n"
    "@triton.jit\n"
    "def min_fn(a, b):\n"
    "    return tl.minimum(a, b)\n"
    "\n"
    "@triton.jit\n"
    "def xor_fn(a, b):\n"
    "    return a ^ b\n"
    "\n"
    "@triton.jit\n"
    "def argmax_fn(v1, i1, v2, i2):\n"
    "    tie = (v1 == v2) & (i1 < i2)\n"
    "    gt = (v1 > v2) | tie\n"
    "    return tl.where(gt, v1, v2), tl.where(gt, i1, i2)\n"
    "\n"
    "@triton.jit\n"
    "def argmin_fn(v1, i1, v2, i2):\n"
    "    tie = (v1 == v2) & (i1 < i2)\n"
    "    lt = (v1 < v2) | tie\n"
    "    return tl.where(lt, v1, v2), tl.where(lt, i1, i2)\n"
    "\n"
    "@triton.jit\n"
    "def sum_prod_fn(a0, a1, b0, b1):\n"
    "    return a0 + b0, a1 * b1\n"
    "\n"
    "@triton.jit\n"
    "def red(x_ptr, k_ptr, g_ptr, f_ptr, gi_ptr, fi_ptr, M: tl.constexpr, N: tl.constexpr):\n"
    "    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]\n"
    "    x = tl.load(x_ptr + offs)\n"
    "    k = tl.load(k_ptr + offs)\n"
    "    rows = tl.arange(0, M)\n"
    "    idx = tl.broadcast_to(tl.arange(0, N)[None, :], (M, N))\n"
    "    tl.store(g_ptr + rows, tl.reduce(x, 1, add_fn))\n"
    "    tl.store(f_ptr + rows, tl.sum(x, 1))\n"
    "    tl.store(g_ptr + M + rows, x.reduce(1, max_fn))\n"
    "    tl.store(f_ptr + M + rows, tl.max(x, 1))\n"
    "    tl.store(g_ptr + 2 * M + rows, tl.reduce(x, 1, min_fn))\n"
    "    tl.store(f_ptr + 2 * M + rows, tl.min(x, 1))\n"
    "    tl.store(g_ptr + 3 * M + rows, tl.reduce(x, 1, add_fn, keep_dims=True).reshape(M))\n"
    "    tl.store(f_ptr + 3 * M + rows, tl.sum(x, 1, keep_dims=True).reshape(M))\n"
    "    v, i = tl.reduce((x, idx), 1, argmax_fn)\n"
    "    tl.store(gi_ptr + rows, i)\n"
    "    tl.store(fi_ptr + rows, tl.argmax(x, 1))\n"
    "    v, i = tl.reduce((x, idx), 1, argmin_fn)\n"
    "    tl.store(gi_ptr + M + rows, i)\n"
    "    tl.store(fi_ptr + M + rows, tl.argmin(x, 1))\n"
    "    tl.store(gi_ptr + 2 * M + rows, tl.reduce(k, 1, xor_fn))\n"
    "    tl.store(fi_ptr + 2 * M + rows, tl.xor_sum(k, 1))\n"
    "    tl.store(gi_ptr + 3 * M, tl.reduce(k, None, add_fn))\n"
    "    tl.store(fi_ptr + 3 * M, tl.sum(k))\n"
    "\n"
    "@triton.jit\n"
    "def scan(x_ptr, k_ptr, cs_ptr, rcs_ptr, cp_ptr, ks_ptr, kp_ptr, c8_ptr, M: tl.constexpr, N: tl.constexpr):\n"
    "    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]\n"
    "    x = tl.load(x_ptr + offs)\n"
    "    k = tl.load(k_ptr + offs)\n"
    "    tl.store(cs_ptr + offs, tl.associative_scan(x, 1, add_fn))\n"
    "    tl.store(rcs_ptr + offs, x.cumsum(0, reverse=True))\n"
    "    tl.store(cp_ptr + offs, tl.cumprod(x, 1))\n"
    "    s, p = tl.associative_scan((k, k % 3 + 1), 1, sum_prod_fn, reverse=True)\n"
    "    tl.store(ks_ptr + offs, s)\n"
    "    tl.store(kp_ptr + offs, p)\n"
    "    c8 = tl.cumsum(k.to(tl.int8), 1)\n"
    "    tl.static_assert(c8.dtype == tl.int32)\n"
    "    tl.store(c8_ptr + offs, c8)\n";

enum { M = 8, N = 32 };

static void run_interp(ir_func *f, launch *l)
{
    interp_options o;
    interp_options_default(&o);
    interp_session *s = interp_session_new(f, l, &o);
    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(interp_run_launch(s), 0);
    interp_session_free(s);
}

static void check_ptx(ir_func *f)
{
    gpu_options go;
    gpu_options_default(&go);
    go.no_cache = true;
    gpu_kernel k;
    char err[1024];
    ck_assert_msg(gpu_compile(f, &go, NULL, &k, err, sizeof err) == 0, "%s", err);
    ck_assert_int_gt(count_substr(k.ptx, "shfl.sync") + count_substr(k.ptx, "ld.shared"), 0);
    int pr = ptxas_check(k.ptx, k.arch);
    ck_assert_msg(pr != 0, "ptxas rejected the PTX");
    gpu_kernel_free(&k);
}

static float *fdata(launch *l, int i) { return l->args[i].tensor->data; }
static int32_t *idata(launch *l, int i) { return l->args[i].tensor->data; }

START_TEST(reduce_user_fns)
{
    launch l;
    lb_init(&l, 1, 1, 1);
    lb_tensor2(&l, "x_ptr", TT_F32, M, N);
    lb_tensor2(&l, "k_ptr", TT_I32, M, N);
    lb_tensor1(&l, "g_ptr", TT_F32, 4 * M);
    lb_tensor1(&l, "f_ptr", TT_F32, 4 * M);
    lb_tensor1(&l, "gi_ptr", TT_I32, 4 * M);
    lb_tensor1(&l, "fi_ptr", TT_I32, 4 * M);
    lb_const(&l, "M", M);
    lb_const(&l, "N", N);
    float *x = fdata(&l, 0);
    x[3 * N + 5] = x[3 * N + 9] = 7.0f;             /* a tie for argmax: the left one wins */
    x[4 * N + 2] = x[4 * N + 20] = -7.0f;           /* and for argmin */
    ir_func *f = compile_py(src, "red", &l);
    ck_assert_ptr_nonnull(f);
    run_interp(f, &l);
    const float *g = fdata(&l, 2), *fp = fdata(&l, 3);
    const int32_t *k = idata(&l, 1), *gi = idata(&l, 4), *fi = idata(&l, 5);
    /* general form == fast path, bit for bit */
    ck_assert_int_eq(memcmp(g, fp, sizeof(float) * 4 * M), 0);
    ck_assert_int_eq(memcmp(gi, fi, sizeof(int32_t) * (3 * M + 1)), 0);
    /* and both == C loops folding in index order */
    int64_t total = 0;
    for (int r = 0; r < M; r++) {
        float s = x[r * N], mx = x[r * N], mn = x[r * N];
        int am = 0, an = 0;
        int32_t xr = k[r * N];
        total += k[r * N];
        for (int j = 1; j < N; j++) {
            float v = x[r * N + j];
            s += v;
            if (v > mx) { mx = v; am = j; }
            if (v < mn) { mn = v; an = j; }
            xr ^= k[r * N + j];
            total += k[r * N + j];
        }
        ck_assert_float_eq(g[r], s);
        ck_assert_float_eq(g[M + r], mx);
        ck_assert_float_eq(g[2 * M + r], mn);
        ck_assert_float_eq(g[3 * M + r], s);
        ck_assert_int_eq(gi[r], am);
        ck_assert_int_eq(gi[M + r], an);
        ck_assert_int_eq(gi[2 * M + r], xr);
    }
    ck_assert_int_eq(gi[3], 5);
    ck_assert_int_eq(gi[M + 4], 2);
    ck_assert_int_eq(gi[3 * M], (int32_t)total);
    check_ptx(f);
    launch_free(&l);
}
END_TEST

START_TEST(scan_user_fns)
{
    launch l;
    lb_init(&l, 1, 1, 1);
    lb_tensor2(&l, "x_ptr", TT_F32, M, N);
    lb_tensor2(&l, "k_ptr", TT_I32, M, N);
    const char *outs[] = { "cs_ptr", "rcs_ptr", "cp_ptr" };
    for (int i = 0; i < 3; i++) lb_tensor2(&l, outs[i], TT_F32, M, N);
    lb_tensor2(&l, "ks_ptr", TT_I32, M, N);
    lb_tensor2(&l, "kp_ptr", TT_I32, M, N);
    lb_tensor2(&l, "c8_ptr", TT_I32, M, N);
    lb_const(&l, "M", M);
    lb_const(&l, "N", N);
    ir_func *f = compile_py(src, "scan", &l);
    ck_assert_ptr_nonnull(f);
    run_interp(f, &l);
    const float *x = fdata(&l, 0), *cs = fdata(&l, 2), *rcs = fdata(&l, 3), *cp = fdata(&l, 4);
    const int32_t *k = idata(&l, 1), *ks = idata(&l, 5), *kp = idata(&l, 6), *c8 = idata(&l, 7);
    for (int r = 0; r < M; r++) {
        float s = 0, p = 1;
        int32_t s8 = 0;
        for (int j = 0; j < N; j++) {
            s += x[r * N + j];
            p *= x[r * N + j];
            s8 += (int8_t)k[r * N + j];
            ck_assert_float_eq(cs[r * N + j], s);
            ck_assert_float_eq(cp[r * N + j], p);
            ck_assert_int_eq(c8[r * N + j], s8);
        }
        int32_t si = 0;
        uint32_t pi = 1;
        for (int j = N - 1; j >= 0; j--) {          /* reverse scan of the pair */
            si += k[r * N + j];
            int32_t m = k[r * N + j] % 3 + 1;
            pi *= (uint32_t)m;
            ck_assert_int_eq(ks[r * N + j], si);
            ck_assert_int_eq(kp[r * N + j], (int32_t)pi);
        }
    }
    for (int j = 0; j < N; j++) {                   /* cumsum(0, reverse=True) */
        float s = 0;
        for (int r = M - 1; r >= 0; r--) {
            s += x[r * N + j];
            ck_assert_float_eq(rcs[r * N + j], s);
        }
    }
    check_ptx(f);
    launch_free(&l);
}
END_TEST

/* Bad combine functions get a diagnostic, not a crash. */
START_TEST(bad_combine_fn)
{
    static const char bad[] =
        "import triton\n"
        "import triton.language as tl\n"
        "@triton.jit\n"
        "def two(a, b):\n"
        "    return a, b\n"
        "@triton.jit\n"
        "def k(x_ptr, N: tl.constexpr):\n"
        "    x = tl.load(x_ptr + tl.arange(0, N))\n"
        "    tl.store(x_ptr, tl.reduce(x, 0, two))\n";
    launch l;
    lb_init(&l, 1, 1, 1);
    lb_tensor1(&l, "x_ptr", TT_F32, 16);
    lb_const(&l, "N", 16);
    ck_assert_ptr_null(compile_py(bad, "k", &l));
    launch_free(&l);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("combine");
    TCase *tc = tcase_create("combine");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, reduce_user_fns);
    tcase_add_test(tc, scan_user_fns);
    tcase_add_test(tc, bad_combine_fn);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
