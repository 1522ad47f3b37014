/* eval_shape.c — shape ops and constants: arith.constant, tt.make_range,
 * tt.splat, tt.broadcast (numpy rules, same rank), tt.expand_dims and
 * tt.reshape (row-major reinterpretation: the tile is shared, not copied),
 * tt.trans (any permutation) and tt.bitcast. Any rank up to IR_MAX_RANK:
 * broadcast and trans merge dims into at most four before the copy loops. */
#include "internal.h"

#include <stdio.h>

/* out[i0,i1,i2,i3] = src[i0*st[0] + i1*st[1] + i2*st[2] + i3*st[3]] over a
 * 4-d shape (leading dims padded with 1). */
#define DEF_GATHER(T)                                                                             \
    static void gather_##T(T *restrict o, const T *restrict src, const int64_t sh[4], const int64_t st[4]) \
    {                                                                                             \
        for (int64_t i0 = 0; i0 < sh[0]; i0++)                                                    \
            for (int64_t i1 = 0; i1 < sh[1]; i1++)                                                \
                for (int64_t i2 = 0; i2 < sh[2]; i2++) {                                          \
                    const T *s = src + i0 * st[0] + i1 * st[1] + i2 * st[2];                      \
                    int64_t n = sh[3], s3 = st[3];                                                \
                    if (s3 == 1) {                                                                \
                        memcpy(o, s, (size_t)n * sizeof(T));                                      \
                    } else if (s3 == 0) {                                                         \
                        T v = s[0];                                                               \
                        for (int64_t i = 0; i < n; i++) o[i] = v;                                 \
                    } else {                                                                      \
                        for (int64_t i = 0; i < n; i++) o[i] = s[i * s3];                         \
                    }                                                                             \
                    o += n;                                                                       \
                }                                                                                 \
    }
DEF_GATHER(uint8_t)
DEF_GATHER(uint16_t)
DEF_GATHER(uint32_t)
DEF_GATHER(uint64_t)

static void gather(void *o, const void *src, int esize, const int64_t sh[4], const int64_t st[4])
{
    switch (esize) {
    case 1: gather_uint8_t(o, src, sh, st); break;
    case 2: gather_uint16_t(o, src, sh, st); break;
    case 4: gather_uint32_t(o, src, sh, st); break;
    case 8: gather_uint64_t(o, src, sh, st); break;
    default: die("gather: element size %d", esize);
    }
}

/* out = src read over shape[0..rank) with strides st (elements), row-major.
 * Dims of extent 1 are dropped and a dim that continues the walk of the one
 * before it (st[d-1] == st[d] * shape[d], broadcast dims included) is merged
 * into it; the last four dims left go to the 4-d loops and any dims before
 * them (tiles of rank > 4 only) are walked here. */
static void gather_nd(void *out, const void *src, int esize, int rank, const int64_t *shape, const int64_t *st)
{
    int64_t sh[IR_MAX_RANK], ss[IR_MAX_RANK];
    int n = 0;
    for (int d = 0; d < rank; d++) {
        if (shape[d] == 1) continue;
        if (n && ss[n - 1] == st[d] * shape[d]) {
            sh[n - 1] *= shape[d];
            ss[n - 1] = st[d];
        } else {
            sh[n] = shape[d];
            ss[n++] = st[d];
        }
    }
    int outer = n > 4 ? n - 4 : 0, pad = n > 4 ? 0 : 4 - n;
    int64_t ish[4] = { 1, 1, 1, 1 }, ist[4] = { 0, 0, 0, 0 }, inner = 1;
    for (int d = outer; d < n; d++) {
        ish[pad + d - outer] = sh[d];
        ist[pad + d - outer] = ss[d];
        inner *= sh[d];
    }
    int64_t idx[IR_MAX_RANK] = { 0 }, off = 0;
    for (unsigned char *o = out;; o += inner * esize) {
        gather(o, (const unsigned char *)src + off * esize, esize, ish, ist);
        int d = outer - 1;
        for (; d >= 0; d--) {                       /* next index of the outer dims */
            off += ss[d];
            if (++idx[d] < sh[d]) break;
            off -= ss[d] * sh[d];
            idx[d] = 0;
        }
        if (d < 0) break;
    }
}

/* Row-major strides (in elements) of a shape. */
static void strides_of(const ival_info *vi, int64_t st[IR_MAX_RANK])
{
    int64_t s = 1;
    for (int d = vi->rank - 1; d >= 0; d--) {
        st[d] = s;
        s *= vi->shape[d];
    }
}

static void eval_broadcast(interp_prog *p, const ir_op *op)
{
    const ival_info *vr = &p->s->vi[op->res], *vs = &p->s->vi[op->opnd[0]];
    const void *src = p->vals[op->opnd[0]];
    void *out = interp_result(p, op, 0);
    if (vs->numel == 1) {
        interp_splat(out, src, vr->esize, vr->numel);
        return;
    }
    if (vs->rank != vr->rank) die("tt.broadcast: rank %d to %d", vs->rank, vr->rank);
    int64_t st[IR_MAX_RANK];
    strides_of(vs, st);
    for (int d = 0; d < vr->rank; d++)
        if (vs->shape[d] == 1 && vr->shape[d] != 1) st[d] = 0;
    gather_nd(out, src, vr->esize, vr->rank, vr->shape, st);
}

static void eval_trans(interp_prog *p, const ir_op *op)
{
    const ival_info *vr = &p->s->vi[op->res], *vs = &p->s->vi[op->opnd[0]];
    const void *src = p->vals[op->opnd[0]];
    void *out = interp_result(p, op, 0);
    int64_t sst[IR_MAX_RANK], st[IR_MAX_RANK];
    strides_of(vs, sst);
    uint64_t seen = 0;
    int64_t order[IR_ATTR_ARRAY_MAX];
    if (ir_attr_array_get(p->s->f, op->attr[0], order) != vr->rank) die("tt.trans: order has the wrong length");
    for (int d = 0; d < vr->rank; d++) {
        int64_t od = order[d];
        if (od < 0 || od >= vs->rank || (seen >> od) & 1) die("tt.trans: order is not a permutation");
        seen |= (uint64_t)1 << od;
        st[d] = sst[od];
    }
    gather_nd(out, src, vr->esize, vr->rank, vr->shape, st);
}

static int64_t cols_of(const ival_info *vi) { return vi->rank ? vi->shape[vi->rank - 1] : 1; }

/* The CT_* row facts of a splat, broadcast, expand_dims or reshape result
 * (internal.h): rows that are copies of the operand's rows, or pieces of
 * them, keep its facts; a row made of one repeated element is uniform. */
static uint8_t shape_facts(interp_prog *p, const ir_op *op)
{
    const ival_info *vr = &p->s->vi[op->res], *vs = &p->s->vi[op->opnd[0]];
    uint8_t single = interp_ct_single(vr);
    if (op->opc == IR_SPLAT || vs->numel == 1) return CT_UNIF | single;
    int64_t rc = cols_of(vr), sc = cols_of(vs);
    if (op->opc == IR_BROADCAST && sc == 1) return CT_UNIF | single;
    if (op->opc == IR_BROADCAST ? rc != sc : sc % rc != 0) return single;
    return (uint8_t)((p->contig[op->opnd[0]] & (CT_RUN | CT_UNIF)) | single);
}

void interp_eval_shape(interp_prog *p, const ir_op *op)
{
    interp_session *s = p->s;
    switch (op->opc) {
    case IR_SPLAT: {
        const ival_info *vr = &s->vi[op->res];
        uint8_t *o = interp_result(p, op, 0);
        if (interp_heads_only(p, op)) {         /* row heads: its readers need no more */
            int64_t cols = cols_of(vr);
            for (int64_t r = 0; r < vr->numel; r += cols) memcpy(o + r * vr->esize, p->vals[op->opnd[0]], vr->esize);
            p->contig[op->res] = shape_facts(p, op) | CT_HEADS;
            break;
        }
        interp_splat(o, p->vals[op->opnd[0]], vr->esize, vr->numel);
        p->contig[op->res] = shape_facts(p, op);
        break;
    }
    case IR_BROADCAST:
        eval_broadcast(p, op);
        p->contig[op->res] = shape_facts(p, op);
        break;
    case IR_TRANS:
        eval_trans(p, op);
        break;
    case IR_EXPAND_DIMS:
    case IR_RESHAPE:
    case IR_BITCAST: {
        const ival_info *vr = &s->vi[op->res], *vs = &s->vi[op->opnd[0]];
        if (vr->numel * vr->esize != vs->numel * vs->esize)
            die("interp: %s changes the size of its tile", ir_ops[op->opc].name);
        if (op->opc == IR_BITCAST && vr->dt == TT_BOOL) {
            /* i8 -> i1 reinterpretation keeps only the low bit */
            const uint8_t *a = p->vals[op->opnd[0]];
            uint8_t *o = interp_result(p, op, 0);
            for (int64_t i = 0; i < vr->numel; i++) o[i] = a[i] & 1;
            break;
        }
        p->vals[op->res] = p->vals[op->opnd[0]];      /* same bytes: share the tile */
        if (op->opc != IR_BITCAST) p->contig[op->res] = shape_facts(p, op);
        break;
    }
    case IR_JOIN: case IR_SPLIT: case IR_CAT: case IR_GATHER: case IR_HISTOGRAM:
        interp_eval_move(p, op);
        break;
    default:
        die("interp_eval_shape: %s", ir_ops[op->opc].name);
    }
}
