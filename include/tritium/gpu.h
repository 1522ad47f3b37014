/* gpu.h — the GPU compiler: IR -> LLVM IR (LLVM-C 19) -> PTX, the on-disk
 * compile cache, and gpu_launch, which runs a resolved launch on the device
 * (docs/design.md, "The GPU path"; docs/reference/gpu-path.md).
 *
 * Execution model (Triton's): one CTA per program instance, 32 x num_warps
 * threads; every tile value is spread over the threads by a layout (blocked
 * layouts with 16-byte vectors along the contiguous dimension where the axis
 * analysis proves contiguity and alignment). The kernel entry takes the
 * runtime parameters of the IR function, in order: pointers as 64-bit
 * global addresses, integers at their width (i1 as a 32-bit int), floats as
 * f32/f64 (f16/bf16 scalars as 16-bit patterns). It uses dynamic shared
 * memory (gpu_kernel.smem_bytes) and must be launched with exactly
 * 32 x num_warps threads (.reqntid). */
#ifndef TRITIUM_GPU_H
#define TRITIUM_GPU_H

#include <stdio.h>
#include "tritium/ir.h"
#include "tritium/launch.h"
#include "tritium/cuda.h"
#include "tritium/settings.h"

/* Numerics (tt_numerics, launch.h). IEEE: IEEE division and square root, no
 * contraction, libdevice without flush-to-zero — agrees bit for bit with the
 * interpreter's ieee mode except for transcendental functions and the order
 * of float reductions. FAST: Triton 3.6's choices (fma contraction,
 * div.full.f32, exp through ex2.approx, libdevice with ftz;
 * docs/reference/triton-semantics.md §2.8-2.9). */

/* What a compile uses: the settings (settings.def; the fields read here are
 * numerics, num_warps, arch, mma_sync, persistent, libdevice, cache_dir and
 * the developer knobs gpu_*, wgmma_*, tma, llvm_arg) and per-call switches.
 *
 *   set.arch        "sm_90", "sm_80", ...; NULL: the device's, else sm_90
 *   set.mma_sync    dots through Ampere's mma.sync on sm_90 too (target
 *                   sm_90). 0 (default): on sm_90, tl.dot on f16/bf16 with an
 *                   f32 accumulator of a shape wgmma takes is lowered to
 *                   Hopper's wgmma.mma_async and every kernel targets sm_90a,
 *                   as Triton 3.6 does for capability 90
 *                   (third_party/nvidia/backend/compiler.py, sm_arch_from_capability)
 *   set.persistent  a persistent kernel: as many CTAs as fit on the GPU at
 *                   once walk the launch's programs in order (lower.c
 *                   persistent_begin; gpu_launcher_launch)
 *
 * Every row that changes code is part of the cache key (tt_settings_key). */
typedef struct gpu_options {
    tt_settings set;               /* gpu_options_default: tt_settings_env()'s */
    bool no_cache;                 /* don't read or write the disk cache */
    FILE *dump_llvm;               /* when set, the optimized LLVM IR is printed here */
    int bench_iters;               /* gpu_launch: 0 = run once; N > 0: also time N more runs
                                    * (outputs are those of the first run) */
} gpu_options;

/* The settings of the environment (tt_settings_env), nothing else. One
 * extra LLVM option, $TRITIUM_LLVM_ARG, is process-wide (LLVM's options are
 * global): the value when LLVM is first initialized is used and is part of
 * every cache key. */
void gpu_options_default(gpu_options *o);

/* Argument specialization as Triton's specialize.cc does it: bit i is set
 * when runtime parameter i is "divisible by 16" — a pointer whose address is
 * 16-byte aligned, an integer whose value % 16 == 0. Parameters beyond 64
 * are never specialized. Part of the cache key; changing any other runtime
 * value never recompiles. */
typedef struct gpu_spec {
    uint64_t div16;
    uint64_t eq1;                  /* bit i: integer parameter i equals 1 (Triton specializes
                                    * such ints into the constant 1); added field, 0 = unknown */
} gpu_spec;

/* The specialization of a launch's arguments as gpu_launch uses it (device
 * allocations are 256-byte aligned; a view is 16-byte aligned when its
 * offset into its storage is). */
gpu_spec gpu_spec_of_launch(const ir_func *f, const launch *l);
/* The same with each tensor argument k's actual device address addr[k]
 * (launches on memory the caller allocated: torch's tensors); addr NULL is
 * gpu_spec_of_launch. */
gpu_spec gpu_spec_of_args(const ir_func *f, const launch *l, const uint64_t *addr);
/* The target for the current device: "sm_NN" from its compute capability,
 * capped at sm_90 (LLVM 19's last; the driver JITs the PTX forward); *newer
 * is set when the device is newer than sm_90 (the caller then sets
 * gpu_options.mma_sync: sm_90a PTX runs on sm_90 alone). di (may be NULL)
 * receives the device's properties. -1 with the CUDA error (no driver, no
 * device) in err. */
int gpu_device_arch(char *arch, size_t n, cuda_device_info *di, bool *newer, char *err, size_t errlen);
/* o as gpu_launch compiles it for this machine's GPU: o->arch the device's
 * (written to arch[n], which must outlive o) unless o->arch is set, and
 * mma_sync on a device newer than sm_90 (gpu_device_arch). The launcher memo
 * keys by these options, so callers that resolve o this way share kernels.
 * -1 with the CUDA error in err. */
int gpu_options_for_device(gpu_options *o, char *arch, size_t n, cuda_device_info *di, char *err, size_t errlen);

typedef struct gpu_kernel {
    char *name;                    /* PTX entry name */
    char *ptx;                     /* NUL-terminated */
    size_t ptx_len;
    char arch[16];                 /* the PTX's .target: "sm_80", "sm_90", "sm_90a" (wgmma on) */
    int num_warps;
    int smem_bytes;                /* dynamic shared memory per CTA */
    char key[33];                  /* cache key (hex) */
    uint64_t tmaps;                /* bit j: after the IR's parameters (and a persistent kernel's
                                    * grid) the entry takes tensor map j of gpu_tma_maps, in order
                                    * (.param .align 64 .b8 [128]) */
    uint64_t tma_used;             /* the bits of tmaps whose map the kernel reads (TMA loads) */
    bool from_cache;               /* PTX came from the disk cache */
    double compile_ms;             /* wall time of gpu_compile */
} gpu_kernel;

/* Compile f (verified IR) for the options and specialization (spec may be
 * NULL: nothing specialized). Uses the disk cache unless o->no_cache.
 * Returns 0, or -1 with a one-line message in err for unsupported constructs
 * ("gpu: tt.dot with i8 operands is not supported yet") or LLVM failures.
 * Free the result with gpu_kernel_free. Thread-safe. */
int gpu_compile(const ir_func *f, const gpu_options *o, const gpu_spec *spec,
                gpu_kernel *out, char *err, size_t errlen);
void gpu_kernel_free(gpu_kernel *k);

/* The version string that is part of every cache key. */
const char *gpu_compiler_version(void);

/* Whether this process has initialized LLVM: only a compile that misses the
 * disk cache does; a warm compile (the PTX cached) never touches LLVM. */
bool gpu_llvm_used(void);

typedef struct gpu_stats {
    double compile_ms;             /* gpu_compile (0 when the process cache hit) */
    double load_ms;                /* module load (the driver's JIT, or its compute cache) */
    double h2d_ms, d2h_ms;         /* host<->device copies */
    double kernel_ms;              /* first run, CUDA events */
    double bench_ms;               /* mean over bench_iters further runs (0 when none) */
    bool ptx_cached;               /* a hit in the disk cache */
    int num_regs, spill_bytes, smem_bytes;
    int persistent_ctas;           /* a persistent kernel's CTAs at most (gpu_launcher); 0: not persistent */
    char arch[16];                 /* the kernel's target (gpu_kernel.arch) */
    char device[256];
} gpu_stats;

/* Run the launch on the GPU: compile (cache), copy every tensor argument to
 * the device, launch l->grid with 32 x num_warps threads (o->num_warps, else
 * l->num_warps, else 4), copy all tensors back into l's host tensors, time
 * with CUDA events. st may be NULL.
 * Returns 0 on success; 2 when there is no driver/device, the kernel does not
 * compile or the launch does not match the kernel ("no CUDA driver:
 * libcuda.so.1 not found"); 1 when the kernel failed on the device (illegal
 * address, ...: the message names the kernel and the launch). The message
 * goes to err. */
int gpu_launch(const ir_func *f, launch *l, const gpu_options *o, gpu_stats *st, char *err, size_t errlen);

/* Device storage for every tensor of l, kernel arguments and extra tensors
 * (launch.nextra) alike: each storage owner (launch_owner) gets an
 * allocation holding its host contents, views their owner's, and pointer
 * tables (launch_arg.ptr_n) the device addresses of their targets. dev and
 * addr have l->nargs + l->nextra entries: dev[i] the allocation to free with
 * gpu_free_buffers (0 for views and scalars), addr[i] argument i's device
 * address (its first element). Returns 0, or -1 with the CUDA error in err
 * (what was allocated is in dev). */
int gpu_upload_buffers(const launch *l, uint64_t *dev, uint64_t *addr, char *err, size_t errlen);
/* Copy every owned storage but pointer tables back into l's host tensors. */
int gpu_download_buffers(launch *l, const uint64_t *dev, char *err, size_t errlen);
void gpu_free_buffers(const launch *l, uint64_t *dev);

/* ---- launcher.c: the warm launch path ---- */

/* A kernel parameter as the entry declares it (lower.c gpu_lower): its
 * bytes in the parameter buffer. */
typedef enum { GPU_P_PTR, GPU_P_BOOL, GPU_P_I32, GPU_P_I64, GPU_P_F16, GPU_P_BF16, GPU_P_F32, GPU_P_F64 } gpu_param_kind;
typedef struct gpu_param {
    gpu_param_kind kind;
    int offset;                    /* bytes, a multiple of the kind's size (CUDA's ABI) */
} gpu_param;

/* The runtime parameters of f laid out as one cuLaunchKernel parameter
 * buffer, in order, each aligned to its size (pointers 8, i1..i32 4, i64 8,
 * f16/bf16 2, f32 4, f64 8); *size ends at the last parameter, with no
 * tail padding: the kernel's parameter space, the only buffer size the driver
 * accepts (a padded one fails with CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES). *params (one per
 * parameter of f's body) is malloc'd. -1 with a message for a parameter type
 * the GPU path does not pass. */
int gpu_param_layout(const ir_func *f, gpu_param **params, size_t *size, char *err, size_t errlen);
/* Store argument a (device address dev for a tensor) as a parameter of
 * `kind` at dst (the parameter's size in bytes). -1 with a message when a
 * tensor is given for a scalar or the other way round. */
int gpu_param_store(gpu_param_kind kind, const launch_arg *a, uint64_t dev, void *dst, char *err, size_t errlen);

/* One step of the program that computes a tensor map's address, shape and
 * row stride at launch from the packed parameters (gpu_tma_fill): a stack
 * machine over int64 values kept sign-extended from `bits`, wrapping as the
 * IR's integer ops wrap (ops.def arith.*, tt.addptr). */
typedef enum {
    GPU_TS_PARAM, GPU_TS_CONST, GPU_TS_ADD, GPU_TS_SUB, GPU_TS_MUL, GPU_TS_DIVS, GPU_TS_DIVU, GPU_TS_REMS,
    GPU_TS_REMU, GPU_TS_EXTU, GPU_TS_WRAP, GPU_TS_ADDPTR
} gpu_tstep_op;
typedef struct gpu_tstep {
    uint8_t op;                    /* gpu_tstep_op */
    uint8_t bits;                  /* the result's width; EXTU: the operand's */
    int32_t a;                     /* PARAM: the parameter's index; ADDPTR: bytes per element */
    int64_t imm;                   /* CONST: the value */
} gpu_tstep;

#define GPU_MAX_TMAPS 16           /* tensor maps per kernel */
#define GPU_TMAP_STEPS 32          /* steps per map's program */

/* A tensor map a kernel takes (gpu_tma_maps): the 2-D block loads it serves
 * (their descriptor operands, ops.def tt.load), where it goes in the
 * parameter buffer and how the launch encodes it. A base of the form
 * P + i * S (+ j * T), P, S and T computed by the launch and i, j by each
 * program (a batch's or head's block pointer), is a map of rank 3 (4) over
 * P whose outer dims have strides S (T) and the coordinates i (j), which
 * the kernel passes with each copy. */
typedef struct gpu_tmap {
    int32_t desc[4];               /* IR values: base, shape[0], shape[1] (a cut dim: its offset), strides[0] */
    int rank;                      /* 2, or 3-4 with batch indices */
    int32_t batch[2];              /* IR values: the batch indices i, j (ranks 3, 4) */
    int off;                       /* bytes into the parameter buffer (the driver's layout) */
    int dtype;                     /* CUDA_TMAP_* */
    uint32_t box[2];               /* elements, innermost first (the batch dims' are 1) */
    int swizzle;                   /* bytes: 32, 64 or 128 */
    int nsteps;
    gpu_tstep step[GPU_TMAP_STEPS];  /* pushes P, shape[0], shape[1], strides[0], then S, T
                                      * (elements) */
} gpu_tmap;

/* A kernel ready to launch again and again: compiled, loaded, its
 * parameter buffer laid out (Triton's CompiledKernel with its launcher). */
typedef struct gpu_launcher {
    cuda_kernel k;                 /* the loaded function (num_regs, local_bytes, ...) */
    cuda_module *mod;              /* owned; NULL when another launcher loaded the same PTX */
    int block;                     /* threads per CTA: 32 x num_warps */
    int smem;                      /* dynamic shared memory bytes */
    int nparams;
    gpu_param *params;
    size_t size;                   /* parameter buffer bytes */
    uint64_t tma_used;             /* gpu_kernel.tma_used: maps gpu_launcher_launch encodes */
    int persistent_ctas;           /* a persistent kernel (gpu_options.persistent): the most CTAs
                                    * it launches (SMs x CTAs per SM); 0: one CTA per program */
    int grid_off;                  /* persistent: bytes, the launch's grid (i32 x3) in the buffer */
    int nmaps;
    gpu_tmap tmap[GPU_MAX_TMAPS];  /* the kernel's tensor maps (gpu_tma_maps) */
    char key[33];                  /* the PTX cache key */
    char arch[16];
} gpu_launcher;

/* The launcher of f compiled for o (o->arch set; num_warps 0 means 4) and
 * spec. Memoized for the process by f's serial number, spec and the options
 * that change the code, so only the first call per key compiles (gpu_compile,
 * disk cache), loads (cuda_module_load_ptx) and lays out; later calls are a short
 * scan under a mutex. The launcher lives as long as the process (a
 * cuda_reset makes the next call load again). st (may be NULL) gets
 * compile/load times, cache hits and is left alone on a memo hit. Returns 0,
 * or -1 with a message in err (no driver, compile or load failure). */
int gpu_launcher_get(const ir_func *f, const gpu_options *o, const gpu_spec *spec, const gpu_launcher **out,
                     gpu_stats *st, char *err, size_t errlen);
/* Pack the runtime arguments of l into buf (L->size bytes): tensors as the
 * device addresses addr[i]; the tensor maps' bytes stay zero (the launch
 * writes them). -1 with a message when l does not match. */
int gpu_launcher_pack(const gpu_launcher *L, const launch *l, const uint64_t *addr, void *buf, char *err,
                      size_t errlen);
/* One cuLaunchKernel of L on grid with the packed buffer, on stream (NULL:
 * the default stream); cuda_launch_packed's errors (cuda_error()). A kernel
 * with TMA loads gets a copy of buf with each CUtensorMap it reads encoded
 * from the parameters packed in it (gpu_tma_fill), as Triton 3.6 encodes
 * host descriptors at every launch (driver.py make_tensordesc_arg).
 * No allocation, lookup or hashing. */
int gpu_launcher_launch(const gpu_launcher *L, const int64_t grid[3], void *stream, const void *buf);

#endif
