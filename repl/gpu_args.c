/* gpu_args.c — take the GPU options (--device, --bench, --arch, --numerics,
 * the diff options) out of argv before the launch spec is parsed. */
#include "repl_gpu.h"
#include "tritium/diag.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

static const struct gopt {
    const char *name;
    unsigned group;
    bool takes_value;
} gopts[] = {
    { "--device", RG_DEVICE, true },
    { "--bench", RG_BENCH, true },
    { "--arch", RG_ARCH, true },
    { "--mma", RG_ARCH, true },
    { "--persistent", RG_ARCH, false },
    { "--numerics", RG_NUMERICS, true },
    { "--rtol", RG_DIFF, true },
    { "--atol", RG_DIFF, true },
    { "--ulp", RG_DIFF, true },
    { "--trials", RG_DIFF, true },
    { "--sizes", RG_DIFF, true },
    { "--show", RG_DIFF, true },
    { "--against", RG_DIFF, true },
    { "--llvm", RG_LLVM, false },
};

static bool gerr(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static bool gerr(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vat(DIAG_ERROR, REPL_NOPOS, fmt, ap);
    va_end(ap);
    return false;
}

static bool parse_count(const char *opt, const char *v, int64_t lo, int64_t hi, int64_t *out)
{
    int64_t x;
    bool u64;
    if (!repl_parse_int(v, &x, &u64) || u64 || x < lo || x > hi)
        return gerr("%s: expected an integer from %lld to %lld, got '%s'", opt, (long long)lo, (long long)hi, v);
    *out = x;
    return true;
}

static bool parse_tol(const char *opt, const char *v, double *out)
{
    double d;
    if (!repl_parse_float(v, &d) || !(d >= 0) || isinf(d))
        return gerr("%s: expected a non-negative number, got '%s'", opt, v);
    *out = d;
    return true;
}

/* NAME=LO:HI */
static bool parse_size(repl_gpu_args *g, const char *v)
{
    const char *eq = strchr(v, '=');
    const char *colon = eq ? strchr(eq + 1, ':') : NULL;
    if (!eq || !colon) return gerr("--sizes '%s': expected NAME=LO:HI, as in n_elements=1:100000", v);
    size_t n = (size_t)(eq - v);
    bool ident = n > 0 && (isalpha((unsigned char)v[0]) || v[0] == '_');
    for (size_t i = 0; i < n && ident; i++) ident = isalnum((unsigned char)v[i]) || v[i] == '_';
    if (!ident) return gerr("--sizes '%s': '%.*s' is not a parameter name", v, (int)n, v);
    char *lo = xstrndup(eq + 1, (size_t)(colon - eq - 1));
    int64_t a, b;
    bool u1, u2;
    bool ok = repl_parse_int(lo, &a, &u1) && !u1 && repl_parse_int(colon + 1, &b, &u2) && !u2;
    free(lo);
    if (!ok) return gerr("--sizes '%s': LO and HI must be integers", v);
    if (a > b) return gerr("--sizes '%s': LO is larger than HI", v);
    for (int i = 0; i < g->nsizes; i++)
        if (strlen(g->sizes[i].name) == n && !strncmp(g->sizes[i].name, v, n))
            return gerr("--sizes: '%.*s' was given twice", (int)n, v);
    g->sizes = xrealloc(g->sizes, (size_t)(g->nsizes + 1) * sizeof *g->sizes);
    g->sizes[g->nsizes++] = (repl_size){ xstrndup(v, n), a, b };
    return true;
}

/* One option; v is NULL for a flag. */
static bool apply(repl_gpu_args *g, const char *opt, const char *v)
{
    int64_t x = 0;                     /* set by parse_count(); GCC -O3 cannot see it */
    if (!strcmp(opt, "--llvm")) {
        g->llvm = true;
    } else if (!strcmp(opt, "--persistent")) {
        g->persistent = true;
    } else if (!strcmp(opt, "--device")) {
        if (!strcmp(v, "gpu") || !strcmp(v, "cuda")) g->gpu = true;
        else if (!strcmp(v, "cpu")) g->gpu = false;
        else return gerr("--device: expected cpu or gpu, got '%s'", v);
    } else if (!strcmp(opt, "--bench")) {
        if (!parse_count(opt, v, 1, 1000000, &x)) return false;
        g->bench = (int)x;
    } else if (!strcmp(opt, "--arch")) {
        int sm = 0;
        char tail = 0;
        int k = sscanf(v, "sm_%d%c", &sm, &tail);
        /* sm_90a: Hopper's arch-specific target, the only one LLVM 19 has */
        if (!(k == 1 || (k == 2 && tail == 'a' && sm == 90 && !strcmp(v + strlen(v) - 1, "a") &&
                         strchr(v, 'a') == v + strlen(v) - 1)) || sm < 50)
            return gerr("--arch: expected sm_NN with NN >= 50, or sm_90a (e.g. sm_80), got '%s'", v);
        g->arch = v;
    } else if (!strcmp(opt, "--mma")) {
        if (!strcmp(v, "wgmma")) g->mma_sync = 0;
        else if (!strcmp(v, "sync")) g->mma_sync = 1;
        else return gerr("--mma: expected wgmma or sync, got '%s'", v);
    } else if (!strcmp(opt, "--numerics")) {
        g->has_numerics = true;
        if (!tt_numerics_parse(v, &g->numerics))
            return gerr("--numerics: unknown mode '%s' (expected ieee or fast; gpu is an alias of fast)", v);
    } else if (!strcmp(opt, "--rtol")) {
        g->has_rtol = true;
        return parse_tol(opt, v, &g->rtol);
    } else if (!strcmp(opt, "--atol")) {
        g->has_atol = true;
        return parse_tol(opt, v, &g->atol);
    } else if (!strcmp(opt, "--ulp")) {
        if (!parse_count(opt, v, 0, INT64_MAX, &x)) return false;
        g->ulp = x;
    } else if (!strcmp(opt, "--trials")) {
        if (!parse_count(opt, v, 1, 1000000, &x)) return false;
        g->trials = (int)x;
    } else if (!strcmp(opt, "--show")) {
        if (!parse_count(opt, v, 1, 10, &x)) return false;
        g->show = (int)x;
    } else if (!strcmp(opt, "--sizes")) {
        return parse_size(g, v);
    } else if (!strcmp(opt, "--against")) {
        g->against_interp = true;
        g->has_other_seed = false;
        if (!strcmp(v, "gpu")) g->against_interp = false;
        else if (!strcmp(v, "in-order")) g->other_sched = SCHED_IN_ORDER;
        else if (!strcmp(v, "reverse")) g->other_sched = SCHED_REVERSE;
        else if (!strcmp(v, "parallel")) g->other_sched = SCHED_PARALLEL;
        else if (!strcmp(v, "random")) g->other_sched = SCHED_RANDOM;
        else if (!strncmp(v, "random:", 7) && parse_count(opt, v + 7, 0, INT64_MAX, &x)) {
            g->other_sched = SCHED_RANDOM;
            g->has_other_seed = true;
            g->other_seed = (uint64_t)x;
        } else {
            return gerr("--against: expected gpu, in-order, reverse, random[:SEED] or parallel, got '%s'", v);
        }
    }
    return true;
}

bool repl_gpu_take(int argc, char *const *argv, unsigned which, repl_gpu_args *g, int *rargc, char ***rargv)
{
    memset(g, 0, sizeof *g);
    *rargc = 0;                        /* defined on failure too: callers free *rargv */
    *rargv = NULL;
    g->ulp = -1;
    g->trials = 1;
    g->mma_sync = -1;
    g->numerics = NUMERICS_IEEE;
    char **rest = xcalloc((size_t)argc + 1, sizeof *rest);
    int nr = 0;
    for (int i = 0; i < argc; i++) {
        const char *w = argv[i];
        const char *eq = strchr(w, '=');
        size_t n = eq ? (size_t)(eq - w) : strlen(w);
        const struct gopt *o = NULL;
        if (w[0] == '-' && w[1] == '-')
            for (size_t k = 0; k < TT_COUNTOF(gopts); k++)
                if ((gopts[k].group & which) && strlen(gopts[k].name) == n && !strncmp(gopts[k].name, w, n))
                    o = &gopts[k];
        if (!o) {
            rest[nr++] = (char *)w;
            /* the value of a launch-spec option is never one of ours */
            const repl_option *so = eq ? NULL : repl_spec_option(w);
            if (so && so->takes_value && i + 1 < argc) rest[nr++] = (char *)argv[++i];
            continue;
        }
        const char *v = NULL;
        if (o->takes_value) {
            if (eq) v = eq + 1;
            else if (i + 1 < argc) v = argv[++i];
            else { free(rest); repl_gpu_args_free(g); return gerr("option '%s' needs a value", o->name); }
        } else if (eq) {
            free(rest);
            repl_gpu_args_free(g);
            return gerr("option '%s' takes no value", o->name);
        }
        if (!apply(g, o->name, v)) { free(rest); repl_gpu_args_free(g); return false; }
    }
    *rargc = nr;
    *rargv = rest;
    return true;
}

void repl_gpu_args_free(repl_gpu_args *g)
{
    for (int i = 0; i < g->nsizes; i++) free(g->sizes[i].name);
    free(g->sizes);
    g->sizes = NULL;
    g->nsizes = 0;
}

bool repl_gpu_take_run(int *argc, char *const **argv, repl_gpu_args *g, char ***keep)
{
    *keep = NULL;
    /* a first pass for --device alone decides what else is ours */
    int ac;
    char **av;
    if (!repl_gpu_take(*argc, *argv, RG_DEVICE, g, &ac, &av)) return false;
    free(av);
    bool gpu = g->gpu;
    if (!repl_gpu_take(*argc, *argv, RG_DEVICE | RG_BENCH | RG_ARCH | (gpu ? RG_NUMERICS : 0), g, &ac, &av))
        return false;
    if (!gpu && (g->arch || g->mma_sync >= 0 || g->persistent)) {          /* --bench times the interpreter too */
        free(av);
        return gerr("%s needs --device gpu", g->arch ? "--arch" : g->persistent ? "--persistent" : "--mma");
    }
    *argc = ac;
    *argv = av;
    *keep = av;
    return true;
}
