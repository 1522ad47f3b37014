/* axis.c — contiguity / divisibility / constancy of integer and pointer
 * values, per dimension: Triton's AxisInfo analysis
 * (lib/Analysis/AxisInfo.cpp), reduced to the ops tritium's IR has. It is what
 * proves that a load of `x_ptr + pid * BLOCK + tl.arange(0, BLOCK)` can use
 * 16-byte vectors. Kernel arguments are "divisible by 16" when the
 * specialization says so (gpu_spec, as Triton's specialize.cc). Loop-carried
 * values are joined to a fixpoint. */
#include "gpu_int.h"

#include <string.h>

typedef struct actx {
    const ir_func *f;
    const gpu_spec *spec;
    gaxis *ax;
    bool *isc;                     /* value is a known integer constant (or a splat of one) */
    int64_t *cval;
} actx;

static int64_t gcd64(int64_t a, int64_t b)
{
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static int64_t pow2div(int64_t c)
{
    if (c == 0) return GAXIS_MAXDIV;
    uint64_t u = (uint64_t)c;
    int64_t p = (int64_t)(u & (~u + 1));
    return p <= 0 || p > GAXIS_MAXDIV ? GAXIS_MAXDIV : p;
}

static int rank_of(const actx *a, ir_value v) { return ir_type_rank(a->f->values.v[v].type); }
static const int64_t *shape_of(const actx *a, ir_value v) { return ir_type_get(a->f->values.v[v].type)->shape; }

static void set_default(gaxis *x)
{
    for (int d = 0; d < IR_MAX_RANK; d++) x->contig[d] = x->div[d] = x->cnst[d] = 1;
}

static void set_uniform(actx *a, ir_value v, int64_t div)
{
    gaxis *x = &a->ax[v];
    int r = rank_of(a, v);
    const int64_t *s = shape_of(a, v);
    for (int d = 0; d < IR_MAX_RANK; d++) {
        x->contig[d] = 1;
        x->div[d] = div;
        x->cnst[d] = d < r ? s[d] : 1;
    }
}

static int esize_of_ptr(const actx *a, ir_value p)
{
    const ir_type_info *ti = ir_type_get(ir_type_elem(a->f->values.v[p].type));
    if (ti->elem != TT_PTR) return 1;
    int b = ir_type_bits(ti->pointee);
    return b < 8 ? 1 : b / 8;
}

static bool join_into(gaxis *dst, const gaxis *src)
{
    bool ch = false;
    for (int d = 0; d < IR_MAX_RANK; d++) {
        int64_t c = src->contig[d] < dst->contig[d] ? src->contig[d] : dst->contig[d];
        int64_t v = gcd64(src->div[d], dst->div[d]);
        int64_t k = src->cnst[d] < dst->cnst[d] ? src->cnst[d] : dst->cnst[d];
        if (c != dst->contig[d] || v != dst->div[d] || k != dst->cnst[d]) ch = true;
        dst->contig[d] = c;
        dst->div[d] = v;
        dst->cnst[d] = k;
    }
    return ch;
}

static void region(actx *a, int r);

static ir_op *terminator(const ir_func *f, int r)
{
    const ir_region *rg = &f->regions.v[r];
    if (!rg->nops) return NULL;
    ir_op *t = &rg->ops[rg->nops - 1];
    return (ir_ops[t->opc].props & P_TERMINATOR) ? t : NULL;
}

static void binop(actx *a, const ir_op *op, int opc)
{
    ir_value res = op->res;
    const gaxis *l = &a->ax[op->opnd[0]], *r = &a->ax[op->opnd[1]];
    gaxis *x = &a->ax[res];
    int rank = rank_of(a, res);
    const int64_t *s = shape_of(a, res);
    set_default(x);
    bool lc = a->isc[op->opnd[0]], rc = a->isc[op->opnd[1]];
    int64_t lv = a->cval[op->opnd[0]], rv = a->cval[op->opnd[1]];
    int n = rank ? rank : 1;
    for (int d = 0; d < n; d++) {
        int64_t sd = rank ? s[d] : 1;
        x->cnst[d] = gcd64(l->cnst[d], r->cnst[d]);
        switch (opc) {
        case IR_ADDI: case IR_ADDPTR: {
            int64_t rdiv = r->div[d];
            if (opc == IR_ADDPTR) {
                int es = esize_of_ptr(a, op->opnd[0]);
                rdiv = rdiv >= GAXIS_MAXDIV ? GAXIS_MAXDIV : rdiv * es;
            }
            int64_t c1 = gcd64(l->contig[d], r->cnst[d]), c2 = gcd64(l->cnst[d], r->contig[d]);
            x->contig[d] = c1 > c2 ? c1 : c2;
            x->div[d] = gcd64(l->div[d], rdiv);
            break;
        }
        case IR_SUBI:
            x->contig[d] = gcd64(l->contig[d], r->cnst[d]);
            x->div[d] = gcd64(l->div[d], r->div[d]);
            break;
        case IR_MULI: {
            int64_t ld = (l->contig[d] > 1 && !(rc && rv == 1)) ? 1 : l->div[d];
            int64_t rd = (r->contig[d] > 1 && !(lc && lv == 1)) ? 1 : r->div[d];
            int64_t m = ld * rd;
            x->div[d] = m > GAXIS_MAXDIV || m <= 0 ? GAXIS_MAXDIV : m;
            x->contig[d] = rc && rv == 1 ? l->contig[d] : lc && lv == 1 ? r->contig[d] : 1;
            break;
        }
        case IR_REMSI: case IR_REMUI:
            if (r->cnst[d] == sd) {
                x->contig[d] = gcd64(l->contig[d], r->div[d]);
                x->div[d] = gcd64(l->div[d], r->div[d]);
            }
            break;
        case IR_CMPI: {
            int p = (int)op->attr[0];
            bool ord = p != CMPI_EQ && p != CMPI_NE;
            if (ord && r->cnst[d] == sd && l->contig[d] > 1) {
                int64_t c = gcd64(l->contig[d], gcd64(l->div[d], r->div[d]));
                if (c > x->cnst[d]) x->cnst[d] = c;
            }
            if (ord && l->cnst[d] == sd && r->contig[d] > 1) {
                int64_t c = gcd64(r->contig[d], gcd64(r->div[d], l->div[d]));
                if (c > x->cnst[d]) x->cnst[d] = c;
            }
            break;
        }
        case IR_MAXSI: case IR_MINSI: case IR_MAXUI: case IR_MINUI:
            if (l->contig[d] == 1 && r->contig[d] == 1) x->div[d] = gcd64(l->div[d], r->div[d]);
            break;
        default:
            break;
        }
    }
    if (lc && rc) {
        int64_t v = 0;
        bool ok = true;
        switch (opc) {
        case IR_ADDI: v = (int64_t)((uint64_t)lv + (uint64_t)rv); break;
        case IR_SUBI: v = (int64_t)((uint64_t)lv - (uint64_t)rv); break;
        case IR_MULI: v = (int64_t)((uint64_t)lv * (uint64_t)rv); break;
        default: ok = false;
        }
        if (ok && ir_type_is_int(a->f->values.v[res].type)) {
            a->isc[res] = true;
            a->cval[res] = v;
            set_uniform(a, res, pow2div(v));
        }
    }
}

static void op_info(actx *a, int r, int i)
{
    const ir_func *f = a->f;
    ir_op *op = &f->regions.v[r].ops[i];
    int opc = op->opc;
    for (int k = 0; k < op->nres; k++) set_default(&a->ax[op->res + k]);
    ir_value res = op->res;
    switch (opc) {
    case IR_CONSTANT:
        if (ir_type_is_int(f->values.v[res].type)) {
            a->isc[res] = true;
            a->cval[res] = op->ival;
            set_uniform(a, res, pow2div(op->ival));
        } else {
            set_uniform(a, res, 1);
        }
        break;
    case IR_MAKE_RANGE:
        a->ax[res].contig[0] = op->attr[1] - op->attr[0];
        a->ax[res].div[0] = pow2div(op->attr[0]);
        break;
    case IR_SPLAT:
        set_uniform(a, res, a->ax[op->opnd[0]].div[0]);
        a->isc[res] = a->isc[op->opnd[0]];
        a->cval[res] = a->cval[op->opnd[0]];
        break;
    case IR_BROADCAST: {
        const gaxis *s = &a->ax[op->opnd[0]];
        const int64_t *ss = shape_of(a, op->opnd[0]), *ds = shape_of(a, res);
        int rk = rank_of(a, res);
        for (int d = 0; d < rk; d++) {
            bool b = rank_of(a, op->opnd[0]) == rk && ss[d] == 1 && ds[d] > 1;
            a->ax[res].contig[d] = b ? 1 : s->contig[d];
            a->ax[res].div[d] = s->div[d];
            a->ax[res].cnst[d] = b ? ds[d] : s->cnst[d];
        }
        a->isc[res] = a->isc[op->opnd[0]];
        a->cval[res] = a->cval[op->opnd[0]];
        break;
    }
    case IR_EXPAND_DIMS: {
        const gaxis *s = &a->ax[op->opnd[0]];
        int ax = (int)op->attr[0], rk = rank_of(a, res);
        int64_t nd = GAXIS_MAXDIV;
        for (int d = 0; d < (rk - 1 ? rk - 1 : 1); d++) {
            int64_t v = s->contig[d] > 1 ? 1 : s->div[d];
            if (v < nd) nd = v;
        }
        for (int d = 0, k = 0; d < rk; d++) {
            if (d == ax) {
                a->ax[res].contig[d] = 1;
                a->ax[res].div[d] = nd;
                a->ax[res].cnst[d] = 1;
            } else {
                a->ax[res].contig[d] = s->contig[k];
                a->ax[res].div[d] = s->div[k];
                a->ax[res].cnst[d] = s->cnst[k];
                k++;
            }
        }
        a->isc[res] = a->isc[op->opnd[0]];
        a->cval[res] = a->cval[op->opnd[0]];
        break;
    }
    case IR_ADDI: case IR_SUBI: case IR_MULI: case IR_ADDPTR: case IR_REMSI: case IR_REMUI:
    case IR_CMPI: case IR_MAXSI: case IR_MINSI: case IR_MAXUI: case IR_MINUI:
        binop(a, op, opc);
        break;
    case IR_ANDI: case IR_ORI: case IR_XORI: case IR_DIVSI: case IR_DIVUI: case IR_CMPF:
    case IR_SHLI: case IR_SHRSI: case IR_SHRUI: {
        const gaxis *l = &a->ax[op->opnd[0]], *rr = &a->ax[op->opnd[1]];
        for (int d = 0; d < IR_MAX_RANK; d++) a->ax[res].cnst[d] = gcd64(l->cnst[d], rr->cnst[d]);
        break;
    }
    case IR_SELECT: {
        const gaxis *c = &a->ax[op->opnd[0]], *l = &a->ax[op->opnd[1]], *rr = &a->ax[op->opnd[2]];
        for (int d = 0; d < IR_MAX_RANK; d++) {
            a->ax[res].cnst[d] = gcd64(c->cnst[d], gcd64(l->cnst[d], rr->cnst[d]));
            int64_t mc = l->contig[d] < rr->contig[d] ? l->contig[d] : rr->contig[d];
            a->ax[res].contig[d] = gcd64(mc, c->cnst[d]);
            a->ax[res].div[d] = gcd64(l->div[d], rr->div[d]);
        }
        break;
    }
    case IR_EXTSI: case IR_EXTUI: case IR_TRUNCI: case IR_INT_TO_PTR: case IR_PTR_TO_INT: case IR_BITCAST:
        a->ax[res] = a->ax[op->opnd[0]];
        if (opc != IR_BITCAST) {
            a->isc[res] = a->isc[op->opnd[0]];
            a->cval[res] = a->cval[op->opnd[0]];
        }
        break;
    case IR_FOR: {
        int body = op->region[0];
        const ir_region *rg = &f->regions.v[body];
        ir_value iv = rg->args[0];
        set_default(&a->ax[iv]);
        a->ax[iv].div[0] = gcd64(a->ax[op->opnd[0]].div[0], a->ax[op->opnd[2]].div[0]);
        int nc = op->nopnd - 3;
        for (int k = 0; k < nc && k + 1 < rg->nargs; k++) {
            ir_value arg = rg->args[k + 1], init = op->opnd[3 + k];
            a->ax[arg] = a->ax[init];
            if (ir_carried_init(f, arg) >= 0) {     /* carried unchanged: a block pointer's stride 1 */
                a->isc[arg] = a->isc[init];
                a->cval[arg] = a->cval[init];
            }
        }
        for (int it = 0; it < 6; it++) {
            region(a, body);
            ir_op *y = terminator(f, body);
            bool ch = false;
            for (int k = 0; y && k < nc && k < y->nopnd && k + 1 < rg->nargs; k++)
                ch |= join_into(&a->ax[rg->args[k + 1]], &a->ax[y->opnd[k]]);
            if (!ch) break;
        }
        for (int k = 0; k < op->nres && k + 1 < rg->nargs; k++) a->ax[op->res + k] = a->ax[rg->args[k + 1]];
        break;
    }
    case IR_IF: {
        ir_op *ty = NULL, *ey = NULL;
        if (op->nregions > 0) { region(a, op->region[0]); ty = terminator(f, op->region[0]); }
        if (op->nregions > 1) { region(a, op->region[1]); ey = terminator(f, op->region[1]); }
        for (int k = 0; k < op->nres; k++) {
            if (ty && k < ty->nopnd) a->ax[op->res + k] = a->ax[ty->opnd[k]];
            if (ey && k < ey->nopnd) join_into(&a->ax[op->res + k], &a->ax[ey->opnd[k]]);
        }
        break;
    }
    case IR_WHILE: {
        int before = op->region[0], after = op->region[1];
        const ir_region *rb = &f->regions.v[before], *ra = &f->regions.v[after];
        for (int k = 0; k < rb->nargs && k < op->nopnd; k++) a->ax[rb->args[k]] = a->ax[op->opnd[k]];
        for (int it = 0; it < 6; it++) {
            region(a, before);
            ir_op *c = terminator(f, before);
            for (int k = 0; c && k < ra->nargs && k + 1 < c->nopnd; k++) a->ax[ra->args[k]] = a->ax[c->opnd[k + 1]];
            region(a, after);
            ir_op *y = terminator(f, after);
            bool ch = false;
            for (int k = 0; y && k < rb->nargs && k < y->nopnd; k++) ch |= join_into(&a->ax[rb->args[k]], &a->ax[y->opnd[k]]);
            if (!ch) break;
        }
        ir_op *c = terminator(f, before);
        for (int k = 0; c && k < op->nres && k + 1 < c->nopnd; k++) a->ax[op->res + k] = a->ax[c->opnd[k + 1]];
        break;
    }
    default:
        break;
    }
}

static void region(actx *a, int r)
{
    for (int i = 0; i < a->f->regions.v[r].nops; i++) op_info(a, r, i);
}

void gpu_axis_analyze(const ir_func *f, const gpu_spec *spec, gaxis *out)
{
    actx a = { f, spec, out, xcalloc((size_t)f->values.n + 1, sizeof(bool)),
               xcalloc((size_t)f->values.n + 1, sizeof(int64_t)) };
    for (int v = 0; v < f->values.n; v++) set_default(&out[v]);
    const ir_region *body = &f->regions.v[IR_BODY];
    for (int k = 0; k < body->nargs; k++) {
        ir_value v = body->args[k];
        bool d16 = spec && k < 64 && (spec->div16 >> k & 1);
        if (k < f->nargs && f->arg_is_ptr[k]) out[v].div[0] = d16 ? 16 : esize_of_ptr(&a, v);
        else if (ir_type_is_int(f->values.v[v].type)) out[v].div[0] = d16 ? 16 : 1;
        if (spec && k < 64 && (spec->eq1 >> k & 1) && ir_type_is_int(f->values.v[v].type) &&
            !(k < f->nargs && f->arg_is_ptr[k])) {
            a.isc[v] = true;             /* specialized to the constant 1 (gpu_lower does the same) */
            a.cval[v] = 1;
            out[v].div[0] = 1;
        }
    }
    region(&a, IR_BODY);
    free(a.isc);
    free(a.cval);
}
