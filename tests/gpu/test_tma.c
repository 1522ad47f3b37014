/* test_tma.c — the TMA rules shared by the compiler and the launcher
 * (compiler/gpu/tma.c), without a GPU: gpu_tma_box against the wgmma tile
 * layout's cases written out by hand; gpu_tma_maps and gpu_tma_fill over the
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

/* A launcher over f laid out as tail_layout does it, without a driver:
 * gpu_tma_maps' maps at 128-byte slots after the parameters. */
static void lay_out(gpu_launcher *L, const ir_func *f, const gpu_spec *spec, const char *name)
{
    memset(L, 0, sizeof *L);
    snprintf(L->k.name, sizeof L->k.name, "%s", name);
    char err[512] = "";
    ck_assert_msg(gpu_param_layout(f, &L->params, &L->size, err, sizeof err) == 0, "%s", err);
    L->nparams = f->regions.v[IR_BODY].nargs;
    L->nmaps = gpu_tma_maps(f, spec, L->tmap, GPU_MAX_TMAPS);
    L->tma_used = L->nmaps ? (1ULL << L->nmaps) - 1 : 0;
    size_t at = (L->size + 127) & ~(size_t)127;
    for (int j = 0; j < L->nmaps; j++) L->tmap[j].off = (int)(at + 128 * (size_t)j);
    if (L->nmaps) L->size = at + 128 * (size_t)L->nmaps;
}

static void use_fake_driver(void)
{
    const char *path = getenv("FAKE_CUDA");
    ck_assert_msg(path && *path, "FAKE_CUDA is not set");
    setenv("TRITIUM_LIBCUDA", path, 1);
    tt_settings_reload();
}

/* Pack launch l into buf (n bytes, 64-byte aligned) as the Python path's
 * packer does (gpu_launcher_pack) and encode L's maps into it. */
static void pack_and_fill(const gpu_launcher *L, const launch *l, const uint64_t *addr, unsigned char *buf, size_t n)
{
    char err[512] = "";
    ck_assert_uint_le(L->size, n);
    ck_assert_msg(gpu_launcher_pack(L, l, addr, buf, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(gpu_tma_fill(L, buf), 0);
}

/* Map j of buf: the stand-in driver wrote its arguments there. */
static fake_tmap map_at(const gpu_launcher *L, const unsigned char *buf, int j)
{
    fake_tmap m;
    memcpy(&m, buf + L->tmap[j].off, sizeof m);
    return m;
}

/* tests/gpu/kernels.py desc_mm (C = A @ B through two host descriptors):
 * the maps the launcher plans from the IR (gpu_tma_maps), and the ones
 * gpu_tma_fill encodes from a buffer packed by gpu_launcher_pack, as the
 * Python path's packer writes it, over the stand-in driver. */
START_TEST(fill_from_the_packed_buffer)
{
    use_fake_driver();
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
    uint64_t addr[32] = { 0 };
    addr[0] = 0x7000100;
    addr[5] = 0x7100000;
    addr[10] = 0x7200000;
    gpu_spec spec = gpu_spec_of_args(f, &l, addr);
    gpu_launcher L;
    lay_out(&L, f, &spec, "desc_mm");
    ck_assert_int_eq(L.nparams, 14);                         /* 2 x (base, 2 shapes, 2 strides), c, M, N, K */
    ck_assert_int_eq(L.nmaps, 2);                            /* c_ptr: no descriptor loads */
    ck_assert_int_eq(L.tmap[0].dtype, CUDA_TMAP_BF16);
    ck_assert_uint_eq(L.tmap[0].box[0], 64);                 /* innermost first */
    ck_assert_uint_eq(L.tmap[0].box[1], 128);
    ck_assert_int_eq(L.tmap[0].swizzle, 128);
    ck_assert_uint_eq(L.tmap[1].box[0], 64);                 /* one 128-byte slab of B's 256-byte rows */
    ck_assert_uint_eq(L.tmap[1].box[1], 64);
    char err[512] = "";
    _Alignas(64) unsigned char buf[512];
    ck_assert_uint_le(L.size, sizeof buf);
    memset(buf, 0xAB, sizeof buf);
    ck_assert_msg(gpu_launcher_pack(&L, &l, addr, buf, err, sizeof err) == 0, "%s", err);
    for (size_t i = (size_t)L.tmap[0].off; i < L.size; i++) ck_assert_int_eq(buf[i], 0);   /* left to the launch */
    ck_assert_int_eq(gpu_tma_fill(&L, buf), 0);
    fake_tmap m = map_at(&L, buf, 0);
    ck_assert_int_eq(m.dtype, CUDA_TMAP_BF16);
    ck_assert_int_eq(m.rank, 2);
    ck_assert_uint_eq(m.addr, 0x7000100);
    ck_assert_uint_eq(m.dims[0], 112);
    ck_assert_uint_eq(m.dims[1], 200);
    ck_assert_uint_eq(m.strides[0], 112 * 2);                    /* bytes */
    ck_assert_uint_eq(m.box[0], 64);
    ck_assert_uint_eq(m.box[1], 128);
    ck_assert_int_eq(m.swizzle, 3);                          /* CU_TENSOR_MAP_SWIZZLE_128B */
    m = map_at(&L, buf, 1);
    ck_assert_uint_eq(m.addr, 0x7100000);
    ck_assert_uint_eq(m.dims[0], 256);
    ck_assert_uint_eq(m.dims[1], 112);
    ck_assert_uint_eq(m.strides[0], 256 * 2);
    /* a shape the user got wrong (gpu mode packs it unchecked): the
     * driver's refusal, naming the numbers */
    int32_t bad = 0;
    memcpy(buf + L.params[1].offset, &bad, 4);
    ck_assert_int_eq(gpu_tma_fill(&L, buf), -1);
    ck_assert_msg(strstr(cuda_error(), "cuTensorMapEncodeTiled (address 0x7000100, dims 112 0"), "%s", cuda_error());
    /* a row stride the specialization does not prove a multiple of 16
     * bytes: no map (the loads keep cp.async) */
    spec.div16 &= ~(1ULL << 3);
    ck_assert_int_eq(gpu_tma_maps(f, &spec, L.tmap, GPU_MAX_TMAPS), 1);
    free(L.params);
    launch_free(&l);
}
END_TEST

static ir_func *compile_kernel(const char *path, const char *kernel, const launch *l)
{
    char *src = src_of(path);
    ck_assert_ptr_nonnull(src);
    ir_func *f = compile_py(src, kernel, l);
    free(src);
    ck_assert_ptr_nonnull(f);
    return f;
}

/* kernels.py dev_desc_mm: tl.make_tensor_descriptor of the kernel's own
 * pointer and sizes. The maps' programs read the parameters the launch
 * packed: A's base, [M, K] and K; B's base, [K, N] and N. */
START_TEST(maps_of_in_kernel_descriptors)
{
    use_fake_driver();
    launch l;
    lb_mm(&l, TT_F16, 200, 144, 112, 128, 128, 64);
    ir_func *f = compile_kernel("tests/gpu/kernels.py", "dev_desc_mm", &l);
    uint64_t addr[16] = { 0x7000100, 0x7100000, 0x7200000 };
    gpu_spec spec = gpu_spec_of_args(f, &l, addr);
    gpu_launcher L;
    lay_out(&L, f, &spec, "dev_desc_mm");
    ck_assert_int_eq(L.nmaps, 2);
    _Alignas(64) unsigned char buf[512];
    pack_and_fill(&L, &l, addr, buf, sizeof buf);
    fake_tmap a = map_at(&L, buf, 0), b = map_at(&L, buf, 1);
    ck_assert_uint_eq(a.addr, 0x7000100);
    ck_assert_uint_eq(a.dims[0], 112);
    ck_assert_uint_eq(a.dims[1], 200);
    ck_assert_uint_eq(a.strides[0], 112 * 2);
    ck_assert_uint_eq(a.box[0], 64);
    ck_assert_uint_eq(a.box[1], 128);
    ck_assert_uint_eq(b.addr, 0x7100000);
    ck_assert_uint_eq(b.dims[0], 144);
    ck_assert_uint_eq(b.dims[1], 112);
    ck_assert_uint_eq(b.strides[0], 144 * 2);
    ck_assert_uint_eq(b.box[1], 64);
    /* other numbers in the same buffer: the next launch's maps follow them */
    int32_t m2 = 72, k2 = 48;
    memcpy(buf + L.params[3].offset, &m2, 4);
    memcpy(buf + L.params[5].offset, &k2, 4);
    ck_assert_int_eq(gpu_tma_fill(&L, buf), 0);
    a = map_at(&L, buf, 0);
    ck_assert_uint_eq(a.dims[0], 48);
    ck_assert_uint_eq(a.dims[1], 72);
    ck_assert_uint_eq(a.strides[0], 48 * 2);
    free(L.params);
    /* K = 100: A's row stride is not a multiple of 16 bytes, so only B has
     * a map; a misaligned base has none either */
    spec.div16 &= ~(1ULL << 5);
    ck_assert_int_eq(gpu_tma_maps(f, &spec, L.tmap, GPU_MAX_TMAPS), 1);
    ck_assert_uint_eq(L.tmap[0].desc[0], f->regions.v[IR_BODY].args[1]);   /* b_ptr */
    spec.div16 &= ~(1ULL << 1);
    ck_assert_int_eq(gpu_tma_maps(f, &spec, L.tmap, GPU_MAX_TMAPS), 0);
    ck_assert_int_eq(gpu_tma_maps(f, NULL, L.tmap, GPU_MAX_TMAPS), 0);
    launch_free(&l);
}
END_TEST

/* kernels.py bp_mm: block pointers carried through the K loop. Loads
 * checked along both dims get maps; B checked along dim 0 only does not
 * (TMA would zero what Triton reads); a column stride that is not 1 gets
 * none either. */
START_TEST(maps_of_block_pointers)
{
    use_fake_driver();
    for (int check_b = 0; check_b < 2; check_b++)
        for (int sak = 1; sak <= 2; sak++) {
            launch l;
            lb_mm(&l, TT_F16, 192, 128, 96, 64, 128, 32);
            lb_int(&l, "stride_am", 96 * sak);
            lb_int(&l, "stride_ak", sak);
            lb_int(&l, "stride_bk", 128);
            lb_int(&l, "stride_bn", 1);
            lb_const(&l, "CHECK_B", check_b);
            ir_func *f = compile_kernel("tests/gpu/kernels.py", "bp_mm", &l);
            uint64_t addr[16] = { 0x7000000, 0x7100000, 0x7200000 };
            gpu_spec spec = gpu_spec_of_args(f, &l, addr);
            gpu_launcher L;
            lay_out(&L, f, &spec, "bp_mm");
            int want = (sak == 1) + check_b;
            ck_assert_msg(L.nmaps == want, "CHECK_B=%d stride_ak=%d: %d maps, want %d", check_b, sak, L.nmaps, want);
            _Alignas(64) unsigned char buf[512];
            pack_and_fill(&L, &l, addr, buf, sizeof buf);
            for (int j = 0; j < L.nmaps; j++) {
                fake_tmap m = map_at(&L, buf, j);
                bool is_a = m.addr == 0x7000000;
                ck_assert_uint_eq(m.addr, is_a ? 0x7000000 : 0x7100000);
                ck_assert_uint_eq(m.dims[0], is_a ? 96 : 128);
                ck_assert_uint_eq(m.dims[1], is_a ? 192 : 96);
                ck_assert_uint_eq(m.strides[0], (is_a ? 96 : 128) * 2);
                ck_assert_uint_eq(m.box[0], is_a ? 32 : 64);
                ck_assert_uint_eq(m.box[1], is_a ? 64 : 32);
            }
            free(L.params);
            launch_free(&l);
        }
}
END_TEST

/* kernels.py bmm: each program's base is a_ptr + z * stride_az + h *
 * stride_ah. The map is rank 4 over a_ptr itself: [K, M] then two batch
 * dims as long as an i32 coordinate, whose strides are the batch strides
 * (bytes); the kernel passes z and h as their coordinates. A batch stride
 * that is not a multiple of 16 bytes gets no map. */
START_TEST(maps_of_batched_bases)
{
    use_fake_driver();
    for (int desc = 0; desc < 2; desc++) {
        int64_t M = 200, N = 144, K = 112, H = 3;
        launch l;
        lb_init(&l, 2, 2, 6);
        int64_t as[4] = { 2, H, M, K }, bs[4] = { 2, H, K, N }, cs[4] = { 2, H, M, N };
        lb_tensor(&l, "a_ptr", TT_F16, 4, as);
        lb_tensor(&l, "b_ptr", TT_F16, 4, bs);
        lb_tensor(&l, "c_ptr", TT_F16, 4, cs);
        lb_int(&l, "M", M);
        lb_int(&l, "N", N);
        lb_int(&l, "K", K);
        lb_int(&l, "H", H);
        lb_int(&l, "stride_az", H * M * K);
        lb_int(&l, "stride_ah", M * K);
        lb_int(&l, "stride_bz", H * K * N);
        lb_int(&l, "stride_bh", K * N);
        lb_const(&l, "BM", 128);
        lb_const(&l, "BN", 128);
        lb_const(&l, "BK", 64);
        lb_const(&l, "DESC", desc);
        ir_func *f = compile_kernel("tests/gpu/kernels.py", "bmm", &l);
        uint64_t addr[16] = { 0x7000000, 0x7100000, 0x7200000 };
        gpu_spec spec = gpu_spec_of_args(f, &l, addr);
        gpu_launcher L;
        lay_out(&L, f, &spec, "bmm");
        ck_assert_int_eq(L.nmaps, 2);
        ck_assert_int_eq(L.tmap[0].rank, 4);
        _Alignas(64) unsigned char buf[512];
        pack_and_fill(&L, &l, addr, buf, sizeof buf);
        fake_tmap a = map_at(&L, buf, 0);
        ck_assert_int_eq(a.rank, 4);
        ck_assert_uint_eq(a.addr, 0x7000000);
        ck_assert_uint_eq(a.dims[0], (uint64_t)K);
        ck_assert_uint_eq(a.dims[1], (uint64_t)M);
        ck_assert_uint_eq(a.dims[2], INT32_MAX);
        ck_assert_uint_eq(a.dims[3], INT32_MAX);
        ck_assert_uint_eq(a.strides[0], (uint64_t)K * 2);
        ck_assert_uint_eq(a.strides[1], (uint64_t)(H * M * K) * 2);   /* z */
        ck_assert_uint_eq(a.strides[2], (uint64_t)(M * K) * 2);       /* h */
        ck_assert_uint_eq(a.box[2], 1);
        ck_assert_uint_eq(a.box[3], 1);
        ck_assert_uint_eq(map_at(&L, buf, 1).strides[2], (uint64_t)(K * N) * 2);
        free(L.params);
        spec.div16 &= ~(1ULL << 8);                                   /* stride_ah: no longer % 16 */
        ck_assert_int_eq(gpu_tma_maps(f, &spec, L.tmap, GPU_MAX_TMAPS), 1);
        launch_free(&l);
    }
}
END_TEST

/* kernels.py attn_heads_bp: K and V through per-head block pointers,
 * checked along both dims (their rows [N]) or not at all (CHECK=False):
 * unchecked rows are as long as an i32 coordinate, the unchecked head dim
 * at offset 0 as long as the block, so TMA reads what the pointers do. */
START_TEST(maps_of_unchecked_block_pointers)
{
    use_fake_driver();
    for (int check = 0; check < 2; check++) {
        int64_t N = 256, H = 3, D = 64;
        launch l;
        lb_init(&l, 2, 6, 1);
        int64_t shape[4] = { 2, H, N, D };
        const char *names[4] = { "q_ptr", "k_ptr", "v_ptr", "o_ptr" };
        for (int k = 0; k < 4; k++) lb_tensor(&l, names[k], TT_F16, 4, shape);
        lb_int(&l, "N", N);
        lb_int(&l, "H", H);
        lb_int(&l, "stride_z", H * N * D);
        lb_int(&l, "stride_h", N * D);
        lb_int(&l, "stride_n", D);
        lb_const(&l, "D", D);
        lb_const(&l, "BM", 128);
        lb_const(&l, "BN", 64);
        lb_const(&l, "CHECK", check);
        ir_func *f = compile_kernel("tests/gpu/kernels.py", "attn_heads_bp", &l);
        uint64_t addr[16] = { 0x7000000, 0x7100000, 0x7200000, 0x7300000 };
        gpu_spec spec = gpu_spec_of_args(f, &l, addr);
        gpu_launcher L;
        lay_out(&L, f, &spec, "attn_heads_bp");
        ck_assert_int_eq(L.nmaps, 3);                       /* Q, K, V */
        _Alignas(64) unsigned char buf[1024];
        pack_and_fill(&L, &l, addr, buf, sizeof buf);
        for (int j = 0; j < 3; j++) {
            fake_tmap m = map_at(&L, buf, j);
            bool q = m.addr == 0x7000000;                   /* Q is checked either way */
            ck_assert_int_eq(m.rank, 4);
            ck_assert_uint_eq(m.dims[0], (uint64_t)D);
            ck_assert_uint_eq(m.dims[1], check || q ? (uint64_t)N : INT32_MAX);
            ck_assert_uint_eq(m.strides[0], (uint64_t)D * 2);
            ck_assert_uint_eq(m.strides[1], (uint64_t)(H * N * D) * 2);
        }
        free(L.params);
        launch_free(&l);
    }
}
END_TEST

/* Unchecked rows get a map only where their offsets are never negative
 * (TMA zero-fills a negative row, Triton reads it): from a parameter, no;
 * through tl.maximum(start, 0), yes; a loop advancing by -BM, no; by +BM
 * from a program id, yes. An unchecked contiguous dim at an offset that is
 * not a constant gets none. */
static const char rows_src[] =
    "import triton\n"
    "import triton.language as tl\n"
    "@triton.jit\n"
    "def rows(x_ptr, y_ptr, start, N, BM: tl.constexpr, BK: tl.constexpr, MODE: tl.constexpr):\n"
    "    s = start\n"
    "    if MODE == 1:\n"
    "        s = tl.maximum(start, 0)\n"
    "    if MODE >= 2:\n"
    "        s = tl.program_id(0) * BM\n"
    "    step = -BM if MODE == 2 else BM\n"
    "    c = start if MODE == 4 else 0\n"
    "    bp = tl.make_block_ptr(x_ptr, (N, N), (N, 1), (s, c), (BM, BK), (1, 0))\n"
    "    acc = tl.zeros([BM, BM], dtype=tl.float32)\n"
    "    for i in range(0, 4):\n"
    "        x = tl.load(bp)\n"
    "        acc = tl.dot(x, tl.trans(x), acc)\n"
    "        bp = tl.advance(bp, (step, 0))\n"
    "    o = tl.arange(0, BM)\n"
    "    tl.store(y_ptr + o[:, None] * BM + o[None, :], acc)\n";

START_TEST(unchecked_rows_need_nonnegative_offsets)
{
    for (int mode = 0; mode < 5; mode++) {
        launch l;
        lb_init(&l, 4, 1, 1);
        lb_tensor2(&l, "x_ptr", TT_F16, 512, 512);
        lb_tensor2(&l, "y_ptr", TT_F32, 64, 64);
        lb_int(&l, "start", 64);
        lb_int(&l, "N", 512);
        lb_const(&l, "BM", 64);
        lb_const(&l, "BK", 64);
        lb_const(&l, "MODE", mode);
        ir_func *f = compile_py(rows_src, "rows", &l);
        ck_assert_ptr_nonnull(f);
        uint64_t addr[16] = { 0x7000000, 0x7100000 };
        gpu_spec spec = gpu_spec_of_args(f, &l, addr);
        gpu_tmap maps[GPU_MAX_TMAPS];
        int want = mode == 1 || mode == 3;
        ck_assert_msg(gpu_tma_maps(f, &spec, maps, GPU_MAX_TMAPS) == want, "MODE=%d: want %d maps", mode, want);
        launch_free(&l);
    }
}
END_TEST

/* Triton's tutorial 06 with tensors for desc_q/k/v/o: its in-kernel
 * descriptors have shape [Z * H * N_CTX, HEAD_DIM], which the maps'
 * programs multiply out at each launch. */
START_TEST(maps_of_tutorial_06)
{
    use_fake_driver();
    launch l;
    lb_init(&l, 2, 6, 1);
    lb_float(&l, "sm_scale", 0.5);
    int64_t y = 2 * 3 * 256;
    lb_tensor1(&l, "M", TT_F32, y);
    lb_int(&l, "Z", 2);
    lb_int(&l, "H", 3);
    const char *names[4] = { "desc_q", "desc_k", "desc_v", "desc_o" };
    for (int k = 0; k < 4; k++) lb_tensor2(&l, names[k], TT_F16, y, 64);
    lb_int(&l, "N_CTX", 256);
    lb_const(&l, "HEAD_DIM", 64);
    lb_const(&l, "BLOCK_M", 128);
    lb_const(&l, "BLOCK_N", 64);
    lb_const(&l, "FP8_OUTPUT", 0);
    lb_const(&l, "STAGE", 3);
    lb_const(&l, "warp_specialize", 0);
    lb_const(&l, "IS_HOPPER", 1);
    ir_func *f = compile_kernel("tests/python/tutorials/06-fused-attention.py", "_attn_fwd", &l);
    uint64_t addr[16] = { 0, 0x6000000, 0, 0, 0x7000000, 0x7100000, 0x7200000, 0x7300000 };
    gpu_spec spec = gpu_spec_of_args(f, &l, addr);
    gpu_launcher L;
    lay_out(&L, f, &spec, "_attn_fwd");
    ck_assert_int_eq(L.nmaps, 3);                           /* Q, K and V are loaded; O is stored */
    _Alignas(64) unsigned char buf[1024];
    pack_and_fill(&L, &l, addr, buf, sizeof buf);
    bool seen[3] = { false };
    for (int j = 0; j < 3; j++) {
        fake_tmap m = map_at(&L, buf, j);
        ck_assert_uint_eq(m.dims[0], 64);
        ck_assert_uint_eq(m.dims[1], (uint64_t)y);            /* Z * H * N_CTX */
        ck_assert_uint_eq(m.strides[0], 64 * 2);
        ck_assert(m.addr >= 0x7000000 && m.addr <= 0x7200000 && m.addr % 0x100000 == 0);
        seen[(m.addr - 0x7000000) / 0x100000] = true;
    }
    ck_assert(seen[0] && seen[1] && seen[2]);
    free(L.params);
    launch_free(&l);
}
END_TEST

/* The programs' arithmetic, written by hand: i32 wraps as the IR's does,
 * and a division by zero fails the launch with a message instead of
 * trapping the host. */
START_TEST(programs_wrap_and_refuse_division_by_zero)
{
    use_fake_driver();
    gpu_launcher L;
    memset(&L, 0, sizeof L);
    snprintf(L.k.name, sizeof L.k.name, "k");
    gpu_param params[2] = { { GPU_P_PTR, 0 }, { GPU_P_I32, 8 } };
    L.params = params;
    L.nparams = 2;
    L.nmaps = 1;
    L.tma_used = 1;
    gpu_tmap *t = &L.tmap[0];
    t->off = 64;
    t->rank = 2;
    t->dtype = CUDA_TMAP_F16;
    t->box[0] = 64;
    t->box[1] = 64;
    t->swizzle = 128;
    const gpu_tstep prog[] = {
        { GPU_TS_PARAM, 64, 0, 0 },                                     /* base */
        { GPU_TS_PARAM, 32, 1, 0 }, { GPU_TS_CONST, 32, 0, 1 }, { GPU_TS_ADD, 32, 0, 0 },   /* n + 1 (i32) */
        { GPU_TS_PARAM, 32, 1, 0 }, { GPU_TS_CONST, 32, 0, 2 }, { GPU_TS_DIVS, 32, 0, 0 },  /* n / 2 */
        { GPU_TS_PARAM, 32, 1, 0 }, { GPU_TS_EXTU, 32, 0, 0 }, { GPU_TS_CONST, 64, 0, 64 },
        { GPU_TS_REMU, 64, 0, 0 }, { GPU_TS_CONST, 64, 0, 64 }, { GPU_TS_ADD, 64, 0, 0 },   /* n % 64 + 64 */
    };
    memcpy(t->step, prog, sizeof prog);
    t->nsteps = (int)TT_COUNTOF(prog);
    _Alignas(64) unsigned char buf[192] = { 0 };
    uint64_t base = 0x7000000;
    memcpy(buf, &base, 8);
    int32_t n = 1000;
    memcpy(buf + 8, &n, 4);
    L.size = sizeof buf;
    ck_assert_int_eq(gpu_tma_fill(&L, buf), 0);
    fake_tmap m = map_at(&L, buf, 0);
    ck_assert_uint_eq(m.dims[1], 1001);
    ck_assert_uint_eq(m.dims[0], 500);
    ck_assert_uint_eq(m.strides[0], (1000 % 64 + 64) * 2);
    n = INT32_MAX;                                     /* n + 1 wraps to INT32_MIN: the driver refuses it */
    memcpy(buf + 8, &n, 4);
    ck_assert_int_eq(gpu_tma_fill(&L, buf), -1);
    ck_assert_msg(strstr(cuda_error(), "cuTensorMapEncodeTiled"), "%s", cuda_error());
    t->step[5].imm = 0;                                /* n / 0 */
    n = 1000;
    memcpy(buf + 8, &n, 4);
    ck_assert_int_eq(gpu_tma_fill(&L, buf), -1);
    ck_assert_msg(strstr(cuda_error(), "kernel k: tensor map 0: its shape or strides divide by zero"), "%s",
                  cuda_error());
}
END_TEST

/* Block pointers and their TMA maps are the language of Triton 3.6-3.8
 * (3.9's core.py removed make_block_ptr): these tests follow 3.8. */
static void follow_38(void) { front_set_triton_version(8); }
static void follow_default(void) { front_set_triton_version(-1); }

int main(void)
{
    Suite *s = suite_create("gpu_tma");
    TCase *tc = tcase_create("tma");
    tcase_add_checked_fixture(tc, follow_38, follow_default);
    tcase_add_test(tc, box_rule);
    tcase_add_test(tc, fill_from_the_packed_buffer);
    tcase_add_test(tc, maps_of_in_kernel_descriptors);
    tcase_add_test(tc, maps_of_block_pointers);
    tcase_add_test(tc, maps_of_batched_bases);
    tcase_add_test(tc, maps_of_unchecked_block_pointers);
    tcase_add_test(tc, unchecked_rows_need_nonnegative_offsets);
    tcase_add_test(tc, maps_of_tutorial_06);
    tcase_add_test(tc, programs_wrap_and_refuse_division_by_zero);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int nf = srunner_ntests_failed(sr);
    srunner_free(sr);
    return nf ? 1 : 0;
}
