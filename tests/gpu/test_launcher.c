/* test_launcher.c — the warm GPU launch path (compiler/gpu/launcher.c,
 * api/gpu.c) without a GPU: libtritium runs over the stand-in driver of
 * fake_cuda.c ($FAKE_CUDA, set by meson), which records what cuLaunchKernel
 * receives. Checked against independent references: the parameter buffer's
 * layout and bytes against a C struct of the same members (the C compiler
 * lays it out by the same ABI rule as CUDA: each member aligned to its
 * size); the memo against the driver's own count of module loads (each
 * one a JIT of PTX); "no allocation on a warm launch" against a count of malloc calls
 * (glibc's __libc_malloc under a counting malloc; not under ASan, which owns
 * malloc). Nothing here is timed. */
#include <check.h>
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tritium/settings.h"             /* tt_settings_reload after setenv */
#include "tritium/tritium.h"

#include "fake_cuda.h"                  /* what the stand-in driver records */

#if defined(__SANITIZE_ADDRESS__)
#define COUNT_MALLOC 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define COUNT_MALLOC 0
#endif
#endif
#ifndef COUNT_MALLOC
#define COUNT_MALLOC 1
#endif

static long n_malloc;
#if COUNT_MALLOC
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
void *malloc(size_t n) { __atomic_add_fetch(&n_malloc, 1, __ATOMIC_RELAXED); return __libc_malloc(n); }
void *calloc(size_t a, size_t b) { __atomic_add_fetch(&n_malloc, 1, __ATOMIC_RELAXED); return __libc_calloc(a, b); }
void *realloc(void *p, size_t n) { __atomic_add_fetch(&n_malloc, 1, __ATOMIC_RELAXED); return __libc_realloc(p, n); }
#endif

static fake_cuda *fake;

static const char *SRC =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "@triton.jit\n"
    "def k(x_ptr, n, m, s, flag, y_ptr, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    mask = offs < n\n"
    "    y = tl.load(x_ptr + offs, mask=mask) * s + m\n"
    "    if flag:\n"
    "        y = y + 1.0\n"
    "    tl.store(y_ptr + offs, y, mask=mask)\n";

/* The kernel's parameters as a C struct: the reference layout. */
/* m is given values beyond 32 bits (an i64 parameter, as Triton
 * specializes ints by range); flag keeps one value (an int or bool equal to
 * 1 is specialized). */
#define BIG ((int64_t)1 << 40)

struct ref_params {
    uint64_t x;
    int32_t n;
    int64_t m;
    float s;
    int32_t flag;
    uint64_t y;
};

static const int ref_kinds[] = { TRITIUM_PARAM_PTR, TRITIUM_PARAM_I32, TRITIUM_PARAM_I64, TRITIUM_PARAM_F32,
                                 TRITIUM_PARAM_BOOL, TRITIUM_PARAM_PTR };
static const int ref_offsets[] = { offsetof(struct ref_params, x), offsetof(struct ref_params, n),
                                   offsetof(struct ref_params, m), offsetof(struct ref_params, s),
                                   offsetof(struct ref_params, flag), offsetof(struct ref_params, y) };

static char cache_dir[64];

/* Each test (a child process) starts with an empty driver record, memo and
 * disk cache. */
static void setup(void)
{
    const char *path = getenv("FAKE_CUDA");
    ck_assert_msg(path && *path, "FAKE_CUDA is not set");
    setenv("TRITIUM_LIBCUDA", path, 1);
    snprintf(cache_dir, sizeof cache_dir, "/tmp/tritium-test-launcher-%d", (int)getpid());
    setenv("TRITIUM_CACHE_DIR", cache_dir, 1);
    tt_settings_reload();                      /* the library reads the environment once */
    void *h = dlopen(path, RTLD_NOW);
    ck_assert_ptr_nonnull(h);
    fake = ((fake_cuda * (*)(void)) dlsym(h, "fake_cuda_state"))();
    ck_assert_ptr_nonnull(fake);
}

static void teardown(void)
{
    char cmd[96];
    snprintf(cmd, sizeof cmd, "rm -rf %s", cache_dir);
    if (system(cmd)) fprintf(stderr, "test_launcher: could not remove %s\n", cache_dir);
}

/* A launch of k over "device" buffers (host memory: the fake driver's). */
static tritium_launch *make_launch(tritium_module *m, float *x, float *y, int64_t len, int32_t n, int64_t mv,
                                   double s, int flag)
{
    tritium_launch *L = tritium_launch_new(m, "k");
    ck_assert_ptr_nonnull(L);
    int64_t shape[1] = { len }, strides[1] = { 1 };
    ck_assert_int_eq(tritium_launch_tensor(L, "x_ptr", TRITIUM_F32, x, 1, shape, strides, x, len * 4, 0), 0);
    ck_assert_int_eq(tritium_launch_tensor(L, "y_ptr", TRITIUM_F32, y, 1, shape, strides, y, len * 4, 0), 0);
    ck_assert_int_eq(tritium_launch_int(L, "n", n), 0);
    ck_assert_int_eq(tritium_launch_int(L, "m", mv), 0);
    ck_assert_int_eq(tritium_launch_float(L, "s", s), 0);
    ck_assert_int_eq(tritium_launch_bool(L, "flag", flag), 0);
    ck_assert_int_eq(tritium_launch_const_int(L, "BLOCK", 128), 0);
    ck_assert_int_eq(tritium_launch_grid(L, (n + 127) / 128, 1, 1), 0);
    return L;
}

static void expect_buffer(const unsigned char *buf, size_t size, const float *x, const float *y, int32_t n,
                          int64_t mv, float s, int flag)
{
    struct ref_params r;
    memset(&r, 0, sizeof r);                  /* padding is zero in both */
    r.x = (uint64_t)(uintptr_t)x;
    r.n = n;
    r.m = mv;
    r.s = s;
    r.flag = flag;
    r.y = (uint64_t)(uintptr_t)y;
    ck_assert_uint_eq(size, sizeof r);
    ck_assert_msg(!memcmp(buf, &r, sizeof r), "the parameter buffer differs from the C struct");
}

START_TEST(layout_pack_launch)
{
    tritium_module *m = tritium_module_load_text("k.py", SRC);
    ck_assert_ptr_nonnull(m);
    float *x = aligned_alloc(256, 4096), *y = aligned_alloc(256, 4096);
    tritium_launch *L = make_launch(m, x, y, 1024, 1000, BIG, 2.5, 1);
    const tritium_gpu_kernel *K;
    ck_assert_int_eq(tritium_gpu_prepare(L, TRITIUM_NUMERICS_FAST, &K), TRITIUM_OK);
    ck_assert_int_eq(fake->module_loads, 1);
    int np = 0, kinds[8], offs[8];
    int size = tritium_gpu_kernel_layout(K, &np, kinds, offs, 8);
    ck_assert_int_eq(size, (int)sizeof(struct ref_params));
    ck_assert_int_eq(np, 6);
    for (int i = 0; i < 6; i++) {
        ck_assert_int_eq(kinds[i], ref_kinds[i]);
        ck_assert_int_eq(offs[i], ref_offsets[i]);
    }
    unsigned char buf[64];
    memset(buf, 0xAB, sizeof buf);
    ck_assert_int_eq(tritium_gpu_kernel_pack(K, L, buf), TRITIUM_OK);
    expect_buffer(buf, (size_t)size, x, y, 1000, BIG, 2.5f, 1);
    void *stream = (void *)0x5eed;
    ck_assert_int_eq(tritium_gpu_kernel_launch(K, 8, 2, 3, stream, buf), TRITIUM_OK);
    ck_assert_int_eq(fake->launches, 1);
    ck_assert_int_eq(fake->used_extra, 1);
    expect_buffer(fake->params, fake->param_size, x, y, 1000, BIG, 2.5f, 1);
    ck_assert_uint_eq(fake->grid[0], 8);
    ck_assert_uint_eq(fake->grid[1], 2);
    ck_assert_uint_eq(fake->grid[2], 3);
    ck_assert_uint_eq(fake->block, 128);               /* 32 x num_warps 4 */
    ck_assert_ptr_eq(fake->stream, stream);
    /* a grid out of range is refused before the driver */
    ck_assert_int_eq(tritium_gpu_kernel_launch(K, 0, 1, 1, NULL, buf), TRITIUM_INPUT_ERROR);
    ck_assert_int_eq(tritium_gpu_kernel_launch(K, 1, 65536, 1, NULL, buf), TRITIUM_INPUT_ERROR);
    ck_assert_int_eq(fake->launches, 1);
    tritium_launch_free(L);
    tritium_module_free(m);
    free(x);
    free(y);
}
END_TEST

START_TEST(memo_by_specialization)
{
    tritium_module *m = tritium_module_load_text("k.py", SRC);
    float *x = aligned_alloc(256, 8192), *y = aligned_alloc(256, 8192);
    const tritium_gpu_kernel *K1, *K2, *K3, *K4;
    tritium_launch *L = make_launch(m, x, y, 1024, 1000, BIG + 7, 1.0, 1);
    ck_assert_int_eq(tritium_gpu_prepare(L, TRITIUM_NUMERICS_FAST, &K1), TRITIUM_OK);
    tritium_launch_free(L);
    long loads = fake->module_loads;
    /* other values, same specialization (aligned pointers, n % 16 != 0, n != 1): the same kernel */
    L = make_launch(m, x + 64, y + 128, 512, 999, BIG + 3, -4.0, 1);
    ck_assert_int_eq(tritium_gpu_prepare(L, TRITIUM_NUMERICS_FAST, &K2), TRITIUM_OK);
    ck_assert_ptr_eq(K1, K2);
    ck_assert_int_eq(fake->module_loads, loads);
    unsigned char buf[64];
    ck_assert_int_eq(tritium_gpu_kernel_pack(K2, L, buf), TRITIUM_OK);
    expect_buffer(buf, sizeof(struct ref_params), x + 64, y + 128, 999, BIG + 3, -4.0f, 1);
    tritium_launch_free(L);
    /* y 4 bytes off 16-byte alignment: another specialization, compiled and loaded */
    L = make_launch(m, x, y + 1, 1024, 1000, BIG + 7, 1.0, 1);
    ck_assert_int_eq(tritium_gpu_prepare(L, TRITIUM_NUMERICS_FAST, &K3), TRITIUM_OK);
    ck_assert_ptr_ne(K3, K1);
    ck_assert_int_eq(fake->module_loads, loads + 1);
    tritium_launch_free(L);
    /* ieee numerics: another kernel too */
    L = make_launch(m, x, y, 1024, 1000, BIG + 7, 1.0, 1);
    ck_assert_int_eq(tritium_gpu_prepare(L, TRITIUM_NUMERICS_IEEE, &K4), TRITIUM_OK);
    ck_assert_ptr_ne(K4, K1);
    ck_assert_ptr_ne(K4, K3);
    tritium_launch_free(L);
    tritium_module_free(m);
    free(x);
    free(y);
}
END_TEST

START_TEST(warm_launch_is_one_driver_call)
{
    tritium_module *m = tritium_module_load_text("k.py", SRC);
    float *x = aligned_alloc(256, 4096), *y = aligned_alloc(256, 4096);
    tritium_launch *L = make_launch(m, x, y, 1024, 1000, BIG + 5, 0.5, 1);
    const tritium_gpu_kernel *K;
    ck_assert_int_eq(tritium_gpu_prepare(L, TRITIUM_NUMERICS_FAST, &K), TRITIUM_OK);
    unsigned char buf[64];
    ck_assert_int_eq(tritium_gpu_kernel_pack(K, L, buf), TRITIUM_OK);
    long launches = fake->launches, loads = fake->module_loads, allocs = fake->allocs;
    long mallocs = n_malloc;
    int bad = 0;                                       /* Check's assertions allocate: none in the loop */
    for (int i = 0; i < 1000; i++) bad += tritium_gpu_kernel_launch(K, 8, 1, 1, NULL, buf) != TRITIUM_OK;
    ck_assert_int_eq(n_malloc, mallocs);               /* no allocation (0 == 0 under ASan) */
    ck_assert_int_eq(bad, 0);
    ck_assert_int_eq(fake->launches, launches + 1000);
    ck_assert_int_eq(fake->module_loads, loads);
    ck_assert_int_eq(fake->allocs, allocs);
    ck_assert_int_eq(fake->syncs, 0);                  /* asynchronous */
    expect_buffer(fake->params, fake->param_size, x, y, 1000, BIG + 5, 0.5f, 1);
    tritium_launch_free(L);
    tritium_module_free(m);
    free(x);
    free(y);
}
END_TEST

/* tritium_run_gpu (copy in, launch, copy out) goes through the same
 * launcher: its buffer holds the driver's allocations, and a second run of
 * the same specialization loads nothing. */
START_TEST(run_gpu_uses_the_memo)
{
    tritium_module *m = tritium_module_load_text("k.py", SRC);
    float *x = calloc(1024, 4), *y = calloc(1024, 4);
    for (int round = 0; round < 2; round++) {
        long loads = fake->module_loads, allocs = fake->allocs;
        tritium_launch *L = make_launch(m, x, y, 1024, 1000, BIG + 9, 3.0, 0);
        ck_assert_int_eq(tritium_run_gpu(L, NULL), TRITIUM_OK);
        ck_assert_int_eq(fake->module_loads, loads + (round == 0));
        ck_assert_int_eq(fake->allocs, allocs + 2);    /* x and y copied in */
        ck_assert_int_eq(fake->used_extra, 1);
        struct ref_params r;
        memcpy(&r, fake->params, sizeof r);
        ck_assert_uint_eq(r.x % 256, 0);               /* device copies, not the host pointers */
        ck_assert_uint_ne(r.x, (uint64_t)(uintptr_t)x);
        ck_assert_int_eq(r.n, 1000);
        ck_assert_int_eq(r.m, BIG + 9);
        ck_assert_float_eq(r.s, 3.0f);
        ck_assert_int_eq(r.flag, 0);
        tritium_launch_free(L);
    }
    tritium_module_free(m);
    free(x);
    free(y);
}
END_TEST

/* $TRITIUM_PERSISTENT=1: the kernel takes the launch's grid after its own
 * parameters (three i32, the C rule) and runs on at most SMs x CTAs per SM
 * CTAs (the stand-in: 132 x 2), a 1-D grid; fewer programs, fewer CTAs. A
 * separate specialization: the memo and the cache keep both. */
START_TEST(persistent_launch)
{
    tritium_module *m = tritium_module_load_text("k.py", SRC);
    float *x = aligned_alloc(256, 4096), *y = aligned_alloc(256, 4096);
    tritium_launch *L = make_launch(m, x, y, 1024, 1000, BIG, 2.5, 1);
    const tritium_gpu_kernel *K, *P;
    ck_assert_int_eq(tritium_gpu_prepare(L, TRITIUM_NUMERICS_FAST, &K), TRITIUM_OK);
    setenv("TRITIUM_PERSISTENT", "1", 1);
    tt_settings_reload();
    ck_assert_int_eq(tritium_gpu_prepare(L, TRITIUM_NUMERICS_FAST, &P), TRITIUM_OK);
    unsetenv("TRITIUM_PERSISTENT");
    tt_settings_reload();
    ck_assert_ptr_ne(K, P);
    ck_assert_int_eq(fake->module_loads, 2);
    int np = 0, size = tritium_gpu_kernel_layout(P, &np, NULL, NULL, 0);
    ck_assert_int_eq(np, 6);                           /* the kernel's own; the grid is the launch's */
    size_t grid_off = (sizeof(struct ref_params) + 3) & ~(size_t)3;
    ck_assert_int_eq(size, (int)(grid_off + 12));
    unsigned char buf[64];
    memset(buf, 0xAB, sizeof buf);
    ck_assert_int_eq(tritium_gpu_kernel_pack(P, L, buf), TRITIUM_OK);
    static const int64_t grids[][4] = { { 1000, 70, 1, 264 }, { 8, 2, 3, 48 }, { 2147483647, 1, 1, 264 } };
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(tritium_gpu_kernel_launch(P, grids[i][0], grids[i][1], grids[i][2], NULL, buf), TRITIUM_OK);
        ck_assert_uint_eq(fake->param_size, grid_off + 12);
        expect_buffer(fake->params, sizeof(struct ref_params), x, y, 1000, BIG, 2.5f, 1);
        int32_t g[3];
        memcpy(g, fake->params + grid_off, sizeof g);
        ck_assert_int_eq(g[0], grids[i][0]);
        ck_assert_int_eq(g[1], grids[i][1]);
        ck_assert_int_eq(g[2], grids[i][2]);
        ck_assert_uint_eq(fake->grid[0], grids[i][3]);
        ck_assert_uint_eq(fake->grid[1], 1);
        ck_assert_uint_eq(fake->grid[2], 1);
    }
    long launches = fake->launches;                    /* more programs than an i32 counts: refused */
    ck_assert_int_eq(tritium_gpu_kernel_launch(P, 40000, 65535, 1, NULL, buf), TRITIUM_KERNEL_ERROR);
    ck_assert_msg(strstr(tritium_last_error(), "persistent"), "%s", tritium_last_error());
    ck_assert_int_eq(fake->launches, launches);
    tritium_launch_free(L);
    tritium_module_free(m);
    free(x);
    free(y);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("launcher");
    TCase *tc = tcase_create("launcher");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, layout_pack_launch);
    tcase_add_test(tc, memo_by_specialization);
    tcase_add_test(tc, warm_launch_is_one_driver_call);
    tcase_add_test(tc, run_gpu_uses_the_memo);
    tcase_add_test(tc, persistent_launch);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
