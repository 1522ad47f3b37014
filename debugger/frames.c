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

#include <ctype.h>
#include <inttypes.h>

int dbg_frames(dbg_session *d, dbg_frameinfo *fr, int max)
{
    if (!dbg_have_frame(d)) return 0;
    int g = d->opbase[d->stop.region] + d->stop.op;
    const dbg_opinfo *oi = &d->ops[g];
    const dbg_pos *p = oi->pos >= 0 ? &d->pos[oi->pos] : (d->pp_depth >= 0 ? d->pp : NULL);
    if (!p) {
        fr[0] = (dbg_frameinfo){ .inst = -1, .file = d->kfile, .line = 0, .func = d->kernel };
        return 1;
    }
    int n = 0;
    for (int level = d->vlevel; level >= 0 && n < max; level--, n++)
        fr[n] = (dbg_frameinfo){ .inst = p[level].inst, .file = p[level].file, .line = p[level].line,
                                 .func = p[level].func };
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
    interp_pid_of(d->grid, d->cur, pid);
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
    interp_pid_of(d->grid, d->cur, pid);
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

/* A user's level count, clamped so that adding it to a frame number cannot
 * overflow (there are never more than DBG_MAX_FRAMES frames). */
static int clamp_levels(int64_t v)
{
    return (int)(v > DBG_MAX_FRAMES ? DBG_MAX_FRAMES : v < -DBG_MAX_FRAMES ? -DBG_MAX_FRAMES : v);
}

int dbg_cmd_up(dbg_session *d, const char *args)
{
    if (need_stopped(d)) return -1;
    const char *s = args;
    int64_t v = 1;
    if (!dbg_blank(s) && (!dbg_parse_int(&s, &v) || !dbg_blank(s))) return dbg_error(d, "usage: up [N]");
    return select_frame(d, d->sel_frame + clamp_levels(v));
}

int dbg_cmd_down(dbg_session *d, const char *args)
{
    if (need_stopped(d)) return -1;
    const char *s = args;
    int64_t v = 1;
    if (!dbg_blank(s) && (!dbg_parse_int(&s, &v) || !dbg_blank(s))) return dbg_error(d, "usage: down [N]");
    return select_frame(d, d->sel_frame - clamp_levels(v));
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
    interp_pid_of(d->grid, d->cur, pid);
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

/* The name the assignment `NAME = call(...)` at call-site location `call`
 * gives the call's result, or NULL when the call is not the whole right-hand
 * side of a plain assignment. */
static const char *assigned_name(dbg_session *d, int32_t call, char *buf, size_t n)
{
    const ir_loc *lc = &d->fn->locs.v[call];
    if (lc->file < 0 || lc->col < 2) return NULL;
    const char *text = dbg_src_line(lc->file, lc->line);
    size_t len = strlen(text);
    if ((size_t)lc->col - 1 > len) return NULL;
    /* text before the call: spaces NAME spaces '=' spaces */
    const char *p = text, *end = text + lc->col - 1;
    while (p < end && isspace((unsigned char)*p)) p++;
    const char *name = p;
    while (p < end && (isalnum((unsigned char)*p) || *p == '_')) p++;
    size_t nl = (size_t)(p - name);
    if (!nl || nl >= n || isdigit((unsigned char)*name)) return NULL;
    while (p < end && isspace((unsigned char)*p)) p++;
    if (p >= end || *p != '=' || p[1] == '=') return NULL;
    p++;
    while (p < end && isspace((unsigned char)*p)) p++;
    if (p != end) return NULL;
    memcpy(buf, name, nl);
    buf[nl] = 0;
    return buf;
}

/* The name under which result k of op (r, i) is visible from frame (level
 * fd, instance fi), or NULL. */
static const char *visible_name(dbg_session *d, int r, int i, int k, int fd, int32_t fi, char *buf, size_t n)
{
    const ir_func *f = d->fn;
    const ir_op *op = &f->regions.v[r].ops[i];
    const char *own = f->values.v[op->res + k].name;
    int32_t chain[DBG_MAX_FRAMES];
    int cn = dbg_loc_chain(f, op->loc, chain, DBG_MAX_FRAMES);
    if (op->loc < 0) return fd == 0 ? own : NULL;
    if (cn <= fd || chain[fd] != fi) return NULL;
    if (cn == fd + 1) return own;
    /* a helper called from this frame: only its result, under the name the
     * caller assigns it to */
    const ir_region *reg = &f->regions.v[r];
    if (i + 1 < reg->nops) {
        int32_t c2[DBG_MAX_FRAMES];
        int n2 = dbg_loc_chain(f, reg->ops[i + 1].loc, c2, DBG_MAX_FRAMES);
        if (n2 > fd + 1 && c2[fd + 1] == chain[fd + 1]) return NULL;
    }
    if (op->nres != 1) return NULL;
    return assigned_name(d, chain[fd + 1], buf, n);
}

/* Add the variables of frame (level fd, instance fi) at op (r, end). */
static void frame_vars(dbg_session *d, int r, int end, int fd, int32_t fi, dbg_var_vec *out)
{
    const ir_func *f = d->fn;
    while (r >= 0) {
        const ir_region *reg = &f->regions.v[r];
        for (int i = end - 1; i >= 0; i--) {
            const ir_op *op = &reg->ops[i];
            for (int k = op->nres - 1; k >= 0; k--) {
                ir_value v = op->res + k;
                char nb[128];
                const char *nm = visible_name(d, r, i, k, fd, fi, nb, sizeof nb);
                if (!nm || seen(out, nm)) continue;
                if (!interp_value_data(d->s, v)) continue;
                dbg_var x = { .name = nm == nb ? arena_strdup(&d->names, nb) : nm, .kind = VAR_LOCAL, .v = v };
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
        /* region arguments (loop variables) belong to the op owning the region */
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
        end = reg->parent_op;
        r = reg->parent_region;
    }
}

void dbg_scope(dbg_session *d, int frame, dbg_var_vec *out, bool with_consts)
{
    out->n = 0;
    arena_reset(&d->names);
    bool stopped = dbg_have_frame(d);
    int fd = 0;
    if (stopped) {
        dbg_frameinfo fr[DBG_MAX_FRAMES];
        int n = dbg_frames(d, fr, DBG_MAX_FRAMES);
        if (frame >= n) frame = n - 1;
        fd = n - 1 - frame;
        frame_vars(d, d->stop.region, d->stop.op, fd, fr[frame].inst, out);
        /* expressions also see the callers' names the frame does not define
         * (`pid` in a condition inside a helper) */
        for (int k = frame + 1; with_consts && k < n; k++)
            frame_vars(d, d->stop.region, d->stop.op, n - 1 - k, fr[k].inst, out);
    }
    if (with_consts) {
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
