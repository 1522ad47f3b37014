/* shadow.c — shadow layers: one 32-bit word per buffer element (last
 * writer, its op, a reader, initialized), stored in granules of
 * SH_GRAN elements.
 *
 * A tile usually writes or reads whole runs of elements, so most granules
 * hold one value for all their elements: that value is kept once per
 * granule (coarse) and the per-element words (fine) are used only for the
 * granules an access splits. Filling a run therefore touches one word per
 * granule instead of one per element, and a launch touches (and the kernel
 * zeroes) a 32nd of the shadow pages. Every element still has its exact
 * value: sh_get reads whichever of the two holds it.
 *
 * Threads: during a parallel launch (par) every word is read and written
 * with relaxed atomics, as the per-element shadow was; splitting a granule
 * (copying its coarse value into its fine words) and merging it back are
 * done under the layer's lock, so two programs writing different elements
 * of one granule never lose each other's words. */
#include "internal.h"

#include <sys/mman.h>

/* Zeroed arrays. Large ones come straight from mmap with transparent huge
 * pages requested for the dense ones: first touch of fresh shadow is most
 * of the cost of a short launch. The fine words are touched only where a
 * granule is split, so they keep 4 KiB pages. */
#define BIG_SHADOW ((size_t)2 << 20)

static void *zalloc(size_t n, bool huge)
{
    if (n < BIG_SHADOW) return xcalloc(n, 1);
    void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) die("out of memory (%zu bytes of shadow)", n);
#ifdef MADV_HUGEPAGE
    if (huge) madvise(p, n, MADV_HUGEPAGE);
#else
    (void)huge;
#endif
    return p;
}

static void zfree(void *p, size_t n)
{
    if (!p) return;
    if (n < BIG_SHADOW) free(p);
    else munmap(p, n);
}

sh_layer *sh_new(int64_t n)
{
    sh_layer *L = xcalloc(1, sizeof *L);
    L->n = n > 0 ? n : 1;
    L->ngran = (L->n + SH_GRAN - 1) >> SH_GSHIFT;
    L->coarse = zalloc((size_t)L->ngran * 4, true);
    L->on = zalloc((size_t)L->ngran, true);
    L->fine = zalloc((size_t)L->n * 4, false);
    pthread_mutex_init(&L->lock, NULL);
    return L;
}

void sh_free(sh_layer *L)
{
    if (!L) return;
    zfree(L->coarse, (size_t)L->ngran * 4);
    zfree(L->on, (size_t)L->ngran);
    zfree(L->fine, (size_t)L->n * 4);
    pthread_mutex_destroy(&L->lock);
    free(L);
}

void sh_clear(sh_layer *L)
{
    /* every granule back to coarse 0; stale fine words are never read */
    memset(L->coarse, 0, (size_t)L->ngran * 4);
    memset(L->on, 0, (size_t)L->ngran);
}

/* Give granule g its own per-element words (its coarse value in each). */
static void split(sh_layer *L, int64_t g, bool par)
{
    if (par) pthread_mutex_lock(&L->lock);
    if (!__atomic_load_n(&L->on[g], __ATOMIC_ACQUIRE)) {
        uint32_t c = __atomic_load_n(&L->coarse[g], __ATOMIC_RELAXED);
        int64_t e0 = g << SH_GSHIFT, e1 = e0 + SH_GRAN < L->n ? e0 + SH_GRAN : L->n;
        for (int64_t e = e0; e < e1; e++) __atomic_store_n(&L->fine[e], c, __ATOMIC_RELAXED);
        __atomic_store_n(&L->on[g], 1, __ATOMIC_RELEASE);
    }
    if (par) pthread_mutex_unlock(&L->lock);
}

void sh_set_slow(sh_layer *L, int64_t e, uint32_t v, bool par)
{
    split(L, e >> SH_GSHIFT, par);
    __atomic_store_n(&L->fine[e], v, __ATOMIC_RELAXED);
}

/* Words [e, stop) of one granule, not all of it, = v. */
static void partial(sh_layer *L, int64_t e, int64_t stop, uint32_t v, bool par)
{
    if (e >= stop) return;
    int64_t g = e >> SH_GSHIFT;
    bool fine = __atomic_load_n(&L->on[g], __ATOMIC_ACQUIRE);
    if (!fine && __atomic_load_n(&L->coarse[g], __ATOMIC_RELAXED) == v) return;
    if (!fine) split(L, g, par);
    for (int64_t i = e; i < stop; i++) __atomic_store_n(&L->fine[i], v, __ATOMIC_RELAXED);
}

void sh_fill(sh_layer *L, int64_t e0, int64_t len, uint32_t v, bool par)
{
    int64_t end = e0 + len;
    /* whole granules that hold one word (the usual case): a plain pass */
    int64_t g0 = (e0 + SH_GRAN - 1) >> SH_GSHIFT, g1 = end >> SH_GSHIFT, g = g0;
    if (end == L->n) g1 = L->ngran;                /* the last granule may be short */
    if (!par) {
        /* eight granules at a time while none of them is split (locals: the
         * stores cannot change L's pointers, so the loop vectorizes) */
        uint32_t *restrict co = L->coarse;
        const uint8_t *restrict on = L->on;
        for (uint64_t on8; g + 8 <= g1 && (memcpy(&on8, on + g, 8), on8 == 0); g += 8)
            for (int j = 0; j < 8; j++) co[g + j] = v;
        for (; g < g1 && !on[g]; g++) co[g] = v;
    } else {
        for (; g < g1 && !__atomic_load_n(&L->on[g], __ATOMIC_ACQUIRE); g++)
            __atomic_store_n(&L->coarse[g], v, __ATOMIC_RELAXED);
    }
    if (g == g1 && g1 > g0) {
        partial(L, e0, g0 << SH_GSHIFT, v, par);
        partial(L, g1 << SH_GSHIFT < end ? g1 << SH_GSHIFT : end, end, v, par);
        return;
    }
    for (int64_t e = e0; e < end;) {
        int64_t g = e >> SH_GSHIFT, gs = g << SH_GSHIFT;
        int64_t ge = gs + SH_GRAN < L->n ? gs + SH_GRAN : L->n, stop = end < ge ? end : ge;
        bool fine = __atomic_load_n(&L->on[g], __ATOMIC_ACQUIRE);
        if (e == gs && stop == ge) {               /* the whole granule: one word */
            if (!fine) {
                __atomic_store_n(&L->coarse[g], v, __ATOMIC_RELAXED);
            } else {
                if (par) pthread_mutex_lock(&L->lock);
                __atomic_store_n(&L->coarse[g], v, __ATOMIC_RELAXED);
                __atomic_store_n(&L->on[g], 0, __ATOMIC_RELEASE);
                if (par) pthread_mutex_unlock(&L->lock);
            }
        } else if (fine || __atomic_load_n(&L->coarse[g], __ATOMIC_RELAXED) != v) {
            if (!fine) split(L, g, par);
            for (int64_t i = e; i < stop; i++) __atomic_store_n(&L->fine[i], v, __ATOMIC_RELAXED);
        }
        e = stop;
    }
}

static inline uint32_t read_word(uint32_t x, uint32_t me)
{
    return x == 0 ? me : x == me || (x & SH_MANY) ? x : x | SH_MANY;
}

/* One word: a compare-and-swap in a parallel launch, so two first readers
 * of an element end as one of them | SH_MANY, never as one alone. */
static inline void read_one(uint32_t *w, uint32_t me, bool par)
{
    uint32_t x = __atomic_load_n(w, __ATOMIC_RELAXED), v;
    while ((v = read_word(x, me)) != x)
        if (!par) {
            *w = v;
            return;
        } else if (__atomic_compare_exchange_n(w, &x, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
            return;
        }
}

void sh_mark_read(sh_layer *L, int64_t e0, int64_t len, uint32_t me, bool par)
{
    for (int64_t e = e0, end = e0 + len; e < end;) {
        int64_t g = e >> SH_GSHIFT, gs = g << SH_GSHIFT;
        int64_t ge = gs + SH_GRAN < L->n ? gs + SH_GRAN : L->n, stop = end < ge ? end : ge;
        if (!__atomic_load_n(&L->on[g], __ATOMIC_ACQUIRE)) {
            uint32_t c = __atomic_load_n(&L->coarse[g], __ATOMIC_RELAXED);
            if (read_word(c, me) == c) {           /* the usual case once warm: nothing to store */
                e = stop;
                continue;
            }
            if (e == gs && stop == ge) {
                read_one(&L->coarse[g], me, par);
                e = stop;
                continue;
            }
            split(L, g, par);
        }
        for (; e < stop; e++) read_one(&L->fine[e], me, par);
    }
}
