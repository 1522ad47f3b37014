/* fake_cuda.c — a stand-in libcuda for tests and host-side benchmarks on
 * machines without a GPU (TRITIUM_LIBCUDA=.../libfake_cuda.so): the entry
 * points compiler/cuda/cuda.c resolves, with "device memory" in host memory
 * (cuMemAlloc is aligned_alloc, copies are memcpy), modules that are never
 * run, and cuLaunchKernel recording what it was given. Kernels do not
 * execute. fake_cuda_state() gives the counts and the last launch. */
#include "fake_cuda.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;

static fake_cuda st;

fake_cuda *fake_cuda_state(void) { return &st; }

CUresult cuInit(unsigned f) { (void)f; return 0; }
CUresult cuGetErrorName(CUresult r, const char **s) { *s = r ? "CUDA_ERROR_FAKE" : "CUDA_SUCCESS"; return 0; }
CUresult cuGetErrorString(CUresult r, const char **s) { *s = r ? "fake error" : "no error"; return 0; }
CUresult cuDeviceGetCount(int *n) { *n = 1; return 0; }
CUresult cuDeviceGet(int *d, int o) { *d = o; return 0; }
CUresult cuDeviceGetName(char *s, int n, int d) { (void)d; strncpy(s, "fake GPU", (size_t)n); return 0; }

CUresult cuDeviceGetAttribute(int *v, int attr, int d)
{
    (void)d;
    switch (attr) {
    case 16: *v = 132; break;                /* multiprocessors */
    case 75: *v = 9; break;                  /* compute capability 9.0 */
    case 76: *v = 0; break;
    case 97: *v = 227 * 1024; break;         /* shared memory opt-in */
    default: *v = 0;
    }
    return 0;
}

CUresult cuDeviceTotalMem_v2(size_t *b, int d) { (void)d; *b = (size_t)80 << 30; return 0; }
CUresult cuDevicePrimaryCtxRetain(void **c, int d) { (void)d; *c = &st; return 0; }
CUresult cuDevicePrimaryCtxReset_v2(int d) { (void)d; return 0; }
CUresult cuCtxSetCurrent(void *c) { (void)c; return 0; }
CUresult cuCtxSynchronize(void) { st.syncs++; return 0; }

CUresult cuMemAlloc_v2(uint64_t *p, size_t n)
{
    void *m = aligned_alloc(256, (n + 255) / 256 * 256);
    if (!m) return 2;                        /* CUDA_ERROR_OUT_OF_MEMORY */
    st.allocs++;
    *p = (uint64_t)(uintptr_t)m;
    return 0;
}

CUresult cuMemFree_v2(uint64_t p) { free((void *)(uintptr_t)p); return 0; }
CUresult cuMemcpyHtoD_v2(uint64_t d, const void *s, size_t n) { memcpy((void *)(uintptr_t)d, s, n); return 0; }
CUresult cuMemcpyDtoH_v2(void *d, uint64_t s, size_t n) { memcpy(d, (void *)(uintptr_t)s, n); return 0; }
CUresult cuMemsetD8_v2(uint64_t d, unsigned char v, size_t n) { memset((void *)(uintptr_t)d, v, n); return 0; }

/* A module is its entry's parameter list, read from the PTX text: each
 * ".param" of the .entry, its size (.u64/.b64 8, .u32/.f32/.b32 4, ...,
 * .b8 name[N] N) and offset. The offset rule is what cuobjdump showed of
 * ptxas 12.8/13 on an H100: each parameter aligned to its size, or to
 * .align N capped at 16 (a 64-aligned CUtensorMap lands 16-aligned). */
enum { FAKE_MAXPARAMS = 256 };
typedef struct fake_module {
    int n;
    size_t off[FAKE_MAXPARAMS], size[FAKE_MAXPARAMS];
} fake_module;

static void read_params(fake_module *m, const char *ptx)
{
    const char *e = strstr(ptx, ".entry");
    const char *p = e ? strchr(e, '(') : NULL, *end = p ? strchr(p, ')') : NULL;
    size_t off = 0;
    while (p && end && (p = strstr(p, ".param")) && p < end && m->n < FAKE_MAXPARAMS) {
        const char *comma = strchr(p, ',');
        const char *stop = comma && comma < end ? comma : end;
        size_t size = 8, align = 0;
        const char *a = strstr(p, ".align");
        if (a && a < stop) align = strtoull(a + 6, NULL, 10);
        static const char *const t4[] = { ".u32", ".b32", ".s32", ".f32" }, *const t2[] = { ".u16", ".b16", ".f16" };
        for (int k = 0; k < 4; k++)
            if (strstr(p, t4[k]) && strstr(p, t4[k]) < stop) size = 4;
        for (int k = 0; k < 3; k++)
            if (strstr(p, t2[k]) && strstr(p, t2[k]) < stop) size = 2;
        const char *br = strchr(p, '[');
        if (br && br < stop) size = strtoull(br + 1, NULL, 10);
        if (!align) align = size;
        if (align > 16) align = 16;
        off = (off + align - 1) / align * align;
        m->off[m->n] = off;
        m->size[m->n++] = size;
        off += size;
        p = stop;
    }
}

CUresult cuModuleLoadDataEx(void **m, const void *img, unsigned n, int *o, void **v)
{
    (void)n, (void)o, (void)v;
    fake_module *fm = calloc(1, sizeof *fm);
    if (!fm) return 2;
    read_params(fm, img);
    st.module_loads++;
    *m = fm;
    return 0;
}
CUresult cuModuleUnload(void *m) { free(m); return 0; }
CUresult cuModuleGetFunction(void **f, void *m, const char *name) { (void)name; *f = m; return 0; }
CUresult cuFuncGetAttribute(int *v, int a, void *f) { (void)f; *v = a == 0 ? 1024 : a == 4 ? 32 : 0; return 0; }
CUresult cuFuncSetAttribute(void *f, int a, int v) { (void)f, (void)a, (void)v; return 0; }

CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned smem, void *stream, void **params, void **extra)
{
    (void)f, (void)by, (void)bz;
    st.launches++;
    st.grid[0] = gx, st.grid[1] = gy, st.grid[2] = gz;
    st.block = bx;
    st.smem = smem;
    st.stream = stream;
    st.used_extra = 0;
    st.param_size = 0;
    if (params || !extra) return 0;          /* kernelParams (sizes are the module's): not recorded; or none */
    /* extra: { BUFFER_POINTER (1), buf, BUFFER_SIZE (2), &size, END (0) } */
    void *buf = NULL;
    size_t size = 0;
    for (int i = 0; extra && extra[i]; i += 2) {
        if (extra[i] == (void *)1) buf = extra[i + 1];
        else if (extra[i] == (void *)2) size = *(size_t *)extra[i + 1];
        else return 1;                       /* CUDA_ERROR_INVALID_VALUE */
    }
    if (!buf || size > sizeof st.params) return 1;
    st.used_extra = 1;
    st.param_size = size;
    memcpy(st.params, buf, size);
    return 0;
}

/* a map of the arguments themselves (fake_tmap), for tests to read back
 * from the parameter buffer */
CUresult cuTensorMapEncodeTiled(void *map, int dtype, unsigned rank, void *addr, const uint64_t *dims,
                                const uint64_t *strides, const uint32_t *box, const uint32_t *estr, int il, int sw,
                                int l2, int oob)
{
    (void)estr, (void)il, (void)l2, (void)oob;
    if (rank < 1 || rank > 4) return 1;
    /* the driver's documented refusals (CUDA_ERROR_INVALID_VALUE): dims
     * 1..2^32, strides multiples of 16 below 2^40, boxes 1..256 */
    for (unsigned d = 0; d < rank; d++)
        if (dims[d] < 1 || dims[d] > (1ULL << 32) || box[d] < 1 || box[d] > 256 ||
            (d + 1 < rank && (strides[d] % 16 || strides[d] >= (1ULL << 40))))
            return 1;
    fake_tmap t = { .dtype = dtype, .rank = (int)rank, .addr = (uint64_t)(uintptr_t)addr, .swizzle = sw };
    for (unsigned d = 0; d < rank; d++) {
        t.dims[d] = dims[d];
        t.box[d] = box[d];
        if (d + 1 < rank) t.strides[d] = strides[d];
    }
    memset(map, 0, 128);
    memcpy(map, &t, sizeof t);
    st.tmaps++;
    return 0;
}

CUresult cuFuncGetParamInfo(void *f, size_t i, size_t *off, size_t *size)
{
    const fake_module *m = f;
    if (!m || i >= (size_t)m->n) return 1;   /* CUDA_ERROR_INVALID_VALUE */
    *off = m->off[i];
    *size = m->size[i];
    return 0;
}

/* two CTAs per SM: a persistent launch has 2 x 132 of them */
CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *n, void *f, int block, size_t smem)
{
    (void)f, (void)block, (void)smem;
    *n = 2;
    return 0;
}

CUresult cuStreamCreate(void **s, unsigned f) { (void)f; *s = malloc(1); return 0; }
CUresult cuStreamDestroy_v2(void *s) { free(s); return 0; }
CUresult cuEventCreate(void **e, unsigned f) { (void)f; *e = malloc(1); return 0; }
CUresult cuEventRecord(void *e, void *s) { (void)e, (void)s; return 0; }
CUresult cuEventSynchronize(void *e) { (void)e; return 0; }
CUresult cuEventDestroy_v2(void *e) { free(e); return 0; }
CUresult cuEventElapsedTime_v2(float *ms, void *a, void *b) { (void)a, (void)b; *ms = 0.001f; return 0; }

