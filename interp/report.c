/* report.c — fault, race and uninitialized-read reports.
 *
 * One report per (op, kind): the first program that hits it gets a full
 * report (program id, source line with a caret, inline chain, the lane, the
 * buffer, the element index, the buffer's extent, how many lanes of the op
 * faulted in that program); later programs only add to the site's counts,
 * which interp_report_summary prints at the end of a launch. At most
 * options.max_reports reports are printed; the rest are counted as
 * suppressed. Everything here runs under rep_lock, so parallel programs may
 * report at the same time. */
#include "internal.h"

#include <inttypes.h>
#include <stdio.h>

static void describe_tensor(const interp_buf *b, char *buf, size_t n)
{
    interp_describe_tensor(b->t, b->dt, buf, n);
}

void interp_describe_tensor(const tt_tensor *t, tt_dtype dt, char *buf, size_t n)
{
    size_t len = (size_t)snprintf(buf, n, "%s[", tt_dtype_name(dt));
    for (int d = 0; d < t->rank && len < n; d++)
        len += (size_t)snprintf(buf + len, n - len, "%s%" PRId64, d ? "," : "", t->shape[d]);
    if (len < n) snprintf(buf + len, n - len, "]");
}

/* "x[4113]" or "x[3, 17]" for a (possibly out-of-range) flat index. */
static void describe_elem(const interp_buf *b, int64_t e, char *buf, size_t n)
{
    interp_describe_elem(b->t, b->name, e, buf, n);
}

void interp_describe_elem(const tt_tensor *t, const char *name, int64_t e, char *buf, size_t n)
{
    size_t len = (size_t)snprintf(buf, n, "%s", name);
    if (len >= n) return;
    int64_t flat_shape[1] = { 0 };
    if (t->rank <= 1) tt_index_str(flat_shape, 1, e, buf + len, n - len);
    else tt_index_str(t->shape, t->rank, e, buf + len, n - len);
}

/* "lane 113 (of 1024)" or "lane [3, 17] (of 64x64)". */
void interp_describe_lane(ir_type tile, int64_t lane, char *buf, size_t n)
{
    const ir_type_info *ti = ir_type_get(tile);
    if (ti->rank <= 1) {
        snprintf(buf, n, "lane %" PRId64 " (of %" PRId64 ")", lane, ti->rank ? ti->shape[0] : 1);
        return;
    }
    char ib[TT_INDEX_STR_LEN];
    tt_index_str(ti->shape, ti->rank, lane, ib, sizeof ib);   /* IR_MAX_RANK == TT_MAX_RANK */
    size_t len = (size_t)snprintf(buf, n, "lane %s", ib);
    for (int d = 0; d < ti->rank && len < n; d++)
        len += (size_t)snprintf(buf + len, n - len, "%s%" PRId64, d ? "x" : " (of ", ti->shape[d]);
    if (len < n) snprintf(buf + len, n - len, ")");
}

static const char *verb(int acc, int kind)
{
    (void)kind;
    switch (acc) {
    case ACC_LOAD: return "reads";
    case ACC_STORE: return "writes";
    default: return "atomically updates";
    }
}

/* Where a lane's address is, in words. */
/* The buffer nearest to an address in no buffer (-1 when there are none)
 * and the distance in bytes to it (*dist). */
static int nearest_buf(const interp_session *s, uint64_t addr, uint64_t *dist)
{
    int best = -1;
    uint64_t bestd = UINT64_MAX;
    for (int i = 0; i < s->nbufs; i++) {
        const interp_buf *b = &s->bufs[i];
        uint64_t d = addr < b->base ? b->base - addr : addr - b->end + 1;
        if (d < bestd) {
            bestd = d;
            best = i;
        }
    }
    *dist = bestd;
    return best;
}

/* An out-of-bounds address counts as an element of the nearest buffer (before
 * its start or past its end) when it is within 2^30 bytes and aligned. */
static bool oob_elem(const interp_buf *b, uint64_t addr, uint64_t dist, int64_t *e)
{
    int64_t off = (int64_t)(addr - b->base);     /* two's complement difference */
    if (dist > (1ull << 30) || off % b->esize) return false;
    *e = off / b->esize;
    return true;
}

static void describe_addr(const interp_session *s, int kind, int acc, int esize, tt_dtype adt,
                          const interp_fault *f, FILE *out)
{
    char tb[96], eb[128];
    if (kind == FK_OOB) {
        uint64_t bestd;
        int best = nearest_buf(s, f->addr, &bestd);
        if (best < 0) {
            fprintf(out, " %s address 0x%" PRIx64 ", but the launch has no buffers", verb(acc, kind), f->addr);
            return;
        }
        const interp_buf *b = &s->bufs[best];
        describe_tensor(b, tb, sizeof tb);
        int64_t e;
        if (oob_elem(b, f->addr, bestd, &e)) {
            describe_elem(b, e, eb, sizeof eb);
            if (e < 0)
                fprintf(out, " %s %s, %" PRId64 " element%s before the start of %s (%s)", verb(acc, kind), eb,
                        -e, e == -1 ? "" : "s", b->name, tb);
            else
                fprintf(out, " %s %s, but %s has %" PRId64 " elements (%s)", verb(acc, kind), eb, b->name,
                        b->numel, tb);
        } else if (f->addr < b->base) {
            fprintf(out, " %s address 0x%" PRIx64 ", which is in no buffer (%" PRIu64 " bytes before the start of %s, %s)",
                    verb(acc, kind), f->addr, bestd, b->name, tb);
        } else {
            fprintf(out, " %s address 0x%" PRIx64 ", which is in no buffer (%" PRIu64 " bytes past the end of %s, %s)",
                    verb(acc, kind), f->addr, bestd - 1, b->name, tb);
        }
        return;
    }
    const interp_buf *b = &s->bufs[f->buf];
    describe_tensor(b, tb, sizeof tb);
    int64_t e = (int64_t)((f->addr - b->base) >> b->eshift);
    describe_elem(b, e, eb, sizeof eb);
    switch (kind) {
    case FK_MISALIGNED:
        fprintf(out, " %s address 0x%" PRIx64 " inside %s (%s), %d bytes into %s: not aligned to %d bytes",
                verb(acc, kind), f->addr, b->name, tb, (int)((f->addr - b->base) & (uint64_t)(b->esize - 1)), eb,
                esize);
        break;
    case FK_TYPE:
        fprintf(out, " %s %s as %s (%d bytes), but %s holds %s (%d-byte elements)", verb(acc, kind), eb,
                tt_dtype_name(adt), esize, b->name, tb, b->esize);
        break;
    case FK_UNINIT:
        fprintf(out, " %s %s, which was created with `empty` and has not been written (%s)", verb(acc, kind), eb, tb);
        break;
    default: {
        int64_t pid[3];
        const char *what = kind == FK_RACE_WR ? "read" : "wrote";
        if (f->other < 0) {                /* a read by several programs, this one among them */
            fprintf(out, " %s %s, which another program also read in this launch", verb(acc, kind), eb);
            break;
        }
        interp_pid_of(s->grid, f->other, pid);
        fprintf(out, " %s %s, which program (%" PRId64 ", %" PRId64 ", %" PRId64 ") %s in this launch",
                verb(acc, kind), eb, pid[0], pid[1], pid[2], kind == FK_RACE_WW ? "also wrote" : what);
        if (f->other_loc >= 0 && f->other_loc < s->f->locs.n) {
            const ir_loc *lc = &s->f->locs.v[f->other_loc];
            fprintf(out, " (at %s:%d:%d)", diag_file_name(lc->file), lc->line, lc->col);
        }
        break;
    }
    }
}

static void quote_loc(const interp_session *s, int32_t loc, FILE *out)
{
    interp_quote_loc(s->f, loc, out);
}

void interp_quote_loc(const ir_func *f, int32_t loc, FILE *out)
{
    if (loc < 0 || loc >= f->locs.n) {
        fprintf(out, "  (no source location)\n");
        return;
    }
    const ir_loc *lc = &f->locs.v[loc];
    const char *text = diag_source_line(lc->file, lc->line);
    while (*text == ' ' || *text == '\t') text++;
    fprintf(out, "  %s:%d:%d: %s\n", diag_file_name(lc->file), lc->line, lc->col, text);
    diag_quote(out, (src_pos){ lc->file, lc->line, lc->col });
    for (int32_t c = lc->caller, depth = 0; c >= 0 && c < f->locs.n && depth < 64; depth++) {
        const ir_loc *cl = &f->locs.v[c];
        fprintf(out, "  in %s, inlined at %s:%d:%d\n", lc->func ? lc->func : "?", diag_file_name(cl->file), cl->line,
                cl->col);
        lc = cl;
        c = cl->caller;
    }
}

static const char *title(int kind)
{
    switch (kind) {
    case FK_OOB: return "out-of-bounds";
    case FK_MISALIGNED: return "misaligned";
    case FK_TYPE: return "type-mismatched";
    case FK_RACE_WW: return "write-write race:";
    case FK_RACE_RW: return "read-after-write race:";
    case FK_RACE_WR: return "write-after-read race:";
    case FK_UNINIT: return "uninitialized";
    default: return "";
    }
}

interp_site *interp_site_count(interp_prog *p, int kind, int64_t lanes, bool *first, bool *print)
{
    interp_session *s = p->s;
    interp_site *site = &s->sites[(s->opbase[p->region] + p->opi) * FK_COUNT + kind];
    *first = !site->seen;
    *print = false;
    if (*first) {
        site->seen = true;
        site->first_prog = p->lin;
        site->last_prog = -1;
        site->buf = -1;
        site->other = -1;
        int max = s->o.max_reports > 0 ? s->o.max_reports : 20;
        if (s->printed >= max) {
            s->suppressed++;
        } else {
            s->printed++;
            site->printed = true;
            *print = true;
        }
    }
    if (site->last_prog != p->lin) {
        site->programs++;
        site->last_prog = p->lin;
    }
    site->lanes += lanes;
    return site;
}

void interp_report(interp_prog *p, int kind, int acc, const char *opname, tt_dtype adt, int esize,
                   ir_type tile_type, const interp_fault *f)
{
    interp_session *s = p->s;
    const ir_op *op = &s->f->regions.v[p->region].ops[p->opi];
    pthread_mutex_lock(&s->rep_lock);
    bool first, print;
    interp_site *site = interp_site_count(p, kind, f->count, &first, &print);
    if (first) {
        uint64_t dist;
        site->buf = kind == FK_OOB ? nearest_buf(s, f->addr, &dist) : f->buf;
        site->addr = f->addr;
        site->other = FK_IS_RACE(kind) ? f->other : -1;
    }
    if (first && FK_IS_FAULT(kind)) s->st.faults++;
    if (FK_IS_FAULT(kind)) {
        s->st.fault_lanes += f->count;
        p->faulted = true;
    } else if (FK_IS_RACE(kind)) {
        s->st.races += f->count;
        p->raced = true;
    } else {
        s->st.uninit_reads += f->count;
    }
    if (first) {
        if (print) {
            FILE *out = s->out;
            const char *sev = FK_IS_FAULT(kind) ? "error" : "warning";
            if (kind == FK_LOOP) {
                fprintf(out, "%s: scf.for with a step of 0 or less in program (%" PRId64 ", %" PRId64 ", %" PRId64 ")\n",
                        sev, p->pid[0], p->pid[1], p->pid[2]);
                quote_loc(s, op->loc, out);
                fprintf(out, "  the loop would never end; it was skipped\n");
            } else {
                fprintf(out, "%s: %s %s%s in program (%" PRId64 ", %" PRId64 ", %" PRId64 ")\n", sev, title(kind), opname,
                        kind == FK_UNINIT ? " of memory" : "", p->pid[0], p->pid[1], p->pid[2]);
                quote_loc(s, op->loc, out);
                char lb[96];
                interp_describe_lane(tile_type, f->lane, lb, sizeof lb);
                fprintf(out, "  %s", lb);
                describe_addr(s, kind, acc, esize, adt, f, out);
                int64_t lanes = ir_type_numel(tile_type);
                if (f->count > 1)
                    fprintf(out, "; %" PRId64 " lanes of this op %s in this program", f->count,
                            FK_IS_FAULT(kind) ? "faulted" : "did so");
                else if (lanes > 1)
                    fprintf(out, "; 1 lane of this op %s in this program", FK_IS_FAULT(kind) ? "faulted" : "did so");
                fputc('\n', out);
                if (FK_IS_FAULT(kind)) fprintf(out, "  the faulting lanes were not performed%s\n",
                                               acc == ACC_LOAD ? " (they read `other`, or 0)" : "");
                else if (FK_IS_RACE(kind))
                    fprintf(out, "  programs of one launch run in no fixed order, so the result may depend on it\n");
            }
            fflush(out);
        }
    }
    pthread_mutex_unlock(&s->rep_lock);
}

void interp_report_summary(interp_session *s)
{
    pthread_mutex_lock(&s->rep_lock);
    FILE *out = s->out;
    bool any = false;
    for (int gop = 0; gop < s->nops_total; gop++) {
        for (int k = 0; k < FK_COUNT; k++) {
            interp_site *site = &s->sites[gop * FK_COUNT + k];
            if (!site->seen) continue;
            any = true;
            if (!site->printed || site->programs <= 1) continue;
            const ir_op *op = interp_global_op(s, gop);     /* for its location */
            if (op->loc >= 0 && op->loc < s->f->locs.n) {
                const ir_loc *lc = &s->f->locs.v[op->loc];
                fprintf(out, "%s:%d:%d: note: ", diag_file_name(lc->file), lc->line, lc->col);
            } else {
                fprintf(out, "note: ");
            }
            fprintf(out, "the %s report above happened in %" PRId64 " programs (%" PRId64 " lanes in all)\n",
                    FK_IS_FAULT(k) ? "fault" : FK_IS_RACE(k) ? "race" : k == FK_OVERFLOW ? "overflow" : k == FK_VIEW ? "view" : "uninitialized-read",
                    site->programs,
                    site->lanes);
        }
    }
    if (any) {
        const char *sep = "summary: ";
        if (s->st.faults) {
            fprintf(out, "%s%" PRId64 " fault%s (%" PRId64 " lane%s) in %" PRId64 " program%s", sep, s->st.faults,
                    s->st.faults == 1 ? "" : "s", s->st.fault_lanes, s->st.fault_lanes == 1 ? "" : "s",
                    s->fault_programs, s->fault_programs == 1 ? "" : "s");
            sep = "; ";
        }
        if (s->st.races) {
            fprintf(out, "%s%" PRId64 " racing access%s in %" PRId64 " program%s", sep, s->st.races,
                    s->st.races == 1 ? "" : "es", s->race_programs, s->race_programs == 1 ? "" : "s");
            sep = "; ";
        }
        if (s->st.overflows) {
            fprintf(out, "%s%" PRId64 " integer overflow%s (%" PRId64 " lane%s)", sep, s->st.overflows,
                    s->st.overflows == 1 ? "" : "s", s->st.overflow_lanes, s->st.overflow_lanes == 1 ? "" : "s");
            sep = "; ";
        }
        if (s->st.view_lanes) {
            fprintf(out, "%s%" PRId64 " lane%s outside a view", sep, s->st.view_lanes, s->st.view_lanes == 1 ? "" : "s");
            sep = "; ";
        }
        if (s->st.uninit_reads) {
            fprintf(out, "%s%" PRId64 " uninitialized read%s", sep, s->st.uninit_reads,
                    s->st.uninit_reads == 1 ? "" : "s");
            sep = "; ";
        }
        if (s->suppressed)
            fprintf(out, "%s%" PRId64 " more report%s suppressed", sep, s->suppressed, s->suppressed == 1 ? "" : "s");
        fputc('\n', out);
        fflush(out);
    }
    pthread_mutex_unlock(&s->rep_lock);
}

const ir_op *interp_global_op(const interp_session *s, int gop)
{
    if (gop < 0 || gop >= s->nops_total) return NULL;
    int r = 0;
    while (r + 1 < s->f->regions.n && s->opbase[r + 1] <= gop) r++;
    return &s->f->regions.v[r].ops[gop - s->opbase[r]];
}

const char *interp_site_kind(int kind)
{
    static const char *const names[FK_COUNT] = {
        [FK_OOB] = "out-of-bounds", [FK_MISALIGNED] = "misaligned", [FK_TYPE] = "type-mismatched",
        [FK_LOOP] = "bad-loop-step", [FK_RACE_WW] = "write-write-race", [FK_RACE_RW] = "read-after-write-race",
        [FK_RACE_WR] = "write-after-read-race", [FK_UNINIT] = "uninitialized-read", [FK_OVERFLOW] = "overflow",
        [FK_VIEW] = "outside-view",
    };
    return kind >= 0 && kind < FK_COUNT && names[kind] ? names[kind] : "?";
}

int64_t interp_sites(const interp_session *s, interp_site_info *out, int64_t max)
{
    int64_t n = 0;
    for (int gop = 0; gop < s->nops_total; gop++) {
        for (int k = 0; k < FK_COUNT; k++) {
            const interp_site *site = &s->sites[gop * FK_COUNT + k];
            if (!site->seen) continue;
            if (n < max) {
                const ir_op *op = interp_global_op(s, gop);
                interp_site_info *o = &out[n];
                memset(o, 0, sizeof *o);
                o->kind = interp_site_kind(k);
                o->fault = FK_IS_FAULT(k);
                o->race = FK_IS_RACE(k);
                interp_pid_of(s->grid, site->first_prog, o->pid);
                o->programs = site->programs;
                o->lanes = site->lanes;
                o->loc = op->loc;
                o->op = ir_ops[op->opc].name;
                o->arg = -1;
                o->elem = -1;
                if (site->buf >= 0 && site->buf < s->nbufs) {
                    const interp_buf *b = &s->bufs[site->buf];
                    uint64_t dist = site->addr < b->base ? b->base - site->addr
                                  : site->addr >= b->end ? site->addr - b->end + 1 : 0;
                    if (k != FK_OOB) {
                        o->arg = b->arg;
                        o->elem = (int64_t)((site->addr - b->base) >> b->eshift);
                    } else if (oob_elem(b, site->addr, dist, &o->elem)) {
                        o->arg = b->arg;
                    } else {
                        o->elem = -1;
                    }
                }
                o->has_other = site->other >= 0;
                if (o->has_other) interp_pid_of(s->grid, site->other, o->other_pid);
            }
            n++;
        }
    }
    return n;
}

void interp_report_reset(interp_session *s)
{
    memset(s->sites, 0, sizeof *s->sites * (size_t)s->nops_total * FK_COUNT);
    s->printed = s->suppressed = 0;
    s->fault_programs = s->race_programs = 0;
    memset(&s->st, 0, sizeof s->st);
}
