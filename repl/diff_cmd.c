/* diff_cmd.c — `tritium diff`: run a launch in the interpreter and on the GPU
 * on identical inputs and report every written element that disagrees
 * (engine: debugger/diff.c). --trials repeats with fresh random inputs and,
 * with --sizes, fresh sizes; --json prints one object for CI. */
#include "repl_gpu.h"
#include "tritium/diff.h"
#include "tritium/cuda.h"
#include "tritium/diag.h"

#include <jansson.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

/* ---- sizes ---------------------------------------------------------------- */

/* Trial `trial`'s value of size `k`: log-uniform in [lo, hi] when lo >= 1
 * (every factor of two equally likely, so small sizes come up as often as
 * large ones), else uniform. Reproducible from (seed, trial, k). */
static int64_t draw_size(const repl_size *s, uint64_t seed, int trial, int k)
{
    uint64_t st = seed * 0x100000001b3ull ^ ((uint64_t)trial << 20) ^ (uint64_t)k;
    tt_splitmix64(&st);
    uint64_t r = tt_splitmix64(&st);
    if (s->lo == s->hi) return s->lo;
    double u = (double)(r >> 11) * 0x1.0p-53;           /* [0, 1) */
    int64_t v;
    if (s->lo >= 1) {
        double a = log((double)s->lo), b = log((double)s->hi + 1.0);
        v = (int64_t)floor(exp(a + u * (b - a)));
    } else {
        v = s->lo + (int64_t)floor(u * ((double)s->hi - (double)s->lo + 1.0));
    }
    return v < s->lo ? s->lo : v > s->hi ? s->hi : v;
}

static const front_param *find_param(const repl_target *t, const char *name)
{
    for (int i = 0; i < t->nparams; i++)
        if (!strcmp(t->params[i].name, name)) return &t->params[i];
    return NULL;
}

/* --sizes names must be integer parameters given as a value, not a tensor. */
static bool check_sizes(const repl_target *t, const repl_gpu_args *g)
{
    for (int i = 0; i < g->nsizes; i++) {
        const char *nm = g->sizes[i].name;
        if (!find_param(t, nm)) {
            strbuf b = { 0 };
            for (int k = 0; k < t->nparams; k++) sb_printf(&b, "%s%s", k ? ", " : "", t->params[k].name);
            char *list = sb_take(&b);
            diag_error(REPL_NOPOS, "--sizes %s: '%s' is not a parameter of %s (parameters: %s)", nm, nm, t->kernel, list);
            free(list);
            return false;
        }
        const repl_value *v = repl_spec_value(&t->spec, nm);
        if (v && v->kind != VAL_EXPR) {
            diag_error(REPL_NOPOS, "--sizes %s: '%s' is a tensor; --sizes redraws an integer parameter that "
                       "shapes and the grid may name (e.g. --arg x=randn:f32[%s])", nm, nm, nm);
            return false;
        }
    }
    return true;
}

/* Set parameter `name`'s value text to v in the spec (adds an entry when the
 * parameter had none, e.g. a constexpr with a default). */
static bool set_value(repl_spec *s, const front_param *p, int64_t v)
{
    for (int i = 0; i < s->nvals; i++)
        if (!strcmp(s->vals[i].name, p->name)) {
            free(s->vals[i].text);
            s->vals[i].text = xasprintf("%lld", (long long)v);
            return true;
        }
    char *w[2] = { p->is_constexpr ? "--const" : "--arg", xasprintf("%s=%lld", p->name, (long long)v) };
    bool ok = repl_spec_parse(s, 2, w, REPL_OPT_LAUNCH, false, NULL);
    free(w[1]);
    return ok;
}

/* ---- JSON (the report's own: dbg_diff_json_fill) ------------------------ */

static json_t *trial_json(int trial, uint64_t seed, const repl_gpu_args *g, const int64_t *sizes,
                          const dbg_diff_report *r)
{
    json_t *o = json_object();
    json_object_set_new(o, "trial", json_integer(trial));
    json_object_set_new(o, "seed", json_integer((json_int_t)seed));
    json_t *sz = json_object();
    for (int i = 0; i < g->nsizes; i++) json_object_set_new(sz, g->sizes[i].name, json_integer(sizes[i]));
    json_object_set_new(o, "sizes", sz);
    dbg_diff_json_fill(o, r);
    return o;
}

/* ---- progress bar (stderr, only on a terminal) ----------------------------- */

static void progress(int done, int total, int bad)
{
    enum { W = 30 };
    int fill = total ? (int)((int64_t)done * W / total) : W;
    char bar[W + 1];
    for (int i = 0; i < W; i++) bar[i] = i < fill ? '#' : '.';
    bar[W] = 0;
    fprintf(stderr, "\r\033[Kdiff [%s] %d/%d trials, %d differ", bar, done, total, bad);
    fflush(stderr);
}

static void progress_clear(void)
{
    fputs("\r\033[K", stderr);
    fflush(stderr);
}

/* ---- the command ------------------------------------------------------------ */

void repl_diff_options(const repl_gpu_args *g, const repl_spec *s, uint64_t seed, dbg_diff_options *o)
{
    dbg_diff_options_default(o);
    o->numerics = g->numerics;
    o->has_rtol = g->has_rtol;
    o->rtol = g->rtol;
    o->has_atol = g->has_atol;
    o->atol = g->atol;
    o->ulp = g->ulp;
    o->max_show = g->show;
    o->arch = g->arch;
    o->mma_sync = g->mma_sync;
    o->persistent = g->persistent;
    o->sched = s->sched;
    o->sched_seed = s->has_sched_seed ? s->sched_seed : seed;
    o->threads = s->threads;
    o->against_interp = g->against_interp;
    o->other_sched = g->other_sched;
    o->other_seed = g->has_other_seed ? g->other_seed : seed + 1;
}

int repl_cmd_diff(int argc, char *const *argv)
{
    if (repl_wants_help(argc, argv)) {
        repl_gpu_print_usage(stdout, "diff");
        return REPL_EXIT_OK;
    }
    repl_gpu_args g;
    int ac;
    char **av;
    if (!repl_gpu_take(argc, argv, RG_ARCH | RG_NUMERICS | RG_DIFF, &g, &ac, &av)) return REPL_EXIT_INPUT;
    repl_target t;
    repl_resolve_opts ro = { .need_grid = true };
    int rc = repl_target_open(&t, ac, av, REPL_OPT_LAUNCH | REPL_OPT_RUN, &ro);
    free(av);
    if (rc) { repl_target_close(&t); repl_gpu_args_free(&g); return rc; }
    if (!check_sizes(&t, &g)) { rc = REPL_EXIT_INPUT; goto done; }
    /* no driver: say so before any work */
    if (!g.against_interp && cuda_init()) {
        diag_error(REPL_NOPOS, "%s", cuda_error());
        rc = REPL_EXIT_INPUT;
        goto done;
    }

    repl_spec *s = &t.spec;
    uint64_t base_seed = s->has_seed ? s->seed : 0;
    bool json = s->json;
    bool bar = g.trials > 1 && isatty(2);
    int64_t *sizes = xcalloc((size_t)g.nsizes + 1, sizeof *sizes);
    json_t *runs = json ? json_array() : NULL;
    int nbad = 0, nshown = 0;
    rc = REPL_EXIT_OK;
    ro.kernel = t.kernel;
    if (!json) {
        printf("file     %s", t.file);
        if (g.trials > 1) printf(", %d trials from seed %llu", g.trials, (unsigned long long)base_seed);
        else printf(", seed %llu", (unsigned long long)base_seed);
        printf("\n");
    }
    for (int trial = 0; trial < g.trials; trial++) {
        uint64_t seed = base_seed + (uint64_t)trial;
        /* a fresh launch: new seed, new sizes (trial 0 without --sizes is the opened one) */
        if (trial > 0 || g.nsizes) {
            bool ok = true;
            for (int k = 0; k < g.nsizes && ok; k++) {
                sizes[k] = draw_size(&g.sizes[k], base_seed, trial, k);
                ok = set_value(s, find_param(&t, g.sizes[k].name), sizes[k]);
            }
            s->has_seed = true;
            s->seed = seed;
            launch l;
            if (ok) ok = repl_resolve(s, t.params, t.nparams, &ro, &l);
            if (!ok) {
                if (bar) progress_clear();
                diag_error(REPL_NOPOS, "trial %d (seed %llu) could not be set up", trial, (unsigned long long)seed);
                rc = REPL_EXIT_INPUT;
                break;
            }
            if (t.have_launch) launch_free(&t.launch);
            t.launch = l;
            t.have_launch = true;
        }
        if (bar) progress(trial, g.trials, nbad);
        if (bar) progress_clear();   /* diagnostics must not land inside the bar */
        ir_func *fn = repl_target_compile(&t);
        if (!fn) {
            rc = REPL_EXIT_INPUT;
            break;
        }
        dbg_diff_options o;
        repl_diff_options(&g, s, seed, &o);
        if (g.trials > 1) o.max_interp_reports = 3;
        /* with a progress bar the interpreter's reports are held back and
         * printed between redraws */
        char *rbuf = NULL;
        size_t rlen = 0;
        FILE *rf = bar ? open_memstream(&rbuf, &rlen) : NULL;
        o.interp_report = rf;
        dbg_diff_report r;
        dbg_diff_run(fn, &t.launch, &o, &r);
        if (rf) {
            fclose(rf);
            if (rlen) { progress_clear(); fwrite(rbuf, 1, rlen, stderr); }
            free(rbuf);
        }
        ir_func_free(fn);
        if (r.status == 2) {
            if (bar) progress_clear();
            diag_error(REPL_NOPOS, "%s", r.message);
            dbg_diff_report_free(&r);
            rc = REPL_EXIT_INPUT;
            break;
        }
        if (r.status) { nbad++; rc = REPL_EXIT_KERNEL; }
        if (json) {
            json_array_append_new(runs, trial_json(trial, seed, &g, sizes, &r));
        } else if (g.trials == 1) {
            dbg_diff_print(stdout, &r);
        } else if (r.status) {
            /* the first three failing trials in full, the rest in one line */
            if (bar) progress_clear();
            printf("trial    %d: seed %llu", trial, (unsigned long long)seed);
            for (int k = 0; k < g.nsizes; k++) printf(", %s=%lld", g.sizes[k].name, (long long)sizes[k]);
            if (nshown++ < 3) {
                printf("\n");
                dbg_diff_print(stdout, &r);
            } else {
                printf(": %lld mismatching element%s\n", (long long)r.mismatches, r.mismatches == 1 ? "" : "s");
            }
        }
        fflush(stdout);
        dbg_diff_report_free(&r);
        if (bar) progress(trial + 1, g.trials, nbad);
    }
    if (bar) progress_clear();
    if (rc != REPL_EXIT_INPUT) {
        if (json) {
            json_t *o = json_object();
            json_object_set_new(o, "kernel", json_string(t.kernel));
            json_object_set_new(o, "file", json_string(t.file));
            json_object_set_new(o, "numerics", json_string(tt_numerics_name(g.numerics)));
            json_object_set_new(o, "trials", json_integer(g.trials));
            json_object_set_new(o, "differ", json_integer(nbad));
            json_object_set_new(o, "status", json_integer(rc));
            json_object_set_new(o, "runs", runs);
            runs = NULL;
            json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9));
            fputc('\n', stdout);
            json_decref(o);
        } else if (g.trials > 1) {
            printf("trials   %d: %d agree, %d differ\n", g.trials, g.trials - nbad, nbad);
        }
        fflush(stdout);
    }
    if (runs) json_decref(runs);
    free(sizes);
done:
    repl_target_close(&t);
    repl_gpu_args_free(&g);
    return rc;
}
