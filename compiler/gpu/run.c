/* run.c — gpu_launch: compile (cached), load (the driver's JIT), copy the
 * launch's tensors to the device, launch one CTA per program, copy back,
 * time with CUDA events. */
#include "gpu_int.h"
#include "tritium/cuda.h"

#include <stdlib.h>
#include <string.h>

gpu_spec gpu_spec_of_args(const ir_func *f, const launch *l, const uint64_t *addr)
{
    gpu_spec s = { 0 };
    for (int k = 0; k < l->nargs && k < f->nargs && k < 64; k++) {
        const launch_arg *a = &l->args[k];
        if (a->kind == ARG_TENSOR && a->tensor) {
            uint64_t at = addr ? addr[k] : (uint64_t)(a->offset * tt_dtype_size(a->tensor->dtype));
            if (at % 16 == 0) s.div16 |= 1ULL << k;            /* cuMemAlloc: 256-byte aligned */
        } else if (a->kind == ARG_INT && a->i % 16 == 0) s.div16 |= 1ULL << k;
        else if (a->kind == ARG_INT && a->i == 1) s.eq1 |= 1ULL << k;
    }
    return s;
}

gpu_spec gpu_spec_of_launch(const ir_func *f, const launch *l) { return gpu_spec_of_args(f, l, NULL); }

int gpu_device_arch(char *arch, size_t n, cuda_device_info *di, bool *newer, char *err, size_t errlen)
{
    cuda_device_info own;
    if (!di) di = &own;
    if (cuda_init() || cuda_device_info_get(di)) {
        snprintf(err, errlen, "%s", cuda_error());
        return -1;
    }
    int cc = di->cc_major * 10 + di->cc_minor;
    /* LLVM 19 stops at sm_90 and sm_90 PTX JITs forward, but sm_90a PTX
     * (wgmma) runs on sm_90 alone: newer GPUs get mma.sync */
    *newer = cc > 90;
    if (cc > 90) cc = 90;
    snprintf(arch, n, "sm_%d", cc);
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

int gpu_options_for_device(gpu_options *o, char *arch, size_t n, cuda_device_info *di, char *err, size_t errlen)
{
    bool newer = false;
    if (gpu_device_arch(arch, n, di, &newer, err, errlen)) return -1;
    if (newer) o->set.mma_sync = TT_MMA_SYNC;
    if (!o->set.arch) o->set.arch = arch;
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
    cuda_device_info di;
    char arch[16];
    if (gpu_options_for_device(&o, arch, sizeof arch, &di, err, errlen)) return 2;
    snprintf(st->device, sizeof st->device, "%s", di.name);
    if (!o0 || !o.set.num_warps) o.set.num_warps = l->num_warps > 0 ? l->num_warps : 4;
    if (l->nargs != f->nargs) {
        snprintf(err, errlen, "kernel %s takes %d runtime arguments, the launch gives %d", f->name, f->nargs, l->nargs);
        return 2;
    }
    gpu_spec spec = gpu_spec_of_launch(f, l);
    const gpu_launcher *K;
    if (gpu_launcher_get(f, &o, &spec, &K, st, err, errlen)) return 2;
    snprintf(st->arch, sizeof st->arch, "%s", K->arch);     /* the PTX's target: sm_90a with wgmma */
    st->smem_bytes = K->smem;
    st->num_regs = K->k.num_regs;
    st->spill_bytes = K->k.local_bytes;
    st->persistent_ctas = K->persistent_ctas;
    int rc = 2;
    int nall = l->nargs + l->nextra;
    cuda_devptr *dev = xcalloc((size_t)nall + 1, sizeof *dev);
    uint64_t *addr = xcalloc((size_t)nall + 1, sizeof *addr);
    void *buf = xcalloc(K->size + 8, 1);
    cuda_timer tm = { 0 };
    double t0 = now_seconds();
    if (gpu_upload_buffers(l, dev, addr, err, errlen) || gpu_launcher_pack(K, l, addr, buf, err, errlen)) goto out;
    st->h2d_ms = (now_seconds() - t0) * 1e3;
    if (cuda_timer_create(&tm) || cuda_timer_start(&tm)) { snprintf(err, errlen, "%s", cuda_error()); goto out; }
    if (gpu_launcher_launch(K, l->grid, NULL, buf)) { snprintf(err, errlen, "%s", cuda_error()); goto out; }
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
            if (gpu_launcher_launch(K, l->grid, NULL, buf)) { snprintf(err, errlen, "%s", cuda_error()); goto out; }
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
    free(buf);
    return rc;
}
