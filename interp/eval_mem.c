/* eval_mem.c — pointers and memory: tt.addptr, tt.int_to_ptr,
 * tt.ptr_to_int, tt.load, tt.store, tt.atomic_rmw, tt.atomic_cas.
 *
 * Every masked-in lane is resolved to (buffer, element) before it is
 * touched (docs/design.md, "Memory model"). The fast path takes the lowest and
 * highest address of the active lanes: when both lie in one buffer, every
 * address is aligned and the element sizes agree, all lanes are valid and
 * the access is a plain gather/scatter. Otherwise each lane is looked up;
 * a lane in no buffer, misaligned, or of another element size than its
 * buffer (same-size reinterpretation is allowed) is a fault: reported, not
 * performed, and a faulting load lane yields `other` (or 0). Masked-out
 * lanes are never resolved and load `other` (or 0), as on NVIDIA
 * (semantics §2.6).
 *
 * Shadow state: every store records the writing program and op (for
 * interp_last_writer); with check_races loads record the reader and both
 * check for a conflicting access by another program of the launch;
 * atomics never race with atomics, and a program that took a lock
 * (atomic_cas or atomic_xchg) is trusted. A plain store of the bits an
 * initialized element already holds conflicts with nothing: the last writer
 * stored the same value (programs that all store one value, as when every
 * program writes a shared result, are not a race on a GPU either), and while
 * every store of the launch kept the element's original value (SH_SAME) a
 * read sees that value in any order. Shadow words are read and
 * written with relaxed atomics: the programs of a parallel launch touch
 * them at the same time, which must not be a data
 * race of the interpreter itself (TSan, `meson test --setup tsan`). */
#include "internal.h"

#include <math.h>
#include <inttypes.h>
#include <sched.h>
#include <time.h>

typedef struct faults {
    bool any;
    interp_fault f[FK_COUNT];
} faults;

static inline void note(interp_prog *p, faults *fs, int kind, int64_t lane, uint64_t addr, int buf, int64_t other,
                        int32_t oloc)
{
    if (__builtin_expect(p->s->trace_on, 0)) interp_trace_problem(p, kind, addr, other, oloc);   /* trace.c */
    interp_fault *f = &fs->f[kind];
    if (f->count++ == 0) {
        f->lane = lane;
        f->addr = addr;
        f->buf = buf;
        f->other = other;
        f->other_loc = oloc;
    }
    fs->any = true;
}

static void flush(interp_prog *p, faults *fs, int acc, const char *opname, tt_dtype adt, int esize, ir_type tile)
{
    if (!fs->any) return;
    for (int k = 0; k < FK_COUNT; k++)
        if (fs->f[k].count) interp_report(p, k, acc, opname, adt, esize, tile, &fs->f[k]);
}

static inline sh_layer *writer_of(interp_session *s, interp_buf *b)
{
    sh_layer *w = __atomic_load_n(&b->writer, __ATOMIC_ACQUIRE);
    if (!w) {
        interp_shadow_writer(s, b);
        w = b->writer;
    }
    return w;
}

/* The reader shadow if some load allocated it (stores only consult it). */
static inline sh_layer *reader_if(interp_session *s, interp_buf *b)
{
    return s->o.check_races ? __atomic_load_n(&b->reader, __ATOMIC_ACQUIRE) : NULL;
}

static inline sh_layer *reader_of(interp_session *s, interp_buf *b)
{
    if (!s->o.check_races) return NULL;
    sh_layer *r = __atomic_load_n(&b->reader, __ATOMIC_ACQUIRE);
    if (!r) {
        interp_shadow_reader(s, b);
        r = b->reader;
    }
    return r;
}

/* Run-wise shadow scans over the pieces of a layer (shadow.c): one test
 * per granule that holds one word, a loop over the others. The shadow
 * words are shared between threads only while a parallel launch runs
 * (par): there they are read with relaxed atomics, which keeps the
 * interpreter free of data races under TSan; a sequential launch keeps
 * plain loops, which the compiler vectorizes. */
#define SCAN(L, e0, n, par, TEST)                                                                 \
    do {                                                                                          \
        int64_t e_ = (e0), end_ = (e0) + (n), len_;                                               \
        if (!(e_ & (SH_GRAN - 1))) {                /* whole unsplit granules: a direct pass */   \
            const uint8_t *on_ = (L)->on;                                                         \
            const uint32_t *co_ = (L)->coarse;                                                    \
            for (; e_ + SH_GRAN <= end_ && !__atomic_load_n(&on_[e_ >> SH_GSHIFT], __ATOMIC_ACQUIRE); \
                 e_ += SH_GRAN) {                                                                 \
                uint32_t x = __atomic_load_n(&co_[e_ >> SH_GSHIFT], __ATOMIC_RELAXED);            \
                bad |= (TEST);                                                                    \
            }                                                                                     \
        }                                                                                         \
        for (; e_ < end_; e_ += len_) {                                                           \
            uint32_t x = 0;                                                                       \
            const uint32_t *f_;                                                                   \
            len_ = sh_piece((L), e_, end_, &x, &f_);                                              \
            if (!f_) {                                                                            \
                bad |= (TEST);                                                                    \
            } else if (par) {                                                                     \
                for (int64_t c_ = 0; c_ < len_; c_++) {                                           \
                    x = __atomic_load_n(&f_[c_], __ATOMIC_RELAXED);                               \
                    bad |= (TEST);                                                                \
                }                                                                                 \
            } else {                                                                              \
                for (int64_t c_ = 0; c_ < len_; c_++) {                                           \
                    x = f_[c_];                                                                   \
                    bad |= (TEST);                                                                \
                }                                                                                 \
            }                                                                                     \
        }                                                                                         \
    } while (0)

/* Nonzero when a writer word of another program conflicts with an access
 * of program me to [e0, e0 + n); flags are the access's own SH_ATOMIC/SH_SYNC bits. */
static uint32_t writer_conflicts(const sh_layer *w, int64_t e0, int64_t n, uint32_t me, uint32_t flags, bool par)
{
    uint32_t bad = 0;
    SCAN(w, e0, n, par, (uint32_t)((x & SH_PROG) != 0 && (x & SH_PROG) != me && !((x | flags) & (SH_ATOMIC | SH_SYNC))));
    return bad;
}

/* Nonzero when a store of program me (flags: its SH_ATOMIC/SH_SYNC bits)
 * conflicts with a read by another program of an element of [e0, e0 + n). */
static uint32_t reader_conflicts(const sh_layer *rd, int64_t e0, int64_t n, uint32_t me, uint32_t flags, bool par)
{
    if (flags) return 0;
    uint32_t bad = 0;
    SCAN(rd, e0, n, par, (uint32_t)(x != 0 && x != me));
    return bad;
}

/* Nonzero when an element of [e0, e0 + n) was never written. */
static uint32_t uninit_any(const sh_layer *init, int64_t e0, int64_t n, bool par)
{
    uint32_t bad = 0;
    SCAN(init, e0, n, par, (uint32_t)(x == 0));
    return bad;
}

/* Shadow bookkeeping of one plain read of element e. */
static inline void shadow_read(interp_prog *p, interp_buf *b, int bi, int64_t e, int64_t lane, uint64_t addr,
                               faults *fs, sh_layer *reader, bool check_init)
{
    bool par = p->s->parallel;
    if (reader) {
        sh_mark_read(reader, e, 1, p->me, par);
        const sh_layer *wr = __atomic_load_n(&b->writer, __ATOMIC_ACQUIRE);
        if (wr) {
            uint32_t w = sh_get(wr, e);
            if ((w & SH_PROG) && (w & SH_PROG) != p->me && !(w & (SH_ATOMIC | SH_SYNC | SH_SAME)) && !p->synced)
                note(p, fs, FK_RACE_RW, lane, addr, bi, (int64_t)(w & SH_PROG) - 1, (int32_t)sh_get(b->wloc, e));
        }
    }
    if (check_init && !sh_get(b->init, e)) note(p, fs, FK_UNINIT, lane, addr, bi, 0, -1);
}

/* Shadow bookkeeping of one write of element e (flags: SH_ATOMIC/SH_SYNC);
 * v: the bytes a plain store writes (NULL for atomics), compared with the
 * element's before it is overwritten. */
static inline void shadow_write(interp_prog *p, interp_buf *b, int bi, int64_t e, int64_t lane, uint64_t addr,
                                faults *fs, sh_layer *wr, bool races, sh_layer *reader, int32_t loc, uint32_t flags,
                                const void *v)
{
    bool par = p->s->parallel;
    uint32_t me = p->me | flags;
    if (races && v && (!b->init || sh_get(b->init, e)) && !memcmp(b->host + (e << b->eshift), v, (size_t)1 << b->eshift)) {
        uint32_t w = sh_get(wr, e);
        if (w & SH_PROG) return;                       /* the last writer stored these bits too */
        me |= SH_SAME;
    } else if (races) {
        uint32_t w = sh_get(wr, e);
        if ((w & SH_PROG) && (w & SH_PROG) != p->me && !((w | me) & (SH_ATOMIC | SH_SYNC)))
            note(p, fs, FK_RACE_WW, lane, addr, bi, (int64_t)(w & SH_PROG) - 1, (int32_t)sh_get(b->wloc, e));
        /* a reader other than me; when the one recorded is me, SH_MANY
         * says another read it too, which one is not kept */
        uint32_t r = reader ? sh_get(reader, e) : 0;
        if (r && r != p->me && !(me & (SH_ATOMIC | SH_SYNC)))
            note(p, fs, FK_RACE_WR, lane, addr, bi, (r & SH_PROG) == p->me ? -1 : (int64_t)(r & SH_PROG) - 1, -1);
    }
    sh_set(b->wloc, e, (uint32_t)loc, par);
    sh_set(wr, e, me, par);
    if (b->init) sh_set(b->init, e, 1, par);
}

/* Lowest/highest address and OR of all addresses of the active lanes. */
static int64_t lane_range(const uint64_t *ptr, const uint8_t *mask, int64_t n, uint64_t *lo_, uint64_t *hi_,
                          uint64_t *or_)
{
    uint64_t lo = UINT64_MAX, hi = 0, orr = 0;
    int64_t active = 0;
    if (mask) {
        for (int64_t i = 0; i < n; i++) {
            if (!mask[i]) continue;
            uint64_t a = ptr[i];
            lo = a < lo ? a : lo;
            hi = a > hi ? a : hi;
            orr |= a;
            active++;
        }
    } else {
        for (int64_t i = 0; i < n; i++) {
            uint64_t a = ptr[i];
            lo = a < lo ? a : lo;
            hi = a > hi ? a : hi;
            orr |= a;
        }
        active = n;
    }
    *lo_ = lo;
    *hi_ = hi;
    *or_ = orr;
    return active;
}

/* All active lanes valid in one buffer? Returns the buffer index or -1. */
static int fast_buffer(interp_session *s, uint64_t lo, uint64_t hi, uint64_t orr, int esz)
{
    if (orr & (uint64_t)(esz - 1)) return -1;
    int bi = interp_find_buf(s, lo);
    if (bi < 0) return -1;
    const interp_buf *b = &s->bufs[bi];
    if (b->esize != esz || hi >= b->end || b->end - hi < (uint64_t)esz) return -1;
    return bi;
}


/* ---- the contiguous fast path ----
 * Most tiles of pointers are rows of consecutive elements (a block of a
 * vector, a row of a matrix tile): ptr[r*cols + c] == ptr[r*cols] + c*esz.
 * When each run of active lanes of a row lies in one buffer, loads and
 * stores are copies of the runs (masked-out lanes are not touched) and the
 * shadow bookkeeping is a few vectorizable passes; anything else (a
 * gather, a fault) takes the per-lane path. */

static void fill_masked(void *out, const void *other, const uint8_t *mask, int esz, int64_t n)
{
    /* lanes that were not loaded: `other` or 0 */
    for (int64_t i = 0; i < n; i++) {
        if (mask && mask[i]) continue;
        if (other) memcpy((uint8_t *)out + i * esz, (const uint8_t *)other + i * esz, (size_t)esz);
        else memset((uint8_t *)out + i * esz, 0, (size_t)esz);
    }
}

static int64_t row_len(const ival_info *vp) { return vp->rank ? vp->shape[vp->rank - 1] : 1; }

static bool rows_contiguous(const uint64_t *restrict ptr, int64_t n, int64_t cols, int eshift)
{
    uint64_t diff = 0;
    for (int64_t r = 0; r < n; r += cols) {
        uint64_t b = ptr[r];
        for (int64_t c = 0; c < cols; c++) diff |= ptr[r + c] ^ (b + ((uint64_t)c << eshift));
    }
    return diff == 0;
}

/* Mask scanning, a word or a vector at a time: mask bytes are 0 or not. */
static inline int64_t skip_zeros(const uint8_t *m, int64_t c, int64_t cols)
{
    while (c + 8 <= cols) {
        uint64_t w;
        memcpy(&w, m + c, 8);
        if (w) break;
        c += 8;
    }
    while (c < cols && !m[c]) c++;
    return c;
}

static inline int64_t skip_ones(const uint8_t *m, int64_t c, int64_t cols)
{
    const uint8_t *z = memchr(m + c, 0, (size_t)(cols - c));
    return z ? z - m : cols;
}

/* The next run [*c0, *c1) of active lanes at or after *c1 in a row of
 * `cols` mask bytes (the whole row when there is no mask); false at the end. */
static inline bool next_run(const uint8_t *m, int64_t cols, int64_t *c0, int64_t *c1)
{
    int64_t c = *c1;
    if (!m) {
        if (c >= cols) return false;
        *c0 = c;
        *c1 = cols;
        return true;
    }
    c = skip_zeros(m, c, cols);
    if (c >= cols) return false;
    *c0 = c;
    *c1 = skip_ones(m, c, cols);
    return true;
}

/* Row r's mask for next_run: a row of a mask whose rows are each all true
 * or all false (mf, the mask's CT_* facts) is not scanned: NULL and
 * *cols kept when its lanes are on, *cols = 0 when they are off. */
static inline const uint8_t *row_mask(const uint8_t *mask, uint8_t mf, int64_t r, int64_t *cols)
{
    if (!mask) return NULL;
    if (!(mf & CT_UNIF)) return mask + r;
    if (!mask[r]) *cols = 0;
    return NULL;
}

/* The CT_* facts of a load's or store's mask operand k (0-d: one value). */
static inline uint8_t mask_facts(const interp_prog *p, const ir_op *op, int k)
{
    if (op->nopnd <= k) return 0;
    return p->s->vi[op->opnd[k]].numel == 1 ? CT_UNIF : p->contig[op->opnd[k]];
}

/* Lanes [c0, c1) of a load that were not loaded: `other` or 0. */
static void fill_lanes(uint8_t *out, const uint8_t *other, int esz, int64_t c0, int64_t c1)
{
    if (c1 <= c0) return;
    if (other) memcpy(out + c0 * esz, other + c0 * esz, (size_t)((c1 - c0) * esz));
    else memset(out + c0 * esz, 0, (size_t)((c1 - c0) * esz));
}

/* The buffer holding [a, a + bytes), aligned and of element size esz; -1
 * when that range is not entirely valid. *cache: the last buffer found. */
static int run_buffer(interp_session *s, uint64_t a, uint64_t bytes, int esz, int *cache)
{
    int bi = *cache;
    if (bi < 0 || a < s->bufs[bi].base || a >= s->bufs[bi].end) bi = interp_find_buf(s, a);
    if (bi < 0) return -1;
    const interp_buf *b = &s->bufs[bi];
    if (b->esize != esz || (a & (uint64_t)(esz - 1)) || b->end - a < bytes) return -1;
    *cache = bi;
    return bi;
}

/* Contiguous rows whose active runs all resolve? */
static bool rows_ok(interp_prog *p, ir_value pv, const uint64_t *ptr, const uint8_t *mask, uint8_t mf, int64_t n,
                    int64_t cols, int esz, int *cache_out)
{
    interp_session *s = p->s;
    if (n % cols) return false;
    if (!((p->contig[pv] & CT_RUN) && s->vi[pv].numel == n)) {
        interp_full(p, pv);                        /* rows_contiguous reads every lane: a row-heads splat has none */
        if (!rows_contiguous(ptr, n, cols, __builtin_ctz((unsigned)esz))) return false;
    }
    int cache = -1, first = -1;
    for (int64_t r = 0; r < n; r += cols) {
        int64_t rc = cols;
        const uint8_t *m = row_mask(mask, mf, r, &rc);
        for (int64_t c0 = 0, c1 = 0; next_run(m, rc, &c0, &c1);)
            if (run_buffer(s, ptr[r] + ((uint64_t)c0 * (uint64_t)esz), (uint64_t)(c1 - c0) * (uint64_t)esz, esz,
                           &cache) < 0)
                return false;
            else if (first < 0)
                first = cache;
    }
    *cache_out = first;                            /* the buffer of the first run, for the copy pass */
    return true;
}

static bool load_rows(interp_prog *p, const ir_op *op, const uint64_t *ptr, const uint8_t *mask, const void *other,
                      int64_t n, int esz, void *out)
{
    interp_session *s = p->s;
    int64_t cols = row_len(&s->vi[op->opnd[0]]);
    uint8_t mf = mask_facts(p, op, 1);
    int cache;
    if (!rows_ok(p, op->opnd[0], ptr, mask, mf, n, cols, esz, &cache)) return false;
    faults fs;
    fs.any = false;
    uint32_t me = p->me;
    for (int64_t r = 0; r < n; r += cols) {
        int64_t rc = cols;
        const uint8_t *m = row_mask(mask, mf, r, &rc);
        uint8_t *orow = (uint8_t *)out + r * esz;
        const uint8_t *oth = other ? (const uint8_t *)other + r * esz : NULL;
        int64_t done = 0;
        for (int64_t c0 = 0, c1 = 0; next_run(m, rc, &c0, &c1); done = c1) {
            int64_t len = c1 - c0;
            fill_lanes(orow, oth, esz, done, c0);
            uint64_t a = ptr[r] + (uint64_t)c0 * (uint64_t)esz;
            int bi = run_buffer(s, a, (uint64_t)len * (uint64_t)esz, esz, &cache);
            interp_buf *b = &s->bufs[bi];
            int64_t e0 = (int64_t)((a - b->base) >> b->eshift);
            memcpy(orow + c0 * esz, b->host + (a - b->base), (size_t)(len * esz));
            sh_layer *reader = reader_of(s, b);
            bool check_init = b->init && s->o.check_uninit;
            if (!reader && !check_init) continue;
            bool suspect = false;
            if (reader) {
                sh_mark_read(reader, e0, len, me, s->parallel);
                const sh_layer *wr = __atomic_load_n(&b->writer, __ATOMIC_ACQUIRE);
                if (wr && !p->synced) {
                    suspect = writer_conflicts(wr, e0, len, me, 0, s->parallel) != 0;
                }
            }
            if (check_init && uninit_any(b->init, e0, len, s->parallel)) suspect = true;
            if (!suspect) continue;
            if (!fs.any) memset(fs.f, 0, sizeof fs.f);
            fs.any = true;
            for (int64_t c = 0; c < len; c++)
                shadow_read(p, b, bi, e0 + c, r + c0 + c, a + ((uint64_t)c << b->eshift), &fs, reader, check_init);
        }
        fill_lanes(orow, oth, esz, done, cols);
    }
    if (fs.any) {
        fs.any = false;
        for (int k = 0; k < FK_COUNT; k++) fs.any |= fs.f[k].count != 0;
        flush(p, &fs, ACC_LOAD, "load", s->vi[op->res].dt, esz, s->f->values.v[op->opnd[0]].type);
    }
    return true;
}

static bool store_rows(interp_prog *p, const ir_op *op, const uint64_t *ptr, const uint8_t *mask, int64_t n, int esz,
                       const void *val)
{
    interp_session *s = p->s;
    int64_t cols = row_len(&s->vi[op->opnd[0]]);
    uint8_t mf = mask_facts(p, op, 2);
    int cache;
    if (!rows_ok(p, op->opnd[0], ptr, mask, mf, n, cols, esz, &cache)) return false;
    faults fs;
    fs.any = false;
    uint32_t me = p->me, flags = p->synced ? SH_SYNC : 0, mine = me | flags;
    int32_t loc = op->loc;
    bool races = s->o.check_races;
    for (int64_t r = 0; r < n; r += cols) {
        int64_t rc = cols;
        const uint8_t *m = row_mask(mask, mf, r, &rc);
        for (int64_t c0 = 0, c1 = 0; next_run(m, rc, &c0, &c1);) {
            int64_t len = c1 - c0;
            uint64_t a = ptr[r] + (uint64_t)c0 * (uint64_t)esz;
            int bi = run_buffer(s, a, (uint64_t)len * (uint64_t)esz, esz, &cache);
            interp_buf *b = &s->bufs[bi];
            int64_t e0 = (int64_t)((a - b->base) >> b->eshift);
            sh_layer *wr = writer_of(s, b), *reader = reader_if(s, b);
            bool suspect = false;
            if (races) {
                uint32_t bad = writer_conflicts(wr, e0, len, me, flags, s->parallel);
                if (reader) bad |= reader_conflicts(reader, e0, len, me, flags, s->parallel);
                /* a run that keeps the bits it overwrites: SH_SAME, element by element (a run
                 * that changes some of them marks them all as written) */
                suspect = bad != 0 ||
                          !memcmp(b->host + (a - b->base), (const uint8_t *)val + (r + c0) * esz, (size_t)(len * esz));
            }
            if (suspect) {
                if (!fs.any) memset(fs.f, 0, sizeof fs.f);
                fs.any = true;
                for (int64_t c = 0; c < len; c++)
                    shadow_write(p, b, bi, e0 + c, r + c0 + c, a + ((uint64_t)c << b->eshift), &fs, wr, races, reader,
                                 loc, flags, (const uint8_t *)val + (r + c0 + c) * esz);
            } else {
                sh_fill(wr, e0, len, mine, s->parallel);
                sh_fill(b->wloc, e0, len, (uint32_t)loc, s->parallel);
                if (b->init) sh_fill(b->init, e0, len, 1, s->parallel);
            }
            memcpy(b->host + (a - b->base), (const uint8_t *)val + (r + c0) * esz, (size_t)(len * esz));
        }
    }
    if (fs.any) {
        fs.any = false;
        for (int k = 0; k < FK_COUNT; k++) fs.any |= fs.f[k].count != 0;
        flush(p, &fs, ACC_STORE, "store", s->vi[op->opnd[1]].dt, esz, s->f->values.v[op->opnd[0]].type);
    }
    return true;
}

#define GATHER(T)                                                                                 \
    {                                                                                             \
        T *restrict o = out;                                                                      \
        const T *restrict ot = other;                                                             \
        if (!mask) {                                                                              \
            for (int64_t i = 0; i < n; i++) o[i] = *(const T *)(h + (ptr[i] - base));             \
        } else {                                                                                  \
            for (int64_t i = 0; i < n; i++)                                                       \
                o[i] = mask[i] ? *(const T *)(h + (ptr[i] - base)) : (ot ? ot[i] : (T)0);         \
        }                                                                                         \
    }

/* The fault of one lane accessing esz bytes at a, in buffer b (NULL: in no
 * buffer); -1 when the access is fine. */
static inline int lane_fault(const interp_buf *b, uint64_t a, int esz)
{
    if (!b) return FK_OOB;
    if (a & (uint64_t)(esz - 1)) return FK_MISALIGNED;
    if (b->esize != esz) return FK_TYPE;
    return -1;
}

static void eval_load(interp_prog *p, const ir_op *op)
{
    interp_session *s = p->s;
    const ival_info *vr = &s->vi[op->res];
    int64_t n = vr->numel;
    int esz = vr->esize;
    const uint64_t *ptr = interp_operand(p, op, 0, n);
    const uint8_t *mask = op->nopnd > 1 ? interp_operand(p, op, 1, n) : NULL;
    const void *other = op->nopnd > 2 ? interp_operand(p, op, 2, n) : NULL;
    void *out = interp_result(p, op, 0);
    if (load_rows(p, op, ptr, mask, other, n, esz, out)) {
        if (vr->dt == TT_BOOL) {
            uint8_t *o = out;
            for (int64_t i = 0; i < n; i++) o[i] = o[i] != 0;
        }
        return;
    }
    interp_full(p, op->opnd[0]);              /* the lane paths read every pointer and mask lane */
    if (mask) interp_full(p, op->opnd[1]);
    uint64_t lo, hi, orr;
    int64_t active = lane_range(ptr, mask, n, &lo, &hi, &orr);
    if (active == 0) {
        fill_masked(out, other, NULL, esz, n);
        return;
    }
    faults fs;
    fs.any = false;
    int bi = fast_buffer(s, lo, hi, orr, esz);
    if (bi >= 0) {
        interp_buf *b = &s->bufs[bi];
        const uint8_t *h = b->host;
        uint64_t base = b->base;
        switch (esz) {
        case 1: GATHER(uint8_t) break;
        case 2: GATHER(uint16_t) break;
        case 4: GATHER(uint32_t) break;
        default: GATHER(uint64_t) break;
        }
        sh_layer *reader = reader_of(s, b);
        bool check_init = b->init && s->o.check_uninit;
        if (reader || check_init) {
            memset(fs.f, 0, sizeof fs.f);
            for (int64_t i = 0; i < n; i++) {
                if (mask && !mask[i]) continue;
                int64_t e = (int64_t)((ptr[i] - base) >> b->eshift);
                shadow_read(p, b, bi, e, i, ptr[i], &fs, reader, check_init);
            }
        }
    } else {
        memset(fs.f, 0, sizeof fs.f);
        interp_buf *b = NULL;
        sh_layer *reader = NULL;
        bi = -1;
        for (int64_t i = 0; i < n; i++) {
            uint8_t *o = (uint8_t *)out + i * esz;
            if (mask && !mask[i]) goto fill;
            uint64_t a = ptr[i];
            if (!b || a < b->base || a >= b->end) {
                bi = interp_find_buf(s, a);
                b = bi >= 0 ? &s->bufs[bi] : NULL;
                reader = b ? reader_of(s, b) : NULL;
            }
            int fk = lane_fault(b, a, esz);
            if (fk >= 0) {
                note(p, &fs, fk, i, a, fk == FK_OOB ? -1 : bi, 0, -1);
                goto fill;
            }
            memcpy(o, b->host + (a - b->base), (size_t)esz);
            shadow_read(p, b, bi, (int64_t)((a - b->base) >> b->eshift), i, a, &fs, reader,
                        b->init && s->o.check_uninit);
            continue;
        fill:
            if (other) memcpy(o, (const uint8_t *)other + i * esz, (size_t)esz);
            else memset(o, 0, (size_t)esz);
        }
    }
    if (vr->dt == TT_BOOL) {
        uint8_t *o = out;
        for (int64_t i = 0; i < n; i++) o[i] = o[i] != 0;
    }
    flush(p, &fs, ACC_LOAD, "load", vr->dt, esz, s->f->values.v[op->opnd[0]].type);
}

#define SCATTER(T)                                                                                \
    {                                                                                             \
        const T *restrict v = val;                                                                \
        if (!mask) {                                                                              \
            for (int64_t i = 0; i < n; i++) *(T *)(h + (ptr[i] - base)) = v[i];                   \
        } else {                                                                                  \
            for (int64_t i = 0; i < n; i++)                                                       \
                if (mask[i]) *(T *)(h + (ptr[i] - base)) = v[i];                                  \
        }                                                                                         \
    }

static void eval_store(interp_prog *p, const ir_op *op)
{
    interp_session *s = p->s;
    const ival_info *vp = &s->vi[op->opnd[0]];
    int64_t n = vp->numel;
    const ival_info *vv = &s->vi[op->opnd[1]];
    int esz = vv->esize;
    const uint64_t *ptr = p->vals[op->opnd[0]];
    const void *val = interp_operand(p, op, 1, n);
    const uint8_t *mask = op->nopnd > 2 ? interp_operand(p, op, 2, n) : NULL;
    if (store_rows(p, op, ptr, mask, n, esz, val)) return;
    interp_full(p, op->opnd[0]);              /* the lane paths read every pointer and mask lane */
    if (mask) interp_full(p, op->opnd[2]);
    uint64_t lo, hi, orr;
    if (lane_range(ptr, mask, n, &lo, &hi, &orr) == 0) return;
    faults fs;
    fs.any = false;
    memset(fs.f, 0, sizeof fs.f);
    uint32_t flags = p->synced ? SH_SYNC : 0;
    int bi = fast_buffer(s, lo, hi, orr, esz);
    if (bi >= 0) {
        interp_buf *b = &s->bufs[bi];
        uint8_t *h = b->host;
        uint64_t base = b->base;
        sh_layer *wr = writer_of(s, b), *reader = reader_if(s, b);
        /* shadow first: race checks need the previous writer */
        for (int64_t i = 0; i < n; i++) {
            if (mask && !mask[i]) continue;
            int64_t e = (int64_t)((ptr[i] - base) >> b->eshift);
            shadow_write(p, b, bi, e, i, ptr[i], &fs, wr, s->o.check_races, reader, op->loc, flags,
                         (const uint8_t *)val + i * esz);
        }
        switch (esz) {
        case 1: SCATTER(uint8_t) break;
        case 2: SCATTER(uint16_t) break;
        case 4: SCATTER(uint32_t) break;
        default: SCATTER(uint64_t) break;
        }
    } else {
        interp_buf *b = NULL;
        sh_layer *wr = NULL, *reader = NULL;
        for (int64_t i = 0; i < n; i++) {
            if (mask && !mask[i]) continue;
            uint64_t a = ptr[i];
            if (!b || a < b->base || a >= b->end) {
                bi = interp_find_buf(s, a);
                b = bi >= 0 ? &s->bufs[bi] : NULL;
                if (b) {
                    wr = writer_of(s, b);
                    reader = reader_if(s, b);
                }
            }
            int fk = lane_fault(b, a, esz);
            if (fk >= 0) {
                note(p, &fs, fk, i, a, fk == FK_OOB ? -1 : bi, 0, -1);
                continue;
            }
            shadow_write(p, b, bi, (int64_t)((a - b->base) >> b->eshift), i, a, &fs, wr, s->o.check_races, reader,
                         op->loc, flags, (const uint8_t *)val + i * esz);
            memcpy(b->host + (a - b->base), (const uint8_t *)val + i * esz, (size_t)esz);
        }
    }
    flush(p, &fs, ACC_STORE, "store", vv->dt, esz, s->f->values.v[op->opnd[0]].type);
}

/* ---- atomics ---- */

static const char *const rmw_opname[] = {
    [RMW_ADD] = "atomic_add", [RMW_FADD] = "atomic_add", [RMW_MAX] = "atomic_max", [RMW_UMAX] = "atomic_max",
    [RMW_MIN] = "atomic_min", [RMW_UMIN] = "atomic_min", [RMW_AND] = "atomic_and", [RMW_OR] = "atomic_or",
    [RMW_XOR] = "atomic_xor", [RMW_XCHG] = "atomic_xchg",
};

static double bits_to_f(uint64_t x, tt_dtype dt)
{
    union { uint32_t u; float f; } a;
    union { uint64_t u; double d; } b;
    switch (dt) {
    case TT_F16: return interp_h2f((uint16_t)x);
    case TT_BF16: return interp_bf2f((uint16_t)x);
    case TT_F32: a.u = (uint32_t)x; return a.f;
    default: b.u = x; return b.d;
    }
}

static uint64_t f_to_bits(double v, tt_dtype dt)
{
    union { uint32_t u; float f; } a;
    union { uint64_t u; double d; } b;
    switch (dt) {
    case TT_F16: return interp_f2h((float)v);      /* v is a sum of two halves computed in f32 below */
    case TT_BF16: return interp_f2bf((float)v);
    case TT_F32: a.f = (float)v; return a.u;
    default: b.d = v; return b.u;
    }
}

static int64_t sext(uint64_t x, int bits) { return bits == 64 ? (int64_t)x : (int64_t)(x << (64 - bits)) >> (64 - bits); }

/* The new value of an RMW given the old one (bits of width esz*8). */
static uint64_t rmw_combine(int kind, tt_dtype dt, int bits, uint64_t old, uint64_t v)
{
    bool fl = tt_dtype_is_float(dt);
    if (fl) {
        double a = bits_to_f(old, dt), b = bits_to_f(v, dt);
        switch (kind) {
        case RMW_ADD:
        case RMW_FADD:
            if (dt == TT_F64) return f_to_bits(a + b, dt);
            return f_to_bits((float)a + (float)b, dt);   /* f32 add, rounded once to the type */
        case RMW_MAX: case RMW_UMAX:
            if (a != a) return v;
            if (b != b) return old;
            return (b > a || (b == a && !signbit(b))) ? v : old;
        case RMW_MIN: case RMW_UMIN:
            if (a != a) return v;
            if (b != b) return old;
            return (b < a || (b == a && signbit(b))) ? v : old;
        case RMW_XCHG: return v;
        default: break;      /* bitwise ops on float bits */
        }
    }
    switch (kind) {
    case RMW_ADD: case RMW_FADD: return old + v;
    case RMW_MAX: return sext(old, bits) >= sext(v, bits) ? old : v;
    case RMW_MIN: return sext(old, bits) <= sext(v, bits) ? old : v;
    case RMW_UMAX: return old >= v ? old : v;
    case RMW_UMIN: return old <= v ? old : v;
    case RMW_AND: return old & v;
    case RMW_OR: return old | v;
    case RMW_XOR: return old ^ v;
    case RMW_XCHG: return v;
    default: die("atomic_rmw: kind %d", kind);
    }
}

#define CAS_LOOP(T)                                                                               \
    {                                                                                             \
        T *a = h, old = __atomic_load_n(a, __ATOMIC_RELAXED), nv;                                 \
        do {                                                                                      \
            nv = (T)rmw_combine(kind, dt, bits, old, v);                                          \
        } while (!__atomic_compare_exchange_n(a, &old, nv, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)); \
        return old;                                                                               \
    }

static uint64_t do_rmw(void *h, int kind, tt_dtype dt, int esz, uint64_t v)
{
    int bits = esz * 8;
    switch (esz) {
    case 1: CAS_LOOP(uint8_t)
    case 2: CAS_LOOP(uint16_t)
    case 4: CAS_LOOP(uint32_t)
    default: CAS_LOOP(uint64_t)
    }
}

static uint64_t do_cas(void *h, int esz, uint64_t cmp, uint64_t v)
{
    switch (esz) {
    case 1: { uint8_t c = (uint8_t)cmp; __atomic_compare_exchange_n((uint8_t *)h, &c, (uint8_t)v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); return c; }
    case 2: { uint16_t c = (uint16_t)cmp; __atomic_compare_exchange_n((uint16_t *)h, &c, (uint16_t)v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); return c; }
    case 4: { uint32_t c = (uint32_t)cmp; __atomic_compare_exchange_n((uint32_t *)h, &c, (uint32_t)v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); return c; }
    default: { uint64_t c = cmp; __atomic_compare_exchange_n((uint64_t *)h, &c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); return c; }
    }
}

static void eval_atomic(interp_prog *p, const ir_op *op)
{
    interp_session *s = p->s;
    const ival_info *vr = &s->vi[op->res];
    int64_t n = vr->numel;
    int esz = vr->esize;
    bool cas = op->opc == IR_ATOMIC_CAS;
    int kind = cas ? -1 : (int)op->attr[0];
    for (int k = 0; k < op->nopnd; k++) interp_full(p, op->opnd[k]);
    const uint64_t *ptr = interp_operand(p, op, 0, n);
    const uint8_t *cmpv = cas ? interp_operand(p, op, 1, n) : NULL;
    const uint8_t *val = interp_operand(p, op, cas ? 2 : 1, n);
    const uint8_t *mask = !cas && op->nopnd > 2 ? interp_operand(p, op, 2, n) : NULL;
    uint8_t *out = interp_result(p, op, 0);
    faults fs;
    fs.any = false;
    memset(fs.f, 0, sizeof fs.f);
    interp_buf *b = NULL;
    sh_layer *wr = NULL;
    int bi = -1;
    bool check_init = false;
    for (int64_t i = 0; i < n; i++) {
        uint8_t *o = out + i * esz;
        memset(o, 0, (size_t)esz);
        if (mask && !mask[i]) continue;
        uint64_t a = ptr[i];
        if (!b || a < b->base || a >= b->end) {
            bi = interp_find_buf(s, a);
            b = bi >= 0 ? &s->bufs[bi] : NULL;
            if (b) {
                wr = writer_of(s, b);
                check_init = b->init && s->o.check_uninit;
            }
        }
        int fk = lane_fault(b, a, esz);
        if (fk >= 0) {
            note(p, &fs, fk, i, a, fk == FK_OOB ? -1 : bi, 0, -1);
            continue;
        }
        int64_t e = (int64_t)((a - b->base) >> b->eshift);
        if (check_init && !sh_get(b->init, e)) note(p, &fs, FK_UNINIT, i, a, bi, 0, -1);
        uint64_t v = 0, c = 0, old;
        memcpy(&v, val + i * esz, (size_t)esz);
        void *h = b->host + (a - b->base);
        if (cas) {
            memcpy(&c, cmpv + i * esz, (size_t)esz);
            old = do_cas(h, esz, c, v);
        } else {
            old = do_rmw(h, kind, vr->dt, esz, v);
        }
        memcpy(o, &old, (size_t)esz);
        shadow_write(p, b, bi, e, i, a, &fs, wr, false, NULL, op->loc, SH_ATOMIC, NULL);
    }
    /* a program that takes a lock orders its plain accesses itself */
    if (cas || kind == RMW_XCHG) p->synced = true;
    flush(p, &fs, ACC_ATOMIC, cas ? "atomic_cas" : rmw_opname[kind], vr->dt, esz, s->f->values.v[op->opnd[0]].type);
}

/* tt.atomic_poll (Triton 3.9 interpreter.py create_atomic_poll): each
 * lane in order is read (atomically, acquire) until it equals its expected
 * value, or until the timeout, counted from the op's start for all lanes,
 * has passed; every lane is read at least once. A value no other program
 * can write never comes when programs run one at a time (as in Triton's
 * interpreter): after a second of polling a warning says so, and Ctrl-C
 * stops the launch. */
static void eval_poll(interp_prog *p, const ir_op *op)
{
    interp_session *s = p->s;
    int64_t n = s->vi[op->res].numel;
    int esz = s->vi[op->opnd[1]].esize;
    for (int k = 0; k < op->nopnd; k++) interp_full(p, op->opnd[k]);
    const uint64_t *ptr = interp_operand(p, op, 0, n);
    const uint8_t *want = interp_operand(p, op, 1, n);
    int64_t timeout = -1;
    if (op->nopnd > 2) memcpy(&timeout, p->vals[op->opnd[2]], sizeof timeout);
    uint8_t *out = interp_result(p, op, 0);
    faults fs;
    fs.any = false;
    memset(fs.f, 0, sizeof fs.f);
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    bool warned = false;
    for (int64_t i = 0; i < n; i++) {
        out[i] = 0;
        uint64_t a = ptr[i];
        int bi = interp_find_buf(s, a);
        interp_buf *b = bi >= 0 ? &s->bufs[bi] : NULL;
        int fk = lane_fault(b, a, esz);
        if (fk >= 0) {
            note(p, &fs, fk, i, a, fk == FK_OOB ? -1 : bi, 0, -1);
            continue;
        }
        int64_t e = (int64_t)((a - b->base) >> b->eshift);
        if (b->init && s->o.check_uninit && !sh_get(b->init, e)) note(p, &fs, FK_UNINIT, i, a, bi, 0, -1);
        uint64_t x = 0, w = 0;
        memcpy(&w, want + i * esz, (size_t)esz);
        const void *h = b->host + (a - b->base);
        for (;;) {
            x = esz == 2 ? __atomic_load_n((const uint16_t *)h, __ATOMIC_ACQUIRE)
              : esz == 4 ? __atomic_load_n((const uint32_t *)h, __ATOMIC_ACQUIRE)
                         : __atomic_load_n((const uint64_t *)h, __ATOMIC_ACQUIRE);
            if (x == w) break;
            clock_gettime(CLOCK_MONOTONIC, &t);
            int64_t ns = (int64_t)(t.tv_sec - t0.tv_sec) * 1000000000 + (t.tv_nsec - t0.tv_nsec);
            if (timeout >= 0 && ns >= timeout) break;
            if (TRAP_GET(s->interrupted)) break;      /* Ctrl-C: the executor unwinds at the next op */
            if (!warned && ns >= 1000000000) {
                warned = true;
                pthread_mutex_lock(&s->rep_lock);     /* stderr: the report may be read only at the end */
                fprintf(stderr, "warning: atomic_poll in program (%" PRId64 ", %" PRId64 ", %" PRId64 ") has waited "
                        "1 s for element %" PRId64 " of %s to become %" PRId64 "%s; Ctrl-C stops the launch\n",
                        p->pid[0], p->pid[1], p->pid[2], e, b->name, sext(w, esz * 8),
                        s->parallel ? "" : " (programs run one at a time: a value only a later program writes "
                                           "never comes; --schedule parallel runs them side by side)");
                interp_quote_loc(s->f, op->loc, stderr);
                pthread_mutex_unlock(&s->rep_lock);
            }
            sched_yield();
        }
        out[i] = x == w;             /* an atomic read: no race with anyone, no write recorded */
    }
    p->synced = true;                        /* an acquire orders the program's later accesses */
    flush(p, &fs, ACC_ATOMIC, "atomic_poll", s->vi[op->opnd[1]].dt, esz, s->f->values.v[op->opnd[0]].type);
}

/* ---- pointer arithmetic ---- */

/* Lane i of an integer tile of element size esz, sign-extended (i1: 0/1). */
static inline int64_t lane_int(const void *t, int esz, int64_t i)
{
    switch (esz) {
    case 1: return ((const int8_t *)t)[i];
    case 2: return ((const int16_t *)t)[i];
    case 4: return ((const int32_t *)t)[i];
    default: return ((const int64_t *)t)[i];
    }
}

/* o = base + off << pshift, and whether the result is rows of consecutive
 * elements (computed in the same pass, so loads and stores need not check). */
#define ADDPTR(T, EXT)                                                                            \
    {                                                                                             \
        const T *restrict off = off_;                                                             \
        for (int64_t r = 0; r < n; r += cols) {                                                   \
            uint64_t first = (scalar_base ? ptr[0] : ptr[r]) + ((uint64_t)(EXT)off[r] << pshift); \
            if (scalar_base) {                                                                    \
                uint64_t b0 = ptr[0];                                                             \
                for (int64_t c = 0; c < cols; c++) {                                              \
                    uint64_t v = b0 + ((uint64_t)(EXT)off[r + c] << pshift);                      \
                    o[r + c] = v;                                                                 \
                    diff |= v ^ (first + ((uint64_t)c << pshift));                                \
                }                                                                                 \
            } else {                                                                              \
                for (int64_t c = 0; c < cols; c++) {                                              \
                    uint64_t v = ptr[r + c] + ((uint64_t)(EXT)off[r + c] << pshift);              \
                    o[r + c] = v;                                                                 \
                    diff |= v ^ (first + ((uint64_t)c << pshift));                                \
                }                                                                                 \
            }                                                                                     \
        }                                                                                         \
    }

static void eval_addptr(interp_prog *p, const ir_op *op)
{
    interp_session *s = p->s;
    const ival_info *vr = &s->vi[op->res], *vo = &s->vi[op->opnd[1]];
    int64_t n = vr->numel;
    /* addptr(splat(p), offs), the usual form, reads the scalar p directly */
    ir_value pv = op->opnd[0];
    const ir_value_info *pi = &s->f->values.v[pv];
    bool scalar_base = false;
    if (pi->def_kind == IR_DEF_OP) {
        const ir_op *def = &s->f->regions.v[pi->region].ops[pi->index];
        if (def->opc == IR_SPLAT) {
            pv = def->opnd[0];
            scalar_base = true;
        }
    }
    /* a one-element base (tensor<1x!tt.ptr>, itself maybe a splat) is read as a scalar */
    const uint64_t *restrict ptr = scalar_base ? p->vals[pv] : interp_operand(p, op, 0, n);
    if (!scalar_base && s->vi[op->opnd[0]].numel == 1) scalar_base = true;
    const void *off_ = interp_operand(p, op, 1, n);
    uint64_t *restrict o = interp_result(p, op, 0);
    int pshift = __builtin_ctz((unsigned)vr->psize);
    int64_t cols = row_len(vr);
    /* rows of a uniform base plus a run of offsets, or of a run of
     * pointers plus uniform offsets, are runs: computed from each row's
     * first lane, with no pass over the offsets */
    uint8_t fb = scalar_base ? CT_UNIF | interp_ct_single(vr) : p->contig[op->opnd[0]];
    uint8_t fo = vo->numel == 1 && n > 1 ? CT_UNIF | interp_ct_single(vr) : p->contig[op->opnd[1]];
    if (n % cols == 0 && (((fb & CT_UNIF) && (fo & CT_RUN)) || ((fb & CT_RUN) && (fo & CT_UNIF)))) {
        int64_t so = vo->numel == 1 ? 0 : 1;
        if (interp_heads_only(p, op)) {           /* only loads, stores and row paths read it */
            for (int64_t r = 0; r < n; r += cols)
                o[r] = (scalar_base ? ptr[0] : ptr[r]) + ((uint64_t)lane_int(off_, vo->esize, r * so) << pshift);
            p->contig[op->res] = CT_RUN | CT_HEADS;
            return;
        }
        for (int64_t r = 0; r < n; r += cols) {
            uint64_t first = (scalar_base ? ptr[0] : ptr[r]) + ((uint64_t)lane_int(off_, vo->esize, r * so) << pshift);
            uint64_t *restrict row = o + r, step = (uint64_t)1 << pshift, a = first;
            int64_t c = 0;
            /* two 2-lane vectors (GCC/Clang vector extension): the plain
             * loop is vectorized with a shuffle per store */
            typedef uint64_t u64x2 __attribute__((vector_size(16)));
            u64x2 v0 = { a, a + step }, v1 = { a + 2 * step, a + 3 * step }, inc = { 4 * step, 4 * step };
            for (; c + 4 <= cols; c += 4, v0 += inc, v1 += inc) {
                memcpy(row + c, &v0, 16);
                memcpy(row + c + 2, &v1, 16);
            }
            for (a += (uint64_t)c * step; c < cols; c++, a += step) row[c] = a;
        }
        p->contig[op->res] = CT_RUN;
        return;
    }
    interp_full(p, op->opnd[0]);              /* every lane of both operands from here on */
    interp_full(p, op->opnd[1]);
    uint64_t diff = 0;
    /* offsets are sign-extended (LLVM GEP), i1 is 0/1 */
    switch (vo->dt) {
    case TT_BOOL: ADDPTR(uint8_t, uint64_t) break;
    case TT_I8: ADDPTR(int8_t, int64_t) break;
    case TT_I16: ADDPTR(int16_t, int64_t) break;
    case TT_I32: ADDPTR(int32_t, int64_t) break;
    default: ADDPTR(int64_t, int64_t) break;
    }
    p->contig[op->res] = diff == 0 ? CT_RUN : 0;
}

static void eval_ptr_int(interp_prog *p, const ir_op *op)
{
    interp_session *s = p->s;
    const ival_info *vr = &s->vi[op->res], *va = &s->vi[op->opnd[0]];
    if (vr->esize == va->esize) {            /* i64 <-> ptr: same bits */
        p->vals[op->res] = p->vals[op->opnd[0]];
        return;
    }
    int64_t n = vr->numel;
    const uint8_t *a = p->vals[op->opnd[0]];
    uint8_t *o = interp_result(p, op, 0);
    for (int64_t i = 0; i < n; i++) {
        uint64_t x = 0;                      /* zero-extend or truncate */
        memcpy(&x, a + i * va->esize, va->esize);
        if (vr->dt == TT_BOOL) x = x != 0;
        memcpy(o + i * vr->esize, &x, vr->esize);
    }
}

void interp_eval_mem(interp_prog *p, const ir_op *op)
{
    /* views to check, or a tracer (trace.c: --html) that sees every access before it happens */
    if (__builtin_expect(p->s->views_any | p->s->trace_on, 0) && (ir_ops[op->opc].props & P_MEM)) {
        if (p->s->trace_on) interp_trace_access(p, op);
        if (p->s->views_any) {
            for (int k = 0; k < op->nopnd; k++) interp_full(p, op->opnd[k]);
            interp_view_check(p, op);
        }
    }
    switch (op->opc) {
    case IR_ADDPTR: eval_addptr(p, op); break;
    case IR_INT_TO_PTR:
    case IR_PTR_TO_INT: eval_ptr_int(p, op); break;
    case IR_LOAD: eval_load(p, op); break;
    case IR_STORE: eval_store(p, op); break;
    case IR_ATOMIC_RMW:
    case IR_ATOMIC_CAS: eval_atomic(p, op); break;
    case IR_ATOMIC_POLL: eval_poll(p, op); break;
    default: die("interp_eval_mem: %s", ir_ops[op->opc].name);
    }
}
