/* test_run.c — kernels on the GPU against plain C references. Needs a
 * driver: exits 77 (skip) when libcuda.so.1 cannot be loaded. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gpu_util.h"
#include "tritium/cuda.h"

static int run(const char *file, const char *kernel, launch *l, gpu_options *o, char *err, size_t n)
{
    char *src = src_of(file);
    ck_assert_ptr_nonnull(src);
    ir_func *f = compile_py(src, kernel, l);
    free(src);
    ck_assert_ptr_nonnull(f);
    gpu_options d;
    if (!o) { gpu_options_default(&d); o = &d; }
    o->no_cache = true;
    return gpu_launch(f, l, o, NULL, err, n);
}

START_TEST(vector_add)
{
    int64_t sizes[] = { 1, 1000, 4097, 98432 };
    for (size_t t = 0; t < 4; t++) {
        int64_t n = sizes[t];
        launch l;
        lb_init(&l, (n + 1023) / 1024, 1, 1);
        tt_tensor *x = lb_tensor1(&l, "x_ptr", TT_F32, n);
        tt_tensor *y = lb_tensor1(&l, "y_ptr", TT_F32, n);
        tt_tensor *o = lb_tensor1(&l, "output_ptr", TT_F32, n);
        memset(o->data, 0, o->nbytes);
        lb_int(&l, "n_elements", n);
        lb_const(&l, "BLOCK_SIZE", 1024);
        char err[1024];
        int rc = run("examples/vector_add.py", "add_kernel", &l, NULL, err, sizeof err);
        ck_assert_msg(rc == 0, "%s", err);
        const float *xs = x->data, *ys = y->data, *os = o->data;
        for (int64_t i = 0; i < n; i++) ck_assert_msg(os[i] == xs[i] + ys[i], "n=%lld i=%lld", (long long)n, (long long)i);
        launch_free(&l);
    }
}
END_TEST

START_TEST(matmul_ieee_exact)
{
    int M = 80, N = 72, K = 48;
    launch l;
    lb_init(&l, (M + 31) / 32, (N + 63) / 64, 1);
    tt_tensor *a = lb_tensor2(&l, "a_ptr", TT_F32, M, K);
    tt_tensor *b = lb_tensor2(&l, "b_ptr", TT_F32, K, N);
    tt_tensor *c = lb_tensor2(&l, "c_ptr", TT_F32, M, N);
    lb_int(&l, "M", M);
    lb_int(&l, "N", N);
    lb_int(&l, "K", K);
    lb_const(&l, "BM", 32);
    lb_const(&l, "BN", 64);
    lb_const(&l, "BK", 16);
    lb_const(&l, "IEEE", 1);
    char err[1024];
    int rc = run("tests/gpu/kernels.py", "mm", &l, NULL, err, sizeof err);
    ck_assert_msg(rc == 0, "%s", err);
    const float *A = a->data, *B = b->data, *C = c->data;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float acc = 0;
            for (int k = 0; k < K; k++) acc = fmaf(A[i * K + k], B[k * N + j], acc);   /* Triton's FMA order */
            ck_assert_msg(C[i * N + j] == acc, "c[%d,%d] = %g, want %g", i, j, C[i * N + j], acc);
        }
    launch_free(&l);
}
END_TEST

START_TEST(matmul_f16_tensor_cores)
{
    int M = 128, N = 128, K = 96;
    launch l;
    lb_init(&l, 2, 2, 1);
    tt_tensor *a = lb_tensor2(&l, "a_ptr", TT_F16, M, K);
    tt_tensor *b = lb_tensor2(&l, "b_ptr", TT_F16, K, N);
    tt_tensor *c = lb_tensor2(&l, "c_ptr", TT_F32, M, N);
    lb_int(&l, "M", M);
    lb_int(&l, "N", N);
    lb_int(&l, "K", K);
    lb_const(&l, "BM", 64);
    lb_const(&l, "BN", 64);
    lb_const(&l, "BK", 32);
    lb_const(&l, "IEEE", 0);
    char err[1024];
    int rc = run("tests/gpu/kernels.py", "mm", &l, NULL, err, sizeof err);
    ck_assert_msg(rc == 0, "%s", err);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double acc = 0;
            for (int k = 0; k < K; k++)
                acc += (double)tt_load_f64(a->data, TT_F16, i * K + k) * tt_load_f64(b->data, TT_F16, k * N + j);
            double got = ((float *)c->data)[i * N + j];
            ck_assert_msg(fabs(got - acc) <= 1e-3 + 1e-3 * fabs(acc), "c[%d,%d] = %g, want %g", i, j, got, acc);
        }
    launch_free(&l);
}
END_TEST

START_TEST(illegal_address_is_reported)
{
    launch l;
    lb_init(&l, 1, 1, 1);
    lb_tensor1(&l, "out_ptr", TT_F32, 16);
    lb_int(&l, "off", (int64_t)1 << 40);
    char err[1024];
    int rc = run("tests/gpu/kernels.py", "oob_store", &l, NULL, err, sizeof err);
    ck_assert_int_eq(rc, 1);
    ck_assert_msg(strstr(err, "kernel oob_store (grid 1x1x1, block 128"), "%s", err);
    ck_assert_msg(strstr(err, "illegal"), "%s", err);
    launch_free(&l);
}
END_TEST

int main(void)
{
    if (!have_driver()) {
        fprintf(stderr, "no CUDA driver: skipping\n");
        return 77;
    }
    /* CUDA does not survive fork(): probe the device in a child, so that each
     * forked test initializes its own context (and an illegal address in one
     * test leaves the others alone) */
    pid_t pid = fork();
    if (pid == 0) _exit(cuda_init() ? 1 : 0);
    int st = 0;
    waitpid(pid, &st, 0);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fprintf(stderr, "no usable CUDA device: skipping\n");
        return 77;
    }
    Suite *s = suite_create("gpu_run");
    TCase *tc = tcase_create("run");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, vector_add);
    tcase_add_test(tc, matmul_ieee_exact);
    tcase_add_test(tc, matmul_f16_tensor_cores);
    tcase_add_test(tc, illegal_address_is_reported);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int nf = srunner_ntests_failed(sr);
    srunner_free(sr);
    return nf ? 1 : 0;
}
