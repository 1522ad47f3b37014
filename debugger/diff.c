/* diff.c — the diff engine: one launch in the interpreter and on the GPU,
 * compared element by element (see tritium/diff.h). */
#include "tritium/diff.h"
#include "tritium/cuda.h"
#include "tritium/diag.h"

#include <float.h>
#include <math.h>
#include <string.h>

void dbg_diff_options_default(dbg_diff_options *o)
{
    memset(o, 0, sizeof *o);
    o->numerics = NUMERICS_IEEE;
    o->ulp = -1;
    o->mma_sync = -1;
    o->sched = SCHED_IN_ORDER;
}

void dbg_diff_default_tol(tt_dtype d, tt_numerics n, double *rtol, double *atol)
{
    bool fast = n == NUMERICS_FAST;
    switch (d) {
    case TT_F16: case TT_BF16: *rtol = 1e-2; *atol = 1e-2; return;
    case TT_F32: *rtol = fast ? 1e-4 : 1e-5; *atol = fast ? 1e-5 : 1e-6; return;
    case TT_F64: *rtol = fast ? 1e-10 : 1e-12; *atol = fast ? 1e-12 : 1e-14; return;
    /* one fp8 step (2^-3 / 2^-2 relative): f32 results that differ in the
     * last bit can round to neighbouring fp8 values */
    case TT_F8E4NV: case TT_F8E4B15: case TT_F8E4B8: *rtol = 0.125; *atol = 1e-2; return;
    case TT_F8E5: case TT_F8E5B16: *rtol = 0.25; *atol = 1e-2; return;
    default: *rtol = 0; *atol = 0; return;
    }
}

/* Fraction bits of a float dtype (its ULP is 2^-bits of the binade); 0 for others. */
int64_t dbg_diff_ulp_in(int64_t n, tt_dtype from, tt_dtype to)
{
    int pf = tt_dtype_frac_bits(from), pt = tt_dtype_frac_bits(to);
    if (n <= 0 || !pf || !pt) return 0;
    if (pt >= pf) {                            /* exact widening: 2^(pt-pf) ULPs of `to` per ULP */
        int sh = pt - pf;
        return n > (INT64_MAX >> 1) >> sh ? INT64_MAX >> 1 : n << sh;
    }
    int sh = pf - pt;                          /* narrowing: each side rounds by <= 1/2 ULP */
    return ((n - 1) >> sh) + 2;                /* ceil(n / 2^sh) + 1 */
}

int64_t dbg_diff_math_ulp(const ir_func *f, tt_dtype d)
{
    int64_t best = 0;
    for (int r = 0; r < f->regions.n; r++) {
        const ir_region *rg = &f->regions.v[r];
        for (int i = 0; i < rg->nops; i++) {
            const ir_op *op = &rg->ops[i];
            const ir_mathfn *m = &ir_mathfns[op->opc];
            if (!m->arity || op->nres != 1) continue;
            ir_type t[4];
            for (int k = 0; k < op->nopnd && k < 4; k++) t[k] = ir_value_type(f, op->opnd[k]);
            int v = ir_mathfn_variant(op->opc, t, op->nopnd, ir_value_type(f, op->res));
            if (v < 0) continue;
            int64_t u = dbg_diff_ulp_in(m->var[v].ulp, m->var[v].res, d);
            if (u > best) best = u;
        }
    }
    return best;
}

/* Raw bits of element i (zero-extended). */
static uint64_t elem_bits(const tt_tensor *t, int64_t i)
{
    uint64_t v = 0;
    int sz = tt_dtype_size(t->dtype);
    memcpy(&v, (const char *)t->data + (size_t)i * (size_t)sz, (size_t)sz);
    return v;
}

/* Float format of a dtype: total bits and whether bits are a NaN. */
static int float_bits(tt_dtype d)
{
    switch (d) {
    case TT_F16: case TT_BF16: return 16;
    case TT_F32: return 32;
    case TT_F64: return 64;
    case TT_F8E4NV: case TT_F8E5: case TT_F8E4B15: case TT_F8E4B8: case TT_F8E5B16: return 8;
    default: return 0;
    }
}

static bool is_nan_bits(tt_dtype d, uint64_t b)
{
    switch (d) {
    case TT_F16: return (b & 0x7c00) == 0x7c00 && (b & 0x03ff);
    case TT_BF16: return (b & 0x7f80) == 0x7f80 && (b & 0x007f);
    case TT_F32: return (b & 0x7f800000u) == 0x7f800000u && (b & 0x007fffffu);
    case TT_F64: return (b & 0x7ff0000000000000ull) == 0x7ff0000000000000ull && (b & 0x000fffffffffffffull);
    case TT_F8E4NV: return (b & 0x7f) == 0x7f;
    case TT_F8E5: return (b & 0x7c) == 0x7c && (b & 0x03);
    case TT_F8E4B8: case TT_F8E5B16: return (b & 0xff) == 0x80;
    default: return false;              /* fp8e4b15 has no NaN */
    }
}

uint64_t dbg_diff_ulp(tt_dtype d, uint64_t a, uint64_t b)
{
    int nb = float_bits(d);
    if (!nb) {
        if (d == TT_U64) return a > b ? a - b : b - a;
        int64_t x = tt_load_i64(&a, d, 0), y = tt_load_i64(&b, d, 0);
        /* |x - y| without overflow */
        return x > y ? (uint64_t)x - (uint64_t)y : (uint64_t)y - (uint64_t)x;
    }
    bool na = is_nan_bits(d, a), nbn = is_nan_bits(d, b);
    if (na || nbn) return na && nbn ? 0 : UINT64_MAX;
    uint64_t sign = 1ull << (nb - 1);
    uint64_t mask = nb == 64 ? ~0ull : (1ull << nb) - 1;
    a &= mask;
    b &= mask;
    uint64_t ma = a & ~sign, mb = b & ~sign;
    bool sa = a & sign, sb = b & sign;
    if (sa == sb) return ma > mb ? ma - mb : mb - ma;
    return ma + mb;                /* across zero: both magnitudes (< 2^63) */
}

void dbg_diff_format(tt_dtype d, uint64_t bits, char *buf, size_t n)
{
    if (d == TT_BOOL) { snprintf(buf, n, "%s", bits & 1 ? "True" : "False"); return; }
    if (tt_dtype_is_int(d)) {
        if (d == TT_U64) snprintf(buf, n, "%llu", (unsigned long long)bits);
        else snprintf(buf, n, "%lld", (long long)tt_load_i64(&bits, d, 0));
        return;
    }
    double v = tt_load_f64(&bits, d, 0);
    int prec = d == TT_F64 ? 17 : d == TT_F32 ? 9 : 5;
    snprintf(buf, n, "%.*g", prec, v);
}

static void fill_writer(interp_session *s, const ir_func *f, const int64_t grid[3], int arg, dbg_diff_elem *e)
{
    int64_t prog;
    int32_t loc;
    e->loc = -1;
    e->file = -1;
    if (!s || !interp_last_writer(s, arg, e->elem, &prog, &loc)) return;
    e->has_writer = true;
    e->program = prog;
    interp_pid_of(grid, prog, e->pid);
    e->loc = loc;
    if (loc >= 0 && loc < f->locs.n) {
        const ir_loc *L = &f->locs.v[loc];
        e->file = L->file;
        e->line = L->line;
        e->col = L->col;
        snprintf(e->func, sizeof e->func, "%s", L->func ? L->func : "");
    }
}

static bool any_written(interp_session *s, int arg, int64_t n)
{
    int64_t prog;
    int32_t loc;
    for (int64_t i = 0; i < n; i++)
        if (interp_last_writer(s, arg, i, &prog, &loc)) return true;
    return false;
}

/* The op that dominated a bound, for reports: "tt.dot at f.py:12, tf32, K=64". */
static void bound_why(const ir_func *f, const ir_op *op, char *buf, size_t n)
{
    if (!op) { snprintf(buf, n, "?"); return; }
    int k = snprintf(buf, n, "%s", ir_ops[op->opc].name);
    if (op->loc >= 0 && op->loc < f->locs.n && f->locs.v[op->loc].file >= 0 && k < (int)n)
        k += snprintf(buf + k, n - (size_t)k, " at %s:%d", diag_file_name(f->locs.v[op->loc].file), f->locs.v[op->loc].line);
    if (k >= (int)n) return;
    const ir_type_info *t0 = op->nopnd ? ir_type_get(ir_value_type(f, op->opnd[0])) : NULL;
    switch (op->opc) {
    case IR_DOT: {
        const char *const *prec = ir_enum_names("prec", 4);      /* the IR's names: "tf32" ... "bf16x6" */
        snprintf(buf + k, n - (size_t)k, ", %s, K=%lld",
                 t0->elem == TT_F32 && op->attr[0] >= PREC_TF32 && op->attr[0] <= PREC_BF16X6 ? prec[op->attr[0]]
                                                                                              : tt_dtype_name(t0->elem),
                 (long long)t0->shape[t0->rank - 1]);
        break;
    }
    case IR_REDUCE:
        snprintf(buf + k, n - (size_t)k, ", order of %lld terms", (long long)(t0->rank ? t0->shape[op->attr[0]] : 1));
        break;
    case IR_DIVF:
        snprintf(buf + k, n - (size_t)k, ", div.full.f32 (2 ulp)");
        break;
    case IR_ATOMIC_RMW:
        snprintf(buf + k, n - (size_t)k, ", order of the programs' adds");
        break;
    case IR_STORE:
        snprintf(buf + k, n - (size_t)k, ", order of the programs holding the lock");
        break;
    case IR_ADDF:
    case IR_SUBF:
        snprintf(buf + k, n - (size_t)k, ", FMA contraction");
        break;
    default:
        if (ir_mathfns[op->opc].arity) {
            ir_type t[4];
            for (int i = 0; i < op->nopnd && i < 4; i++) t[i] = ir_value_type(f, op->opnd[i]);
            int v = ir_mathfn_variant(op->opc, t, op->nopnd, ir_value_type(f, op->res));
            if (v >= 0)
                snprintf(buf + k, n - (size_t)k, ", %lld ulp%s", (long long)ir_mathfns[op->opc].var[v].ulp,
                         v == 0 && ir_mathfns[op->opc].fast[0] ? " + fast form" : "");
        }
        break;
    }
}

/* Bound acceptance (dt->bounds): gpu value a against interpreter value b
 * whose bound, if any, is *bd (has: false when exact). */
static bool within_bound(tt_dtype d, double a, double b, bool has, const interp_bound *bd)
{
    if (a != a || b != b) return a != a && b != b;
    if (!has) {
        if (a == b) return true;
        /* the GPU may flush subnormals to zero (f32 only: ftz) */
        return d == TT_F32 && fabs(a) < FLT_MIN && fabs(b) < FLT_MIN;
    }
    if (isinf(bd->dn) || isinf(bd->up)) return true;
    return a >= b - bd->dn && a <= b + bd->up;
}

/* Compare tensor `arg`: ref = interpreter, got = GPU. */
static void compare(const dbg_diff_options *o, const ir_func *f, const dbg_diff_report *r, interp_session *s, int arg,
                    const tt_tensor *ref, const tt_tensor *got, dbg_diff_tensor *dt)
{
    tt_dtype d = ref->dtype;
    bool isf = tt_dtype_is_float(d);
    dbg_diff_default_tol(d, o->numerics, &dt->rtol, &dt->atol);
    if (o->has_rtol) dt->rtol = o->rtol;
    if (o->has_atol) dt->atol = o->atol;
    dt->ulp = o->ulp;
    /* floats: the kernel's math functions may differ by their bound (not
     * against a second interpreter run, which computes them identically) */
    if (isf && o->ulp < 0 && !o->against_interp) {
        dt->math_ulp = dbg_diff_math_ulp(f, d);
        if (dt->math_ulp > 0) dt->ulp = dt->math_ulp;
    }
    /* integers: exact unless a tolerance was asked for */
    dt->exact = !isf && dt->rtol == 0 && dt->atol == 0 && dt->ulp < 0;
    /* the numerics' bounds replace the tolerances unless one was given */
    dt->bounds = interp_has_bounds(s) && !o->has_rtol && !o->has_atol && o->ulp < 0 && !o->against_interp;
    if (dt->bounds) {
        dt->exact = false;
        dt->ulp = -1;
        dt->math_ulp = 0;
    }
    int show = o->max_show > 0 && o->max_show <= DBG_DIFF_MAX_SHOW ? o->max_show : DBG_DIFF_MAX_SHOW;
    dt->first = xcalloc((size_t)show, sizeof *dt->first);
    dt->max_abs_at = dt->max_rel_at = dt->max_ulp_at = -1;
    int64_t n = dt->numel;
    for (int64_t i = 0; i < n; i++) {
        /* every element's bound counts, equal or not: inexact, unmodeled, the largest */
        interp_bound bd = { 0, 0, NULL };
        bool has = dt->bounds && interp_elem_bound(s, arg, i, &bd);
        if (has) {
            dt->inexact++;
            double m = fmax(bd.dn, bd.up);
            if (isinf(m)) {
                if (!dt->unmodeled++ && !dt->max_bound_why[0]) bound_why(f, bd.op, dt->max_bound_why, sizeof dt->max_bound_why);
            } else if (m > dt->max_bound) {
                dt->max_bound = m;
                bound_why(f, bd.op, dt->max_bound_why, sizeof dt->max_bound_why);
            }
        }
        uint64_t rb = elem_bits(ref, i), gb = elem_bits(got, i);
        if (rb == gb) continue;                /* fast path: identical bits */
        uint64_t ulp = dbg_diff_ulp(d, gb, rb);
        double a = tt_load_f64(got->data, d, i), b = tt_load_f64(ref->data, d, i);
        bool ok;
        double err = INFINITY;
        if (dt->bounds) {
            ok = within_bound(d, a, b, has, &bd);
            err = isf ? (a != a && b != b ? 0 : isinf(a) && a == b ? 0 : fabs(a - b)) : (double)ulp;
            if (ok) dt->within += has;
        } else if (isf) {
            bool an = isnan(a), bn = isnan(b);
            if (an || bn) ok = an && bn;
            else if (isinf(a) || isinf(b)) ok = a == b;
            else {
                err = fabs(a - b);
                ok = a == b || err <= dt->atol + dt->rtol * fabs(b);
            }
            if (!ok && dt->ulp >= 0 && ulp <= (uint64_t)dt->ulp) ok = true;
            if (an && bn) err = 0;
            else if (isinf(a) && a == b) err = 0;
        } else {
            err = (double)ulp;
            ok = !dt->exact && (err <= dt->atol + dt->rtol * fabs(b) || (dt->ulp >= 0 && ulp <= (uint64_t)dt->ulp));
        }
        if (isfinite(err) && err > dt->max_abs) { dt->max_abs = err; dt->max_abs_at = i; }
        if (isfinite(err) && isfinite(b)) {
            double rel = b != 0 ? err / fabs(b) : err > 0 ? INFINITY : 0;
            if (rel > dt->max_rel || (dt->max_rel_at < 0 && rel > 0)) { dt->max_rel = rel; dt->max_rel_at = i; }
        }
        if (ulp > dt->max_ulp) { dt->max_ulp = ulp; dt->max_ulp_at = i; }
        if (ok) continue;
        dt->mismatches++;
        if (!dt->bad) dt->bad = xcalloc((size_t)(n / 8 + 1), 1);
        dt->bad[i >> 3] |= (uint8_t)(1u << (i & 7));
        if (dt->nfirst < show) {
            dbg_diff_elem *e = &dt->first[dt->nfirst++];
            e->elem = i;
            tt_unravel(ref->shape, ref->rank, i, e->index);
            e->ref_bits = rb;
            e->got_bits = gb;
            e->ref = b;
            e->got = a;
            e->abs_err = err;
            e->ulp = ulp;
            e->has_bound = has;
            e->bdn = bd.dn;
            e->bup = bd.up;
            if (has) bound_why(f, bd.op, e->why, sizeof e->why);
            fill_writer(s, f, r->grid, arg, e);
        }
    }
    dt->ok = dt->mismatches == 0;
}

bool dbg_diff_wants_bounds(const dbg_diff_options *o)
{
    return o->numerics == NUMERICS_FAST && !o->against_interp && !o->has_rtol && !o->has_atol && o->ulp < 0;
}

void dbg_diff_compare(const ir_func *f, const launch *in, const launch *ref, interp_session *s, const launch *got,
                      const dbg_diff_options *o0, dbg_diff_report *r)
{
    dbg_diff_options o;
    if (o0) o = *o0;
    else dbg_diff_options_default(&o);
    if (!r->kernel) r->kernel = xstrdup(f->name);
    memcpy(r->grid, in->grid, sizeof r->grid);
    for (int i = 0; i < in->nargs + in->nextra && i < ref->nargs + ref->nextra && i < got->nargs + got->nextra; i++) {
        const launch_arg *a = &in->args[i];
        if (a->kind != ARG_TENSOR || a->shared || !a->tensor || !ref->args[i].tensor || !got->args[i].tensor) continue;
        if (a->ptr_n) continue;            /* a pointer table: each executor's own addresses */
        const tt_tensor *t0 = a->tensor, *ct = ref->args[i].tensor, *gt = got->args[i].tensor;
        if (ct->nbytes != t0->nbytes || gt->nbytes != t0->nbytes || ct->dtype != t0->dtype || gt->dtype != t0->dtype)
            continue;
        int64_t n = tt_tensor_numel(t0);
        bool wc = memcmp(ct->data, t0->data, t0->nbytes) != 0;
        bool wg = memcmp(gt->data, t0->data, t0->nbytes) != 0;
        if (!wc && !wg && s) wc = any_written(s, i, n);
        if (!wc && !wg) {
            r->unwritten = xrealloc(r->unwritten, (size_t)(r->nunwritten + 1) * sizeof *r->unwritten);
            r->unwritten[r->nunwritten++] = xstrdup(a->name ? a->name : "?");
            continue;
        }
        r->tensors = xrealloc(r->tensors, (size_t)(r->ntensors + 1) * sizeof *r->tensors);
        dbg_diff_tensor *dt = &r->tensors[r->ntensors++];
        memset(dt, 0, sizeof *dt);
        dt->arg = i;
        dt->name = xstrdup(a->name ? a->name : "?");
        dt->dtype = t0->dtype;
        dt->rank = t0->rank;
        memcpy(dt->shape, t0->shape, sizeof dt->shape);
        dt->numel = n;
        dt->written_interp = wc;
        dt->written_gpu = wg;
        compare(&o, f, r, s, i, ct, gt, dt);
        r->mismatches += dt->mismatches;
    }
}

/* The other side as a second interpreter run (against_interp). Returns -1
 * (status 2) when the session cannot be made. */
static int other_interp(const ir_func *f, launch *l, const dbg_diff_options *o, dbg_diff_report *r)
{
    interp_options io;
    interp_options_default(&io);
    io.numerics = o->numerics;
    io.sched = o->other_sched;
    io.sched_seed = o->other_seed;
    io.threads = o->threads;
    io.check_races = false;        /* the reference run reports them */
    io.check_uninit = false;
    io.report = o->interp_report;
    if (o->max_interp_reports > 0) io.max_reports = o->max_interp_reports;
    interp_session *s = interp_session_new(f, l, &io);
    if (!s) {
        snprintf(r->message, sizeof r->message, "the launch does not match kernel %s", f->name);
        r->status = 2;
        return -1;
    }
    double t0 = now_seconds();
    interp_run_launch(s);
    interp_stats st;
    interp_get_stats(s, &st);
    interp_session_free(s);
    snprintf(r->gpu.device, sizeof r->gpu.device, "interpreter");
    r->gpu.kernel_ms = (now_seconds() - t0) * 1e3;
    r->gpu_ran = true;
    return 0;
}

int dbg_diff_run(const ir_func *f, const launch *l, const dbg_diff_options *o0, dbg_diff_report *r)
{
    dbg_diff_options o;
    if (o0) o = *o0;
    else dbg_diff_options_default(&o);
    memset(r, 0, sizeof *r);
    r->kernel = xstrdup(f->name);
    r->numerics = o.numerics;
    memcpy(r->grid, l->grid, sizeof r->grid);
    r->num_warps = o.num_warps ? o.num_warps : l->num_warps > 0 ? l->num_warps : 4;

    launch gl, cl;
    launch_copy(&gl, l);
    launch_copy(&cl, l);
    interp_session *s = NULL;

    r->against_interp = o.against_interp;
    r->other_sched = o.other_sched;
    if (o.against_interp) {
        if (other_interp(f, &gl, &o, r)) goto out;
        goto interp;
    }
    /* 1. the GPU */
    gpu_options go;
    gpu_options_default(&go);
    go.set.numerics = o.numerics;
    go.set.num_warps = r->num_warps;
    go.set.arch = o.arch;
    if (o.mma_sync >= 0) go.set.mma_sync = o.mma_sync;
    if (o.persistent) go.set.persistent = true;
    char err[sizeof r->message];
    err[0] = 0;
    int rc = gpu_launch(f, &gl, &go, &r->gpu, err, sizeof err);
    if (rc == 2) {
        snprintf(r->message, sizeof r->message, "%s", err);
        r->status = 2;
        goto out;
    }
    if (rc == 1) {
        snprintf(r->message, sizeof r->message, "%s", err);
        r->gpu_failed = true;
        cuda_reset();                /* the context is unusable after a device fault */
    } else {
        r->gpu_ran = true;
    }

interp:
    /* 2. the interpreter, on its own copy of the same inputs */
    ;
    interp_options io;
    interp_options_default(&io);
    io.numerics = o.numerics;
    io.sched = o.sched;
    io.sched_seed = o.sched_seed;
    io.threads = o.threads;
    io.report = o.interp_report;
    io.bounds = dbg_diff_wants_bounds(&o);
    if (o.max_interp_reports > 0) io.max_reports = o.max_interp_reports;
    s = interp_session_new(f, &cl, &io);
    if (!s) {
        snprintf(r->message, sizeof r->message, "the launch does not match kernel %s", f->name);
        r->status = 2;
        goto out;
    }
    if (o.on_session) o.on_session(o.watch_user, s, &cl);
    double t0 = now_seconds();
    interp_run_launch(s);
    interp_get_stats(s, &r->interp);
    if (r->interp.seconds <= 0) r->interp.seconds = now_seconds() - t0;
    r->interp_ran = true;

    /* 3. compare the tensors either side wrote */
    if (r->gpu_ran) dbg_diff_compare(f, l, &cl, s, &gl, &o, r);
    r->status = r->mismatches || r->gpu_failed || r->interp.faults ? 1 : 0;
    if (o.on_done) o.on_done(o.watch_user, l, &cl, s, r->gpu_ran ? &gl : NULL, r);
out:
    if (s) interp_session_free(s);
    launch_free(&gl);
    launch_free(&cl);
    return r->status;
}

void dbg_diff_report_free(dbg_diff_report *r)
{
    if (!r) return;
    for (int i = 0; i < r->ntensors; i++) {
        free(r->tensors[i].name);
        free(r->tensors[i].first);
        free(r->tensors[i].bad);
    }
    free(r->tensors);
    for (int i = 0; i < r->nunwritten; i++) free(r->unwritten[i]);
    free(r->unwritten);
    free(r->kernel);
    memset(r, 0, sizeof *r);
}

/* ---- text report ----------------------------------------------------------- */

static void at_text(const dbg_diff_tensor *t, int64_t lin, char *buf, size_t n)
{
    tt_index_str(t->shape, t->rank, lin, buf, n);
}

static void ulp_text(uint64_t u, char *buf, size_t n)
{
    if (u == UINT64_MAX) snprintf(buf, n, "nan");
    else snprintf(buf, n, "%llu", (unsigned long long)u);
}

static void shape_text(const dbg_diff_tensor *t, char *buf, size_t n)
{
    size_t k = (size_t)snprintf(buf, n, "%s[", tt_dtype_name(t->dtype));
    for (int d = 0; d < t->rank && k < n; d++)
        k += (size_t)snprintf(buf + k, n - k, "%s%lld", d ? "," : "", (long long)t->shape[d]);
    if (k < n) snprintf(buf + k, n - k, "]");
}

static void print_tensor(FILE *out, const dbg_diff_tensor *t, const char *kernel, const char *ref, const char *other)
{
    bool writers = !strcmp(ref, "interp");       /* only the interpreter knows who wrote an element */
    char sh[96], b1[96], b2[96], b3[32];
    shape_text(t, sh, sizeof sh);
    const char *side = (t->written_interp && t->written_gpu) || t->ok ? ""
                       : t->written_interp ? (writers ? " (only the interpreter changed it)" : " (only tritium changed it)")
                       : !strcmp(other, "gpu") ? " (only the GPU changed it)" : " (only the other run changed it)";
    if (t->bounds && !t->inexact) snprintf(b1, sizeof b1, "exact: no inexact operation reached it");
    else if (t->bounds) snprintf(b1, sizeof b1, "numerics' bounds");
    else if (t->exact) snprintf(b1, sizeof b1, "exact");
    else {
        int k = snprintf(b1, sizeof b1, "rtol %g, atol %g", t->rtol, t->atol);
        if (t->ulp >= 0)
            snprintf(b1 + k, sizeof b1 - (size_t)k, ", ulp %lld%s", (long long)t->ulp,
                     t->math_ulp > 0 && t->ulp == t->math_ulp ? " from the math functions' bounds" : "");
    }
    if (t->ok)
        fprintf(out, "%-8s %s  ok: %lld elements agree (%s)%s\n", t->name, sh, (long long)t->numel, b1, side);
    else
        fprintf(out, "%-8s %s  MISMATCH: %lld of %lld elements differ (%s)%s\n", t->name, sh,
                (long long)t->mismatches, (long long)t->numel, b1, side);
    if (t->bounds && t->inexact) {
        fprintf(out, "         bounds: %lld inexact element%s, largest ±%.3g from %s", (long long)t->inexact,
                t->inexact == 1 ? "" : "s", t->max_bound, t->max_bound_why[0] ? t->max_bound_why : "?");
        if (t->within) fprintf(out, "; %lld differing element%s within %s", (long long)t->within,
                               t->within == 1 ? "" : "s", t->within == 1 ? "its bound" : "their bounds");
        if (t->unmodeled) fprintf(out, "; %lld not compared (an op the bounds do not model)", (long long)t->unmodeled);
        fputc('\n', out);
    }
    if (t->max_abs_at < 0 && t->max_ulp_at < 0) {
        fprintf(out, "         bit-identical\n");
    } else {
        fprintf(out, "         max abs error %.6g", t->max_abs);
        if (t->max_abs_at >= 0) { at_text(t, t->max_abs_at, b2, sizeof b2); fprintf(out, " at %s", b2); }
        fprintf(out, ", max rel error %.6g", t->max_rel);
        if (t->max_rel_at >= 0) { at_text(t, t->max_rel_at, b2, sizeof b2); fprintf(out, " at %s", b2); }
        ulp_text(t->max_ulp, b3, sizeof b3);
        fprintf(out, ", max ulp %s", b3);
        if (t->max_ulp_at >= 0) { at_text(t, t->max_ulp_at, b2, sizeof b2); fprintf(out, " at %s", b2); }
        fputc('\n', out);
    }
    if (t->nfirst == 0) return;
    if (t->nfirst == 1) fprintf(out, "         %s:\n", t->mismatches > 1 ? "the first mismatch" : "the mismatch");
    else fprintf(out, "         %s %d mismatches:\n", t->mismatches > t->nfirst ? "the first" : "all", t->nfirst);
    fprintf(out, "           %-16s %-16s %-16s %-11s %-10s %s\n", "index", ref, other, "abs err", "ulp",
            writers ? "written by (interpreter)" : "");
    for (int k = 0; k < t->nfirst; k++) {
        const dbg_diff_elem *e = &t->first[k];
        char ib[TT_INDEX_STR_LEN], rv[48], gv[48], ub[32], eb[32], wb[256];
        at_text(t, e->elem, ib, sizeof ib);
        dbg_diff_format(t->dtype, e->ref_bits, rv, sizeof rv);
        dbg_diff_format(t->dtype, e->got_bits, gv, sizeof gv);
        ulp_text(e->ulp, ub, sizeof ub);
        snprintf(eb, sizeof eb, "%.3g", e->abs_err);
        if (!writers) wb[0] = 0;
        else if (!e->has_writer) snprintf(wb, sizeof wb, "(never written)");
        else if (e->file >= 0)
            snprintf(wb, sizeof wb, "program (%lld, %lld, %lld) at %s:%d", (long long)e->pid[0], (long long)e->pid[1],
                     (long long)e->pid[2], diag_file_name(e->file), e->line);
        else
            snprintf(wb, sizeof wb, "program (%lld, %lld, %lld)", (long long)e->pid[0], (long long)e->pid[1],
                     (long long)e->pid[2]);
        fprintf(out, "           %-16s %-16s %-16s %-11s %-10s %s\n", ib, rv, gv, eb, ub, wb);
        if (t->bounds) {
            if (!e->has_bound) fprintf(out, "             bound: exact (no inexact operation reached it)\n");
            else if (tt_dtype_is_float(t->dtype))
                fprintf(out, "             bound: -%.3g/+%.3g from %s\n", e->bdn, e->bup, e->why);
            else
                fprintf(out, "             bound: {%lld..%lld} from %s\n", (long long)(e->ref - e->bdn),
                        (long long)(e->ref + e->bup), e->why);
        }
    }
    /* quote each distinct writing line once */
    for (int k = 0; k < t->nfirst; k++) {
        const dbg_diff_elem *e = &t->first[k];
        if (e->file < 0) continue;
        bool seen = false;
        for (int j = 0; j < k && !seen; j++)
            seen = t->first[j].file == e->file && t->first[j].line == e->line;
        if (seen) continue;
        const char *src = diag_source_line(e->file, e->line);
        while (*src == ' ' || *src == '\t') src++;
        fprintf(out, "         %s:%d:%d: %s", diag_file_name(e->file), e->line, e->col, src);
        if (e->func[0] && kernel && strcmp(e->func, kernel)) fprintf(out, "    (in %s, inlined)", e->func);
        fputc('\n', out);
    }
}

void dbg_diff_print(FILE *out, const dbg_diff_report *r)
{
    fprintf(out, "diff     %s: grid (%lld, %lld, %lld), num_warps %d, numerics %s\n", r->kernel,
            (long long)r->grid[0], (long long)r->grid[1], (long long)r->grid[2], r->num_warps,
            tt_numerics_name(r->numerics));
    if (r->status == 2 && !r->gpu_ran && !r->gpu_failed) {
        fprintf(out, "error    %s\n", r->message);
        return;
    }
    if (r->other_label[0])
        fprintf(out, "%-8s the results of the program's own launch\n", r->other_label);
    else if (r->against_interp && r->gpu_ran)
        fprintf(out, "other    the interpreter again, schedule %s: %.3f ms\n",
                interp_sched_name(r->other_sched), r->gpu.kernel_ms);
    else if (r->gpu_failed) fprintf(out, "gpu      FAILED: %s\n", r->message);
    else if (r->gpu_ran)
        fprintf(out, "gpu      %s (%s): kernel %.4f ms%s\n", r->gpu.device, r->gpu.arch, r->gpu.kernel_ms,
                r->gpu.ptx_cached ? ", PTX from the cache" : "");
    if (r->ref_label[0] && r->gpu_failed)       /* tritium's GPU path was the compared side */
        fprintf(out, "%-8s FAILED: %s\n", r->ref_label, r->message);
    else if (r->ref_label[0])
        fprintf(out, "%-8s %s (%s): kernel %.4f ms\n", r->ref_label, r->gpu.device, r->gpu.arch, r->gpu.kernel_ms);
    if (r->interp_ran)
        fprintf(out, "interp   %lld programs, %lld fault%s, %lld race%s, %.3f ms\n", (long long)r->interp.programs,
                (long long)r->interp.faults, r->interp.faults == 1 ? "" : "s", (long long)r->interp.races,
                r->interp.races == 1 ? "" : "s", r->interp.seconds * 1e3);
    const char *other = r->other_label[0] ? r->other_label : r->against_interp ? "other" : "gpu";
    const char *ref = r->ref_label[0] ? r->ref_label : "interp";
    for (int i = 0; i < r->ntensors; i++) print_tensor(out, &r->tensors[i], r->kernel, ref, other);
    if (r->nunwritten) {
        fprintf(out, "unchanged");
        for (int i = 0; i < r->nunwritten; i++) fprintf(out, "%s%s", i ? ", " : " ", r->unwritten[i]);
        fprintf(out, " (written by neither side; not compared)\n");
    }
    int bad = 0;
    for (int i = 0; i < r->ntensors; i++) bad += !r->tensors[i].ok;
    if (r->gpu_failed)
        fprintf(out, "result   FAILED: the kernel faulted on the GPU\n");
    else if (bad)
        fprintf(out, "result   MISMATCH: %d of %d written tensor%s differ%s\n", bad, r->ntensors,
                r->ntensors == 1 ? "" : "s", bad == 1 ? "s" : "");
    else if (r->interp.faults)
        fprintf(out, "result   FAILED: the interpreter found %lld fault%s (see above); %d tensor%s agree\n",
                (long long)r->interp.faults, r->interp.faults == 1 ? "" : "s", r->ntensors, r->ntensors == 1 ? "" : "s");
    else
        fprintf(out, "result   ok: %d written tensor%s agree\n", r->ntensors, r->ntensors == 1 ? "" : "s");
    if (r->interp.races && !bad)
        fprintf(out, "note     the interpreter found %lld race%s between programs: the results agree this time, "
                     "but may depend on the order in which programs run\n",
                (long long)r->interp.races, r->interp.races == 1 ? "" : "s");
}
