/* cuda.h — tritium's thin layer over the CUDA Driver API (docs/design.md,
 * "The GPU path"; docs/reference/gpu-path.md §3).
 *
 * libcuda.so.1 is opened with dlopen on first use (or $TRITIUM_LIBCUDA), so a
 * binary linked with this library runs on machines without a driver and says
 * so plainly. Versioned entry points are resolved by their _v2 names as cuda.h
 * (CUDA 13) maps them: cuMemAlloc_v2, cuMemFree_v2, cuMemcpyHtoD_v2, ...
 *
 * Every function returns 0 on success and -1 on failure; the failure's
 * message (one line, no trailing newline) is then available from
 * cuda_error(). Callers turn "no driver" (cuda_no_driver() true) into exit
 * status 2. One device (device 0, or $TRITIUM_DEVICE) and its primary context
 * are used for the whole process. Not thread-safe beyond "one thread at a time". */
#ifndef TRITIUM_CUDA_H
#define TRITIUM_CUDA_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

typedef uint64_t cuda_devptr;          /* CUdeviceptr */

/* Load libcuda.so.1, cuInit(0), take the device and make its primary context
 * current. Idempotent; later calls return the first call's result.
 * Errors: "no CUDA driver: libcuda.so.1 not found" (cuda_no_driver() is then
 * true), "no CUDA device", or a driver error. */
int cuda_init(void);
/* True after cuda_init failed because libcuda.so.1 could not be loaded. */
bool cuda_no_driver(void);
/* The last error message of this thread ("" when none). */
const char *cuda_error(void);
/* Set it (callers around the driver that fail for their own reasons);
 * returns -1. */
int cuda_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

typedef struct cuda_device_info {
    char name[256];
    int cc_major, cc_minor;            /* compute capability, e.g. 9.0 */
    int sm_count;
    int smem_per_block_optin;          /* bytes, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN */
    size_t total_mem;                  /* bytes */
} cuda_device_info;

/* Properties of the device (calls cuda_init). */
int cuda_device_info_get(cuda_device_info *out);

/* Device memory. cuda_malloc of 0 bytes allocates 1 byte (a valid, unique
 * pointer). Addresses are 256-byte aligned (cuMemAlloc). */
int cuda_malloc(cuda_devptr *p, size_t nbytes);
int cuda_free(cuda_devptr p);
int cuda_memcpy_htod(cuda_devptr dst, const void *src, size_t nbytes);
int cuda_memcpy_dtoh(void *dst, cuda_devptr src, size_t nbytes);
int cuda_memset8(cuda_devptr dst, uint8_t value, size_t nbytes);

/* A CUtensorMap (128 bytes at map, 64-byte aligned in a kernel's parameter
 * space) for tiled TMA copies of a rank-dim tensor at device address addr:
 * dims and box innermost first (elements), strides the rank-1 outer
 * strides in bytes (multiples of 16), swizzle 0, 32, 64 or 128 bytes,
 * out-of-bounds elements read as zeros (cuTensorMapEncodeTiled, CUDA 12+).
 * dtype: CUDA_TMAP_*. -1 with the driver's error (cuda_error()). */
enum { CUDA_TMAP_F16 = 6, CUDA_TMAP_BF16 = 9 };   /* CUtensorMapDataType */
int cuda_tensor_map_tiled(void *map, int dtype, int rank, cuda_devptr addr, const uint64_t *dims,
                          const uint64_t *strides, const uint32_t *box, int swizzle);

typedef struct cuda_module cuda_module;  /* opaque: a loaded CUmodule */

/* Load a module from NUL-terminated PTX: the driver's JIT (cuModuleLoadDataEx)
 * compiles it as one whole program, as Triton 3.6 runs ptxas
 * (backends/nvidia/compiler.py make_cubin); the driver's compute cache
 * (~/.nv/ComputeCache; CUDA_CACHE_PATH, CUDA_CACHE_DISABLE) keeps the result
 * across processes. The cubin cuLink* makes of the same PTX is scheduled
 * differently (tutorial 06's causal attention, d64, on an H100: 1.00 ms
 * against 0.80 ms loaded this way or through `ptxas -O3`). A failure shows
 * the JIT error log in the message. */
int cuda_module_load_ptx(const char *ptx, cuda_module **out);
void cuda_module_unload(cuda_module *m);

typedef struct cuda_kernel {
    void *fn;                          /* CUfunction */
    char name[128];
    int num_regs, local_bytes, static_smem, max_threads;
} cuda_kernel;

/* Look up kernel `name`; when dyn_smem > 48 KiB, raise its dynamic shared
 * memory limit (cuFuncSetAttribute MAX_DYNAMIC_SHARED_SIZE_BYTES), failing
 * with a message when the device's opt-in maximum is smaller. */
int cuda_kernel_get(cuda_module *m, const char *name, int dyn_smem, cuda_kernel *k);
/* Byte offset and size of parameter `index` in k's parameter space, as
 * ptxas laid it out (cuFuncGetParamInfo, CUDA 12.4+): a .param .align 64
 * array lands where the constant bank makes it 64-byte aligned, not at an
 * offset the C rule predicts. */
int cuda_kernel_param(const cuda_kernel *k, int index, size_t *offset, size_t *size);
/* How many CTAs of k, block_x threads and dyn_smem bytes of dynamic shared
 * memory each, one SM holds at once (cuOccupancyMaxActiveBlocksPerMultiprocessor:
 * registers, shared memory, threads); 0 when one does not fit. */
int cuda_kernel_occupancy(const cuda_kernel *k, int block_x, int dyn_smem, int *ctas_per_sm);

/* Launch grid (x,y,z) CTAs of block_x threads with dyn_smem bytes of
 * dynamic shared memory, the parameters pre-packed in one buffer of `size`
 * bytes, each parameter at an offset aligned to its size, in the kernel's
 * parameter order (cuLaunchKernel's `extra` form,
 * CU_LAUNCH_PARAM_BUFFER_POINTER / CU_LAUNCH_PARAM_BUFFER_SIZE: the driver
 * copies the buffer instead of reading one pointer per parameter), on
 * `stream` (a CUstream; NULL: the legacy default stream, as torch's default
 * stream). size 0: a kernel without parameters. Asynchronous: errors inside
 * the kernel show up at the next cuda_sync, whose message then names this
 * launch. No allocation, no formatting unless it fails. */
int cuda_launch_packed(const cuda_kernel *k, const int64_t grid[3], int block_x, int dyn_smem, void *stream,
                       const void *buf, size_t size);
/* A non-blocking stream (cuStreamCreate, CU_STREAM_NON_BLOCKING: no implicit
 * synchronization with the legacy default stream); destroy with
 * cuda_stream_destroy (NULL is ignored). */
int cuda_stream_create(void **stream);
void cuda_stream_destroy(void *stream);
/* Bumped by cuda_reset: modules and functions loaded under an older
 * generation are gone (memos compare it). */
unsigned cuda_context_generation(void);
/* cuCtxSynchronize. An error names the last launch, e.g.
 * "kernel add (grid 4x1x1, block 128, smem 0) failed: an illegal memory access
 * was encountered (CUDA_ERROR_ILLEGAL_ADDRESS)". After such an error the
 * context is unusable; cuda_reset() makes a fresh one. */
int cuda_sync(void);
/* Reset the primary context (after a sticky error); invalidates modules and memory. */
int cuda_reset(void);

/* Timing with CUDA events on the default stream. */
typedef struct cuda_timer { void *start, *stop; } cuda_timer;
int cuda_timer_create(cuda_timer *t);
int cuda_timer_start(cuda_timer *t);
int cuda_timer_stop(cuda_timer *t);
/* Synchronizes on the stop event; milliseconds between start and stop. */
int cuda_timer_elapsed(cuda_timer *t, float *ms);
void cuda_timer_destroy(cuda_timer *t);

#endif
