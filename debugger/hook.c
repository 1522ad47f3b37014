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

bool dbg_have_frame(const dbg_session *d)
{
    return d->in_prog && (d->in_cond || dbg_get_state(d) == DBG_STOPPED);
}

bool dbg_pid_match(const int64_t f[3], const int64_t pid[3])
{
    for (int k = 0; k < 3; k++)
        if (f[k] >= 0 && f[k] != pid[k]) return false;
    return true;
}

bool dbg_prog_needs_trap(dbg_session *d, int64_t lin)
{
    if (FLAG_GET(d->interrupt) || d->step.kind != STEP_NONE || d->nwatch > 0 || d->next_req_hit) return true;
    if (d->any_unfiltered_code_bp) return true;
    int64_t pid[3];
    interp_pid_of(d->grid, lin, pid);
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
    interp_pid_of(d->grid, lin, pid);
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

/* Fill the stop record for op g, showing frame level `vlevel`. */
static void fill_stop(dbg_session *d, const interp_frame *fr, int reason, int bpn, int vlevel)
{
    int g = d->opbase[fr->region] + fr->op;
    const dbg_opinfo *oi = &d->ops[g];
    d->stop.reason = reason;
    d->stop.bp = bpn;
    d->stop.in_program = true;
    memcpy(d->stop.pid, fr->pid, sizeof d->stop.pid);
    d->stop.region = fr->region;
    d->stop.op = fr->op;
    d->stop.func = d->kernel;
    d->stop.file = NULL;
    d->stop.line = 0;
    /* an op without a line (a terminator, a constant without location) is
     * shown at the previous op's position */
    const dbg_pos *p = oi->pos >= 0 ? &d->pos[oi->pos] : (d->pp_depth >= 0 ? d->pp : NULL);
    int depth = oi->pos >= 0 ? oi->depth : d->pp_depth;
    if (vlevel > depth) vlevel = depth;
    if (vlevel < 0) vlevel = 0;
    d->vlevel = vlevel;
    d->hidden = depth > vlevel ? depth - vlevel : 0;
    d->stop.depth = vlevel;
    d->stop_file = -1;
    if (p) {
        d->stop_file = p[vlevel].file;
        d->stop.file = p[vlevel].file >= 0 ? diag_file_name(p[vlevel].file) : NULL;
        d->stop.line = p[vlevel].line;
        d->stop.func = p[vlevel].func;
    }
}

/* A breakpoint whose location matched at op fr, shown at `level`:
 * condition (evaluated in that frame), hit count, ignore count. Returns true
 * when it stops. */
static bool bp_hit(dbg_session *d, dbg_bp *b, const interp_frame *fr, int level)
{
    if (b->cond) {
        fill_stop(d, fr, DBG_STOP_BREAKPOINT, b->num, level);
        d->in_cond = true;
        d->sel_frame = 0;
        bool t = dbg_cond_true(d, b);
        d->in_cond = false;
        if (!t) return false;
    }
    b->hits++;
    if (b->ignore > 0) {
        b->ignore--;
        return false;
    }
    return true;
}

/* First level at which op g enters a new line (lines) and a new inline
 * instance (insts), compared with the previous op; depth+1 when none. */
static void entered(dbg_session *d, const dbg_opinfo *oi, int *lines, int *insts)
{
    const dbg_pos *p = &d->pos[oi->pos];
    int n = oi->depth + 1;
    *lines = *insts = n;
    for (int j = 0; j < n; j++)
        if (j >= d->pi_n || j > d->pp_depth || p[j].inst != d->pp[j].inst) { *insts = j; break; }
    for (int j = 0; j < n; j++)
        if (j >= d->pp_n || j > d->pp_depth || p[j].inst != d->pp[j].inst || p[j].line != d->pp[j].line ||
            p[j].file != d->pp[j].file) { *lines = j; break; }
}

/* Is op g inside frame (level f, instance fi)? */
static bool in_frame(const dbg_session *d, const dbg_opinfo *oi, int f, int32_t fi)
{
    if (oi->pos < 0 || oi->depth < f) return false;
    return d->pos[oi->pos + f].inst == fi;
}

/* Whether the step in progress ends at op g; *vlevel: the frame to show. */
static bool step_done(dbg_session *d, const dbg_opinfo *oi, int el, int *vlevel)
{
    dbg_step *st = &d->step;
    if (st->kind == STEP_INSN) {
        *vlevel = oi->pos >= 0 ? oi->depth : d->pp_depth;
        return true;
    }
    if (oi->pos < 0) return false;
    const dbg_pos *p = &d->pos[oi->pos];
    int depth = oi->depth;
    if (st->newprog) {
        *vlevel = el <= depth ? el : depth;
        return el <= depth;
    }
    bool in = in_frame(d, oi, st->fdepth, st->finst);
    switch (st->kind) {
    case STEP_INTO:
        *vlevel = el;
        return el <= depth;
    case STEP_OVER:
    case STEP_UNTIL: {
        if (!in) {
            *vlevel = el <= depth ? el : depth;
            return st->kind == STEP_UNTIL || el <= depth;
        }
        if (el > st->fdepth) return false;          /* still on the frame's line (inside a call) */
        *vlevel = el;
        if (st->kind == STEP_OVER) return true;
        if (st->tline) return p[st->fdepth].file == st->tfile && p[st->fdepth].line == st->tline;
        return p[st->fdepth].line > st->line;
    }
    case STEP_FINISH:
        if (in) return false;
        *vlevel = el <= depth ? el : depth;
        return true;
    case STEP_TO:
        for (int j = el; j <= depth; j++)
            if (p[j].file == st->tfile && p[j].line == st->tline) {
                *vlevel = j;
                return true;
            }
        return false;
    }
    return false;
}

/* Line and function breakpoints entered at op g, at levels >= from. Returns
 * the breakpoint and its level, or NULL. */
static dbg_bp *code_bp(dbg_session *d, const dbg_opinfo *oi, const interp_frame *fr, int from, int el, int ei,
                       int *level)
{
    if (oi->pos < 0) return NULL;
    const dbg_pos *p = &d->pos[oi->pos];
    for (int j = from; j <= oi->depth; j++) {
        if (j >= ei && j >= 1 && (oi->flags & OPF_FUNC)) {
            for (int i = 0; i < d->bps.n; i++) {
                dbg_bp *b = d->bps.v[i];
                if (!b->enabled || b->kind != BP_FUNC || b->func_is_kernel || strcmp(b->func, p[j].func)) continue;
                if (b->has_pid && !dbg_pid_match(b->pidf, fr->pid)) continue;
                if (bp_hit(d, b, fr, j)) { *level = j; return b; }
            }
        }
        if (j >= el && (oi->flags & OPF_BPLINE)) {
            for (int i = 0; i < d->bps.n; i++) {
                dbg_bp *b = d->bps.v[i];
                if (!b->enabled || b->kind != BP_LINE || b->rline != p[j].line || b->rfile != p[j].file) continue;
                if (b->has_pid && !dbg_pid_match(b->pidf, fr->pid)) continue;
                if (bp_hit(d, b, fr, j)) { *level = j; return b; }
            }
        }
    }
    return NULL;
}

static void problems_msg(dbg_session *d, const int64_t pid[3], bool *found)
{
    interp_stats now;
    interp_get_stats(d->s, &now);
    if (now.fault_lanes <= d->last_stats.fault_lanes && now.races <= d->last_stats.races &&
        now.uninit_reads <= d->last_stats.uninit_reads)
        return;
    char pb[80];
    sb_printf(&d->stop_msg, "\nProgram %s ", dbg_pid_str(pid, pb, sizeof pb));
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
    *found = true;
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

    /* a region (re-)entered: a loop iteration enters the lines of its own
     * frame again, and the calls it makes are new calls */
    if (fr->op == 0 && fr->region != IR_BODY) {
        const ir_region *reg = &d->fn->regions.v[fr->region];
        const dbg_opinfo *owner = &d->ops[d->opbase[reg->parent_region] + reg->parent_op];
        int k = owner->loc >= 0 ? owner->depth : 0;
        if (d->pp_n > k) d->pp_n = k;
        if (d->pi_n > k + 1) d->pi_n = k + 1;
    }
    int el = DBG_MAX_FRAMES, ei = DBG_MAX_FRAMES;   /* entered levels: lines, instances */
    if (oi->pos >= 0) entered(d, oi, &el, &ei);

    int reason = DBG_STOP_NONE, bpn = 0, vlevel = oi->pos >= 0 ? oi->depth : d->pp_depth;
    d->stop_msg.len = 0;
    if (d->stop_msg.s) d->stop_msg.s[0] = 0;

    if (d->wpend.active) dbg_watch_finish(d, &reason, &bpn);
    if (d->stop_on_fault) {
        bool found = false;
        problems_msg(d, fr->pid, &found);
        if (found && reason == DBG_STOP_NONE) reason = DBG_STOP_FAULT;
    }
    if (FLAG_GET(d->interrupt) && oi->pos >= 0) {   /* at an op with a source line, not a loop's bookkeeping (was ?:0) */
        FLAG_SET(d->interrupt, 0);
        if (reason == DBG_STOP_NONE) reason = DBG_STOP_INTERRUPT;
    }
    if (start) {
        if (d->next_req_hit) {
            d->next_req_hit = false;
            if (reason == DBG_STOP_NONE) { reason = DBG_STOP_PROGRAM; vlevel = 0; }
        }
        for (int i = 0; i < d->bps.n && reason != DBG_STOP_BREAKPOINT; i++) {
            dbg_bp *b = d->bps.v[i];
            if (!b->enabled) continue;
            bool match = (b->kind == BP_PID && dbg_pid_match(b->pidf, fr->pid)) ||
                         (b->kind == BP_FUNC && b->func_is_kernel && (!b->has_pid || dbg_pid_match(b->pidf, fr->pid)));
            if (match && bp_hit(d, b, fr, 0)) { reason = DBG_STOP_BREAKPOINT; bpn = b->num; vlevel = 0; }
        }
    }
    int bplevel = -1;
    if (reason != DBG_STOP_BREAKPOINT && oi->pos >= 0 && (oi->flags & (OPF_BPLINE | OPF_FUNC)) &&
        (el <= oi->depth || ei <= oi->depth)) {
        dbg_bp *b = code_bp(d, oi, fr, el < ei ? el : ei, el, ei, &bplevel);
        if (b) { reason = DBG_STOP_BREAKPOINT; bpn = b->num; vlevel = bplevel; }
    }
    if ((oi->flags & OPF_MEM) && d->nwatch > 0) {
        int r2 = DBG_STOP_NONE, b2 = 0;
        dbg_watch_check(d, g, &r2, &b2);
        if (r2 != DBG_STOP_NONE && reason != DBG_STOP_BREAKPOINT) {
            reason = r2;
            bpn = b2;
            vlevel = oi->depth;
        }
    }
    if (d->step.kind != STEP_NONE && reason == DBG_STOP_NONE) {
        int sl = vlevel;
        if (step_done(d, oi, el, &sl) && (--d->step.count <= 0 || d->step.newprog)) {
            reason = DBG_STOP_STEP;
            vlevel = sl;
        }
    }
    if (start && reason == DBG_STOP_NONE && !FLAG_GET(d->interrupt) && !needs_trap_after_start(d, d->cur))
        interp_set_trap(d->s, false);
    d->prev_g = g;
    if (oi->pos >= 0) {
        memcpy(d->pp, &d->pos[oi->pos], sizeof *d->pp * (size_t)(oi->depth + 1));
        d->pp_depth = oi->depth;
        d->pp_n = d->pi_n = oi->depth + 1;
    }
    if (reason == DBG_STOP_NONE) return HOOK_CONTINUE;

    for (;;) {
        fill_stop(d, fr, reason, bpn, vlevel);
        d->in_prog = true;
        int r = dbg_worker_wait(d);
        if (r == R_ABORT) return HOOK_ABORT;
        /* `continue` from a stop shown in an outer frame: breakpoints of the
         * deeper frames entered by this same op still count */
        if (reason == DBG_STOP_BREAKPOINT && bplevel >= 0 && d->step.kind == STEP_NONE && oi->pos >= 0) {
            d->stop_msg.len = 0;
            if (d->stop_msg.s) d->stop_msg.s[0] = 0;
            int lvl = -1;
            dbg_bp *b = code_bp(d, oi, fr, bplevel + 1, el, ei, &lvl);
            if (b) {
                bpn = b->num;
                vlevel = bplevel = lvl;
                continue;
            }
        }
        break;
    }
    /* the main thread may have changed breakpoints or stepping */
    d->need_trap = needs_trap_after_start(d, d->cur) || FLAG_GET(d->interrupt);
    interp_set_trap(d->s, d->need_trap);
    return HOOK_CONTINUE;
}
