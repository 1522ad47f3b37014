/* prove.c — proof mode: one abstract run of the kernel's IR stands for every
 * program of the grid (prove.h; the domain is in prove_dom.h, the decision
 * procedure in prove_solve.c).
 *
 * Ops are interpreted over tiles of affine forms. Scalars that are not
 * affine in the symbols (`pid // num_pid_in_group`, `min(...)`) become fresh
 * symbols bounded by their range, so that the masks and the addresses that
 * use them stay correlated; per-lane non-affine values keep only an interval
 * term. scf.for gets one symbol k for its iteration (iv = lb + step * k, with
 * iv < ub as a path constraint); loop-carried integers and pointers that move
 * by a constant each iteration (`a_ptrs += BLOCK_K * stride`) become
 * init + k * delta, checked by running the body again; everything else that
 * is carried is unknown. */
#include "prove_dom.h"
#include "internal.h"

#include <stdio.h>

typedef __int128 i128;

typedef struct psym { int kind, ref; } psym;

typedef struct pst {
    const prove_input *in;
    const ir_func *f;
    arena mem;
    ptile **vals;
    pbox box;                      /* the symbols' ranges */
    psym sym[PV_NSYM];
    int nsym;
    paff path[64];                 /* constraints of the enclosing scf.for / scf.if */
    int npath;
    int path_inexact;              /* > 0: some enclosing condition is unknown */
    int norec;                     /* > 0: a trial pass of a loop; accesses are not recorded */
    int *opbase;                   /* per region: global number of its op 0 */
    int *acc_of;                   /* per global op: index into accs, -1 */
    prove_access *accs;
    int nacc;
    int64_t *extent_c;             /* per launch argument: numel at for-all value 0 ... */
    int64_t (*extent_a)[PROVE_MAX_FORALL];
    int forall_sym[PROVE_MAX_FORALL];
    int nsamp;                     /* for-all values to search counterexamples at */
    int64_t samp_fv[16][PROVE_MAX_FORALL], samp_grid[16][3];
} pst;

/* ---- tiles --------------------------------------------------------------- */

static int64_t numel_of(const pst *S, ir_value v) { return ir_type_numel(ir_value_type(S->f, v)); }

static ptile *top(pst *S, int32_t loc, const char *why)
{
    ptile *t = arena_alloc(&S->mem, sizeof *t);
    t->kind = PK_TOP;
    t->why_loc = loc;
    t->why = why;
    return t;
}

/* A mask tile with room for cw conjuncts per lane (what its op can make:
 * one per comparison, the sum for an and). */
static ptile *new_mask(pst *S, int64_t n, int cw)
{
    ptile *t = arena_alloc(&S->mem, sizeof *t);
    t->kind = PK_MASK;
    t->n = n;
    t->why_loc = -1;
    t->cw = (uint8_t)(cw < 1 ? 1 : cw > PV_MAXC ? PV_MAXC : cw);
    t->nc = arena_alloc(&S->mem, (size_t)n);
    t->cons = arena_alloc(&S->mem, (size_t)n * t->cw * sizeof(paff));
    return t;
}

static ptile *new_tile(pst *S, int kind, int64_t n)
{
    if (kind == PK_MASK) return new_mask(S, n, PV_MAXC);
    ptile *t = arena_alloc(&S->mem, sizeof *t);
    t->kind = (uint8_t)kind;
    t->n = n;
    t->why_loc = -1;
    {
        t->v = arena_alloc(&S->mem, (size_t)n * sizeof(paff));
    }
    return t;
}

static ptile *val(pst *S, const ir_op *op, int k)
{
    ptile *t = S->vals[op->opnd[k]];
    return t ? t : top(S, op->loc, "a value the analysis did not reach");
}

static void set(pst *S, const ir_op *op, ptile *t) { S->vals[op->res] = t; }

/* The first top among operands (for the reason of a result's loss). */
static ptile *first_top(pst *S, const ir_op *op)
{
    for (int k = 0; k < op->nopnd; k++) {
        ptile *t = val(S, op, k);
        if (t->kind == PK_TOP) return t;
    }
    return NULL;
}

static paff konst(int64_t c)
{
    paff a;
    memset(&a, 0, sizeof a);
    a.c = c;
    return a;
}

static bool is_const(const paff *x)
{
    if (x->elo || x->ehi) return false;
    for (int k = 0; k < PV_NSYM; k++) if (x->a[k]) return false;
    return true;
}

static bool has_syms(const paff *x)
{
    for (int k = 0; k < PV_NSYM; k++) if (x->a[k]) return true;
    return false;
}

static bool aff_eq(const paff *x, const paff *y) { return !memcmp(x, y, sizeof *x); }

static bool fit64(i128 v) { return v >= INT64_MIN && v <= INT64_MAX; }

/* x + s * y; false on overflow. */
static bool aff_axpy(paff *out, const paff *x, int64_t s, const paff *y)
{
    paff r;
    i128 c = (i128)x->c + (i128)s * y->c;
    i128 lo = (i128)s * (s >= 0 ? y->elo : y->ehi), hi = (i128)s * (s >= 0 ? y->ehi : y->elo);
    lo += x->elo;
    hi += x->ehi;
    if (!fit64(c) || !fit64(lo) || !fit64(hi)) return false;
    r.c = (int64_t)c;
    r.elo = (int64_t)lo;
    r.ehi = (int64_t)hi;
    for (int k = 0; k < PV_NSYM; k++) {
        i128 a = (i128)x->a[k] + (i128)s * y->a[k];
        if (!fit64(a)) return false;
        r.a[k] = (int64_t)a;
    }
    *out = r;
    return true;
}

static bool aff_scale(paff *out, const paff *x, int64_t s)
{
    paff z = konst(0);
    return aff_axpy(out, &z, s, x);
}

static paff interval(int64_t lo, int64_t hi)
{
    paff a = konst(0);
    a.elo = lo;
    a.ehi = hi;
    return a;
}

static const paff *lane(const ptile *t, int64_t i) { return &t->v[t->n == 1 ? 0 : i]; }

/* ---- symbols ------------------------------------------------------------- */

static int new_sym(pst *S, int kind, int ref, int64_t lo, int64_t hi)
{
    if (S->nsym >= PV_NSYM) return -1;
    int k = S->nsym++;
    S->sym[k] = (psym){ kind, ref };
    S->box.lo[k] = lo;
    S->box.hi[k] = hi;
    return k;
}

/* A value that leaves a scope whose symbols (>= keep) end: lanes that use
 * them become their range. */
static ptile *escape(pst *S, ptile *t, int keep)
{
    if (t->kind != PK_INT && t->kind != PK_PTR) return t;
    ptile *r = NULL;
    for (int64_t i = 0; i < t->n; i++) {
        bool uses = false;
        for (int k = keep; k < PV_NSYM; k++) uses |= t->v[i].a[k] != 0;
        if (!uses) continue;
        if (!r) {
            r = new_tile(S, t->kind, t->n);
            r->buf = t->buf;
            memcpy(r->v, t->v, (size_t)t->n * sizeof(paff));
        }
        int64_t lo, hi;
        if (!pv_range(&t->v[i], &S->box, &lo, &hi)) return top(S, -1, "a value too large to track");
        r->v[i] = interval(lo, hi);
    }
    return r ? r : t;
}

/* ---- integer results: wrap check, fresh symbols for scalars -------------- */

/* Finish an integer result tile: a lane that may leave the range of the
 * op's type would wrap (the value is then unknown: Triton's int32 offsets
 * wrap silently, which `--check overflow` reports when running). */
static ptile *int_result_t(pst *S, ir_type type, int32_t loc, ptile *r)
{
    int bits = ir_type_bits(type);
    if (bits >= 64 || r->kind != PK_INT) return r;
    int64_t tmax = bits <= 1 ? 1 : (int64_t)((1ull << (bits - 1)) - 1), tmin = bits <= 1 ? 0 : -tmax - 1;
    for (int64_t i = 0; i < r->n; i++) {
        int64_t lo, hi;
        if (!pv_range(&r->v[i], &S->box, &lo, &hi) || lo < tmin || hi > tmax)
            return top(S, loc, bits == 32 ? "int32 arithmetic that may overflow" : "integer arithmetic that may overflow");
    }
    return r;
}

static ptile *int_result(pst *S, const ir_op *op, ptile *r)
{
    return int_result_t(S, ir_value_type(S->f, op->res), op->loc, r);
}

/* A non-affine result given by its range per lane: a scalar becomes a fresh
 * symbol (keeps correlation between the masks and addresses that use it). */
static ptile *ranged(pst *S, const ir_op *op, int64_t n, const int64_t *lo, const int64_t *hi)
{
    ptile *r = new_tile(S, PK_INT, n);
    if (n == 1 && lo[0] != hi[0]) {
        int k = new_sym(S, SYM_DERIVED, op->res, lo[0], hi[0]);
        if (k >= 0) {
            r->v[0] = konst(0);
            r->v[0].a[k] = 1;
            return r;
        }
    }
    for (int64_t i = 0; i < n; i++) r->v[i] = interval(lo[i], hi[i]);
    return r;
}

/* ---- shape ops: lane maps ------------------------------------------------ */

static ptile *gather(pst *S, const ptile *x, int64_t n, const int64_t *map)
{
    if (x->kind == PK_TOP || x->n == 1) return (ptile *)x;
    ptile *r = x->kind == PK_MASK ? new_mask(S, n, x->cw) : new_tile(S, x->kind, n);
    r->buf = x->buf;
    r->inexact = x->inexact;
    for (int64_t i = 0; i < n; i++) {
        if (x->kind == PK_MASK) {
            r->nc[i] = x->nc[map[i]];
            memcpy(&r->cons[i * r->cw], &x->cons[map[i] * x->cw], x->cw * sizeof(paff));
        } else {
            r->v[i] = x->v[map[i]];
        }
    }
    return r;
}

static ptile *shape_op(pst *S, const ir_op *op)
{
    ptile *x = val(S, op, 0);
    if (op->opc == IR_BITCAST) {
        ir_type ti = ir_value_type(S->f, op->opnd[0]), to = ir_value_type(S->f, op->res);
        bool ptrs = ir_type_is_ptr(ti) && ir_type_is_ptr(to);
        if (!ptrs && !(ir_type_is_int(ti) && ir_type_is_int(to) && ir_type_bits(ti) == ir_type_bits(to)))
            return top(S, op->loc, "a bitcast");
        if (ptrs && ir_type_bits(ir_type_get(ir_type_elem(ti))->pointee) !=
                    ir_type_bits(ir_type_get(ir_type_elem(to))->pointee))
            return top(S, op->loc, "a pointer cast to another element size");
        return x;
    }
    if (op->opc == IR_EXPAND_DIMS || op->opc == IR_RESHAPE) return x;
    int64_t n = numel_of(S, op->res);
    if (x->kind == PK_TOP || x->n == 1) return x;
    const ir_type_info *to = ir_type_get(ir_value_type(S->f, op->res));
    const ir_type_info *ti = ir_type_get(ir_value_type(S->f, op->opnd[0]));
    int64_t *map = xmalloc((size_t)n * sizeof *map);
    int64_t perm[IR_ATTR_ARRAY_MAX] = { 0 };
    if (op->opc == IR_TRANS && ir_attr_array_get(S->f, op->attr[0], perm) != to->rank) {
        free(map);
        return top(S, op->loc, "a transpose");
    }
    for (int64_t i = 0; i < n; i++) {
        int64_t idx[IR_MAX_RANK], e = i;
        for (int d = to->rank - 1; d >= 0; d--) {
            idx[d] = e % to->shape[d];
            e /= to->shape[d];
        }
        int64_t src = 0;
        for (int d = 0; d < ti->rank; d++) {
            int64_t id;
            if (op->opc == IR_TRANS) {
                id = 0;
                for (int q = 0; q < to->rank; q++) if (perm[q] == d) id = idx[q];
            } else {
                id = ti->shape[d] == 1 ? 0 : idx[d + (to->rank - ti->rank)];
            }
            src = src * ti->shape[d] + id;
        }
        map[i] = src;
    }
    ptile *r = gather(S, x, n, map);
    free(map);
    return r;
}

/* ---- masks ---------------------------------------------------------------- */

static ptile *mask_const(pst *S, bool on)
{
    ptile *m = new_mask(S, 1, 1);
    m->nc[0] = on ? 0 : PV_FALSE;
    return m;
}

static ptile *mask_unknown(pst *S)
{
    ptile *m = mask_const(S, true);
    m->inexact = true;
    return m;
}

/* Add constraint c >= 0 to lane i of m (folding constants). */
static void mask_add(ptile *m, int64_t i, const paff *c, const pbox *b)
{
    if (m->nc[i] == PV_FALSE) return;
    if (!has_syms(c)) {
        if (c->c + c->elo >= 0) return;                       /* always true */
        if (c->c + c->ehi < 0) { m->nc[i] = PV_FALSE; return; }
    }
    int64_t lo, hi;
    if (pv_range(c, b, &lo, &hi)) {
        if (lo >= 0) return;
        if (hi < 0) { m->nc[i] = PV_FALSE; return; }
    }
    if (m->nc[i] >= m->cw) { m->inexact = true; return; }
    m->cons[i * m->cw + m->nc[i]++] = *c;
}

static ptile *cmpi(pst *S, const ir_op *op)
{
    ptile *x = val(S, op, 0), *y = val(S, op, 1);
    if (x->kind != PK_INT || y->kind != PK_INT) return mask_unknown(S);
    int pred = (int)op->attr[0];
    int64_t n = x->n > y->n ? x->n : y->n;
    ptile *m = new_mask(S, n, pred == CMPI_EQ ? 2 : 1);
    for (int64_t i = 0; i < n; i++) {
        const paff *a = lane(x, i), *b = lane(y, i);
        paff d;
        bool ok = true;
        int64_t alo, ahi, blo, bhi;
        bool uns = pred >= CMPI_ULT;
        if (uns && !(pv_range(a, &S->box, &alo, &ahi) && pv_range(b, &S->box, &blo, &bhi) && alo >= 0 && blo >= 0)) {
            m->inexact = true;
            continue;
        }
        switch (pred) {
        case CMPI_SLT: case CMPI_ULT: ok = aff_axpy(&d, b, -1, a) && aff_axpy(&d, &d, -1, &(paff){ .c = 1 }); break;
        case CMPI_SLE: case CMPI_ULE: ok = aff_axpy(&d, b, -1, a); break;
        case CMPI_SGT: case CMPI_UGT: ok = aff_axpy(&d, a, -1, b) && aff_axpy(&d, &d, -1, &(paff){ .c = 1 }); break;
        case CMPI_SGE: case CMPI_UGE: ok = aff_axpy(&d, a, -1, b); break;
        case CMPI_EQ:
            ok = aff_axpy(&d, a, -1, b);
            if (ok) {
                paff e;
                ok = aff_scale(&e, &d, -1);
                if (ok) mask_add(m, i, &e, &S->box);
            }
            break;
        default:                                                     /* ne */
            ok = aff_axpy(&d, a, -1, b);
            if (ok && is_const(&d)) {
                if (d.c == 0) m->nc[i] = PV_FALSE;
                continue;
            }
            m->inexact = true;
            continue;
        }
        if (!ok) { m->inexact = true; continue; }
        mask_add(m, i, &d, &S->box);
    }
    return m;
}

static bool lane_exact_true(const ptile *m, int64_t i)
{
    return !m->inexact && m->nc[m->n == 1 ? 0 : i] == 0;
}

static ptile *mask_logic(pst *S, const ir_op *op)
{
    ptile *x = val(S, op, 0), *y = val(S, op, 1);
    if (x->kind != PK_MASK || y->kind != PK_MASK) return mask_unknown(S);
    int64_t n = x->n > y->n ? x->n : y->n;
    ptile *m = new_mask(S, n, op->opc == IR_ANDI ? x->cw + y->cw : x->cw > y->cw ? x->cw : y->cw);
    m->inexact = x->inexact || y->inexact;
    for (int64_t i = 0; i < n; i++) {
        int64_t xi = x->n == 1 ? 0 : i, yi = y->n == 1 ? 0 : i;
        uint8_t xn = x->nc[xi], yn = y->nc[yi];
        const paff *xc = &x->cons[xi * x->cw], *yc = &y->cons[yi * y->cw];
        if (op->opc == IR_ANDI) {
            if (xn == PV_FALSE || yn == PV_FALSE) { m->nc[i] = PV_FALSE; continue; }
            for (int j = 0; j < xn; j++) mask_add(m, i, &xc[j], &S->box);
            for (int j = 0; j < yn; j++) mask_add(m, i, &yc[j], &S->box);
        } else if (op->opc == IR_ORI) {
            if (xn == PV_FALSE || yn == PV_FALSE) {
                const paff *c = xn == PV_FALSE ? yc : xc;
                uint8_t cn = xn == PV_FALSE ? yn : xn;
                m->nc[i] = cn == PV_FALSE ? PV_FALSE : 0;
                for (int j = 0; j < cn && cn != PV_FALSE; j++) m->cons[i * m->cw + j] = c[j];
                if (cn != PV_FALSE) m->nc[i] = cn;
            } else if (xn == 0 && !x->inexact) {
                m->nc[i] = 0;
            } else if (yn == 0 && !y->inexact) {
                m->nc[i] = 0;
            } else {
                m->nc[i] = 0;
                m->inexact = true;
            }
        } else {                                                     /* xori: negation by true */
            const ptile *o = NULL;
            int64_t oi = 0;
            if (lane_exact_true(x, i) && xn == 0) { o = y; oi = yi; }
            else if (lane_exact_true(y, i) && yn == 0) { o = x; oi = xi; }
            if (o && o->nc[oi] == PV_FALSE) { m->nc[i] = 0; continue; }
            if (o && !o->inexact && o->nc[oi] == 1) {
                paff neg;                                            /* not(c >= 0): -c - 1 >= 0 */
                if (aff_scale(&neg, &o->cons[oi * o->cw], -1) && aff_axpy(&neg, &neg, -1, &(paff){ .c = 1 })) {
                    mask_add(m, i, &neg, &S->box);
                    continue;
                }
            }
            if (o && !o->inexact && o->nc[oi] == 0) { m->nc[i] = PV_FALSE; continue; }
            m->inexact = true;
        }
    }
    return m;
}

/* ---- integer arithmetic --------------------------------------------------- */

static int64_t trunc_div(int64_t a, int64_t b) { return a / b; }

static ptile *arith(pst *S, const ir_op *op)
{
    if (ir_type_bits(ir_value_type(S->f, op->res)) == 1) {
        if (op->opc == IR_ANDI || op->opc == IR_ORI || op->opc == IR_XORI) return mask_logic(S, op);
        return mask_unknown(S);
    }
    ptile *x = val(S, op, 0), *y = val(S, op, 1);
    if (x->kind != PK_INT || y->kind != PK_INT) {
        ptile *t = first_top(S, op);
        return t ? t : top(S, op->loc, "an operation on pointers or masks");
    }
    int64_t n = x->n > y->n ? x->n : y->n;
    ptile *r = new_tile(S, PK_INT, n);
    int64_t *lo = xmalloc((size_t)n * sizeof *lo), *hi = xmalloc((size_t)n * sizeof *hi);
    bool nonaff = false, fail = false;
    for (int64_t i = 0; i < n && !fail; i++) {
        const paff *a = lane(x, i), *b = lane(y, i);
        int64_t al, ah, bl, bh;
        if (!pv_range(a, &S->box, &al, &ah) || !pv_range(b, &S->box, &bl, &bh)) { fail = true; break; }
        paff *o = &r->v[i];
        bool ok = true;
        switch (op->opc) {
        case IR_ADDI: ok = aff_axpy(o, a, 1, b); break;
        case IR_SUBI: ok = aff_axpy(o, a, -1, b); break;
        case IR_MULI:
            if (is_const(b)) ok = aff_scale(o, a, b->c);
            else if (is_const(a)) ok = aff_scale(o, b, a->c);
            else {
                i128 p[4] = { (i128)al * bl, (i128)al * bh, (i128)ah * bl, (i128)ah * bh };
                i128 mn = p[0], mx = p[0];
                for (int q = 1; q < 4; q++) { if (p[q] < mn) mn = p[q]; if (p[q] > mx) mx = p[q]; }
                if (!fit64(mn) || !fit64(mx)) { fail = true; break; }
                lo[i] = (int64_t)mn; hi[i] = (int64_t)mx; nonaff = true;
                *o = interval(lo[i], hi[i]);
            }
            break;
        case IR_DIVSI: case IR_DIVUI: case IR_REMSI: case IR_REMUI: {
            bool div = op->opc == IR_DIVSI || op->opc == IR_DIVUI;
            bool uns = op->opc == IR_DIVUI || op->opc == IR_REMUI;
            if (uns && (al < 0 || bl < 0)) { fail = true; break; }
            if (bl <= 0 && bh >= 0) { fail = true; break; }             /* may divide by 0 */
            if (is_const(b) && b->c > 0 && al >= 0) {
                int64_t k = b->c;
                bool divisible = true;
                for (int q = 0; q < PV_NSYM; q++) divisible &= a->a[q] % k == 0;
                if (!div && ah < k) { *o = *a; break; }
                if (divisible) {
                    /* sum a_q s_q is a multiple of k: only c + e matters */
                    int64_t rl = a->c + a->elo, rh = a->c + a->ehi;
                    int64_t ql = rl >= 0 ? rl / k : -((-rl + k - 1) / k), qh = rh >= 0 ? rh / k : -((-rh + k - 1) / k);
                    if (div) {
                        *o = *a;
                        for (int q = 0; q < PV_NSYM; q++) o->a[q] = a->a[q] / k;
                        o->c = ql == qh ? ql : 0;
                        o->elo = ql == qh ? 0 : ql;
                        o->ehi = ql == qh ? 0 : qh;
                        break;
                    }
                    if (ql == qh) {                                  /* one period: exact */
                        *o = konst(a->c - ql * k);
                        o->elo = a->elo;
                        o->ehi = a->ehi;
                        break;
                    }
                }
            }
            nonaff = true;
            if (div) {
                if (bl > 0 && al >= 0) { lo[i] = al / bh; hi[i] = ah / bl; }
                else if (bl > 0) { lo[i] = trunc_div(al, bl); hi[i] = ah >= 0 ? ah / bl : trunc_div(ah, bh); }
                else { fail = true; break; }
            } else {
                int64_t m = (bl > 0 ? bh : -bl) - 1;
                if (al >= 0) { lo[i] = 0; hi[i] = ah < m ? ah : m; }
                else { lo[i] = al > -m ? al : -m; hi[i] = ah < m ? (ah > 0 ? ah : 0) : m; }
            }
            *o = interval(lo[i], hi[i]);
            break;
        }
        case IR_MAXSI: case IR_MINSI: case IR_MAXUI: case IR_MINUI: {
            bool mx = op->opc == IR_MAXSI || op->opc == IR_MAXUI;
            if ((op->opc == IR_MAXUI || op->opc == IR_MINUI) && (al < 0 || bl < 0)) { fail = true; break; }
            if (ah <= bl) { *o = mx ? *b : *a; break; }
            if (bh <= al) { *o = mx ? *a : *b; break; }
            nonaff = true;
            lo[i] = mx ? (al > bl ? al : bl) : (al < bl ? al : bl);
            hi[i] = mx ? (ah > bh ? ah : bh) : (ah < bh ? ah : bh);
            *o = interval(lo[i], hi[i]);
            break;
        }
        case IR_SHLI:
            if (is_const(b) && b->c >= 0 && b->c < 62) ok = aff_scale(o, a, (int64_t)1 << b->c);
            else fail = true;
            break;
        case IR_ANDI:
            if (al >= 0 || bl >= 0) {
                nonaff = true;
                lo[i] = 0;
                hi[i] = al >= 0 && bl >= 0 ? (ah < bh ? ah : bh) : (al >= 0 ? ah : bh);
                *o = interval(lo[i], hi[i]);
            } else fail = true;
            break;
        case IR_SHRSI: case IR_SHRUI:
            if (is_const(b) && b->c >= 0 && b->c < 63 && al >= 0) {
                nonaff = true;
                lo[i] = al >> b->c;
                hi[i] = ah >> b->c;
                *o = interval(lo[i], hi[i]);
            } else fail = true;
            break;
        default:
            fail = true;
        }
        if (!ok) fail = true;
    }
    ptile *res;
    if (fail) {
        res = top(S, op->loc, "integer arithmetic the analysis does not model");
    } else {
        if (nonaff && n == 1 && is_const(&r->v[0]) == false && !has_syms(&r->v[0]) && r->v[0].elo != r->v[0].ehi)
            res = ranged(S, op, 1, &r->v[0].elo, &r->v[0].ehi);
        else
            res = r;
        res = int_result(S, op, res);
    }
    free(lo);
    free(hi);
    return res;
}

static ptile *select_op(pst *S, const ir_op *op)
{
    ptile *c = val(S, op, 0), *x = val(S, op, 1), *y = val(S, op, 2);
    if (c->kind != PK_MASK || x->kind != y->kind || (x->kind != PK_INT && x->kind != PK_PTR) ||
        (x->kind == PK_PTR && x->buf != y->buf))
        return x->kind == PK_MASK && y->kind == PK_MASK ? mask_unknown(S) : top(S, op->loc, "a select");
    int64_t n = c->n > x->n ? c->n : x->n;
    if (y->n > n) n = y->n;
    ptile *r = new_tile(S, x->kind, n);
    r->buf = x->buf;
    for (int64_t i = 0; i < n; i++) {
        uint8_t cn = c->nc[c->n == 1 ? 0 : i];
        const paff *a = lane(x, i), *b = lane(y, i);
        if (cn == PV_FALSE) r->v[i] = *b;
        else if (cn == 0 && !c->inexact) r->v[i] = *a;
        else if (aff_eq(a, b)) r->v[i] = *a;
        else {
            int64_t al, ah, bl, bh;
            if (!pv_range(a, &S->box, &al, &ah) || !pv_range(b, &S->box, &bl, &bh))
                return top(S, op->loc, "a select");
            r->v[i] = interval(al < bl ? al : bl, ah > bh ? ah : bh);
        }
    }
    return r;
}

static ptile *cast(pst *S, const ir_op *op)
{
    ptile *x = val(S, op, 0);
    ir_type to = ir_value_type(S->f, op->res);
    if (!ir_type_is_int(to)) return top(S, op->loc, "a conversion to float");
    if (ir_type_bits(to) == 1) return mask_unknown(S);
    if (x->kind == PK_MASK) {
        ptile *r = new_tile(S, PK_INT, x->n);
        for (int64_t i = 0; i < x->n; i++)
            r->v[i] = x->nc[i] == PV_FALSE ? konst(0) : lane_exact_true(x, i) ? konst(1) : interval(0, 1);
        return r;
    }
    if (x->kind != PK_INT) return x->kind == PK_TOP ? x : top(S, op->loc, "a conversion");
    if (op->opc == IR_EXTUI) {
        for (int64_t i = 0; i < x->n; i++) {
            int64_t lo, hi;
            if (!pv_range(&x->v[i], &S->box, &lo, &hi) || lo < 0) return top(S, op->loc, "a zero extension");
        }
    }
    if (op->opc == IR_EXTSI || op->opc == IR_EXTUI || op->opc == IR_TRUNCI) return int_result(S, op, x);
    return top(S, op->loc, "a conversion");
}

/* ---- memory ---------------------------------------------------------------- */

static const char *rmw_name(int k)
{
    static const char *const names[] = { "atomic_add", "atomic_add", "atomic_max", "atomic_max", "atomic_min",
                                         "atomic_min", "atomic_and", "atomic_or", "atomic_xor", "atomic_xchg" };
    return k >= 0 && k < (int)TT_COUNTOF(names) ? names[k] : "atomic";
}

static paff extent_of(const pst *S, int arg)
{
    paff e = konst(S->extent_c[arg]);
    for (int j = 0; j < S->in->nforall; j++)
        if (S->forall_sym[j] >= 0) e.a[S->forall_sym[j]] = S->extent_a[arg][j];
    return e;
}

static void set_open(prove_access *a, const char *why, int32_t loc, const ir_func *f)
{
    if (a->status != PROVE_PROVED) return;                   /* refuted or already open */
    a->status = PROVE_OPEN;
    if (loc >= 0 && loc < f->locs.n)
        snprintf(a->why, sizeof a->why, "%s (line %d)", why, f->locs.v[loc].line);
    else
        snprintf(a->why, sizeof a->why, "%s", why);
}

/* The grid's symbols' values at a point, and whether it is a real program. */
static bool real_point(pst *S, const int64_t *pt, int64_t pid[3], int64_t *fv)
{
    pid[0] = pid[1] = pid[2] = 0;
    for (int j = 0; j < S->in->nforall; j++) fv[j] = S->in->l->args[S->in->fa[j].arg].i;
    for (int k = 0; k < S->nsym; k++) {
        if (S->sym[k].kind == SYM_PID) pid[S->sym[k].ref] = pt[k];
        else if (S->sym[k].kind == SYM_FORALL) fv[S->sym[k].ref] = pt[k];
    }
    if (!S->in->grid_at) return true;
    int64_t g[3];
    if (!S->in->grid_at(S->in->user, fv, g)) return false;
    return pid[0] < g[0] && pid[1] < g[1] && pid[2] < g[2];
}

/* The corner of box b that minimizes g, if it is a real counterexample:
 * g < 0 there, every constraint holds, and its program is in the grid. */
static bool corner(pst *S, const paff *g, const paff *const *cons, int nc, const pbox *b, int64_t *pt,
                   int64_t pid[3], int64_t *fv)
{
    for (int k = 0; k < PV_NSYM; k++) pt[k] = g->a[k] < 0 ? b->hi[k] : b->lo[k];
    int64_t gv;
    if (!pv_eval(g, pt, &gv) || gv >= 0) return false;
    for (int j = 0; j < nc; j++) {
        int64_t cv;
        if (!pv_eval(cons[j], pt, &cv) || cv < 0) return false;
    }
    return real_point(S, pt, pid, fv);
}

/* Whether a lane's terms are exact (no interval, no derived symbol). */
static bool exact_form(const pst *S, const paff *x)
{
    if (x->elo || x->ehi) return false;
    for (int k = 0; k < S->nsym; k++)
        if (x->a[k] && S->sym[k].kind == SYM_DERIVED) return false;
    return true;
}

static void check_access(pst *S, int region, int opi, const ir_op *op, ptile *ptr, ptile *mask)
{
    if (S->norec) return;
    int gi = S->acc_of[S->opbase[region] + opi];
    if (gi < 0) return;
    prove_access *a = &S->accs[gi];
    a->reached = true;
    if (a->status == PROVE_REFUTED) return;
    if (ptr->kind != PK_PTR) {
        set_open(a, ptr->kind == PK_TOP && ptr->why ? ptr->why : "an address the analysis does not model",
                 ptr->kind == PK_TOP ? ptr->why_loc : op->loc, S->f);
        return;
    }
    a->arg = ptr->buf;
    const tt_tensor *t = S->in->l->args[ptr->buf].tensor;
    ir_type pt = ir_type_elem(ir_value_type(S->f, op->opnd[0]));
    if (ir_type_bits(ir_type_get(pt)->pointee) != 8 * tt_dtype_size(t->dtype)) {
        set_open(a, "a pointer reinterpreted with another element size", op->loc, S->f);
        return;
    }
    if (mask && mask->kind != PK_MASK) mask = NULL;
    bool inexact = (mask && mask->inexact) || S->path_inexact > 0;
    paff ext = extent_of(S, ptr->buf);
    int64_t n = numel_of(S, op->opnd[0]);
    const paff *cons[PV_MAXC + 64];
    bool open = false;
    for (int64_t i = 0; i < n; i++) {
        int nc = 0;
        if (mask) {
            int64_t mi = mask->n == 1 ? 0 : i;
            if (mask->nc[mi] == PV_FALSE) continue;
            for (int j = 0; j < mask->nc[mi]; j++) cons[nc++] = &mask->cons[mi * mask->cw + j];
        }
        for (int j = 0; j < S->npath; j++) cons[nc++] = &S->path[j];
        pbox b = S->box;
        if (!pv_tighten(&b, cons, nc)) continue;                 /* off in every program */
        const paff *o = lane(ptr, i);
        paff g[2];
        g[0] = *o;                                                /* o >= 0 */
        if (!aff_axpy(&g[1], &ext, -1, o) || !aff_axpy(&g[1], &g[1], -1, &(paff){ .c = 1 })) {
            open = true;
            continue;
        }
        for (int side = 0; side < 2; side++) {
            if (pv_proves(&g[side], cons, nc, &b)) continue;
            /* a counterexample: the corner of the tightened box minimizing g */
            bool exact = !inexact && exact_form(S, &g[side]);
            for (int j = 0; j < nc && exact; j++) exact = exact_form(S, cons[j]);
            int64_t pt[PV_NSYM] = { 0 };
            int64_t pidv[3], fv[PROVE_MAX_FORALL];
            if (exact && !corner(S, &g[side], cons, nc, &b, pt, pidv, fv)) {
                /* the for-all values at the corner may not launch its program:
                 * try sample values with their own grids */
                exact = false;
                for (int q = 0; q < S->nsamp && !exact; q++) {
                    pbox b2 = S->box;
                    bool empty = false;
                    for (int k = 0; k < S->nsym; k++) {
                        if (S->sym[k].kind == SYM_FORALL) b2.lo[k] = b2.hi[k] = S->samp_fv[q][S->sym[k].ref];
                        if (S->sym[k].kind == SYM_PID) {
                            int64_t gq = S->samp_grid[q][S->sym[k].ref];
                            if (gq - 1 < b2.hi[k]) b2.hi[k] = gq - 1;
                            empty |= b2.hi[k] < b2.lo[k];
                        }
                    }
                    exact = !empty && pv_tighten(&b2, cons, nc) && corner(S, &g[side], cons, nc, &b2, pt, pidv, fv);
                }
            }
            if (!exact) {
                open = true;
                continue;
            }
            a->status = PROVE_REFUTED;
            memcpy(a->pid, pidv, sizeof a->pid);
            memcpy(a->forall_val, fv, sizeof a->forall_val);
            a->lane = i;
            a->tile = ir_value_type(S->f, op->opnd[0]);
            pv_eval(o, pt, &a->elem);
            pv_eval(&ext, pt, &a->extent);
            /* every lane of the op at this point */
            a->lanes = 0;
            for (int64_t q = 0; q < n; q++) {
                int64_t ov, on = 1;
                if (!pv_eval(lane(ptr, q), pt, &ov)) continue;
                if (mask) {
                    int64_t mq = mask->n == 1 ? 0 : q;
                    if (mask->nc[mq] == PV_FALSE) on = 0;
                    for (int j = 0; j < mask->nc[mq] && on && mask->nc[mq] != PV_FALSE; j++) {
                        int64_t cv;
                        on = pv_eval(&mask->cons[mq * mask->cw + j], pt, &cv) && cv >= 0;
                    }
                }
                if (on && (ov < 0 || ov >= a->extent)) a->lanes++;
            }
            snprintf(a->why, sizeof a->why, "counterexample found");
            return;
        }
    }
    if (open) set_open(a, "bounds the analysis could not decide", op->loc, S->f);
}

static void mem_op(pst *S, int region, int opi, const ir_op *op)
{
    switch (op->opc) {
    case IR_ADDPTR: {
        ptile *p = val(S, op, 0), *o = val(S, op, 1);
        if (p->kind != PK_PTR || o->kind != PK_INT) {
            ptile *t = first_top(S, op);
            set(S, op, t ? t : top(S, op->loc, "pointer arithmetic the analysis does not model"));
            return;
        }
        int64_t n = p->n > o->n ? p->n : o->n;
        ptile *r = new_tile(S, PK_PTR, n);
        r->buf = p->buf;
        for (int64_t i = 0; i < n; i++)
            if (!aff_axpy(&r->v[i], lane(p, i), 1, lane(o, i))) {
                set(S, op, top(S, op->loc, "an offset too large to track"));
                return;
            }
        set(S, op, r);
        return;
    }
    case IR_INT_TO_PTR:
        set(S, op, top(S, op->loc, "an integer converted to a pointer"));
        return;
    case IR_PTR_TO_INT:
        set(S, op, top(S, op->loc, "a pointer converted to an integer"));
        return;
    case IR_LOAD:
        check_access(S, region, opi, op, val(S, op, 0), op->nopnd > 1 ? val(S, op, 1) : NULL);
        set(S, op, ir_type_bits(ir_value_type(S->f, op->res)) == 1 ? mask_unknown(S)
                                                                   : top(S, op->loc, "a value loaded from memory"));
        return;
    case IR_STORE:
        check_access(S, region, opi, op, val(S, op, 0), op->nopnd > 2 ? val(S, op, 2) : NULL);
        return;
    case IR_ATOMIC_RMW:
        check_access(S, region, opi, op, val(S, op, 0), op->nopnd > 2 ? val(S, op, 2) : NULL);
        set(S, op, top(S, op->loc, "a value returned by an atomic"));
        return;
    case IR_ATOMIC_CAS:
    case IR_ATOMIC_POLL:
        check_access(S, region, opi, op, val(S, op, 0), NULL);
        set(S, op, op->opc == IR_ATOMIC_POLL ? mask_unknown(S) : top(S, op->loc, "a value returned by an atomic"));
        return;
    }
}

/* ---- regions and control flow ------------------------------------------- */

static const ir_op *run_region(pst *S, int32_t r);

static void push_path(pst *S, const paff *c)
{
    if (S->npath < (int)TT_COUNTOF(S->path)) S->path[S->npath++] = *c;
    else S->path_inexact++;                                      /* dropped: stays sound */
}

static ptile *join(pst *S, ptile *x, ptile *y, int32_t loc)
{
    if (x == y) return x;
    if (!x || !y) return top(S, loc, "a value of a branch");
    if (x->kind == PK_PTR && y->kind == PK_PTR && x->buf != y->buf)
        return top(S, loc, "pointers to different buffers from the two branches of an if");
    if (x->kind != y->kind || (x->kind != PK_INT && x->kind != PK_PTR))
        return x->kind == PK_MASK && y->kind == PK_MASK ? mask_unknown(S)
                                                         : (x->kind == PK_TOP ? x : y->kind == PK_TOP ? y : top(S, loc, "a value of a branch"));
    int64_t n = x->n > y->n ? x->n : y->n;
    ptile *r = new_tile(S, x->kind, n);
    r->buf = x->buf;
    for (int64_t i = 0; i < n; i++) {
        const paff *a = lane(x, i), *b = lane(y, i);
        if (aff_eq(a, b)) { r->v[i] = *a; continue; }
        int64_t al, ah, bl, bh;
        if (!pv_range(a, &S->box, &al, &ah) || !pv_range(b, &S->box, &bl, &bh))
            return top(S, loc, "a value of a branch");
        r->v[i] = interval(al < bl ? al : bl, ah > bh ? ah : bh);
    }
    return r;
}

static void if_op(pst *S, const ir_op *op)
{
    ptile *c = val(S, op, 0);
    int keep = S->nsym, np = S->npath;
    bool known = c->kind == PK_MASK && c->n == 1 && !c->inexact;
    bool never = known && c->nc[0] == PV_FALSE, always = known && c->nc[0] == 0;
    ptile *res[2][16] = { { 0 } };
    int nres = op->nres < 16 ? op->nres : 16;
    for (int br = 0; br < 2; br++) {
        if ((br == 0 && never) || (br == 1 && always) || op->region[br] < 0) continue;
        int inex = 0;
        if (br == 0) {
            if (known) for (int j = 0; j < c->nc[0]; j++) push_path(S, &c->cons[j]);
            else inex = 1;
        } else {
            paff neg;
            if (known && c->nc[0] == 1 && aff_scale(&neg, &c->cons[0], -1) &&
                aff_axpy(&neg, &neg, -1, &(paff){ .c = 1 }))
                push_path(S, &neg);
            else
                inex = 1;
        }
        S->path_inexact += inex;
        const ir_op *term = run_region(S, op->region[br]);
        S->path_inexact -= inex;
        S->npath = np;
        for (int j = 0; j < nres && term; j++)
            res[br][j] = j < term->nopnd ? escape(S, val(S, term, j), keep) : NULL;
        S->nsym = keep;
    }
    for (int j = 0; j < op->nres; j++) {
        ptile *v;
        if (j >= 16) v = top(S, op->loc, "a value of a branch");
        else if (never) v = res[1][j];
        else if (always || op->region[1] < 0) v = res[0][j];
        else v = join(S, res[0][j], res[1][j], op->loc);
        S->vals[op->res + j] = v ? v : top(S, op->loc, "a value of a branch");
    }
}

/* init + k * delta for carried values that moved by a constant delta. */
static ptile *advance(pst *S, ptile *init, ptile *delta, int k, int64_t times)
{
    ptile *r = new_tile(S, init->kind, init->n > delta->n ? init->n : delta->n);
    r->buf = init->buf;
    for (int64_t i = 0; i < r->n; i++) {
        paff d = *lane(delta, i);
        paff step = konst(0);
        if (k >= 0) step.a[k] = d.c;
        else step.c = d.c * times;
        if (k < 0 && times && step.c / times != d.c) return NULL;
        if (!aff_axpy(&r->v[i], lane(init, i), 1, &step)) return NULL;
    }
    return r;
}

/* The constant per-lane difference y - x, or NULL: y must be x moved by a
 * constant, with the same symbolic part and an interval term of the same
 * bounds (x's unknown part carried along, as in `ptrs += BLOCK * stride`). */
static ptile *const_delta(pst *S, ptile *x, ptile *y)
{
    if (!x || !y || x->kind != y->kind || (x->kind != PK_INT && x->kind != PK_PTR) || x->buf != y->buf) return NULL;
    int64_t n = x->n > y->n ? x->n : y->n;
    ptile *d = new_tile(S, PK_INT, n);
    for (int64_t i = 0; i < n; i++) {
        const paff *a = lane(x, i), *b = lane(y, i);
        if (a->elo != b->elo || a->ehi != b->ehi || memcmp(a->a, b->a, sizeof a->a)) return NULL;
        i128 dc = (i128)b->c - a->c;
        if (!fit64(dc)) return NULL;
        d->v[i] = konst((int64_t)dc);
    }
    return d;
}

static void for_op(pst *S, const ir_op *op)
{
    ptile *lb = val(S, op, 0), *ub = val(S, op, 1), *st = val(S, op, 2);
    const ir_region *body = &S->f->regions.v[op->region[0]];
    int ncar = op->nopnd - 3;
    int keep = S->nsym, np = S->npath;
    ptile **car = xcalloc((size_t)ncar + 1, sizeof *car), **delta = xcalloc((size_t)ncar + 1, sizeof *delta);
    for (int j = 0; j < ncar; j++) car[j] = val(S, op, 3 + j);
    int64_t lbl = 0, lbh = 0, ubl = 0, ubh = 0;
    bool known = lb->kind == PK_INT && ub->kind == PK_INT && st->kind == PK_INT && is_const(&st->v[0]) &&
                 st->v[0].c > 0 && pv_range(&lb->v[0], &S->box, &lbl, &lbh) && pv_range(&ub->v[0], &S->box, &ubl, &ubh);
    int64_t step = known ? st->v[0].c : 0;
    int64_t tripmax = 0, trip = -1;
    if (known) {
        i128 t = ((i128)ubh - lbl + step - 1) / step;
        tripmax = t < 0 ? 0 : t > INT64_MAX ? INT64_MAX : (int64_t)t;
        if (is_const(&lb->v[0]) && is_const(&ub->v[0])) trip = tripmax;
    }
    if (known && tripmax == 0) {                                 /* never runs */
        for (int j = 0; j < op->nres; j++) S->vals[op->res + j] = car[j];
        free(car);
        free(delta);
        return;
    }
    /* the induction variable: lb + step * k, k in [0, tripmax) */
    ptile *iv;
    int ksym = known ? new_sym(S, SYM_LOOP, op->loc, 0, tripmax - 1) : -1;
    if (ksym >= 0) {
        iv = new_tile(S, PK_INT, 1);
        paff kk = konst(0);
        kk.a[ksym] = 1;
        if (!aff_axpy(&iv->v[0], &lb->v[0], step, &kk)) iv = top(S, op->loc, "a loop bound too large to track");
        else {
            paff c;                                              /* iv <= ub - 1 */
            if (aff_axpy(&c, &ub->v[0], -1, &iv->v[0]) && aff_axpy(&c, &c, -1, &(paff){ .c = 1 })) push_path(S, &c);
            else S->path_inexact++;
            iv = int_result_t(S, ir_value_type(S->f, body->args[0]), op->loc, iv);
        }
    } else if (known) {
        iv = new_tile(S, PK_INT, 1);
        iv->v[0] = interval(lbl, ubh - 1);
        S->path_inexact++;
    } else {
        iv = top(S, op->loc, "a loop whose bounds the analysis does not model");
        S->path_inexact++;
    }
    int inex_added = !(ksym >= 0);
    /* pass 0 finds how the carried values move; later passes check it and
     * record accesses (a pass whose check fails is undone); after 3 failed
     * checks everything carried is unknown, which is stable */
    ptile **cur = xcalloc((size_t)ncar + 1, sizeof *cur);
    prove_access *snap = xmalloc(((size_t)S->nacc + 1) * sizeof *snap);
    for (int j = 0; j < ncar; j++) cur[j] = car[j];
    for (int pass = 0;; pass++) {
        bool giveup = pass == 4;
        if (giveup)
            for (int j = 0; j < ncar; j++)
                cur[j] = car[j]->kind == PK_MASK ? mask_unknown(S) : top(S, op->loc, "a value carried by a loop");
        if (pass == 0) S->norec++;
        else memcpy(snap, S->accs, (size_t)S->nacc * sizeof *snap);
        S->vals[body->args[0]] = iv;
        for (int j = 0; j < ncar; j++) S->vals[body->args[1 + j]] = cur[j];
        int inner = S->nsym;
        const ir_op *term = run_region(S, op->region[0]);
        if (pass == 0) S->norec--;
        bool stable = true;
        for (int j = 0; j < ncar && !giveup; j++) {
            ptile *y = term && j < term->nopnd ? escape(S, val(S, term, j), ksym >= 0 ? ksym + 1 : inner) : NULL;
            ptile *want;
            if (pass == 0) {
                delta[j] = ksym >= 0 ? const_delta(S, car[j], y) : NULL;
                want = delta[j] ? advance(S, car[j], delta[j], ksym, 0) : NULL;
                if (!want) want = car[j]->kind == PK_MASK ? mask_unknown(S)
                                                           : top(S, op->loc, "a value carried by a loop");
            } else {
                /* verify y == cur + delta */
                ptile *d = delta[j] ? const_delta(S, cur[j], y) : NULL;
                bool same = d && d->n == delta[j]->n;
                for (int64_t i = 0; same && i < d->n; i++) same = aff_eq(&d->v[i], &delta[j]->v[i]);
                if (same || cur[j]->kind == PK_TOP || (cur[j]->kind == PK_MASK && cur[j]->inexact)) want = cur[j];
                else {
                    delta[j] = NULL;
                    want = cur[j]->kind == PK_MASK ? mask_unknown(S) : top(S, op->loc, "a value carried by a loop");
                }
            }
            if (want != cur[j]) stable = false;
            cur[j] = want;
        }
        if (pass > 0 && (stable || giveup)) break;
        if (pass > 0) memcpy(S->accs, snap, (size_t)S->nacc * sizeof *snap);
        S->nsym = inner;
    }
    free(snap);
    S->nsym = keep;
    S->npath = np;
    S->path_inexact -= inex_added;
    for (int j = 0; j < op->nres; j++) {
        ptile *v = NULL;
        if (j < ncar && delta[j] && trip >= 0) v = advance(S, car[j], delta[j], -1, trip);
        if (j < ncar && !v && cur[j] == car[j]) v = car[j];
        S->vals[op->res + j] = v ? v : top(S, op->loc, "a value carried by a loop");
    }
    free(car);
    free(delta);
    free(cur);
}

static void while_op(pst *S, const ir_op *op)
{
    const ir_region *before = &S->f->regions.v[op->region[0]];
    const ir_region *after = &S->f->regions.v[op->region[1]];
    int keep = S->nsym;
    S->path_inexact++;
    for (int j = 0; j < before->nargs; j++)
        S->vals[before->args[j]] = top(S, op->loc, "a value carried by a while loop");
    run_region(S, op->region[0]);
    S->nsym = keep;
    for (int j = 0; j < after->nargs; j++)
        S->vals[after->args[j]] = top(S, op->loc, "a value carried by a while loop");
    run_region(S, op->region[1]);
    S->nsym = keep;
    S->path_inexact--;
    for (int j = 0; j < op->nres; j++) S->vals[op->res + j] = top(S, op->loc, "a value computed by a while loop");
}

static ptile *constant(pst *S, const ir_op *op)
{
    ir_type t = ir_value_type(S->f, op->res);
    if (!ir_type_is_int(t)) return top(S, op->loc, "a float");
    if (ir_type_bits(t) == 1) return mask_const(S, op->ival != 0);
    ptile *r = new_tile(S, PK_INT, 1);
    r->v[0] = konst(op->ival);
    return r;
}

static const ir_op *run_region(pst *S, int32_t r)
{
    const ir_region *reg = &S->f->regions.v[r];
    for (int i = 0; i < reg->nops; i++) {
        const ir_op *op = &reg->ops[i];
        switch (op->opc) {
        case IR_CONSTANT:
            set(S, op, constant(S, op));
            break;
        case IR_MAKE_RANGE: {
            int64_t n = numel_of(S, op->res);
            ptile *t = new_tile(S, PK_INT, n);
            for (int64_t q = 0; q < n; q++) t->v[q] = konst(op->attr[0] + q);
            set(S, op, t);
            break;
        }
        case IR_GET_PID: case IR_GET_NPROG: {
            unsigned ax = (unsigned)op->attr[0];
            ptile *t = new_tile(S, PK_INT, 1);
            t->v[0] = konst(0);
            if (ax < 3 && op->opc == IR_GET_PID) {
                for (int k = 0; k < S->nsym; k++)
                    if (S->sym[k].kind == SYM_PID && S->sym[k].ref == (int)ax) t->v[0].a[k] = 1;
            } else if (ax < 3) {
                if (S->in->grid_at) t->v[0] = interval(1, S->in->grid_max[ax] ? S->in->grid_max[ax] : S->in->l->grid[ax]);
                else t->v[0] = konst(S->in->l->grid[ax]);
            }
            set(S, op, t);
            break;
        }
        case IR_SPLAT: case IR_BROADCAST: case IR_EXPAND_DIMS: case IR_RESHAPE: case IR_TRANS: case IR_BITCAST:
            set(S, op, shape_op(S, op));
            break;
        case IR_ADDPTR: case IR_INT_TO_PTR: case IR_PTR_TO_INT:
        case IR_LOAD: case IR_STORE: case IR_ATOMIC_RMW: case IR_ATOMIC_CAS: case IR_ATOMIC_POLL:
            mem_op(S, r, i, op);
            break;
        case IR_ADDI: case IR_SUBI: case IR_MULI: case IR_DIVSI: case IR_DIVUI: case IR_REMSI: case IR_REMUI:
        case IR_ANDI: case IR_ORI: case IR_XORI: case IR_SHLI: case IR_SHRSI: case IR_SHRUI:
        case IR_MAXSI: case IR_MINSI: case IR_MAXUI: case IR_MINUI:
            set(S, op, arith(S, op));
            break;
        case IR_CMPI:
            set(S, op, cmpi(S, op));
            break;
        case IR_SELECT:
            set(S, op, select_op(S, op));
            break;
        case IR_EXTSI: case IR_EXTUI: case IR_TRUNCI:
            set(S, op, cast(S, op));
            break;
        case IR_FOR:
            for_op(S, op);
            break;
        case IR_IF:
            if_op(S, op);
            break;
        case IR_WHILE:
            while_op(S, op);
            break;
        case IR_CONDITION: case IR_YIELD:
            return op;
        case IR_RETURN:
            return NULL;
        case IR_ASSUME: case IR_BARRIER:
            break;
        default:
            for (int j = 0; j < op->nres; j++)
                S->vals[op->res + j] = ir_type_bits(ir_value_type(S->f, op->res + j)) == 1
                                           ? mask_unknown(S) : top(S, op->loc, "a value the analysis does not model");
            break;
        }
    }
    return NULL;
}

/* ---- driver ----------------------------------------------------------------- */

static _Thread_local const ir_func *g_sort_f;

/* Source order: the location's line and column (inlined code by its call). */
static int by_line(const void *x, const void *y)
{
    const prove_access *a = x, *b = y;
    const ir_func *f = g_sort_f;
    int32_t la = a->loc, lb = b->loc;
    while (la >= 0 && f->locs.v[la].caller >= 0) la = f->locs.v[la].caller;
    while (lb >= 0 && f->locs.v[lb].caller >= 0) lb = f->locs.v[lb].caller;
    int ka = la >= 0 ? f->locs.v[la].line * 4096 + f->locs.v[la].col : 0;
    int kb = lb >= 0 ? f->locs.v[lb].line * 4096 + f->locs.v[lb].col : 0;
    if (ka != kb) return ka < kb ? -1 : 1;
    return a->region != b->region ? (a->region < b->region ? -1 : 1) : (a->op < b->op ? -1 : a->op > b->op);
}

bool prove_launch(const prove_input *in, prove_result *out)
{
    memset(out, 0, sizeof *out);
    const ir_func *f = in->f;
    const launch *l = in->l;
    const ir_region *bodyr = &f->regions.v[IR_BODY];
    if (bodyr->nargs != l->nargs) {
        fprintf(stderr, "tritium: error: the kernel takes %d runtime arguments, the launch has %d\n", bodyr->nargs,
                l->nargs);
        return false;
    }
    double t0 = now_seconds();
    pst S;
    memset(&S, 0, sizeof S);
    S.in = in;
    S.f = f;
    S.vals = xcalloc((size_t)f->values.n + 1, sizeof *S.vals);
    S.opbase = xcalloc((size_t)f->regions.n + 1, sizeof *S.opbase);
    int total = 0;
    for (int r = 0; r < f->regions.n; r++) {
        S.opbase[r] = total;
        total += f->regions.v[r].nops;
    }
    S.acc_of = xmalloc(((size_t)total + 1) * sizeof *S.acc_of);
    S.accs = xcalloc((size_t)total + 1, sizeof *S.accs);
    /* accesses in program order (regions are numbered as they are opened) */
    for (int r = 0; r < f->regions.n; r++) {
        for (int i = 0; i < f->regions.v[r].nops; i++) {
            const ir_op *op = &f->regions.v[r].ops[i];
            int g = S.opbase[r] + i;
            S.acc_of[g] = -1;
            if (!(ir_ops[op->opc].props & P_MEM)) continue;
            prove_access *a = &S.accs[S.nacc];
            S.acc_of[g] = S.nacc++;
            a->region = r;
            a->op = i;
            a->loc = op->loc;
            a->arg = -1;
            a->acc = op->opc == IR_LOAD ? 0 : op->opc == IR_STORE ? 1 : 2;
            a->opname = op->opc == IR_LOAD ? "load" : op->opc == IR_STORE ? "store"
                      : op->opc == IR_ATOMIC_CAS ? "atomic_cas" : op->opc == IR_ATOMIC_POLL ? "atomic_poll"
                      : rmw_name((int)op->attr[0]);
            a->status = PROVE_PROVED;
        }
    }
    /* symbols: program ids, for-all arguments */
    for (int d = 0; d < 3; d++) {
        int64_t g = in->grid_max[d] ? in->grid_max[d] : l->grid[d];
        if (g > 1) new_sym(&S, SYM_PID, d, 0, g - 1);
    }
    S.extent_c = xcalloc((size_t)l->nargs + 1, sizeof *S.extent_c);
    S.extent_a = xcalloc((size_t)l->nargs + 1, sizeof *S.extent_a);
    for (int j = 0; j < in->nforall; j++) S.forall_sym[j] = -1;
    for (int j = 0; j < in->nforall; j++)
        S.forall_sym[j] = new_sym(&S, SYM_FORALL, j, in->fa[j].lo, in->fa[j].hi);
    if (in->grid_at) {
        /* LO, LO+1, the middle and HI of each range, and their combinations */
        int64_t pts[PROVE_MAX_FORALL][4];
        int npts = 4;
        for (int j = 0; j < in->nforall; j++) {
            int64_t lo = in->fa[j].lo, hi = in->fa[j].hi;
            pts[j][0] = lo;
            pts[j][1] = lo < hi ? lo + 1 : lo;
            pts[j][2] = lo + (hi - lo) / 2;
            pts[j][3] = hi;
        }
        int combos = in->nforall == 2 ? npts * npts : npts;
        for (int q = 0; q < combos && S.nsamp < 16; q++) {
            int64_t fv[PROVE_MAX_FORALL] = { 0 };
            fv[0] = pts[0][q % npts];
            if (in->nforall == 2) fv[1] = pts[1][q / npts];
            int64_t g[3];
            if (!in->grid_at(in->user, fv, g)) continue;
            memcpy(S.samp_fv[S.nsamp], fv, sizeof fv);
            memcpy(S.samp_grid[S.nsamp], g, sizeof g);
            S.nsamp++;
        }
    }
    for (int a = 0; a < l->nargs; a++) {
        const launch_arg *la = &l->args[a];
        ir_value v = bodyr->args[a];
        ptile *t;
        if (la->kind == ARG_TENSOR) {
            int64_t numel = tt_tensor_numel(la->tensor);
            S.extent_c[a] = numel;
            for (int j = 0; j < in->nforall; j++) {
                S.extent_a[a][j] = in->fa[j].ext ? in->fa[j].ext[a] : 0;
                S.extent_c[a] -= S.extent_a[a][j] * l->args[in->fa[j].arg].i;
            }
            t = new_tile(&S, PK_PTR, 1);
            t->buf = a;
            t->v[0] = konst(0);
        } else if (la->kind == ARG_INT) {
            t = new_tile(&S, PK_INT, 1);
            t->v[0] = konst(la->i);
            for (int j = 0; j < in->nforall; j++)
                if (in->fa[j].arg == a && S.forall_sym[j] >= 0) {
                    t->v[0] = konst(0);
                    t->v[0].a[S.forall_sym[j]] = 1;
                }
        } else {
            t = top(&S, -1, "a float argument");
        }
        S.vals[v] = t;
    }
    run_region(&S, IR_BODY);
    g_sort_f = f;
    qsort(S.accs, (size_t)S.nacc, sizeof *S.accs, by_line);
    out->acc = xcalloc((size_t)S.nacc + 1, sizeof *out->acc);
    out->nacc = S.nacc;
    for (int i = 0; i < S.nacc; i++) {
        prove_access *a = &S.accs[i];
        if (a->status == PROVE_PROVED && !a->reached) snprintf(a->why, sizeof a->why, "never executed");
        out->acc[i] = *a;
        if (a->status == PROVE_PROVED) out->proved++;
        else if (a->status == PROVE_REFUTED) out->refuted++;
        else out->open++;
    }
    free(S.vals);
    free(S.opbase);
    free(S.acc_of);
    free(S.accs);
    free(S.extent_c);
    free(S.extent_a);
    arena_free(&S.mem);
    out->seconds = now_seconds() - t0;
    return true;
}

void prove_result_free(prove_result *r)
{
    free(r->acc);
    memset(r, 0, sizeof *r);
}
