/* sched.c — the grid scheduler.
 *
 * Programs are numbered linearly, pid = (x, y, z) <-> x + gx*(y + gy*z)
 * (x fastest, as Triton's launch order). Schedules:
 *   SCHED_IN_ORDER  linear ids 0, 1, 2, ...
 *   SCHED_REVERSE   the same, backwards
 *   SCHED_RANDOM    a Fisher-Yates shuffle of the linear ids driven by
 *                   splitmix64(sched_seed): reproducible from the seed
 *                   (above 2^24 programs a table-free Feistel permutation)
 *   SCHED_PARALLEL  all cores (or options.threads): each thread has its own
 *                   value array and tile memory, buffers are shared, atomics
 *                   are real atomics and reports are serialised
 * A correct kernel gives the same result under every schedule; the shadow
 * state reports the conflicts that would make it differ. Each launch starts
 * with fresh statistics, reports and reader/writer shadow. */
#include "internal.h"

#include <unistd.h>

static void pid_of(const interp_session *s, int64_t lin, int64_t pid[3])
{
    int64_t gx = s->grid[0] ? s->grid[0] : 1, gy = s->grid[1] ? s->grid[1] : 1;
    pid[0] = lin % gx;
    pid[1] = (lin / gx) % gy;
    pid[2] = lin / gx / gy;
}

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* A seeded permutation of [0, n) without a table, for grids too large to
 * shuffle in memory: a 4-round Feistel network on the smallest even power of
 * two >= n, cycle-walking out-of-range values back into [0, n). */
typedef struct perm { int half; uint64_t mask, n, key[4]; } perm;

static void perm_init(perm *pm, uint64_t n, uint64_t seed)
{
    int bits = 2;
    while (bits < 64 && (1ull << bits) < n) bits += 2;
    pm->half = bits / 2;
    pm->mask = (1ull << pm->half) - 1;
    pm->n = n;
    for (int i = 0; i < 4; i++) pm->key[i] = splitmix64(&seed);
}

static uint64_t perm_at(const perm *pm, uint64_t x)
{
    do {
        uint64_t l = x >> pm->half, r = x & pm->mask;
        for (int i = 0; i < 4; i++) {
            uint64_t k = pm->key[i] ^ r;
            uint64_t f = splitmix64(&k) & pm->mask;
            uint64_t t = r;
            r = l ^ f;
            l = t;
        }
        x = (l << pm->half) | r;
    } while (x >= pm->n);
    return x;
}

typedef struct worker {
    interp_session *s;
    interp_prog prog;
    int64_t *next, chunk;
    int rc;
    pthread_t th;
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    interp_session *s = w->s;
    while (!s->abort) {
        int64_t lo = __atomic_fetch_add(w->next, w->chunk, __ATOMIC_RELAXED);
        if (lo >= s->nprograms) break;
        int64_t hi = lo + w->chunk < s->nprograms ? lo + w->chunk : s->nprograms;
        for (int64_t lin = lo; lin < hi && !s->abort; lin++) {
            int64_t pid[3];
            pid_of(s, lin, pid);
            if (interp_prog_run(&w->prog, pid)) {
                w->rc = -1;
                s->abort = true;
            }
        }
    }
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
    worker *w = xcalloc((size_t)nt, sizeof *w);
    s->parallel = true;
    for (int64_t t = 0; t < nt; t++) {
        w[t].s = s;
        w[t].next = &next;
        w[t].chunk = chunk;
        interp_prog_init(s, &w[t].prog);
    }
    int64_t started = 1;
    for (int64_t t = 1; t < nt; t++) {
        if (pthread_create(&w[t].th, NULL, work, &w[t]) != 0) break;   /* fewer threads then */
        started++;
    }
    work(&w[0]);
    int rc = w[0].rc;
    for (int64_t t = 1; t < started; t++) {
        pthread_join(w[t].th, NULL);
        if (w[t].rc) rc = w[t].rc;
    }
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
    s->abort = false;
    int64_t n = s->nprograms;
    int rc = 0;
    int64_t pid[3];
    switch (s->o.sched) {
    case SCHED_IN_ORDER:
        for (int64_t lin = 0; lin < n && !rc; lin++) {
            pid_of(s, lin, pid);
            rc = interp_prog_run(&s->main, pid);
        }
        break;
    case SCHED_REVERSE:
        for (int64_t lin = n - 1; lin >= 0 && !rc; lin--) {
            pid_of(s, lin, pid);
            rc = interp_prog_run(&s->main, pid);
        }
        break;
    case SCHED_RANDOM: {
        if (n > (1 << 24)) {
            perm pm;
            perm_init(&pm, (uint64_t)n, s->o.sched_seed);
            for (int64_t i = 0; i < n && !rc; i++) {
                pid_of(s, (int64_t)perm_at(&pm, (uint64_t)i), pid);
                rc = interp_prog_run(&s->main, pid);
            }
            break;
        }
        int64_t *order = xmalloc(sizeof *order * (size_t)(n ? n : 1));
        for (int64_t i = 0; i < n; i++) order[i] = i;
        uint64_t st = s->o.sched_seed;
        for (int64_t i = n - 1; i > 0; i--) {
            int64_t j = (int64_t)(splitmix64(&st) % (uint64_t)(i + 1));
            int64_t t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        for (int64_t i = 0; i < n && !rc; i++) {
            pid_of(s, order[i], pid);
            rc = interp_prog_run(&s->main, pid);
        }
        free(order);
        break;
    }
    case SCHED_PARALLEL:
        rc = n > 0 ? run_parallel(s) : 0;
        break;
    }
    s->st.seconds = now_seconds() - t0;
    interp_report_summary(s);
    return rc;
}
