/* exec.c — execution commands (run, start, continue, step, next, stepi,
 * finish, until, advance, kill) and the report printed at each stop, in
 * gdb's words:
 *
 *   Breakpoint 1, program (3,0,0) scale_kernel () at examples/oob_bug.py:34
 *   34	    x = tl.load(x_ptr + offsets)  # BUG: ...
 *
 * A step that runs off the end of a program stops at the first line of the
 * next program the schedule runs ("[Switching to program (4,0,0)]"). */
#include "dbg_int.h"

#include <inttypes.h>

static int not_running(dbg_session *d) { return dbg_error(d, "The program is not being run."); }

static void frame_header(dbg_session *d)
{
    char pb[80];
    dbg_printf(d, "program %s %s () at %s:%d\n", dbg_pid_str(d->stop.pid, pb, sizeof pb),
               d->stop.func ? d->stop.func : d->kernel, d->stop.file ? d->stop.file : "?", d->stop.line);
}

/* The instance of the innermost frame shown. */
static int32_t stop_inst(dbg_session *d)
{
    dbg_frameinfo fr[1];
    return dbg_frames(d, fr, 1) ? fr[0].inst : -1;
}

static void print_source(dbg_session *d)
{
    if (d->stop.line > 0 && d->stop_file >= 0) dbg_print_src_line(d, d->stop_file, d->stop.line);
}

static void print_stop(dbg_session *d)
{
    if (dbg_get_state(d) != DBG_STOPPED) return;
    char pb[80];
    dbg_stop_info *st = &d->stop;
    bool newprog = st->pid[0] != -1 && interp_lin_of(d->grid, st->pid) != d->prev_stop_prog;
    if (d->stop_msg.len) dbg_printf(d, "%s", d->stop_msg.s);
    switch (st->reason) {
    case DBG_STOP_BREAKPOINT: {
        dbg_bp *b = dbg_bp_find(d, st->bp);
        bool temp = b && b->disp == DISP_DEL;
        dbg_printf(d, "\n%s %d, ", temp ? "Temporary breakpoint" : "Breakpoint", st->bp);
        frame_header(d);
        print_source(d);
        if (b && b->disp == DISP_DEL) dbg_bp_delete(d, b);
        else if (b && b->disp == DISP_DIS) {
            b->enabled = false;
            b->disp = DISP_KEEP;
            dbg_bp_flags(d);
        }
        break;
    }
    case DBG_STOP_STEP:
    case DBG_STOP_PROGRAM:
        if (newprog) {
            dbg_printf(d, "[Switching to program %s]\n", dbg_pid_str(st->pid, pb, sizeof pb));
            frame_header(d);
        } else if (stop_inst(d) != d->prev_stop_inst || (st->func && d->prev_stop_func && strcmp(st->func, d->prev_stop_func))) {
            frame_header(d);
        }
        print_source(d);
        break;
    case DBG_STOP_WATCH:
    case DBG_STOP_INTERRUPT:
    case DBG_STOP_FAULT:
        if (st->reason == DBG_STOP_INTERRUPT) dbg_printf(d, "\nProgram received signal SIGINT, Interrupt.\n");
        if (st->in_program) {
            frame_header(d);
            print_source(d);
        }
        break;
    default:
        break;
    }
    d->prev_stop_prog = interp_lin_of(d->grid, st->pid);
    d->prev_stop_inst = st->in_program ? stop_inst(d) : -2;
    d->prev_stop_func = st->func;
    d->list_file = -1;
    if (st->in_program) dbg_show_displays(d);
    fflush(d->out);
}

static void clear_step(dbg_session *d) { memset(&d->step, 0, sizeof d->step); }

static void go(dbg_session *d)
{
    FLAG_SET(d->interrupt, 0);
    dbg_resume(d, R_GO);
    clear_step(d);
    print_stop(d);
}

/* run and start: a fresh launch; start stops at the first line (gdb's start) */
static int begin_launch(dbg_session *d, const char *args, bool stop_at_first_line)
{
    if (!d->loaded) return dbg_error(d, "No kernel loaded; use `load FILE.py[:KERNEL]`.");
    if (!dbg_blank(args))
        return dbg_error(d, "%s takes no arguments here; change the launch with `set arg`, `set grid`, `set const`.",
                         stop_at_first_line ? "start" : "run");
    if (!dbg_live_new(d)) return dbg_error(d, "cannot start the launch");
    char sb[64];
    dbg_printf(d, "Starting launch: %s, grid (%" PRId64 ",%" PRId64 ",%" PRId64 "), %" PRId64 " program%s, schedule %s\n",
               d->kernel, d->grid[0], d->grid[1], d->grid[2], d->nprog, d->nprog == 1 ? "" : "s",
               dbg_sched_name(d, sb, sizeof sb));
    dbg_sched_reset(d);
    FLAG_SET(d->interrupt, 0);
    d->launch_status = 0;
    d->prev_stop_prog = -1;
    d->sel_frame = 0;
    clear_step(d);
    if (stop_at_first_line) {
        d->step.kind = STEP_INTO;
        d->step.count = 1;
        d->step.newprog = true;
    }
    dbg_launch_start(d);
    if (stop_at_first_line) clear_step(d);
    print_stop(d);
    return 0;
}

int dbg_cmd_run(dbg_session *d, const char *args) { return begin_launch(d, args, false); }
int dbg_cmd_start(dbg_session *d, const char *args) { return begin_launch(d, args, true); }

int dbg_cmd_continue(dbg_session *d, const char *args)
{
    if (dbg_get_state(d) != DBG_STOPPED) return not_running(d);
    const char *s = args;
    int64_t n = 1;
    if (!dbg_blank(s) && (!dbg_parse_int(&s, &n) || !dbg_blank(s) || n < 1)) return dbg_error(d, "usage: continue [N]");
    if (n > 1) {
        dbg_bp *b = d->stop.reason == DBG_STOP_BREAKPOINT ? dbg_bp_find(d, d->stop.bp) : NULL;
        if (!b) dbg_error(d, "Not stopped at any breakpoint; argument ignored.");
        else {
            b->ignore = n - 1;
            dbg_printf(d, "Will ignore next %" PRId64 " crossings of breakpoint %d.  Continuing.\n", n - 1, b->num);
        }
    } else {
        dbg_printf(d, "Continuing.\n");
    }
    clear_step(d);
    go(d);
    return 0;
}

/* The selected frame as (outer index, instance). */
static void sel_frame_pos(dbg_session *d, int *fdepth, int32_t *finst, int *file, int *line)
{
    dbg_frameinfo fr[DBG_MAX_FRAMES];
    int n = dbg_frames(d, fr, DBG_MAX_FRAMES);
    int k = d->sel_frame < n ? d->sel_frame : 0;
    *fdepth = n > 0 ? n - 1 - k : 0;
    *finst = n > 0 ? fr[k].inst : -1;
    *file = n > 0 ? fr[k].file : -1;
    *line = n > 0 ? fr[k].line : 0;
}

static int do_step(dbg_session *d, const char *args, int kind)
{
    if (dbg_get_state(d) != DBG_STOPPED) return not_running(d);
    const char *s = args;
    int64_t n = 1;
    if (!dbg_blank(s) && (!dbg_parse_int(&s, &n) || !dbg_blank(s) || n < 1)) return dbg_error(d, "usage: step [N]");
    /* stopped at a call whose inlined frames are not shown yet: `step`
     * enters them without running anything, as gdb does with inline frames */
    while (kind == STEP_INTO && n > 0 && d->in_prog && d->hidden > 0 && d->sel_frame == 0) {
        d->hidden--;
        d->vlevel++;
        n--;
        dbg_frameinfo fr[1];
        dbg_frames(d, fr, 1);
        d->stop.line = fr[0].line;
        d->stop.func = fr[0].func;
        d->stop.depth = d->vlevel;
        d->stop_file = fr[0].file;
        d->stop.file = fr[0].file >= 0 ? diag_file_name(fr[0].file) : NULL;
        d->stop.reason = DBG_STOP_STEP;
        if (n == 0) {
            print_stop(d);
            return 0;
        }
    }
    clear_step(d);
    d->step.kind = kind;
    d->step.count = n;
    d->step.prog = d->cur;
    sel_frame_pos(d, &d->step.fdepth, &d->step.finst, &d->step.file, &d->step.line);
    d->step.newprog = !d->in_prog;
    go(d);
    return 0;
}

int dbg_cmd_step(dbg_session *d, const char *args) { return do_step(d, args, STEP_INTO); }
int dbg_cmd_next(dbg_session *d, const char *args) { return do_step(d, args, STEP_OVER); }
int dbg_cmd_stepi(dbg_session *d, const char *args) { return do_step(d, args, STEP_INSN); }

int dbg_cmd_finish(dbg_session *d, const char *args)
{
    if (dbg_get_state(d) != DBG_STOPPED) return not_running(d);
    if (!dbg_blank(args)) return dbg_error(d, "finish takes no arguments");
    if (!d->in_prog) return dbg_error(d, "\"finish\" not meaningful: the program has finished.");
    dbg_frameinfo fr[DBG_MAX_FRAMES];
    int n = dbg_frames(d, fr, DBG_MAX_FRAMES);
    int k = d->sel_frame < n ? d->sel_frame : 0;
    if (k == n - 1) return dbg_error(d, "\"finish\" not meaningful in the outermost frame.");
    dbg_printf(d, "Run till exit from #%d  %s () at %s:%d\n", k, fr[k].func,
               fr[k].file >= 0 ? diag_file_name(fr[k].file) : "?", fr[k].line);
    clear_step(d);
    d->step.kind = STEP_FINISH;
    d->step.count = 1;
    d->step.prog = d->cur;
    sel_frame_pos(d, &d->step.fdepth, &d->step.finst, &d->step.file, &d->step.line);
    go(d);
    return 0;
}

static int to_location(dbg_session *d, const char *args, int kind)
{
    if (dbg_get_state(d) != DBG_STOPPED) return not_running(d);
    clear_step(d);
    const char *s = dbg_skip(args);
    if (*s) {
        dbg_loc loc;
        if (!dbg_parse_location(d, &s, &loc)) return -1;
        if (!dbg_blank(s)) {
            dbg_loc_free(&loc);
            return dbg_error(d, "Junk at end of arguments: '%s'", dbg_skip(s));
        }
        d->step.tfile = loc.rfile;
        d->step.tline = loc.rline;
        dbg_loc_free(&loc);
        if (!d->step.tline) return dbg_error(d, "No line found for the location.");
    } else if (kind == STEP_TO) {
        return dbg_error(d, "Argument required (a location).");
    }
    d->step.kind = kind;
    d->step.count = 1;
    d->step.prog = d->cur;
    sel_frame_pos(d, &d->step.fdepth, &d->step.finst, &d->step.file, &d->step.line);
    d->step.newprog = !d->in_prog;
    go(d);
    return 0;
}

int dbg_cmd_until(dbg_session *d, const char *args) { return to_location(d, args, STEP_UNTIL); }
int dbg_cmd_advance(dbg_session *d, const char *args) { return to_location(d, args, STEP_TO); }

int dbg_cmd_kill(dbg_session *d, const char *args)
{
    (void)args;
    if (dbg_get_state(d) != DBG_STOPPED) return not_running(d);
    clear_step(d);
    dbg_resume(d, R_ABORT);
    return 0;
}
