/* eval_combine.c — tt.reduce_region and tt.scan: reductions and inclusive
 * scans whose combiner is a region of scalar ops (TTIR's tt.reduce /
 * tt.scan; Triton 3.6 core.py reduce, associative_scan), and
 * tt.map_elementwise, a region run once per (pack of) element(s).
 *
 * Each operand is viewed as [outer, R, inner] with R the axis. Every output
 * position folds its R elements in index order (scan: from the end when
 * reverse), running the region once per element pair with the accumulated
 * values as its first n arguments and the new elements as the last n, as
 * the named-combiner fast path (eval_reduce.c) does, so tl.sum and
 * tl.reduce(x, 0, add) agree bit for bit. The tile memory of each run is
 * released, so a fold runs in a fixed footprint. */
#include "internal.h"

int interp_eval_combine(interp_prog *p, const ir_op *op)
{
    interp_session *s = p->s;
    int n = op->nopnd;
    bool scan = op->opc == IR_SCAN, rev = scan && op->attr[1];
    int axis = (int)op->attr[0];
    const ival_info *v0 = &s->vi[op->opnd[0]];
    int64_t outer = 1, R = v0->shape[axis], inner = 1;
    for (int d = 0; d < axis; d++) outer *= v0->shape[d];
    for (int d = axis + 1; d < v0->rank; d++) inner *= v0->shape[d];
    int32_t reg = op->region[0];
    const ir_region *rg = &s->f->regions.v[reg];

    const unsigned char **x = ts_alloc(&p->mem, sizeof *x * (size_t)n);
    unsigned char **out = ts_alloc(&p->mem, sizeof *out * (size_t)n);
    unsigned char **acc = ts_alloc(&p->mem, sizeof *acc * (size_t)n);
    int *esz = ts_alloc(&p->mem, sizeof *esz * (size_t)n);
    for (int k = 0; k < n; k++) {
        x[k] = interp_operand(p, op, k, v0->numel);
        out[k] = interp_result(p, op, k);
        esz[k] = s->vi[op->opnd[k]].esize;
        acc[k] = ts_alloc(&p->mem, (size_t)esz[k]);
    }
    for (int64_t o = 0; o < outer; o++) {
        for (int64_t j = 0; j < inner; j++) {
            for (int64_t step = 0; step < R; step++) {
                int64_t r = rev ? R - 1 - step : step;
                int64_t at = (o * R + r) * inner + j;
                if (step == 0) {
                    for (int k = 0; k < n; k++) memcpy(acc[k], x[k] + at * esz[k], (size_t)esz[k]);
                } else {
                    for (int k = 0; k < n; k++) {
                        p->vals[rg->args[k]] = acc[k];
                        p->vals[rg->args[n + k]] = (void *)(x[k] + at * esz[k]);
                    }
                    tmark m = ts_mark(&p->mem);
                    const ir_op *term = NULL;
                    int rc = interp_exec_region(p, reg, &term);
                    if (rc != EXEC_OK) return rc;
                    if (!term || term->nopnd != n) die("%s: the combine region returned no values", ir_ops[op->opc].name);
                    for (int k = 0; k < n; k++) memmove(acc[k], p->vals[term->opnd[k]], (size_t)esz[k]);
                    ts_release(&p->mem, m);
                }
                if (scan)
                    for (int k = 0; k < n; k++) memcpy(out[k] + at * esz[k], acc[k], (size_t)esz[k]);
            }
            if (!scan)
                for (int k = 0; k < n; k++) memcpy(out[k] + (o * inner + j) * esz[k], acc[k], (size_t)esz[k]);
        }
    }
    return EXEC_OK;
}

/* tt.map_elementwise: the region once per pack of consecutive elements
 * (row-major), its arguments pointing into the operands' tiles. */
int interp_eval_map(interp_prog *p, const ir_op *op)
{
    interp_session *s = p->s;
    int n = op->nopnd, m = op->nres;
    int64_t pack = op->attr[0], numel = s->vi[op->res].numel;
    int32_t reg = op->region[0];
    const ir_region *rg = &s->f->regions.v[reg];
    const unsigned char **x = ts_alloc(&p->mem, sizeof *x * (size_t)n);
    unsigned char **out = ts_alloc(&p->mem, sizeof *out * (size_t)m);
    for (int k = 0; k < n; k++) x[k] = interp_operand(p, op, k, numel);
    for (int k = 0; k < m; k++) out[k] = interp_result(p, op, k);
    for (int64_t e = 0; e < numel; e += pack) {
        for (int k = 0; k < n; k++)
            for (int64_t j = 0; j < pack; j++)
                p->vals[rg->args[k * pack + j]] = (void *)(x[k] + (e + j) * s->vi[op->opnd[k]].esize);
        tmark mk = ts_mark(&p->mem);
        const ir_op *term = NULL;
        int rc = interp_exec_region(p, reg, &term);
        if (rc != EXEC_OK) return rc;
        if (!term || term->nopnd != m * pack) die("tt.map_elementwise: the region returned no values");
        for (int k = 0; k < m; k++) {
            int es = s->vi[op->res + k].esize;
            for (int64_t j = 0; j < pack; j++) memmove(out[k] + (e + j) * es, p->vals[term->opnd[k * pack + j]], (size_t)es);
        }
        ts_release(&p->mem, mk);
    }
    return EXEC_OK;
}
