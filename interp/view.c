/* view.c — reads and writes outside a tensor's view (issue: triton#10336).
 *
 * A tensor argument may be a view (a slice, a transpose, a strided view) of a
 * larger allocation; the GPU bounds nothing but the allocation, so a
 * masked-in lane that leaves the view but stays in the storage reads another
 * row's data or writes over it silently. The launch carries each view's
 * shape and strides (launch_arg.view, set by the C API); a buffer whose
 * views do not cover its whole storage is checked: each masked-in lane must
 * address an element of one of the views passed for that storage. Pointers
 * are plain integers, so the check cannot know which argument a pointer was
 * derived from: a lane inside any of the storage's views is accepted.
 * Reported as a warning naming the view(s); the access is performed. */
#include "internal.h"

#include <inttypes.h>
#include <stdio.h>

/* Whether storage element e is an element of the view of launch argument a:
 * e - offset decomposed along the view's strides, largest first (exact for
 * non-overlapping views with positive strides: slices, step slices,
 * transposes); other views are bounded by their span only. */
static bool in_view(const launch_arg *a, int64_t e)
{
    int64_t rem = e - a->offset;
    int rank = a->view_rank;
    int order[TT_MAX_RANK];
    for (int d = 0; d < rank; d++) order[d] = d;
    for (int i = 0; i < rank; i++)
        for (int j = i + 1; j < rank; j++)
            if (a->view_strides[order[j]] > a->view_strides[order[i]]) {
                int t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
    bool plain = true;
    for (int d = 0; d < rank; d++) plain &= a->view_strides[d] > 0;
    if (!plain) {                                 /* span only */
        int64_t lo = 0, hi = 0;
        for (int d = 0; d < rank; d++) {
            int64_t ext = (a->view_shape[d] - 1) * a->view_strides[d];
            if (a->view_shape[d] <= 0) return false;
            if (ext < 0) lo += ext;
            else hi += ext;
        }
        return rem >= lo && rem <= hi;
    }
    if (rem < 0) return false;
    for (int i = 0; i < rank; i++) {
        int d = order[i];
        int64_t q = rem / a->view_strides[d];
        if (q >= a->view_shape[d]) return false;
        rem -= q * a->view_strides[d];
    }
    return rem == 0;
}

/* How many elements a view covers when it has no holes (else -1). */
static int64_t dense_count(const launch_arg *a)
{
    int64_t n = 1;
    for (int d = 0; d < a->view_rank; d++) n *= a->view_shape[d];
    return n;
}

void interp_views_plan(interp_session *s)
{
    const launch *l = s->l;
    s->views_any = false;
    for (int bi = 0; bi < s->nbufs; bi++) {
        interp_buf *b = &s->bufs[bi];
        int nv = 0;
        bool covered = false;
        for (int a = 0; a < l->nargs + l->nextra; a++) {
            const launch_arg *la = &l->args[a];
            if (la->kind != ARG_TENSOR || s->arg_buf[a] != bi) continue;
            if (!la->view) { covered = true; continue; }          /* the whole storage */
            nv++;
            /* a view whose elements are the whole storage covers it */
            if (la->offset == 0 && dense_count(la) == b->numel && in_view(la, b->numel - 1)) covered = true;
        }
        b->view_check = nv > 0 && !covered;
        s->views_any |= b->view_check;
    }
}

static void describe_view(const launch_arg *a, char *buf, size_t n)
{
    size_t len = (size_t)snprintf(buf, n, "%s (%s[", a->name, tt_dtype_name(a->tensor->dtype));
    for (int d = 0; d < a->view_rank && len < n; d++)
        len += (size_t)snprintf(buf + len, n - len, "%s%" PRId64, d ? "," : "", a->view_shape[d]);
    for (int d = 0; d < a->view_rank && len < n; d++)
        len += (size_t)snprintf(buf + len, n - len, "%s%" PRId64, d ? ", " : "] view, strides (", a->view_strides[d]);
    if (len < n)
        snprintf(buf + len, n - len, "%s, at element %" PRId64 " of its storage)", a->view_rank ? ")" : "]",
                 a->offset);
}

void interp_view_check(interp_prog *p, const ir_op *op)
{
    interp_session *s = p->s;
    ir_value pv = op->opnd[0];
    int64_t n = s->vi[pv].numel;
    const uint64_t *ptr = p->vals[pv];
    int mk = op->opc == IR_LOAD ? 1 : op->opc == IR_STORE || op->opc == IR_ATOMIC_RMW ? 2 : -1;
    const uint8_t *mask = mk > 0 && op->nopnd > mk ? p->vals[op->opnd[mk]] : NULL;
    int64_t mstep = mask && s->vi[op->opnd[mk]].numel == n ? 1 : 0;
    if (!ptr) return;
    int64_t count = 0, first = -1, felem = 0;
    int fbuf = -1, cache = -1;
    for (int64_t i = 0; i < n; i++) {
        if (mask && !mask[i * mstep]) continue;
        uint64_t a = ptr[i];
        int bi = cache;
        if (bi < 0 || a < s->bufs[bi].base || a >= s->bufs[bi].end) bi = cache = interp_find_buf(s, a);
        if (bi < 0 || !s->bufs[bi].view_check) continue;
        const interp_buf *b = &s->bufs[bi];
        int64_t e = (int64_t)((a - b->base) >> b->eshift);
        bool ok = false;
        for (int k = 0; k < s->l->nargs + s->l->nextra && !ok; k++)
            if (s->arg_buf[k] == bi && s->l->args[k].view) ok = in_view(&s->l->args[k], e);
        if (ok) continue;
        if (!count++) {
            first = i;
            felem = e;
            fbuf = bi;
        }
    }
    if (!count) return;
    pthread_mutex_lock(&s->rep_lock);
    bool firstrep, print;
    interp_site_count(p, FK_VIEW, count, &firstrep, &print);
    s->st.view_lanes += count;
    if (print) {
        FILE *out = s->out;
        const interp_buf *b = &s->bufs[fbuf];
        const char *what = op->opc == IR_LOAD ? "load" : op->opc == IR_STORE ? "store" : "atomic";
        fprintf(out, "warning: %s outside the tensor's view in program (%" PRId64 ", %" PRId64 ", %" PRId64 ")\n",
                what, p->pid[0], p->pid[1], p->pid[2]);
        interp_quote_loc(s->f, op->loc, out);
        char lb[96], vb[256];
        interp_describe_lane(ir_value_type(s->f, pv), first, lb, sizeof lb);
        fprintf(out, "  %s %s element %" PRId64 " of the storage of %s (%" PRId64 " elements), which is in no view "
                "the launch passes for it:", lb, op->opc == IR_LOAD ? "reads" : "writes", felem, b->name, b->numel);
        const char *sep = " ";
        for (int k = 0; k < s->l->nargs + s->l->nextra; k++) {
            if (s->arg_buf[k] != fbuf || !s->l->args[k].view) continue;
            describe_view(&s->l->args[k], vb, sizeof vb);
            fprintf(out, "%s%s", sep, vb);
            sep = ", ";
        }
        if (count > 1) fprintf(out, "; %" PRId64 " lanes of this op did so in this program", count);
        fputc('\n', out);
        fprintf(out, "  a GPU reports nothing: the lane %s another part of the allocation\n",
                op->opc == IR_LOAD ? "reads" : "overwrites");
        fflush(out);
    }
    pthread_mutex_unlock(&s->rep_lock);
}
