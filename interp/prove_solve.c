/* prove_solve.c — deciding `form >= 0` under a mask for proof mode: bounds of
 * affine forms over a box of symbols, bound propagation from the mask's
 * constraints, and positive linear combinations (one Fourier-Motzkin step per
 * symbol) for constraints over several symbols, such as a loop
 * `row = pid + k * num_programs` bounded by `row < n_rows`. All arithmetic is
 * done in 128 bits; anything that does not fit 64 bits is "not proved". */
#include "prove_dom.h"

typedef __int128 i128;

static bool fits(i128 x) { return x >= INT64_MIN && x <= INT64_MAX; }

static i128 term_min(int64_t a, int64_t lo, int64_t hi)
{
    i128 x = (i128)a * lo, y = (i128)a * hi;
    return x < y ? x : y;
}

static i128 term_max(int64_t a, int64_t lo, int64_t hi)
{
    i128 x = (i128)a * lo, y = (i128)a * hi;
    return x > y ? x : y;
}

bool pv_range(const paff *x, const pbox *b, int64_t *lo, int64_t *hi)
{
    i128 l = (i128)x->c + x->elo, h = (i128)x->c + x->ehi;
    for (int k = 0; k < PV_NSYM; k++) {
        if (!x->a[k]) continue;
        l += term_min(x->a[k], b->lo[k], b->hi[k]);
        h += term_max(x->a[k], b->lo[k], b->hi[k]);
    }
    if (!fits(l) || !fits(h)) return false;
    *lo = (int64_t)l;
    *hi = (int64_t)h;
    return true;
}

bool pv_eval(const paff *x, const int64_t *pt, int64_t *out)
{
    i128 v = x->c;
    for (int k = 0; k < PV_NSYM; k++) v += (i128)x->a[k] * pt[k];
    if (!fits(v)) return false;
    *out = (int64_t)v;
    return true;
}

static i128 floordiv128(i128 a, i128 b)
{
    i128 q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

static i128 ceildiv128(i128 a, i128 b) { return -floordiv128(-a, b); }

bool pv_tighten(pbox *b, const paff *const *cons, int n)
{
    for (int round = 0; round < 4; round++) {
        bool changed = false;
        for (int j = 0; j < n; j++) {
            const paff *c = cons[j];
            /* necessary: c + ehi + sum a_k s_k >= 0 */
            i128 smax = (i128)c->c + c->ehi;
            for (int k = 0; k < PV_NSYM; k++)
                if (c->a[k]) smax += term_max(c->a[k], b->lo[k], b->hi[k]);
            if (smax < 0) return false;
            for (int k = 0; k < PV_NSYM; k++) {
                int64_t a = c->a[k];
                if (!a) continue;
                i128 rest = smax - term_max(a, b->lo[k], b->hi[k]);
                /* a * s_k >= -rest */
                if (a > 0) {
                    i128 nl = ceildiv128(-rest, a);
                    if (nl > b->lo[k]) {
                        if (nl > b->hi[k]) return false;
                        b->lo[k] = (int64_t)nl;
                        changed = true;
                    }
                } else {
                    i128 nh = floordiv128(rest, -(i128)a);
                    if (nh < b->hi[k]) {
                        if (nh < b->lo[k]) return false;
                        b->hi[k] = (int64_t)nh;
                        changed = true;
                    }
                }
            }
        }
        if (!changed) break;
    }
    return true;
}

/* A form with 128-bit coefficients for the combinations. */
typedef struct wide { i128 c, elo, ehi, a[PV_NSYM]; } wide;

static i128 wide_min(const wide *w, const pbox *b)
{
    i128 m = w->c + w->elo;
    for (int k = 0; k < PV_NSYM; k++) {
        if (!w->a[k]) continue;
        i128 x = w->a[k] * b->lo[k], y = w->a[k] * b->hi[k];
        m += x < y ? x : y;
    }
    return m;
}

static i128 gcd128(i128 a, i128 b)
{
    if (a < 0) a = -a;
    if (b < 0) b = -b;
    while (b) { i128 t = a % b; a = b; b = t; }
    return a ? a : 1;
}

/* Coefficients stay below 2^58 so that a sum of PV_NSYM products with box
 * bounds (< 2^63) cannot overflow 128 bits. */
static bool small(i128 x) { return x > -((i128)1 << 58) && x < ((i128)1 << 58); }

bool pv_proves(const paff *g, const paff *const *cons, int n, const pbox *b)
{
    wide w = { g->c, g->elo, g->ehi, { 0 } };
    for (int k = 0; k < PV_NSYM; k++) w.a[k] = g->a[k];
    if (wide_min(&w, b) >= 0) return true;
    /* Eliminate symbols one at a time: w' = p*w - q*c_j with p, q > 0 chosen
     * so that the coefficient of symbol k vanishes; c_j >= 0 on the feasible
     * set, so w' >= 0 there implies w >= 0. */
    for (int step = 0; step < 2 * PV_NSYM; step++) {
        bool progress = false;
        for (int k = 0; k < PV_NSYM && !progress; k++) {
            if (!w.a[k] || b->lo[k] == b->hi[k]) continue;
            for (int j = 0; j < n; j++) {
                const paff *c = cons[j];
                if (!c->a[k] || (c->a[k] > 0) != (w.a[k] > 0)) continue;
                i128 d = gcd128(w.a[k], c->a[k]);
                i128 p = (c->a[k] < 0 ? -(i128)c->a[k] : c->a[k]) / d;
                i128 q = (w.a[k] < 0 ? -w.a[k] : w.a[k]) / d;
                wide t;
                bool ok = small(p) && small(q);
                t.c = p * w.c - q * c->c;
                t.elo = p * w.elo - q * c->ehi;
                t.ehi = p * w.ehi - q * c->elo;
                for (int m = 0; m < PV_NSYM && ok; m++) {
                    t.a[m] = p * w.a[m] - q * c->a[m];
                    ok = small(t.a[m]);
                }
                ok = ok && small(t.c) && small(t.elo) && small(t.ehi);
                if (!ok) continue;
                t.a[k] = 0;
                w = t;
                progress = true;
                break;
            }
        }
        if (!progress) return false;
        if (wide_min(&w, b) >= 0) return true;
    }
    return false;
}
