/* launch_floor.c — what one cuLaunchKernel costs the host on this machine,
 * with nothing of tritium's around it: the floor under bench/gpu.py's "launch
 * tritium us" column.
 *
 * Loads, through the driver API alone (dlopen of libcuda.so.1, the same
 * entry points as compiler/cuda/cuda.c but none of its code), an empty
 * kernel and a 4-parameter kernel (3 pointers and an i32, tritium's tiny add
 * shape), then times back-to-back launches of one 128-thread CTA exactly as
 * repl/gpu_exec.c's host_launch_us does: 5 batches of 200 launches, each
 * batch's mean, the median batch. Prints one JSON line of microseconds:
 * the empty kernel on the legacy default stream and on a non-blocking
 * stream, the 4-parameter kernel with a kernelParams array and with a packed
 * parameter buffer (CU_LAUNCH_PARAM_BUFFER_POINTER, tritium's form). Exit
 * 77 without a driver. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int CUresult;
typedef void *CUctx, *CUmod, *CUfn, *CUstream;
typedef unsigned long long CUdptr;

static CUresult (*Init)(unsigned), (*DeviceGet)(int *, int), (*Retain)(CUctx *, int), (*SetCurrent)(CUctx),
    (*ModuleLoad)(CUmod *, const void *), (*GetFunction)(CUfn *, CUmod, const char *), (*MemAlloc)(CUdptr *, size_t),
    (*Sync)(void), (*StreamCreate)(CUstream *, unsigned),
    (*Launch)(CUfn, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream, void **, void **);

static const char ptx[] =
    ".version 7.0\n.target sm_50\n.address_size 64\n"
    ".visible .entry empty() { ret; }\n"
    ".visible .entry add(.param .u64 x, .param .u64 y, .param .u64 o, .param .u32 n) {\n"
    " .reg .b32 %r<3>; .reg .b64 %rd<8>; .reg .f32 %f<4>; .reg .pred %p;\n"
    " ld.param.u64 %rd1, [x]; ld.param.u64 %rd2, [y]; ld.param.u64 %rd3, [o]; ld.param.u32 %r1, [n];\n"
    " mov.u32 %r2, %tid.x; setp.ge.u32 %p, %r2, %r1; @%p ret;\n"
    " mul.wide.u32 %rd4, %r2, 4; add.s64 %rd5, %rd1, %rd4; add.s64 %rd6, %rd2, %rd4; add.s64 %rd7, %rd3, %rd4;\n"
    " ld.global.f32 %f1, [%rd5]; ld.global.f32 %f2, [%rd6]; add.f32 %f3, %f1, %f2; st.global.f32 [%rd7], %f3;\n"
    " ret; }\n";

enum { LAUNCHES = 200, BATCHES = 5 };
enum { EMPTY, PARAMS, BUFFER };

static CUfn f_empty, f_add;
static void *params[4];
static unsigned char buf[28];
static size_t buf_size = sizeof buf;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static CUresult one(int form, CUstream s)
{
    void *extra[] = { (void *)1 /* BUFFER_POINTER */, buf, (void *)2 /* BUFFER_SIZE */, &buf_size, NULL };
    if (form == EMPTY) return Launch(f_empty, 1, 1, 1, 128, 1, 1, 0, s, NULL, NULL);
    return Launch(f_add, 1, 1, 1, 128, 1, 1, 0, s, form == PARAMS ? params : NULL, form == BUFFER ? extra : NULL);
}

/* The median batch mean in µs; -1 on a driver error. */
static double floor_us(int form, CUstream s)
{
    double us[BATCHES];
    for (int w = 0; w < 20; w++)
        if (one(form, s)) return -1;
    for (int b = 0; b < BATCHES; b++) {
        if (Sync()) return -1;
        double t0 = now();
        for (int i = 0; i < LAUNCHES; i++)
            if (one(form, s)) return -1;
        us[b] = (now() - t0) * 1e6 / LAUNCHES;
    }
    if (Sync()) return -1;
    qsort(us, BATCHES, sizeof *us, cmp);
    return us[BATCHES / 2];
}

int main(void)
{
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "launch_floor: no CUDA driver (%s)\n", dlerror());
        return 77;
    }
    struct { void **fp; const char *sym; } syms[] = {
        { (void **)&Init, "cuInit" }, { (void **)&DeviceGet, "cuDeviceGet" },
        { (void **)&Retain, "cuDevicePrimaryCtxRetain" }, { (void **)&SetCurrent, "cuCtxSetCurrent" },
        { (void **)&ModuleLoad, "cuModuleLoadData" }, { (void **)&GetFunction, "cuModuleGetFunction" },
        { (void **)&MemAlloc, "cuMemAlloc_v2" }, { (void **)&Sync, "cuCtxSynchronize" },
        { (void **)&StreamCreate, "cuStreamCreate" }, { (void **)&Launch, "cuLaunchKernel" },
    };
    for (size_t i = 0; i < sizeof syms / sizeof *syms; i++)
        if (!(*syms[i].fp = dlsym(h, syms[i].sym))) {
            fprintf(stderr, "launch_floor: the driver lacks %s\n", syms[i].sym);
            return 1;
        }
    int dev;
    CUctx ctx;
    CUmod mod;
    CUstream nb;
    static CUdptr x, y, o;
    static unsigned n = 128;
    if (Init(0) || DeviceGet(&dev, 0) || Retain(&ctx, dev) || SetCurrent(ctx) || ModuleLoad(&mod, ptx) ||
        GetFunction(&f_empty, mod, "empty") || GetFunction(&f_add, mod, "add") || MemAlloc(&x, 512) ||
        MemAlloc(&y, 512) || MemAlloc(&o, 512) || StreamCreate(&nb, 1 /* CU_STREAM_NON_BLOCKING */)) {
        fprintf(stderr, "launch_floor: CUDA set-up failed\n");
        return 1;
    }
    params[0] = &x, params[1] = &y, params[2] = &o, params[3] = &n;
    memcpy(buf, &x, 8), memcpy(buf + 8, &y, 8), memcpy(buf + 16, &o, 8), memcpy(buf + 24, &n, 4);
    double e = floor_us(EMPTY, NULL), es = floor_us(EMPTY, nb), p = floor_us(PARAMS, NULL), b = floor_us(BUFFER, NULL);
    if (e < 0 || es < 0 || p < 0 || b < 0) {
        fprintf(stderr, "launch_floor: a launch failed\n");
        return 1;
    }
    printf("{\"empty_us\": %.3f, \"empty_stream_us\": %.3f, \"params_us\": %.3f, \"buffer_us\": %.3f}\n", e, es, p, b);
    return 0;
}
