/* bound.c — per-element bounds on how far the GPU may legitimately be from
 * the interpreter (docs/bounds.md).
 *
 * With interp_options.bounds and NUMERICS_FAST, every value an inexact or
 * order-dependent operation produced carries, per element, an interval
 * [v - dn, v + up] that holds every result a GPU running Triton's code may
 * compute, and the operations that follow carry it on:
 *   elementwise ops   interval evaluation: the op's own evaluator runs on the
 *                     corners of its operands' intervals (every arith, cast
 *                     and math op is monotone in each operand or handled
 *                     below), then widens by the op's own error: 2 ulp for
 *                     f32 division (PTX div.full.f32), ops_math.def's ulp for
 *                     math functions (plus ex2.approx's argument rounding),
 *                     1 ulp of the product where an add may or may not be
 *                     contracted into an FMA;
 *   tt.dot, sums      accumulation order (dot/reduce below);
 *   moves             the bound tiles move as the values do: the op's own
 *                     evaluator runs on them, with 8-byte elements;
 *   memory            stores record bounds per buffer element, loads read
 *                     them back, atomic adds accumulate their rounding.
 * An integer made by rounding or truncating a bounded float carries the set
 * of integers it may take ({k, k+1}); a comparison whose operands' intervals
 * overlap may be either, and a select on it may take either side. What is
 * not modeled (a bounded value through a bitcast, a bitwise op, a gather, a
 * combine region) gets an infinite bound: not compared, and counted.
 *
 * Bound tiles live next to values: p->bnd[v] (NULL: exact), on the
 * program's tile stack, so loops release them with their values; p->bsrc[v]
 * is the global op index whose contribution to v's largest bound was
 * largest (the op a report names). Nothing here runs without bounds. */
#include "internal.h"

#include <float.h>
#include <math.h>

/* Unit roundoff and ULP of float dtypes. */
static double min_normal(tt_dtype dt)
{
    switch (dt) {
    case TT_F16: return 0x1p-14;
    case TT_BF16: case TT_F32: return FLT_MIN;
    case TT_F64: return DBL_MIN;
    default: return 0x1p-14;
    }
}

/* One unit in the last place of dtype dt at |x| (integers: 1). */
static double ulp_at(double x, tt_dtype dt)
{
    if (!tt_dtype_is_float(dt)) return 1;
    double a = fabs(x);
    if (!(a >= min_normal(dt))) a = min_normal(dt);
    int e;
    frexp(a, &e);
    return ldexp(1.0, e - 1 - tt_dtype_frac_bits(dt));
}


/* ---- bound tiles -------------------------------------------------------- */

static interp_bnd *bnd_new(interp_prog *p, ir_value v)
{
    interp_bnd *b = ts_alloc(&p->mem, (size_t)p->s->vi[v].numel * sizeof *b);
    memset(b, 0, (size_t)p->s->vi[v].numel * sizeof *b);
    return b;
}

/* A bound rounded up to a float. */
static float up_f(double x)
{
    if (!(x > 0)) return x != x ? INFINITY : 0;
    float f = (float)x;
    if ((double)f < x) f = nextafterf(f, INFINITY);
    return f;
}

/* Keep tile b for v when some element is inexact, else NULL; src: the op
 * that dominated. */
static void bnd_set(interp_prog *p, ir_value v, interp_bnd *b, int32_t src)
{
    int64_t n = p->s->vi[v].numel;
    bool any = false;
    for (int64_t i = 0; i < n && !any; i++) any = b[i].dn != 0 || b[i].up != 0;
    p->bnd[v] = any ? b : NULL;
    p->bsrc[v] = any ? src : -1;
}

static float bnd_max(const interp_bnd *b, int64_t n)
{
    float m = 0;
    for (int64_t i = 0; i < n; i++) {
        if (b[i].dn > m || b[i].dn != b[i].dn) m = b[i].dn;
        if (b[i].up > m || b[i].up != b[i].up) m = b[i].up;
    }
    return m;
}

/* The operand whose bound is largest names the op that dominated, unless
 * the op's own error (own) is larger. */
static int32_t dominant(interp_prog *p, const ir_value *vs, int n, double own, int32_t self)
{
    int32_t src = self;
    double best = own;
    for (int k = 0; k < n; k++) {
        if (!p->bnd[vs[k]]) continue;
        double m = bnd_max(p->bnd[vs[k]], p->s->vi[vs[k]].numel);
        if (m > best || src < 0) { best = m; src = p->bsrc[vs[k]]; }
    }
    return src;
}

static int32_t op_index(const interp_prog *p) { return p->s->opbase[p->region] + p->opi; }

/* ---- writing a corner ---------------------------------------------------- */

/* Step a 16-bit or 8-bit float's bits one value toward +inf (dir > 0) or
 * -inf: sign-magnitude formats order like their magnitudes. */
static uint32_t step_bits(uint32_t bits, int nbits, int dir)
{
    uint32_t sign = 1u << (nbits - 1), mag = bits & (sign - 1);
    bool neg = bits & sign;
    if (mag == 0) return dir > 0 ? 1 : sign | 1;
    if ((dir > 0) != neg) return bits + 1;
    return bits - 1;
}

/* Element i of tile t (dtype dt) = x rounded toward -inf (dir < 0) or +inf:
 * the corner of an interval, so that the interval holds the real one. */
static void put_dir(void *t, tt_dtype dt, int64_t i, double x, int dir)
{
    if (!tt_dtype_is_float(dt)) {
        double r = dir < 0 ? floor(x) : ceil(x);
        if (dt == TT_BOOL) { ((uint8_t *)t)[i] = r >= 1; return; }
        tt_store_f64(t, dt, i, r);        /* saturates like a cast */
        return;
    }
    if (dt == TT_F64) { ((double *)t)[i] = x; return; }
    if (dt == TT_F32) {
        float f = (float)x;
        if (dir < 0 && (double)f > x) f = nextafterf(f, -INFINITY);
        if (dir > 0 && (double)f < x) f = nextafterf(f, INFINITY);
        ((float *)t)[i] = f;
        return;
    }
    tt_store_f64(t, dt, i, x);
    double y = interp_get_f64(t, dt, i, false);
    if (y != y || (dir < 0 ? y <= x : y >= x)) return;
    int nb = tt_dtype_size(dt) * 8;
    if (nb == 16) ((uint16_t *)t)[i] = (uint16_t)step_bits(((uint16_t *)t)[i], 16, dir);
    else ((uint8_t *)t)[i] = (uint8_t)step_bits(((uint8_t *)t)[i], 8, dir);
}

/* ---- elementwise ops: interval evaluation over the corners ---------------- */

/* Ops whose result is not monotone in each operand (or whose bits are not
 * a number): a bounded operand makes the result unbounded. */
static bool non_monotone(int opc)
{
    switch (opc) {
    case IR_REMSI: case IR_REMUI: case IR_REMF: case IR_ANDI: case IR_ORI: case IR_XORI:
    case IR_SHLI: case IR_SHRSI: case IR_SHRUI: case IR_MULHIUI: case IR_DIVUI: case IR_MAXUI: case IR_MINUI:
    case IR_UITOFP: case IR_EXTUI: case IR_BITCAST:
    case IR_SIN: case IR_COS: case IR_TAN: case IR_SINPI: case IR_COSPI: case IR_COSH: case IR_ATAN2:
    case IR_FMOD: case IR_REMAINDER: case IR_HYPOT: case IR_LGAMMA: case IR_TGAMMA:
    case IR_J0: case IR_J1: case IR_Y0: case IR_Y1: case IR_JN: case IR_YN:
    case IR_FAST_SINF: case IR_FAST_COSF: case IR_FAST_TANF: case IR_POW: case IR_COPYSIGN:
        return true;
    default:
        return false;
    }
}

/* The defining op of v when it is an op result, else NULL. */
static const ir_op *def_op(const interp_session *s, ir_value v)
{
    const ir_value_info *vi = &s->f->values.v[v];
    if (vi->def_kind != IR_DEF_OP) return NULL;
    return &s->f->regions.v[vi->region].ops[vi->index];
}

/* The op's own error in ULPs of its result: base, plus per_x * |x| for
 * operand 0's element x. */
typedef struct own_err { double base, per_x; } own_err;
static own_err own_ulps(const interp_prog *p, const ir_op *op)
{
    const interp_session *s = p->s;
    tt_dtype dt = s->vi[op->res].dt;
    own_err e = { 0, 0 };
    if (op->opc == IR_DIVF) {      /* div.full.f32 (PTX ISA); f16 rounds it once more */
        e.base = dt == TT_F32 ? 2 : dt == TT_F64 ? 0 : 1;
        return e;
    }
    const ir_mathfn *m = &ir_mathfns[op->opc];
    if (!m->arity) return e;
    ir_type t[4];
    for (int k = 0; k < op->nopnd && k < 4; k++) t[k] = ir_value_type(s->f, op->opnd[k]);
    int var = ir_mathfn_variant(op->opc, t, op->nopnd, ir_value_type(s->f, op->res));
    if (var < 0) return e;
    e.base = (double)m->var[var].ulp;
    if (var == 0 && m->fast[0]) {
        /* ex2.approx(x * log2 e): 2 ulp, plus the rounding of the product,
         * which moves the result by up to |x log2 e| * 2^-24 relative */
        if (!strcmp(m->fast, "ex2.approx")) {
            e.base += 2;
            e.per_x = 1.4426950408889634 * 0.5;
        } else if (e.base < 2) {
            e.base = 2;
        }
    }
    return e;
}

/* Run op's own evaluator (its result is written to a fresh tile). */
static void run_eval(interp_prog *p, const ir_op *op)
{
    switch (ir_ops[op->opc].family) {
    case F_ARITH: interp_eval_arith(p, op); break;
    case F_CAST: interp_eval_cast(p, op); break;
    case F_MATH: interp_eval_math(p, op); break;
    default: die("interp bounds: %s is not elementwise", ir_ops[op->opc].name);
    }
}

static void unbounded(interp_prog *p, const ir_op *op)
{
    for (int k = 0; k < op->nres; k++) {
        ir_value v = op->res + k;
        interp_bnd *b = bnd_new(p, v);
        for (int64_t i = 0; i < p->s->vi[v].numel; i++) b[i].dn = b[i].up = INFINITY;
        p->bnd[v] = b;
        p->bsrc[v] = op_index(p);
    }
}

static void elementwise(interp_prog *p, const ir_op *op)
{
    interp_session *s = p->s;
    ir_value res = op->res;
    const ival_info *vr = &s->vi[res];
    int64_t n = vr->numel;
    tt_dtype rdt = vr->dt;

    /* the values the evaluator reads: a contracted add reads its mulf's operands */
    ir_value vs[4];
    int nv = 0;
    const ir_op *mul = NULL;
    if (op->opc == IR_ADDF || op->opc == IR_SUBF) {
        for (int k = 0; k < 2 && !mul; k++) {
            const ir_op *d = def_op(s, op->opnd[k]);
            if (d && d->opc == IR_MULF) mul = d;
        }
    }
    int fk = s->fuse ? s->fuse[op_index(p)] : 0;
    if (fk) {
        const ir_op *m = def_op(s, op->opnd[fk - 1]);
        vs[nv++] = m->opnd[0];
        vs[nv++] = m->opnd[1];
        vs[nv++] = op->opnd[2 - fk];
    } else {
        for (int k = 0; k < op->nopnd && k < 4; k++) vs[nv++] = op->opnd[k];
    }
    ir_value var[4];
    int nb = 0;
    for (int k = 0; k < nv; k++) {
        if (!p->bnd[vs[k]]) continue;
        bool dup = false;
        for (int j = 0; j < nb; j++) dup |= var[j] == vs[k];
        if (!dup) var[nb++] = vs[k];
    }
    own_err oe = own_ulps(p, op);
    bool own = oe.base > 0 || oe.per_x > 0 || (mul && tt_dtype_is_float(rdt));
    if (!nb && !own) { p->bnd[res] = NULL; p->bsrc[res] = -1; return; }
    if (nb && non_monotone(op->opc)) { unbounded(p, op); return; }

    void *v0 = p->vals[res];
    uint8_t c0 = p->contig[res];
    interp_full(p, res);
    double *lo = ts_alloc(&p->mem, (size_t)n * 8), *hi = ts_alloc(&p->mem, (size_t)n * 8);
    uint8_t *nan_corner = ts_alloc(&p->mem, (size_t)n);
    memset(nan_corner, 0, (size_t)n);
    if (!nb) {
        for (int64_t i = 0; i < n; i++) lo[i] = hi[i] = interp_get_f64(v0, rdt, i, false);
    } else {
        void *orig[4], *cl[4], *ch[4];
        uint8_t oc[4];
        for (int j = 0; j < nb; j++) {
            ir_value v = var[j];
            const ival_info *vi = &s->vi[v];
            interp_full(p, v);
            orig[j] = p->vals[v];
            oc[j] = p->contig[v];
            cl[j] = ts_alloc(&p->mem, (size_t)vi->numel * vi->esize);
            ch[j] = ts_alloc(&p->mem, (size_t)vi->numel * vi->esize);
            const interp_bnd *b = p->bnd[v];
            for (int64_t i = 0; i < vi->numel; i++) {
                double x = interp_get_f64(orig[j], vi->dt, i, false);
                put_dir(cl[j], vi->dt, i, x - (double)b[i].dn, -1);
                put_dir(ch[j], vi->dt, i, x + (double)b[i].up, 1);
            }
        }
        /* a divisor whose interval holds 0 has no bound */
        if (op->opc == IR_DIVF || op->opc == IR_DIVSI) {
            for (int j = 0; j < nb; j++) {
                if (var[j] != op->opnd[1]) continue;
                const ival_info *vi = &s->vi[var[j]];
                for (int64_t i = 0; i < vi->numel; i++)
                    if (interp_get_f64(cl[j], vi->dt, i, false) <= 0 && interp_get_f64(ch[j], vi->dt, i, false) >= 0) {
                        unbounded(p, op);
                        return;
                    }
            }
        }
        for (int i = 0; i < n; i++) { lo[i] = INFINITY; hi[i] = -INFINITY; }
        for (int c = 0; c < (1 << nb); c++) {
            for (int j = 0; j < nb; j++) {
                p->vals[var[j]] = (c >> j) & 1 ? ch[j] : cl[j];
                p->contig[var[j]] = 0;
            }
            run_eval(p, op);
            interp_full(p, res);         /* a row-heads result: every lane */
            const void *r = p->vals[res];
            for (int64_t i = 0; i < n; i++) {
                double y = interp_get_f64(r, rdt, i, false);
                if (y != y) { nan_corner[i] = 1; continue; }
                if (y < lo[i]) lo[i] = y;
                if (y > hi[i]) hi[i] = y;
            }
        }
        for (int j = 0; j < nb; j++) {
            p->vals[var[j]] = orig[j];
            p->contig[var[j]] = oc[j];
        }
        /* x * x and |x| over an interval holding 0 reach 0, which no corner gives */
        bool even = ((op->opc == IR_MULF || op->opc == IR_MULI) && op->opnd[0] == op->opnd[1] && !fk) ||
                    op->opc == IR_ABSF || op->opc == IR_ABSI;
        if (even) {
            const ival_info *vi = &s->vi[op->opnd[0]];
            for (int64_t i = 0; i < n && vi->numel == n; i++)
                if (interp_get_f64(cl[0], vi->dt, i, false) < 0 && interp_get_f64(ch[0], vi->dt, i, false) > 0) lo[i] = 0;
        }
    }
    p->vals[res] = v0;
    p->contig[res] = c0;

    interp_bnd *b = bnd_new(p, res);
    double worst_own = 0;
    const void *mv = mul ? p->vals[mul->res] : NULL;
    const ival_info *mvi = mul ? &s->vi[mul->res] : NULL;
    const void *x0 = p->vals[op->opnd[0]];
    const ival_info *x0i = &s->vi[op->opnd[0]];
    for (int64_t i = 0; i < n; i++) {
        double v = interp_get_f64(v0, rdt, i, false);
        if (v != v) continue;                    /* NaN: the comparison takes NaN == NaN */
        if (nan_corner[i]) { b[i].dn = b[i].up = INFINITY; continue; }
        double l = lo[i], h = hi[i];
        double u = oe.base + (oe.per_x ? oe.per_x * fabs(interp_get_f64(x0, x0i->dt, x0i->numel == n ? i : 0, false)) : 0);
        double wl = u * ulp_at(l, rdt), wh = u * ulp_at(h, rdt);
        if (mv) {                                /* contracted or not: the product's rounding */
            double pr = interp_get_f64(mv, mvi->dt, mvi->numel == n ? i : 0, false);
            wl += ulp_at(pr, rdt);
            wh += ulp_at(pr, rdt);
        }
        if (wl > worst_own) worst_own = wl;
        b[i].dn = up_f(v - (l - wl));
        b[i].up = up_f((h + wh) - v);
    }
    bnd_set(p, res, b, dominant(p, var, nb, worst_own, op_index(p)));
}

/* ---- moves: the op's own evaluator on the bound tiles -------------------- */

static void moves(interp_prog *p, const ir_op *op)
{
    interp_session *s = p->s;
    bool any = false;
    for (int k = 0; k < op->nopnd; k++) any |= p->bnd[op->opnd[k]] != NULL;
    if (!any) {
        for (int k = 0; k < op->nres; k++) { p->bnd[op->res + k] = NULL; p->bsrc[op->res + k] = -1; }
        return;
    }
    if (op->opc == IR_BITCAST || op->opc == IR_GATHER || op->opc == IR_HISTOGRAM) { unbounded(p, op); return; }
    /* q: p seen through the bound view (8-byte elements), same tile stack */
    interp_prog q = *p;
    q.s = s->bview;
    q.vals = (void **)p->bnd;
    q.contig = p->bcontig;
    ir_value vs[4];
    int nv = op->nopnd < 4 ? op->nopnd : 4;
    for (int k = 0; k < nv; k++) vs[k] = op->opnd[k];
    int32_t src = dominant(p, vs, nv, 0, -1);
    bool zeroed[4] = { false };
    for (int k = 0; k < nv; k++) {
        if (!p->bnd[vs[k]]) {      /* exact: zero bounds while the op moves them */
            p->bnd[vs[k]] = bnd_new(p, vs[k]);
            zeroed[k] = true;
        }
        p->bcontig[vs[k]] = 0;
    }
    interp_eval_shape(&q, op);
    p->mem = q.mem;
    for (int k = 0; k < op->nres; k++) bnd_set(p, op->res + k, p->bnd[op->res + k], src);
    for (int k = 0; k < nv; k++)
        if (zeroed[k]) p->bnd[vs[k]] = NULL;
}

/* ---- tt.dot and reductions: accumulation order --------------------------- */

/* The order term of a sum computed in an unknown order (the GPU's MMA
 * pipeline, a reduction tree) from the partial sums s_1..s_K of the
 * interpreter's own order, with unit roundoff u of the accumulator:
 *     u * (BND_LAMBDA * sqrt(sum s_k^2 / 3) + sum over every BND_CHUNK-th k of |s_k|)
 * The first term covers round-to-nearest in any order (rounding errors of
 * at most u|s_k|, independent, of variance u^2 s_k^2 / 3: BND_LAMBDA
 * standard deviations; Higham and Mary, "A new approach to probabilistic
 * rounding error analysis", SISC 2019); the second the tensor cores' way of
 * adding a chunk of products to the accumulator, aligned and truncated
 * (Fasi et al., "Numerical behavior of NVIDIA tensor cores", 2021), whose
 * errors have one sign. Calibrated in tests/python/test_bounds.py against
 * sums in several orders. */
#define BND_LAMBDA 3.0
#define BND_CHUNK 8

typedef struct accum { double s, s2, chunks; int64_t k; } accum;
static inline void acc_add(accum *a, double x)
{
    a->s += x;
    a->s2 += a->s * a->s;
    if (++a->k % BND_CHUNK == 0) a->chunks += fabs(a->s);
}
static inline double acc_bound(const accum *a, double u)
{
    return u * (BND_LAMBDA * sqrt(a->s2 / 3) + a->chunks);
}

static double unit_roundoff(tt_dtype dt) { return ldexp(1.0, -tt_dtype_frac_bits(dt) - 1); }

/* Whether a dot operand is an fp8 tile converted for the interpreter (the
 * front end widens fp8 operands with tt.fp_to_fp; the GPU's MMA reads fp8),
 * through shape ops. */
static bool fp8_operand(const interp_session *s, ir_value v)
{
    for (int depth = 0; depth < 8; depth++) {
        if (tt_dtype_is_fp8(s->vi[v].dt)) return true;
        const ir_op *d = def_op(s, v);
        if (!d || !d->nopnd) return false;
        int fam = ir_ops[d->opc].family;
        if (fam != F_SHAPE && d->opc != IR_FP_TO_FP && d->opc != IR_EXTF) return false;
        v = d->opnd[0];
    }
    return false;
}

static void dot(interp_prog *p, const ir_op *op)
{
    interp_session *s = p->s;
    const ival_info *va = &s->vi[op->opnd[0]], *vb = &s->vi[op->opnd[1]], *vc = &s->vi[op->opnd[2]];
    const ival_info *vr = &s->vi[op->res];
    int rank = va->rank;
    int64_t B = rank == 3 ? va->shape[0] : 1;
    int64_t M = va->shape[rank - 2], K = va->shape[rank - 1], N = vb->shape[rank - 1];
    bool isf = tt_dtype_is_float(va->dt);
    const interp_bnd *ba = p->bnd[op->opnd[0]], *bb = p->bnd[op->opnd[1]], *bc = p->bnd[op->opnd[2]];
    int prec = va->dt == TT_F32 ? (int)op->attr[0] : PREC_IEEE;
    /* the FMA path (input_precision "ieee", f64) adds in k order, as here */
    bool ordered = !isf || (va->dt == TT_F32 && prec == PREC_IEEE) || va->dt == TT_F64;
    if (ordered && !ba && !bb && !bc) { p->bnd[op->res] = NULL; p->bsrc[op->res] = -1; return; }
    bool tf = va->dt == TT_F32 && prec == PREC_TF32;
    const void *a = p->vals[op->opnd[0]], *b = p->vals[op->opnd[1]], *c = p->vals[op->opnd[2]];
    double *da = ts_alloc(&p->mem, (size_t)(B * M * K) * 8), *db = ts_alloc(&p->mem, (size_t)(B * K * N) * 8);
    for (int64_t i = 0; i < B * M * K; i++) da[i] = interp_get_f64(a, va->dt, i, false);
    for (int64_t i = 0; i < B * K * N; i++) db[i] = interp_get_f64(b, vb->dt, i, false);
    if (tf) {                      /* the operands as the tensor cores read them */
        for (int64_t i = 0; i < B * M * K; i++) da[i] = interp_tf32((float)da[i]);
        for (int64_t i = 0; i < B * K * N; i++) db[i] = interp_tf32((float)db[i]);
    }
    double u = ordered ? 0 : unit_roundoff(vr->dt == TT_F64 ? TT_F64 : TT_F32);
    /* Hopper's fp8 MMA keeps about 14 bits of the accumulator's mantissa
     * while it adds (DeepSeek-V3 technical report, section 3.3.2) */
    if (!ordered && (fp8_operand(s, op->opnd[0]) || fp8_operand(s, op->opnd[1]))) u = 0x1p-13;
    /* a bounded operand may truncate to the next tf32 value too */
    double tfa = tf && ba ? 0x1p-10 : 0, tfb = tf && bb ? 0x1p-10 : 0;
    interp_bnd *out = bnd_new(p, op->res);
    double worst_order = 0;
    for (int64_t bt = 0; bt < B; bt++)
        for (int64_t i = 0; i < M; i++)
            for (int64_t j = 0; j < N; j++) {
                int64_t oi = (bt * M + i) * N + j;
                accum A = { interp_get_f64(c, vc->dt, oi, false), 0, 0, 0 };
                A.s2 = A.s * A.s;
                double prop = bc ? fmax(bc[oi].dn, bc[oi].up) : 0;
                for (int64_t k = 0; k < K; k++) {
                    double x = da[(bt * M + i) * K + k], y = db[(bt * K + k) * N + j];
                    acc_add(&A, x * y);
                    if (ba || bb) {
                        double ex = ba ? fmax(ba[(bt * M + i) * K + k].dn, ba[(bt * M + i) * K + k].up) : 0;
                        double ey = bb ? fmax(bb[(bt * K + k) * N + j].dn, bb[(bt * K + k) * N + j].up) : 0;
                        ex += tfa * fabs(x);
                        ey += tfb * fabs(y);
                        prop += fabs(x) * ey + fabs(y) * ex + ex * ey;
                    }
                }
                double ord = acc_bound(&A, u);
                if (ord > worst_order) worst_order = ord;
                double r = prop + ord;
                if (vr->dt == TT_F16 || vr->dt == TT_BF16) r += ulp_at(A.s, vr->dt);   /* rounded once more */
                out[oi].dn = out[oi].up = up_f(r);
            }
    ir_value vs[3] = { op->opnd[0], op->opnd[1], op->opnd[2] };
    bnd_set(p, op->res, out, dominant(p, vs, 3, worst_order, op_index(p)));
}

/* tt.reduce: a float sum's order; max/min carry their operands' bounds
 * exactly; an argmax/argmin whose winner is not clear has no bound. */
static void reduce(interp_prog *p, const ir_op *op)
{
    interp_session *s = p->s;
    const ival_info *vx = &s->vi[op->opnd[0]], *vr = &s->vi[op->res];
    const interp_bnd *bx = p->bnd[op->opnd[0]];
    int kind = (int)op->attr[1];
    bool isf = tt_dtype_is_float(vx->dt);
    if (!bx && !(isf && kind == RED_ADD)) { p->bnd[op->res] = NULL; p->bsrc[op->res] = -1; return; }
    if (kind != RED_ADD && kind != RED_MAX && kind != RED_MIN && kind != RED_UMAX && kind != RED_UMIN) {
        unbounded(p, op);
        return;
    }
    int axis = (int)op->attr[0];
    int64_t outer = 1, R = vx->rank ? vx->shape[axis] : 1, inner = 1;
    for (int d = 0; d < axis; d++) outer *= vx->shape[d];
    for (int d = axis + 1; d < vx->rank; d++) inner *= vx->shape[d];
    const void *x = p->vals[op->opnd[0]], *r = p->vals[op->res];
    interp_bnd *out = bnd_new(p, op->res);
    double u = isf ? unit_roundoff(vr->dt == TT_F64 ? TT_F64 : TT_F32) : 0, worst = 0;
    for (int64_t o = 0; o < outer; o++)
        for (int64_t j = 0; j < inner; j++) {
            int64_t oi = o * inner + j;
            if (kind == RED_ADD) {
                accum A = { 0, 0, 0, 0 };
                double dn = 0, up = 0;
                for (int64_t k = 0; k < R; k++) {
                    int64_t e = (o * R + k) * inner + j;
                    acc_add(&A, interp_get_f64(x, vx->dt, e, false));
                    if (bx) { dn += bx[e].dn; up += bx[e].up; }
                }
                double ord = acc_bound(&A, u);
                if (vr->dt == TT_F16 || vr->dt == TT_BF16) ord += R * ulp_at(A.s, vr->dt);   /* rounded every step */
                if (ord > worst) worst = ord;
                out[oi].dn = up_f(dn + ord);
                out[oi].up = up_f(up + ord);
            } else {
                bool mx = kind == RED_MAX || kind == RED_UMAX;
                double lo = INFINITY * (mx ? -1 : 1), hi = lo;
                for (int64_t k = 0; k < R; k++) {
                    int64_t e = (o * R + k) * inner + j;
                    double v = interp_get_f64(x, vx->dt, e, kind == RED_UMAX || kind == RED_UMIN);
                    if (v != v) continue;
                    double l = v - bx[e].dn, h = v + bx[e].up;
                    if (mx) { if (l > lo) lo = l; if (h > hi) hi = h; }
                    else { if (l < lo) lo = l; if (h < hi) hi = h; }
                }
                double v = interp_get_f64(r, vr->dt, oi, false);
                if (v == v) {
                    out[oi].dn = up_f(v - lo);
                    out[oi].up = up_f(hi - v);
                }
            }
        }
    ir_value vs[1] = { op->opnd[0] };
    bnd_set(p, op->res, out, dominant(p, vs, 1, worst, op_index(p)));
}

/* tt.reduce_region / tt.scan / tt.map_elementwise: a combine region with a
 * bounded operand has no bound; an unbounded float scan or reduction adds
 * in an order the GPU does not share, bounded by the order term over
 * |result| partial sums (a cumulative sum is its own partial sums). */
static void combine(interp_prog *p, const ir_op *op)
{
    interp_session *s = p->s;
    bool any = false;
    for (int k = 0; k < op->nopnd; k++) any |= p->bnd[op->opnd[k]] != NULL;
    if (any) { unbounded(p, op); return; }
    if (op->opc == IR_MAP_ELEMWISE) {
        for (int k = 0; k < op->nres; k++) { p->bnd[op->res + k] = NULL; p->bsrc[op->res + k] = -1; }
        return;
    }
    for (int k = 0; k < op->nres; k++) {
        ir_value v = op->res + k;
        const ival_info *vi = &s->vi[v];
        if (!tt_dtype_is_float(vi->dt)) { p->bnd[v] = NULL; p->bsrc[v] = -1; continue; }
        const ival_info *vx = &s->vi[op->opnd[0]];
        int axis = (int)op->attr[0];
        int64_t R = vx->rank ? vx->shape[axis] : 1;
        interp_bnd *b = bnd_new(p, v);
        double u = unit_roundoff(vi->dt == TT_F64 ? TT_F64 : TT_F32);
        interp_full(p, v);
        for (int64_t i = 0; i < vi->numel; i++) {
            double y = fabs(interp_get_f64(p->vals[v], vi->dt, i, false));
            double r = u * (BND_LAMBDA * sqrt((double)R / 3) * y + (double)(R / BND_CHUNK + 1) * y);
            if (vi->dt == TT_F16 || vi->dt == TT_BF16) r += ulp_at(y, vi->dt);
            b[i].dn = b[i].up = up_f(r);
        }
        bnd_set(p, v, b, op_index(p));
    }
}

/* ---- memory ---------------------------------------------------------------- */

/* The buffer's bound layer (one interp_bnd and one op index per element),
 * made on the first bounded store. */
static void buf_bounds(interp_session *s, interp_buf *b)
{
    if (__atomic_load_n(&b->bnd, __ATOMIC_ACQUIRE)) return;
    pthread_mutex_lock(&s->shadow_lock);
    if (!b->bnd) {
        b->bsrc = xcalloc((size_t)b->numel, sizeof *b->bsrc);
        __atomic_store_n(&b->bnd, xcalloc((size_t)b->numel, sizeof *b->bnd), __ATOMIC_RELEASE);
        __atomic_store_n(&s->bnd_bufs, true, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&s->shadow_lock);
}

/* The element of lane i of a pointer tile: its buffer and index, or false. */
static bool lane_elem(interp_session *s, const uint64_t *ptr, int64_t i, int *bi, int64_t *e)
{
    uint64_t a = ptr[i];
    int k = interp_find_buf(s, a);
    if (k < 0) return false;
    const interp_buf *b = &s->bufs[k];
    if ((a - b->base) & (uint64_t)(b->esize - 1)) return false;
    *bi = k;
    *e = (int64_t)((a - b->base) >> b->eshift);
    return *e < b->numel;
}

/* The mask operand k of op as a tile of n lanes (every lane full), NULL
 * when op has none. */
static const uint8_t *mask_of(interp_prog *p, const ir_op *op, int k, int64_t n)
{
    if (op->nopnd <= k) return NULL;
    interp_full(p, op->opnd[k]);
    return interp_operand(p, op, k, n);
}

static void load(interp_prog *p, const ir_op *op)
{
    interp_session *s = p->s;
    ir_value res = op->res;
    int64_t n = s->vi[res].numel;
    const interp_bnd *bo = op->nopnd > 2 ? p->bnd[op->opnd[2]] : NULL;
    bool any = bo || __atomic_load_n(&s->bnd_bufs, __ATOMIC_ACQUIRE);
    if (!any || s->vi[op->opnd[0]].dt != TT_PTR) { p->bnd[res] = NULL; p->bsrc[res] = -1; return; }
    interp_full(p, op->opnd[0]);
    const uint64_t *ptr = interp_operand(p, op, 0, n);
    const uint8_t *mask = mask_of(p, op, 1, n);
    int64_t on = bo ? s->vi[op->opnd[2]].numel : 0;
    interp_bnd *b = bnd_new(p, res);
    int32_t src = bo ? p->bsrc[op->opnd[2]] : -1;
    float best = 0;
    for (int64_t i = 0; i < n; i++) {
        int bi;
        int64_t e;
        if (mask && !(mask[i] & 1)) {
            if (bo) b[i] = bo[on == n ? i : 0];
            continue;
        }
        if (!lane_elem(s, ptr, i, &bi, &e)) continue;
        const interp_buf *bf = &s->bufs[bi];
        const interp_bnd *lb = __atomic_load_n(&bf->bnd, __ATOMIC_ACQUIRE);
        if (!lb) continue;
        b[i] = lb[e];
        float m = fmaxf(lb[e].dn, lb[e].up);
        if (m > best) { best = m; src = bf->bsrc[e]; }
    }
    bnd_set(p, res, b, src);
}

/* A store records its value's bound per element (an exact value clears
 * it). A float stored by a program that holds a lock (an atomic_cas spin
 * lock, as in tutorial 05's backward pass) accumulates in the order the
 * programs take the lock: each such store's rounding, an ulp of the value,
 * adds to the element's bound (and the next holder's load carries it on). */
static void store(interp_prog *p, const ir_op *op)
{
    interp_session *s = p->s;
    ir_value pv = op->opnd[0], vv = op->opnd[1];
    int64_t n = s->vi[pv].numel, vn = s->vi[vv].numel;
    tt_dtype dt = s->vi[vv].dt;
    const interp_bnd *bv = p->bnd[vv];
    bool locked = p->synced && tt_dtype_is_float(dt);
    if (s->vi[pv].dt != TT_PTR || (!bv && !locked && !__atomic_load_n(&s->bnd_bufs, __ATOMIC_ACQUIRE))) return;
    interp_full(p, pv);
    interp_full(p, vv);
    const uint64_t *ptr = interp_operand(p, op, 0, n);
    const uint8_t *mask = mask_of(p, op, 2, n);
    const void *val = p->vals[vv];
    int32_t src = locked ? op_index(p) : p->bsrc[vv];
    for (int64_t i = 0; i < n; i++) {
        int bi;
        int64_t e;
        if ((mask && !(mask[i] & 1)) || !lane_elem(s, ptr, i, &bi, &e)) continue;
        interp_buf *bf = &s->bufs[bi];
        int64_t j = vn == n ? i : 0;
        if (!bv && !locked) {
            interp_bnd *lb = __atomic_load_n(&bf->bnd, __ATOMIC_ACQUIRE);
            if (lb) { lb[e].dn = lb[e].up = 0; bf->bsrc[e] = -1; }
            continue;
        }
        double r = locked ? ulp_at(interp_get_f64(val, dt, j, false), dt) : 0;
        buf_bounds(s, bf);
        bf->bnd[e].dn = up_f((bv ? bv[j].dn : 0) + r);
        bf->bnd[e].up = up_f((bv ? bv[j].up : 0) + r);
        bf->bsrc[e] = src;
    }
}

/* An atomic add in whatever order the programs come: each one's rounding
 * (u |new value|) and its operand's bound add up in the element. */
static void atomic(interp_prog *p, const ir_op *op)
{
    interp_session *s = p->s;
    ir_value pv = op->opnd[0], vv = op->opnd[1];
    int64_t n = s->vi[pv].numel, vn = s->vi[vv].numel;
    tt_dtype dt = s->vi[vv].dt;
    p->bnd[op->res] = NULL;
    p->bsrc[op->res] = -1;
    if (s->vi[pv].dt != TT_PTR) return;
    bool fadd = op->opc == IR_ATOMIC_RMW && op->attr[0] == RMW_FADD && tt_dtype_is_float(dt);
    const interp_bnd *bv = p->bnd[vv];
    if (!fadd && !bv) return;
    if (!fadd) { unbounded(p, op); return; }
    interp_full(p, pv);
    interp_full(p, vv);
    const uint64_t *ptr = interp_operand(p, op, 0, n);
    const uint8_t *mask = mask_of(p, op, 2, n);
    const void *val = p->vals[vv];
    for (int64_t i = 0; i < n; i++) {
        int bi;
        int64_t e;
        if ((mask && !(mask[i] & 1)) || !lane_elem(s, ptr, i, &bi, &e)) continue;
        interp_buf *bf = &s->bufs[bi];
        buf_bounds(s, bf);
        int64_t j = vn == n ? i : 0;
        double now = interp_get_f64(bf->host, bf->dt, e, false), x = interp_get_f64(val, dt, j, false);
        double r = 0.5 * (ulp_at(now, bf->dt) + ulp_at(now - x, bf->dt)) + (bv ? fmax(bv[j].dn, bv[j].up) : 0);
        pthread_mutex_lock(&s->shadow_lock);     /* programs add to one element */
        bf->bnd[e].dn = up_f(bf->bnd[e].dn + r);
        bf->bnd[e].up = up_f(bf->bnd[e].up + r);
        bf->bsrc[e] = op_index(p);
        pthread_mutex_unlock(&s->shadow_lock);
    }
}

/* ---- the executor's call --------------------------------------------------- */

void interp_bound_op(interp_prog *p, const ir_op *op)
{
    switch (ir_ops[op->opc].family) {
    case F_ARITH:
    case F_CAST:
    case F_MATH:
        elementwise(p, op);
        break;
    case F_SHAPE:
        moves(p, op);
        break;
    case F_DOT:
        dot(p, op);
        break;
    case F_REDUCE:
        if (op->opc == IR_REDUCE) reduce(p, op);
        else combine(p, op);
        break;
    case F_MAP:
        combine(p, op);
        break;
    case F_MEM:
        if (op->opc == IR_LOAD) load(p, op);
        else if (op->opc == IR_STORE) store(p, op);
        else atomic(p, op);
        break;
    case F_SCF:                    /* eval_scf.c carries its results' bounds */
    case F_TERM:
    case F_HINT:
    case F_DEBUG:
        break;
    default:                       /* sources, pointers: exact */
        for (int k = 0; k < op->nres; k++) { p->bnd[op->res + k] = NULL; p->bsrc[op->res + k] = -1; }
        break;
    }
}

/* ---- session ------------------------------------------------------------- */

void interp_bound_session(interp_session *s)
{
    s->bounds = s->o.bounds && s->o.numerics == NUMERICS_FAST;
    if (!s->bounds) return;
    /* the bound view: every value's tile holds one interp_bnd per element */
    interp_session *bs = xcalloc(1, sizeof *bs);
    *bs = *s;
    bs->vi = xcalloc((size_t)(s->nvals ? s->nvals : 1), sizeof *bs->vi);
    for (int v = 0; v < s->nvals; v++) {
        bs->vi[v] = s->vi[v];
        bs->vi[v].esize = sizeof(interp_bnd);
    }
    bs->heads_ok = xcalloc((size_t)(s->nvals ? s->nvals : 1), 1);
    s->bview = bs;
}

void interp_bound_session_free(interp_session *s)
{
    if (s->bview) {
        free(s->bview->vi);
        free(s->bview->heads_ok);
        free(s->bview);
        s->bview = NULL;
    }
}

bool interp_elem_bound(const interp_session *s, int arg, int64_t elem, interp_bound *out)
{
    if (!s || arg < 0 || arg >= s->l->nargs + s->l->nextra || s->arg_buf[arg] < 0) return false;
    const interp_buf *b = &s->bufs[s->arg_buf[arg]];
    const interp_bnd *lb = __atomic_load_n(&b->bnd, __ATOMIC_ACQUIRE);
    if (!lb || elem < 0 || elem >= b->numel || (lb[elem].dn == 0 && lb[elem].up == 0)) return false;
    out->dn = lb[elem].dn;
    out->up = lb[elem].up;
    out->op = interp_global_op(s, b->bsrc[elem]);
    return true;
}

bool interp_has_bounds(const interp_session *s) { return s && s->bounds; }
