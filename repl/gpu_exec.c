/* gpu_exec.c — `tritium run --device gpu [--bench N]`: run a launch with
 * gpu_launch, then optionally time N more launches one by one.
 *
 * The benchmark follows triton.testing.do_bench (Triton 3.6,
 * python/triton/testing.py): a few warm-up launches, then for each timed
 * launch the L2 cache is flushed (a 256 MB memset, as do_bench zeroes its
 * 256 MB buffer), a start event is recorded, the kernel launched, an end
 * event recorded; the result is the median of the event times. The host
 * launch overhead is the host time of one launch as the warm path makes it
 * (gpu_launcher_launch: one cuLaunchKernel with the pre-packed parameter
 * buffer): HOST_BATCHES batches of HOST_LAUNCHES back-to-back launches, each
 * batch's mean, the median batch; on the default stream (the stream
 * Triton's launches from torch use) and on a non-blocking stream. The timed
 * launches run on device copies of the launch's tensors as they are after
 * the first run (outputs included). */
#include "repl_gpu.h"
#include "tritium/cuda.h"
#include "tritium/diag.h"

#include <math.h>
#include <string.h>

#define FLUSH_BYTES (256u << 20)
#define HOST_LAUNCHES 200
#define HOST_BATCHES 5

/* The median over HOST_BATCHES of the mean host time (µs) of
 * HOST_LAUNCHES back-to-back launches on stream; -1 on a CUDA error. */
static double host_launch_us(const gpu_launcher *K, const launch *l, void *stream, const void *buf)
{
    double us[HOST_BATCHES];
    for (int b = 0; b < HOST_BATCHES; b++) {
        if (cuda_sync()) return -1;
        double t0 = now_seconds();
        for (int it = 0; it < HOST_LAUNCHES; it++)
            if (gpu_launcher_launch(K, l->grid, stream, buf)) return -1;
        us[b] = (now_seconds() - t0) * 1e6 / HOST_LAUNCHES;
    }
    if (cuda_sync()) return -1;
    return tt_sort_median(us, HOST_BATCHES);
}

/* Time `iters` launches (see the file comment). Returns 0, or -1 with a
 * message in err. */
static int bench(const ir_func *f, const launch *l, const gpu_options *o, int iters, repl_gpu_result *res,
                 char *err, size_t errlen)
{
    gpu_spec spec = gpu_spec_of_launch(f, l);
    const gpu_launcher *K;
    if (gpu_launcher_get(f, o, &spec, &K, NULL, err, errlen)) return -1;   /* gpu_launch's: a memo hit */
    int rc = -1, n = l->nargs + l->nextra;
    cuda_devptr flush = 0;
    cuda_devptr *dev = xcalloc((size_t)n + 1, sizeof *dev);
    uint64_t *addr = xcalloc((size_t)n + 1, sizeof *addr);
    void *buf = xcalloc(K->size + 8, 1);
    double *ms = xcalloc((size_t)iters, sizeof *ms);
    void *stream = NULL;
    cuda_timer tm = { 0 };
    if (gpu_upload_buffers(l, dev, addr, err, errlen) || gpu_launcher_pack(K, l, addr, buf, err, errlen)) goto out;
    if (cuda_malloc(&flush, FLUSH_BYTES) || cuda_timer_create(&tm)) goto cuerr;
    for (int w = 0; w < 3; w++)
        if (gpu_launcher_launch(K, l->grid, NULL, buf)) goto cuerr;
    if (cuda_sync()) goto cuerr;
    for (int it = 0; it < iters; it++) {
        float t;
        if (cuda_memset8(flush, 0, FLUSH_BYTES) || cuda_timer_start(&tm) ||
            gpu_launcher_launch(K, l->grid, NULL, buf) || cuda_timer_stop(&tm) || cuda_timer_elapsed(&tm, &t))
            goto cuerr;
        ms[it] = t;
    }
    if (cuda_sync()) goto cuerr;
    res->bench_iters = iters;
    res->bench_median_ms = tt_sort_median(ms, (size_t)iters);
    res->bench_min_ms = ms[0];
    res->bench_max_ms = ms[iters - 1];
    /* host cost of a launch: back-to-back launches, no synchronization between */
    if ((res->launch_us = host_launch_us(K, l, NULL, buf)) < 0) goto cuerr;
    if (cuda_stream_create(&stream) || (res->launch_stream_us = host_launch_us(K, l, stream, buf)) < 0) goto cuerr;
    rc = 0;
    goto out;
cuerr:
    snprintf(err, errlen, "%s", cuda_error());
out:
    cuda_stream_destroy(stream);
    if (tm.start) cuda_timer_destroy(&tm);
    if (flush) cuda_free(flush);
    gpu_free_buffers(l, dev);
    free(dev);
    free(addr);
    free(buf);
    free(ms);
    return rc;
}

int repl_gpu_execute(const ir_func *f, launch *l, const tt_settings *s, repl_gpu_result *res)
{
    double front_ms = res->front_ms;
    memset(res, 0, sizeof *res);
    res->front_ms = front_ms;
    res->numerics = (tt_numerics)s->numerics;
    gpu_options o;
    gpu_options_default(&o);
    o.set = *s;                                 /* the command's: the environment's and its options */
    o.set.num_warps = l->num_warps > 0 ? l->num_warps : 4;
    char err[2048] = "";
    int rc = gpu_launch(f, l, &o, &res->st, err, sizeof err);
    if (rc) {
        diag_error(REPL_NOPOS, "%s", err);
        return rc;
    }
    char arch[16];
    if (s->bench > 0) {
        if (gpu_options_for_device(&o, arch, sizeof arch, NULL, err, sizeof err) ||
            bench(f, l, &o, (int)s->bench, res, err, sizeof err)) {
            diag_error(REPL_NOPOS, "--bench: %s", err);
            return 1;
        }
    }
    return 0;
}

void repl_gpu_print_text(FILE *f, const repl_gpu_result *r, const launch *l)
{
    const gpu_stats *st = &r->st;
    fprintf(f, "grid     (%lld, %lld, %lld): %lld CTAs of %d threads (num_warps %d)\n", (long long)l->grid[0],
            (long long)l->grid[1], (long long)l->grid[2], (long long)(l->grid[0] * l->grid[1] * l->grid[2]),
            32 * (l->num_warps > 0 ? l->num_warps : 4), l->num_warps > 0 ? l->num_warps : 4);
    fprintf(f, "device   %s (%s), numerics %s\n", st->device, st->arch,
            tt_numerics_name(r->numerics));
    fprintf(f, "compile  front end %.2f ms, LLVM -> PTX %.2f ms%s, load %.2f ms; %d registers, %d bytes spilled, "
               "%d bytes shared memory\n",
            r->front_ms, st->compile_ms, st->ptx_cached ? " (cached)" : "", st->load_ms, st->num_regs, st->spill_bytes,
            st->smem_bytes);
    if (st->persistent_ctas)
        fprintf(f, "persistent kernel: at most %d CTAs (SMs x CTAs resident per SM)\n", st->persistent_ctas);
    fprintf(f, "gpu      copy in %.3f ms, kernel %.4f ms, copy out %.3f ms\n", st->h2d_ms, st->kernel_ms, st->d2h_ms);
    if (r->bench_iters)
        fprintf(f, "bench    %d launches: median %.4f ms (min %.4f, max %.4f); host launch overhead %.2f us "
                   "(%.2f us on a non-blocking stream)\n",
                r->bench_iters, r->bench_median_ms, r->bench_min_ms, r->bench_max_ms, r->launch_us, r->launch_stream_us);
}

json_t *repl_gpu_json(const repl_gpu_result *r)
{
    const gpu_stats *st = &r->st;
    json_t *o = json_object();
    json_object_set_new(o, "device", json_string(st->device));
    json_object_set_new(o, "arch", json_string(st->arch));
    json_object_set_new(o, "numerics", json_string(tt_numerics_name(r->numerics)));
    json_object_set_new(o, "front_ms", json_real(r->front_ms));
    json_object_set_new(o, "compile_ms", json_real(st->compile_ms));
    json_object_set_new(o, "ptx_cached", json_boolean(st->ptx_cached));
    json_object_set_new(o, "load_ms", json_real(st->load_ms));
    json_object_set_new(o, "h2d_ms", json_real(st->h2d_ms));
    json_object_set_new(o, "kernel_ms", json_real(st->kernel_ms));
    json_object_set_new(o, "d2h_ms", json_real(st->d2h_ms));
    json_object_set_new(o, "num_regs", json_integer(st->num_regs));
    json_object_set_new(o, "spill_bytes", json_integer(st->spill_bytes));
    json_object_set_new(o, "smem_bytes", json_integer(st->smem_bytes));
    if (st->persistent_ctas) json_object_set_new(o, "persistent_ctas", json_integer(st->persistent_ctas));
    if (r->bench_iters) {
        json_t *b = json_object();
        json_object_set_new(b, "iters", json_integer(r->bench_iters));
        json_object_set_new(b, "median_ms", json_real(r->bench_median_ms));
        json_object_set_new(b, "min_ms", json_real(r->bench_min_ms));
        json_object_set_new(b, "max_ms", json_real(r->bench_max_ms));
        json_object_set_new(b, "launch_us", json_real(r->launch_us));
        json_object_set_new(b, "launch_stream_us", json_real(r->launch_stream_us));
        json_object_set_new(o, "bench", b);
    } else {
        json_object_set_new(o, "bench", json_null());
    }
    return o;
}
