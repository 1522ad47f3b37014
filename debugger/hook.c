/* hook.c — the interpreter hook: runs before an op whenever the trap flag is
 * on, decides whether the program stops there, and if so blocks until the
 * main thread resumes it (dbg_worker_wait).
 *
 * The trap is on for a program only when something can stop it
 * (dbg_prog_needs_trap): a pid breakpoint naming it (checked at its first
 * op, after which the trap goes off again if nothing else needs it), a line
 * or function breakpoint whose pid filter matches, a watchpoint, a step in
 * progress, or Ctrl-C. Per op, the hook first reads the op's flags
 * (OPF_BPLINE: on a breakpoint's line, OPF_FUNC: may enter a function with a
 * breakpoint, OPF_MEM: a load/store/atomic) so that ops that cannot stop
 * cost a few loads.
 *
 * Line stops happen where a line is entered: the op's (file, statement line,
 * inline instance) differs from the previous op's, or the op opens a region
 * (each loop iteration enters its first line again). */
#include "dbg_int.h"

#include <inttypes.h>

bool dbg_pid_match(const int64_t f[3], const int64_t pid[3])
{
    for (int k = 0; k < 3; k++)
        if (f[k] >= 0 && f[k] != pid[k]) return false;
    return true;
}

bool dbg_prog_needs_trap(dbg_session *d, int64_t lin)
{
    if (d->interrupt || d->step.kind != STEP_NONE || d->nwatch > 0 || d->next_req_hit) return true;
    if (d->any_unfiltered_code_bp) return true;
    int64_t pid[3];
    dbg_pid_of(d, lin, pid);
    for (int i = 0; i < d->bps.n; i++) {
        const dbg_bp *b = d->bps.v[i];
        if (!b->enabled || b->kind > BP_PID) continue;
        if (b->kind == BP_LINE && !b->rline) continue;
        if (b->kind == BP_FUNC && !b->nlocs) continue;
        if (!b->has_pid || dbg_pid_match(b->pidf, pid)) return true;
    }
    return false;
}

/* Whether anything but a pid breakpoint needs the trap in this program. */
static bool needs_trap_after_start(dbg_session *d, int64_t lin)
{
    if (d->step.kind != STEP_NONE || d->nwatch > 0 || d->any_unfiltered_code_bp) return true;
    int64_t pid[3];
    dbg_pid_of(d, lin, pid);
    for (int i = 0; i < d->bps.n; i++) {
        const dbg_bp *b = d->bps.v[i];
        if (!b->enabled || (b->kind != BP_LINE && b->kind != BP_FUNC)) continue;
        if (b->kind == BP_FUNC && b->func_is_kernel) continue;
        if (!b->has_pid || dbg_pid_match(b->pidf, pid)) return true;
    }
    return false;
}

bool dbg_cond_true(dbg_session *d, dbg_bp *b)
{
    if (!b->cond) return true;
    dbg_value v = { 0 };
    fflush(d->out);
    if (!dbg_eval_in(d, b->cond, 0, &v)) {
        dbg_error(d, "Error in testing condition for breakpoint %d; stopping.", b->num);
        return true;
    }
    bool any = false;
    size_t es = (size_t)tt_dtype_size(v.dt);
    const unsigned char *p = v.data;
    for (int64_t i = 0; i < v.numel && !any; i++) {
        double x = tt_load_f64(p, v.dt, i);
        if (x != 0 || x != x) any = true;
        (void)es;
    }
    dbg_value_free(&v);
    return any;
}

/* A breakpoint whose location matched: condition, hit count, ignore count.
 * Returns true when it stops. */
static bool bp_hit(dbg_session *d, dbg_bp *b)
{
    if (!dbg_cond_true(d, b)) return false;
    b->hits++;
    if (b->ignore > 0) {
        b->ignore--;
        return false;
    }
    return true;
}

static void fill_stop(dbg_session *d, const interp_frame *fr, int reason, int bpn)
{
    int g = d->opbase[fr->region] + fr->op;
    const dbg_opinfo *oi = &d->ops[g];
    d->stop.reason = reason;
    d->stop.bp = bpn;
    d->stop.in_program = true;
    memcpy(d->stop.pid, fr->pid, sizeof d->stop.pid);
    d->stop.region = fr->region;
    d->stop.op = fr->op;
    d->stop.depth = oi->depth;
    d->stop.file = oi->file >= 0 ? diag_file_name(oi->file) : NULL;
    d->stop.line = oi->line;
    d->stop.func = d->kernel;
    if (oi->loc >= 0) {
        const ir_loc *lc = &d->fn->locs.v[oi->loc];
        if (lc->func) d->stop.func = lc->func;
        if (!oi->line && oi->kind == OK_TERM) d->stop.line = d->lk_valid ? d->lk_line : 0;
    }
    if (!d->stop.line && d->lk_valid) {
        d->stop.line = d->lk_line;
        d->stop.file = diag_file_name(d->lk_file);
    }
}

/* The kernel-level or helper function entered at op g (not in prev's chain). */
static dbg_bp *func_entry(dbg_session *d, int32_t g, bool start)
{
    const ir_func *f = d->fn;
    int32_t a[DBG_MAX_FRAMES], b[DBG_MAX_FRAMES];
    int na = dbg_loc_chain(f, d->ops[g].loc, a, DBG_MAX_FRAMES);
    int nb = d->prev_g >= 0 ? dbg_loc_chain(f, d->ops[d->prev_g].loc, b, DBG_MAX_FRAMES) : 0;
    int64_t pid[3];
    dbg_pid_of(d, d->cur, pid);
    /* frames of op g from the outside in: frame k's function is the func of
     * the location that is called at a[k+1] (or the op's own loc) */
    for (int k = start ? 0 : 1; k < na; k++) {
        bool inprev = false;
        for (int j = 0; j < nb; j++) if (b[j] == a[k]) inprev = true;
        if (inprev && !start) continue;
        int32_t l = k + 1 < na ? a[k + 1] : d->ops[g].loc;
        const char *fn = l >= 0 && f->locs.v[l].func ? f->locs.v[l].func : d->kernel;
        for (int i = 0; i < d->bps.n; i++) {
            dbg_bp *bp = d->bps.v[i];
            if (!bp->enabled || bp->kind != BP_FUNC || strcmp(bp->func, fn)) continue;
            if (bp->has_pid && !dbg_pid_match(bp->pidf, pid)) continue;
            if (bp_hit(d, bp)) return bp;
        }
    }
    return NULL;
}

/* Is op g inside frame (outer index fd, instance fi)? at: exactly that frame. */
static bool in_frame(dbg_session *d, int32_t g, int fd, int32_t fi, bool *at)
{
    int32_t a[DBG_MAX_FRAMES];
    int n = dbg_loc_chain(d->fn, d->ops[g].loc, a, DBG_MAX_FRAMES);
    bool in = n > fd && a[fd] == fi;
    *at = in && n == fd + 1;
    return in;
}

static bool step_done(dbg_session *d, int32_t g, bool entry)
{
    dbg_step *st = &d->step;
    const dbg_opinfo *oi = &d->ops[g];
    if (st->newprog) return entry;
    bool at = false, in;
    switch (st->kind) {
    case STEP_INSN: return true;
    case STEP_INTO: return entry;
    case STEP_OVER:
        if (!entry) return false;
        in = in_frame(d, g, st->fdepth, st->finst, &at);
        return at || !in;
    case STEP_FINISH:
        if (oi->kind == OK_TERM || oi->line <= 0) return false;
        return !in_frame(d, g, st->fdepth, st->finst, &at);
    case STEP_UNTIL:
        if (!entry) return false;
        in = in_frame(d, g, st->fdepth, st->finst, &at);
        if (!in) return true;
        if (st->tline) return oi->file == st->tfile && oi->line == st->tline;
        return at && oi->line > st->line;
    case STEP_TO:
        if (!entry) return false;
        return oi->file == st->tfile && oi->line == st->tline;
    }
    return false;
}

interp_hook_action dbg_hook(void *user, interp_session *s, const interp_frame *fr)
{
    dbg_session *d = user;
    (void)s;
    int32_t g = d->opbase[fr->region] + fr->op;
    const dbg_opinfo *oi = &d->ops[g];
    d->cur_region = fr->region;
    d->cur_op = fr->op;
    bool start = d->pstart;
    d->pstart = false;

    /* line entry */
    if (fr->op == 0 && fr->region != IR_BODY) d->lk_valid = false;
    bool entry = false;
    if (oi->line > 0) {
        if (!d->lk_valid || d->lk_file != oi->file || d->lk_line != oi->line || d->lk_inst != oi->inst) {
            entry = true;
            d->lk_valid = true;
            d->lk_file = oi->file;
            d->lk_line = oi->line;
            d->lk_inst = oi->inst;
        }
    }

    int reason = DBG_STOP_NONE, bpn = 0;
    bool have_msg = false;
    d->stop_msg.len = 0;
    if (d->stop_msg.s) d->stop_msg.s[0] = 0;

    if (d->wpend.active) {
        dbg_watch_finish(d, &reason, &bpn);
        have_msg = true;
    }
    if (d->stop_on_fault) {
        interp_stats now;
        interp_get_stats(d->s, &now);
        if (now.fault_lanes > d->last_stats.fault_lanes || now.races > d->last_stats.races ||
            now.uninit_reads > d->last_stats.uninit_reads) {
            char pb[80];
            sb_printf(&d->stop_msg, "\nProgram %s ", dbg_pid_str(fr->pid, pb, sizeof pb));
            const char *sep = "";
            int64_t fl = now.fault_lanes - d->last_stats.fault_lanes;
            int64_t rc = now.races - d->last_stats.races;
            int64_t ur = now.uninit_reads - d->last_stats.uninit_reads;
            if (fl) { sb_printf(&d->stop_msg, "faulted (%" PRId64 " lane%s)", fl, fl == 1 ? "" : "s"); sep = ", "; }
            if (rc) { sb_printf(&d->stop_msg, "%sraced (%" PRId64 " access%s)", sep, rc, rc == 1 ? "" : "es"); sep = ", "; }
            if (ur) sb_printf(&d->stop_msg, "%sread %" PRId64 " uninitialized element%s", sep, ur, ur == 1 ? "" : "s");
            if (d->prev_g >= 0 && d->ops[d->prev_g].line > 0)
                sb_printf(&d->stop_msg, " at %s:%d", diag_file_name(d->ops[d->prev_g].file), d->ops[d->prev_g].line);
            sb_printf(&d->stop_msg, "; see the report above.\n");
            d->last_stats = now;
            if (reason == DBG_STOP_NONE) reason = DBG_STOP_FAULT;
            have_msg = true;
        }
    }
    if (d->interrupt) {
        d->interrupt = 0;
        if (reason == DBG_STOP_NONE) reason = DBG_STOP_INTERRUPT;
    }
    if (start) {
        if (d->next_req_hit) {
            d->next_req_hit = false;
            if (reason == DBG_STOP_NONE) reason = DBG_STOP_PROGRAM;
        }
        for (int i = 0; i < d->bps.n && reason != DBG_STOP_BREAKPOINT; i++) {
            dbg_bp *b = d->bps.v[i];
            if (!b->enabled || b->kind != BP_PID || !dbg_pid_match(b->pidf, fr->pid)) continue;
            if (bp_hit(d, b)) { reason = DBG_STOP_BREAKPOINT; bpn = b->num; }
        }
        if (reason != DBG_STOP_BREAKPOINT) {
            dbg_bp *b = func_entry(d, g, true);
            if (b) { reason = DBG_STOP_BREAKPOINT; bpn = b->num; }
        }
    } else if ((oi->flags & (OPF_FUNC | OPF_ENTRY)) == (OPF_FUNC | OPF_ENTRY) && reason != DBG_STOP_BREAKPOINT) {
        dbg_bp *b = func_entry(d, g, false);
        if (b) { reason = DBG_STOP_BREAKPOINT; bpn = b->num; }
    }
    if (entry && (oi->flags & OPF_BPLINE) && reason != DBG_STOP_BREAKPOINT) {
        for (int i = 0; i < d->bps.n; i++) {
            dbg_bp *b = d->bps.v[i];
            if (!b->enabled || b->kind != BP_LINE || b->rline != oi->line || b->rfile != oi->file) continue;
            if (b->has_pid && !dbg_pid_match(b->pidf, fr->pid)) continue;
            if (bp_hit(d, b)) { reason = DBG_STOP_BREAKPOINT; bpn = b->num; break; }
        }
    }
    if ((oi->flags & OPF_MEM) && d->nwatch > 0) {
        int r2 = DBG_STOP_NONE, b2 = 0;
        dbg_watch_check(d, g, &r2, &b2);
        if (r2 != DBG_STOP_NONE && reason != DBG_STOP_BREAKPOINT) { reason = r2; bpn = b2; have_msg = true; }
    }
    if (d->step.kind != STEP_NONE && step_done(d, g, entry)) {
        if ((--d->step.count <= 0 || d->step.newprog) && reason == DBG_STOP_NONE) reason = DBG_STOP_STEP;
    }
    if (start && reason == DBG_STOP_NONE && !d->interrupt && !needs_trap_after_start(d, d->cur))
        interp_set_trap(d->s, false);
    d->prev_g = g;
    (void)have_msg;
    if (reason == DBG_STOP_NONE) return HOOK_CONTINUE;

    fill_stop(d, fr, reason, bpn);
    d->in_prog = true;
    int r = dbg_worker_wait(d);
    if (r == R_ABORT) return HOOK_ABORT;
    /* the main thread may have changed breakpoints or stepping */
    d->need_trap = needs_trap_after_start(d, d->cur) || d->interrupt;
    interp_set_trap(d->s, d->need_trap);
    return HOOK_CONTINUE;
}
