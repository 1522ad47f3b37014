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
 *                   are real atomics and reports are serialised. The threads
 *                   and their state are the session's pool, made at its
 *                   first parallel launch and kept until it is freed (or a
 *                   launch asks for another count), so a launch of a few ms
 *                   does not pay thread creation and fresh pages each time
 * A correct kernel gives the same result under every schedule; the shadow
 * state reports the conflicts that would make it differ. Each launch starts
 * with fresh statistics, reports and reader/writer shadow. */
#include "internal.h"

#include <string.h>
#include <unistd.h>

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

const char *interp_sched_name(interp_sched kind)
{
    static const char *const names[] = { "in-order", "reverse", "random", "parallel" };
    return kind >= SCHED_IN_ORDER && kind <= SCHED_PARALLEL ? names[kind] : "?";
}

int64_t interp_sched_at(interp_sched kind, uint64_t seed, int64_t n, int64_t i)
{
    interp_order o;
    interp_order_init(&o, kind, seed, n);
    return interp_order_at(&o, i);
}

/* The session's worker pool. Threads live as long as the session (or until
 * a launch asks for another thread count): a launch bumps `gen` to wake
 * them and waits until `running` is back to 0, so warm launches pay neither
 * thread creation nor first-touch page faults of fresh tile memory.
 * interp_prog_init depends only on the session (s->nvals, fixed by its
 * function), so a worker's program state stays valid; interp_prog_run
 * resets it per program. Each worker on lines of its own: its program state
 * (the op being run, the tile stack) is written at every op
 * (interp_line_alloc). */
typedef struct worker {
    _Alignas(INTERP_LINE) struct interp_pool *pool;
    interp_prog prog;
    int rc;                        /* this launch's; reset by the caller */
    bool started;
    pthread_t th;
} worker;

struct interp_pool {
    _Alignas(INTERP_LINE) int64_t next;   /* the launch's next program: on a line of its own */
    _Alignas(INTERP_LINE) interp_session *s;
    worker *w;                     /* w[0] is the calling thread */
    int64_t n, chunk;
    int nvals;                     /* what the progs were made for */
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    uint64_t gen;                  /* launch generation, under mu */
    int64_t running, alive;        /* threads still in this launch; threads started */
    bool quit;
};

/* One launch's share of a worker: chunks of programs from the shared counter
 * until none are left or a program aborts the launch. */
static void work(worker *w)
{
    interp_pool *pl = w->pool;
    interp_session *s = pl->s;
    while (!TRAP_GET(s->abort)) {
        int64_t lo = __atomic_fetch_add(&pl->next, pl->chunk, __ATOMIC_RELAXED);
        if (lo >= s->nprograms) break;
        int64_t hi = lo + pl->chunk < s->nprograms ? lo + pl->chunk : s->nprograms;
        for (int64_t lin = lo; lin < hi && !TRAP_GET(s->abort); lin++) {
            int64_t pid[3];
            interp_pid_of(s->grid, lin, pid);
            if (interp_prog_run(&w->prog, pid)) {
                w->rc = -1;
                TRAP_SET(s->abort, true);
            }
        }
    }
}

/* A pool thread: one work() per generation until told to quit. */
static void *pool_thread(void *arg)
{
    worker *w = arg;
    interp_pool *pl = w->pool;
    uint64_t seen = 0;
    pthread_mutex_lock(&pl->mu);
    for (;;) {
        while (pl->gen == seen && !pl->quit) pthread_cond_wait(&pl->go, &pl->mu);
        if (pl->quit) break;
        seen = pl->gen;
        pthread_mutex_unlock(&pl->mu);
        work(w);
        pthread_mutex_lock(&pl->mu);
        if (--pl->running == 0) pthread_cond_signal(&pl->done);
    }
    pthread_mutex_unlock(&pl->mu);
    return NULL;
}

void interp_pool_free(interp_session *s)
{
    interp_pool *pl = s->pool;
    if (!pl) return;
    pthread_mutex_lock(&pl->mu);
    pl->quit = true;
    pthread_cond_broadcast(&pl->go);
    pthread_mutex_unlock(&pl->mu);
    for (int64_t t = 1; t < pl->n; t++)
        if (pl->w[t].started) pthread_join(pl->w[t].th, NULL);
    for (int64_t t = 0; t < pl->n; t++) interp_prog_free(&pl->w[t].prog);
    pthread_mutex_destroy(&pl->mu);
    pthread_cond_destroy(&pl->go);
    pthread_cond_destroy(&pl->done);
    free(pl->w);
    free(pl);
    s->pool = NULL;
}

static interp_pool *pool_new(interp_session *s, int64_t n)
{
    interp_pool *pl = interp_line_alloc(sizeof *pl);
    pl->s = s;
    pl->n = n;
    pl->nvals = s->nvals;
    pl->w = interp_line_alloc((size_t)n * sizeof *pl->w);
    for (int64_t t = 0; t < n; t++) {
        pl->w[t].pool = pl;
        interp_prog_init(s, &pl->w[t].prog);
    }
    pthread_mutex_init(&pl->mu, NULL);
    pthread_cond_init(&pl->go, NULL);
    pthread_cond_init(&pl->done, NULL);
    return pl;
}

/* The threads of a new pool start at generation 1, the first launch: each
 * works as soon as it is created. A thread that cannot start leaves its
 * programs to the others (fewer threads then), at every launch. */
static void pool_start(interp_pool *pl)
{
    pl->gen = 1;
    pl->running = pl->n - 1;
    for (int64_t t = 1; t < pl->n; t++) {
        worker *w = &pl->w[t];
        w->started = pthread_create(&w->th, NULL, pool_thread, w) == 0;
        pthread_mutex_lock(&pl->mu);
        if (w->started) pl->alive++;
        else if (--pl->running == 0) pthread_cond_signal(&pl->done);
        pthread_mutex_unlock(&pl->mu);
    }
}

static int run_parallel(interp_session *s)
{
    int64_t nt = s->o.threads > 0 ? s->o.threads : sysconf(_SC_NPROCESSORS_ONLN);
    if (nt < 1) nt = 1;
    if (nt > s->nprograms) nt = s->nprograms;
    if (nt > 1024) nt = 1024;
    interp_pool *pl = s->pool;
    if (pl && (pl->n != nt || pl->nvals != s->nvals)) {
        interp_pool_free(s);
        pl = NULL;
    }
    bool fresh = !pl;
    if (fresh) pl = s->pool = pool_new(s, nt);
    pl->next = 0;
    pl->chunk = s->nprograms / (nt * 16);
    if (pl->chunk < 1) pl->chunk = 1;
    if (pl->chunk > 64) pl->chunk = 64;
    for (int64_t t = 0; t < nt; t++) pl->w[t].rc = 0;
    s->parallel = true;
    if (fresh) {
        pool_start(pl);
    } else {
        pthread_mutex_lock(&pl->mu);
        pl->running = pl->alive;
        pl->gen++;
        pthread_cond_broadcast(&pl->go);
        pthread_mutex_unlock(&pl->mu);
    }
    work(&pl->w[0]);
    pthread_mutex_lock(&pl->mu);
    while (pl->running > 0) pthread_cond_wait(&pl->done, &pl->mu);
    pthread_mutex_unlock(&pl->mu);
    s->parallel = false;
    int rc = 0;
    for (int64_t t = 0; t < nt; t++)
        if (pl->w[t].rc) rc = pl->w[t].rc;
    return rc;
}

int interp_run_launch(interp_session *s)
{
    double t0 = now_seconds();
    interp_report_reset(s);
    interp_shadow_clear(s);
    TRAP_SET(s->abort, false);
    int watch = interp_sigint_watch(s);    /* in an interp_sigint_begin scope: Ctrl-C stops it */
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
    interp_sigint_unwatch(watch);
    s->st.seconds = now_seconds() - t0;
    interp_report_summary(s);
    return rc;
}
