/* check.c — libtritium: a launch checked against another run of it
 * (python -m tritium --mode check): the interpreter (or, executor GPU,
 * tritium's GPU path) runs on copies of the launch's inputs and every tensor
 * the kernel wrote is compared, through the diff engine (debugger/diff.c),
 * with the results the caller's own launch produced (Triton's GPU code) or
 * with tritium's GPU path. */
#include "api.h"
#include "api_html.h"

#ifdef TRITIUM_HAVE_GPU
#include "tritium/diff.h"
#endif

#include <jansson.h>
#include <stdio.h>
#include <string.h>

void tritium_check_options_default(tritium_check_options *o)
{
    memset(o, 0, sizeof *o);
    o->against = TRITIUM_AGAINST_RESULTS;
    o->numerics = TRITIUM_NUMERICS_FAST;
    o->schedule = TRITIUM_SCHED_IN_ORDER;
    o->ulp = -1;
}

int tritium_launch_result(tritium_launch *L, const char *name, const void *storage, int64_t storage_bytes)
{
    api_clear_error();
    if (!L || !name || !storage) { api_fail("tritium_launch_result: no launch, name or storage"); return -1; }
    for (int i = 0; i < L->vals.n; i++) {
        api_value *v = &L->vals.v[i];
        if (strcmp(v->name, name)) continue;
        if (v->is_const || v->arg.kind != ARG_TENSOR) {
            api_fail("tritium: error: result for '%s': not a tensor argument", name);
            return -1;
        }
        if ((int64_t)v->arg.tensor->nbytes != storage_bytes) {
            api_fail("tritium: error: result for '%s': %lld bytes, its storage has %lld", name,
                     (long long)storage_bytes, (long long)v->arg.tensor->nbytes);
            return -1;
        }
        v->result = storage;
        return 0;
    }
    api_fail("tritium: error: result for '%s': no tensor argument of that name was given", name);
    return -1;
}

#ifdef TRITIUM_HAVE_GPU
/* The value given for assembled argument a (names are the values'). */
static const api_value *value_of(const tritium_launch *L, const launch_arg *a)
{
    for (int i = 0; i < L->vals.n; i++)
        if (L->vals.v[i].name == a->name) return &L->vals.v[i];
    return NULL;
}

/* A tensor holds the whole storage (1-d); when the view the kernel got is
 * exactly that storage (offset 0, dense, row-major), give t the view's shape
 * so that reports index elements as the program does. */
static void view_shape(tt_tensor *t, const launch_arg *a)
{
    if (!a->view || a->offset != 0 || a->view_rank < 1 || a->view_rank > TT_MAX_RANK) return;
    int64_t n = 1, stride = 1;
    for (int d = a->view_rank - 1; d >= 0; d--) {
        if (a->view_shape[d] != 1 && a->view_strides[d] != stride) return;
        stride *= a->view_shape[d];
        n *= a->view_shape[d];
    }
    if (n != tt_tensor_numel(t)) return;
    t->rank = a->view_rank;
    for (int d = 0; d < t->rank; d++) t->shape[d] = a->view_shape[d];
    int64_t st = 1;
    for (int d = t->rank - 1; d >= 0; d--) {
        t->strides[d] = st;
        st *= t->shape[d];
    }
}

static void shape_views(launch *l)
{
    for (int i = 0; i < l->nargs; i++)
        if (l->args[i].kind == ARG_TENSOR && !l->args[i].shared) view_shape(l->args[i].tensor, &l->args[i]);
}

/* The interpreter on a copy of L's inputs against the stored results. */
static void against_results(tritium_launch *L, const tritium_check_options *o, const dbg_diff_options *d,
                            tritium_report *rep, dbg_diff_report *r)
{
    r->kernel = xstrdup(L->fn->name);        /* without the @LINE of a module with namesakes */
    r->numerics = d->numerics;
    memcpy(r->grid, L->l.grid, sizeof r->grid);
    r->num_warps = L->l.num_warps;
    snprintf(r->other_label, sizeof r->other_label, "%s", o->label && *o->label ? o->label : "triton");
    /* the kernel's arguments and the extra tensors after them (pointer-table
     * targets): dbg_diff_compare compares nargs + nextra */
    int n = L->l.nargs + L->l.nextra;
    launch in = L->l, cl, gl;
    in.args = xcalloc((size_t)n + 1, sizeof *in.args);
    tt_tensor *shallow = xcalloc((size_t)n + 1, sizeof *shallow);
    for (int i = 0; i < n; i++) {
        in.args[i] = L->l.args[i];
        if (in.args[i].kind != ARG_TENSOR || in.args[i].shared) continue;
        shallow[i] = *L->l.args[i].tensor;      /* the same borrowed data, its own shape */
        in.args[i].tensor = &shallow[i];
        for (int j = i + 1; j < n; j++)
            if (L->l.args[j].shared && L->l.args[j].tensor == L->l.args[i].tensor) in.args[j].tensor = &shallow[i];
    }
    launch_copy(&cl, &L->l);
    launch_copy(&gl, &L->l);
    for (int i = 0; i < gl.nargs + gl.nextra; i++) {
        const api_value *v = value_of(L, &L->l.args[i]);
        if (gl.args[i].kind == ARG_TENSOR && !gl.args[i].shared && v && v->result && gl.args[i].tensor->nbytes)
            memcpy(gl.args[i].tensor->data, v->result, gl.args[i].tensor->nbytes);
    }
    shape_views(&in);
    shape_views(&cl);
    shape_views(&gl);
    if (o->executor == TRITIUM_EXEC_GPU) {
        /* tritium's GPU path on the copy, compared with the results directly */
        snprintf(r->ref_label, sizeof r->ref_label, "tritium-gpu");
        gpu_options go;
        gpu_options_default(&go);
        go.set.numerics = d->numerics;
        go.set.num_warps = L->num_warps;
        char err[sizeof r->message] = "";
        int rc = gpu_launch(L->fn, &cl, &go, &r->gpu, err, sizeof err);
        snprintf(r->message, sizeof r->message, "%s", err);
        if (rc == 2) {
            r->status = 2;
        } else if (rc == 1) {
            r->gpu_failed = true;            /* the context stays: it is the program's too */
            r->status = 1;
        } else {
            dbg_diff_compare(L->fn, &in, &cl, NULL, &gl, d, r);
            r->status = r->mismatches ? 1 : 0;
        }
        launch_free(&cl);
        launch_free(&gl);
        free(in.args);
        free(shallow);
        return;
    }
    interp_options io;
    interp_options_default(&io);
    io.numerics = d->numerics;
    io.sched = d->sched;
    io.sched_seed = d->sched_seed;
    io.threads = d->threads;
    io.report = d->interp_report;
    io.bounds = dbg_diff_wants_bounds(d);
    if (d->max_interp_reports > 0) io.max_reports = d->max_interp_reports;
    char *printed = NULL;                    /* device_print: the program's own launch printed it */
    size_t plen = 0;
    io.output = open_memstream(&printed, &plen);
    interp_session *s = interp_session_new(L->fn, &cl, &io);
    if (!s) {
        snprintf(r->message, sizeof r->message, "the launch does not match kernel %s", L->kernel);
        r->status = 2;
    } else {
        page_launch *page = api_html_begin(L, &cl, s, (int)d->sched, (int)d->numerics);   /* tritium_html_begin */
        interp_run_launch(s);
        interp_get_stats(s, &r->interp);
        r->interp_ran = r->gpu_ran = true;
        dbg_diff_compare(L->fn, &in, &cl, s, &gl, d, r);
        api_report_sites(rep, L, s);
        r->status = r->mismatches || r->interp.faults ? 1 : 0;
        if (page) {
            page_launch_diff(page, &cl, &gl, r);
            api_html_end(page, s);
        }
        interp_session_free(s);
    }
    fclose(io.output);
    free(printed);
    launch_free(&cl);
    launch_free(&gl);
    free(in.args);
    free(shallow);
}
#endif

int tritium_check(tritium_launch *L, const tritium_check_options *o, tritium_report **rep)
{
    if (rep) *rep = NULL;
#ifdef TRITIUM_HAVE_GPU
    int rc = api_prepare(L);
    if (rc) return rc;
    tritium_check_options dflt;
    if (!o) {
        tritium_check_options_default(&dflt);
        o = &dflt;
    }
    if (o->against < TRITIUM_AGAINST_RESULTS || o->against > TRITIUM_AGAINST_GPU ||
        o->schedule < TRITIUM_SCHED_IN_ORDER || o->schedule > TRITIUM_SCHED_PARALLEL ||
        o->numerics < TRITIUM_NUMERICS_IEEE || o->numerics > TRITIUM_NUMERICS_FAST || o->threads < 0 ||
        o->threads > 4096 || o->max_show < 0 || o->max_show > DBG_DIFF_MAX_SHOW || o->max_reports < 0 ||
        (o->has_rtol && !(o->rtol >= 0)) || (o->has_atol && !(o->atol >= 0)) || o->executor < TRITIUM_EXEC_INTERP ||
        o->executor > TRITIUM_EXEC_GPU) {
        api_fail("tritium: error: bad check options (against %d, executor %d, schedule %d, numerics %d, show %d, "
                 "rtol/atol must be >= 0)", o->against, o->executor, o->schedule, o->numerics, o->max_show);
        return TRITIUM_INPUT_ERROR;
    }
    if (o->executor == TRITIUM_EXEC_GPU && o->against != TRITIUM_AGAINST_RESULTS) {
        api_fail("tritium: error: check: executor GPU compares tritium's GPU path with given results "
                 "(against RESULTS), not with itself");
        return TRITIUM_INPUT_ERROR;
    }
    dbg_diff_options d;
    dbg_diff_options_default(&d);
    d.numerics = (tt_numerics)o->numerics;
    d.has_rtol = o->has_rtol != 0;
    d.rtol = o->rtol;
    d.has_atol = o->has_atol != 0;
    d.atol = o->atol;
    d.ulp = o->ulp;
    d.max_show = o->max_show;
    d.sched = (interp_sched)o->schedule;
    d.sched_seed = o->schedule_seed;
    d.threads = o->threads;
    d.max_interp_reports = o->max_reports;
    tritium_report *r = api_report_new();
    size_t len = 0;
    FILE *txt = open_memstream(&r->text, &len);
    d.interp_report = txt;
    dbg_diff_report dr;
    memset(&dr, 0, sizeof dr);
    api_capture_begin();
    interp_sigint_begin();                   /* Ctrl-C stops the interpreter's launch (TRITIUM_INTERRUPTED) */
    if (o->against == TRITIUM_AGAINST_GPU) {
        api_html_watch_diff(&d, L);          /* tritium_html_begin */
        dbg_diff_run(L->fn, &L->l, &d, &dr);
    }
    else against_results(L, o, &d, r, &dr);
    bool interrupted = interp_sigint_end();
    api_capture_end(false);
    r->st = (tritium_stats){ dr.interp.programs, dr.interp.faults, dr.interp.fault_lanes, dr.interp.races,
                             dr.interp.uninit_reads, dr.interp.seconds, L->compiled_now };
    if (interrupted) {                       /* partial results: no comparison, the stats count what ran */
        fclose(txt);
        dbg_diff_report_free(&dr);
        r->status = TRITIUM_INTERRUPTED;
        api_report_give(r, rep);
        return TRITIUM_INTERRUPTED;
    }
    if (dr.status == 2) {
        fclose(txt);
        api_fail("tritium: error: check of '%s': %s", L->kernel, dr.message);
        rc = strstr(dr.message, "driver") || strstr(dr.message, "libcuda") || strstr(dr.message, "CUDA")
                 ? TRITIUM_NO_GPU : TRITIUM_INPUT_ERROR;
        dbg_diff_report_free(&dr);
        tritium_report_free(r);
        return rc;
    }
    dbg_diff_print(txt, &dr);
    fclose(txt);
    json_t *j = json_object();
    json_object_set_new(j, "kernel", json_string(L->kernel));
    json_object_set_new(j, "against", json_string(o->against == TRITIUM_AGAINST_GPU ? "tritium-gpu" : dr.other_label));
    json_object_set_new(j, "executor", json_string(o->executor == TRITIUM_EXEC_GPU ? "tritium-gpu" : "interp"));
    json_object_set_new(j, "mismatches", json_integer(dr.mismatches));
    dbg_diff_json_fill(j, &dr);
    r->check_json = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9));
    json_decref(j);
    r->status = dr.status ? TRITIUM_KERNEL_ERROR : TRITIUM_OK;
    dbg_diff_report_free(&dr);
    int status = r->status;
    api_report_give(r, rep);                 /* frees r when rep is NULL */
    return status;
#else
    (void)L;
    (void)o;
    api_fail("tritium: error: this libtritium was built without the diff engine (no LLVM): check is not available");
    return TRITIUM_INPUT_ERROR;
#endif
}
