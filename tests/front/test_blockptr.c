/* test_blockptr.c — tl.make_block_ptr / tl.advance / boundary_check: a
 * block-pointer matmul (input_precision="ieee") run in the interpreter and
 * compared bit for bit with a plain C fmaf loop, on sizes that are not
 * multiples of the blocks; without boundary_check the same launch faults. */
#include "tfront.h"
#include "tritium/interp.h"

#include <math.h>

static const char src[] =
    "import triton\n"
    "import triton.language as tl\n"
    "@triton.jit\n"
    "def mm(A, B, C, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, CHECK: tl.constexpr):\n"
    "    pm = tl.program_id(0)\n"
    "    pn = tl.program_id(1)\n"
    "    a_bp = tl.make_block_ptr(A, (M, K), (K, 1), (pm * BM, 0), (BM, BK), (1, 0))\n"
    "    b_bp = tl.make_block_ptr(base=B, shape=(K, N), strides=(N, 1), offsets=(0, pn * BN),\n"
    "                             block_shape=(BK, BN), order=(1, 0))\n"
    "    acc = tl.zeros((BM, BN), dtype=tl.float32)\n"
    "    for k in range(0, K, BK):\n"
    "        if CHECK:\n"
    "            a = tl.load(a_bp, boundary_check=(0, 1), padding_option='zero')\n"
    "            b = tl.load(b_bp, boundary_check=(0, 1))\n"
    "        else:\n"
    "            a = tl.load(a_bp)\n"
    "            b = tl.load(b_bp)\n"
    "        acc = tl.dot(a, b, acc, input_precision='ieee')\n"
    "        a_bp = tl.advance(a_bp, (0, BK))\n"
    "        b_bp = tl.advance(b_bp, (BK, 0))\n"
    "    c_bp = tl.make_block_ptr(C, (M, N), (N, 1), (pm * BM, pn * BN), (BM, BN), (1, 0))\n"
    "    tl.store(c_bp, acc, boundary_check=(0, 1))\n";

enum { M = 50, N = 40, K = 37 };

static interp_stats run(launch *l, bool check)
{
    char spec[256];
    snprintf(spec, sizeof spec, "A:*f32[%d,%d] B:*f32[%d,%d] C:*f32[%d,%d] M:i32=%d N:i32=%d K:i32=%d BM=16 BN=16 BK=16 CHECK=%s",
             M, K, K, N, M, N, M, N, K, check ? "True" : "False");
    mk_launch(l, spec);
    l->grid[0] = (M + 15) / 16;
    l->grid[1] = (N + 15) / 16;
    for (int i = 0; i < 3; i++) {
        tt_tensor *t = l->args[i].tensor;
        float *d = t->data;
        for (int64_t e = 0; e < tt_tensor_numel(t); e++) d[e] = i == 2 ? NAN : (float)((e * 7 + i * 3) % 13) / 8.0f - 0.7f;
    }
    front_module *m = front_load_text("k.py", src);
    ck_assert_ptr_nonnull(m);
    ir_func *f = front_compile(m, "mm", l);
    ck_assert_ptr_nonnull(f);
    interp_options o;
    interp_options_default(&o);
    o.report = fopen("/dev/null", "w");
    interp_session *s = interp_session_new(f, l, &o);
    ck_assert_ptr_nonnull(s);
    interp_run_launch(s);
    interp_stats st;
    interp_get_stats(s, &st);
    interp_session_free(s);
    fclose(o.report);
    ir_func_free(f);
    front_module_free(m);
    return st;
}

START_TEST(blockptr_matmul_matches_fmaf)
{
    launch l;
    interp_stats st = run(&l, true);
    ck_assert_int_eq(st.faults, 0);
    const float *a = l.args[0].tensor->data, *b = l.args[1].tensor->data, *c = l.args[2].tensor->data;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float acc = 0;
            for (int k = 0; k < K; k++) acc = fmaf(a[i * K + k], b[k * N + j], acc);
            ck_assert_msg(c[i * N + j] == acc, "C[%d, %d] = %.9g, want %.9g", i, j, c[i * N + j], acc);
        }
    launch_free(&l);
}
END_TEST

START_TEST(blockptr_unchecked_faults)
{
    launch l;
    interp_stats st = run(&l, false);
    ck_assert_int_gt(st.faults, 0);   /* K = 37 is not a multiple of 16: the last block reads past the end */
    launch_free(&l);
}
END_TEST

START_TEST(blockptr_errors)
{
    const char *d = compile_err(PRELUDE "def k(X):\n    p = tl.make_block_ptr(X, (4,), (1,), (0,), (3,), (0,))\n    tl.store(p, 1.0)\n",
                                "k", "X:*f32[16]");
    ck_assert_msg(strstr(d, "powers of two"), "got %s", d);
    d = compile_err(PRELUDE "def k(X):\n    p = tl.make_block_ptr(X, (16,), (1,), (0,), (16,), (0,))\n    x = tl.load(p, mask=tl.arange(0, 16) < 3)\n",
                    "k", "X:*f32[16]");
    ck_assert_msg(strstr(d, "boundary_check"), "got %s", d);
}
END_TEST

/* device-side tensor descriptors: every dimension is bounds-checked, out-of-range
 * elements load as 0 (or NaN) and are not stored */
START_TEST(tensor_descriptor_copy)
{
    static const char dsrc[] =
        "import triton\n"
        "import triton.language as tl\n"
        "@triton.jit\n"
        "def k(X, Y, S, M, N, BM: tl.constexpr, BN: tl.constexpr):\n"
        "    dx = tl.make_tensor_descriptor(X, shape=[M, N], strides=[N, 1], block_shape=[BM, BN], padding_option='nan')\n"
        "    dy = tl.make_tensor_descriptor(Y, [M, N], [N, 1], [BM, BN])\n"
        "    om = tl.program_id(0) * BM\n"
        "    on = tl.program_id(1) * BN\n"
        "    x = dx.load([om, on])\n"
        "    dy.store([om, on], x * 2.0)\n"
        "    tl.store(S + tl.program_id(0) * tl.num_programs(1) + tl.program_id(1), tl.sum(tl.sum(tl.where(x != x, 1, 0), 1), 0))\n";
    launch l;
    mk_launch(&l, "X:*f32[50,40] Y:*f32[50,40] S:*i32[12] M:i32=50 N:i32=40 BM=16 BN=16");
    l.grid[0] = 4;
    l.grid[1] = 3;
    float *x = l.args[0].tensor->data, *y = l.args[1].tensor->data;
    for (int e = 0; e < 50 * 40; e++) x[e] = (float)e, y[e] = -1.0f;
    front_module *m = front_load_text("k.py", dsrc);
    ck_assert_ptr_nonnull(m);
    ir_func *f = front_compile(m, "k", &l);
    ck_assert_ptr_nonnull(f);
    interp_options o;
    interp_options_default(&o);
    interp_session *s = interp_session_new(f, &l, &o);
    ck_assert_int_eq(interp_run_launch(s), 0);
    interp_stats st;
    interp_get_stats(s, &st);
    ck_assert_int_eq(st.faults, 0);
    interp_session_free(s);
    for (int e = 0; e < 50 * 40; e++) ck_assert_msg(y[e] == 2.0f * (float)e, "Y[%d] = %g", e, y[e]);
    /* NaN padding: program (i, j) reads 16x16 - (in-range elements) NaNs */
    const int32_t *nans = l.args[2].tensor->data;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 3; j++) {
            int rows = 50 - 16 * i < 16 ? 50 - 16 * i : 16, cols = 40 - 16 * j < 16 ? 40 - 16 * j : 16;
            ck_assert_int_eq(nans[i * 3 + j], 256 - rows * cols);
        }
    ir_func_free(f);
    front_module_free(m);
    launch_free(&l);
}
END_TEST

/* Block pointers are the language of Triton 3.6-3.8 (3.9's core.py removed
 * make_block_ptr and advance): these tests follow 3.8. */
static void follow_38(void) { front_set_triton_version(8); }
static void follow_default(void) { front_set_triton_version(-1); }

TCase *tc_blockptr(void)
{
    TCase *tc = tcase_create("blockptr");
    tcase_add_checked_fixture(tc, follow_38, follow_default);
    tcase_add_test(tc, blockptr_matmul_matches_fmaf);
    tcase_add_test(tc, blockptr_unchecked_faults);
    tcase_add_test(tc, blockptr_errors);
    tcase_add_test(tc, tensor_descriptor_copy);
    return tc;
}
