/* test_tma.c — the TMA rules shared by the compiler and the launcher
 * (compiler/gpu/tma.c), without a GPU: gpu_tma_box against the wgmma tile
 * layout's cases written out by hand; gpu_tma_plan and gpu_tma_fill over the
 * stand-in driver (fake_cuda.c, $FAKE_CUDA), whose cuTensorMapEncodeTiled
 * writes its arguments into the map: CUDA's innermost-first dims, the outer
 * stride in bytes, the box and the swizzle, against the launch's numbers. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../compiler/gpu/gpu_int.h"
#include "fake_cuda.h"
#include "gpu_util.h"
#include "tritium/cuda.h"

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

/* A host descriptor argument as api/launch.c expands it: the base tensor,
 * then its shape (i32 x2) and strides (i64 x2). */
static void lb_desc(launch *l, const char *name, tt_dtype d, int64_t rows, int64_t cols, int64_t b0, int64_t b1)
{
    lb_tensor2(l, name, d, rows, cols);
    launch_arg *a = &l->args[l->nargs - 1];
    a->desc_rank = 2;
    a->desc_block[0] = b0;
    a->desc_block[1] = b1;
    int64_t v[4] = { rows, cols, cols, 1 };
    for (int k = 0; k < 4; k++) {
        lb_int(l, k < 2 ? "shape" : "strides", v[k]);
        l->args[l->nargs - 1].dtype = k < 2 ? TT_I32 : TT_I64;
    }
}

/* tests/gpu/kernels.py desc_mm (C = A @ B through two host descriptors):
 * the maps the launcher plans from the IR (gpu_tma_plan), and the ones
 * gpu_tma_fill encodes from a buffer packed by gpu_launcher_pack, as the
 * Python path's packer writes it, over the stand-in driver. */
START_TEST(fill_from_the_packed_buffer)
{
    const char *path = getenv("FAKE_CUDA");
    ck_assert_msg(path && *path, "FAKE_CUDA is not set");
    setenv("TRITIUM_LIBCUDA", path, 1);
    launch l;
    lb_init(&l, 2, 2, 1);
    lb_desc(&l, "a_desc", TT_BF16, 200, 112, 128, 64);       /* A: 200 x 112, blocks 128 x 64 */
    lb_desc(&l, "b_desc", TT_BF16, 112, 256, 64, 128);       /* B: 112 x 256, blocks 64 x 128 (two slabs) */
    lb_tensor2(&l, "c_ptr", TT_F32, 200, 256);
    lb_int(&l, "M", 200);
    lb_int(&l, "N", 256);
    lb_int(&l, "K", 112);
    lb_const(&l, "BM", 128);
    lb_const(&l, "BN", 128);
    lb_const(&l, "BK", 64);
    char *src = src_of("tests/gpu/kernels.py");
    ck_assert_ptr_nonnull(src);
    ir_func *f = compile_py(src, "desc_mm", &l);
    free(src);
    ck_assert_ptr_nonnull(f);
    gpu_launcher L;
    memset(&L, 0, sizeof L);
    snprintf(L.k.name, sizeof L.k.name, "desc_mm");
    char err[512] = "";
    ck_assert_msg(gpu_param_layout(f, &L.params, &L.size, err, sizeof err) == 0, "%s", err);
    L.nparams = f->regions.v[IR_BODY].nargs;
    ck_assert_int_eq(L.nparams, 14);                         /* 2 x (base, 2 shapes, 2 strides), c, M, N, K */
    ck_assert(gpu_tma_plan(f, 0, &L.tmap[0]));
    ck_assert(gpu_tma_plan(f, 5, &L.tmap[5]));
    ck_assert(!gpu_tma_plan(f, 10, &(gpu_tmap){ 0 }));       /* c_ptr: no descriptor loads */
    ck_assert_int_eq(L.tmap[0].dtype, CUDA_TMAP_BF16);
    ck_assert_uint_eq(L.tmap[0].box[0], 64);                 /* innermost first */
    ck_assert_uint_eq(L.tmap[0].box[1], 128);
    ck_assert_int_eq(L.tmap[0].swizzle, 128);
    ck_assert_uint_eq(L.tmap[5].box[0], 64);                 /* one 128-byte slab of B's 256-byte rows */
    ck_assert_uint_eq(L.tmap[5].box[1], 64);
    L.tma_used = 1ULL << 0 | 1ULL << 5;
    L.tmap[0].off = 128;                                     /* where cuFuncGetParamInfo would put them */
    L.tmap[5].off = 256;
    size_t scalars = L.size;
    L.size = 384;
    uint64_t addr[32] = { 0 };
    addr[0] = 0x7000100;
    addr[5] = 0x7100000;
    addr[10] = 0x7200000;
    _Alignas(64) unsigned char buf[384];
    memset(buf, 0xAB, sizeof buf);
    ck_assert_msg(gpu_launcher_pack(&L, &l, addr, buf, err, sizeof err) == 0, "%s", err);
    for (size_t i = scalars; i < sizeof buf; i++) ck_assert_int_eq(buf[i], 0);   /* the maps: left to the launch */
    ck_assert_int_eq(gpu_tma_fill(&L, buf), 0);
    fake_tmap m;
    memcpy(&m, buf + 128, sizeof m);
    ck_assert_int_eq(m.dtype, CUDA_TMAP_BF16);
    ck_assert_int_eq(m.rank, 2);
    ck_assert_uint_eq(m.addr, 0x7000100);
    ck_assert_uint_eq(m.dims[0], 112);
    ck_assert_uint_eq(m.dims[1], 200);
    ck_assert_uint_eq(m.stride, 112 * 2);                    /* bytes */
    ck_assert_uint_eq(m.box[0], 64);
    ck_assert_uint_eq(m.box[1], 128);
    ck_assert_int_eq(m.swizzle, 3);                          /* CU_TENSOR_MAP_SWIZZLE_128B */
    memcpy(&m, buf + 256, sizeof m);
    ck_assert_uint_eq(m.addr, 0x7100000);
    ck_assert_uint_eq(m.dims[0], 256);
    ck_assert_uint_eq(m.dims[1], 112);
    ck_assert_uint_eq(m.stride, 256 * 2);
    /* a shape the user got wrong (gpu mode packs it unchecked): the
     * driver's refusal, naming the numbers */
    int32_t bad = 0;
    memcpy(buf + L.params[1].offset, &bad, 4);
    ck_assert_int_eq(gpu_tma_fill(&L, buf), -1);
    ck_assert_msg(strstr(cuda_error(), "cuTensorMapEncodeTiled (address 0x7000100, dims 112 0"), "%s", cuda_error());
    free(L.params);
    launch_free(&l);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gpu_tma");
    TCase *tc = tcase_create("tma");
    tcase_add_test(tc, box_rule);
    tcase_add_test(tc, fill_from_the_packed_buffer);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int nf = srunner_ntests_failed(sr);
    srunner_free(sr);
    return nf ? 1 : 0;
}
