/* bpt.c — breakpoints: `break`, `tbreak`, `condition`, `ignore`, `delete`,
 * `disable`, `enable`, `info breakpoints`.
 *
 *   break [LOCATION] [pid (x[,y[,z]])] [if COND]
 *   LOCATION := LINE | FILE:LINE | FUNCTION | FILE:FUNCTION
 *   break pid (x[,y[,z]]) [if COND]      stop when that program starts
 *
 * A line resolves to its statement line (lines.c), or to the next line with
 * code when it has none, as gdb does. A line inside a helper stops in every
 * inlined copy; a function breakpoint stops on entry to every inlined call
 * of it (the kernel's own name: when each program starts). Pid components
 * may be '*'. Breakpoints survive `load` and `set arg`: they are resolved
 * again against the new code. */
#include "dbg_int.h"

#include <ctype.h>
#include <inttypes.h>
#include <limits.h>

dbg_bp *dbg_bp_find(dbg_session *d, int num)
{
    for (int i = 0; i < d->bps.n; i++)
        if (d->bps.v[i]->num == num) return d->bps.v[i];
    return NULL;
}

static void bp_free(dbg_bp *b)
{
    free(b->what);
    free(b->file);
    free(b->func);
    free(b->cond);
    free(b->wname);
    free(b);
}

void dbg_bp_delete(dbg_session *d, dbg_bp *b)
{
    for (int i = 0; i < d->bps.n; i++)
        if (d->bps.v[i] == b) {
            memmove(&d->bps.v[i], &d->bps.v[i + 1], sizeof b * (size_t)(d->bps.n - i - 1));
            d->bps.n--;
            break;
        }
    bp_free(b);
    dbg_bp_flags(d);
}

void dbg_bp_free_all(dbg_session *d)
{
    for (int i = 0; i < d->bps.n; i++) bp_free(d->bps.v[i]);
    d->bps.n = 0;
}

/* ---- flags ------------------------------------------------------------------ */

void dbg_bp_flags(dbg_session *d)
{
    d->nwatch = 0;
    d->any_unfiltered_code_bp = false;
    for (int g = 0; g < d->nops; g++) d->ops[g].flags &= (uint8_t)~(OPF_BPLINE | OPF_FUNC);
    for (int i = 0; i < d->bps.n; i++) {
        dbg_bp *b = d->bps.v[i];
        if (!b->enabled) continue;
        if (b->kind >= BP_WATCH) { d->nwatch++; continue; }
        if (b->kind == BP_LINE && b->rline) {
            if (!b->has_pid) d->any_unfiltered_code_bp = true;
            for (int g = 0; g < d->nops; g++) {
                const dbg_opinfo *oi = &d->ops[g];
                for (int j = 0; oi->pos >= 0 && j <= oi->depth; j++)
                    if (d->pos[oi->pos + j].line == b->rline && d->pos[oi->pos + j].file == b->rfile) {
                        d->ops[g].flags |= OPF_BPLINE;
                        break;
                    }
            }
        }
        if (b->kind == BP_FUNC && !b->func_is_kernel && b->nlocs) {
            if (!b->has_pid) d->any_unfiltered_code_bp = true;
            const ir_func *f = d->fn;
            for (int g = 0; g < d->nops; g++) {
                /* any frame of the op in function b->func */
                for (int32_t l = d->ops[g].loc; l >= 0 && l < f->locs.n; l = f->locs.v[l].caller)
                    if (f->locs.v[l].func && !strcmp(f->locs.v[l].func, b->func)) {
                        d->ops[g].flags |= OPF_FUNC;
                        break;
                    }
            }
        }
    }
}

void dbg_bp_resolve_all(dbg_session *d)
{
    for (int i = 0; i < d->bps.n; i++) {
        dbg_bp *b = d->bps.v[i];
        if (b->kind == BP_LINE) {
            int file = b->file ? dbg_find_file(d, b->file) : d->kfile;
            b->rfile = file;
            b->rline = file >= 0 ? dbg_resolve_line(d, file, b->line) : 0;
            b->nlocs = 0;
            for (int g = 0; g < d->nops && b->rline; g++) {
                const dbg_opinfo *oi = &d->ops[g];
                for (int j = 0; oi->pos >= 0 && j <= oi->depth; j++)
                    if (d->pos[oi->pos + j].line == b->rline && d->pos[oi->pos + j].file == file) {
                        b->nlocs++;
                        break;
                    }
            }
        } else if (b->kind == BP_FUNC) {
            b->func_is_kernel = !strcmp(b->func, d->kernel);
            b->nlocs = b->func_is_kernel ? 1 : dbg_count_instances(d, b->func);
        } else if (b->kind >= BP_WATCH) {
            /* the buffer may be gone or smaller after a reload */
            int a = dbg_buf_arg(d, b->wname, strlen(b->wname));
            if (a < 0 || b->whi > tt_tensor_numel(d->pristine.args[a].tensor)) {
                if (b->enabled) fprintf(d->err, "Watchpoint %d disabled: %s no longer exists.\n", b->num, b->what);
                b->enabled = false;
            } else {
                b->warg = a;
            }
        }
    }
    dbg_bp_flags(d);
}

/* ---- break ------------------------------------------------------------------ */

static bool starts_word(const char *s, const char *w)
{
    size_t n = strlen(w);
    return !strncmp(s, w, n) && (!s[n] || isspace((unsigned char)s[n]) || s[n] == '(');
}


static void describe_bp(const dbg_bp *b, strbuf *o)
{
    char pb[80];
    switch (b->kind) {
    case BP_LINE:
        if (b->rline) sb_printf(o, "%s:%d", diag_file_name(b->rfile), b->rline);
        else sb_printf(o, "%s:%d (pending)", b->file ? b->file : "?", b->line);
        break;
    case BP_FUNC:
        if (b->func_is_kernel) sb_printf(o, "%s: when each program starts", b->func);
        else if (b->nlocs) sb_printf(o, "%s (%d inlined call%s)", b->func, b->nlocs, b->nlocs == 1 ? "" : "s");
        else sb_printf(o, "%s (pending: not called by this kernel)", b->func);
        break;
    case BP_PID:
        sb_printf(o, "program %s", dbg_pid_str(b->pidf, pb, sizeof pb));
        break;
    default:
        sb_printf(o, "%s", b->what);
    }
    if (b->has_pid && b->kind != BP_PID) sb_printf(o, ", program %s", dbg_pid_str(b->pidf, pb, sizeof pb));
}

static int add_break(dbg_session *d, const char *args, bool temporary)
{
    if (!d->loaded) return dbg_error(d, "No kernel loaded.");
    const char *s = dbg_skip(args);
    dbg_bp b = { .kind = BP_LINE, .enabled = true, .disp = temporary ? DISP_DEL : DISP_KEEP };
    dbg_loc loc = { 0 };
    bool have_loc = false;
    if (starts_word(s, "pid")) {
        b.kind = BP_PID;
    } else if (!*s || starts_word(s, "if")) {
        /* the current line of the selected frame */
        dbg_frameinfo fr[DBG_MAX_FRAMES];
        int n = dbg_frames(d, fr, DBG_MAX_FRAMES);
        if (n == 0) return dbg_error(d, "No default breakpoint location: no program is stopped.");
        int k = d->sel_frame < n ? d->sel_frame : 0;
        if (fr[k].line <= 0) return dbg_error(d, "No line information at the current point.");
        loc.kind = LOC_LINE;
        loc.line = fr[k].line;
        loc.rfile = fr[k].file;
        loc.rline = fr[k].line;
        loc.file = xstrdup(diag_file_name(fr[k].file));
        have_loc = true;
    } else {
        if (!dbg_parse_location(d, &s, &loc)) return -1;
        have_loc = true;
    }
    s = dbg_skip(s);
    if (starts_word(s, "pid")) {
        s += 3;
        if (!dbg_parse_pid(&s, b.pidf, true)) {
            dbg_loc_free(&loc);
            return dbg_error(d, "bad program id after 'pid': expected (x[,y[,z]]) with integers or '*'");
        }
        b.has_pid = true;
        s = dbg_skip(s);
    } else if (b.kind == BP_PID) {
        return dbg_error(d, "usage: break pid (x[,y[,z]]) [if COND]");
    }
    if (starts_word(s, "if")) {
        const char *c = dbg_skip(s + 2);
        if (!*c) {
            dbg_loc_free(&loc);
            return dbg_error(d, "Argument required (boolean expression).");
        }
        b.cond = xstrdup(c);
        s += strlen(s);
    }
    if (*s) {
        dbg_loc_free(&loc);
        free(b.cond);
        return dbg_error(d, "Junk at end of arguments: '%s'", s);
    }
    if (have_loc) {
        if (loc.kind == LOC_LINE) {
            b.kind = BP_LINE;
            /* bound to its file: after `load` of another file it is pending */
            b.file = xstrdup(loc.file ? loc.file : diag_file_name(loc.rfile));
            b.line = loc.rline;
            b.rfile = loc.rfile;
            b.rline = loc.rline;
        } else {
            b.kind = BP_FUNC;
            b.func = xstrdup(loc.func);
        }
    }
    dbg_loc_free(&loc);
    const char *ws = dbg_skip(args);
    size_t wl = strlen(ws);
    const char *ifp = b.cond ? strstr(ws, " if ") : NULL;
    if (ifp) wl = (size_t)(ifp - ws);
    b.what = xstrndup(ws, wl);
    b.num = d->next_bp++;
    dbg_bp *nb = xmalloc(sizeof *nb);
    *nb = b;
    vec_push(&d->bps, nb);
    dbg_bp_resolve_all(d);
    strbuf o = { 0 };
    describe_bp(nb, &o);
    dbg_printf(d, "%s %d at %s.\n", temporary ? "Temporary breakpoint" : "Breakpoint", nb->num, o.s);
    sb_free(&o);
    if (nb->kind == BP_PID || nb->has_pid) {
        for (int k = 0; k < 3; k++)
            if (nb->pidf[k] >= 0 && nb->pidf[k] >= d->grid[k]) {
                fprintf(d->err, "warning: program %s is outside the grid (%" PRId64 ",%" PRId64 ",%" PRId64
                        "); the breakpoint cannot be hit.\n", dbg_pid_str(nb->pidf, (char[80]){ 0 }, 80),
                        d->grid[0], d->grid[1], d->grid[2]);
                fflush(d->err);
                break;
            }
    }
    return 0;
}

int dbg_cmd_break(dbg_session *d, const char *args) { return add_break(d, args, false); }
int dbg_cmd_tbreak(dbg_session *d, const char *args) { return add_break(d, args, true); }

/* ---- numbers: "1 3-5" --------------------------------------------------------- */

typedef int (*bp_fn)(dbg_session *d, dbg_bp *b, void *user);

static int for_numbers(dbg_session *d, const char *args, bp_fn fn, void *user)
{
    const char *s = dbg_skip(args);
    int rc = 0;
    while (*s) {
        int64_t a, b;
        const char *p = s;
        if (!dbg_parse_int(&p, &a)) return dbg_error(d, "Convenience variable must have integer value.\n"
                                                      "Bad breakpoint number '%s'", s);
        b = a;
        if (*p == '-') {
            p++;
            if (!dbg_parse_int(&p, &b)) return dbg_error(d, "Bad breakpoint range '%s'", s);
        }
        if (*p && !isspace((unsigned char)*p)) return dbg_error(d, "Bad breakpoint number '%s'", s);
        if (a == b) {
            dbg_bp *bp = a >= 0 && a <= INT_MAX ? dbg_bp_find(d, (int)a) : NULL;
            if (!bp) rc = dbg_error(d, "No breakpoint number %" PRId64 ".", a);
            else if (fn(d, bp, user)) rc = -1;
        } else {
            /* walk the breakpoints, not the range: a range may be huge, and
             * fn may delete (the numbers are taken first) */
            int nb = 0, *nums = xmalloc(((size_t)d->bps.n + 1) * sizeof *nums);
            for (int i = 0; i < d->bps.n; i++)
                if (d->bps.v[i]->num >= a && d->bps.v[i]->num <= b) nums[nb++] = d->bps.v[i]->num;
            for (int i = 0; i < nb; i++) {
                dbg_bp *bp = dbg_bp_find(d, nums[i]);
                if (bp && fn(d, bp, user)) rc = -1;
            }
            free(nums);
        }
        s = dbg_skip(p);
    }
    return rc;
}

static int do_delete(dbg_session *d, dbg_bp *b, void *u) { (void)u; dbg_bp_delete(d, b); return 0; }
static int do_enable(dbg_session *d, dbg_bp *b, void *u)
{
    int disp = *(int *)u;
    b->enabled = true;
    if (disp >= 0) b->disp = disp;
    dbg_bp_flags(d);
    return 0;
}
static int do_disable(dbg_session *d, dbg_bp *b, void *u) { (void)u; b->enabled = false; dbg_bp_flags(d); return 0; }

int dbg_cmd_delete(dbg_session *d, const char *args)
{
    const char *s = dbg_skip(args);
    if (starts_word(s, "breakpoints")) s = dbg_skip(s + 11);
    if (!*s) {
        dbg_bp_free_all(d);
        dbg_bp_flags(d);
        return 0;
    }
    return for_numbers(d, s, do_delete, NULL);
}

int dbg_cmd_disable(dbg_session *d, const char *args)
{
    const char *s = dbg_skip(args);
    if (starts_word(s, "breakpoints")) s = dbg_skip(s + 11);
    if (!*s) {
        for (int i = 0; i < d->bps.n; i++) d->bps.v[i]->enabled = false;
        dbg_bp_flags(d);
        return 0;
    }
    return for_numbers(d, s, do_disable, NULL);
}

int dbg_cmd_enable(dbg_session *d, const char *args)
{
    const char *s = dbg_skip(args);
    int disp = -1;
    if (starts_word(s, "breakpoints")) s = dbg_skip(s + 11);
    if (starts_word(s, "once")) { disp = DISP_DIS; s = dbg_skip(s + 4); }
    else if (starts_word(s, "delete")) { disp = DISP_DEL; s = dbg_skip(s + 6); }
    else if (starts_word(s, "keep")) { disp = DISP_KEEP; s = dbg_skip(s + 4); }
    if (!*s) {
        for (int i = 0; i < d->bps.n; i++) do_enable(d, d->bps.v[i], &disp);
        return 0;
    }
    return for_numbers(d, s, do_enable, &disp);
}

int dbg_cmd_condition(dbg_session *d, const char *args)
{
    const char *s = args;
    int64_t n;
    if (!dbg_parse_int(&s, &n)) return dbg_error(d, "Argument required (breakpoint number).");
    dbg_bp *b = n >= 0 && n <= INT_MAX ? dbg_bp_find(d, (int)n) : NULL;
    if (!b) return dbg_error(d, "No breakpoint number %" PRId64 ".", n);
    s = dbg_skip(s);
    free(b->cond);
    b->cond = NULL;
    if (!*s) {
        dbg_printf(d, "Breakpoint %d now unconditional.\n", b->num);
        return 0;
    }
    if (b->kind >= BP_WATCH) return dbg_error(d, "Conditions on watchpoints are not supported.");
    b->cond = xstrdup(s);
    return 0;
}

int dbg_cmd_ignore(dbg_session *d, const char *args)
{
    const char *s = args;
    int64_t n, c;
    if (!dbg_parse_int(&s, &n)) return dbg_error(d, "Argument required (a breakpoint number).");
    dbg_bp *b = n >= 0 && n <= INT_MAX ? dbg_bp_find(d, (int)n) : NULL;
    if (!b) return dbg_error(d, "No breakpoint number %" PRId64 ".", n);
    if (!dbg_parse_int(&s, &c) || !dbg_blank(s)) return dbg_error(d, "Second argument (specified ignore-count) is missing.");
    if (c < 0) c = 0;
    b->ignore = c;
    if (c == 0) dbg_printf(d, "Will stop next time breakpoint %d is reached.\n", b->num);
    else if (c == 1) dbg_printf(d, "Will ignore next crossing of breakpoint %d.\n", b->num);
    else dbg_printf(d, "Will ignore next %" PRId64 " crossings of breakpoint %d.\n", c, b->num);
    return 0;
}

/* The code locations of a line or function breakpoint: one per inline
 * instance that holds the line (or is a call of the function), with the
 * first op of each as its "address". Returns the count (at most max). */
typedef struct bp_site { int32_t inst; int g, level; } bp_site;

static int bp_sites(dbg_session *d, const dbg_bp *b, bp_site *out, int max)
{
    int n = 0;
    for (int g = 0; g < d->nops; g++) {
        const dbg_opinfo *oi = &d->ops[g];
        if (oi->pos < 0) continue;
        for (int j = 0; j <= oi->depth; j++) {
            const dbg_pos *p = &d->pos[oi->pos + j];
            bool match = b->kind == BP_LINE ? p->line == b->rline && p->file == b->rfile
                                            : j >= 1 && !strcmp(p->func, b->func);
            if (!match) continue;
            bool have = false;
            for (int k = 0; k < n && !have; k++) have = out[k].inst == p->inst && out[k].level == j;
            if (!have && n < max) out[n++] = (bp_site){ p->inst, g, j };
            break;
        }
    }
    return n;
}

static void site_text(dbg_session *d, const bp_site *st, strbuf *o)
{
    const dbg_pos *p = &d->pos[d->ops[st->g].pos];
    sb_printf(o, "in %s at %s:%d", p[st->level].func, diag_file_name(p[st->level].file), p[st->level].line);
    for (int k = st->level - 1; k >= 0; k--)
        sb_printf(o, "%s %s at :%d", k == st->level - 1 ? ", inlined from" : ",", p[k].func, p[k].line);
}

static void site_addr(dbg_session *d, int g, char *buf, size_t n)
{
    int r = d->gregion[g];
    snprintf(buf, n, "op %d:%d", r, g - d->opbase[r]);
}

static int info_bps(dbg_session *d, const char *args, bool watch_only)
{
    const char *s = dbg_skip(args);
    int64_t only = -1;
    if (*s && (!dbg_parse_int(&s, &only) || !dbg_blank(s))) return dbg_error(d, "usage: info breakpoints [N]");
    int shown = 0;
    for (int i = 0; i < d->bps.n; i++) {
        dbg_bp *b = d->bps.v[i];
        if (watch_only && b->kind < BP_WATCH) continue;
        if (only >= 0 && b->num != only) continue;
        if (!shown) dbg_printf(d, "Num     Type            Disp Enb Address    What\n");
        shown++;
        static const char *types[] = { "breakpoint", "breakpoint", "breakpoint", "watchpoint", "read watchpoint",
                                       "acc watchpoint" };
        static const char *disps[] = { "keep", "del", "dis" };
        strbuf o = { 0 };
        char pb[80], addr[32] = "";
        bp_site sites[64];
        int nsites = 0;
        switch (b->kind) {
        case BP_LINE:
            if (!b->rline) {
                sb_printf(&o, "%s:%d", b->file ? b->file : "?", b->line);
                snprintf(addr, sizeof addr, "<PENDING>");
                break;
            }
            /* fall through */
        case BP_FUNC:
            if (b->kind == BP_FUNC && b->func_is_kernel) {
                sb_printf(&o, "in %s at program start", b->func);
                site_addr(d, 0, addr, sizeof addr);
                break;
            }
            nsites = bp_sites(d, b, sites, 64);
            if (nsites == 0) {
                sb_printf(&o, "%s (not called by this kernel)", b->what);
                snprintf(addr, sizeof addr, "<PENDING>");
            } else if (nsites == 1) {
                site_text(d, &sites[0], &o);
                site_addr(d, sites[0].g, addr, sizeof addr);
            } else {
                snprintf(addr, sizeof addr, "<MULTIPLE>");
            }
            break;
        case BP_PID:
            sb_printf(&o, "program %s start", dbg_pid_str(b->pidf, pb, sizeof pb));
            break;
        default:
            sb_printf(&o, "%s", b->what);
        }
        char row[256];
        snprintf(row, sizeof row, "%-7d %-15s %-4s %-3s %-10s %s", b->num, types[b->kind], disps[b->disp],
                 b->enabled ? "y" : "n", addr, o.s ? o.s : "");
        size_t rl = strlen(row);
        while (rl && row[rl - 1] == ' ') row[--rl] = 0;
        dbg_printf(d, "%s\n", row);
        sb_free(&o);
        if (b->has_pid && b->kind != BP_PID) dbg_printf(d, "\tstop only in program %s\n", dbg_pid_str(b->pidf, pb, sizeof pb));
        if (b->cond) dbg_printf(d, "\tstop only if %s\n", b->cond);
        if (b->hits)
            dbg_printf(d, "\t%s already hit %" PRId64 " time%s\n", b->kind >= BP_WATCH ? "watchpoint" : "breakpoint",
                       b->hits, b->hits == 1 ? "" : "s");
        if (b->ignore) dbg_printf(d, "\tWill ignore next %" PRId64 " crossings of breakpoint.\n", b->ignore);
        /* one row per inlined copy, as gdb lists the locations of a breakpoint */
        for (int k = 0; nsites > 1 && k < nsites; k++) {
            char num[32];
            snprintf(num, sizeof num, "%d.%d", b->num, k + 1);
            site_addr(d, sites[k].g, addr, sizeof addr);
            strbuf t = { 0 };
            site_text(d, &sites[k], &t);
            dbg_printf(d, "%-7s %-15s %-4s %-3s %-10s %s\n", num, "", "", b->enabled ? "y" : "n", addr, t.s);
            sb_free(&t);
        }
    }
    if (!shown) {
        if (only >= 0) return dbg_error(d, "No breakpoint or watchpoint matching '%" PRId64 "'.", only);
        dbg_printf(d, watch_only ? "No watchpoints.\n" : "No breakpoints or watchpoints.\n");
    }
    return 0;
}

int dbg_cmd_info_breakpoints(dbg_session *d, const char *args) { return info_bps(d, args, false); }
int dbg_cmd_info_watchpoints(dbg_session *d, const char *args) { return info_bps(d, args, true); }
