/* run.c — gpu_launch: compile (cached), load (cubin cache), copy the
 * launch's tensors to the device, launch one CTA per program, copy back,
 * time with CUDA events. */
#include "gpu_int.h"
#include "tritium/cuda.h"

#include <stdlib.h>
#include <string.h>

gpu_spec gpu_spec_of_launch(const ir_func *f, const launch *l)
{
    gpu_spec s = { 0 };
    for (int k = 0; k < l->nargs && k < f->nargs && k < 64; k++) {
        const launch_arg *a = &l->args[k];
        if (a->kind == ARG_TENSOR && a->tensor && (a->offset * tt_dtype_size(a->tensor->dtype)) % 16 == 0)
            s.div16 |= 1ULL << k;                                  /* cuMemAlloc: 256-byte aligned */
        else if (a->kind == ARG_INT && a->i % 16 == 0) s.div16 |= 1ULL << k;
        else if (a->kind == ARG_INT && a->i == 1) s.eq1 |= 1ULL << k;
    }
    return s;
}

/* A small process-wide memo of loaded modules, keyed by PTX cache key. */
typedef struct loaded { char key[33]; cuda_module *mod; cuda_kernel k; int smem; } loaded;
static VEC(loaded) memo;

static int load_kernel(const gpu_kernel *gk, const gpu_options *o, const cuda_device_info *di,
                       cuda_kernel *out, gpu_stats *st, char *err, size_t errlen)
{
    for (int i = 0; i < memo.n; i++)
        if (!strcmp(memo.v[i].key, gk->key)) {
            *out = memo.v[i].k;
            return 0;
        }
    double t0 = now_seconds();
    char *dir = o->no_cache ? NULL : gpu_cache_dir(o);
    char ext[64];
    snprintf(ext, sizeof ext, "-cc%d%d-drv%d.cubin", di->cc_major, di->cc_minor, di->driver_version);
    void *cubin = NULL;
    size_t clen = 0;
    cuda_module *mod = NULL;
    if (dir && gpu_cache_read(dir, gk->key, ext, &cubin, &clen)) {
        if (cuda_module_load_cubin(cubin, &mod)) mod = NULL;
        else if (st) st->cubin_cached = true;
        free(cubin);
        cubin = NULL;
    }
    double t_jit = 0, c_jit = 0;
    if (!mod) {
        t_jit = now_seconds();
        c_jit = cpu_seconds();
        int jr = cuda_ptx_to_cubin(gk->ptx, &cubin, &clen);
        t_jit = now_seconds() - t_jit;
        c_jit = cpu_seconds() - c_jit;
        if (jr || cuda_module_load_cubin(cubin, &mod)) {
            snprintf(err, errlen, "%s", cuda_error());
            free(cubin);
            free(dir);
            return -1;
        }
        if (dir) gpu_cache_write(dir, gk->key, ext, cubin, clen);
        free(cubin);
    }
    free(dir);
    if (cuda_kernel_get(mod, gk->name, gk->smem_bytes, out)) {
        snprintf(err, errlen, "%s", cuda_error());
        cuda_module_unload(mod);
        return -1;
    }
    loaded L;
    memset(&L, 0, sizeof L);
    memcpy(L.key, gk->key, sizeof L.key);
    L.mod = mod;
    L.k = *out;
    L.smem = gk->smem_bytes;
    vec_push(&memo, L);
    if (st) st->load_ms = (now_seconds() - t0) * 1e3;
    if (getenv("TRITIUM_GPU_TIME"))     /* developer knob: the driver's PTX -> cubin (bench/compile_time.py --jit) */
        fprintf(stderr, "gpu time: jit %.2f load %.2f ms; cpu: jit %.2f ms\n", t_jit * 1e3,
                (now_seconds() - t0) * 1e3, c_jit * 1e3);
    return 0;
}

int gpu_upload_buffers(const launch *l, uint64_t *dev, uint64_t *addr, char *err, size_t errlen)
{
    int n = l->nargs + l->nextra;
    for (int i = 0; i < n; i++) {
        const launch_arg *a = &l->args[i];
        dev[i] = addr[i] = 0;
        if (a->kind != ARG_TENSOR || !a->tensor || launch_owner(l, i) != i) continue;
        if (cuda_malloc(&dev[i], a->tensor->nbytes) || cuda_memcpy_htod(dev[i], a->tensor->data, a->tensor->nbytes)) {
            snprintf(err, errlen, "%s", cuda_error());
            return -1;
        }
    }
    for (int i = 0; i < n; i++) {
        int o = launch_owner(l, i);
        if (o >= 0) addr[i] = launch_arg_addr(l, i, dev[o]);
    }
    for (int i = 0; i < n; i++) {          /* pointer tables hold device addresses */
        const launch_arg *a = &l->args[i];
        if (a->kind != ARG_TENSOR || !a->ptr_n || !addr[i]) continue;
        int64_t *cells = xcalloc((size_t)a->ptr_n, sizeof *cells);
        for (int k = 0; k < a->ptr_n; k++) {
            int o = launch_owner(l, a->ptr_to[k]);
            cells[k] = o >= 0 ? (int64_t)(dev[o] + (uint64_t)a->ptr_off[k]) : 0;
        }
        size_t nb = (size_t)a->ptr_n * 8;
        if (nb > a->tensor->nbytes) nb = a->tensor->nbytes;
        int rc = cuda_memcpy_htod(addr[i], cells, nb);
        free(cells);
        if (rc) {
            snprintf(err, errlen, "%s", cuda_error());
            return -1;
        }
    }
    return 0;
}

int gpu_download_buffers(launch *l, const uint64_t *dev, char *err, size_t errlen)
{
    for (int i = 0; i < l->nargs + l->nextra; i++) {
        launch_arg *a = &l->args[i];
        if (!dev[i] || a->ptr_n) continue;
        if (cuda_memcpy_dtoh(a->tensor->data, dev[i], a->tensor->nbytes)) {
            snprintf(err, errlen, "%s", cuda_error());
            return -1;
        }
    }
    return 0;
}

void gpu_free_buffers(const launch *l, uint64_t *dev)
{
    for (int i = 0; i < l->nargs + l->nextra; i++)
        if (dev[i]) {
            cuda_free(dev[i]);
            dev[i] = 0;
        }
}

int gpu_pack_param(const ir_func *f, int k, const launch_arg *a, uint64_t dev, uint64_t *slot, char *err, size_t errlen)
{
    ir_type t = f->values.v[f->regions.v[IR_BODY].args[k]].type;
    const ir_type_info *ti = ir_type_get(t);
    const char *nm = a->name ? a->name : "?";
    if (ti->elem == TT_PTR) {
        if (a->kind != ARG_TENSOR) {
            snprintf(err, errlen, "argument %s: the kernel expects a tensor", nm);
            return -1;
        }
        *slot = dev;
        return 0;
    }
    if (a->kind == ARG_TENSOR) {
        snprintf(err, errlen, "argument %s: the kernel expects a scalar, got a tensor", nm);
        return -1;
    }
    double fv = a->kind == ARG_FLOAT ? a->f : (double)a->i;
    int64_t iv = a->kind == ARG_INT ? a->i : (int64_t)a->f;
    *slot = 0;
    switch (ti->elem) {
    case TT_BOOL: { int32_t v = iv != 0; memcpy(slot, &v, 4); break; }
    case TT_I8: case TT_I16: case TT_I32: { int32_t v = (int32_t)iv; memcpy(slot, &v, 4); break; }
    case TT_I64: memcpy(slot, &iv, 8); break;
    case TT_F16: { uint16_t h = tt_f32_to_f16((float)fv); memcpy(slot, &h, 2); break; }
    case TT_BF16: { uint16_t h = tt_f32_to_bf16((float)fv); memcpy(slot, &h, 2); break; }
    case TT_F32: { float v = (float)fv; memcpy(slot, &v, 4); break; }
    case TT_F64: memcpy(slot, &fv, 8); break;
    default:
        snprintf(err, errlen, "argument %s: unsupported scalar type", nm);
        return -1;
    }
    return 0;
}

int gpu_launch(const ir_func *f, launch *l, const gpu_options *o0, gpu_stats *st, char *err, size_t errlen)
{
    gpu_options o;
    if (o0) o = *o0;
    else gpu_options_default(&o);
    gpu_stats dummy;
    if (!st) st = &dummy;
    memset(st, 0, sizeof *st);
    if (cuda_init()) {
        snprintf(err, errlen, "%s", cuda_error());
        return 2;
    }
    cuda_device_info di;
    if (cuda_device_info_get(&di)) {
        snprintf(err, errlen, "%s", cuda_error());
        return 2;
    }
    snprintf(st->device, sizeof st->device, "%s", di.name);
    char arch[16];
    int cc = di.cc_major * 10 + di.cc_minor;
    /* LLVM 19 stops at sm_90 and sm_90 PTX JITs forward, but sm_90a PTX
     * (wgmma) runs on sm_90 alone: newer GPUs get mma.sync */
    if (cc > 90) {
        cc = 90;
        o.mma_sync = true;
    }
    snprintf(arch, sizeof arch, "sm_%d", cc);
    if (!o.arch) o.arch = arch;
    if (!o0 || !o0->num_warps) o.num_warps = l->num_warps > 0 ? l->num_warps : 4;
    if (l->nargs != f->nargs) {
        snprintf(err, errlen, "kernel %s takes %d runtime arguments, the launch gives %d", f->name, f->nargs, l->nargs);
        return 2;
    }
    gpu_spec spec = gpu_spec_of_launch(f, l);
    gpu_kernel gk;
    if (gpu_compile(f, &o, &spec, &gk, err, errlen)) return 2;
    snprintf(st->arch, sizeof st->arch, "%s", gk.arch);     /* the PTX's target: sm_90a with wgmma */
    st->compile_ms = gk.compile_ms;
    st->ptx_cached = gk.from_cache;
    st->smem_bytes = gk.smem_bytes;
    cuda_kernel k;
    if (load_kernel(&gk, &o, &di, &k, st, err, errlen)) {
        gpu_kernel_free(&gk);
        return 2;
    }
    st->num_regs = k.num_regs;
    st->spill_bytes = k.local_bytes;
    int rc = 2;
    int n = l->nargs, nall = l->nargs + l->nextra;
    cuda_devptr *dev = xcalloc((size_t)nall + 1, sizeof *dev);
    uint64_t *addr = xcalloc((size_t)nall + 1, sizeof *addr);
    uint64_t *slots = xcalloc((size_t)n + 1, sizeof *slots);
    void **params = xcalloc((size_t)n + 1, sizeof *params);
    cuda_timer tm = { 0 };
    double t0 = now_seconds();
    if (gpu_upload_buffers(l, dev, addr, err, errlen)) goto out;
    for (int i = 0; i < n; i++) {
        if (gpu_pack_param(f, i, &l->args[i], addr[i], &slots[i], err, errlen)) goto out;
        params[i] = &slots[i];
    }
    st->h2d_ms = (now_seconds() - t0) * 1e3;
    if (cuda_timer_create(&tm) || cuda_timer_start(&tm)) { snprintf(err, errlen, "%s", cuda_error()); goto out; }
    int block = 32 * gk.num_warps;
    if (cuda_launch(&k, l->grid, block, gk.smem_bytes, params)) { snprintf(err, errlen, "%s", cuda_error()); goto out; }
    float ms = 0;
    if (cuda_timer_stop(&tm) || cuda_timer_elapsed(&tm, &ms) || cuda_sync()) {
        snprintf(err, errlen, "%s", cuda_error());
        rc = 1;
        goto out;
    }
    st->kernel_ms = ms;
    t0 = now_seconds();
    if (gpu_download_buffers(l, dev, err, errlen)) {
        rc = 1;
        goto out;
    }
    st->d2h_ms = (now_seconds() - t0) * 1e3;
    if (o.bench_iters > 0) {
        if (cuda_timer_start(&tm)) { snprintf(err, errlen, "%s", cuda_error()); goto out; }
        for (int it = 0; it < o.bench_iters; it++)
            if (cuda_launch(&k, l->grid, block, gk.smem_bytes, params)) { snprintf(err, errlen, "%s", cuda_error()); goto out; }
        if (cuda_timer_stop(&tm) || cuda_timer_elapsed(&tm, &ms) || cuda_sync()) {
            snprintf(err, errlen, "%s", cuda_error());
            rc = 1;
            goto out;
        }
        st->bench_ms = ms / o.bench_iters;
    }
    rc = 0;
out:
    if (tm.start) cuda_timer_destroy(&tm);
    gpu_free_buffers(l, dev);
    free(dev);
    free(addr);
    free(slots);
    free(params);
    gpu_kernel_free(&gk);
    return rc;
}
