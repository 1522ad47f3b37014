/* test_tma.c — the TMA rules shared by the compiler and the launcher
 * (compiler/gpu/tma.c), without a GPU: gpu_tma_box against the wgmma tile
 * layout's cases written out by hand, and gpu_tma_encode over the stand-in
 * driver (fake_cuda.c, $FAKE_CUDA), whose cuTensorMapEncodeTiled writes its
 * arguments into the map: CUDA's innermost-first dims, the outer stride in
 * bytes, the box and the swizzle, against the launch's own numbers. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "../../compiler/gpu/gpu_int.h"
#include "fake_cuda.h"

static void box_is(tt_dtype et, int rank, int64_t b0, int64_t b1, bool ok, uint32_t w0, uint32_t w1, int sw)
{
    int64_t block[2] = { b0, b1 };
    uint32_t box[2] = { 0, 0 };
    int swz = 0;
    bool got = gpu_tma_box(et, rank, block, box, &swz);
    ck_assert_msg(got == ok, "block [%lld, %lld]: %d, want %d", (long long)b0, (long long)b1, got, ok);
    if (!ok) return;
    ck_assert_uint_eq(box[0], w0);
    ck_assert_uint_eq(box[1], w1);
    ck_assert_int_eq(swz, sw);
}

START_TEST(box_rule)
{
    box_is(TT_F16, 2, 64, 64, true, 64, 64, 128);      /* 128-byte rows: one slab */
    box_is(TT_BF16, 2, 64, 128, true, 64, 64, 128);    /* 256-byte rows: two 128-byte slabs */
    box_is(TT_F16, 2, 128, 192, true, 64, 128, 128);   /* three slabs */
    box_is(TT_F16, 2, 128, 32, true, 32, 128, 64);     /* 64-byte rows: 64-byte swizzle */
    box_is(TT_F16, 2, 64, 16, true, 16, 64, 32);       /* 32-byte rows */
    box_is(TT_F16, 2, 256, 64, true, 64, 256, 128);    /* TMA's largest box dim */
    box_is(TT_F16, 2, 64, 8, false, 0, 0, 0);          /* 16-byte rows: no wgmma swizzle */
    box_is(TT_F16, 2, 64, 96, false, 0, 0, 0);         /* 192-byte rows: not whole slabs */
    box_is(TT_F16, 2, 512, 64, false, 0, 0, 0);        /* more rows than a box holds */
    box_is(TT_F16, 2, 12, 64, false, 0, 0, 0);         /* rows not a multiple of 8 */
    box_is(TT_F32, 2, 64, 32, false, 0, 0, 0);         /* 32-bit elements */
    box_is(TT_F16, 3, 64, 64, false, 0, 0, 0);         /* rank 3 */
}
END_TEST

/* base (tensor) + shape (i32 x2) + strides (i64 x2) of one host descriptor */
static void desc_launch(launch *l, launch_arg *a, tt_tensor *t, int64_t rows, int64_t cols, int64_t b0, int64_t b1)
{
    memset(l, 0, sizeof *l);
    memset(a, 0, 5 * sizeof *a);
    a[0] = (launch_arg){ .name = "d", .kind = ARG_TENSOR, .tensor = t, .desc_rank = 2, .desc_block = { b0, b1 } };
    int64_t v[4] = { rows, cols, cols, 1 };
    for (int k = 0; k < 4; k++) a[1 + k] = (launch_arg){ .name = "s", .kind = ARG_INT, .dtype = k < 2 ? TT_I32 : TT_I64, .i = v[k] };
    l->args = a;
    l->nargs = 5;
}

START_TEST(encode_over_the_driver)
{
    const char *path = getenv("FAKE_CUDA");
    ck_assert_msg(path && *path, "FAKE_CUDA is not set");
    setenv("TRITIUM_LIBCUDA", path, 1);
    int64_t shape[2] = { 200, 112 };
    tt_tensor *t = tt_tensor_new_meta("A", TT_BF16, 2, shape);
    launch l;
    launch_arg a[5];
    desc_launch(&l, a, t, 200, 112, 128, 64);
    _Alignas(64) unsigned char map[128];
    char err[256] = "";
    memset(map, 0xAB, sizeof map);
    ck_assert_int_eq(gpu_tma_encode(&l, 0, 0x7000100, map, err, sizeof err), 0);
    fake_tmap m;
    memcpy(&m, map, sizeof m);
    ck_assert_int_eq(m.dtype, CUDA_TMAP_BF16);
    ck_assert_int_eq(m.rank, 2);
    ck_assert_uint_eq(m.addr, 0x7000100);
    ck_assert_uint_eq(m.dims[0], 112);                /* innermost first */
    ck_assert_uint_eq(m.dims[1], 200);
    ck_assert_uint_eq(m.stride, 112 * 2);             /* bytes */
    ck_assert_uint_eq(m.box[0], 64);
    ck_assert_uint_eq(m.box[1], 128);
    ck_assert_int_eq(m.swizzle, 3);                   /* CU_TENSOR_MAP_SWIZZLE_128B */

    /* a block TMA does not take: a zero map, no driver call needed */
    desc_launch(&l, a, t, 200, 112, 128, 8);
    memset(map, 0xAB, sizeof map);
    ck_assert_int_eq(gpu_tma_encode(&l, 0, 0x7000100, map, err, sizeof err), 0);
    for (size_t i = 0; i < sizeof map; i++) ck_assert_int_eq(map[i], 0);

    /* a negative shape is an error naming the argument */
    desc_launch(&l, a, t, -1, 112, 128, 64);
    ck_assert_int_eq(gpu_tma_encode(&l, 0, 0x7000100, map, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "argument d") && strstr(err, "out of range"), "%s", err);
    tt_tensor_free(t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gpu_tma");
    TCase *tc = tcase_create("tma");
    tcase_add_test(tc, box_rule);
    tcase_add_test(tc, encode_over_the_driver);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int nf = srunner_ntests_failed(sr);
    srunner_free(sr);
    return nf ? 1 : 0;
}
