/* run.c — `tritium run`: interpret a launch, save and check tensors, print a
 * summary (text or --json). */
#include "repl.h"
#include "repl_html.h"
#include "tritium/diag.h"
#ifdef TRITIUM_HAVE_GPU
#include "repl_gpu.h"              /* --device gpu (gpu_exec.c) */
#endif

#include <jansson.h>
#include <math.h>
#include <signal.h>
#include <string.h>

static json_t *jreal(double d)
{
    return isfinite(d) ? json_real(d) : json_null();
}

static char *shape_str(const tt_tensor *t)
{
    char buf[160];
    return xstrdup(tt_tensor_describe(t, buf, sizeof buf));
}

static json_t *const_json(const launch_const *c)
{
    switch (c->kind) {
    case CONST_INT: return json_integer(c->i);
    case CONST_BOOL: return json_boolean(c->i);
    case CONST_FLOAT: return jreal(c->f);
    case CONST_STR: return json_string(c->s ? c->s : "");
    case CONST_DTYPE: return json_string(tt_dtype_triton_name((tt_dtype)c->i));
    case CONST_FUNC: return json_string(c->s ? c->s : "");
    case CONST_TUPLE: case CONST_NONE: break;
    }
    return json_null();
}

static void const_text(const launch_const *c, char *buf, size_t n)
{
    switch (c->kind) {
    case CONST_INT: snprintf(buf, n, "%lld", (long long)c->i); break;
    case CONST_BOOL: snprintf(buf, n, "%s", c->i ? "True" : "False"); break;
    case CONST_FLOAT: snprintf(buf, n, "%.9g", c->f); break;
    case CONST_STR: snprintf(buf, n, "'%s'", c->s ? c->s : ""); break;
    case CONST_DTYPE: snprintf(buf, n, "tl.%s", tt_dtype_triton_name((tt_dtype)c->i)); break;
    case CONST_NONE: snprintf(buf, n, "None"); break;
    case CONST_TUPLE:
        if (c->s) snprintf(buf, n, "named tuple %s", c->s);
        else snprintf(buf, n, "tuple of %lld", (long long)c->i);
        break;
    case CONST_FUNC: snprintf(buf, n, "jit function %s", c->s ? c->s : "?"); break;
    }
}

/* Ctrl-C: the handler is installed when the command starts, so a signal
 * that comes while the kernel compiles is not a silent death (a test under
 * load saw empty output): the launch then does not start, and
 * "interrupted after 0 programs" and the summary are printed. During the
 * launch the first stops it (interp_interrupt) with the partial summary; a
 * second one ends the process as usual. SA_RESTART: a write to a full pipe
 * must not fail with EINTR and lose the buffered output. */
static interp_session *volatile g_running;
static volatile sig_atomic_t g_sigint;

static void on_sigint(int sig)
{
    (void)sig;
    signal(SIGINT, SIG_DFL);
    g_sigint = 1;
    if (g_running) interp_interrupt(g_running);
}

typedef struct run_result {
    interp_stats st;
    double seconds;
    double cpu_seconds;            /* CPU time of the launch, all threads (benchmarks on a loaded machine) */
    int bench_iters;               /* --bench N in the interpreter: launches timed, 0 none */
    double bench_median, bench_min, bench_max;    /* seconds per launch */
    repl_expect_result *exp; int nexp;
    int status;
    bool interrupted;              /* Ctrl-C stopped the launch: st counts the programs that finished */
    bool nondet_checked;           /* schedules were compared (--check determinism, or after a race) */
    int64_t nondet;                /* elements whose final bits differ between schedules */
#ifdef TRITIUM_HAVE_GPU
    repl_gpu_result *gpu;          /* --device gpu, else NULL */
#endif
} run_result;

/* Put the tensors of l back as they are in keep (a launch_copy of l), for
 * --bench. */
static void restore(launch *l, const launch *keep)
{
    for (int i = 0; i < l->nargs + l->nextra; i++) {
        const tt_tensor *k = keep->args[i].tensor;
        if (l->args[i].kind == ARG_TENSOR && launch_owner(l, i) == i && k && k->data)
            memcpy(l->args[i].tensor->data, k->data, k->nbytes);
    }
}

/* --bench N in the interpreter: N more launches of the session, each from
 * the tensors as they were before the first (before), timed one by one
 * (wall clock, the restore not included) as a plain C benchmark times its
 * loop after a warm-up: the pages of every buffer and of the shadow are
 * touched by then. The tensors are put back as the first launch left them,
 * so --save, --expect and the determinism check see one launch's result. */
static void bench_cpu(launch *l, interp_session *sess, int n, const launch *before, run_result *rr)
{
    launch after;
    launch_copy(&after, l);
    double *t = xcalloc((size_t)n, sizeof *t);
    int done = 0;
    for (; done < n && !interp_interrupted(sess); done++) {
        restore(l, before);
        double t0 = now_seconds();
        interp_run_launch(sess);
        t[done] = now_seconds() - t0;
    }
    restore(l, &after);
    launch_free(&after);
    if (done) {
        rr->bench_iters = done;
        rr->bench_median = tt_sort_median(t, (size_t)done);
        rr->bench_min = t[0];
        rr->bench_max = t[done - 1];
    }
    free(t);
}

static void print_text(const repl_target *t, const run_result *rr)
{
    const launch *l = &t->launch;
    const repl_spec *s = &t->spec;
    printf("kernel   %s (%s)\n", t->kernel, t->file);
#ifdef TRITIUM_HAVE_GPU
    if (rr->gpu) repl_gpu_print_text(stdout, rr->gpu, l);
    else {
#endif
    printf("grid     (%lld, %lld, %lld): %lld programs run, num_warps %d, schedule %s, numerics %s\n",
           (long long)l->grid[0], (long long)l->grid[1], (long long)l->grid[2], (long long)rr->st.programs,
           l->num_warps, interp_sched_name((interp_sched)s->set.schedule.v), tt_numerics_name((tt_numerics)s->set.numerics));
    printf("checks   %lld fault%s (%lld lanes), %lld race%s, %lld uninitialized read%s",
           (long long)rr->st.faults, rr->st.faults == 1 ? "" : "s", (long long)rr->st.fault_lanes,
           (long long)rr->st.races, rr->st.races == 1 ? "" : "s",
           (long long)rr->st.uninit_reads, rr->st.uninit_reads == 1 ? "" : "s");
    if (rr->st.overflows)
        printf(", %lld integer overflow%s", (long long)rr->st.overflows, rr->st.overflows == 1 ? "" : "s");
    if (rr->nondet_checked && rr->nondet >= 0)
        printf(", %lld element%s differing between schedules", (long long)rr->nondet, rr->nondet == 1 ? "" : "s");
    putchar('\n');
#ifdef TRITIUM_HAVE_GPU
    }
#endif
    if (rr->interrupted)
        printf("status   interrupted after %lld of %lld programs; the results are partial\n",
               (long long)rr->st.programs, (long long)(l->grid[0] * l->grid[1] * l->grid[2]));
    printf("time     %.3f ms\n", rr->seconds * 1e3);
    if (rr->bench_iters)
        printf("bench    %d launches: median %.3f ms (min %.3f, max %.3f)\n", rr->bench_iters, rr->bench_median * 1e3,
               rr->bench_min * 1e3, rr->bench_max * 1e3);
    int w = 4;
    for (int i = 0; i < l->nargs + l->nextra; i++) if ((int)strlen(l->args[i].name) > w) w = (int)strlen(l->args[i].name);
    for (int i = 0; i < l->nconsts; i++) if ((int)strlen(l->consts[i].name) > w) w = (int)strlen(l->consts[i].name);
    printf("arguments\n");
    for (int i = 0; i < l->nargs + l->nextra; i++) {
        const launch_arg *a = &l->args[i];
        if (a->kind == ARG_TENSOR) {
            double mn, mx, mean;
            tt_tensor_stats(a->tensor, &mn, &mx, &mean);
            char *sh = shape_str(a->tensor);
            printf("  %-*s  %-16s min %.6g  max %.6g  mean %.6g\n", w, a->name, sh, mn, mx, mean);
            free(sh);
        } else if (a->kind == ARG_INT) {
            if (a->dtype == TT_U64) printf("  %-*s  %-16s %llu\n", w, a->name, tt_dtype_name(a->dtype), (unsigned long long)a->i);
            else printf("  %-*s  %-16s %lld\n", w, a->name, tt_dtype_name(a->dtype), (long long)a->i);
        } else {
            printf("  %-*s  %-16s %.9g\n", w, a->name, tt_dtype_name(a->dtype), a->f);
        }
    }
    for (int i = 0; i < l->nconsts; i++) {
        char buf[256];
        const_text(&l->consts[i], buf, sizeof buf);
        printf("  %-*s  %-16s %s\n", w, l->consts[i].name, "constexpr", buf);
    }
    for (int i = 0; i < s->nsaves; i++) printf("saved    %s to %s\n", s->saves[i].name, s->saves[i].path);
    for (int i = 0; i < rr->nexp; i++) {
        const repl_expect_result *e = &rr->exp[i];
        if (e->ok) printf("expect   %s: ok (%lld elements, max abs error %.3g, max rel error %.3g)\n", e->name,
                          (long long)e->numel, e->max_abs, e->max_rel);
        else printf("expect   %s: FAILED, %lld of %lld elements differ\n", e->name, (long long)e->mismatches,
                    (long long)e->numel);
    }
}

static void print_json(const repl_target *t, const run_result *rr)
{
    const launch *l = &t->launch;
    const repl_spec *s = &t->spec;
    json_t *o = json_object();
    json_object_set_new(o, "kernel", json_string(t->kernel));
    json_object_set_new(o, "file", json_string(t->file));
    json_object_set_new(o, "grid", json_pack("[III]", (json_int_t)l->grid[0], (json_int_t)l->grid[1],
                                             (json_int_t)l->grid[2]));
    json_object_set_new(o, "num_warps", json_integer(l->num_warps));
    json_object_set_new(o, "seed", json_integer((json_int_t)l->seed));
    json_object_set_new(o, "schedule", json_string(interp_sched_name((interp_sched)s->set.schedule.v)));
    json_object_set_new(o, "numerics", json_string(tt_numerics_name((tt_numerics)s->set.numerics)));
    json_object_set_new(o, "programs", json_integer(rr->st.programs));
    if (rr->interrupted) json_object_set_new(o, "interrupted", json_true());
    json_object_set_new(o, "faults", json_integer(rr->st.faults));
    json_object_set_new(o, "fault_lanes", json_integer(rr->st.fault_lanes));
    json_object_set_new(o, "overflows", json_integer(rr->st.overflows));
    json_object_set_new(o, "overflow_lanes", json_integer(rr->st.overflow_lanes));
    if (rr->nondet_checked) json_object_set_new(o, "nondeterministic_elements", json_integer(rr->nondet));
    json_object_set_new(o, "races", json_integer(rr->st.races));
    json_object_set_new(o, "uninit_reads", json_integer(rr->st.uninit_reads));
    json_object_set_new(o, "seconds", jreal(rr->seconds));
#ifdef TRITIUM_HAVE_GPU
    if (!rr->gpu)
#endif
        json_object_set_new(o, "cpu_seconds", jreal(rr->cpu_seconds));
    if (rr->bench_iters)
        json_object_set_new(o, "bench", json_pack("{s:i,s:f,s:f,s:f}", "iters", rr->bench_iters, "median_seconds",
                                                  rr->bench_median, "min_seconds", rr->bench_min, "max_seconds",
                                                  rr->bench_max));
#ifdef TRITIUM_HAVE_GPU
    json_object_set_new(o, "device", json_string(rr->gpu ? "gpu" : "cpu"));
    if (rr->gpu) json_object_set_new(o, "gpu", repl_gpu_json(rr->gpu));
#endif
    json_t *args = json_array();
    for (int i = 0; i < l->nargs + l->nextra; i++) {
        const launch_arg *a = &l->args[i];
        json_t *j = json_object();
        json_object_set_new(j, "name", json_string(a->name));
        if (a->kind == ARG_TENSOR) {
            double mn, mx, mean;
            tt_tensor_stats(a->tensor, &mn, &mx, &mean);
            json_object_set_new(j, "kind", json_string("tensor"));
            json_object_set_new(j, "dtype", json_string(tt_dtype_name(a->tensor->dtype)));
            json_t *sh = json_array();
            for (int d = 0; d < a->tensor->rank; d++) json_array_append_new(sh, json_integer(a->tensor->shape[d]));
            json_object_set_new(j, "shape", sh);
            json_object_set_new(j, "min", jreal(mn));
            json_object_set_new(j, "max", jreal(mx));
            json_object_set_new(j, "mean", jreal(mean));
        } else if (a->kind == ARG_INT) {
            json_object_set_new(j, "kind", json_string("int"));
            json_object_set_new(j, "dtype", json_string(tt_dtype_name(a->dtype)));
            if (a->dtype == TT_U64 && a->i < 0) {
                char buf[32];
                snprintf(buf, sizeof buf, "%llu", (unsigned long long)a->i);
                json_object_set_new(j, "value", json_string(buf));   /* JSON ints are int64 in jansson */
            } else {
                json_object_set_new(j, "value", a->dtype == TT_BOOL ? json_boolean(a->i) : json_integer(a->i));
            }
        } else {
            json_object_set_new(j, "kind", json_string("float"));
            json_object_set_new(j, "dtype", json_string(tt_dtype_name(a->dtype)));
            json_object_set_new(j, "value", jreal(a->f));
        }
        json_array_append_new(args, j);
    }
    json_object_set_new(o, "args", args);
    json_t *consts = json_object();
    for (int i = 0; i < l->nconsts; i++) json_object_set_new(consts, l->consts[i].name, const_json(&l->consts[i]));
    json_object_set_new(o, "consts", consts);
    json_t *saved = json_array();
    for (int i = 0; i < s->nsaves; i++)
        json_array_append_new(saved, json_pack("{ssss}", "name", s->saves[i].name, "path", s->saves[i].path));
    json_object_set_new(o, "saved", saved);
    json_t *exp = json_array();
    for (int i = 0; i < rr->nexp; i++) {
        const repl_expect_result *e = &rr->exp[i];
        json_t *j = json_object();
        json_object_set_new(j, "name", json_string(e->name));
        json_object_set_new(j, "path", json_string(s->expects[i].path));
        json_object_set_new(j, "ok", json_boolean(e->ok));
        json_object_set_new(j, "numel", json_integer(e->numel));
        json_object_set_new(j, "mismatches", json_integer(e->mismatches));
        json_object_set_new(j, "max_abs", jreal(e->max_abs));
        json_object_set_new(j, "max_rel", jreal(e->max_rel));
        json_object_set_new(j, "rtol", jreal(e->rtol));
        json_object_set_new(j, "atol", jreal(e->atol));
        json_array_append_new(exp, j);
    }
    json_object_set_new(o, "expect", exp);
    json_object_set_new(o, "status", json_integer(rr->status));
    json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9));
    fputc('\n', stdout);
    json_decref(o);
}

static const launch_arg *find_arg(const launch *l, const char *name)
{
    for (int i = 0; i < l->nargs + l->nextra; i++)
        if (!strcmp(l->args[i].name, name)) return &l->args[i];
    return NULL;
}

static bool same_shape(const tt_tensor *a, const tt_tensor *b)
{
    if (a->rank != b->rank) return false;
    for (int d = 0; d < a->rank; d++)
        if (a->shape[d] != b->shape[d]) return false;
    return true;
}

static int run_command(int argc, char *const *argv);

int repl_cmd_run(int argc, char *const *argv)
{
    if (repl_wants_help(argc, argv)) {
        repl_print_usage(stdout, "run");
#ifdef TRITIUM_HAVE_GPU
        repl_gpu_print_usage(stdout, "run");
#endif
        return REPL_EXIT_OK;
    }
    struct sigaction sa = { .sa_handler = on_sigint, .sa_flags = SA_RESTART }, old_sa;
    sigemptyset(&sa.sa_mask);
    g_sigint = 0;
    sigaction(SIGINT, &sa, &old_sa);
    int rc = run_command(argc, argv);
    g_running = NULL;
    sigaction(SIGINT, &old_sa, NULL);
    return rc;
}

/* --arch, --mma and --persistent on the command line are for --device gpu. */
static bool check_device(const tt_settings *s)
{
    if (s->device == TT_DEVICE_GPU) {
#ifndef TRITIUM_HAVE_GPU
        diag_error(REPL_NOPOS, "--device gpu: this tritium was built without the GPU compiler");
        return false;
#endif
        return true;
    }
    static const tt_setting_id gpu_only[] = { TT_SET_ARCH, TT_SET_PERSISTENT, TT_SET_MMA };
    for (size_t i = 0; i < TT_COUNTOF(gpu_only); i++)
        if (s->src[gpu_only[i]] == TT_SRC_ARGV) {
            diag_error(REPL_NOPOS, "%s needs --device gpu", tt_setting_row(gpu_only[i])->flag);
            return false;
        }
    return true;
}

static int run_command(int argc, char *const *argv)
{
    repl_target t;
    /* run's settings outside the launch spec (settings.def: --device,
     * --bench, --arch, --check, ...) are taken out first */
    tt_settings cs;
    tt_settings_copy(&cs, tt_settings_env());
    repl_checks ck;
    char **cargv = NULL;
    if (!repl_settings_take(argc, argv, TT_CMD_RUN, false, &cs, &argc, &cargv) || !repl_checks_parse(&cs, &ck) ||
        !check_device(&cs)) {
        tt_settings_free(&cs);
        free(cargv);
        return REPL_EXIT_INPUT;
    }
    argv = cargv;
    repl_html html;                        /* --html FILE: the page of the launch */
    repl_html_init(&html, cs.html);
    bool gpu = cs.device == TT_DEVICE_GPU;
    if (gpu && (ck.determinism || html.path)) {
        diag_error(REPL_NOPOS, "%s runs in the interpreter, not with --device gpu%s",
                   ck.determinism ? "--check determinism" : "--html",
                   ck.determinism ? "" : " (tritium diff --html draws the GPU's results against the interpreter's)");
        tt_settings_free(&cs);
        free(cargv);
        return REPL_EXIT_INPUT;
    }
#ifdef TRITIUM_HAVE_GPU
    repl_gpu_result gres = { 0 };
#endif
    repl_resolve_opts ro = { .need_grid = true, .settings = &cs };
    int rc = repl_target_open(&t, argc, argv, REPL_OPT_LAUNCH | REPL_OPT_CMD(TT_CMD_RUN), &ro);
    tt_settings_free(&cs);                 /* t.spec.set has them */
    if (rc) {
        repl_target_close(&t);
        free(cargv);
        return rc;
    }
    const repl_spec *s = &t.spec;
    ir_func *fn = NULL;
    interp_session *sess = NULL;
    launch *before = NULL;                 /* --bench: the tensors before the first launch */
    run_result rr = { 0 };
    tt_tensor **want = xcalloc((size_t)(s->nexpects ? s->nexpects : 1), sizeof *want);
    rc = REPL_EXIT_INPUT;

    /* read the expected tensors first: a bad file is bad input, found before a long run */
    for (int i = 0; i < s->nexpects; i++) {
        char err[256] = "";
        const launch_arg *a = find_arg(&t.launch, s->expects[i].name);
        /* an fp8 buffer names the float8 type of a '<V1' reference */
        want[i] = npy_read_as(s->expects[i].path, a && a->tensor && tt_dtype_is_fp8(a->tensor->dtype) ? a->tensor->dtype : TT_DTYPE_COUNT,
                              err, sizeof err);
        if (!want[i]) {
            diag_error(REPL_NOPOS, "--expect %s: cannot read '%s': %s", s->expects[i].name,
                       s->expects[i].path, err);
            goto out;
        }
        if (!same_shape(a->tensor, want[i])) {
            char b1[160], b2[160];
            diag_error(REPL_NOPOS, "--expect %s: '%s' holds %s but %s is %s", s->expects[i].name,
                       s->expects[i].path, tt_tensor_describe(want[i], b1, sizeof b1), a->name,
                       tt_tensor_describe(a->tensor, b2, sizeof b2));
            goto out;
        }
    }

    double tf = now_seconds(), cf = cpu_seconds();
    fn = repl_target_compile(&t);
    (void)cf;
    if (!fn) {
        goto out;
    }
#ifdef TRITIUM_HAVE_GPU
    if (gpu) {
        if (s->set.gpu_time)     /* developer knob (bench/compile_time.py --jit), as `tritium ptx` */
            fprintf(stderr, "gpu time: front %.2f ms; cpu %.2f ms\n", (now_seconds() - tf) * 1e3, (cpu_seconds() - cf) * 1e3);
        if (g_sigint) {
            fflush(stdout);
            fprintf(stderr, "tritium: interrupted before the launch started\n");
            rc = REPL_EXIT_INTERRUPTED;
            goto out;
        }
        gres.front_ms = (now_seconds() - tf) * 1e3;
        double t0 = now_seconds();
        rc = repl_gpu_execute(fn, &t.launch, &s->set, &gres);
        rr.seconds = now_seconds() - t0;
        if (rc) goto out;
        rr.gpu = &gres;
        goto ran;
    }
#endif
    (void)tf;
    interp_options io;
    interp_options_default(&io);
    io.sched = (interp_sched)s->set.schedule.v;
    io.sched_seed = repl_sched_seed(&s->set, t.launch.seed);
    io.threads = (int)s->set.threads;
    io.numerics = (tt_numerics)s->set.numerics;
    io.check_overflow = ck.overflow;
    sess = interp_session_new(fn, &t.launch, &io);
    if (!sess) goto out;
    repl_html_begin(&html, "run", t.file, fn, &t.launch, sess, io.sched, io.numerics);
    if (s->set.bench > 0) launch_copy(before = xmalloc(sizeof *before), &t.launch);
    double t0 = now_seconds(), c0 = cpu_seconds();
    g_running = sess;
    if (g_sigint) interp_interrupt(sess);   /* Ctrl-C while compiling: no program runs */
    interp_run_launch(sess);
    g_running = NULL;
    rr.seconds = now_seconds() - t0;
    rr.cpu_seconds = cpu_seconds() - c0;
    interp_get_stats(sess, &rr.st);
    repl_html_end(&html, sess);
    if (interp_interrupted(sess)) {
        /* no determinism rerun, --save or --expect on a partial launch: the summary, then 130 */
        rr.interrupted = true;
        rr.status = REPL_EXIT_INTERRUPTED;
        fflush(stdout);
        fprintf(stderr, "tritium: interrupted after %lld program%s\n", (long long)rr.st.programs,
                rr.st.programs == 1 ? "" : "s");
        if (s->set.json) print_json(&t, &rr);
        else print_text(&t, &rr);
        fflush(stdout);
        repl_html_write(&html);
        rc = REPL_EXIT_INTERRUPTED;
        goto out;
    }
    /* faults and races are misbehaviour; uninitialized reads are warnings,
     * as the interpreter classifies them */
    rc = rr.st.faults || rr.st.races || rr.st.overflows ? REPL_EXIT_KERNEL : REPL_EXIT_OK;
    if (before && rc == REPL_EXIT_OK) bench_cpu(&t.launch, sess, (int)s->set.bench, before, &rr);
    /* nondeterminism: asked for, or to say whether a race changed the result */
    if (ck.determinism || rr.st.races) {
        fflush(stdout);
        rr.nondet = repl_determinism(&t, sess, fn, argc, argv, ck.determinism ? ck.determinism : 2, io.sched,
                                     io.sched_seed, 5, stderr);
        rr.nondet_checked = true;
        if (rr.nondet < 0) rc = REPL_EXIT_INPUT;
        else if (rr.nondet > 0) rc = REPL_EXIT_KERNEL;
        else if (rr.st.races)
            fprintf(stderr, "note: the final values are the same under %s; the race did not change this launch's "
                    "result\n", ck.determinism ? "every schedule tried" : "the reverse schedule");
    }
#ifdef TRITIUM_HAVE_GPU
ran:
#endif

    for (int i = 0; i < s->nsaves; i++) {
        char err[256] = "";
        const launch_arg *a = find_arg(&t.launch, s->saves[i].name);
        if (!npy_write(s->saves[i].path, a->tensor, err, sizeof err)) {
            diag_error(REPL_NOPOS, "--save %s: cannot write '%s': %s", a->name, s->saves[i].path, err);
            rc = REPL_EXIT_INPUT;
        }
    }
    rr.exp = xcalloc((size_t)(s->nexpects ? s->nexpects : 1), sizeof *rr.exp);
    for (int i = 0; i < s->nexpects; i++) {
        const repl_check *c = &s->expects[i];
        const launch_arg *a = find_arg(&t.launch, c->name);
        repl_compare(a->tensor, want[i], c->has_rtol, c->rtol, c->has_atol, c->atol, 10, stderr, &rr.exp[i]);
        rr.exp[i].name = a->name;
        rr.nexp++;
        if (!rr.exp[i].ok && rc == REPL_EXIT_OK) rc = REPL_EXIT_KERNEL;
    }
    rr.status = rc;
    if (s->set.json) print_json(&t, &rr);
    else print_text(&t, &rr);
    fflush(stdout);
    if (!repl_html_write(&html) && rc == REPL_EXIT_OK) rc = REPL_EXIT_INPUT;
out:
    if (before) launch_free(before);
    free(before);
    for (int i = 0; i < s->nexpects; i++) if (want[i]) tt_tensor_free(want[i]);
    free(want);
    free(rr.exp);
    if (sess) interp_session_free(sess);
    if (fn) ir_func_free(fn);
    repl_target_close(&t);
    repl_html_free(&html);
    free(cargv);
    return rc;
}
