/* session.c — a debug session: loading a kernel, the live launch (fresh
 * inputs + interpreter session), the worker thread that runs programs, and
 * the stop/resume handshake between the worker and the main thread. */
#include "dbg_int.h"

#include <inttypes.h>

/* ---- creation ------------------------------------------------------------ */

dbg_session *dbg_new(FILE *out, FILE *err)
{
    dbg_session *d = xcalloc(1, sizeof *d);
    d->out = out ? out : stdout;
    d->err = err ? err : stderr;
    interp_options_default(&d->iopt);
    pthread_mutex_init(&d->mu, NULL);
    pthread_cond_init(&d->cv, NULL);
    d->next_bp = 1;
    d->next_display = 1;
    d->cur = -1;
    d->next_req = -1;
    d->stop_on_fault = true;
    d->print_elements = 1000;
    d->sched_mode = SCHED_MODE_AUTO;
    d->prev_stop_prog = -1;
    d->list_file = -1;
    return d;
}

static void unload(dbg_session *d)
{
    dbg_live_free(d);
    dbg_expr_cache_clear(d);
    dbg_ops_free(d);
    if (d->fn) ir_func_free(d->fn);
    d->fn = NULL;
    if (d->loaded) launch_free(&d->pristine);
    d->loaded = false;
    free(d->kernel);
    d->kernel = NULL;
    for (int i = 0; i < d->lines.n; i++) {
        free(d->lines.v[i].stmt);
        free(d->lines.v[i].code);
    }
    d->lines.n = 0;
}

void dbg_free(dbg_session *d)
{
    if (!d) return;
    unload(d);
    vec_free(&d->lines);
    dbg_bp_free_all(d);
    vec_free(&d->bps);
    for (int i = 0; i < d->displays.n; i++) free(d->displays.v[i].expr);
    vec_free(&d->displays);
    dbg_history_clear(d);
    vec_free(&d->history);
    vec_free(&d->exprs);
    sb_free(&d->stop_msg);
    arena_free(&d->names);
    pthread_mutex_destroy(&d->mu);
    pthread_cond_destroy(&d->cv);
    free(d);
}

void dbg_set_interp_options(dbg_session *d, const interp_options *o) { d->iopt = *o; }

bool dbg_load(dbg_session *d, front_module *m, const char *kernel, const launch *l)
{
    int before = diag_error_count();
    FILE *saved = diag_set_stream(d->err);
    ir_func *fn = front_compile(m, kernel, l);
    diag_set_stream(saved);
    if (!fn) {
        if (diag_error_count() == before) dbg_error(d, "cannot compile kernel '%s'", kernel);
        return false;
    }
    const front_param *params;
    int np = front_params(m, kernel, &params);
    unload(d);
    d->mod = m;
    d->kernel = xstrdup(kernel);
    d->kfile = front_file(m);
    d->params = params;
    d->nparams = np < 0 ? 0 : np;
    launch_copy(&d->pristine, l);
    d->loaded = true;
    d->fn = fn;
    for (int k = 0; k < 3; k++) d->grid[k] = l->grid[k] > 0 ? l->grid[k] : (l->grid[k] == 0 ? 0 : 1);
    d->nprog = d->grid[0] * d->grid[1] * d->grid[2];
    dbg_ops_build(d);
    dbg_bp_resolve_all(d);
    d->stop = (dbg_stop_info){ 0 };
    d->cur = -1;
    d->in_prog = false;
    d->next_req = -1;
    d->finished = false;
    d->launch_status = 0;
    d->list_file = -1;
    /* a session right away: buffers get addresses, `x` and `info buffers` work */
    return dbg_live_new(d);
}

/* ---- the live launch ---------------------------------------------------- */

void dbg_live_free(dbg_session *d)
{
    if (d->th_alive) {
        /* abort a running launch */
        pthread_mutex_lock(&d->mu);
        while (d->wstate == W_RUNNING) pthread_cond_wait(&d->cv, &d->mu);
        if (d->wstate == W_STOPPED) {
            d->resume = R_ABORT;
            pthread_cond_broadcast(&d->cv);
            while (d->wstate != W_DONE) pthread_cond_wait(&d->cv, &d->mu);
        }
        pthread_mutex_unlock(&d->mu);
        pthread_join(d->th, NULL);
        d->th_alive = false;
    }
    d->wstate = W_NONE;
    if (d->s) interp_session_free(d->s);
    d->s = NULL;
    if (d->have_live) launch_free(&d->live);
    d->have_live = false;
    free(d->done);
    d->done = NULL;
    d->in_prog = false;
}

bool dbg_live_new(dbg_session *d)
{
    dbg_live_free(d);
    if (!d->loaded) return false;
    launch_copy(&d->live, &d->pristine);
    d->have_live = true;
    interp_options o = d->iopt;
    o.sched = SCHED_IN_ORDER;
    o.report = d->err;
    o.output = d->out;                 /* device_print lines join the transcript */
    fflush(d->out);
    d->s = interp_session_new(d->fn, &d->live, &o);
    if (!d->s) {
        launch_free(&d->live);
        d->have_live = false;
        return false;
    }
    interp_set_hook(d->s, dbg_hook, d);
    interp_set_trap(d->s, false);
    size_t nb = (size_t)((d->nprog + 7) / 8);
    d->done = calloc(nb ? nb : 1, 1);
    if (!d->done) {
        dbg_error(d, "the grid has too many programs (%" PRId64 ") to track", d->nprog);
        interp_session_free(d->s);
        d->s = NULL;
        launch_free(&d->live);
        d->have_live = false;
        return false;
    }
    d->ndone = 0;
    d->cur = -1;
    d->in_prog = false;
    memset(&d->last_stats, 0, sizeof d->last_stats);
    return true;
}

/* ---- the worker ----------------------------------------------------------- */

int dbg_worker_wait(dbg_session *d)
{
    pthread_mutex_lock(&d->mu);
    FLAG_SET(d->running, 0);
    d->wstate = W_STOPPED;
    d->resume = R_NONE;
    pthread_cond_broadcast(&d->cv);
    while (d->resume == R_NONE) pthread_cond_wait(&d->cv, &d->mu);
    int r = d->resume;
    d->wstate = W_RUNNING;
    FLAG_SET(d->running, 1);
    pthread_mutex_unlock(&d->mu);
    return r;
}

static bool new_problems(dbg_session *d, interp_stats *now)
{
    interp_get_stats(d->s, now);
    return now->fault_lanes > d->last_stats.fault_lanes || now->races > d->last_stats.races ||
           now->uninit_reads > d->last_stats.uninit_reads;
}

/* A program finished with problems and the trap was off: stop after it. */
static int stop_after_program(dbg_session *d, const interp_stats *now)
{
    char pb[80];
    int64_t pid[3];
    interp_pid_of(d->grid, d->cur, pid);
    d->stop_msg.len = 0;
    if (d->stop_msg.s) d->stop_msg.s[0] = 0;
    sb_printf(&d->stop_msg, "\nProgram %s ", dbg_pid_str(pid, pb, sizeof pb));
    int64_t fl = now->fault_lanes - d->last_stats.fault_lanes;
    int64_t rc = now->races - d->last_stats.races;
    int64_t ur = now->uninit_reads - d->last_stats.uninit_reads;
    const char *sep = "";
    if (fl) { sb_printf(&d->stop_msg, "faulted (%" PRId64 " lane%s)", fl, fl == 1 ? "" : "s"); sep = ", "; }
    if (rc) { sb_printf(&d->stop_msg, "%sraced (%" PRId64 " access%s)", sep, rc, rc == 1 ? "" : "es"); sep = ", "; }
    if (ur) sb_printf(&d->stop_msg, "%sread %" PRId64 " uninitialized element%s", sep, ur, ur == 1 ? "" : "s");
    sb_printf(&d->stop_msg, "; see the report above. It has finished.\n");
    d->last_stats = *now;
    d->stop = (dbg_stop_info){ .reason = DBG_STOP_FAULT, .in_program = false };
    memcpy(d->stop.pid, pid, sizeof pid);
    d->in_prog = false;
    return dbg_worker_wait(d);
}

static void *worker_main(void *arg)
{
    dbg_session *d = arg;
    int64_t lin;
    while ((lin = dbg_sched_next(d)) >= 0) {
        int64_t pid[3];
        interp_pid_of(d->grid, lin, pid);
        dbg_set_done(d, lin);
        d->cur = lin;
        d->in_prog = true;
        d->pstart = true;
        d->pp_depth = -1;
        d->pp_n = d->pi_n = 0;
        d->prev_g = -1;
        d->wpend.active = false;
        bool trap = dbg_prog_needs_trap(d, lin);
        d->need_trap = trap;
        interp_set_trap(d->s, trap || FLAG_GET(d->interrupt));
        int rc = interp_run_program(d->s, pid);
        d->in_prog = false;
        if (rc < 0) break;                     /* aborted at a stop */
        int how = R_GO;
        if (d->wpend.active) {                 /* a store with no op after it */
            int reason = 0, bpn = 0;
            d->stop_msg.len = 0;
            if (d->stop_msg.s) d->stop_msg.s[0] = 0;
            dbg_watch_finish(d, &reason, &bpn);
            d->stop = (dbg_stop_info){ .reason = DBG_STOP_WATCH, .bp = bpn, .in_program = false };
            memcpy(d->stop.pid, pid, sizeof pid);
            how = dbg_worker_wait(d);
        }
        interp_stats now;
        if (how == R_GO && new_problems(d, &now)) {
            if (d->stop_on_fault) how = stop_after_program(d, &now);
            else d->last_stats = now;
        }
        if (how == R_ABORT) break;
        if (d->step.kind != STEP_NONE) d->step.newprog = true;
    }
    pthread_mutex_lock(&d->mu);
    d->finished = lin < 0;
    FLAG_SET(d->running, 0);
    d->wstate = W_DONE;
    pthread_cond_broadcast(&d->cv);
    pthread_mutex_unlock(&d->mu);
    return NULL;
}

/* Wait until the worker stops or ends. */
static void wait_worker(dbg_session *d)
{
    pthread_mutex_lock(&d->mu);
    while (d->wstate == W_RUNNING) pthread_cond_wait(&d->cv, &d->mu);
    int st = d->wstate;
    pthread_mutex_unlock(&d->mu);
    if (st == W_DONE) {
        pthread_join(d->th, NULL);
        d->th_alive = false;
        d->wstate = W_NONE;
        d->in_prog = false;
        d->step.kind = STEP_NONE;
        d->stop = (dbg_stop_info){ 0 };
        d->sel_frame = 0;
        dbg_launch_end_report(d);
    } else {
        d->sel_frame = 0;
    }
}

/* Ctrl-C that came during this command before the launch ran (dbg_interrupt
 * saw no running launch): the launch stops at its first op instead. Called
 * after `running` is set, so a later signal takes the running path. */
static void take_pending_quit(dbg_session *d)
{
    if (!FLAG_GET(d->quit)) return;
    FLAG_SET(d->quit, 0);
    FLAG_SET(d->interrupt, 1);
    if (d->s) interp_set_trap(d->s, true);
}

void dbg_launch_start(dbg_session *d)
{
    d->wstate = W_RUNNING;
    d->resume = R_NONE;
    FLAG_SET(d->running, 1);
    take_pending_quit(d);
    d->finished = false;
    fflush(d->out);
    if (pthread_create(&d->th, NULL, worker_main, d) != 0) {
        d->wstate = W_NONE;
        FLAG_SET(d->running, 0);
        dbg_error(d, "cannot start the launch thread");
        return;
    }
    d->th_alive = true;
    wait_worker(d);
}

void dbg_resume(dbg_session *d, int how)
{
    if (!d->th_alive) return;
    fflush(d->out);
    pthread_mutex_lock(&d->mu);
    d->resume = how;
    d->wstate = W_RUNNING;
    FLAG_SET(d->running, 1);
    take_pending_quit(d);
    pthread_cond_broadcast(&d->cv);
    pthread_mutex_unlock(&d->mu);
    wait_worker(d);
}

void dbg_launch_end_report(dbg_session *d)
{
    if (!d->s) return;
    interp_stats st;
    interp_get_stats(d->s, &st);
    bool bad = st.fault_lanes || st.races || st.uninit_reads;
    d->launch_status = bad ? 1 : 0;
    if (!d->finished) {
        dbg_printf(d, "[Launch killed after %" PRId64 " program%s]\n", st.programs, st.programs == 1 ? "" : "s");
        return;
    }
    if (!bad) {
        dbg_printf(d, "[Launch finished normally: %" PRId64 " program%s]\n", st.programs, st.programs == 1 ? "" : "s");
        return;
    }
    dbg_printf(d, "[Launch finished with problems: %" PRId64 " program%s, %" PRId64 " fault%s (%" PRId64
               " lane%s), %" PRId64 " racing access%s, %" PRId64 " uninitialized read%s]\n",
               st.programs, st.programs == 1 ? "" : "s", st.faults, st.faults == 1 ? "" : "s", st.fault_lanes,
               st.fault_lanes == 1 ? "" : "s", st.races, st.races == 1 ? "" : "es", st.uninit_reads,
               st.uninit_reads == 1 ? "" : "s");
}

/* ---- state queries ---------------------------------------------------------- */

const launch *dbg_finished_launch(const dbg_session *d)
{
    return dbg_get_state(d) == DBG_IDLE && d->have_live && d->finished ? &d->live : NULL;
}

dbg_state dbg_get_state(const dbg_session *d)
{
    return d->th_alive && d->wstate == W_STOPPED ? DBG_STOPPED : DBG_IDLE;
}

void dbg_get_stop(const dbg_session *d, dbg_stop_info *out)
{
    if (dbg_get_state(d) != DBG_STOPPED) {
        memset(out, 0, sizeof *out);
        return;
    }
    *out = d->stop;
}

int dbg_launch_status(const dbg_session *d) { return d->launch_status; }

bool dbg_interrupt(dbg_session *d)
{
    if (FLAG_GET(d->running) && d->s) {
        FLAG_SET(d->interrupt, 1);
        interp_set_trap(d->s, true);
        return true;
    }
    if (!FLAG_GET(d->busy)) return false;
    FLAG_SET(d->quit, 1);
    return true;
}

void dbg_command_begin(dbg_session *d)
{
    FLAG_SET(d->quit, 0);
    d->quit_said = false;
    FLAG_SET(d->busy, 1);
}

bool dbg_command_end(dbg_session *d)
{
    FLAG_SET(d->busy, 0);
    bool q = FLAG_GET(d->quit) != 0;
    FLAG_SET(d->quit, 0);
    d->quit_said = false;
    return q;
}

bool dbg_running(const dbg_session *d) { return FLAG_GET(d->running) != 0; }
