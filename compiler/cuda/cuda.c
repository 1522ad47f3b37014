/* cuda.c — the CUDA Driver API through dlopen (include/tritium/cuda.h).
 *
 * Symbols are resolved by their versioned names (cuda.h of CUDA 13 maps
 * cuMemAlloc to cuMemAlloc_v2 and so on; docs/reference/gpu-path.md §3.6).
 * The CUDA types are declared here so that building needs no toolkit. */
#include "tritium/cuda.h"
#include "tritium/settings.h"
#include "tritium/support.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef int CUresult;
typedef int CUdevice;
typedef void *CUcontext, *CUmodule, *CUfunction, *CUevent, *CUstream;

enum {
    CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
    CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0,
    CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
    CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3,
    CU_FUNC_ATTRIBUTE_NUM_REGS = 4,
    CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
    CU_JIT_INFO_LOG_BUFFER = 3,
    CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
    CU_JIT_ERROR_LOG_BUFFER = 5,
    CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
};

/* The driver entry points we use: X(field, versioned symbol, signature). */
#define CUDA_SYMS(X) \
    X(Init, "cuInit", (unsigned)) \
    X(GetErrorName, "cuGetErrorName", (CUresult, const char **)) \
    X(GetErrorString, "cuGetErrorString", (CUresult, const char **)) \
    X(DeviceGetCount, "cuDeviceGetCount", (int *)) \
    X(DeviceGet, "cuDeviceGet", (CUdevice *, int)) \
    X(DeviceGetName, "cuDeviceGetName", (char *, int, CUdevice)) \
    X(DeviceGetAttribute, "cuDeviceGetAttribute", (int *, int, CUdevice)) \
    X(DeviceTotalMem, "cuDeviceTotalMem_v2", (size_t *, CUdevice)) \
    X(PrimaryCtxRetain, "cuDevicePrimaryCtxRetain", (CUcontext *, CUdevice)) \
    X(PrimaryCtxReset, "cuDevicePrimaryCtxReset_v2", (CUdevice)) \
    X(CtxSetCurrent, "cuCtxSetCurrent", (CUcontext)) \
    X(CtxSynchronize, "cuCtxSynchronize", (void)) \
    X(MemAlloc, "cuMemAlloc_v2", (cuda_devptr *, size_t)) \
    X(MemFree, "cuMemFree_v2", (cuda_devptr)) \
    X(MemcpyHtoD, "cuMemcpyHtoD_v2", (cuda_devptr, const void *, size_t)) \
    X(MemcpyDtoH, "cuMemcpyDtoH_v2", (void *, cuda_devptr, size_t)) \
    X(MemsetD8, "cuMemsetD8_v2", (cuda_devptr, unsigned char, size_t)) \
    X(ModuleLoadDataEx, "cuModuleLoadDataEx", (CUmodule *, const void *, unsigned, int *, void **)) \
    X(ModuleUnload, "cuModuleUnload", (CUmodule)) \
    X(ModuleGetFunction, "cuModuleGetFunction", (CUfunction *, CUmodule, const char *)) \
    X(FuncGetAttribute, "cuFuncGetAttribute", (int *, int, CUfunction)) \
    X(FuncSetAttribute, "cuFuncSetAttribute", (CUfunction, int, int)) \
    X(LaunchKernel, "cuLaunchKernel", (CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, \
                                       unsigned, unsigned, CUstream, void **, void **)) \
    X(StreamCreate, "cuStreamCreate", (CUstream *, unsigned)) \
    X(StreamDestroy, "cuStreamDestroy_v2", (CUstream)) \
    X(EventCreate, "cuEventCreate", (CUevent *, unsigned)) \
    X(EventRecord, "cuEventRecord", (CUevent, CUstream)) \
    X(EventSynchronize, "cuEventSynchronize", (CUevent)) \
    X(EventDestroy, "cuEventDestroy_v2", (CUevent))

static struct {
#define X(f, sym, sig) CUresult (*f) sig;
    CUDA_SYMS(X)
#undef X
    CUresult (*EventElapsedTime)(float *, CUevent, CUevent);
    CUresult (*TensorMapEncodeTiled)(void *, int, unsigned, void *, const uint64_t *, const uint64_t *,
                                     const uint32_t *, const uint32_t *, int, int, int, int);   /* CUDA 12+ */
    CUresult (*FuncGetParamInfo)(CUfunction, size_t, size_t *, size_t *);                       /* CUDA 12.4+ */
    CUresult (*Occupancy)(int *, CUfunction, int, size_t);
    void *lib;
    CUdevice dev;
    CUcontext ctx;
    int state;                 /* 0 untried, 1 ok, -1 failed */
    unsigned generation;       /* cuda_context_generation */
    bool no_driver;
    char init_err[512];
    /* the last launch, for error messages; formatted only when one is
     * reported (launch_text), so a launch costs no snprintf */
    struct { bool set; char name[128]; long long grid[3]; int block, smem; } last;
} cu;

static const char *launch_text(void)
{
    static __thread char t[256];
    snprintf(t, sizeof t, "kernel %s (grid %lldx%lldx%lld, block %d, smem %d)", cu.last.name, cu.last.grid[0],
             cu.last.grid[1], cu.last.grid[2], cu.last.block, cu.last.smem);
    return t;
}

static __thread char errbuf[4096];

const char *cuda_error(void) { return errbuf; }
bool cuda_no_driver(void) { return cu.no_driver; }

int cuda_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(errbuf, sizeof errbuf, fmt, ap);
    va_end(ap);
    return -1;
}

/* "an illegal memory access was encountered (CUDA_ERROR_ILLEGAL_ADDRESS)" */
static void describe(CUresult r, char *buf, size_t n)
{
    const char *name = NULL, *str = NULL;
    if (cu.GetErrorName) cu.GetErrorName(r, &name);
    if (cu.GetErrorString) cu.GetErrorString(r, &str);
    snprintf(buf, n, "%s (%s)", str ? str : "unknown error", name ? name : "CUDA error");
}

static int check(CUresult r, const char *what)
{
    if (r == 0) return 0;
    char d[512];
    describe(r, d, sizeof d);
    return cuda_fail("CUDA error in %s: %s", what, d);
}

static int load_driver(void)
{
    const char *path = tt_settings_env()->libcuda;       /* libcuda.so.1 unless $TRITIUM_LIBCUDA */
    cu.lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!cu.lib) {
        cu.no_driver = true;
        return cuda_fail("no CUDA driver: %s not found", path);
    }
#define X(f, sym, sig) \
    *(void **)&cu.f = dlsym(cu.lib, sym); \
    if (!cu.f) return cuda_fail("CUDA driver too old: %s has no %s", "libcuda.so.1", sym);
    CUDA_SYMS(X)
#undef X
    *(void **)&cu.EventElapsedTime = dlsym(cu.lib, "cuEventElapsedTime_v2");
    if (!cu.EventElapsedTime) *(void **)&cu.EventElapsedTime = dlsym(cu.lib, "cuEventElapsedTime");
    if (!cu.EventElapsedTime) return cuda_fail("CUDA driver has no cuEventElapsedTime");
    *(void **)&cu.TensorMapEncodeTiled = dlsym(cu.lib, "cuTensorMapEncodeTiled");
    *(void **)&cu.FuncGetParamInfo = dlsym(cu.lib, "cuFuncGetParamInfo");
    *(void **)&cu.Occupancy = dlsym(cu.lib, "cuOccupancyMaxActiveBlocksPerMultiprocessor");
    return 0;
}

static int do_init(void)
{
    if (load_driver()) return -1;
    if (check(cu.Init(0), "cuInit")) return -1;
    int n = 0;
    if (check(cu.DeviceGetCount(&n), "cuDeviceGetCount")) return -1;
    if (n == 0) return cuda_fail("no CUDA device");
    int ord = (int)tt_settings_env()->gpu_device;
    if (ord < 0 || ord >= n) return cuda_fail("TRITIUM_DEVICE=%d but there are %d CUDA devices", ord, n);
    if (check(cu.DeviceGet(&cu.dev, ord), "cuDeviceGet")) return -1;
    if (check(cu.PrimaryCtxRetain(&cu.ctx, cu.dev), "cuDevicePrimaryCtxRetain")) return -1;
    if (check(cu.CtxSetCurrent(cu.ctx), "cuCtxSetCurrent")) return -1;
    return 0;
}

int cuda_init(void)
{
    if (cu.state == 0) {
        cu.state = do_init() ? -1 : 1;
        if (cu.state < 0) snprintf(cu.init_err, sizeof cu.init_err, "%.500s", errbuf);
    }
    if (cu.state < 0) return cuda_fail("%s", cu.init_err);
    return 0;
}

#define NEED_INIT() do { if (cuda_init()) return -1; } while (0)

int cuda_device_info_get(cuda_device_info *o)
{
    NEED_INIT();
    memset(o, 0, sizeof *o);
    if (check(cu.DeviceGetName(o->name, (int)sizeof o->name, cu.dev), "cuDeviceGetName")) return -1;
    if (check(cu.DeviceGetAttribute(&o->cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, cu.dev), "cuDeviceGetAttribute") ||
        check(cu.DeviceGetAttribute(&o->cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, cu.dev), "cuDeviceGetAttribute") ||
        check(cu.DeviceGetAttribute(&o->sm_count, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, cu.dev), "cuDeviceGetAttribute") ||
        check(cu.DeviceGetAttribute(&o->smem_per_block_optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, cu.dev), "cuDeviceGetAttribute") ||
        check(cu.DeviceTotalMem(&o->total_mem, cu.dev), "cuDeviceTotalMem"))
        return -1;
    return 0;
}

int cuda_malloc(cuda_devptr *p, size_t n)
{
    NEED_INIT();
    CUresult r = cu.MemAlloc(p, n ? n : 1);
    if (r) {
        char d[512];
        describe(r, d, sizeof d);
        return cuda_fail("cannot allocate %zu bytes of device memory: %s", n, d);
    }
    return 0;
}

int cuda_free(cuda_devptr p)
{
    NEED_INIT();
    return check(cu.MemFree(p), "cuMemFree");
}

int cuda_memcpy_htod(cuda_devptr dst, const void *src, size_t n)
{
    NEED_INIT();
    return n ? check(cu.MemcpyHtoD(dst, src, n), "cuMemcpyHtoD") : 0;
}

int cuda_memcpy_dtoh(void *dst, cuda_devptr src, size_t n)
{
    NEED_INIT();
    if (!n) return 0;
    CUresult r = cu.MemcpyDtoH(dst, src, n);
    if (r && cu.last.set) {
        char d[512];
        describe(r, d, sizeof d);
        return cuda_fail("%s failed: %s", launch_text(), d);
    }
    return check(r, "cuMemcpyDtoH");
}

int cuda_memset8(cuda_devptr dst, uint8_t v, size_t n)
{
    NEED_INIT();
    return n ? check(cu.MemsetD8(dst, v, n), "cuMemsetD8") : 0;
}

struct cuda_module { CUmodule m; };

/* Trim trailing blank lines of a JIT log. */
static void trim(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\r')) s[--n] = 0;
}

int cuda_module_load_ptx(const char *ptx, cuda_module **out)
{
    NEED_INIT();
    static char elog[8192], ilog[8192];
    elog[0] = ilog[0] = 0;
    int opts[] = { CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                   CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES };
    void *vals[] = { elog, (void *)(uintptr_t)sizeof elog, ilog, (void *)(uintptr_t)sizeof ilog };
    CUmodule m;
    CUresult r = cu.ModuleLoadDataEx(&m, ptx, 4, opts, vals);
    if (r) {
        char d[512];
        describe(r, d, sizeof d);
        trim(elog);
        return cuda_fail("the driver could not compile the PTX: %s%s%s", d, elog[0] ? "\n" : "", elog);
    }
    *out = xmalloc(sizeof **out);
    (*out)->m = m;
    return 0;
}

void cuda_module_unload(cuda_module *m)
{
    if (!m) return;
    if (cu.state > 0) cu.ModuleUnload(m->m);
    free(m);
}

int cuda_kernel_get(cuda_module *m, const char *name, int dyn_smem, cuda_kernel *k)
{
    NEED_INIT();
    memset(k, 0, sizeof *k);
    CUfunction f;
    if (check(cu.ModuleGetFunction(&f, m->m, name), "cuModuleGetFunction")) return -1;
    k->fn = f;
    snprintf(k->name, sizeof k->name, "%s", name);
    cu.FuncGetAttribute(&k->num_regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f);
    cu.FuncGetAttribute(&k->local_bytes, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, f);
    cu.FuncGetAttribute(&k->static_smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f);
    cu.FuncGetAttribute(&k->max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f);
    if (dyn_smem > 48 * 1024) {
        int optin = 0;
        cu.DeviceGetAttribute(&optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, cu.dev);
        if (dyn_smem + k->static_smem > optin)
            return cuda_fail("kernel %s needs %d bytes of shared memory; the device allows %d per block",
                        name, dyn_smem + k->static_smem, optin);
        if (check(cu.FuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, dyn_smem),
                  "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)"))
            return -1;
    }
    return 0;
}

/* Remember the launch for error messages (formatted only when one is
 * reported); the name is copied only when it changes. */
static inline void note_launch(const cuda_kernel *k, const int64_t grid[3], int block_x, int dyn_smem)
{
    if (strncmp(cu.last.name, k->name, sizeof cu.last.name - 1))
        snprintf(cu.last.name, sizeof cu.last.name, "%s", k->name);
    for (int d = 0; d < 3; d++) cu.last.grid[d] = (long long)grid[d];
    cu.last.block = block_x;
    cu.last.smem = dyn_smem;
    cu.last.set = true;
}

static inline bool grid_ok(const int64_t grid[3])
{
    return grid[0] >= 1 && grid[1] >= 1 && grid[2] >= 1 && grid[0] <= 2147483647LL && grid[1] <= 65535 &&
           grid[2] <= 65535;
}

static int launch_failed(CUresult r)
{
    char d[512];
    describe(r, d, sizeof d);
    return cuda_fail("cannot launch %s: %s", launch_text(), d);
}

/* cuLaunchKernel's `extra` markers (cuda.h: CU_LAUNCH_PARAM_END,
 * CU_LAUNCH_PARAM_BUFFER_POINTER, CU_LAUNCH_PARAM_BUFFER_SIZE). */
#define LAUNCH_PARAM_END ((void *)0)
#define LAUNCH_PARAM_BUFFER_POINTER ((void *)1)
#define LAUNCH_PARAM_BUFFER_SIZE ((void *)2)

int cuda_launch_packed(const cuda_kernel *k, const int64_t grid[3], int block_x, int dyn_smem, void *stream,
                       const void *buf, size_t size)
{
    if (cu.state <= 0) NEED_INIT();            /* a cuda_kernel exists only after a successful init */
    note_launch(k, grid, block_x, dyn_smem);
    if (!grid_ok(grid)) return cuda_fail("%s: grid out of range (x 1..2^31-1, y and z 1..65535)", launch_text());
    void *extra[] = { LAUNCH_PARAM_BUFFER_POINTER, (void *)buf, LAUNCH_PARAM_BUFFER_SIZE, &size, LAUNCH_PARAM_END };
    CUresult r = cu.LaunchKernel(k->fn, (unsigned)grid[0], (unsigned)grid[1], (unsigned)grid[2],
                                 (unsigned)block_x, 1, 1, (unsigned)dyn_smem, stream, NULL,
                                 size ? extra : NULL);         /* no parameters: neither form */
    return r ? launch_failed(r) : 0;
}

int cuda_stream_create(void **stream)
{
    NEED_INIT();
    *stream = NULL;
    return check(cu.StreamCreate((CUstream *)stream, 1 /* CU_STREAM_NON_BLOCKING */), "cuStreamCreate");
}

void cuda_stream_destroy(void *stream)
{
    if (stream && cu.state > 0) cu.StreamDestroy(stream);
}

int cuda_sync(void)
{
    NEED_INIT();
    CUresult r = cu.CtxSynchronize();
    if (r == 0) return 0;
    char d[512];
    describe(r, d, sizeof d);
    if (cu.last.set) return cuda_fail("%s failed: %s", launch_text(), d);
    return cuda_fail("CUDA error: %s", d);
}

unsigned cuda_context_generation(void) { return cu.generation; }

int cuda_reset(void)
{
    NEED_INIT();
    cu.generation++;                          /* every module and function is gone */
    if (check(cu.PrimaryCtxReset(cu.dev), "cuDevicePrimaryCtxReset")) return -1;
    if (check(cu.PrimaryCtxRetain(&cu.ctx, cu.dev), "cuDevicePrimaryCtxRetain")) return -1;
    return check(cu.CtxSetCurrent(cu.ctx), "cuCtxSetCurrent");
}

int cuda_timer_create(cuda_timer *t)
{
    NEED_INIT();
    t->start = t->stop = NULL;
    if (check(cu.EventCreate((CUevent *)&t->start, 0), "cuEventCreate")) return -1;
    return check(cu.EventCreate((CUevent *)&t->stop, 0), "cuEventCreate");
}

int cuda_timer_start(cuda_timer *t) { NEED_INIT(); return check(cu.EventRecord(t->start, NULL), "cuEventRecord"); }
int cuda_timer_stop(cuda_timer *t) { NEED_INIT(); return check(cu.EventRecord(t->stop, NULL), "cuEventRecord"); }

int cuda_timer_elapsed(cuda_timer *t, float *ms)
{
    NEED_INIT();
    CUresult r = cu.EventSynchronize(t->stop);
    if (r) {
        char d[512];
        describe(r, d, sizeof d);
        if (cu.last.set) return cuda_fail("%s failed: %s", launch_text(), d);
        return cuda_fail("CUDA error: %s", d);
    }
    return check(cu.EventElapsedTime(ms, t->start, t->stop), "cuEventElapsedTime");
}

void cuda_timer_destroy(cuda_timer *t)
{
    if (cu.state > 0) {
        if (t->start) cu.EventDestroy(t->start);
        if (t->stop) cu.EventDestroy(t->stop);
    }
    t->start = t->stop = NULL;
}

int cuda_tensor_map_tiled(void *map, int dtype, int rank, cuda_devptr addr, const uint64_t *dims,
                          const uint64_t *strides, const uint32_t *box, int swizzle)
{
    NEED_INIT();
    if (!cu.TensorMapEncodeTiled) return cuda_fail("CUDA driver too old: libcuda.so.1 has no cuTensorMapEncodeTiled");
    uint32_t ones[5] = { 1, 1, 1, 1, 1 };
    /* CU_TENSOR_MAP_INTERLEAVE_NONE, SWIZZLE_32B/64B/128B = 1/2/3,
     * L2_PROMOTION_L2_256B = 3 (Triton 3.6's fill_tma_descriptor), FLOAT_OOB_FILL_NONE: zeros */
    int sw = swizzle == 128 ? 3 : swizzle == 64 ? 2 : swizzle == 32 ? 1 : 0;
    if (rank < 1 || rank > 5) return cuda_fail("cuTensorMapEncodeTiled: rank %d", rank);
    CUresult r = cu.TensorMapEncodeTiled(map, dtype, (unsigned)rank, (void *)(uintptr_t)addr, dims, strides, box, ones,
                                         0, sw, 3, 0);
    if (r == 0) return 0;
    char d[512], w[256];
    int n = snprintf(w, sizeof w, "cuTensorMapEncodeTiled (address 0x%llx, dims", (unsigned long long)addr);
    for (int i = 0; i < rank && n < 160; i++) n += snprintf(w + n, sizeof w - (size_t)n, " %lld", (long long)dims[i]);
    n += snprintf(w + n, sizeof w - (size_t)n, ", strides");
    for (int i = 0; i + 1 < rank && n < 200; i++)
        n += snprintf(w + n, sizeof w - (size_t)n, " %lld bytes", (long long)strides[i]);
    snprintf(w + n, sizeof w - (size_t)n, ", box %u x %u)", box[0], rank > 1 ? box[1] : 1);
    describe(r, d, sizeof d);
    return cuda_fail("CUDA error in %s: %s", w, d);
}

int cuda_kernel_occupancy(const cuda_kernel *k, int block_x, int dyn_smem, int *ctas_per_sm)
{
    NEED_INIT();
    if (!cu.Occupancy) return cuda_fail("CUDA driver has no cuOccupancyMaxActiveBlocksPerMultiprocessor");
    return check(cu.Occupancy(ctas_per_sm, (CUfunction)k->fn, block_x, (size_t)dyn_smem),
                 "cuOccupancyMaxActiveBlocksPerMultiprocessor");
}

int cuda_kernel_param(const cuda_kernel *k, int index, size_t *offset, size_t *size)
{
    NEED_INIT();
    if (!cu.FuncGetParamInfo) return cuda_fail("CUDA driver too old: libcuda.so.1 has no cuFuncGetParamInfo");
    return check(cu.FuncGetParamInfo((CUfunction)k->fn, (size_t)index, offset, size), "cuFuncGetParamInfo");
}
