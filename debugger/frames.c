/* frames.c — frames and scopes of a stopped program.
 *
 * Helpers are inlined, so a "frame" is an inline instance: every op's
 * location points at its call site through ir_loc.caller, and the chain
 * loc -> caller -> caller is the backtrace (frame 0 innermost). An instance
 * is named by its call-site location id (-1 for the kernel itself).
 *
 * Visible variables of a frame, per name: the latest named SSA value defined
 * before the current op in the current region and its enclosing regions
 * (region arguments — loop induction variables and carried values — included)
 * whose defining op belongs to the frame's instance; plus the result of a
 * helper call made from the frame (the last value of the callee's instance,
 * which the front end names after the caller's assignment); plus the kernel's
 * arguments and constexprs in the kernel frame. */
#include "dbg_int.h"

#include <inttypes.h>

int dbg_frames(dbg_session *d, dbg_frameinfo *fr, int max)
{
    if (dbg_get_state(d) != DBG_STOPPED || !d->in_prog) return 0;
    const ir_func *f = d->fn;
    int g = d->opbase[d->stop.region] + d->stop.op;
    int32_t loc = d->ops[g].loc;
    if (loc < 0) {
        fr[0] = (dbg_frameinfo){ .loc = -1, .inst = -1, .file = d->kfile, .line = 0, .func = d->kernel };
        return 1;
    }
    int n = 0;
    for (int32_t l = loc; l >= 0 && l < f->locs.n && n < max; l = f->locs.v[l].caller) {
        const ir_loc *lc = &f->locs.v[l];
        fr[n].loc = l;
        fr[n].inst = lc->caller;
        fr[n].file = lc->file;
        fr[n].line = lc->file >= 0 ? dbg_stmt_line(d, lc->file, lc->line) : lc->line;
        fr[n].func = lc->func ? lc->func : d->kernel;
        n++;
    }
    /* frame 0 of a terminator or an op without a line: keep the stop's line */
    if (n > 0 && d->stop.line > 0 && fr[0].line != d->stop.line) fr[0].line = d->stop.line;
    return n;
}

void dbg_print_frame_line(dbg_session *d, int frame, bool with_program)
{
    dbg_frameinfo fr[DBG_MAX_FRAMES];
    int n = dbg_frames(d, fr, DBG_MAX_FRAMES);
    if (n == 0) return;
    if (frame >= n) frame = n - 1;
    char pb[80];
    int64_t pid[3];
    dbg_pid_of(d, d->cur, pid);
    dbg_printf(d, "#%-2d %s%s%s%s () at %s:%d\n", frame, with_program ? "program " : "",
               with_program ? dbg_pid_str(pid, pb, sizeof pb) : "", with_program ? " " : "", fr[frame].func,
               fr[frame].file >= 0 ? diag_file_name(fr[frame].file) : "?", fr[frame].line);
    dbg_print_src_line(d, fr[frame].file, fr[frame].line);
}

static int need_stopped(dbg_session *d)
{
    if (dbg_get_state(d) != DBG_STOPPED) return dbg_error(d, "No stack: no program is stopped.");
    if (!d->in_prog) return dbg_error(d, "No stack: the program has finished.");
    return 0;
}

int dbg_cmd_backtrace(dbg_session *d, const char *args)
{
    if (need_stopped(d)) return -1;
    int64_t limit = -1;
    const char *s = args;
    if (!dbg_blank(s) && (!dbg_parse_int(&s, &limit) || !dbg_blank(s)))
        return dbg_error(d, "usage: backtrace [N]");
    dbg_frameinfo fr[DBG_MAX_FRAMES];
    int n = dbg_frames(d, fr, DBG_MAX_FRAMES);
    char pb[80];
    int64_t pid[3];
    dbg_pid_of(d, d->cur, pid);
    int shown = 0;
    for (int i = 0; i < n; i++) {
        if (limit >= 0 && shown >= limit) {
            dbg_printf(d, "(More stack frames follow...)\n");
            break;
        }
        dbg_printf(d, "#%-2d %s () at %s:%d%s%s\n", i, fr[i].func,
                   fr[i].file >= 0 ? diag_file_name(fr[i].file) : "?", fr[i].line,
                   i == n - 1 ? ", program " : "", i == n - 1 ? dbg_pid_str(pid, pb, sizeof pb) : "");
        shown++;
    }
    return 0;
}

static int select_frame(dbg_session *d, int want)
{
    dbg_frameinfo fr[DBG_MAX_FRAMES];
    int n = dbg_frames(d, fr, DBG_MAX_FRAMES);
    if (want < 0) return dbg_error(d, "Bottom (innermost) frame selected; you cannot go down.");
    if (want >= n) return dbg_error(d, "Initial frame selected; you cannot go up.");
    d->sel_frame = want;
    d->list_file = -1;
    dbg_print_frame_line(d, want, false);
    return 0;
}

int dbg_cmd_frame(dbg_session *d, const char *args)
{
    if (need_stopped(d)) return -1;
    const char *s = args;
    if (dbg_blank(s)) {
        dbg_print_frame_line(d, d->sel_frame, false);
        return 0;
    }
    int64_t v;
    if (!dbg_parse_int(&s, &v) || !dbg_blank(s)) return dbg_error(d, "usage: frame [N]");
    dbg_frameinfo fr[DBG_MAX_FRAMES];
    int n = dbg_frames(d, fr, DBG_MAX_FRAMES);
    if (v < 0 || v >= n) return dbg_error(d, "No frame at level %s.", dbg_skip(args));
    return select_frame(d, (int)v);
}

int dbg_cmd_up(dbg_session *d, const char *args)
{
    if (need_stopped(d)) return -1;
    const char *s = args;
    int64_t v = 1;
    if (!dbg_blank(s) && (!dbg_parse_int(&s, &v) || !dbg_blank(s))) return dbg_error(d, "usage: up [N]");
    return select_frame(d, d->sel_frame + (int)v);
}

int dbg_cmd_down(dbg_session *d, const char *args)
{
    if (need_stopped(d)) return -1;
    const char *s = args;
    int64_t v = 1;
    if (!dbg_blank(s) && (!dbg_parse_int(&s, &v) || !dbg_blank(s))) return dbg_error(d, "usage: down [N]");
    return select_frame(d, d->sel_frame - (int)v);
}

int dbg_cmd_info_frame(dbg_session *d, const char *args)
{
    (void)args;
    if (need_stopped(d)) return -1;
    dbg_frameinfo fr[DBG_MAX_FRAMES];
    int n = dbg_frames(d, fr, DBG_MAX_FRAMES);
    int k = d->sel_frame < n ? d->sel_frame : 0;
    char pb[80];
    int64_t pid[3];
    dbg_pid_of(d, d->cur, pid);
    dbg_printf(d, "Stack level %d, program %s, function %s, at %s:%d\n", k, dbg_pid_str(pid, pb, sizeof pb),
               fr[k].func, fr[k].file >= 0 ? diag_file_name(fr[k].file) : "?", fr[k].line);
    if (k + 1 < n) dbg_printf(d, " called by frame at level %d (%s, line %d)\n", k + 1, fr[k + 1].func, fr[k + 1].line);
    if (k > 0) dbg_printf(d, " caller of frame at level %d (%s)\n", k - 1, fr[k - 1].func);
    if (fr[k].inst >= 0) dbg_printf(d, " inlined: instance at call site #loc%d\n", fr[k].inst);
    const ir_op *op = &d->fn->regions.v[d->stop.region].ops[d->stop.op];
    dbg_printf(d, " next op: %s (region %d, op %d)\n", ir_ops[op->opc].name, d->stop.region, d->stop.op);
    return 0;
}

int dbg_cmd_info_line(dbg_session *d, const char *args)
{
    if (!d->loaded) return dbg_error(d, "No kernel loaded.");
    int file, line;
    const char *s = dbg_skip(args);
    if (*s) {
        dbg_loc loc;
        if (!dbg_parse_location(d, &s, &loc)) return -1;
        if (!dbg_blank(s)) { dbg_loc_free(&loc); return dbg_error(d, "junk at end of line spec: %s", dbg_skip(s)); }
        file = loc.rfile;
        line = loc.rline;
        dbg_loc_free(&loc);
        if (!line) return dbg_error(d, "No line found.");
    } else {
        if (need_stopped(d)) return -1;
        dbg_frameinfo fr[DBG_MAX_FRAMES];
        int n = dbg_frames(d, fr, DBG_MAX_FRAMES);
        int k = d->sel_frame < n ? d->sel_frame : 0;
        file = fr[k].file;
        line = fr[k].line;
    }
    int nops = 0;
    for (int g = 0; g < d->nops; g++)
        if (d->ops[g].file == file && d->ops[g].line == line) nops++;
    dbg_printf(d, "Line %d of \"%s\" has %d op%s.\n", line, diag_file_name(file), nops, nops == 1 ? "" : "s");
    return 0;
}

/* ---- scopes ----------------------------------------------------------------- */

static bool seen(const dbg_var_vec *v, const char *name)
{
    for (int i = 0; i < v->n; i++)
        if (!strcmp(v->v[i].name, name)) return true;
    return false;
}

/* Whether op (r, i) is visible from frame (outer index fd, instance fi). */
static bool op_visible(dbg_session *d, int r, int i, int fd, int32_t fi)
{
    const ir_func *f = d->fn;
    const ir_op *op = &f->regions.v[r].ops[i];
    int32_t chain[DBG_MAX_FRAMES];
    int n = dbg_loc_chain(f, op->loc, chain, DBG_MAX_FRAMES);
    if (n <= fd || chain[fd] != fi) return false;
    if (n == fd + 1) return true;
    /* a deeper instance called from this frame: only its last op (the
     * call's result) is visible */
    const ir_region *reg = &f->regions.v[r];
    if (i + 1 >= reg->nops) return true;
    int32_t c2[DBG_MAX_FRAMES];
    int n2 = dbg_loc_chain(f, reg->ops[i + 1].loc, c2, DBG_MAX_FRAMES);
    return !(n2 > fd + 1 && c2[fd + 1] == chain[fd + 1]);
}

void dbg_scope(dbg_session *d, int frame, dbg_var_vec *out, bool with_consts)
{
    out->n = 0;
    bool stopped = dbg_get_state(d) == DBG_STOPPED && d->in_prog;
    int fd = 0;
    int32_t fi = -1;
    if (stopped) {
        dbg_frameinfo fr[DBG_MAX_FRAMES];
        int n = dbg_frames(d, fr, DBG_MAX_FRAMES);
        if (frame >= n) frame = n - 1;
        fd = n - 1 - frame;
        fi = fr[frame].inst;
        const ir_func *f = d->fn;
        int r = d->stop.region, end = d->stop.op;
        while (r >= 0) {
            const ir_region *reg = &f->regions.v[r];
            for (int i = end - 1; i >= 0; i--) {
                const ir_op *op = &reg->ops[i];
                for (int k = 0; k < op->nres; k++) {
                    ir_value v = op->res + k;
                    const char *name = f->values.v[v].name;
                    if (!name || seen(out, name)) continue;
                    if (!op_visible(d, r, i, fd, fi)) continue;
                    if (!interp_value_data(d->s, v)) continue;
                    dbg_var x = { .name = name, .kind = VAR_LOCAL, .v = v };
                    vec_push(out, x);
                }
            }
            if (r == IR_BODY) {
                if (fd == 0)
                    for (int a = 0; a < reg->nargs; a++) {
                        ir_value v = reg->args[a];
                        const char *name = f->values.v[v].name;
                        if (!name || seen(out, name)) continue;
                        dbg_var x = { .name = name, .kind = VAR_ARG, .v = v };
                        vec_push(out, x);
                    }
                break;
            }
            /* region arguments belong to the op owning the region */
            {
                const ir_op *owner = &f->regions.v[reg->parent_region].ops[reg->parent_op];
                int32_t chain[DBG_MAX_FRAMES];
                int n = dbg_loc_chain(f, owner->loc, chain, DBG_MAX_FRAMES);
                if (n == fd + 1 && chain[fd] == fi)
                    for (int a = 0; a < reg->nargs; a++) {
                        ir_value v = reg->args[a];
                        const char *name = f->values.v[v].name;
                        if (!name || seen(out, name)) continue;
                        if (!interp_value_data(d->s, v)) continue;
                        dbg_var x = { .name = name, .kind = VAR_LOCAL, .v = v };
                        vec_push(out, x);
                    }
            }
            end = reg->parent_op;
            r = reg->parent_region;
        }
    }
    if (with_consts && (!stopped || fd == 0)) {
        for (int i = 0; i < d->nparams; i++) {
            const front_param *p = &d->params[i];
            if (!p->is_constexpr || seen(out, p->name)) continue;
            dbg_var x = { .name = p->name, .kind = VAR_CONST, .v = -1 };
            bool found = false;
            for (int c = 0; c < d->pristine.nconsts; c++)
                if (!strcmp(d->pristine.consts[c].name, p->name)) {
                    x.cval = d->pristine.consts[c];
                    found = true;
                }
            if (!found && p->has_default) {
                x.cval = p->def;
                found = true;
            }
            if (found) vec_push(out, x);
        }
    }
}
