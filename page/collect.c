/* collect.c — what the page shows about a launch, collected while it runs
 * (page.h, page_int.h): the maps' geometry, the tracer's calls, the
 * diff/check error maps, and sealing the launch into its JSON. */
#include "page_int.h"
#include "tritium/diag.h"

#include <math.h>
#include <string.h>

/* ---- geometry ------------------------------------------------------------- */

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

static int64_t floordiv(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/* Lay out m's elements in cells, at most `budget` of them (plus the
 * overhang). Linear maps wrap rows of W cells, W a power of two near twice
 * the square root of the cell count (16..256; up to 16 cells make one
 * row); 2-D maps keep the last dimension as columns (at most 256 cells
 * wide, 512 high). */
static void geometry(pg_map *m, int64_t budget)
{
    int64_t n = m->numel > 0 ? m->numel : 1;
    if (!m->linear) {
        int64_t C = m->shape[m->rank - 1] > 0 ? m->shape[m->rank - 1] : 1, R = cdiv(n, C);
        m->cols = C;
        m->bw = cdiv(C, 256);
        m->ccols = cdiv(C, m->bw);
        int64_t maxr = budget / m->ccols;
        if (maxr > 512) maxr = 512;
        if (maxr < 1) maxr = 1;
        m->bh = cdiv(R, maxr);
        m->crows = cdiv(R, m->bh);
    } else {
        int64_t b = n <= budget ? 1 : cdiv(n, budget);
        int64_t cells = cdiv(n, b), w;
        if (cells <= 16) {
            w = cells;                     /* one row */
        } else {
            for (w = 16; w < 256 && w * w < 4 * cells; w *= 2) {}      /* about twice as wide as high */
        }
        m->bh = 1;
        m->bw = b;
        m->ccols = w;
        m->cols = w * b;
        m->crows = cdiv(cells, w);
    }
    m->ncells = (m->crows + 2 * PG_OVER) * m->ccols;
}

/* The cell (index into the cell arrays, -1 beyond the overhang) of element
 * e, which may be negative or past the end; *off its place in the block. */
static int64_t cell_of(const pg_map *m, int64_t e, uint32_t *off)
{
    int64_t r = floordiv(e, m->cols), c = e - r * m->cols;
    int64_t cr = floordiv(r, m->bh), cc = c / m->bw;
    if (cr < -PG_OVER || cr >= m->crows + PG_OVER) return -1;
    if (off) *off = (uint32_t)((r - cr * m->bh) * m->bw + (c - cc * m->bw));
    return (cr + PG_OVER) * m->ccols + cc;
}

/* The element at place `off` of cell `cell`. */
static int64_t elem_at(const pg_map *m, int64_t cell, uint32_t off)
{
    int64_t cr = cell / m->ccols - PG_OVER, cc = cell % m->ccols;
    return (cr * m->bh + (int64_t)off / m->bw) * m->cols + cc * m->bw + (int64_t)off % m->bw;
}

/* The shape to draw: a view that is its whole storage, dense and row-major
 * (libtritium passes storages as 1-d tensors with the view beside them),
 * else the tensor's own. */
static void map_shape(pg_map *m, const launch_arg *a)
{
    const tt_tensor *t = a->tensor;
    m->rank = t->rank;
    memcpy(m->shape, t->shape, sizeof m->shape);
    if (a->view && a->offset == 0 && a->view_rank >= 1 && a->view_rank <= TT_MAX_RANK) {
        int64_t n = 1, stride = 1;
        bool dense = true;
        for (int d = a->view_rank - 1; d >= 0; d--) {
            if (a->view_shape[d] != 1 && a->view_strides[d] != stride) dense = false;
            stride *= a->view_shape[d];
            n *= a->view_shape[d];
        }
        if (dense && n == m->numel) {
            m->rank = a->view_rank;
            memcpy(m->shape, a->view_shape, sizeof m->shape);
        }
    }
    int big = 0;                           /* dims > 1: one of them is a vector */
    for (int d = 0; d < m->rank; d++) big += m->shape[d] > 1;
    m->linear = m->rank <= 1 || big <= 1;
}

static void *fill_alloc(int64_t n, size_t sz, int byte)
{
    void *p = xmalloc((size_t)n * sz);
    memset(p, byte, (size_t)n * sz);
    return p;
}

static void map_free(pg_map *m)
{
    free(m->name);
    free(m->st);
    free(m->wp);
    free(m->rp);
    free(m->xp);
    free(m->wl);
    free(m->rl);
    free(m->off);
    free(m->pri);
    free(m->dst);
    free(m->err);
    free(m->ref);
    free(m->got);
    free(m->doff);
    memset(m, 0, sizeof *m);
}

/* ---- the tracer ----------------------------------------------------------- */

/* The map holding virtual address a (in its buffer), or NULL. */
static pg_map *map_at(page_launch *pl, uint64_t a)
{
    for (int i = 0; i < pl->nmaps; i++)
        if (a >= pl->maps[i].base && a < pl->maps[i].end) return &pl->maps[i];
    return NULL;
}

/* The map nearest to an address in no buffer, as the interpreter's reports
 * have it (report.c: within 2^30 bytes and aligned), with the element the
 * address would be; NULL when none. */
static pg_map *map_near(page_launch *pl, uint64_t a, int64_t *e)
{
    pg_map *best = NULL;
    uint64_t bestd = UINT64_MAX;
    for (int i = 0; i < pl->nmaps; i++) {
        pg_map *m = &pl->maps[i];
        uint64_t d = a < m->base ? m->base - a : a - m->end + 1;
        if (d < bestd) {
            bestd = d;
            best = m;
        }
    }
    if (!best || bestd > (1ull << 30)) return NULL;
    int64_t off = (int64_t)(a - best->base);
    if (off % best->esize) return NULL;
    *e = off / best->esize;
    return best;
}

static void push_run(page_launch *pl, int64_t prog, int map, int kind, int64_t start, int64_t len)
{
    if (pl->runs_cut || len <= 0) return;
    if (pl->nruns > 0) {                   /* extends the last one? (a row of a tile after the one before) */
        pg_run *r = &pl->runs[pl->nruns - 1];
        if (r->prog == (uint32_t)prog && r->map == map && r->kind == kind && (int64_t)r->start + r->len == start) {
            r->len += (uint32_t)len;
            return;
        }
    }
    if (pl->nruns == PAGE_MAX_RUNS) {
        /* drop the program's runs so far: a program is shown whole or not at all */
        while (pl->nruns > 0 && pl->runs[pl->nruns - 1].prog == (uint32_t)prog) pl->nruns--;
        pl->runs_cut = true;
        pl->cut_prog = prog;
        return;
    }
    if (pl->nruns == pl->capruns) {
        pl->capruns = pl->capruns ? pl->capruns * 2 : 4096;
        if (pl->capruns > PAGE_MAX_RUNS) pl->capruns = PAGE_MAX_RUNS;
        pl->runs = xrealloc(pl->runs, (size_t)pl->capruns * sizeof *pl->runs);
    }
    pl->runs[pl->nruns++] = (pg_run){ (uint32_t)prog, (uint16_t)map, (uint8_t)kind, (uint32_t)start, (uint32_t)len };
}

static void on_access(void *user, const interp_access *a)
{
    page_launch *pl = user;
    pthread_mutex_lock(&pl->lock);
    uint16_t loc = a->loc >= 0 && a->loc < pl->f->locs.n ? pl->loc_index[a->loc] : 0;
    int32_t prog = (int32_t)a->program;
    bool load = a->kind == INTERP_ACC_LOAD;
    uint8_t bit = load ? PG_READ : a->kind == INTERP_ACC_ATOMIC ? PG_WRITE | PG_ATOMIC : PG_WRITE;
    pg_map *m = NULL;
    /* the element, its row and column, its cell's and its place in the
     * cell, followed lane to lane while the lanes are consecutive */
    int64_t e = INT64_MIN, r = 0, c = 0, cr = 0, cc = 0, ri = 0, ci = 0;
    int64_t last = -2, rstart = -1, rlen = 0;
    for (int64_t i = 0; i < a->n; i++) {
        if (a->mask && !a->mask[i]) continue;
        uint64_t ad = a->addr[i];
        if (!m || ad < m->base || ad >= m->end) {
            pg_map *nm = map_at(pl, ad);
            if (!nm) continue;             /* faults: on_problem draws them */
            if (nm != m) {
                if (m) push_run(pl, prog, (int)(m - pl->maps), a->kind, rstart, rlen);
                rlen = 0;
                last = -2;
                m = nm;
                e = INT64_MIN;
            }
        }
        int64_t ne = (int64_t)((ad - m->base) >> m->eshift);
        if (ne == e) continue;
        if (ne == e + 1) {
            c++;
            if (++ci == m->bw) {
                ci = 0;
                cc++;
            }
            if (c == m->cols) {
                c = ci = cc = 0;
                r++;
                if (++ri == m->bh) {
                    ri = 0;
                    cr++;
                }
            }
        } else {
            r = ne / m->cols;              /* ne >= 0: inside the buffer */
            c = ne - r * m->cols;
            cr = r / m->bh;
            ri = r - cr * m->bh;
            cc = c / m->bw;
            ci = c - cc * m->bw;
        }
        e = ne;
        int64_t cell = (cr + PG_OVER) * m->ccols + cc;
        if (cell == last) continue;
        if (load) {
            if (m->rp[cell] >= 0 && m->rp[cell] != prog) m->st[cell] |= PG_MANYR;
            m->rp[cell] = prog;
            m->rl[cell] = loc;
            m->read = true;
        } else {
            if (m->wp[cell] >= 0 && m->wp[cell] != prog) m->st[cell] |= PG_MANYW;
            m->wp[cell] = prog;
            m->wl[cell] = loc;
            m->written = true;
        }
        m->st[cell] |= bit;
        if (cell == last + 1 && rlen) {
            rlen++;
        } else {
            if (rlen) push_run(pl, prog, (int)(m - pl->maps), a->kind, rstart, rlen);
            rstart = cell;
            rlen = 1;
        }
        last = cell;
    }
    if (m && rlen) push_run(pl, prog, (int)(m - pl->maps), a->kind, rstart, rlen);
    pthread_mutex_unlock(&pl->lock);
}

static void on_problem(void *user, const interp_problem *pb)
{
    page_launch *pl = user;
    pthread_mutex_lock(&pl->lock);
    int64_t e = 0;
    pg_map *m = map_at(pl, pb->addr);
    if (m) e = (int64_t)((pb->addr - m->base) >> m->eshift);
    else m = map_near(pl, pb->addr, &e);
    if (!m) {
        pl->far_oob++;
        pthread_mutex_unlock(&pl->lock);
        return;
    }
    uint32_t off = 0;
    int64_t cell = cell_of(m, e, &off);
    if (cell < 0) {
        m->far++;
        pthread_mutex_unlock(&pl->lock);
        return;
    }
    uint8_t bit = pb->fault ? PG_FAULT : pb->race ? PG_RACE : PG_UNINIT;
    uint8_t pri = pb->fault ? 3 : pb->race ? 2 : 1;
    m->st[cell] |= bit;
    if (pri > m->pri[cell]) {
        m->pri[cell] = pri;
        m->off[cell] = off;
    }
    uint16_t loc = pb->loc >= 0 && pb->loc < pl->f->locs.n ? pl->loc_index[pb->loc] : 0;
    bool outside = e < 0 || e >= m->numel;
    if (outside) {
        /* a lane past the edge: the cell has no element; its program and op */
        bool load = !loc || pl->loc_kind[loc - 1] == INTERP_ACC_LOAD;
        if (load) {
            m->rp[cell] = (int32_t)pb->program;
            m->rl[cell] = loc;
        } else {
            m->wp[cell] = (int32_t)pb->program;
            m->wl[cell] = loc;
        }
        push_run(pl, pb->program, (int)(m - pl->maps), PG_RUN_FAULT, cell, 1);
    }
    if (pb->race && pb->other >= 0) {
        if (!m->xp) m->xp = fill_alloc(m->ncells, sizeof *m->xp, 0xff);
        m->xp[cell] = (int32_t)pb->other;
    }
    pthread_mutex_unlock(&pl->lock);
}

/* ---- a launch ------------------------------------------------------------- */

page_doc *page_doc_new(const char *title)
{
    page_doc *d = xcalloc(1, sizeof *d);
    d->title = xstrdup(title ? title : "tritium");
    pthread_mutex_init(&d->lock, NULL);
    return d;
}

int page_doc_launches(const page_doc *d) { return d->added; }

static char *dup_or(const char *s, const char *dflt) { return xstrdup(s ? s : dflt); }

page_launch *page_launch_begin(page_doc *d, const ir_func *f, const launch *l, interp_session *s,
                               const page_launch_info *info)
{
    page_launch *pl = xcalloc(1, sizeof *pl);
    pl->doc = d;
    pl->f = f;
    pl->l = l;
    pl->s = s;
    pthread_mutex_init(&pl->lock, NULL);
    page_launch_info none = { 0 };
    if (!info) info = &none;
    pl->label = info->label ? xstrdup(info->label) : NULL;
    pl->file = info->file ? xstrdup(info->file) : NULL;
    pl->schedule = dup_or(info->schedule, "in-order");
    pl->numerics = dup_or(info->numerics, "ieee");
    pl->seed = info->seed;
    pl->parallel = info->schedule && !strcmp(info->schedule, "parallel");
    pl->cut_prog = -1;
    int64_t g[3];
    for (int k = 0; k < 3; k++) g[k] = l->grid[k] > 0 ? l->grid[k] : 1;
    pl->nprograms = g[0] * g[1] * g[2];

    /* the memory ops' locations */
    pl->loc_index = xcalloc((size_t)(f->locs.n ? f->locs.n : 1), sizeof *pl->loc_index);
    pl->locs = xcalloc((size_t)(f->locs.n ? f->locs.n : 1), sizeof *pl->locs);
    pl->loc_kind = xcalloc((size_t)(f->locs.n ? f->locs.n : 1), 1);
    for (int r = 0; r < f->regions.n; r++)
        for (int i = 0; i < f->regions.v[r].nops; i++) {
            const ir_op *op = &f->regions.v[r].ops[i];
            if (!(ir_ops[op->opc].props & P_MEM) || op->loc < 0 || op->loc >= f->locs.n) continue;
            if (pl->loc_index[op->loc] || pl->nlocs >= 65534) continue;
            pl->locs[pl->nlocs] = op->loc;
            pl->loc_kind[pl->nlocs] = op->opc == IR_LOAD ? INTERP_ACC_LOAD
                                    : op->opc == IR_STORE ? INTERP_ACC_STORE : INTERP_ACC_ATOMIC;
            pl->loc_index[op->loc] = (uint16_t)++pl->nlocs;
        }

    /* one map per storage */
    int n = l->nargs + l->nextra;
    pl->arg_map = xmalloc((size_t)(n ? n : 1) * sizeof *pl->arg_map);
    pl->maps = xcalloc((size_t)(n ? n : 1), sizeof *pl->maps);
    for (int i = 0; i < n; i++) {
        pl->arg_map[i] = -1;
        const launch_arg *a = &l->args[i];
        if (a->kind != ARG_TENSOR || !a->tensor || launch_owner(l, i) != i) continue;
        uint64_t base = interp_buffer_base(s, i);
        if (!base) continue;
        pg_map *m = &pl->maps[pl->nmaps];
        m->arg = i;
        m->name = xstrdup(a->name ? a->name : "?");
        m->t = a->tensor;
        m->dt = a->tensor->dtype;
        m->esize = tt_dtype_size(m->dt);
        m->eshift = __builtin_ctz((unsigned)m->esize);
        m->numel = tt_tensor_numel(a->tensor);
        m->base = base;
        m->end = base + (uint64_t)m->numel * (uint64_t)m->esize;
        map_shape(m, a);
        pl->arg_map[i] = pl->nmaps++;
    }
    for (int i = 0; i < n; i++) {
        int o = launch_owner(l, i);
        if (o >= 0 && o != i && pl->arg_map[i] < 0) pl->arg_map[i] = pl->arg_map[o];
    }
    int64_t budget = pl->nmaps ? PAGE_LAUNCH_CELLS / pl->nmaps : PAGE_MAX_CELLS;
    if (budget > PAGE_MAX_CELLS) budget = PAGE_MAX_CELLS;
    if (budget < 4096) budget = 4096;
    for (int i = 0; i < pl->nmaps; i++) {
        pg_map *m = &pl->maps[i];
        geometry(m, budget);
        pl->reduced |= m->bh * m->bw > 1;
        m->st = xcalloc((size_t)m->ncells, 1);
        m->pri = xcalloc((size_t)m->ncells, 1);
        m->off = xcalloc((size_t)m->ncells, sizeof *m->off);
        m->wl = xcalloc((size_t)m->ncells, sizeof *m->wl);
        m->rl = xcalloc((size_t)m->ncells, sizeof *m->rl);
        m->wp = fill_alloc(m->ncells, sizeof *m->wp, 0xff);
        m->rp = fill_alloc(m->ncells, sizeof *m->rp, 0xff);
    }
    interp_tracer t = { on_access, on_problem, pl };
    interp_set_tracer(s, &t);

    pthread_mutex_lock(&d->lock);
    if (d->n == d->cap) {
        d->cap = d->cap ? d->cap * 2 : 8;
        d->v = xrealloc(d->v, (size_t)d->cap * sizeof *d->v);
    }
    pl->order = d->added++;
    d->v[d->n++] = pl;
    pthread_mutex_unlock(&d->lock);
    return pl;
}

void page_launch_other(page_launch *pl, const char *ref_label, const char *other_label, int64_t mismatches)
{
    free(pl->ref_label);
    free(pl->other_label);
    pl->ref_label = xstrdup(ref_label && *ref_label ? ref_label : "interp");
    pl->other_label = xstrdup(other_label && *other_label ? other_label : "other");
    pl->mismatches = mismatches;
    pl->compared = true;
}

/* ---- diff/check error maps ------------------------------------------------- */

static uint64_t bits_at(const void *p, int esize, int64_t i)
{
    uint64_t v = 0;
    memcpy(&v, (const char *)p + i * esize, (size_t)esize);
    return v;
}

/* Distance in ULPs of two float bit patterns of `bits` bits (sign and
 * magnitude mapped onto one ordered line); UINT64_MAX when one is NaN. */
static uint64_t ulp_dist(uint64_t a, uint64_t b, int bits, bool an, bool bn)
{
    if (an || bn) return an && bn ? 0 : UINT64_MAX;
    uint64_t sign = 1ull << (bits - 1), mag = sign - 1;
    int64_t x = (a & sign) ? -(int64_t)(a & mag) : (int64_t)(a & mag);
    int64_t y = (b & sign) ? -(int64_t)(b & mag) : (int64_t)(b & mag);
    return x > y ? (uint64_t)(x - y) : (uint64_t)(y - x);
}

void page_launch_compare(page_launch *pl, int arg, const void *ref, const void *got, const uint8_t *bad,
                         page_rule rule, int64_t mismatches)
{
    if (arg < 0 || arg >= pl->l->nargs + pl->l->nextra || pl->arg_map[arg] < 0 || !ref || !got) return;
    pg_map *m = &pl->maps[pl->arg_map[arg]];
    if (m->cmp) return;
    m->cmp = true;
    m->rule = rule;
    m->mismatches = mismatches;
    m->dst = xcalloc((size_t)m->ncells, 1);
    m->err = xcalloc((size_t)m->ncells, sizeof *m->err);
    m->doff = xcalloc((size_t)m->ncells, sizeof *m->doff);
    m->ref = xmalloc((size_t)m->ncells * sizeof *m->ref);
    m->got = xmalloc((size_t)m->ncells * sizeof *m->got);
    tt_dtype d = m->dt;
    bool isf = tt_dtype_is_float(d);
    int bits = m->esize * 8;
    int64_t R = cdiv(m->numel, m->cols);
    double *best = fill_alloc(m->ncells, sizeof *best, 0xff);     /* NaN bits: nothing seen yet */
    for (int64_t r = 0; r < R; r++) {
        int64_t cr = r / m->bh, ri = r - cr * m->bh;
        for (int64_t c0 = 0, cc = 0; c0 < m->cols; c0 += m->bw, cc++) {
            int64_t cell = (cr + PG_OVER) * m->ccols + cc;
            for (int64_t c = c0; c < c0 + m->bw && c < m->cols; c++) {
                int64_t e = r * m->cols + c;
                if (e >= m->numel) break;
                uint64_t rb = bits_at(ref, m->esize, e), gb = bits_at(got, m->esize, e);
                double score = 0;
                uint8_t st = 0;
                if (rb != gb) {
                    double a = tt_load_f64(got, d, e), b = tt_load_f64(ref, d, e);
                    double err;
                    if (isf) {
                        uint64_t u = ulp_dist(gb, rb, bits, isnan(a), isnan(b));
                        err = u == UINT64_MAX ? INFINITY : (double)u;
                    } else {
                        err = fabs(a - b);
                    }
                    bool ok = !(bad && bad[e >> 3] >> (e & 7) & 1);
                    st = ok ? 1 : 3;
                    score = err + (ok ? 0 : 1e300);
                    if ((float)err > m->err[cell] || isinf(err)) m->err[cell] = (float)err;
                }
                m->dst[cell] |= st;
                if (isnan(best[cell]) || score > best[cell]) {
                    best[cell] = score;
                    m->doff[cell] = (uint32_t)(ri * m->bw + (c - c0));
                }
            }
        }
    }
    for (int64_t cell = 0; cell < m->ncells; cell++) {
        int64_t e = elem_at(m, cell, m->doff[cell]);
        bool in = !isnan(best[cell]) && e >= 0 && e < m->numel;
        m->ref[cell] = in ? tt_load_f64(ref, d, e) : NAN;
        m->got[cell] = in ? tt_load_f64(got, d, e) : NAN;
    }
    free(best);
}

/* ---- sealing: the launch as JSON ------------------------------------------ */

static json_t *jnum(double v) { return isfinite(v) ? json_real(v) : json_null(); }

static const char *file_of(const page_launch *pl, int file) { (void)pl; return file >= 0 ? diag_file_name(file) : "?"; }

/* The source lines shown: per file, from the kernel's def (and decorators)
 * to the last line any op comes from. */
static json_t *sources_json(const page_launch *pl, json_t **names)
{
    const ir_func *f = pl->f;
    json_t *files = json_array();
    *names = json_array();
    int seen[64], lo[64], hi[64], nf = 0;
    for (int i = 0; i < f->locs.n; i++) {
        const ir_loc *lc = &f->locs.v[i];
        if (lc->file < 0 || lc->line <= 0) continue;
        int k = 0;
        while (k < nf && seen[k] != lc->file) k++;
        if (k == nf) {
            if (nf == 64) continue;
            seen[nf] = lc->file;
            lo[nf] = hi[nf] = lc->line;
            nf++;
        }
        if (lc->line < lo[k]) lo[k] = lc->line;
        if (lc->line > hi[k]) hi[k] = lc->line;
    }
    for (int k = 0; k < nf; k++) {
        int first = lo[k];
        /* up to the def line and its decorators */
        for (int up = 0; up < 200 && first > 1; up++) {
            const char *t = diag_source_line(seen[k], first);
            while (*t == ' ' || *t == '\t') t++;
            if (!strncmp(t, "def ", 4)) break;
            first--;
        }
        while (first > 1) {
            const char *t = diag_source_line(seen[k], first - 1);
            while (*t == ' ' || *t == '\t') t++;
            if (*t != '@') break;
            first--;
        }
        int last = hi[k];
        if (last - first > 3000) last = first + 3000;
        json_t *lines = json_array();
        for (int ln = first; ln <= last; ln++) json_array_append_new(lines, json_string(diag_source_line(seen[k], ln)));
        json_array_append_new(files, json_pack("{s:s,s:i,s:o}", "name", file_of(pl, seen[k]), "first", first,
                                               "lines", lines));
        json_array_append_new(*names, json_integer(seen[k]));
    }
    return files;
}

static int file_slot(json_t *names, int file)
{
    for (size_t i = 0; i < json_array_size(names); i++)
        if (json_integer_value(json_array_get(names, i)) == file) return (int)i;
    return -1;
}

static json_t *loc_json(const page_launch *pl, json_t *names, int32_t loc)
{
    if (loc < 0 || loc >= pl->f->locs.n) return json_null();
    const ir_loc *lc = &pl->f->locs.v[loc];
    return json_pack("{s:i,s:i,s:i,s:s}", "file", file_slot(names, lc->file), "line", lc->line, "col", lc->col,
                     "func", lc->func ? lc->func : "");
}

static json_t *pid_json(const int64_t pid[3])
{
    return json_pack("[III]", (json_int_t)pid[0], (json_int_t)pid[1], (json_int_t)pid[2]);
}

static json_t *shape_json(const int64_t *shape, int rank)
{
    json_t *a = json_array();
    for (int d = 0; d < rank; d++) json_array_append_new(a, json_integer(shape[d]));
    return a;
}

static bool wide_values(tt_dtype d)
{
    return d == TT_F64 || d == TT_I32 || d == TT_U32 || d == TT_I64 || d == TT_U64;
}

/* The cell arrays of rows [r0, r1) of m. */
static json_t *map_json(page_launch *pl, pg_map *m, int idx)
{
    int64_t r0 = PG_OVER, r1 = PG_OVER + m->crows;
    for (int64_t r = 0; r < PG_OVER && r0 == PG_OVER; r++)
        for (int64_t c = 0; c < m->ccols; c++)
            if (m->st[r * m->ccols + c]) {
                r0 = r;
                break;
            }
    for (int64_t r = m->crows + 2 * PG_OVER - 1; r >= PG_OVER + m->crows && r1 == PG_OVER + m->crows; r--)
        for (int64_t c = 0; c < m->ccols; c++)
            if (m->st[r * m->ccols + c]) {
                r1 = r + 1;
                break;
            }
    int64_t c0 = r0 * m->ccols, nc = (r1 - r0) * m->ccols;
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(m->name));
    json_t *names = json_array();
    for (int i = 0; i < pl->l->nargs + pl->l->nextra; i++)
        if (pl->arg_map[i] == idx) json_array_append_new(names, json_string(pl->l->args[i].name ? pl->l->args[i].name : "?"));
    json_object_set_new(o, "args", names);
    json_object_set_new(o, "arg", json_integer(m->arg));
    json_object_set_new(o, "extra", json_boolean(m->arg >= pl->l->nargs));
    json_object_set_new(o, "dtype", json_string(tt_dtype_name(m->dt)));
    json_object_set_new(o, "shape", shape_json(m->shape, m->rank));
    json_object_set_new(o, "numel", json_integer(m->numel));
    json_object_set_new(o, "linear", json_boolean(m->linear));
    json_object_set_new(o, "cols", json_integer(m->cols));
    json_object_set_new(o, "bh", json_integer(m->bh));
    json_object_set_new(o, "bw", json_integer(m->bw));
    json_object_set_new(o, "crows", json_integer(m->crows));
    json_object_set_new(o, "ccols", json_integer(m->ccols));
    json_object_set_new(o, "over", json_integer(PG_OVER));
    json_object_set_new(o, "r0", json_integer(r0));
    json_object_set_new(o, "r1", json_integer(r1));
    json_object_set_new(o, "read", json_boolean(m->read));
    json_object_set_new(o, "written", json_boolean(m->written));
    json_object_set_new(o, "far", json_integer(m->far));
    json_object_set_new(o, "st", pg_blob(m->st + c0, (size_t)nc, 1, "u8"));
    json_object_set_new(o, "wp", pg_blob(m->wp + c0, (size_t)nc, 4, "i32"));
    json_object_set_new(o, "rp", pg_blob(m->rp + c0, (size_t)nc, 4, "i32"));
    json_object_set_new(o, "wl", pg_blob(m->wl + c0, (size_t)nc, 2, "u16"));
    json_object_set_new(o, "rl", pg_blob(m->rl + c0, (size_t)nc, 2, "u16"));
    if (m->bh * m->bw > 1) json_object_set_new(o, "off", pg_blob(m->off + c0, (size_t)nc, 4, "u32"));
    if (m->xp) json_object_set_new(o, "xp", pg_blob(m->xp + c0, (size_t)nc, 4, "i32"));
    /* the value of each cell's element (its worst, or its first) after the launch */
    bool wide = wide_values(m->dt);
    void *vals = xmalloc((size_t)nc * (wide ? 8 : 4));
    for (int64_t k = 0; k < nc; k++) {
        int64_t e = elem_at(m, c0 + k, m->off[c0 + k]);
        double v = e >= 0 && e < m->numel && m->t->data ? tt_load_f64(m->t->data, m->dt, e) : NAN;
        if (wide) ((double *)vals)[k] = v;
        else ((float *)vals)[k] = (float)v;
    }
    json_object_set_new(o, "val", pg_blob(vals, (size_t)nc, wide ? 8 : 4, wide ? "f64" : "f32"));
    free(vals);
    if (m->cmp) {
        json_t *c = json_object();
        json_object_set_new(c, "unit", json_string(tt_dtype_is_float(m->dt) ? "ulp" : "abs"));
        json_object_set_new(c, "mismatches", json_integer(m->mismatches));
        json_object_set_new(c, "bounds", json_boolean(m->rule.bounds));
        json_object_set_new(c, "rtol", jnum(m->rule.rtol));
        json_object_set_new(c, "atol", jnum(m->rule.atol));
        json_object_set_new(c, "ulp", json_integer(m->rule.ulp));
        json_object_set_new(c, "exact", json_boolean(m->rule.exact));
        json_object_set_new(c, "dst", pg_blob(m->dst + c0, (size_t)nc, 1, "u8"));
        json_object_set_new(c, "err", pg_blob(m->err + c0, (size_t)nc, 4, "f32"));
        json_object_set_new(c, "ref", pg_blob(m->ref + c0, (size_t)nc, 8, "f64"));
        json_object_set_new(c, "got", pg_blob(m->got + c0, (size_t)nc, 8, "f64"));
        if (m->bh * m->bw > 1) json_object_set_new(c, "off", pg_blob(m->doff + c0, (size_t)nc, 4, "u32"));
        /* the last writer of each cell's worst element, from the session's shadow */
        int32_t *dw = fill_alloc(nc, sizeof *dw, 0xff);
        uint16_t *dl = xcalloc((size_t)nc, sizeof *dl);
        for (int64_t k = 0; k < nc && pl->s; k++) {
            if (!m->dst[c0 + k]) continue;
            int64_t e = elem_at(m, c0 + k, m->doff[c0 + k]), prog;
            int32_t loc;
            if (e >= 0 && e < m->numel && interp_last_writer(pl->s, m->arg, e, &prog, &loc)) {
                dw[k] = (int32_t)prog;
                dl[k] = loc >= 0 && loc < pl->f->locs.n ? pl->loc_index[loc] : 0;
            }
        }
        json_object_set_new(c, "dw", pg_blob(dw, (size_t)nc, 4, "i32"));
        json_object_set_new(c, "dl", pg_blob(dl, (size_t)nc, 2, "u16"));
        free(dw);
        free(dl);
        json_object_set_new(o, "cmp", c);
    }
    return o;
}

static int run_cmp(const void *a, const void *b)
{
    const pg_run *x = a, *y = b;
    if (x->prog != y->prog) return x->prog < y->prog ? -1 : 1;
    if (x->map != y->map) return x->map < y->map ? -1 : 1;
    if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1;
    return x->start < y->start ? -1 : x->start > y->start;
}

/* Per program the cells it touched: "pp" the programs, "po" their first
 * run (one more at the end), "rk" map << 2 | kind, "rs" first cell, "rn"
 * cells (cell indices into the map's full arrays, overhang rows included). */
static json_t *progs_json(page_launch *pl)
{
    qsort(pl->runs, (size_t)pl->nruns, sizeof *pl->runs, run_cmp);
    int64_t n = 0;
    for (int64_t i = 0; i < pl->nruns; i++) {          /* merge overlapping and adjacent runs */
        pg_run *r = &pl->runs[i];
        if (n > 0) {
            pg_run *q = &pl->runs[n - 1];
            if (q->prog == r->prog && q->map == r->map && q->kind == r->kind && (int64_t)q->start + q->len >= r->start) {
                int64_t end = (int64_t)r->start + r->len;
                if (end > (int64_t)q->start + q->len) q->len = (uint32_t)(end - q->start);
                continue;
            }
        }
        pl->runs[n++] = *r;
    }
    uint32_t *pp = xmalloc((size_t)(n + 1) * 4), *po = xmalloc((size_t)(n + 2) * 4);
    uint8_t *rk = xmalloc((size_t)(n + 1));
    uint32_t *rs = xmalloc((size_t)(n + 1) * 4), *rn = xmalloc((size_t)(n + 1) * 4);
    int64_t np = 0;
    for (int64_t i = 0; i < n; i++) {
        const pg_run *r = &pl->runs[i];
        if (np == 0 || pp[np - 1] != r->prog) {
            pp[np] = r->prog;
            po[np] = (uint32_t)i;
            np++;
        }
        rk[i] = (uint8_t)(r->map << 2 | r->kind);
        rs[i] = r->start;
        rn[i] = r->len;
    }
    po[np] = (uint32_t)n;
    json_t *o = json_object();
    json_object_set_new(o, "pp", pg_blob(pp, (size_t)np, 4, "u32"));
    json_object_set_new(o, "po", pg_blob(po, (size_t)np + 1, 4, "u32"));
    json_object_set_new(o, "rk", pg_blob(rk, (size_t)n, 1, "u8"));
    json_object_set_new(o, "rs", pg_blob(rs, (size_t)n, 4, "u32"));
    json_object_set_new(o, "rn", pg_blob(rn, (size_t)n, 4, "u32"));
    json_object_set_new(o, "cut", json_boolean(pl->runs_cut));
    json_object_set_new(o, "cut_prog", json_integer(pl->cut_prog));
    free(pp);
    free(po);
    free(rk);
    free(rs);
    free(rn);
    return o;
}

static json_t *const_value(const launch_const *c)
{
    switch (c->kind) {
    case CONST_INT: return json_integer(c->i);
    case CONST_BOOL: return json_string(c->i ? "True" : "False");
    case CONST_FLOAT: return jnum(c->f);
    case CONST_STR: return json_string(c->s ? c->s : "");
    case CONST_DTYPE: return json_string(tt_dtype_triton_name((tt_dtype)c->i));
    case CONST_FUNC: return json_string(c->s ? c->s : "");
    case CONST_NONE: return json_string("None");
    case CONST_TUPLE: return json_string("tuple");
    }
    return json_null();
}

/* The JSON text of o for a <script> element: '<' escaped, so no "</script"
 * or "<!--" can end or change the element. */
static char *dump_safe(json_t *o)
{
    char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9));
    if (!s) die("page: cannot serialize a launch");
    size_t n = 0, lt = 0;
    for (; s[n]; n++) lt += s[n] == '<';
    if (!lt) return s;
    char *t = xmalloc(n + lt * 5 + 1), *q = t;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '<') {
            memcpy(q, "\\u003c", 6);
            q += 6;
        } else {
            *q++ = s[i];
        }
    }
    *q = 0;
    free(s);
    return t;
}

void page_launch_end(page_launch *pl, interp_session *s)
{
    interp_set_tracer(s, NULL);
    pl->s = s;
    const ir_func *f = pl->f;
    const launch *l = pl->l;
    interp_stats st;
    interp_get_stats(s, &st);
    json_t *o = json_object();
    json_object_set_new(o, "kernel", json_string(f->name));
    const char *file = pl->file;
    if (!file) {
        for (int i = 0; i < f->locs.n && !file; i++)
            if (f->locs.v[i].file >= 0) file = diag_file_name(f->locs.v[i].file);
    }
    json_object_set_new(o, "file", json_string(file ? file : "?"));
    json_object_set_new(o, "label", pl->label ? json_string(pl->label) : json_null());
    json_object_set_new(o, "order", json_integer(pl->order));
    json_object_set_new(o, "grid", json_pack("[III]", (json_int_t)l->grid[0], (json_int_t)l->grid[1],
                                             (json_int_t)l->grid[2]));
    json_object_set_new(o, "nprograms", json_integer(pl->nprograms));
    json_object_set_new(o, "num_warps", json_integer(l->num_warps > 0 ? l->num_warps : 4));
    json_object_set_new(o, "schedule", json_string(pl->schedule));
    json_object_set_new(o, "numerics", json_string(pl->numerics));
    json_object_set_new(o, "seed", json_integer((json_int_t)pl->seed));
    json_object_set_new(o, "stats", json_pack("{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:o}", "programs", (json_int_t)st.programs,
                                              "faults", (json_int_t)st.faults, "fault_lanes",
                                              (json_int_t)st.fault_lanes, "races", (json_int_t)st.races,
                                              "uninit_reads", (json_int_t)st.uninit_reads, "overflows",
                                              (json_int_t)st.overflows, "view_lanes", (json_int_t)st.view_lanes,
                                              "seconds", jnum(st.seconds)));
    pl->badness = st.faults ? 4 : st.races ? 3 : pl->mismatches ? 2 : st.uninit_reads || st.overflows ? 1 : 0;
    static const char *const status[] = { "ok", "warning", "mismatch", "race", "fault" };
    json_object_set_new(o, "status", json_string(status[pl->badness]));
    json_object_set_new(o, "reduced", json_boolean(pl->reduced));
    if (pl->compared) {
        json_object_set_new(o, "ref", json_string(pl->ref_label));
        json_object_set_new(o, "other", json_string(pl->other_label));
        json_object_set_new(o, "mismatches", json_integer(pl->mismatches));
    }
    json_t *args = json_array();
    for (int i = 0; i < l->nargs + l->nextra; i++) {
        const launch_arg *a = &l->args[i];
        json_t *j = json_object();
        json_object_set_new(j, "name", json_string(a->name ? a->name : "?"));
        if (a->kind == ARG_TENSOR) {
            char b[160];
            json_object_set_new(j, "kind", json_string("tensor"));
            json_object_set_new(j, "value", json_string(a->tensor ? tt_tensor_describe(a->tensor, b, sizeof b) : "?"));
            json_object_set_new(j, "map", json_integer(pl->arg_map[i]));
        } else if (a->kind == ARG_INT) {
            json_object_set_new(j, "kind", json_string(tt_dtype_name(a->dtype)));
            json_object_set_new(j, "value", json_integer(a->i));
        } else {
            json_object_set_new(j, "kind", json_string(tt_dtype_name(a->dtype)));
            json_object_set_new(j, "value", jnum(a->f));
        }
        json_array_append_new(args, j);
    }
    for (int i = 0; i < l->nconsts; i++)
        json_array_append_new(args, json_pack("{s:s,s:s,s:o}", "name", l->consts[i].name, "kind", "constexpr", "value",
                                              const_value(&l->consts[i])));
    json_object_set_new(o, "args", args);
    /* the summary alone: what the page keeps of a launch whose maps are dropped */
    char *summary = dump_safe(o);

    json_t *names;
    json_object_set_new(o, "files", sources_json(pl, &names));
    json_t *locs = json_array();
    for (int k = 0; k < pl->nlocs; k++) {
        json_t *j = loc_json(pl, names, pl->locs[k]);
        static const char *const kinds[] = { "load", "store", "atomic" };
        json_object_set_new(j, "kind", json_string(kinds[pl->loc_kind[k]]));
        json_array_append_new(locs, j);
    }
    json_object_set_new(o, "locs", locs);
    int64_t nsites = interp_sites(s, NULL, 0);
    interp_site_info *si = xcalloc((size_t)(nsites ? nsites : 1), sizeof *si);
    interp_sites(s, si, nsites);
    json_t *reps = json_array();
    for (int64_t i = 0; i < nsites; i++) {
        const interp_site_info *x = &si[i];
        json_t *j = json_object();
        json_object_set_new(j, "kind", json_string(x->kind));
        json_object_set_new(j, "fault", json_boolean(x->fault));
        json_object_set_new(j, "race", json_boolean(x->race));
        json_object_set_new(j, "op", json_string(x->op ? x->op : "?"));
        json_object_set_new(j, "program", pid_json(x->pid));
        json_object_set_new(j, "programs", json_integer(x->programs));
        json_object_set_new(j, "lanes", json_integer(x->lanes));
        json_object_set_new(j, "at", loc_json(pl, names, x->loc));
        int mi = x->arg >= 0 && x->arg < l->nargs + l->nextra ? pl->arg_map[x->arg] : -1;
        json_object_set_new(j, "map", mi >= 0 ? json_integer(mi) : json_null());
        json_object_set_new(j, "element", mi >= 0 ? json_integer(x->elem) : json_null());
        if (mi >= 0) {
            char ib[TT_INDEX_STR_LEN];
            const pg_map *m = &pl->maps[mi];
            int64_t flat[1] = { 0 };
            tt_index_str(m->rank <= 1 ? flat : m->shape, m->rank <= 1 ? 1 : m->rank, x->elem, ib, sizeof ib);
            json_object_set_new(j, "index", json_string(ib));
        }
        json_object_set_new(j, "other_program", x->has_other ? pid_json(x->other_pid) : json_null());
        json_array_append_new(reps, j);
    }
    free(si);
    json_object_set_new(o, "reports", reps);
    json_object_set_new(o, "far_oob", json_integer(pl->far_oob));
    json_t *maps = json_array();
    for (int i = 0; i < pl->nmaps; i++) json_array_append_new(maps, map_json(pl, &pl->maps[i], i));
    json_object_set_new(o, "maps", maps);
    json_object_set_new(o, "progs", progs_json(pl));
    json_decref(names);
    char *full = dump_safe(o);
    json_decref(o);

    for (int i = 0; i < pl->nmaps; i++) map_free(&pl->maps[i]);
    free(pl->maps);
    pl->maps = NULL;
    free(pl->runs);
    pl->runs = NULL;
    free(pl->arg_map);
    pl->arg_map = NULL;
    free(pl->locs);
    free(pl->loc_index);
    free(pl->loc_kind);
    pl->locs = NULL;
    pl->loc_index = NULL;
    pl->loc_kind = NULL;
    pl->s = NULL;
    pl->f = NULL;
    pl->l = NULL;

    /* keep at most PAGE_MAX_LAUNCHES with their maps: the least bad (the
     * latest of those) loses its maps first */
    page_doc *d = pl->doc;
    pthread_mutex_lock(&d->lock);
    pl->json = full;
    int kept = 0;
    for (int i = 0; i < d->n; i++) kept += d->v[i]->json != NULL;
    if (kept > PAGE_MAX_LAUNCHES) {
        page_launch *worst = NULL;
        for (int i = 0; i < d->n; i++) {
            page_launch *q = d->v[i];
            if (!q->json) continue;
            if (!worst || q->badness < worst->badness || (q->badness == worst->badness && q->order > worst->order))
                worst = q;
        }
        free(worst->json);
        worst->json = NULL;
        d->dropped++;
    }
    pthread_mutex_unlock(&d->lock);
    pl->summary = summary;
}

void pg_launch_free(page_launch *pl)
{
    if (pl->maps)
        for (int i = 0; i < pl->nmaps; i++) map_free(&pl->maps[i]);
    free(pl->maps);
    free(pl->runs);
    free(pl->arg_map);
    free(pl->locs);
    free(pl->loc_index);
    free(pl->loc_kind);
    free(pl->label);
    free(pl->file);
    free(pl->schedule);
    free(pl->numerics);
    free(pl->ref_label);
    free(pl->other_label);
    free(pl->json);
    free(pl->summary);
    pthread_mutex_destroy(&pl->lock);
    free(pl);
}
