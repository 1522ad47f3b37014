/* gpu.c — libtritium: the GPU executor on device memory (tritium.h,
 * tritium_gpu_*): a launch whose tensors are device addresses is compiled
 * once per specialization into a gpu_launcher (compiler/gpu/launcher.c),
 * whose parameter buffer the caller packs and launches. */
#include "api.h"
#ifdef TRITIUM_HAVE_GPU
#include "tritium/gpu.h"
#endif

#include <string.h>

#ifdef TRITIUM_HAVE_GPU
_Static_assert((int)TRITIUM_PARAM_PTR == (int)GPU_P_PTR && (int)TRITIUM_PARAM_BOOL == (int)GPU_P_BOOL &&
               (int)TRITIUM_PARAM_I32 == (int)GPU_P_I32 && (int)TRITIUM_PARAM_I64 == (int)GPU_P_I64 &&
               (int)TRITIUM_PARAM_F16 == (int)GPU_P_F16 && (int)TRITIUM_PARAM_BF16 == (int)GPU_P_BF16 &&
               (int)TRITIUM_PARAM_F32 == (int)GPU_P_F32 && (int)TRITIUM_PARAM_F64 == (int)GPU_P_F64,
               "tritium.h's parameter kinds are gpu.h's");

/* The device address of each runtime argument's first element (0 for
 * scalars); n + 1 entries. */
static uint64_t *device_addresses(const launch *l)
{
    uint64_t *addr = xcalloc((size_t)l->nargs + 1, sizeof *addr);
    for (int i = 0; i < l->nargs; i++) {
        const launch_arg *a = &l->args[i];
        if (a->kind == ARG_TENSOR && a->tensor)
            addr[i] = launch_arg_addr(l, i, (uint64_t)(uintptr_t)a->tensor->data);
    }
    return addr;
}

int tritium_gpu_prepare(tritium_launch *L, int numerics, const tritium_gpu_kernel **out)
{
    if (out) *out = NULL;
    int rc = api_prepare(L);
    if (rc) return rc;
    if (!out || numerics < TRITIUM_NUMERICS_IEEE || numerics > TRITIUM_NUMERICS_FAST) {
        api_fail("tritium: error: tritium_gpu_prepare: no output or bad numerics %d", numerics);
        return TRITIUM_INPUT_ERROR;
    }
    for (int i = 0; i < L->l.nargs + L->l.nextra; i++)
        if (i >= L->l.nargs || L->l.args[i].ptr_n) {
            api_fail("tritium: error: kernel '%s': pointer tables and extra tensors are for host memory; on the "
                     "GPU executor pass the int64 tensor of device addresses itself", L->kernel);
            return TRITIUM_INPUT_ERROR;
        }
    gpu_options go;
    gpu_options_default(&go);
    go.set.num_warps = L->num_warps;
    go.set.numerics = (tt_numerics)numerics;
    char arch[16], err[1024] = "";
    if (gpu_options_for_device(&go, arch, sizeof arch, NULL, err, sizeof err)) {
        api_fail("tritium: error: GPU launch of '%s': %s", L->kernel, err);
        return TRITIUM_NO_GPU;
    }
    uint64_t *addr = device_addresses(&L->l);
    gpu_spec spec = gpu_spec_of_args(L->fn, &L->l, addr);
    free(addr);
    const gpu_launcher *K;
    api_capture_begin();
    rc = gpu_launcher_get(L->fn, &go, &spec, &K, NULL, err, sizeof err);
    api_capture_end(rc != 0);
    if (rc) {
        api_fail("tritium: error: GPU compile of '%s': %s", L->kernel, err);
        return TRITIUM_INPUT_ERROR;
    }
    *out = (const tritium_gpu_kernel *)K;
    return TRITIUM_OK;
}

int tritium_gpu_kernel_layout(const tritium_gpu_kernel *k, int *nparams, int *kinds, int *offsets, int n)
{
    const gpu_launcher *K = (const gpu_launcher *)k;
    if (!K) return -1;
    if (nparams) *nparams = K->nparams;
    for (int i = 0; i < n && i < K->nparams; i++) {
        if (kinds) kinds[i] = (int)K->params[i].kind;
        if (offsets) offsets[i] = K->params[i].offset;
    }
    return (int)K->size;
}

int tritium_gpu_kernel_pack(const tritium_gpu_kernel *k, tritium_launch *L, void *buf)
{
    api_clear_error();
    const gpu_launcher *K = (const gpu_launcher *)k;
    if (!K || !L || !buf || api_prepare(L)) {
        if (!*tritium_last_error()) api_fail("tritium: error: tritium_gpu_kernel_pack: no kernel, launch or buffer");
        return TRITIUM_INPUT_ERROR;
    }
    char err[512] = "";
    uint64_t *addr = device_addresses(&L->l);
    int rc = gpu_launcher_pack(K, &L->l, addr, buf, err, sizeof err);
    free(addr);
    if (rc) {
        api_fail("tritium: error: kernel '%s': %s", L->kernel, err);
        return TRITIUM_INPUT_ERROR;
    }
    return TRITIUM_OK;
}

int tritium_gpu_kernel_launch(const tritium_gpu_kernel *k, int64_t gx, int64_t gy, int64_t gz, void *stream,
                              const void *buf)
{
    const gpu_launcher *K = (const gpu_launcher *)k;
    if (!K || !buf || gx < 1 || gy < 1 || gz < 1 || gx > INT32_MAX || gy > 65535 || gz > 65535) {
        api_fail("tritium: error: GPU launch: no kernel or buffer, or grid (%lld, %lld, %lld) out of range "
                 "(x 1..2^31-1, y and z 1..65535)", (long long)gx, (long long)gy, (long long)gz);
        return TRITIUM_INPUT_ERROR;
    }
    const int64_t grid[3] = { gx, gy, gz };
    if (gpu_launcher_launch(K, grid, stream, buf)) {
        api_fail("tritium: error: %s", cuda_error());
        return TRITIUM_KERNEL_ERROR;
    }
    return TRITIUM_OK;
}

#else

static int no_gpu(void)
{
    api_fail("tritium: error: this libtritium was built without the GPU compiler (LLVM)");
    return TRITIUM_NO_GPU;
}

int tritium_gpu_prepare(tritium_launch *L, int numerics, const tritium_gpu_kernel **out)
{
    (void)L, (void)numerics;
    if (out) *out = NULL;
    return no_gpu();
}

int tritium_gpu_kernel_layout(const tritium_gpu_kernel *k, int *nparams, int *kinds, int *offsets, int n)
{
    (void)k, (void)kinds, (void)offsets, (void)n;
    if (nparams) *nparams = 0;
    return -1;
}

int tritium_gpu_kernel_pack(const tritium_gpu_kernel *k, tritium_launch *L, void *buf)
{
    (void)k, (void)L, (void)buf;
    return no_gpu();
}

int tritium_gpu_kernel_launch(const tritium_gpu_kernel *k, int64_t gx, int64_t gy, int64_t gz, void *stream,
                              const void *buf)
{
    (void)k, (void)gx, (void)gy, (void)gz, (void)stream, (void)buf;
    return no_gpu();
}
#endif
