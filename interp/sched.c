/* sched.c — the grid scheduler.
 *
 * Programs are numbered linearly, pid = (x, y, z) <-> x + gx*(y + gy*z)
 * (x fastest, as Triton's launch order). Schedules:
 *   SCHED_IN_ORDER  linear ids 0, 1, 2, ...
 *   SCHED_REVERSE   the same, backwards
 *   SCHED_RANDOM    a seeded table-free permutation of the linear ids
 *                   (interp_order_at): reproducible from the seed, and the
 *                   same order as the debugger's `schedule random SEED`
 *   SCHED_PARALLEL  all cores (or options.threads): each thread has its own
 *                   value array and tile memory, buffers are shared, atomics
 *                   are real atomics and reports are serialised
 * A correct kernel gives the same result under every schedule; the shadow
 * state reports the conflicts that would make it differ. Each launch starts
 * with fresh statistics, reports and reader/writer shadow. */
#include "internal.h"

#include <string.h>
#include <unistd.h>

void interp_pid_of(const int64_t grid[3], int64_t lin, int64_t pid[3])
{
    int64_t gx = grid[0] > 0 ? grid[0] : 1, gy = grid[1] > 0 ? grid[1] : 1;
    pid[0] = lin % gx;
    pid[1] = (lin / gx) % gy;
    pid[2] = lin / gx / gy;
}

int64_t interp_lin_of(const int64_t grid[3], const int64_t pid[3])
{
    int64_t gx = grid[0] > 0 ? grid[0] : 1, gy = grid[1] > 0 ? grid[1] : 1;
    return pid[0] + gx * (pid[1] + gy * pid[2]);
}

void interp_order_init(interp_order *o, interp_sched kind, uint64_t seed, int64_t n)
{
    memset(o, 0, sizeof *o);
    o->kind = kind;
    o->n = n > 0 ? n : 0;
    if (kind != SCHED_RANDOM) return;
    int bits = 2;
    while (bits < 64 && (1ull << bits) < (uint64_t)o->n) bits += 2;
    o->half = bits / 2;
    o->mask = (1ull << o->half) - 1;
    for (int i = 0; i < 4; i++) o->key[i] = tt_splitmix64(&seed);
}

/* One Feistel pass over [0, 4^half); a bijection, so cycle-walking ends. */
static uint64_t feistel(const interp_order *o, uint64_t x)
{
    uint64_t l = x >> o->half, r = x & o->mask;
    for (int i = 0; i < 4; i++) {
        uint64_t k = o->key[i] ^ r;
        uint64_t f = tt_splitmix64(&k) & o->mask;
        uint64_t t = r;
        r = l ^ f;
        l = t;
    }
    return (l << o->half) | r;
}

int64_t interp_order_at(const interp_order *o, int64_t i)
{
    switch (o->kind) {
    case SCHED_REVERSE: return o->n - 1 - i;
    case SCHED_RANDOM: {
        uint64_t x = (uint64_t)i;
        do x = feistel(o, x); while (x >= (uint64_t)o->n);
        return (int64_t)x;
    }
    default: return i;
    }
}

int64_t interp_sched_at(interp_sched kind, uint64_t seed, int64_t n, int64_t i)
{
    interp_order o;
    interp_order_init(&o, kind, seed, n);
    return interp_order_at(&o, i);
}

/* Each worker on lines of its own: its program state (the op being run,
 * the tile stack) is written at every op (interp_line_alloc). Workers start
 * as a binary tree (worker t starts 2t+1 and 2t+2, then works, then joins
 * them): with 16 threads the last starts after 4 thread creations instead
 * of 15 on the calling thread, which matters for launches of a few ms. */
typedef struct worker {
    _Alignas(INTERP_LINE) interp_session *s;
    struct worker *all;
    int64_t id, n;
    interp_prog prog;
    int64_t *next, chunk;
    int rc;
    bool started;
    pthread_t th;
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    interp_session *s = w->s;
    for (int64_t c = 2 * w->id + 1; c <= 2 * w->id + 2 && c < w->n; c++)
        w->all[c].started = pthread_create(&w->all[c].th, NULL, work, &w->all[c]) == 0;
    while (!TRAP_GET(s->abort)) {
        int64_t lo = __atomic_fetch_add(w->next, w->chunk, __ATOMIC_RELAXED);
        if (lo >= s->nprograms) break;
        int64_t hi = lo + w->chunk < s->nprograms ? lo + w->chunk : s->nprograms;
        for (int64_t lin = lo; lin < hi && !TRAP_GET(s->abort); lin++) {
            int64_t pid[3];
            interp_pid_of(s->grid, lin, pid);
            if (interp_prog_run(&w->prog, pid)) {
                w->rc = -1;
                TRAP_SET(s->abort, true);
            }
        }
    }
    /* a child that could not start leaves its subtree's programs to the
     * others (fewer threads then); its rc stays 0 */
    for (int64_t c = 2 * w->id + 1; c <= 2 * w->id + 2 && c < w->n; c++)
        if (w->all[c].started) pthread_join(w->all[c].th, NULL);
    return NULL;
}

static int run_parallel(interp_session *s)
{
    int64_t nt = s->o.threads > 0 ? s->o.threads : sysconf(_SC_NPROCESSORS_ONLN);
    if (nt < 1) nt = 1;
    if (nt > s->nprograms) nt = s->nprograms;
    if (nt > 1024) nt = 1024;
    int64_t next = 0, chunk = s->nprograms / (nt * 16);
    if (chunk < 1) chunk = 1;
    if (chunk > 64) chunk = 64;
    worker *w = interp_line_alloc((size_t)nt * sizeof *w);
    s->parallel = true;
    for (int64_t t = 0; t < nt; t++) {
        w[t].s = s;
        w[t].all = w;
        w[t].id = t;
        w[t].n = nt;
        w[t].next = &next;
        w[t].chunk = chunk;                    /* rc and started: zero (interp_line_alloc) */
        interp_prog_init(s, &w[t].prog);
    }
    work(&w[0]);                               /* starts and joins the others */
    int rc = 0;
    for (int64_t t = 0; t < nt; t++)
        if (w[t].rc) rc = w[t].rc;
    s->parallel = false;
    for (int64_t t = 0; t < nt; t++) interp_prog_free(&w[t].prog);
    free(w);
    return rc;
}

int interp_run_launch(interp_session *s)
{
    double t0 = now_seconds();
    interp_report_reset(s);
    interp_shadow_clear(s);
    TRAP_SET(s->abort, false);
    int64_t n = s->nprograms;
    int rc = 0;
    if (s->o.sched == SCHED_PARALLEL) {
        rc = n > 0 ? run_parallel(s) : 0;
    } else {
        interp_order ord;
        interp_order_init(&ord, s->o.sched, s->o.sched_seed, n);
        for (int64_t i = 0; i < n && !rc; i++) {
            int64_t pid[3];
            interp_pid_of(s->grid, interp_order_at(&ord, i), pid);
            rc = interp_prog_run(&s->main, pid);
        }
    }
    s->st.seconds = now_seconds() - t0;
    interp_report_summary(s);
    return rc;
}
