/* gpu_tool.c — developer/device-check driver for the GPU path.
 *
 *   gpu_tool [options] FILE.py KERNEL GRID ARG...
 *     GRID      X or X,Y or X,Y,Z
 *     ARG       name=f32[1024] | name=f16[64,64] (random tensor) | name=zeros:f32[N]
 *               name=i:VALUE (int) | name=f:VALUE (float) | NAME=c:VALUE (constexpr int)
 *   options: --ptx (print PTX, default) --llvm (print optimized LLVM IR)
 *            --run (run on the GPU and in the interpreter, compare every tensor)
 *            --fast (Triton numerics) --warps N --arch sm_NN --iters N (benchmark)
 *            --wgmma (dots on sm_90 through wgmma, the default unless $TRITIUM_WGMMA=0)
 *            --mma-sync (dots on sm_90 through mma.sync: gpu_options.mma_sync)
 *            --wgmma-async (wgmma, and TRITIUM_WGMMA_ASYNC=1: the loop's last MMA in flight)
 *            --rtol R --atol A (comparison tolerance, default 1e-5 / 1e-6)
 * Exit: 0 ok, 1 mismatch or kernel failure, 2 bad input / no driver, 77 no driver with --run-or-skip. */
#include "gpu_util.h"
#include "tritium/cuda.h"
#include "tritium/interp.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int usage(void)
{
    fprintf(stderr, "usage: gpu_tool [--ptx|--llvm|--run] [--fast] [--wgmma|--mma-sync] [--warps N] [--arch sm_NN] [--iters N] "
                    "FILE.py KERNEL GRID ARG...\n");
    return 2;
}

static bool parse_arg(launch *l, const char *s)
{
    const char *eq = strchr(s, '=');
    if (!eq) return false;
    char name[128];
    snprintf(name, sizeof name, "%.*s", (int)(eq - s), s);
    const char *v = eq + 1;
    if (!strncmp(v, "i:", 2)) { lb_int(l, name, strtoll(v + 2, NULL, 0)); return true; }
    if (!strncmp(v, "f:", 2)) { lb_float(l, name, strtod(v + 2, NULL)); return true; }
    if (!strncmp(v, "c:", 2)) { lb_const(l, name, strtoll(v + 2, NULL, 0)); return true; }
    if (!strncmp(v, "s:", 2)) { lb_const_str(l, name, v + 2); return true; }
    bool zeros = !strncmp(v, "zeros:", 6);
    if (zeros) v += 6;
    const char *br = strchr(v, '[');
    if (!br) return false;
    char dt[16];
    snprintf(dt, sizeof dt, "%.*s", (int)(br - v), v);
    tt_dtype d;
    if (!tt_dtype_parse(dt, &d)) return false;
    int64_t shape[4];
    int rank = 0;
    const char *p = br + 1;
    while (*p && *p != ']' && rank < 4) {
        shape[rank++] = strtoll(p, (char **)&p, 10);
        if (*p == ',') p++;
    }
    tt_tensor *t = lb_tensor(l, name, d, rank, shape);
    if (zeros) memset(t->data, 0, t->nbytes);
    return true;
}

/* Do what `mode` asks with the compiled kernel; the caller frees f and l. */
static int act(int mode, gpu_options o, bool noref, double rtol, double atol, const char *kernel,
               ir_func *f, launch *lp)
{
    launch l = *lp;   /* tensors shared with the caller */
    char err[4096];
    if (mode == 4) {
        interp_options io;
        interp_options_default(&io);
        interp_session *s = interp_session_new(f, &l, &io);
        if (!s || interp_run_launch(s)) {
            fprintf(stderr, "gpu_tool: interpreter failed\n");
            return 1;
        }
        interp_stats ist;
        interp_get_stats(s, &ist);
        interp_session_free(s);
        printf("%-28s interp ok (%lld faults)\n", kernel, (long long)ist.faults);
        return ist.faults ? 1 : 0;
    }
    if (mode < 2 || mode == 3) {
        gpu_spec spec = gpu_spec_of_launch(f, &l);
        if (mode == 1) o.dump_llvm = stdout;
        gpu_kernel k;
        double t0 = now_seconds();
        if (gpu_compile(f, &o, &spec, &k, err, sizeof err)) {
            fprintf(stderr, "%s\n", err);
            return 2;
        }
        double ms = (now_seconds() - t0) * 1e3;
        if (mode == 0) fputs(k.ptx, stdout);
        if (mode == 3) {
            int r = ptxas_check(k.ptx, k.arch);
            printf("%-28s ptxas %s (compile %.1f ms, smem %d)\n", kernel, r > 0 ? "ok" : r < 0 ? "missing" : "FAILED",
                   ms, k.smem_bytes);
            gpu_kernel_free(&k);
            return r > 0 ? 0 : r < 0 ? 77 : 1;
        }
        fprintf(stderr, "compiled %s in %.2f ms (smem %d)\n", k.name, ms, k.smem_bytes);
        gpu_kernel_free(&k);
        return 0;
    }
    launch ref;
    launch_copy(&ref, &l);
    gpu_stats st;
    int rc = gpu_launch(f, &l, &o, &st, err, sizeof err);
    if (rc) {
        fprintf(stderr, "gpu_tool: %s: %s\n", kernel, err);
        return cuda_no_driver() ? 77 : rc;
    }
    if (noref) {
        printf("%-28s %-10s compile %.1f ms%s load %.1f ms kernel %.4f ms bench %.4f ms regs %d spill %d smem %d  %s\n",
               kernel, st.arch, st.compile_ms, st.ptx_cached ? " (cached)" : "", st.load_ms, st.kernel_ms, st.bench_ms,
               st.num_regs, st.spill_bytes, st.smem_bytes, st.device);
        return 0;
    }
    interp_options io;
    interp_options_default(&io);
    interp_session *s = interp_session_new(f, &ref, &io);
    if (!s || interp_run_launch(s)) {
        fprintf(stderr, "gpu_tool: interpreter failed\n");
        return 2;
    }
    interp_session_free(s);
    int bad = 0;
    for (int k = 0; k < l.nargs; k++) {
        tt_tensor *a = l.args[k].tensor, *b = ref.args[k].tensor;
        if (!a) continue;
        int64_t n = tt_tensor_numel(a), nbad = 0;
        double maxerr = 0;
        for (int64_t e = 0; e < n; e++) {
            double x = tt_load_f64(a->data, a->dtype, e), y = tt_load_f64(b->data, b->dtype, e);
            double d = fabs(x - y);
            bool ok = (isnan(x) && isnan(y)) || x == y || d <= atol + rtol * fabs(y);
            if (!ok) {
                if (nbad < 5) fprintf(stderr, "  %s[%lld]: gpu %.9g interp %.9g\n", l.args[k].name, (long long)e, x, y);
                nbad++;
            }
            if (d > maxerr && !isnan(d)) maxerr = d;
        }
        if (nbad) fprintf(stderr, "%s: %lld of %lld elements differ (max abs err %.3g)\n", l.args[k].name,
                          (long long)nbad, (long long)n, maxerr);
        bad += nbad > 0;
    }
    printf("%-28s %-10s %s: compile %.1f ms%s load %.1f ms kernel %.4f ms bench %.4f ms regs %d spill %d smem %d  %s\n",
           kernel, st.arch, bad ? "MISMATCH" : "ok", st.compile_ms, st.ptx_cached ? " (cached)" : "", st.load_ms,
           st.kernel_ms, st.bench_ms, st.num_regs, st.spill_bytes, st.smem_bytes,
           st.device);
    launch_free(&ref);
    return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
    gpu_options o;
    gpu_options_default(&o);
    o.no_cache = getenv("TRITIUM_GPU_CACHE") == NULL;
    int mode = 0;                    /* 0 ptx, 1 llvm, 2 run */
    double rtol = 1e-5, atol = 1e-6;
    bool noref = false;
    int i = 1;
    for (; i < argc && argv[i][0] == '-' && argv[i][1] == '-'; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--ptx")) mode = 0;
        else if (!strcmp(a, "--llvm")) mode = 1;
        else if (!strcmp(a, "--run")) mode = 2;
        else if (!strcmp(a, "--ptxas")) mode = 3;
        else if (!strcmp(a, "--interp")) mode = 4;
        else if (!strcmp(a, "--no-ref")) noref = true;
        else if (!strcmp(a, "--fast")) o.set.numerics = NUMERICS_FAST;
        else if (!strcmp(a, "--wgmma")) o.set.mma_sync = false;
        else if (!strcmp(a, "--mma-sync")) o.set.mma_sync = true;
        else if (!strcmp(a, "--wgmma-async")) {                               /* wgmma with wait_group 1 in loops */
            o.set.mma_sync = false;
            setenv("TRITIUM_WGMMA_ASYNC", "1", 1);
            tt_settings_reload();
        }
        else if (!strcmp(a, "--warps") && i + 1 < argc) o.set.num_warps = atoi(argv[++i]);
        else if (!strcmp(a, "--arch") && i + 1 < argc) o.set.arch = argv[++i];
        else if (!strcmp(a, "--iters") && i + 1 < argc) o.bench_iters = atoi(argv[++i]);
        else if (!strcmp(a, "--rtol") && i + 1 < argc) rtol = atof(argv[++i]);
        else if (!strcmp(a, "--atol") && i + 1 < argc) atol = atof(argv[++i]);
        else return usage();
    }
    if (argc - i < 3) return usage();
    const char *file = argv[i], *kernel = argv[i + 1];
    launch l;
    int64_t g[3] = { 1, 1, 1 };
    sscanf(argv[i + 2], "%lld,%lld,%lld", (long long *)&g[0], (long long *)&g[1], (long long *)&g[2]);
    lb_init(&l, g[0], g[1], g[2]);
    l.num_warps = (int)o.set.num_warps;
    for (int k = i + 3; k < argc; k++)
        if (!parse_arg(&l, argv[k])) {
            fprintf(stderr, "gpu_tool: bad argument '%s'\n", argv[k]);
            return 2;
        }
    front_module *m = front_load(file);
    ir_func *f = m ? front_compile(m, kernel, &l) : NULL;
    if (!f) {
        front_module_free(m);
        launch_free(&l);
        return 2;
    }
    int rc = act(mode, o, noref, rtol, atol, kernel, f, &l);
    ir_func_free(f);
    front_module_free(m);
    launch_free(&l);
    return rc;
}

