/* eval_scf.c — structured control flow: scf.for, scf.if, scf.while (and
 * their terminators scf.yield / scf.condition, handled by the executor).
 *
 * Loop-carried values: scf.for's first iteration reads the init tiles
 * themselves; after each iteration but the last the yielded tiles are copied
 * into one of two sets of buffers allocated before the loop (the one the
 * next iteration does not read, which makes swaps such as `yield b, a` safe)
 * and the tile memory of the iteration is released, so a loop runs in a
 * fixed footprint however many iterations it takes; the results are the
 * last iteration's yielded tiles, not copied. The values defined
 * inside a released body are forgotten (interp_value_data gives NULL for
 * them) until they are computed again; the last iteration is not released,
 * so its values stay visible after the loop. scf.if results share the tiles
 * its branch yielded (tiles are immutable). */
#include "internal.h"

static int64_t read_int(const void *d, const ival_info *vi)
{
    switch (vi->esize) {
    case 1: return vi->dt == TT_BOOL ? (*(const uint8_t *)d & 1) : *(const int8_t *)d;
    case 2: return *(const int16_t *)d;
    case 4: return *(const int32_t *)d;
    default: return *(const int64_t *)d;
    }
}

static size_t tile_bytes(const ival_info *vi) { return (size_t)vi->numel * vi->esize; }

/* Forget the values defined inside region r (its ops' results, nested). */
static void forget(interp_prog *p, int32_t r)
{
    interp_session *s = p->s;
    const ir_region *reg = &s->f->regions.v[r];
    for (int i = 0; i < reg->nops; i++) {
        const ir_op *op = &reg->ops[i];
        for (int k = 0; k < op->nres; k++) p->vals[op->res + k] = NULL;
        if (p->bnd) for (int k = 0; k < op->nres; k++) p->bnd[op->res + k] = NULL;
        for (int k = 0; k < op->nregions; k++) {
            if (op->region[k] < 0) continue;
            const ir_region *sub = &s->f->regions.v[op->region[k]];
            for (int a = 0; a < sub->nargs; a++) p->vals[sub->args[a]] = NULL;
            if (p->bnd) for (int a = 0; a < sub->nargs; a++) p->bnd[sub->args[a]] = NULL;
            forget(p, op->region[k]);
        }
    }
}

static void **alloc_set(interp_prog *p, const ir_value *types_of, int n)
{
    void **set = ts_alloc(&p->mem, sizeof(void *) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) set[i] = ts_alloc(&p->mem, tile_bytes(&p->s->vi[types_of[i]]));
    return set;
}

/* Bounds (bound.c) of loop-carried values move with them: a set of n bound
 * tiles for the values `types_of` (NULL when the session has no bounds). */
static interp_bnd **alloc_bset(interp_prog *p, const ir_value *types_of, int n)
{
    if (!p->bnd) return NULL;
    interp_bnd **set = ts_alloc(&p->mem, sizeof(void *) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) set[i] = ts_alloc(&p->mem, (size_t)p->s->vi[types_of[i]].numel * sizeof(interp_bnd));
    return set;
}

/* The bounds of n carried values: their tiles and the ops they came from. */
typedef struct bcarry { interp_bnd **t; int32_t *src; } bcarry;

static bcarry bcarry_new(interp_prog *p, int n)
{
    bcarry c = { NULL, NULL };
    if (!p->bnd) return c;
    c.t = ts_alloc(&p->mem, sizeof(void *) * (size_t)(n ? n : 1));
    c.src = ts_alloc(&p->mem, sizeof(int32_t) * (size_t)(n ? n : 1));
    return c;
}

/* c = the bounds of values src[i], copied into set[i] when set (NULL: exact). */
static void carry_bounds(interp_prog *p, bcarry c, interp_bnd **set, const ir_value *src, const ir_value *types_of, int n)
{
    if (!c.t) return;
    for (int i = 0; i < n; i++) {
        interp_bnd *b = p->bnd[src[i]];
        if (b && set) {
            memcpy(set[i], b, (size_t)p->s->vi[types_of[i]].numel * sizeof *b);
            b = set[i];
        }
        c.t[i] = b;
        c.src[i] = p->bsrc[src[i]];
    }
}

/* Values dst[i] take the carried bounds. */
static void bind_bounds(interp_prog *p, bcarry c, const ir_value *dst, int n)
{
    if (!c.t) return;
    for (int i = 0; i < n; i++) {
        p->bnd[dst[i]] = c.t[i];
        p->bsrc[dst[i]] = c.src[i];
    }
}

static int eval_for(interp_prog *p, const ir_op *op)
{
    interp_session *s = p->s;
    int32_t body = op->region[0];
    const ir_region *rg = &s->f->regions.v[body];
    int nc = op->nopnd - 3;
    const ival_info *viv = &s->vi[rg->args[0]];
    int64_t lb = read_int(p->vals[op->opnd[0]], &s->vi[op->opnd[0]]);
    int64_t ub = read_int(p->vals[op->opnd[1]], &s->vi[op->opnd[1]]);
    int64_t step = read_int(p->vals[op->opnd[2]], &s->vi[op->opnd[2]]);

    /* cur: the tiles the body reads, first the init operands themselves
     * (tiles are immutable); bufs: the two sets yields are copied into */
    void **bufs[2] = { alloc_set(p, rg->args + 1, nc), alloc_set(p, rg->args + 1, nc) };
    void **cur = ts_alloc(&p->mem, sizeof(void *) * (size_t)(nc ? nc : 1));
    for (int i = 0; i < nc; i++) cur[i] = p->vals[op->opnd[3 + i]];
    interp_bnd **bbufs[2] = { alloc_bset(p, rg->args + 1, nc), alloc_bset(p, rg->args + 1, nc) };
    bcarry bcur = bcarry_new(p, nc);
    carry_bounds(p, bcur, NULL, op->opnd + 3, NULL, nc);
    int nb = 0;
    void *ivbuf = ts_alloc(&p->mem, 8);

    if (lb < ub && step <= 0) {
        interp_fault f = { .count = 1, .buf = -1, .other_loc = -1 };
        interp_report(p, FK_LOOP, ACC_LOAD, "scf.for", viv->dt, viv->esize, s->f->values.v[rg->args[0]].type, &f);
        lb = ub;
    }
    tmark m = ts_mark(&p->mem);
    for (int64_t iv = lb; iv < ub;) {
        uint64_t ivb = (uint64_t)iv;
        memcpy(ivbuf, &ivb, viv->esize);
        p->vals[rg->args[0]] = ivbuf;
        for (int i = 0; i < nc; i++) p->vals[rg->args[1 + i]] = cur[i];
        if (bcur.t) p->bnd[rg->args[0]] = NULL;
        bind_bounds(p, bcur, rg->args + 1, nc);
        const ir_op *term = NULL;
        int rc = interp_exec_region(p, body, &term);
        if (rc != EXEC_OK) return rc;
        if (nc && (!term || term->opc != IR_YIELD || term->nopnd != nc)) die("scf.for: body must end in scf.yield");
        if ((uint64_t)ub - (uint64_t)iv <= (uint64_t)step) {
            /* last iteration: its memory is kept, so the results are the yielded tiles */
            for (int i = 0; i < nc; i++) cur[i] = p->vals[term->opnd[i]];
            carry_bounds(p, bcur, NULL, term->opnd, NULL, nc);
            break;
        }
        /* into the set cur does not point at: `yield b, a` reads cur while it is copied */
        void **next = bufs[nb];
        for (int i = 0; i < nc; i++) memcpy(next[i], p->vals[term->opnd[i]], tile_bytes(&s->vi[rg->args[1 + i]]));
        for (int i = 0; i < nc; i++) cur[i] = next[i];
        carry_bounds(p, bcur, bbufs[nb], term->opnd, rg->args + 1, nc);
        nb ^= 1;
        iv += step;
        ts_release(&p->mem, m);
        forget(p, body);
    }
    for (int i = 0; i < nc; i++) p->vals[op->res + i] = cur[i];
    for (int i = 0; i < nc && bcur.t; i++) {
        p->bnd[op->res + i] = bcur.t[i];
        p->bsrc[op->res + i] = bcur.src[i];
    }
    return EXEC_OK;
}

static int eval_if(interp_prog *p, const ir_op *op)
{
    bool cond = *(const uint8_t *)p->vals[op->opnd[0]] & 1;
    int32_t r = op->region[cond ? 0 : 1];
    if (r < 0 || op->nregions <= (cond ? 0 : 1)) {
        if (op->nres) die("scf.if with results needs both regions");
        return EXEC_OK;
    }
    const ir_op *term = NULL;
    int rc = interp_exec_region(p, r, &term);
    if (rc != EXEC_OK) return rc;
    if (op->nres && (!term || term->opc != IR_YIELD || term->nopnd != op->nres)) die("scf.if: region must yield its results");
    for (int i = 0; i < op->nres; i++) p->vals[op->res + i] = p->vals[term->opnd[i]];
    for (int i = 0; i < op->nres && p->bnd; i++) {
        p->bnd[op->res + i] = p->bnd[term->opnd[i]];
        p->bsrc[op->res + i] = p->bsrc[term->opnd[i]];
    }
    return EXEC_OK;
}

static int eval_while(interp_prog *p, const ir_op *op)
{
    interp_session *s = p->s;
    int32_t before = op->region[0], after = op->region[1];
    const ir_region *rb = &s->f->regions.v[before], *ra = &s->f->regions.v[after];
    int nb = rb->nargs, na = ra->nargs;
    if (op->nopnd != nb || op->nres != na) die("scf.while: argument counts");
    void **cur = alloc_set(p, rb->args, nb), **next = alloc_set(p, rb->args, nb), **fwd = alloc_set(p, ra->args, na);
    for (int i = 0; i < nb; i++) memcpy(cur[i], p->vals[op->opnd[i]], tile_bytes(&s->vi[rb->args[i]]));
    /* bounds: bcur/bnext/bfwd point into the sets bs[0], bs[1], bf */
    interp_bnd **bs[2] = { alloc_bset(p, rb->args, nb), alloc_bset(p, rb->args, nb) }, **bf = alloc_bset(p, ra->args, na);
    bcarry bcur = bcarry_new(p, nb), bfwd = bcarry_new(p, na);
    int bk = 0;
    carry_bounds(p, bcur, bs[bk], op->opnd, rb->args, nb);
    tmark m = ts_mark(&p->mem);
    for (;;) {
        for (int i = 0; i < nb; i++) p->vals[rb->args[i]] = cur[i];
        bind_bounds(p, bcur, rb->args, nb);
        const ir_op *term = NULL;
        int rc = interp_exec_region(p, before, &term);
        if (rc != EXEC_OK) return rc;
        if (!term || term->opc != IR_CONDITION || term->nopnd != na + 1) die("scf.while: before region must end in scf.condition");
        bool cond = *(const uint8_t *)p->vals[term->opnd[0]] & 1;
        for (int i = 0; i < na; i++) memcpy(fwd[i], p->vals[term->opnd[1 + i]], tile_bytes(&s->vi[ra->args[i]]));
        carry_bounds(p, bfwd, bf, term->opnd + 1, ra->args, na);
        if (!cond) break;
        ts_release(&p->mem, m);
        forget(p, before);
        for (int i = 0; i < na; i++) p->vals[ra->args[i]] = fwd[i];
        bind_bounds(p, bfwd, ra->args, na);
        rc = interp_exec_region(p, after, &term);
        if (rc != EXEC_OK) return rc;
        if (nb && (!term || term->opc != IR_YIELD || term->nopnd != nb)) die("scf.while: after region must end in scf.yield");
        for (int i = 0; i < nb; i++) memcpy(next[i], p->vals[term->opnd[i]], tile_bytes(&s->vi[rb->args[i]]));
        if (bcur.t) carry_bounds(p, bcur, bs[bk ^= 1], term->opnd, rb->args, nb);
        void **t = cur;
        cur = next;
        next = t;
        ts_release(&p->mem, m);
        forget(p, after);
    }
    for (int i = 0; i < na; i++) p->vals[op->res + i] = fwd[i];
    for (int i = 0; i < na && bfwd.t; i++) {
        p->bnd[op->res + i] = bfwd.t[i];
        p->bsrc[op->res + i] = bfwd.src[i];
    }
    return EXEC_OK;
}

int interp_eval_scf(interp_prog *p, const ir_op *op)
{
    switch (op->opc) {
    case IR_FOR: return eval_for(p, op);
    case IR_IF: return eval_if(p, op);
    case IR_WHILE: return eval_while(p, op);
    default: die("interp_eval_scf: %s", ir_ops[op->opc].name);
    }
}
