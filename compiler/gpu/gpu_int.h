/* gpu_int.h — internals of the GPU compiler (compiler/gpu).
 *
 * Pipeline: axis analysis (axis.c) -> layout plan (plan.c) -> lowering to LLVM
 * IR (lower*.c) -> O3 + NVPTX codegen (codegen.c) -> disk cache (cache.c).
 *
 * Layouts are *linear layouts* in the sense of Triton's LinearLayout, limited
 * to the single-bit form every blocked, slice and mma layout has: each bit of
 * the register index, the lane id (5 bits) and the warp id maps to one bit of
 * one tensor coordinate, or to nothing (the tile is replicated along that
 * hardware bit). Register bases are never "nothing": every register of a
 * thread holds a distinct element. The coordinate of (reg, lane, warp) is the
 * sum (= xor, bits are disjoint) of the bases of its set bits. */
#ifndef TRITIUM_GPU_INT_H
#define TRITIUM_GPU_INT_H

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include "tritium/gpu.h"

#define GL_MAXREG 24
#define GL_MAXWARP 5

typedef struct gbasis { int8_t dim, bit; } gbasis;   /* dim < 0: replicated */

typedef struct glayout {
    int rank;
    int64_t shape[IR_MAX_RANK];
    int nreg, nwarp;               /* bit counts; lanes always 5 */
    gbasis reg[GL_MAXREG], lane[5], warp[GL_MAXWARP];
} glayout;

/* ---- layout.c ---- */
void gl_scalar(glayout *L, int nwarp);
/* Triton's blocked encoding (sizePerThread, threadsPerWarp, warpsPerCTA,
 * order: fastest dim first) applied to `shape`: bits past the shape are
 * replicated (lanes/warps) or dropped (registers); a shape larger than the
 * CTA tile wraps into more registers. Returns false when the shape is not a
 * power of two in every dim or needs more than GL_MAXREG register bits. */
bool gl_blocked(glayout *L, int rank, const int64_t *shape, const int *spt, const int *tpw,
                const int *wpc, const int *order, int nwarp);
/* The default (coalesced) blocked layout for a shape: `vec` elements per
 * thread along the last dim, threads and then warps distributed from the last
 * dim (Triton's BlockedEncodingAttr::get). */
bool gl_default(glayout *L, int rank, const int64_t *shape, int vec, int num_warps);
/* Remove dim `axis` (reduction result; Triton's slice layout). */
void gl_slice(glayout *out, const glayout *L, int axis);
/* Insert a size-1 dim at `axis`. */
void gl_expand(glayout *out, const glayout *L, int axis);
/* L restricted to `shape` where shape[d] == 1 < L.shape[d] (the operand of a
 * broadcast whose result has layout L). */
void gl_project(glayout *out, const glayout *L, const int64_t *shape);
bool gl_equal(const glayout *a, const glayout *b);
/* Register-part coordinate of register r along dim d. */
int64_t gl_regcoord(const glayout *L, int r, int d);
/* The register of L holding register-part coordinates coord (only the bits
 * L has in registers count; the rest must be 0) or -1. */
int gl_reg_of(const glayout *L, const int64_t *coord);
/* Mask of lane (resp. warp) bits that are replicated. */
unsigned gl_lane_repl(const glayout *L);
unsigned gl_warp_repl(const glayout *L);
/* Can `from` be turned into `to` by picking registers (same lane and warp
 * bases after projecting `to` onto from's shape)? Fills map[r_to] = r_from. */
bool gl_reg_map(const glayout *from, const glayout *to, int *map);
void gl_print(FILE *f, const glayout *L);
/* mma.sync m16n8k16 (f16/bf16) and m16n8k8 (tf32) accumulator and operand
 * layouts for an [M,N] result with num_warps warps; op: 0 = C/D [M,N],
 * 1 = A [M,K], 2 = B [K,N]. kw: 16 (f16/bf16) or 8 (tf32). */
/* Warp bits along M and N for an mma tile (Triton's MMAv2 warpsPerTile). */
void gl_mma_warps(int64_t M, int64_t N, int nwarp, int *wm, int *wn);
bool gl_mma(glayout *L, int op, int64_t M, int64_t N, int64_t K, int kw, int num_warps);
/* The accumulator layout of wgmma.mma_async m64nNk16 (sm_90a) for an [M,N]
 * f32 result: per warp the m16n8 C fragment repeated over N (registers
 * n0, m3, n3..), warps 0-3 of a warpgroup on M bits 4-5, a second warpgroup
 * (num_warps 8) on M bit 6, further 64-row blocks in the high registers
 * (PTX ISA "wgmma register fragment D"; Triton's NvidiaMmaEncodingAttr
 * version 3 with warpsPerCTA [num_warps, 1]). False when the shape does not
 * fit: num_warps 4 or 8, M a multiple of 16 * num_warps, 16 <= N <= 256. */
bool gl_wgmma(glayout *L, int64_t M, int64_t N, int num_warps);
/* The layout of a wgmma A operand [M,K] held in registers (16-bit
 * elements): per warp and k16 step the m16n8k16 A fragment (registers k0,
 * m3, k3; lanes k1, k2, m0-m2), warps as in gl_wgmma, then k16 steps, then
 * 64-row blocks in the high registers (PTX ISA "wgmma register fragment A").
 * Same shape rules as gl_wgmma with K >= 16. */
bool gl_wgmma_a(glayout *L, int64_t M, int64_t K, int num_warps);

/* ---- axis.c: Triton's AxisInfo (contiguity, divisibility, constancy) ---- */
typedef struct gaxis {
    int64_t contig[IR_MAX_RANK];   /* runs of consecutive values (stride 1) */
    int64_t div[IR_MAX_RANK];      /* power of 2 dividing the first value of each run
                                    * (bytes for pointers) */
    int64_t cnst[IR_MAX_RANK];     /* runs of equal values */
} gaxis;
#define GAXIS_MAXDIV ((int64_t)1 << 30)
void gpu_axis_analyze(const ir_func *f, const gpu_spec *spec, gaxis *out);

/* ---- lowering context ---- */
typedef struct gv { LLVMValueRef *r; int n; int lay; } gv;

/* An operand tile of a tensor-core dot in shared memory (see g_tile_offset);
 * wg: in the layout wgmma's matrix descriptors read (128-byte column slabs,
 * 1024-byte aligned base). */
typedef struct gtile { LLVMValueRef base; int64_t rows, cols; int esz; bool wg; } gtile;

typedef struct remat_ent { ir_value v; int lay; gv g; } remat_ent;
typedef struct lw_ent { int lay; LLVMValueRef c[IR_MAX_RANK]; LLVMValueRef owner; } lw_ent;

typedef struct gctx {
    ir_func *f;
    const gpu_options *o;
    const gpu_spec *spec;
    int num_warps, nwarp;
    bool fast;
    int sm;                        /* 90 for sm_90 */
    char *err; size_t errlen;
    bool failed;

    LLVMContextRef C;
    LLVMModuleRef M;
    LLVMTargetMachineRef tm;       /* NVPTX at the options' codegen level: data layout and PTX emission */
    LLVMBuilderRef B;
    LLVMValueRef fn;
    LLVMTypeRef t_void, t_i1, t_i8, t_i16, t_i32, t_i64, t_f16, t_bf16, t_f32, t_f64, t_gptr, t_sptr;

    VEC(glayout) lays;             /* interned; id 0 is the scalar layout */
    int *vlay;                     /* planned layout per value */
    gaxis *ax;                     /* per value */
    int vec_default;               /* elements per 16 bytes of the smallest pointee */
    gv *val;                       /* lowered registers per value */
    LLVMBasicBlockRef *vblock;     /* block where the value was defined */
    VEC(remat_ent) remat;
    VEC(lw_ent) lw;
    LLVMValueRef tid, lane, warp;
    LLVMValueRef pid[3], nprog[3]; /* the program id and grid (i32): %ctaid/%nctaid, or a persistent
                                    * kernel's loop-derived ids and grid parameters (g_program) */
    LLVMBasicBlockRef entry;       /* allocas */
    LLVMBasicBlockRef top;         /* values every op may use (lane/warp coordinates): entry, or the
                                    * program loop's body in a persistent kernel */
    LLVMBasicBlockRef next_program; /* persistent (gpu_options.persistent): tt.return branches here */
    LLVMValueRef smem;             /* @tt_smem: dynamic shared memory */
    int smem_bytes;
    arena mem;
    bool uses_libdevice;
    int scratch_off;               /* g_scratch's base: above the live pipeline buffers */
    gtile **stile;                 /* per value: the tile of a pipelined load in shared memory */
    struct gpipe *pipes[4];        /* software-pipelined loops being lowered, innermost last */
    uint64_t tmaps, tma_used;      /* gpu_kernel.tmaps / tma_used */
    int nmaps;
    gpu_tmap maps[GPU_MAX_TMAPS];  /* gpu_tma_maps */
    LLVMValueRef tmap[GPU_MAX_TMAPS]; /* map j's CUtensorMap parameter (generic address) */
    int npipes;
    double t_opt, t_cg;            /* seconds in the LLVM passes and in PTX emission */
    double c_opt, c_cg;            /* the same, CPU time of this thread */
    double t_tm, t_prep;           /* seconds creating the target machine, linking libdevice and verifying */
} gctx;

/* Fail with "file:line:col: gpu: message" for the op (loc may be -1). */
void gfail(gctx *g, int32_t loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

int gl_intern(gctx *g, const glayout *L);
static inline const glayout *gl_get(gctx *g, int id) { return &g->lays.v[id]; }
int gl_default_for(gctx *g, ir_type t);

/* tma.c: TMA loads of tensor descriptors and block pointers. gpu_tma_box:
 * whether a block of element type et, rank and block shape is read with
 * TMA, and its box (innermost first, elements) and swizzle (bytes): 2-D,
 * 16-bit elements, rows a multiple of 8 up to 256, row bytes 32, 64 or a
 * multiple of 128 (the wgmma tile layout, g_tile_offset). */
bool gpu_tma_box(tt_dtype et, int rank, const int64_t *block, uint32_t box[2], int *swizzle);
/* The tensor maps an sm_90a kernel of f takes, in op order, at most max:
 * one per distinct descriptor and box among f's 2-D loads with "desc"
 * operands (ops.def tt.load: host and in-kernel tensor descriptors, block
 * pointers checked along both dims) whose box gpu_tma_box takes, whose last
 * stride is 1, whose base and row stride the specialization (spec, may be
 * NULL) proves 16-byte aligned, and whose base, shape and row stride a
 * launch can compute from the parameters alone (constants, parameters,
 * values an scf.for carries unchanged, integer arith and tt.addptr), each
 * compiled into the map's program. Triton 3.6 builds in-kernel descriptors'
 * maps on the device instead (TMAToLLVM.cpp, tensormap.replace); these are
 * the same for every program, so the launch encodes them once. The
 * compiler (lower.c) and the launcher (tail_layout) call it alike. */
int gpu_tma_maps(const ir_func *f, const gpu_spec *spec, gpu_tmap *maps, int max);
/* The index in maps[n] of the map that load op reads, or -1. */
int gpu_tma_map_of(const ir_func *f, const gpu_tmap *maps, int n, const ir_op *op);
/* Encode into buf (L->size bytes, 64-byte aligned) each tensor map L reads
 * (tma_used), its address, shape and row stride computed by its program from
 * the parameters packed in buf. -1 with a message (cuda_error()) when a
 * program divides by zero or the driver refuses a map (a shape below 1, a
 * stride not a multiple of 16 bytes, ...); the driver's error names the
 * numbers. */
int gpu_tma_fill(const gpu_launcher *L, void *buf);
/* mbarriers in shared memory (bar: addrspace(3)): init with an arrival count
 * of 1 (one thread issues each stage), invalidate, the fence that makes
 * inits visible to the async proxy, one arrival that expects `bytes` of
 * transactions, and a wait (all threads) for the phase of parity (i32 0/1)
 * to complete. */
void g_mbar_init(gctx *g, LLVMValueRef bar);
void g_mbar_inval(gctx *g, LLVMValueRef bar);
void g_mbar_init_fence(gctx *g);
void g_mbar_expect_tx(gctx *g, LLVMValueRef bar, int64_t bytes);
void g_mbar_wait(gctx *g, LLVMValueRef bar, LLVMValueRef parity);
/* One TMA copy of the box at coordinates c[rank] (i32, innermost first;
 * rank 2-4) of the tensor map at `map` (generic address) into shared memory
 * at dst, completing bytes on bar. */
void g_tma_load(gctx *g, LLVMValueRef dst, LLVMValueRef map, const LLVMValueRef *c, int rank, LLVMValueRef bar);

/* codegen.c: the name of the default pass pipeline (for the cache key) */
const char *gpu_default_passes(void);

/* plan.c */
void gpu_plan(gctx *g);
/* Is v cheap to recompute in any layout (it and all its tensor inputs are
 * constants, ranges, splats, broadcasts or cheap elementwise ops)? */
bool gpu_is_remat(gctx *g, ir_value v, int depth);
/* Planning predicates (plan.c), which the planner, the pipeliner and the
 * lowering files share:
 * g_dot_uses_mma: the dot takes the mma.sync path (sm_80+, f16/bf16 or tf32
 * operands, f32 accumulator, a gl_mma shape). g_wgmma_enabled: the target is
 * sm_90 (compile.c then emits sm_90a) and gpu_options.mma_sync is off.
 * g_dot_uses_wgmma: the dot takes the wgmma path (f16/bf16 operands, f32
 * accumulator, gl_wgmma shape, K >= 16). g_mask_is_true: a constant-true
 * mask (no mask). */
bool g_dot_uses_mma(gctx *g, const ir_op *op);
bool g_wgmma_enabled(const gctx *g);
bool g_dot_uses_wgmma(gctx *g, const ir_op *op);
bool g_mask_is_true(gctx *g, ir_value m);
/* Vector plan for a load/store: `vec` elements (a power of two) along dim
 * `dim` are accessed together; bitreg[i] is the register bit of coordinate
 * bit i along dim. */
typedef struct vplan { int vec, nbits, dim; int bitreg[8]; } vplan;
vplan g_plan_vec(gctx *g, int lay, ir_value ptr, ir_value mask, int esize);

/* lower_llvm.c: LLVM emission helpers shared by the lowering files */
LLVMTypeRef g_type(gctx *g, ir_type t);          /* element (register) type */
LLVMTypeRef g_mem_type(gctx *g, ir_type elem);   /* in memory: i1 -> i8 */
gv g_new(gctx *g, int n, int lay);
gv g_get(gctx *g, ir_value v);                   /* lowered value in its planned layout */
LLVMValueRef g_const_i32(gctx *g, int64_t v);
LLVMValueRef g_call(gctx *g, const char *name, LLVMTypeRef ret, LLVMValueRef *args, int nargs);
LLVMValueRef g_intrinsic(gctx *g, const char *name, LLVMTypeRef *ovl, int novl, LLVMValueRef *args, int nargs);
LLVMValueRef g_asm(gctx *g, LLVMTypeRef ret, const char *text, const char *cons, LLVMValueRef *args, int nargs, bool side);
/* arith.truncf of two f32 registers to f16 or bf16 (rt) in one
 * cvt.rn.f16x2.f32 / cvt.rn.bf16x2.f32 (sm_80+; Triton 3.6 packs the same
 * way: ElementwiseOpToLLVM.cpp, FpToFpOpConversion). false: not applicable. */
bool g_truncf_pair(gctx *g, LLVMTypeRef rt, LLVMValueRef x0, LLVMValueRef x1, LLVMValueRef *y0, LLVMValueRef *y1);
void g_barrier(gctx *g);
/* if (cond) { ...the caller's code... }: g_if_begin leaves the builder in a
 * new then-block named `name` and returns the join block, where g_if_end
 * continues. cond NULL: no branch (both are no-ops). */
LLVMBasicBlockRef g_if_begin(gctx *g, LLVMValueRef cond, const char *name);
void g_if_end(gctx *g, LLVMBasicBlockRef jb);
/* Shared-memory scratch of at least n bytes; returns its base (addrspace 3). */
LLVMValueRef g_scratch(gctx *g, int64_t n);
void g_set(gctx *g, ir_value v, gv x);
/* Program id (nprog false) or grid size (true) along axis, i32. */
LLVMValueRef g_program(gctx *g, int axis, bool nprog);
/* wgmma.wait_group `pending` with the n f32 accumulators acc threaded
 * through it (replaced by the asm's results), so that no use of them is
 * scheduled before the wait (lower_wgmma.c, and pipeline.c at a loop's end). */
void g_wgmma_wait(gctx *g, int pending, LLVMValueRef *acc, int n);
/* lower_cvt.c: v's registers in layout lay (register pick, rematerialization
 * or a trip through shared memory). */
gv g_convert(gctx *g, ir_value v, int lay);
gv g_convert_gv(gctx *g, gv x, ir_type t, int lay);
/* v (a rank-2 tile) in layout lay through shared memory whose rows are
 * padded by 16 bytes: a dot accumulator's fragment (rows 8 apart, 4 bytes
 * per lane) is written and a coalesced layout's 16-byte runs are read
 * without bank conflicts (the epilogue of lower_mem.c's staged stores). */
gv g_convert_padded(gctx *g, ir_value v, int lay);
/* Shared-memory round trips for ops that move elements (lower_move.c):
 * bytes of one element of t in memory; x (type t) stored at base as a dense
 * row-major tile (no barrier: the caller places them); element idx (i32)
 * of such a tile read back as a register of t's element type; the
 * coordinate (i32) along dim d of register r of layout lay. */
int g_mem_size(gctx *g, ir_type t);
void g_smem_put(gctx *g, gv x, ir_type t, LLVMValueRef base);
LLVMValueRef g_smem_get(gctx *g, LLVMValueRef base, LLVMValueRef idx, ir_type t);
LLVMValueRef g_coord(gctx *g, int lay, int r, int d);
/* lower_move.c: tt.join, tt.split, tt.cat, tt.gather, tt.histogram */
void g_lower_move(gctx *g, ir_op *op);
/* Per-dim coordinate of the calling thread's lane/warp part in layout lay. */
LLVMValueRef g_lw_coord(gctx *g, int lay, int d);
/* i1: this thread is the first owner of its elements (replicated lanes/warps
 * other than the lowest skip); NULL when every thread owns its elements. */
LLVMValueRef g_owner(gctx *g, int lay);

/* lower_elem.c */
/* One element of an elementwise op (operands already in registers). */
LLVMValueRef g_elem(gctx *g, const ir_op *op, LLVMValueRef *a);
/* tt.fp_to_fp of one element x (lower_fp8.c); fp8 values are i8 bits. */
LLVMValueRef g_fp_to_fp(gctx *g, const ir_op *op, LLVMValueRef x);
LLVMValueRef g_cast_scalar(gctx *g, int opc, LLVMValueRef x, ir_type from, ir_type to);
/* lower_mem.c */
void g_lower_load(gctx *g, ir_op *op);
void g_lower_store(gctx *g, ir_op *op);
void g_lower_atomic(gctx *g, ir_op *op);
/* lower_cvt.c: lower a pure op (constants, ranges, splat, broadcast,
 * expand_dims, elementwise) in layout lay, fetching operands with fetch
 * (g_lower_pure: with g_convert, which rematerializes through it). */
typedef gv (*g_fetch_fn)(gctx *g, ir_value v, int lay, void *ctx);
gv g_lower_pure_with(gctx *g, ir_op *op, int lay, g_fetch_fn fetch, void *ctx);
gv g_lower_pure(gctx *g, ir_op *op, int lay);
/* pipeline.c: multi-stage cp.async software pipelining of the loads that
 * feed tensor-core dots in an scf.for (Triton's SoftwarePipeliner /
 * LoopPipelining with num_stages). */
struct gpipe *g_pipe_analyze(gctx *g, ir_op *forop);
void g_pipe_prologue(gctx *g, struct gpipe *p, LLVMValueRef lb, LLVMValueRef ub, LLVMValueRef step, gv *init);
void g_pipe_begin(gctx *g, struct gpipe *p, LLVMValueRef iv, LLVMValueRef lb, LLVMValueRef ub, LLVMValueRef step,
                  gv *carried);
bool g_pipe_load(gctx *g, ir_op *op);
void g_pipe_end(gctx *g, struct gpipe *p);
/* Is op the wgmma dot of a pipelined loop whose MMA stays in flight across
 * iterations (lower_wgmma.c then waits with wait_group 1)? */
bool g_pipe_dot_async(gctx *g, const ir_op *op);
/* Is op the wgmma dot whose wait_group 0 also retires the in-flight MMA of
 * a later dot of the loop (attention's q k^T before p v)? Then the loop's
 * region argument holding that dot's accumulator, whose registers the wait
 * carries; else -1. */
ir_value g_pipe_dot_retires(gctx *g, const ir_op *op);
/* lower_debug.c: tt.print (vprintf), tt.assert (__assertfail),
 * tt.elementwise_inline_asm (LLVM inline asm, `pack` elements per call) */
void g_lower_debug(gctx *g, ir_op *op);
void g_lower_asm(gctx *g, ir_op *op);
/* lower_reduce.c */
void g_lower_reduce(gctx *g, ir_op *op);
/* lower_dot.c */
void g_lower_dot(gctx *g, ir_op *op);
/* lower_wgmma.c: Hopper warpgroup MMA (wgmma.mma_async, sm_90a). */
void g_lower_wgmma(gctx *g, ir_op *op);
/* After LLVM's passes: move each wgmma.wait_group above the value-only
 * instructions (integer math, no memory) that precede it in its block.
 * LLVM sinks such epilogue math into the loop's exit block ahead of the wait
 * that ends the loop's in-flight MMA group; ptxas 13 then serializes every
 * wgmma of the function (C7514, "non wgmma instructions reading accumulator
 * registers ... between start and end of the pipeline stage"). */
void g_wgmma_waits_first(gctx *g);
/* fence.proxy.async: this thread's generic-proxy writes to shared memory
 * (st.shared of registers) become visible to wgmma's async proxy after the
 * next barrier. Stages filled by cp.async need none (as Triton 3.6). */
void g_fence_proxy_async(gctx *g);

/* lower_cvt.c: an operand tile of a tensor-core dot in shared memory: row-major
 * [rows, cols] of esz-byte elements, 16-byte chunks of each row swizzled
 * as Triton's shared encoding for mma operands does it (vec = 16 bytes):
 * chunk c of row r is stored at chunk c ^ ((r / perPhase) % maxPhase),
 * perPhase = max(1, 128 / rowbytes), maxPhase = 8 / perPhase. ldmatrix
 * reads of 8 rows x 16 bytes then hit 32 distinct banks. With rows of
 * 32, 64 or 128 bytes this is exactly the hardware's 32/64/128-byte swizzle
 * (address bits 4-6 xor bits 7-9) on a 1024-byte aligned base. A wg tile
 * with rows wider than 128 bytes is stored as [cols*esz/128] slabs of
 * [rows, 128 bytes], each swizzled so (Triton's NVMMASharedEncoding with
 * swizzlingByteWidth 128), which is what a wgmma descriptor can describe. */
/* Byte offset (i32) of element (row, col) of tile t; row and col are i32. */
LLVMValueRef g_tile_offset(gctx *g, const gtile *t, LLVMValueRef row, LLVMValueRef col);
void g_tile_swizzle(const gtile *t, int *per_phase, int *max_phase);
/* Registers of x (2-D, 16-bit elements) stored into tile t (no barrier). */
void g_tile_store(gctx *g, gv x, const gtile *t);

/* lower.c: build the kernel function into g->M */
void gpu_lower(gctx *g, const char *name);

/* codegen.c */
/* The NVPTX target machine for arch (sm_NN[a]) at the options' codegen
 * level, into g->tm (the caller disposes of it). 0, or -1 with g->err set. */
int gpu_target_machine(gctx *g, const char *arch);
int gpu_codegen(gctx *g, char **ptx, size_t *len);
void gpu_llvm_init(void);
/* $TRITIUM_LLVM_ARG as applied when LLVM was initialized ("" when none): part
 * of every cache key. Initializes LLVM. */
const char *gpu_llvm_extra_arg(void);

/* cache.c */
char *gpu_cache_dir(const gpu_options *o);
bool gpu_cache_read(const char *dir, const char *key, const char *ext, void **data, size_t *len);
void gpu_cache_write(const char *dir, const char *key, const char *ext, const void *data, size_t len);

#endif
