/* determinism.c — `tritium run --check determinism[=N]` and the note after a
 * race report: run the launch again from fresh inputs under other schedules
 * (reverse, then seeded random orders), which also changes the order in which
 * the programs' atomics reach memory, and report every output element whose
 * final bits differ, with the program and line that wrote it in each run.
 * A result that depends on the order (a ticket counter, a CAS claim, a float
 * atomic_add reduction, a race) passes every single sequential run. */
#include "repl.h"
#include "tritium/diag.h"

#include <inttypes.h>
#include <string.h>

/* A fresh launch of the same command line run under one schedule. */
typedef struct drun {
    repl_target t;
    ir_func *fn;
    interp_session *s;
    const char *label;
    char name[32];
} drun;

static const char *sched_label(interp_sched s, uint64_t seed, char *buf, size_t n)
{
    if (s != SCHED_RANDOM) return interp_sched_name(s);
    snprintf(buf, n, "random:%" PRIu64, seed);
    return buf;
}

static bool drun_start(drun *r, int argc, char *const *argv, interp_sched sched, uint64_t seed)
{
    memset(r, 0, sizeof *r);
    repl_resolve_opts ro = { .need_grid = true };
    if (repl_target_open(&r->t, argc, argv, REPL_OPT_LAUNCH | REPL_OPT_CMD(TT_CMD_RUN), &ro) != REPL_EXIT_OK) return false;
    r->fn = repl_target_compile(&r->t);
    if (!r->fn) return false;
    interp_options io;
    interp_options_default(&io);
    io.sched = sched;
    io.sched_seed = seed;
    io.numerics = (tt_numerics)r->t.spec.set.numerics;
    io.check_races = false;                  /* the first run reported them */
    io.check_uninit = false;
    io.report = fopen("/dev/null", "w");     /* faults too: reported once, by the first run */
    r->s = interp_session_new(r->fn, &r->t.launch, &io);
    if (!r->s) {
        if (io.report) fclose(io.report);
        return false;
    }
    interp_run_launch(r->s);
    if (io.report) fclose(io.report);
    r->label = sched_label(sched, seed, r->name, sizeof r->name);
    return true;
}

static void drun_end(drun *r)
{
    if (r->s) interp_session_free(r->s);
    if (r->fn) ir_func_free(r->fn);
    repl_target_close(&r->t);
}

static void writer_text(interp_session *s, const ir_func *fn, const int64_t grid[3], int arg, int64_t elem,
                        char *buf, size_t n)
{
    int64_t prog;
    int32_t loc;
    if (!interp_last_writer(s, arg, elem, &prog, &loc)) {
        snprintf(buf, n, "not written");
        return;
    }
    int64_t pid[3];
    interp_pid_of(grid, prog, pid);
    if (loc >= 0 && loc < fn->locs.n) {
        const ir_loc *lc = &fn->locs.v[loc];
        snprintf(buf, n, "written by program (%" PRId64 ", %" PRId64 ", %" PRId64 ") at %s:%d:%d", pid[0], pid[1],
                 pid[2], diag_file_name(lc->file), lc->line, lc->col);
    } else {
        snprintf(buf, n, "written by program (%" PRId64 ", %" PRId64 ", %" PRId64 ")", pid[0], pid[1], pid[2]);
    }
}

static void value_text(const tt_tensor *t, int64_t e, char *buf, size_t n)
{
    size_t es = tt_dtype_size(t->dtype);
    const unsigned char *p = (const unsigned char *)t->data + (size_t)e * es;
    double v = 0;
    switch (t->dtype) {
    case TT_F32: { float f; memcpy(&f, p, 4); v = f; snprintf(buf, n, "%.9g", v); return; }
    case TT_F64: memcpy(&v, p, 8); snprintf(buf, n, "%.17g", v); return;
    default: break;
    }
    if (tt_dtype_is_float(t->dtype)) {
        uint16_t h;
        memcpy(&h, p, 2);
        snprintf(buf, n, "0x%04x (bits)", h);
        return;
    }
    int64_t iv = 0;
    uint64_t uv = 0;
    memcpy(&uv, p, es);
    if (tt_dtype_is_signed(t->dtype) && es < 8) {
        int sh = 64 - 8 * (int)es;
        iv = (int64_t)(uv << sh) >> sh;
    } else {
        iv = (int64_t)uv;
    }
    snprintf(buf, n, "%" PRId64, iv);
}

/* The k-th schedule (k >= 1) that differs from the first run's: in-order,
 * reverse, random:0, random:1, ... without base's. */
static void nth_schedule(int k, interp_sched base, uint64_t base_seed, interp_sched *sched, uint64_t *seed)
{
    int i = 0;
    for (int c = 0;; c++) {
        interp_sched sc = c == 0 ? SCHED_IN_ORDER : c == 1 ? SCHED_REVERSE : SCHED_RANDOM;
        uint64_t sd = c >= 2 ? (uint64_t)(c - 2) : 0;
        bool same = sc == base || (sc == SCHED_IN_ORDER && base == SCHED_PARALLEL);
        if (sc == SCHED_RANDOM) same = base == SCHED_RANDOM && sd == base_seed;
        if (same) continue;
        if (++i == k) {
            *sched = sc;
            *seed = sd;
            return;
        }
    }
}


int64_t repl_determinism(const repl_target *base, interp_session *base_s, const ir_func *base_fn, int argc,
                         char *const *argv, int runs, interp_sched base_sched, uint64_t base_seed, int show, FILE *out)
{
    int64_t total = 0;
    char bl[40];
    const char *base_label = sched_label(base_sched, base_seed, bl, sizeof bl);
    for (int k = 1; k < runs; k++) {
        drun r;
        interp_sched sc;
        uint64_t sd;
        nth_schedule(k, base_sched, base_seed, &sc, &sd);
        bool ok = drun_start(&r, argc, argv, sc, sd);
        if (!ok) {
            drun_end(&r);
            return -1;
        }
        for (int a = 0; a < base->launch.nargs; a++) {
            const launch_arg *la = &base->launch.args[a];
            if (la->kind != ARG_TENSOR) continue;
            const tt_tensor *x = la->tensor, *y = r.t.launch.args[a].tensor;
            size_t es = tt_dtype_size(x->dtype);
            int64_t n = tt_tensor_numel(x), diff = 0;
            for (int64_t e = 0; e < n; e++) {
                const unsigned char *p = (const unsigned char *)x->data + (size_t)e * es;
                const unsigned char *q = (const unsigned char *)y->data + (size_t)e * es;
                if (!memcmp(p, q, es)) continue;
                if (diff++ >= show) continue;
                char idx[TT_INDEX_STR_LEN + 64], v1[64], v2[64], w1[160], w2[160];
                size_t len = (size_t)snprintf(idx, sizeof idx, "%s", la->name);
                if (x->rank <= 1) {
                    int64_t fs[1] = { 0 };
                    tt_index_str(fs, 1, e, idx + len, sizeof idx - len);
                } else {
                    tt_index_str(x->shape, x->rank, e, idx + len, sizeof idx - len);
                }
                value_text(x, e, v1, sizeof v1);
                value_text(y, e, v2, sizeof v2);
                writer_text(base_s, base_fn, base->launch.grid, a, e, w1, sizeof w1);
                writer_text(r.s, r.fn, r.t.launch.grid, a, e, w2, sizeof w2);
                fprintf(out, "error: nondeterministic result: %s differs between schedules %s and %s\n", idx,
                        base_label, r.label);
                fprintf(out, "  %-12s %s, %s\n", base_label, v1, w1);
                fprintf(out, "  %-12s %s, %s\n", r.label, v2, w2);
            }
            if (diff > show)
                fprintf(out, "  ... %" PRId64 " elements of %s differ between %s and %s in all\n", diff, la->name,
                        base_label, r.label);
            total += diff;
        }
        drun_end(&r);
        if (total) break;                    /* one differing schedule is the answer */
    }
    return total;
}
