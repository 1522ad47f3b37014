/* eval_debug.c — tt.print and tt.assert (tl.device_print / print and
 * tl.device_assert / assert in a kernel).
 *
 * tt.print writes Triton's GPU format (lib/Conversion/TritonGPUToLLVM/
 * PrintOpToLLVM.cpp, printTensor and getFormatSubstr), one line per element:
 *   pid (<x>, <y>, <z>) idx (<i0>, <i1>, ...)<prefix>[(operand <k>) ]<value>
 * with each index padded to ceil(log10(dim)) digits, floats as "%f", 64-bit
 * integers as %lld/%llu, narrower ones as %d/%u (the operand's signedness),
 * pointers as 0x<hex>, and with hex=True "0x%0<bits/4>x" of the element's
 * bits. On the GPU the lines of one program come in thread order; here they
 * come in row-major order, operand by operand, and programs follow the
 * schedule, so a serial run prints the same text every time. Output goes to
 * options.output (stdout by default), one op's lines under one lock.
 *
 * tt.assert is a fault: a false element reports the program, the source
 * line, how many lanes failed and the first of them, and the message, then
 * stops the program (its remaining ops do not run), as CUDA's __assertfail
 * stops the kernel. */
#include "internal.h"

#include <inttypes.h>
#include <stdio.h>

/* ceil(log10(dim)): Triton's dimWidths (0 for dim 1). */
static int index_width(int64_t dim)
{
    int w = 0;
    for (int64_t p = 1; p < dim && w < 20; p *= 10) w++;
    return w;
}

static uint64_t raw_bits(const void *data, int esize, int64_t e)
{
    uint64_t x = 0;
    memcpy(&x, (const char *)data + e * esize, (size_t)esize);   /* little-endian hosts */
    return x;
}

static void print_elem(FILE *out, const ival_info *vi, const void *data, int64_t e, bool sgn, bool hex)
{
    int bits = vi->dt == TT_PTR ? 64 : tt_dtype_bits(vi->dt);
    uint64_t x = raw_bits(data, vi->esize, e);
    if (vi->dt == TT_BOOL) x &= 1;
    if (vi->dt == TT_PTR) {
        fprintf(out, "0x%" PRIx64, x);
    } else if (hex) {
        fprintf(out, "0x%0*" PRIx64, bits / 4, x);
    } else if (tt_dtype_is_float(vi->dt)) {
        fprintf(out, "%f", interp_get_f64(data, vi->dt, e, false));
    } else if (bits == 64) {
        if (sgn) fprintf(out, "%" PRId64, (int64_t)x);
        else fprintf(out, "%" PRIu64, x);
    } else {
        /* printf promotes to 32 bits: sign- or zero-extend */
        if (sgn && bits < 64 && (x >> (bits - 1) & 1)) x |= ~(uint64_t)0 << bits;
        if (sgn) fprintf(out, "%" PRId32, (int32_t)x);
        else fprintf(out, "%" PRIu32, (uint32_t)x);
    }
}

static void eval_print(interp_prog *p, const ir_op *op)
{
    interp_session *s = p->s;
    const char *prefix = ir_str_at(s->f, op->attr[0]);
    bool hex = op->attr[1] != 0;
    uint64_t sgn = (uint64_t)op->attr[2];
    FILE *out = s->pout;
    pthread_mutex_lock(&s->rep_lock);
    if (op->nopnd == 0)
        fprintf(out, "pid (%" PRId64 ", %" PRId64 ", %" PRId64 ")%s\n", p->pid[0], p->pid[1], p->pid[2], prefix);
    for (int k = 0; k < op->nopnd; k++) {
        const ival_info *vi = &s->vi[op->opnd[k]];
        const void *data = p->vals[op->opnd[k]];
        int width[IR_MAX_RANK];
        for (int d = 0; d < vi->rank; d++) width[d] = index_width(vi->shape[d]);
        int64_t idx[IR_MAX_RANK] = { 0 };
        for (int64_t e = 0; e < vi->numel; e++) {
            fprintf(out, "pid (%" PRId64 ", %" PRId64 ", %" PRId64 ") idx (", p->pid[0], p->pid[1], p->pid[2]);
            for (int d = 0; d < vi->rank; d++) fprintf(out, "%s%*" PRId64, d ? ", " : "", width[d], idx[d]);
            fprintf(out, ")%s", prefix);
            if (op->nopnd > 1) fprintf(out, "(operand %d) ", k);
            print_elem(out, vi, data, e, (sgn >> k) & 1, hex);
            fputc('\n', out);
            for (int d = vi->rank - 1; d >= 0; d--) {   /* next row-major index */
                if (++idx[d] < vi->shape[d]) break;
                idx[d] = 0;
            }
        }
    }
    fflush(out);
    pthread_mutex_unlock(&s->rep_lock);
}

/* Returns true when every element of the condition holds. */
static bool eval_assert(interp_prog *p, const ir_op *op)
{
    interp_session *s = p->s;
    const ival_info *vi = &s->vi[op->opnd[0]];
    const uint8_t *c = p->vals[op->opnd[0]];
    int64_t failed = 0, first = -1;
    for (int64_t e = 0; e < vi->numel; e++)
        if (!(c[e] & 1)) {
            if (first < 0) first = e;
            failed++;
        }
    if (!failed) return true;
    pthread_mutex_lock(&s->rep_lock);
    bool is_first, print;
    interp_site_count(p, FK_ASSERT, failed, &is_first, &print);
    if (is_first) s->st.faults++;
    s->st.fault_lanes += failed;
    p->faulted = true;
    if (print) {
        FILE *out = s->out;
        fprintf(out, "error: device_assert failed in program (%" PRId64 ", %" PRId64 ", %" PRId64 ")\n", p->pid[0],
                p->pid[1], p->pid[2]);
        interp_quote_loc(s->f, op->loc, out);
        const char *msg = ir_str_at(s->f, op->attr[0]);
        fprintf(out, "  assertion: %s\n", *msg ? msg : "(no message)");
        if (vi->rank) {
            char lb[96];
            interp_describe_lane(s->f->values.v[op->opnd[0]].type, first, lb, sizeof lb);
            fprintf(out, "  %" PRId64 " of %" PRId64 " lanes failed, the first is %s\n", failed, vi->numel, lb);
        }
        fprintf(out, "  the program stopped here\n");
        fflush(out);
    }
    pthread_mutex_unlock(&s->rep_lock);
    return false;
}

int interp_eval_debug(interp_prog *p, const ir_op *op)
{
    if (op->opc == IR_PRINT) {
        eval_print(p, op);
        return EXEC_OK;
    }
    return eval_assert(p, op) ? EXEC_OK : EXEC_RETURN;
}
