/* run.c — libtritium: running a launch in the interpreter or on the GPU
 * path, and the report. */
#include "api.h"
#include "api_html.h"
#include "tritium/interp.h"
#ifdef TRITIUM_HAVE_GPU
#include "tritium/gpu.h"
#endif

#include <stdio.h>
#include <string.h>

void tritium_options_default(tritium_options *o)
{
    memset(o, 0, sizeof *o);
    o->schedule = TRITIUM_SCHED_IN_ORDER;
    o->numerics = TRITIUM_NUMERICS_IEEE;
    o->check_races = 1;
    o->check_uninit = 1;
}

int tritium_run(tritium_launch *L, const tritium_options *opt, tritium_report **rep)
{
    if (rep) *rep = NULL;
    int rc = api_prepare(L);
    if (rc) return rc;
    tritium_options dflt;
    if (!opt) {
        tritium_options_default(&dflt);
        opt = &dflt;
    }
    if (opt->schedule < TRITIUM_SCHED_IN_ORDER || opt->schedule > TRITIUM_SCHED_PARALLEL ||
        opt->numerics < TRITIUM_NUMERICS_IEEE || opt->numerics > TRITIUM_NUMERICS_FAST ||
        opt->threads < 0 || opt->threads > 4096 || opt->max_reports < 0) {
        api_fail("tritium: error: bad run options (schedule %d, numerics %d, threads %d)",
                 opt->schedule, opt->numerics, opt->threads);
        return TRITIUM_INPUT_ERROR;
    }
    interp_options io;
    interp_options_default(&io);
    io.sched = (interp_sched)opt->schedule;
    io.sched_seed = opt->schedule_seed;
    io.threads = opt->threads;
    io.numerics = (tt_numerics)opt->numerics;
    io.check_races = opt->check_races != 0;
    io.check_uninit = opt->check_uninit != 0;
    if (opt->max_reports) io.max_reports = opt->max_reports;
    tritium_report *r = api_report_new();
    size_t len = 0, olen = 0;
    io.report = open_memstream(&r->text, &len);
    io.output = open_memstream(&r->output, &olen);
    api_capture_begin();
    interp_session *s = interp_session_new(L->fn, &L->l, &io);
    if (!s) {
        api_capture_end(true);
        fclose(io.report);
        fclose(io.output);
        if (!*tritium_last_error()) api_fail("tritium: error: the launch does not match kernel '%s'", L->kernel);
        tritium_report_free(r);
        return TRITIUM_INPUT_ERROR;
    }
    page_launch *page = api_html_begin(L, &L->l, s, opt->schedule, opt->numerics);   /* tritium_html_begin */
    interp_sigint_begin();                   /* Ctrl-C stops the launch (TRITIUM_INTERRUPTED) */
    interp_run_launch(s);
    bool interrupted = interp_sigint_end();
    api_html_end(page, s);
    interp_stats st;
    interp_get_stats(s, &st);
    api_report_sites(r, L, s);
    interp_session_free(s);
    api_capture_end(false);
    fclose(io.report);
    fclose(io.output);
    r->st = (tritium_stats){ st.programs, st.faults, st.fault_lanes, st.races, st.uninit_reads, st.seconds,
                             L->compiled_now };
    r->status = interrupted ? TRITIUM_INTERRUPTED
              : st.faults || st.races || st.uninit_reads || st.overflows ? TRITIUM_KERNEL_ERROR : TRITIUM_OK;
    int status = r->status;
    api_report_give(r, rep);                 /* frees r when rep is NULL */
    return status;
}

int tritium_run_gpu(tritium_launch *L, tritium_report **rep)
{
    if (rep) *rep = NULL;
#ifdef TRITIUM_HAVE_GPU
    int rc = api_prepare(L);
    if (rc) return rc;
    gpu_options go;
    gpu_options_default(&go);
    go.set.num_warps = L->num_warps;
    gpu_stats gs;
    char err[512] = "";
    api_capture_begin();
    rc = gpu_launch(L->fn, &L->l, &go, &gs, err, sizeof err);
    api_capture_end(rc != 0);
    if (rc) {
        api_fail("tritium: error: GPU launch of '%s': %s", L->kernel, err);
        return strstr(err, "driver") || strstr(err, "libcuda") ? TRITIUM_NO_GPU
             : rc == 2 ? TRITIUM_INPUT_ERROR : TRITIUM_KERNEL_ERROR;
    }
    tritium_report *r = api_report_new();
    r->st.programs = L->l.grid[0] * L->l.grid[1] * L->l.grid[2];
    r->st.seconds = gs.kernel_ms * 1e-3;
    r->st.compiled = L->compiled_now;
    api_report_give(r, rep);
    return TRITIUM_OK;
#else
    (void)L;
    api_fail("tritium: error: this libtritium was built without the GPU compiler (LLVM)");
    return TRITIUM_NO_GPU;
#endif
}
