/* eval_move.c — ops that move elements between tiles (TTIR tt.join,
 * tt.split, tt.cat, tt.gather, tt.histogram; semantics of Triton 3.6's
 * language/semantic.py join/split/cat/gather/histogram). Tiles are dense
 * row-major, so join and split interleave and de-interleave elements, cat
 * appends. gather checks its indices: an index outside the source's axis
 * is reported like a fault (the GPU reads another element: the index's low
 * bits, as here). histogram counts value v in bin v & (num_bins - 1), as
 * the GPU lowering's ballot of the low log2(num_bins) bits does
 * (lib/Conversion/TritonGPUToLLVM/HistogramOpToLLVM.cpp). */
#include "internal.h"

#include <inttypes.h>
#include <stdio.h>

static int64_t get_index(const void *a, int esize, int64_t i)
{
    switch (esize) {
    case 1: return ((const int8_t *)a)[i];
    case 2: return ((const int16_t *)a)[i];
    case 4: return ((const int32_t *)a)[i];
    default: return ((const int64_t *)a)[i];
    }
}

/* join: out[..., k] = (k ? b : a)[...]; split: the inverse. */
static void eval_join_split(interp_prog *p, const ir_op *op)
{
    const ival_info *vs = &p->s->vi[op->opnd[0]];
    size_t es = vs->esize;
    if (op->opc == IR_JOIN) {
        const uint8_t *a = p->vals[op->opnd[0]], *b = p->vals[op->opnd[1]];
        uint8_t *o = interp_result(p, op, 0);
        for (int64_t i = 0; i < vs->numel; i++) {
            memcpy(o + 2 * i * es, a + i * es, es);
            memcpy(o + (2 * i + 1) * es, b + i * es, es);
        }
        return;
    }
    const uint8_t *x = p->vals[op->opnd[0]];
    uint8_t *lo = interp_result(p, op, 0), *hi = interp_result(p, op, 1);
    for (int64_t i = 0; i < vs->numel / 2; i++) {
        memcpy(lo + i * es, x + 2 * i * es, es);
        memcpy(hi + i * es, x + (2 * i + 1) * es, es);
    }
}

static void report_gather(interp_prog *p, const ir_op *op, int64_t count, int64_t lane, int64_t idx, int64_t n)
{
    interp_session *s = p->s;
    pthread_mutex_lock(&s->rep_lock);
    bool first, print;
    interp_site_count(p, FK_OOB, count, &first, &print);
    if (first) s->st.faults++;
    s->st.fault_lanes += count;
    p->faulted = true;
    if (print) {
        FILE *out = s->out;
        fprintf(out, "error: gather index out of range in program (%" PRId64 ", %" PRId64 ", %" PRId64 ")\n",
                p->pid[0], p->pid[1], p->pid[2]);
        interp_quote_loc(s->f, op->loc, out);
        char lb[96];
        interp_describe_lane(ir_value_type(s->f, op->res), lane, lb, sizeof lb);
        fprintf(out, "  %s: index %" PRId64 " along axis %lld, which has %" PRId64 " elements", lb, idx,
                (long long)op->attr[0], n);
        if (count > 1) fprintf(out, "; %" PRId64 " lanes of this op are out of range", count);
        fprintf(out, "\n  the GPU reads element %" PRId64 " (the index's low bits) instead\n", idx & (n - 1));
        fflush(out);
    }
    pthread_mutex_unlock(&s->rep_lock);
}

/* out[i0.., j, ..] = src[i0.., idx[i0.., j, ..], ..] along axis. */
static void eval_gather(interp_prog *p, const ir_op *op)
{
    const ival_info *vs = &p->s->vi[op->opnd[0]], *vx = &p->s->vi[op->opnd[1]], *vr = &p->s->vi[op->res];
    int axis = (int)op->attr[0];
    int64_t inner = 1, n = vs->shape[axis], m = vx->shape[axis];
    for (int d = axis + 1; d < vs->rank; d++) inner *= vs->shape[d];
    const uint8_t *src = p->vals[op->opnd[0]];
    const void *idx = p->vals[op->opnd[1]];
    uint8_t *o = interp_result(p, op, 0);
    size_t es = vr->esize;
    int64_t bad = 0, bad_lane = 0, bad_idx = 0;
    for (int64_t i = 0; i < vr->numel; i++) {
        int64_t in = i % inner, outer = i / inner / m;
        int64_t k = get_index(idx, vx->esize, i);
        if (k < 0 || k >= n) {
            if (!bad++) bad_lane = i, bad_idx = k;
            k &= n - 1;
        }
        memcpy(o + (size_t)i * es, src + (size_t)((outer * n + k) * inner + in) * es, es);
    }
    if (bad) report_gather(p, op, bad, bad_lane, bad_idx, n);
}

static void eval_histogram(interp_prog *p, const ir_op *op)
{
    const ival_info *vs = &p->s->vi[op->opnd[0]], *vr = &p->s->vi[op->res];
    const void *x = p->vals[op->opnd[0]];
    const uint8_t *mask = op->nopnd > 1 ? p->vals[op->opnd[1]] : NULL;
    int32_t *o = interp_result(p, op, 0);
    memset(o, 0, (size_t)vr->numel * sizeof *o);
    for (int64_t i = 0; i < vs->numel; i++)
        if (!mask || mask[i]) o[get_index(x, vs->esize, i) & (vr->numel - 1)]++;
}

void interp_eval_move(interp_prog *p, const ir_op *op)
{
    switch (op->opc) {
    case IR_JOIN:
    case IR_SPLIT:
        eval_join_split(p, op);
        break;
    case IR_CAT: {
        const ival_info *vs = &p->s->vi[op->opnd[0]];
        size_t n = (size_t)vs->numel * vs->esize;
        uint8_t *o = interp_result(p, op, 0);
        memcpy(o, p->vals[op->opnd[0]], n);
        memcpy(o + n, p->vals[op->opnd[1]], n);
        break;
    }
    case IR_GATHER:
        eval_gather(p, op);
        break;
    case IR_HISTOGRAM:
        eval_histogram(p, op);
        break;
    default:
        die("interp_eval_move: %s", ir_ops[op->opc].name);
    }
}
