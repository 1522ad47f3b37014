/* diff_cmd.c — `tritium diff`: run a launch in the interpreter and on the GPU
 * on identical inputs and report every written element that disagrees
 * (engine: debugger/diff.c). --trials repeats with fresh random inputs and,
 * with --sizes, fresh sizes; --json prints one object for CI. */
#include "repl_gpu.h"
#include "repl_html.h"
#include "tritium/diff.h"
#include "tritium/cuda.h"
#include "tritium/diag.h"

#include <ctype.h>
#include <jansson.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

/* ---- sizes ---------------------------------------------------------------- */

/* `--sizes NAME=LO:HI`: each trial redraws NAME's value. */
typedef struct repl_size {
    char *name;
    int64_t lo, hi;
} repl_size;

typedef struct size_list {
    repl_size *v;
    int n;
} size_list;

static void sizes_free(size_list *z)
{
    for (int i = 0; i < z->n; i++) free(z->v[i].name);
    free(z->v);
}

/* NAME=LO:HI, each --sizes of the settings */
static bool parse_sizes(const tt_settings *st, size_list *z)
{
    for (int k = 0; k < st->sizes.n; k++) {
        const char *v = st->sizes.v[k];
        const char *eq = strchr(v, '=');
        const char *colon = eq ? strchr(eq + 1, ':') : NULL;
        if (!eq || !colon) return diag_error(REPL_NOPOS, "--sizes '%s': expected NAME=LO:HI, as in n_elements=1:100000", v), false;
        size_t n = (size_t)(eq - v);
        bool ident = n > 0 && (isalpha((unsigned char)v[0]) || v[0] == '_');
        for (size_t i = 0; i < n && ident; i++) ident = isalnum((unsigned char)v[i]) || v[i] == '_';
        if (!ident) return diag_error(REPL_NOPOS, "--sizes '%s': '%.*s' is not a parameter name", v, (int)n, v), false;
        char *lo = xstrndup(eq + 1, (size_t)(colon - eq - 1));
        int64_t a, b;
        bool u1, u2;
        bool ok = repl_parse_int(lo, &a, &u1) && !u1 && repl_parse_int(colon + 1, &b, &u2) && !u2;
        free(lo);
        if (!ok) return diag_error(REPL_NOPOS, "--sizes '%s': LO and HI must be integers", v), false;
        if (a > b) return diag_error(REPL_NOPOS, "--sizes '%s': LO is larger than HI", v), false;
        for (int i = 0; i < z->n; i++)
            if (strlen(z->v[i].name) == n && !strncmp(z->v[i].name, v, n))
                return diag_error(REPL_NOPOS, "--sizes: '%.*s' was given twice", (int)n, v), false;
        z->v = xrealloc(z->v, (size_t)(z->n + 1) * sizeof *z->v);
        z->v[z->n++] = (repl_size){ xstrndup(v, n), a, b };
    }
    return true;
}

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
static bool check_sizes(const repl_target *t, const size_list *z)
{
    for (int i = 0; i < z->n; i++) {
        const char *nm = z->v[i].name;
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

static json_t *trial_json(int trial, uint64_t seed, const size_list *z, const int64_t *sizes,
                          const dbg_diff_report *r)
{
    json_t *o = json_object();
    json_object_set_new(o, "trial", json_integer(trial));
    json_object_set_new(o, "seed", json_integer((json_int_t)seed));
    json_t *sz = json_object();
    for (int i = 0; i < z->n; i++) json_object_set_new(sz, z->v[i].name, json_integer(sizes[i]));
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

void repl_diff_options(const tt_settings *s, uint64_t seed, dbg_diff_options *o)
{
    dbg_diff_options_default(o);
    o->numerics = (tt_numerics)s->numerics;
    o->has_rtol = tt_settings_given(s, TT_SET_RTOL);
    o->rtol = s->rtol;
    o->has_atol = tt_settings_given(s, TT_SET_ATOL);
    o->atol = s->atol;
    o->ulp = tt_settings_given(s, TT_SET_ULP) ? s->ulp : -1;
    o->max_show = (int)s->show;
    o->arch = s->arch;
    o->mma_sync = s->mma_sync;
    o->persistent = s->persistent;
    o->sched = (interp_sched)s->schedule.v;
    o->sched_seed = repl_sched_seed(s, seed);
    o->threads = (int)s->threads;
    o->against_interp = s->against.v != TT_AGAINST_GPU;
    /* the against row's values after gpu are the schedules, in interp_sched's order */
    o->other_sched = o->against_interp ? (interp_sched)(s->against.v - TT_AGAINST_IN_ORDER) : SCHED_IN_ORDER;
    o->other_seed = s->against.has_n ? s->against.n : seed + 1;
}

int repl_cmd_diff(int argc, char *const *argv)
{
    if (repl_wants_help(argc, argv)) {
        repl_gpu_print_usage(stdout, "diff");
        return REPL_EXIT_OK;
    }
    /* diff's settings outside the launch spec: --rtol, --atol, --ulp, --trials, --sizes, --arch, ... */
    tt_settings cs;
    tt_settings_copy(&cs, tt_settings_env());
    int ac;
    char **av;
    size_list z = { 0 };
    if (!repl_settings_take(argc, argv, TT_CMD_DIFF, false, &cs, &ac, &av) || !parse_sizes(&cs, &z)) {
        free(av);
        sizes_free(&z);
        tt_settings_free(&cs);
        return REPL_EXIT_INPUT;
    }
    repl_target t;
    repl_resolve_opts ro = { .need_grid = true, .settings = &cs };
    int rc = repl_target_open(&t, ac, av, REPL_OPT_LAUNCH | REPL_OPT_CMD(TT_CMD_DIFF), &ro);
    free(av);
    tt_settings_free(&cs);
    if (rc) { repl_target_close(&t); sizes_free(&z); return rc; }
    const tt_settings *st = &t.spec.set;
    int trials = (int)st->trials;
    repl_html html;                        /* --html FILE: the page of the launch (every trial's) */
    repl_html_init(&html, st->html);
    if (!check_sizes(&t, &z)) { rc = REPL_EXIT_INPUT; goto done; }
    /* no driver: say so before any work */
    if (st->against.v == TT_AGAINST_GPU && cuda_init()) {
        diag_error(REPL_NOPOS, "%s", cuda_error());
        rc = REPL_EXIT_INPUT;
        goto done;
    }

    repl_spec *s = &t.spec;
    uint64_t base_seed = st->seed;
    bool json = st->json;
    bool bar = trials > 1 && isatty(2);
    int64_t *sizes = xcalloc((size_t)z.n + 1, sizeof *sizes);
    json_t *runs = json ? json_array() : NULL;
    int nbad = 0, nshown = 0;
    rc = REPL_EXIT_OK;
    ro.kernel = t.kernel;
    if (!json) {
        printf("file     %s", t.file);
        if (trials > 1) printf(", %d trials from seed %llu", trials, (unsigned long long)base_seed);
        else printf(", seed %llu", (unsigned long long)base_seed);
        printf("\n");
    }
    for (int trial = 0; trial < trials; trial++) {
        uint64_t seed = base_seed + (uint64_t)trial;
        /* a fresh launch: new seed, new sizes (trial 0 without --sizes is the opened one) */
        if (trial > 0 || z.n) {
            bool ok = true;
            for (int k = 0; k < z.n && ok; k++) {
                sizes[k] = draw_size(&z.v[k], base_seed, trial, k);
                ok = set_value(s, find_param(&t, z.v[k].name), sizes[k]);
            }
            s->set.seed = seed;
            s->set.src[TT_SET_SEED] = TT_SRC_ARGV;
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
        if (bar) progress(trial, trials, nbad);
        if (bar) progress_clear();   /* diagnostics must not land inside the bar */
        ir_func *fn = repl_target_compile(&t);
        if (!fn) {
            rc = REPL_EXIT_INPUT;
            break;
        }
        dbg_diff_options o;
        repl_diff_options(st, seed, &o);
        if (trials > 1) o.max_interp_reports = 3;
        char label[64];
        snprintf(label, sizeof label, "trial %d, seed %llu", trial, (unsigned long long)seed);
        repl_html_watch_diff(&html, "diff", t.file, trials > 1 ? label : NULL, fn, &o);
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
            json_array_append_new(runs, trial_json(trial, seed, &z, sizes, &r));
        } else if (trials == 1) {
            dbg_diff_print(stdout, &r);
        } else if (r.status) {
            /* the first three failing trials in full, the rest in one line */
            if (bar) progress_clear();
            printf("trial    %d: seed %llu", trial, (unsigned long long)seed);
            for (int k = 0; k < z.n; k++) printf(", %s=%lld", z.v[k].name, (long long)sizes[k]);
            if (nshown++ < 3) {
                printf("\n");
                dbg_diff_print(stdout, &r);
            } else {
                printf(": %lld mismatching element%s\n", (long long)r.mismatches, r.mismatches == 1 ? "" : "s");
            }
        }
        fflush(stdout);
        dbg_diff_report_free(&r);
        if (bar) progress(trial + 1, trials, nbad);
    }
    if (bar) progress_clear();
    if (rc != REPL_EXIT_INPUT) {
        if (json) {
            json_t *o = json_object();
            json_object_set_new(o, "kernel", json_string(t.kernel));
            json_object_set_new(o, "file", json_string(t.file));
            json_object_set_new(o, "numerics", json_string(tt_numerics_name((tt_numerics)st->numerics)));
            json_object_set_new(o, "trials", json_integer(trials));
            json_object_set_new(o, "differ", json_integer(nbad));
            json_object_set_new(o, "status", json_integer(rc));
            json_object_set_new(o, "runs", runs);
            runs = NULL;
            json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9));
            fputc('\n', stdout);
            json_decref(o);
        } else if (trials > 1) {
            printf("trials   %d: %d agree, %d differ\n", trials, trials - nbad, nbad);
        }
        fflush(stdout);
    }
    if (runs) json_decref(runs);
    free(sizes);
    if (!repl_html_write(&html) && rc == REPL_EXIT_OK) rc = REPL_EXIT_INPUT;
done:
    repl_html_free(&html);
    repl_target_close(&t);
    sizes_free(&z);
    return rc;
}
