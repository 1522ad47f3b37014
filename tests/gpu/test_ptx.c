/* test_ptx.c — IR -> PTX without a GPU: kernels from examples/ and
 * tests/gpu/kernels.py compile, ptxas accepts them (skipped when ptxas is
 * missing), and the PTX shows the lowering decisions the spec asks for
 * (16-byte vectors only where alignment is proven, numerics modes, tensor
 * cores, launch bounds), plus the compile cache's keying. */
#include <check.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gpu_util.h"

static bool have_ptxas = true;

/* Compile kernel for launch l with options; returns the PTX (caller frees). */
static char *ptx_for(const char *file, const char *kernel, launch *l, gpu_options *o, int *smem)
{
    char *src = src_of(file);
    ck_assert_ptr_nonnull(src);
    ir_func *f = compile_py(src, kernel, l);
    free(src);
    ck_assert_ptr_nonnull(f);
    gpu_options d;
    if (!o) { gpu_options_default(&d); o = &d; }
    o->no_cache = true;
    gpu_spec spec = gpu_spec_of_launch(f, l);
    gpu_kernel k;
    char err[1024];
    int rc = gpu_compile(f, o, &spec, &k, err, sizeof err);
    ck_assert_msg(rc == 0, "%s", err);
    int pr = ptxas_check(k.ptx, k.arch);
    if (pr < 0) have_ptxas = false;
    else ck_assert_msg(pr == 1, "ptxas rejected %s", kernel);
    char *ptx = xstrdup(k.ptx);
    if (smem) *smem = k.smem_bytes;
    gpu_kernel_free(&k);
    return ptx;
}

static void vadd_launch(launch *l, int64_t n, int block)
{
    lb_init(l, (n + block - 1) / block, 1, 1);
    lb_tensor1(l, "x_ptr", TT_F32, n);
    lb_tensor1(l, "y_ptr", TT_F32, n);
    lb_tensor1(l, "output_ptr", TT_F32, n);
    lb_int(l, "n_elements", n);
    lb_const(l, "BLOCK_SIZE", block);
}

START_TEST(vector_add_vectorized)
{
    launch l;
    vadd_launch(&l, 98432, 1024);           /* n % 16 == 0: 16-byte accesses */
    char *ptx = ptx_for("examples/vector_add.py", "add_kernel", &l, NULL, NULL);
    /* 1024 elements / 128 threads = 8 per thread = 2 chunks of 4, x and y */
    ck_assert_int_eq(count_substr(ptx, "ld.global.v4.b32"), 4);
    ck_assert_int_eq(count_substr(ptx, "st.global.v4.b32"), 2);
    ck_assert_int_eq(count_substr(ptx, "add.rn.f32"), 8);
    ck_assert(strstr(ptx, ".maxntid 128, 1, 1"));
    ck_assert(strstr(ptx, ".target sm_90"));
    free(ptx);
    launch_free(&l);
}
END_TEST

START_TEST(vector_add_unaligned_n)
{
    launch l;
    vadd_launch(&l, 4097, 1024);            /* n not divisible by 16: the mask may change inside a vector */
    char *ptx = ptx_for("examples/vector_add.py", "add_kernel", &l, NULL, NULL);
    ck_assert_int_eq(count_substr(ptx, "ld.global.v4"), 0);
    ck_assert_int_eq(count_substr(ptx, "ld.global.b32"), 16);
    ck_assert_int_eq(count_substr(ptx, "st.global.b32"), 8);
    free(ptx);
    launch_free(&l);
}
END_TEST

START_TEST(num_warps_and_arch)
{
    launch l;
    vadd_launch(&l, 98432, 1024);
    gpu_options o;
    gpu_options_default(&o);
    o.set.num_warps = 8;
    o.set.arch = "sm_80";
    char *ptx = ptx_for("examples/vector_add.py", "add_kernel", &l, &o, NULL);
    ck_assert(strstr(ptx, ".maxntid 256, 1, 1"));
    ck_assert(strstr(ptx, ".target sm_80"));
    ck_assert_int_eq(count_substr(ptx, "ld.global.v4.b32"), 2);
    free(ptx);
    launch_free(&l);
}
END_TEST

static void softmax_launch(launch *l)
{
    lb_init(l, 128, 1, 1);
    lb_tensor2(l, "output_ptr", TT_F32, 200, 781);
    lb_tensor2(l, "input_ptr", TT_F32, 200, 781);
    lb_int(l, "input_row_stride", 781);
    lb_int(l, "output_row_stride", 781);
    lb_int(l, "n_rows", 200);
    lb_int(l, "n_cols", 781);
    lb_const(l, "BLOCK_SIZE", 1024);
}

START_TEST(numerics_modes)
{
    launch l;
    softmax_launch(&l);
    int smem = 0;
    char *ieee = ptx_for("examples/softmax.py", "softmax_kernel", &l, NULL, &smem);
    ck_assert(strstr(ieee, "div.rn.f32"));
    ck_assert(!strstr(ieee, "div.full.f32"));
    ck_assert_int_eq(count_substr(ieee, "fma.rn.f32") > 0, 1);   /* inside libdevice's expf only */
    /* reductions: 5 butterfly steps for max and for sum, partials of 4 warps in smem */
    ck_assert_int_eq(count_substr(ieee, "shfl.sync.bfly.b32"), 10);
    ck_assert_int_ge(smem, 16);
    gpu_options o;
    gpu_options_default(&o);
    o.set.numerics = NUMERICS_FAST;
    char *fast = ptx_for("examples/softmax.py", "softmax_kernel", &l, &o, NULL);
    ck_assert(strstr(fast, "div.full.f32"));
    ck_assert(strstr(fast, "ex2.approx.f32"));
    ck_assert(!strstr(fast, "div.rn.f32"));
    free(ieee);
    free(fast);
    launch_free(&l);
}
END_TEST

static void mm_launch(launch *l, tt_dtype dt, int ieee)
{
    lb_init(l, 2, 2, 1);
    lb_tensor2(l, "a_ptr", dt, 128, 64);
    lb_tensor2(l, "b_ptr", dt, 64, 128);
    lb_tensor2(l, "c_ptr", TT_F32, 128, 128);
    lb_int(l, "M", 128);
    lb_int(l, "N", 128);
    lb_int(l, "K", 64);
    lb_const(l, "BM", 64);
    lb_const(l, "BN", 64);
    lb_const(l, "BK", 32);
    lb_const(l, "IEEE", ieee);
}

/* Ampere's mma.sync on sm_90 (gpu_options.mma_sync: $TRITIUM_WGMMA=0). */
static gpu_options mma_sync_options(void)
{
    gpu_options o;
    gpu_options_default(&o);
    o.set.mma_sync = true;
    return o;
}

START_TEST(dot_paths)
{
    launch l;
    gpu_options o = mma_sync_options();
    mm_launch(&l, TT_F16, 0);
    char *p = ptx_for("tests/gpu/kernels.py", "mm", &l, &o, NULL);
    ck_assert(strstr(p, ".target sm_90\n"));   /* not sm_90a: no wgmma */
    /* 64x64 tile, 4 warps along M: 8 n-tiles x 2 k-steps per warp */
    ck_assert_int_eq(count_substr(p, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"), 16);
    free(p);
    launch_free(&l);
    mm_launch(&l, TT_BF16, 0);
    p = ptx_for("tests/gpu/kernels.py", "mm", &l, &o, NULL);
    ck_assert_int_eq(count_substr(p, "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"), 16);
    free(p);
    launch_free(&l);
    mm_launch(&l, TT_F32, 0);               /* f32 inputs default to tf32 */
    p = ptx_for("tests/gpu/kernels.py", "mm", &l, NULL, NULL);
    ck_assert_int_eq(count_substr(p, "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"), 32);
    free(p);
    launch_free(&l);
    mm_launch(&l, TT_F32, 1);               /* input_precision="ieee": FMA, in k order */
    p = ptx_for("tests/gpu/kernels.py", "mm", &l, NULL, NULL);
    ck_assert_int_eq(count_substr(p, "mma.sync"), 0);
    ck_assert_int_eq(count_substr(p, "fma.rn.f32"), 32 * 32);
    free(p);
    launch_free(&l);
}
END_TEST

static void mm_launch_k(launch *l, int64_t K)
{
    lb_init(l, 2, 2, 1);
    lb_tensor2(l, "a_ptr", TT_F16, 128, K);
    lb_tensor2(l, "b_ptr", TT_F16, K, 128);
    lb_tensor2(l, "c_ptr", TT_F32, 128, 128);
    lb_int(l, "M", 128);
    lb_int(l, "N", 128);
    lb_int(l, "K", K);
    lb_const(l, "BM", 64);
    lb_const(l, "BN", 64);
    lb_const(l, "BK", 32);
    lb_const(l, "IEEE", 0);
}

/* 64x64x32 f16 tiles, 4 warps as 2x2 (warp tile 32x32: 2 m16 x 4 n8 tiles).
 * Per k16 step a warp issues 2 ldmatrix.x4 for A and 2 ldmatrix.x4.trans
 * for B (two n8 tiles each), 2 k16 steps per BK=32. */
START_TEST(dot_pipeline)
{
    launch l;
    int smem = 0;
    gpu_options o = mma_sync_options();
    mm_launch_k(&l, 64);                    /* K % 16 == 0: both operands pipelined */
    char *p = ptx_for("tests/gpu/kernels.py", "mm", &l, &o, &smem);
    /* a stage = A 64x32 + B 32x64 f16 = 8 KB <= 16 KB: 4 stages */
    ck_assert_int_eq(smem, 4 * 8192);
    /* 16-byte copies: (4096 B / 16) / 128 threads = 2 per operand and thread;
     * 3 prologue issues + 1 in the loop body */
    ck_assert_int_eq(count_substr(p, "cp.async.cg.shared.global"), 4 * 2 * 2);
    ck_assert_int_eq(count_substr(p, "cp.async.wait_group 2;"), 1);
    ck_assert_int_eq(count_substr(p, "ldmatrix.sync.aligned.m8n8.x4.shared.b16"), 2 * 2);
    ck_assert_int_eq(count_substr(p, "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16"), 2 * 2);
    ck_assert_int_eq(count_substr(p, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"), 2 * 4 * 2);
    free(p);
    launch_free(&l);
    mm_launch_k(&l, 72);                    /* rows of A not provably 16-byte aligned: A from registers */
    p = ptx_for("tests/gpu/kernels.py", "mm", &l, &o, &smem);
    ck_assert_int_eq(smem, 4 * 4096 + 4096);   /* 4 stages of B + A's scratch tile */
    ck_assert_int_eq(count_substr(p, "cp.async.cg.shared.global"), 4 * 2);
    ck_assert_int_eq(count_substr(p, "ldmatrix.sync.aligned.m8n8.x4.shared.b16"), 2 * 2);
    ck_assert_int_eq(count_substr(p, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"), 2 * 4 * 2);
    free(p);
    launch_free(&l);
}
END_TEST

/* sm_90's default: the same 64x64x32 f16 tiles through wgmma on sm_90a: one warpgroup, one m64n64k16 per k16 step (2 per BK=32), both
 * operands from the 4-stage cp.async pipeline (4 x 8 KB), fenced for the
 * async proxy. Descriptor constants from the PTX ISA's matrix-descriptor
 * fields (LBO bits 16-29, SBO bits 32-45, in 16-byte units; swizzle mode
 * bits 62-63, 1 = 128 B, 2 = 64 B): A 64x32 f16 has 64-byte rows: 64-byte
 * swizzle, SBO = 8 rows x 64 B; B 32x64 f16 has 128-byte rows: 128-byte
 * swizzle, SBO = 8 x 128 B, LBO = 32 rows x 128 B. */
START_TEST(dot_wgmma)
{
    launch l;
    int smem = 0;
    mm_launch_k(&l, 64);
    char *p = ptx_for("tests/gpu/kernels.py", "mm", &l, NULL, &smem);
    ck_assert(strstr(p, ".target sm_90a"));
    ck_assert_int_eq(smem, 4 * 8192);
    ck_assert_int_eq(count_substr(p, "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16"), 2);
    ck_assert_int_eq(count_substr(p, "mma.sync"), 0);
    ck_assert_int_eq(count_substr(p, "ldmatrix"), 0);
    ck_assert_int_eq(count_substr(p, "wgmma.fence.sync.aligned"), 1);
    ck_assert_int_eq(count_substr(p, "wgmma.commit_group.sync.aligned"), 1);
    ck_assert_int_eq(count_substr(p, "wgmma.wait_group.sync.aligned 0"), 1);
    /* operands from cp.async stages: no proxy fence, as Triton 3.6 (it fences
     * register -> shared copies only) */
    ck_assert_int_eq(count_substr(p, "fence.proxy.async.shared::cta"), 0);
    char want[64];
    uint64_t da = (uint64_t)(8 * 64 / 16) << 32 | 2ull << 62;
    uint64_t db = (uint64_t)(32 * 128 / 16) << 16 | (uint64_t)(8 * 128 / 16) << 32 | 1ull << 62;
    snprintf(want, sizeof want, ", %lld;", (long long)da);
    ck_assert_msg(strstr(p, want), "A descriptor bits %s", want);
    snprintf(want, sizeof want, ", %lld;", (long long)db);
    ck_assert_msg(strstr(p, want), "B descriptor bits %s", want);
    free(p);
    /* TRITIUM_WGMMA_ASYNC=1: the group stays in flight into the next
     * iteration (wait_group 1), one more stage, refilled one iteration
     * later (cp.async.wait_group 2 of 5 stages), wait_group 0 after the loop */
    setenv("TRITIUM_WGMMA_ASYNC", "1", 1);
    tt_settings_reload();
    p = ptx_for("tests/gpu/kernels.py", "mm", &l, NULL, &smem);
    ck_assert_int_eq(smem, 5 * 8192);
    ck_assert_int_eq(count_substr(p, "wgmma.wait_group.sync.aligned 1;"), 1);
    ck_assert_int_eq(count_substr(p, "wgmma.wait_group.sync.aligned 0;"), 1);
    ck_assert_int_eq(count_substr(p, "cp.async.wait_group 2;"), 1);
    ck_assert_int_eq(count_substr(p, "cp.async.commit_group;"), 3 + 1);
    unsetenv("TRITIUM_WGMMA_ASYNC");
    tt_settings_reload();
    free(p);
    launch_free(&l);
    /* rows of A not provably 16-byte aligned: A not pipelined, so wgmma
     * reads it from four f16x2 registers per k16 step (no A descriptor);
     * B still from the pipeline (4 stages x 4 KB) */
    mm_launch_k(&l, 72);
    p = ptx_for("tests/gpu/kernels.py", "mm", &l, NULL, &smem);
    ck_assert_int_eq(count_substr(p, "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16"), 2);
    ck_assert_int_eq(count_substr(p, "}, {%r"), 2);
    ck_assert_int_eq(count_substr(p, "p, 1, 1, 1;"), 2);
    ck_assert_int_eq(count_substr(p, "cp.async.cg.shared.global"), 4 * 2);
    free(p);
    launch_free(&l);
    mm_launch(&l, TT_BF16, 0);              /* bf16, the 128x128 result as 2x2 programs */
    p = ptx_for("tests/gpu/kernels.py", "mm", &l, NULL, NULL);
    ck_assert_int_eq(count_substr(p, "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16"), 2);
    free(p);
    launch_free(&l);
    mm_launch(&l, TT_F32, 0);               /* tf32: still mma.sync */
    p = ptx_for("tests/gpu/kernels.py", "mm", &l, NULL, NULL);
    ck_assert_int_eq(count_substr(p, "wgmma"), 0);
    ck_assert_int_eq(count_substr(p, "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"), 32);
    free(p);
    launch_free(&l);
    /* attention in miniature, 8 warps (two warpgroups on M): q k^T with q
     * from registers and k.T's [64,64] K tile read K-major (imm-trans-b 0),
     * p v with p from registers and V N-major, 4 k16 steps each; K and V by
     * cp.async; the row max/sum and alpha stay in the accumulator's slice
     * layout (no f32 tile through shared memory in the loop) */
    gpu_options o;
    gpu_options_default(&o);
    o.set.num_warps = 8;
    lb_init(&l, 2, 1, 1);
    lb_tensor2(&l, "q_ptr", TT_F16, 256, 64);
    lb_tensor2(&l, "k_ptr", TT_F16, 512, 64);
    lb_tensor2(&l, "v_ptr", TT_F16, 512, 64);
    lb_tensor2(&l, "o_ptr", TT_F32, 256, 64);
    lb_int(&l, "N", 512);
    lb_const(&l, "D", 64);
    lb_const(&l, "BM", 128);
    lb_const(&l, "BN", 64);
    p = ptx_for("tests/gpu/kernels.py", "attn_fwd_small", &l, &o, &smem);
    ck_assert_int_eq(count_substr(p, "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16"), 8);
    ck_assert_int_eq(count_substr(p, "}, {%r"), 8);
    ck_assert_int_eq(count_substr(p, "p, 1, 1, 0;"), 4);
    ck_assert_int_eq(count_substr(p, "p, 1, 1, 1;"), 4);
    ck_assert_int_gt(count_substr(p, "cp.async.cg.shared.global"), 0);
    ck_assert_int_eq(count_substr(p, "st.shared.v4.f32"), 0);
    /* by default p v stays in flight into the next iteration, where q k^T's
     * wait_group 0 retires both; wait_group 0 after the loop */
    ck_assert_int_eq(count_substr(p, "wgmma.wait_group.sync.aligned 1;"), 1);
    ck_assert_int_eq(count_substr(p, "wgmma.wait_group.sync.aligned 0;"), 2);
    free(p);
    /* TRITIUM_WGMMA_ASYNC=0 (the setting wgmma_async): wait_group 0 after
     * each dot, and one 16 KB stage (K 64x64 + V 64x64 f16) less: with p v
     * in flight V's stage is refilled only after that wait */
    int smem0 = smem;
    o.set.wgmma_async = 0;
    o.set.num_warps = 8;
    p = ptx_for("tests/gpu/kernels.py", "attn_fwd_small", &l, &o, &smem);
    ck_assert_int_eq(smem, smem0 - 16384);
    ck_assert_int_eq(count_substr(p, "wgmma.wait_group.sync.aligned 1;"), 0);
    ck_assert_int_eq(count_substr(p, "wgmma.wait_group.sync.aligned 0;"), 2);   /* after each dot */
    free(p);
    launch_free(&l);
    gpu_options_default(&o);
    o.set.arch = "sm_80";                       /* not Hopper: mma.sync */
    mm_launch(&l, TT_F16, 0);
    p = ptx_for("tests/gpu/kernels.py", "mm", &l, &o, NULL);
    ck_assert(strstr(p, ".target sm_80"));
    ck_assert_int_eq(count_substr(p, "wgmma"), 0);
    free(p);
    launch_free(&l);
}
END_TEST

/* arith.truncf f32 -> f16/bf16 two registers per cvt.rn.{f16,bf16}x2.f32
 * on sm_80+ (8 elements per thread: 4 packed cvt each), one per element
 * before (sm_75); the GPU check compares the values bit for bit
 * (launches.txt casts_misc, --rtol 0). */
/* gpu_options.persistent: three i32 grid parameters after the kernel's
 * own, one loop over the programs stepping by %nctaid.x, program ids from
 * the loop counter instead of %ctaid.y; a CTA barrier at the loop's latch
 * only when the kernel uses shared memory (the matmul's pipeline). */
START_TEST(persistent_kernels)
{
    launch l;
    vadd_launch(&l, 4096, 1024);
    gpu_options o;
    gpu_options_default(&o);
    o.set.persistent = true;
    char *p = ptx_for("examples/vector_add.py", "add_kernel", &l, &o, NULL);
    ck_assert_msg(strstr(p, ".param .u32 add_kernel_param_6\n)"), "the grid after the 4 parameters");
    ck_assert_int_eq(count_substr(p, "%nctaid.x"), 1);
    ck_assert_int_eq(count_substr(p, "bar.sync"), 0);
    free(p);
    launch_free(&l);
    mm_launch(&l, TT_F16, 0);
    gpu_options_default(&o);
    p = ptx_for("tests/gpu/kernels.py", "mm", &l, &o, NULL);
    int bars = count_substr(p, "bar.sync"), ctaid_y = count_substr(p, "%ctaid.y");
    free(p);
    o.set.persistent = true;
    p = ptx_for("tests/gpu/kernels.py", "mm", &l, &o, NULL);
    ck_assert_int_eq(ctaid_y, 1);
    ck_assert_int_eq(count_substr(p, "%ctaid.y"), 0);
    ck_assert_int_eq(count_substr(p, "%nctaid.x"), 1);
    ck_assert_int_eq(count_substr(p, "bar.sync"), bars + 1);
    ck_assert_int_gt(count_substr(p, "wgmma.mma_async"), 0);
    free(p);
    launch_free(&l);
}
END_TEST

/* In-kernel tensor descriptors and block pointers checked along both dims
 * feed wgmma by TMA, through maps the kernel takes after its parameters
 * (gpu_tma_maps); a block pointer checked along one dim keeps cp.async. */
START_TEST(tma_for_in_kernel_descriptors_and_block_pointers)
{
    launch l;
    lb_mm(&l, TT_F16, 200, 144, 112, 128, 128, 64);
    char *p = ptx_for("tests/gpu/kernels.py", "dev_desc_mm", &l, NULL, NULL);
    ck_assert_int_eq(count_substr(p, ".param .align 64 .b8 dev_desc_mm_param_"), 2);
    ck_assert_int_gt(count_substr(p, "cp.async.bulk.tensor.2d"), 0);
    ck_assert_int_eq(count_substr(p, "cp.async.cg"), 0);
    ck_assert_int_gt(count_substr(p, "wgmma.mma_async"), 0);
    /* make_tensor_descriptor's alignment assert, proved by the
     * specialization, is left out; with K = 100 it stays */
    ck_assert_int_eq(count_substr(p, "__assertfail"), 0);
    free(p);
    launch_free(&l);
    lb_mm(&l, TT_F16, 200, 144, 100, 128, 128, 64);
    p = ptx_for("tests/gpu/kernels.py", "dev_desc_mm", &l, NULL, NULL);
    ck_assert_int_gt(count_substr(p, "__assertfail"), 0);
    ck_assert_int_eq(count_substr(p, ".param .align 64 .b8 dev_desc_mm_param_"), 1);   /* B's map only */
    free(p);
    launch_free(&l);
    /* per-batch bases: 4-D copies with the batch indices as coordinates */
    lb_init(&l, 2, 2, 6);
    int64_t as[4] = { 2, 3, 200, 112 }, bs[4] = { 2, 3, 112, 144 }, cs[4] = { 2, 3, 200, 144 };
    lb_tensor(&l, "a_ptr", TT_F16, 4, as);
    lb_tensor(&l, "b_ptr", TT_F16, 4, bs);
    lb_tensor(&l, "c_ptr", TT_F16, 4, cs);
    const char *ints[] = { "M", "N", "K", "H", "stride_az", "stride_ah", "stride_bz", "stride_bh" };
    const int64_t vals[] = { 200, 144, 112, 3, 3 * 200 * 112, 200 * 112, 3 * 112 * 144, 112 * 144 };
    for (int k = 0; k < 8; k++) lb_int(&l, ints[k], vals[k]);
    lb_const(&l, "BM", 128);
    lb_const(&l, "BN", 128);
    lb_const(&l, "BK", 64);
    lb_const(&l, "DESC", 0);
    p = ptx_for("tests/gpu/kernels.py", "bmm", &l, NULL, NULL);
    ck_assert_int_gt(count_substr(p, "cp.async.bulk.tensor.4d"), 0);
    ck_assert_int_eq(count_substr(p, "cp.async.bulk.tensor.2d"), 0);
    ck_assert_int_eq(count_substr(p, "cp.async.cg"), 0);
    free(p);
    launch_free(&l);
    for (int check_b = 0; check_b < 2; check_b++) {
        lb_mm(&l, TT_F16, 192, 128, 96, 64, 128, 32);
        lb_int(&l, "stride_am", 96);
        lb_int(&l, "stride_ak", 1);
        lb_int(&l, "stride_bk", 128);
        lb_int(&l, "stride_bn", 1);
        lb_const(&l, "CHECK_B", check_b);
        p = ptx_for("tests/gpu/kernels.py", "bp_mm", &l, NULL, NULL);
        ck_assert_int_eq(count_substr(p, ".param .align 64 .b8 bp_mm_param_"), 1 + check_b);
        ck_assert_int_gt(count_substr(p, "cp.async.bulk.tensor.2d"), 0);
        if (check_b) ck_assert_int_eq(count_substr(p, "cp.async.cg"), 0);
        else ck_assert_int_gt(count_substr(p, "cp.async.cg"), 0);
        free(p);
        if (check_b) {                                  /* TRITIUM_TMA=0: no maps, cp.async only */
            setenv("TRITIUM_TMA", "0", 1);
            tt_settings_reload();
            p = ptx_for("tests/gpu/kernels.py", "bp_mm", &l, NULL, NULL);
            unsetenv("TRITIUM_TMA");
            tt_settings_reload();
            ck_assert_int_eq(count_substr(p, ".param .align 64"), 0);
            ck_assert_int_eq(count_substr(p, "cp.async.bulk.tensor"), 0);
            free(p);
        }
        launch_free(&l);
    }
}
END_TEST

START_TEST(truncf_packed)
{
    for (int old = 0; old < 2; old++) {
        launch l;
        lb_init(&l, 4, 1, 1);
        lb_tensor1(&l, "x_ptr", TT_F32, 4096);
        lb_tensor1(&l, "f16_ptr", TT_F16, 4096);
        lb_tensor1(&l, "bf16_ptr", TT_BF16, 4096);
        lb_tensor1(&l, "i32_ptr", TT_I32, 4096);
        lb_tensor1(&l, "u8_ptr", TT_U8, 4096);
        lb_tensor1(&l, "b_ptr", TT_BOOL, 4096);
        lb_int(&l, "n", 4096);
        lb_const(&l, "BLOCK", 1024);
        gpu_options o;
        gpu_options_default(&o);
        if (old) o.set.arch = "sm_75";
        char *p = ptx_for("tests/gpu/kernels.py", "casts_misc", &l, &o, NULL);
        ck_assert_int_eq(count_substr(p, "cvt.rn.f16x2.f32"), old ? 0 : 4);
        ck_assert_int_eq(count_substr(p, "cvt.rn.bf16x2.f32"), old ? 0 : 4);
        ck_assert_int_eq(count_substr(p, "cvt.rn.f16.f32"), old ? 8 : 0);
        free(p);
        launch_free(&l);
    }
}
END_TEST

/* examples/matmul.py, 128x128x32 tiles, f16 C: on the wgmma path the
 * accumulator goes through shared memory (rows padded 16 bytes) into the
 * pointer's coalesced layout, 16 st.global.v4 per thread as Triton 3.6's
 * epilogue; on the mma.sync path it stays 64 4-byte stores from the
 * fragment. */
START_TEST(staged_epilogue)
{
    for (int sync = 0; sync < 2; sync++) {
        launch l;
        lb_init(&l, 4, 1, 1);
        lb_tensor2(&l, "a_ptr", TT_F16, 256, 256);
        lb_tensor2(&l, "b_ptr", TT_F16, 256, 256);
        lb_tensor2(&l, "c_ptr", TT_F16, 256, 256);
        const char *ints[] = { "M", "N", "K", "stride_am", "stride_ak", "stride_bk", "stride_bn", "stride_cm",
                               "stride_cn" };
        const int64_t vals[] = { 256, 256, 256, 256, 1, 256, 1, 256, 1 };
        for (int i = 0; i < 9; i++) lb_int(&l, ints[i], vals[i]);
        lb_const(&l, "BLOCK_SIZE_M", 128);
        lb_const(&l, "BLOCK_SIZE_N", 128);
        lb_const(&l, "BLOCK_SIZE_K", 32);
        lb_const(&l, "GROUP_SIZE_M", 8);
        gpu_options o = sync ? mma_sync_options() : (gpu_options){ 0 };
        if (!sync) gpu_options_default(&o);
        int smem = 0;
        char *p = ptx_for("examples/matmul.py", "matmul_kernel", &l, &o, &smem);
        ck_assert_int_eq(count_substr(p, "st.shared.b32"), sync ? 0 : 64);      /* 128x128 over 128 threads */
        ck_assert_int_eq(count_substr(p, "ld.shared.v4.u32"), sync ? 0 : 16);
        ck_assert_int_eq(count_substr(p, "st.global.v4.b32"), sync ? 0 : 16);
        ck_assert_int_eq(count_substr(p, "st.global.b32"), sync ? 64 : 0);
        ck_assert_int_eq(smem, 65536);            /* the staging reuses the drained pipeline stages */
        free(p);
        launch_free(&l);
    }
}
END_TEST

/* The knob: $TRITIUM_WGMMA=0 (read by gpu_options_default) or mma_sync
 * gives mma.sync and target sm_90, =1 or unset wgmma and sm_90a; an
 * explicit sm_90a target takes wgmma too; the cache key differs. */
START_TEST(wgmma_knob)
{
    launch l;
    mm_launch(&l, TT_F16, 0);
    const char *envs[] = { "0", "1", NULL };
    for (int i = 0; i < 3; i++) {
        if (envs[i]) setenv("TRITIUM_WGMMA", envs[i], 1);
        else unsetenv("TRITIUM_WGMMA");
        tt_settings_reload();
        gpu_options o;
        gpu_options_default(&o);
        unsetenv("TRITIUM_WGMMA");
        tt_settings_reload();
        ck_assert(o.set.mma_sync == (i == 0));
        char *p = ptx_for("tests/gpu/kernels.py", "mm", &l, &o, NULL);
        bool sync = i == 0;
        ck_assert(strstr(p, sync ? ".target sm_90\n" : ".target sm_90a\n"));
        ck_assert_int_eq(count_substr(p, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"), sync ? 16 : 0);
        ck_assert_int_eq(count_substr(p, "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16"), sync ? 0 : 2);
        free(p);
    }
    gpu_options o;
    gpu_options_default(&o);
    o.set.arch = "sm_90a";
    char *p = ptx_for("tests/gpu/kernels.py", "mm", &l, &o, NULL);
    ck_assert(strstr(p, ".target sm_90a\n"));
    ck_assert_int_eq(count_substr(p, "wgmma.mma_async"), 2);
    free(p);
    /* two targets LLVM 19 does not have, and a malformed one: errors */
    const char *bad[] = { "sm_80a", "sm_90b", "sm_90aa" };
    char *src = src_of("tests/gpu/kernels.py");
    ir_func *f = compile_py(src, "mm", &l);
    free(src);
    ck_assert_ptr_nonnull(f);
    for (size_t i = 0; i < TT_COUNTOF(bad); i++) {
        gpu_kernel k;
        char err[256];
        o.set.arch = bad[i];
        o.no_cache = true;
        ck_assert_int_eq(gpu_compile(f, &o, NULL, &k, err, sizeof err), -1);
        ck_assert_msg(strstr(err, "unknown target"), "%s", err);
    }
    launch_free(&l);
}
END_TEST

START_TEST(more_kernels)
{
    /* each kernel of kernels.py compiles and passes ptxas */
    launch l;
    lb_init(&l, 4, 1, 1);
    lb_tensor1(&l, "x_ptr", TT_I32, 1000);
    lb_tensor1(&l, "hist_ptr", TT_I32, 16);
    lb_tensor1(&l, "total_ptr", TT_I32, 1);
    lb_tensor1(&l, "mx_ptr", TT_I32, 16);
    lb_int(&l, "n", 1000);
    lb_const(&l, "BLOCK", 256);
    char *p = ptx_for("tests/gpu/kernels.py", "atomics", &l, NULL, NULL);
    ck_assert(strstr(p, "atom.acq_rel.gpu.global.add.u32"));
    ck_assert(strstr(p, "atom.acq_rel.gpu.global.max.s32"));
    free(p);
    launch_free(&l);

    lb_init(&l, 4, 1, 1);
    lb_tensor1(&l, "x_ptr", TT_F32, 5000);
    lb_tensor1(&l, "out_ptr", TT_F32, 1000);
    lb_int(&l, "n", 1000);
    lb_int(&l, "K", 5);
    lb_const(&l, "BLOCK", 256);
    p = ptx_for("tests/gpu/kernels.py", "loops", &l, NULL, NULL);
    free(p);
    launch_free(&l);

    lb_init(&l, 4, 1, 1);
    lb_tensor1(&l, "x_ptr", TT_F32, 1000);
    lb_tensor1(&l, "out_ptr", TT_F32, 1000);
    lb_int(&l, "n", 1000);
    lb_const(&l, "BLOCK", 256);
    p = ptx_for("tests/gpu/kernels.py", "math_fns", &l, NULL, NULL);
    ck_assert(strstr(p, "sqrt.rn.f32"));    /* ieee sqrt */
    ck_assert(!strstr(p, "__nv_"));         /* libdevice linked in and inlined */
    free(p);
    launch_free(&l);

    /* tl.umulhi is mul.hi.u32 (as Triton's __nv_umulhi); of two constants,
     * folded: 0xDEADBEEF * 0x12345678 >> 32 = 265666030 */
    lb_init(&l, 4, 1, 1);
    lb_tensor1(&l, "x_ptr", TT_I32, 1000);
    lb_tensor1(&l, "y_ptr", TT_I32, 1000);
    lb_tensor1(&l, "o32_ptr", TT_I32, 1000);
    lb_tensor1(&l, "oc_ptr", TT_I32, 1000);
    lb_int(&l, "n", 1000);
    lb_const(&l, "BLOCK", 256);
    p = ptx_for("tests/gpu/kernels.py", "umulhi_k", &l, NULL, NULL);
    ck_assert_int_ge(count_substr(p, "mul.hi.u32"), 2);
    ck_assert(!strstr(p, "mul.wide.u32"));
    ck_assert(strstr(p, "265666030"));
    free(p);
    launch_free(&l);
}
END_TEST

/* A warm compile never touches LLVM: a child process fills the cache, then
 * this one finds the PTX there without initializing LLVM (checked when this
 * process had not initialized it before, i.e. under Check's fork mode). */
START_TEST(warm_compile_no_llvm)
{
    char dir[] = "/tmp/tritium-warm-test-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char *src = src_of("examples/vector_add.py");
    launch l;
    vadd_launch(&l, 98432, 1024);
    ir_func *f = compile_py(src, "add_kernel", &l);
    ck_assert_ptr_nonnull(f);
    gpu_options o;
    gpu_options_default(&o);
    o.set.cache_dir = dir;
    gpu_spec s = gpu_spec_of_launch(f, &l);
    gpu_kernel k;
    char err[512];
    bool before = gpu_llvm_used();
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        int rc = gpu_compile(f, &o, &s, &k, err, sizeof err) || k.from_cache || !gpu_llvm_used();
        _exit(rc);
    }
    int status = 0;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    ck_assert_int_eq(gpu_compile(f, &o, &s, &k, err, sizeof err), 0);
    ck_assert(k.from_cache);
    ck_assert(strstr(k.ptx, ".entry add_kernel"));
    if (!before) ck_assert(!gpu_llvm_used());
    gpu_kernel_free(&k);
    free(src);
    launch_free(&l);
    char *cmd = xasprintf("rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
}
END_TEST

START_TEST(high_rank_tiles)
{
    /* tests/conformance/kernels/rank.py (tiles of rank 5, 8 and 9, a rank-5
     * descriptor) compile and pass ptxas; the rank-5 tile's contiguous last
     * dim (4 x i32) is found through five expand_dims: 16-byte loads */
    launch l;
    lb_init(&l, 1, 1, 1);
    const char *outs[] = { "X", "Bias", "P", "S", "M", "K", "T", "Q", "C5" };
    for (size_t i = 0; i < sizeof outs / sizeof *outs; i++) lb_tensor1(&l, outs[i], TT_I32, 512);
    const char *dims[] = { "A", "B", "C", "D", "E" };
    const int64_t ext[] = { 2, 4, 2, 8, 4 };
    for (int i = 0; i < 5; i++) lb_const(&l, dims[i], ext[i]);
    char *p = ptx_for("tests/conformance/kernels/rank.py", "rank5", &l, NULL, NULL);
    ck_assert(strstr(p, "ld.global.v4.u32"));
    ck_assert(strstr(p, "st.global.v4.u32"));
    free(p);
    launch_free(&l);

    lb_init(&l, 1, 1, 1);
    const char *t8[] = { "X", "R", "S", "T" };
    for (int i = 0; i < 4; i++) lb_tensor1(&l, t8[i], TT_F32, 256);
    p = ptx_for("tests/conformance/kernels/rank.py", "rank8", &l, NULL, NULL);
    free(p);
    launch_free(&l);

    lb_init(&l, 1, 1, 1);
    lb_tensor1(&l, "X", TT_F32, 2048);
    lb_tensor1(&l, "Y", TT_F32, 2048);
    lb_tensor1(&l, "Z", TT_F32, 2048);
    const char *ints[] = { "S0", "S1", "S2", "S3", "S4", "st0", "st1", "st2", "st3", "o2", "o3" };
    const int64_t iv[] = { 1, 2, 3, 7, 13, 1024, 512, 128, 16, 1, 2 };
    for (int i = 0; i < 11; i++) lb_int(&l, ints[i], iv[i]);
    const char *bl[] = { "B0", "B1", "B2", "B3", "B4" };
    const int64_t bv[] = { 2, 2, 4, 8, 16 };
    for (int i = 0; i < 5; i++) lb_const(&l, bl[i], bv[i]);
    p = ptx_for("tests/conformance/kernels/rank.py", "desc5", &l, NULL, NULL);
    ck_assert(strstr(p, "ld.global"));
    free(p);
    launch_free(&l);
}
END_TEST

START_TEST(compile_cache)
{
    char dir[] = "/tmp/tritium-cache-test-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char *src = src_of("examples/vector_add.py");
    launch l;
    vadd_launch(&l, 98432, 1024);
    ir_func *f = compile_py(src, "add_kernel", &l);
    ck_assert_ptr_nonnull(f);
    gpu_options o;
    gpu_options_default(&o);
    o.set.cache_dir = dir;
    gpu_spec s1 = gpu_spec_of_launch(f, &l);
    gpu_kernel a, b, c, d;
    char err[512];
    ck_assert_int_eq(gpu_compile(f, &o, &s1, &a, err, sizeof err), 0);
    ck_assert(!a.from_cache);
    ck_assert_int_eq(gpu_compile(f, &o, &s1, &b, err, sizeof err), 0);
    ck_assert(b.from_cache);
    ck_assert_str_eq(a.key, b.key);
    ck_assert_str_eq(a.ptx, b.ptx);
    /* another runtime value with the same divisibility: same kernel, no recompile */
    l.args[3].i = 16 * 12345;
    gpu_spec s2 = gpu_spec_of_launch(f, &l);
    ck_assert_int_eq(gpu_compile(f, &o, &s2, &c, err, sizeof err), 0);
    ck_assert(c.from_cache);
    ck_assert_str_eq(c.key, a.key);
    /* n % 16 != 0 is another specialization, and so are the numerics */
    l.args[3].i = 98433;
    gpu_spec s3 = gpu_spec_of_launch(f, &l);
    ck_assert_int_eq(gpu_compile(f, &o, &s3, &d, err, sizeof err), 0);
    ck_assert(!d.from_cache);
    ck_assert_str_ne(d.key, a.key);
    gpu_kernel_free(&d);
    o.set.numerics = NUMERICS_FAST;
    ck_assert_int_eq(gpu_compile(f, &o, &s1, &d, err, sizeof err), 0);
    ck_assert(!d.from_cache);
    ck_assert_str_ne(d.key, a.key);
    gpu_kernel_free(&d);
    /* the developer knobs that change the PTX are read once into the options
     * (gpu_options_default) and are part of the key: no stale PTX from the
     * cache after TRITIUM_GPU_PASSES or TRITIUM_GPU_CGLEVEL changes */
    setenv("TRITIUM_GPU_PASSES", "default<O1>", 1);
    setenv("TRITIUM_GPU_CGLEVEL", "2", 1);
    tt_settings_reload();
    gpu_options k;
    gpu_options_default(&k);
    unsetenv("TRITIUM_GPU_PASSES");
    unsetenv("TRITIUM_GPU_CGLEVEL");
    tt_settings_reload();
    ck_assert_str_eq(k.set.gpu_passes, "default<O1>");
    ck_assert_int_eq(k.set.gpu_cg_level, 2);
    k.set.cache_dir = dir;
    char keys[3][33];
    for (int v = 0; v < 3; v++) {
        gpu_options_default(&o);
        o.set.cache_dir = dir;
        if (v == 1) o.set.gpu_passes = k.set.gpu_passes;
        if (v == 2) o.set.gpu_cg_level = k.set.gpu_cg_level;
        ck_assert_int_eq(gpu_compile(f, &o, &s1, &d, err, sizeof err), 0);
        ck_assert(d.from_cache == (v == 0));
        memcpy(keys[v], d.key, 33);
        gpu_kernel_free(&d);
    }
    ck_assert_str_eq(keys[0], a.key);
    ck_assert_str_ne(keys[1], a.key);
    ck_assert_str_ne(keys[2], a.key);
    ck_assert_str_ne(keys[1], keys[2]);
    gpu_kernel_free(&a);
    gpu_kernel_free(&b);
    gpu_kernel_free(&c);
    gpu_kernel_free(&d);
    char *cmd = xasprintf("rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
    free(src);
    launch_free(&l);
}
END_TEST

/* Every row of the settings table that changes code (settings.def's code
 * column) is part of gpu_compile's key: a value other than the default gives
 * another key (no stale PTX from the cache). llvm_arg is process-wide (the
 * value LLVM starts with): tests/support/test_settings.c checks its part of
 * the key. */
START_TEST(every_code_setting_in_the_key)
{
    char *src = src_of("examples/vector_add.py");
    launch l;
    vadd_launch(&l, 98432, 1024);
    ir_func *f = compile_py(src, "add_kernel", &l);
    ck_assert_ptr_nonnull(f);
    gpu_spec sp = gpu_spec_of_launch(f, &l);
    gpu_options o;
    gpu_options_default(&o);
    o.no_cache = true;
    gpu_kernel base, k;
    char err[512];
    ck_assert_int_eq(gpu_compile(f, &o, &sp, &base, err, sizeof err), 0);
    int rows = 0;
    for (int i = 0; i < TT_SET_COUNT; i++) {
        const tt_setting_info *r = tt_setting_row((tt_setting_id)i);
        if (!r->code || i == TT_SET_LLVM_ARG) continue;
        /* a value the compile takes, other than the default */
        const char *v = r->type == TT_SET_T_BOOL ? (r->def && !strcmp(r->def, "1") ? "0" : "1")
                      : i == TT_SET_NUM_WARPS ? "8" : i == TT_SET_ARCH ? "sm_80" : i == TT_SET_GPU_PASSES ? "default<O1>"
                      : i == TT_SET_LIBDEVICE ? "/nonexistent/libdevice.10.bc" : i == TT_SET_GPU_CGLEVEL ? "2"
                      : i == TT_SET_GPU_STAGES ? "2" : i == TT_SET_GPU_PIPE_SMEM ? "65536" : i == TT_SET_WGMMA_ASYNC ? "1"
                      : i == TT_SET_NUMERICS ? "fast" : i == TT_SET_MMA ? "sync" : NULL;
        ck_assert_msg(v, "%s: no value for this test (a new row that changes code?)", r->name);
        gpu_options_default(&o);
        o.no_cache = true;
        ck_assert_msg(tt_settings_set(&o.set, (tt_setting_id)i, v, TT_SRC_ARGV, err, sizeof err), "%s", err);
        ck_assert_msg(gpu_compile(f, &o, &sp, &k, err, sizeof err) == 0, "%s=%s: %s", r->name, v, err);
        ck_assert_msg(strcmp(k.key, base.key), "%s=%s leaves the cache key", r->name, v);
        gpu_kernel_free(&k);
        rows++;
    }
    ck_assert_int_ge(rows, 14);
    gpu_kernel_free(&base);
    free(src);                                  /* f is compile_py's */
    launch_free(&l);
}
END_TEST

START_TEST(narrow_atomics)
{
    /* tt.atomic_rmw on 8- and 16-bit elements (Triton 3.9's atomic_load /
     * atomic_store are `or` with 0 and `exch`; the other ops, which Triton's
     * frontend refuses at these widths, go the same ways): or/and/xor one
     * word-wide atom, the rest a CAS loop (cas.b32 on the word for 8 bits,
     * cas.b16 for 16); cta scope widened to gpu where the word is touched;
     * ptxas accepts every form */
    static const char *const ops[] = { "add", "max", "umax", "min", "umin", "and", "or", "xor", "exch" };
    char *t = NULL;
    size_t tl = 0;
    FILE *m = open_memstream(&t, &tl);
    fprintf(m, "module {\n  tt.func public @narrow(%%0: !tt.ptr<i8>, %%1: !tt.ptr<i16>, %%2: !tt.ptr<f16>) {\n"
               "    %%3 = tt.make_range {start = 0, end = 64} : tensor<64xi32>\n"
               "    %%4 = arith.constant {value = 40} : tensor<64xi32>\n"
               "    %%5 = arith.cmpi %%3, %%4 {predicate = slt} : tensor<64xi1>\n"
               "    %%6 = tt.splat %%0 : tensor<64x!tt.ptr<i8>>\n    %%7 = tt.addptr %%6, %%3 : tensor<64x!tt.ptr<i8>>\n"
               "    %%8 = tt.splat %%1 : tensor<64x!tt.ptr<i16>>\n    %%9 = tt.addptr %%8, %%3 : tensor<64x!tt.ptr<i16>>\n"
               "    %%10 = arith.constant {value = -3} : tensor<64xi8>\n"
               "    %%11 = arith.constant {value = -3} : tensor<64xi16>\n");
    int v = 12;
    for (int w = 0; w < 2; w++)
        for (size_t k = 0; k < sizeof ops / sizeof *ops; k++, v++)
            fprintf(m, "    %%%d = tt.atomic_rmw %%%d, %%%d%s {rmw = %s, sem = %s, scope = %s} : tensor<64xi%d>\n", v,
                    w ? 9 : 7, w ? 11 : 10, k % 2 ? ", %5" : "", ops[k], k % 3 ? "acq_rel" : "relaxed",
                    k % 4 == 1 ? "cta" : k % 4 == 2 ? "sys" : "gpu", w ? 16 : 8);
    /* a float element: exch on its bits; the results used by a store */
    fprintf(m, "    %%%d = tt.splat %%2 : tensor<64x!tt.ptr<f16>>\n    %%%d = tt.addptr %%%d, %%3 : tensor<64x!tt.ptr<f16>>\n"
               "    %%%d = arith.constant {value = 1.5} : tensor<64xf16>\n"
               "    %%%d = tt.atomic_rmw %%%d, %%%d, %%5 {rmw = exch, sem = release, scope = gpu} : tensor<64xf16>\n"
               "    tt.store %%%d, %%%d\n    tt.store %%7, %%12\n"
               "    tt.return\n  }\n}\n",
            v, v + 1, v, v + 2, v + 3, v + 1, v + 2, v + 1, v + 3);
    fclose(m);
    ir_func *f = ir_parse("narrow", t);
    ck_assert_msg(f != NULL, "%s", t);
    ck_assert_int_eq(ir_verify(f), 0);
    gpu_options o;
    gpu_options_default(&o);
    o.no_cache = true;
    gpu_kernel k;
    char err[1024];
    ck_assert_msg(gpu_compile(f, &o, NULL, &k, err, sizeof err) == 0, "%s", err);
    int pr = ptxas_check(k.ptx, k.arch);
    if (pr >= 0) ck_assert_msg(pr == 1, "ptxas rejected the narrow atomics");
    const char *p = k.ptx;
    /* 8 bits: add max umax min umin exch loop on the word, and or xor are one atom */
    ck_assert_int_eq(count_substr(p, "global.cas.b32"), 6);
    ck_assert_int_eq(count_substr(p, "global.cas.b16"), 6 + 1);     /* and f16's exch */
    ck_assert_int_eq(count_substr(p, "global.and.b32"), 2);
    ck_assert_int_eq(count_substr(p, "global.or.b32"), 2);
    ck_assert_int_eq(count_substr(p, "global.xor.b32"), 2);
    ck_assert(strstr(p, "atom.acq_rel.gpu.global.cas.b32"));        /* 8-bit max: cta -> gpu */
    ck_assert(strstr(p, "atom.acq_rel.cta.global.cas.b16"));        /* 16-bit max keeps cta */
    ck_assert(strstr(p, "atom.acq_rel.sys.global.max.s32") == NULL);
    ck_assert(strstr(p, "bfe.s32"));                                /* signed max/min */
    ck_assert(strstr(p, "cvt.s32.s16"));
    ck_assert(!strstr(p, ".cta.global.and.b32"));                   /* and: k = 5, cta -> gpu */
    ck_assert(strstr(p, "atom.acq_rel.gpu.global.and.b32"));
    gpu_kernel_free(&k);
    ir_func_free(f);
    free(t);
}
END_TEST

START_TEST(errors_are_messages)
{
    launch l;
    vadd_launch(&l, 1000, 1024);
    char *src = src_of("examples/vector_add.py");
    ir_func *f = compile_py(src, "add_kernel", &l);
    ck_assert_ptr_nonnull(f);
    gpu_options o;
    gpu_options_default(&o);
    o.no_cache = true;
    gpu_kernel k;
    char err[512];
    o.set.num_warps = 3;
    ck_assert_int_eq(gpu_compile(f, &o, NULL, &k, err, sizeof err), -1);
    ck_assert(strstr(err, "num_warps"));
    o.set.num_warps = 4;
    o.set.arch = "gfx90a";
    ck_assert_int_eq(gpu_compile(f, &o, NULL, &k, err, sizeof err), -1);
    ck_assert(strstr(err, "unknown target"));
    free(src);
    launch_free(&l);
}
END_TEST

START_TEST(no_driver)
{
    /* every GPU entry point says plainly that there is no driver */
    setenv("TRITIUM_LIBCUDA", "/nonexistent/libcuda.so.1", 1);
    tt_settings_reload();
    launch l;
    vadd_launch(&l, 1000, 1024);
    char *src = src_of("examples/vector_add.py");
    ir_func *f = compile_py(src, "add_kernel", &l);
    char err[512];
    ck_assert_int_eq(gpu_launch(f, &l, NULL, NULL, err, sizeof err), 2);
    ck_assert_str_eq(err, "no CUDA driver: /nonexistent/libcuda.so.1 not found");
    free(src);
    launch_free(&l);
}
END_TEST

int main(void)
{
    /* kernels.py's bp_mm and bmm are block-pointer kernels: the language of
     * Triton 3.6-3.8 (3.9's core.py removed make_block_ptr) */
    front_set_triton_version(8);
    Suite *s = suite_create("gpu_ptx");
    TCase *tc = tcase_create("ptx");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, vector_add_vectorized);
    tcase_add_test(tc, vector_add_unaligned_n);
    tcase_add_test(tc, num_warps_and_arch);
    tcase_add_test(tc, numerics_modes);
    tcase_add_test(tc, dot_paths);
    tcase_add_test(tc, dot_pipeline);
    tcase_add_test(tc, dot_wgmma);
    tcase_add_test(tc, wgmma_knob);
    tcase_add_test(tc, truncf_packed);
    tcase_add_test(tc, persistent_kernels);
    tcase_add_test(tc, tma_for_in_kernel_descriptors_and_block_pointers);
    tcase_add_test(tc, staged_epilogue);
    tcase_add_test(tc, more_kernels);
    tcase_add_test(tc, high_rank_tiles);
    tcase_add_test(tc, compile_cache);
    tcase_add_test(tc, every_code_setting_in_the_key);
    tcase_add_test(tc, warm_compile_no_llvm);
    tcase_add_test(tc, narrow_atomics);
    tcase_add_test(tc, errors_are_messages);
    TCase *nd = tcase_create("no_driver");
    tcase_add_test(nd, no_driver);
    suite_add_tcase(s, tc);
    suite_add_tcase(s, nd);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int nf = srunner_ntests_failed(sr);
    srunner_free(sr);
    if (!have_ptxas) fprintf(stderr, "note: ptxas not found; PTX was not validated\n");
    return nf ? 1 : 0;
}
