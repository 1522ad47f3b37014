/* sched.c — which program runs next, and `info programs` / `program` /
 * `schedule`.
 *
 * The engine runs programs one at a time (interp_run_program) in an order it
 * chooses. Base orders: in-order (linear id x + gx*(y + gy*z), x fastest, as
 * Triton launches), reverse, and random SEED: interp_order_at, the order of
 * `tritium run --schedule random:SEED` (no table, so big grids cost
 * nothing). The default
 * schedule, `auto`, runs the programs named by pid breakpoints (and by the
 * pid filters of line breakpoints) first, then the rest in order: with
 * `break pid (1048575)` on a grid of 2^20 programs the stop comes without
 * interpreting the programs before it. A program chosen with `program` runs
 * before anything else. A bitmap records which programs have started. */
#include "dbg_int.h"

#include <inttypes.h>

bool dbg_done(const dbg_session *d, int64_t lin)
{
    return d->done && (d->done[lin >> 3] >> (lin & 7)) & 1;
}

void dbg_set_done(dbg_session *d, int64_t lin)
{
    if (!dbg_done(d, lin)) d->ndone++;
    d->done[lin >> 3] |= (uint8_t)(1u << (lin & 7));
}

/* The base order (everything but `auto`'s pid-breakpoint layer) is the
 * interpreter's (interp_order_at), so `schedule random S` replays the order
 * of `tritium run --schedule random:S`. */
static interp_sched base_kind(int mode)
{
    switch (mode) {
    case SCHED_MODE_REVERSE: return SCHED_REVERSE;
    case SCHED_MODE_RANDOM: return SCHED_RANDOM;
    default: return SCHED_IN_ORDER;
    }
}

void dbg_sched_reset(dbg_session *d)
{
    d->base_cursor = 0;
    for (int i = 0; i < d->bps.n; i++) d->bps.v[i]->cursor = 0;
    interp_order_init(&d->order, base_kind(d->sched_mode), d->sched_seed, d->nprog);
}

/* The pid box of a filter: per dimension [lo, hi]. */
static int64_t box(const dbg_session *d, const int64_t f[3], int64_t lo[3], int64_t n[3])
{
    int64_t total = 1;
    for (int k = 0; k < 3; k++) {
        if (f[k] < 0) { lo[k] = 0; n[k] = d->grid[k]; }
        else if (f[k] < d->grid[k]) { lo[k] = f[k]; n[k] = 1; }
        else { lo[k] = 0; n[k] = 0; }
        total *= n[k];
    }
    return total;
}

int64_t dbg_sched_next(dbg_session *d)
{
    if (d->next_req >= 0) {
        int64_t r = d->next_req;
        d->next_req = -1;
        if (!dbg_done(d, r)) {
            d->next_req_hit = true;
            return r;
        }
    }
    if (d->sched_mode == SCHED_MODE_AUTO) {
        for (int i = 0; i < d->bps.n; i++) {
            dbg_bp *b = d->bps.v[i];
            if (!b->enabled || !b->has_pid || b->kind > BP_PID) continue;
            int64_t lo[3], n[3];
            int64_t total = box(d, b->pidf, lo, n);
            for (; b->cursor < total; b->cursor++) {
                int64_t pid[3];
                interp_pid_of(n, b->cursor, pid);
                for (int k = 0; k < 3; k++) pid[k] += lo[k];
                int64_t lin = interp_lin_of(d->grid, pid);
                if (!dbg_done(d, lin)) return lin;
            }
        }
    }
    for (; d->base_cursor < d->nprog; d->base_cursor++) {
        int64_t lin = interp_order_at(&d->order, d->base_cursor);
        if (!dbg_done(d, lin)) return lin;
    }
    return -1;
}

const char *dbg_sched_name(const dbg_session *d, char *buf, size_t n)
{
    switch (d->sched_mode) {
    case SCHED_MODE_IN_ORDER: snprintf(buf, n, "in-order"); break;
    case SCHED_MODE_REVERSE: snprintf(buf, n, "reverse"); break;
    case SCHED_MODE_RANDOM: snprintf(buf, n, "random %" PRIu64, d->sched_seed); break;
    default: snprintf(buf, n, "auto"); break;
    }
    return buf;
}

/* ---- schedule ------------------------------------------------------------- */

int dbg_cmd_schedule(dbg_session *d, const char *args)
{
    const char *s = dbg_skip(args);
    char buf[64];
    if (!*s) {
        dbg_printf(d, "Schedule: %s.\n", dbg_sched_name(d, buf, sizeof buf));
        return 0;
    }
    size_t n = strcspn(s, " \t");
    int mode;
    uint64_t seed = 0;
    if (n && !strncmp(s, "auto", n) && n <= 4) mode = SCHED_MODE_AUTO;
    else if (n && !strncmp(s, "in-order", n) && n <= 8) mode = SCHED_MODE_IN_ORDER;
    else if (n && !strncmp(s, "reverse", n) && n <= 7) mode = SCHED_MODE_REVERSE;
    else if (n && !strncmp(s, "random", n) && n <= 6) {
        const char *p = s + n;
        int64_t v;
        if (!dbg_parse_int(&p, &v)) return dbg_error(d, "usage: schedule random SEED");
        if (!dbg_blank(p)) return dbg_error(d, "junk after the seed: '%s'", dbg_skip(p));
        mode = SCHED_MODE_RANDOM;
        seed = (uint64_t)v;
        n = (size_t)(p - s);
    } else {
        return dbg_error(d, "unknown schedule '%.*s' (auto, in-order, reverse, random SEED)", (int)n, s);
    }
    if (!dbg_blank(s + n)) return dbg_error(d, "junk after the schedule: '%s'", dbg_skip(s + n));
    d->sched_mode = mode;
    d->sched_seed = seed;
    if (d->th_alive) dbg_sched_reset(d);   /* programs not started yet follow the new order */
    dbg_printf(d, "Schedule: %s.\n", dbg_sched_name(d, buf, sizeof buf));
    return 0;
}

/* ---- program ---------------------------------------------------------------- */

int dbg_cmd_program(dbg_session *d, const char *args)
{
    char pb[80];
    if (!d->loaded) return dbg_error(d, "No kernel loaded.");
    if (dbg_blank(args)) {
        if (dbg_get_state(d) == DBG_STOPPED) {
            int64_t pid[3];
            interp_pid_of(d->grid, d->cur, pid);
            dbg_printf(d, "[Current program is %s%s]\n", dbg_pid_str(pid, pb, sizeof pb),
                       d->in_prog ? "" : ", finished");
        } else {
            dbg_printf(d, "No program is stopped.\n");
        }
        if (d->next_req >= 0) {
            int64_t pid[3];
            interp_pid_of(d->grid, d->next_req, pid);
            dbg_printf(d, "Program %s runs next.\n", dbg_pid_str(pid, pb, sizeof pb));
        }
        return 0;
    }
    const char *s = args;
    int64_t pid[3];
    if (!dbg_parse_pid(&s, pid, false) || !dbg_blank(s))
        return dbg_error(d, "usage: program (x[,y[,z]])");
    for (int k = 0; k < 3; k++)
        if (pid[k] >= d->grid[k])
            return dbg_error(d, "program %s is outside the grid (%" PRId64 ",%" PRId64 ",%" PRId64 ")",
                             dbg_pid_str(pid, pb, sizeof pb), d->grid[0], d->grid[1], d->grid[2]);
    int64_t lin = interp_lin_of(d->grid, pid);
    bool active = dbg_get_state(d) == DBG_STOPPED;
    if (active && d->in_prog && lin == d->cur) {
        d->sel_frame = 0;
        dbg_printf(d, "[Switching focus to program %s]\n", dbg_pid_str(pid, pb, sizeof pb));
        dbg_print_frame_line(d, 0, false);
        return 0;
    }
    if (active && dbg_done(d, lin))
        return dbg_error(d, "program %s has finished; `run` restarts the launch", dbg_pid_str(pid, pb, sizeof pb));
    d->next_req = lin;
    if (active && d->in_prog) {
        int64_t cp[3];
        char cb[80];
        interp_pid_of(d->grid, d->cur, cp);
        dbg_printf(d, "Program %s will run next, when program %s finishes; it stops when it starts.\n",
                   dbg_pid_str(pid, pb, sizeof pb), dbg_pid_str(cp, cb, sizeof cb));
    } else {
        dbg_printf(d, "Program %s will run next; it stops when it starts.\n", dbg_pid_str(pid, pb, sizeof pb));
    }
    return 0;
}

/* ---- info programs ---------------------------------------------------------- */

static void print_range(dbg_session *d, int64_t a, int64_t b, const char *state)
{
    char p1[80], p2[80];
    int64_t pa[3], pbb[3];
    interp_pid_of(d->grid, a, pa);
    interp_pid_of(d->grid, b, pbb);
    int64_t n = b - a + 1;
    if (a == b) dbg_printf(d, "  %-36s %s\n", dbg_pid_str(pa, p1, sizeof p1), state);
    else {
        char r[170];
        snprintf(r, sizeof r, "%s-%s", dbg_pid_str(pa, p1, sizeof p1), dbg_pid_str(pbb, p2, sizeof p2));
        dbg_printf(d, "  %-36s %-9s (%" PRId64 " programs)\n", r, state, n);
    }
}

int dbg_cmd_info_programs(dbg_session *d, const char *args)
{
    (void)args;
    if (!d->loaded) return dbg_error(d, "No kernel loaded.");
    char sb[64], pb[80];
    bool active = dbg_get_state(d) == DBG_STOPPED;
    dbg_printf(d, "Grid (%" PRId64 ",%" PRId64 ",%" PRId64 "): %" PRId64 " program%s. Schedule: %s", d->grid[0],
               d->grid[1], d->grid[2], d->nprog, d->nprog == 1 ? "" : "s", dbg_sched_name(d, sb, sizeof sb));
    if (d->sched_mode == SCHED_MODE_AUTO) {
        int npid = 0;
        for (int i = 0; i < d->bps.n; i++)
            if (d->bps.v[i]->enabled && d->bps.v[i]->has_pid && d->bps.v[i]->kind <= BP_PID) npid++;
        if (npid) dbg_printf(d, " (programs named by pid breakpoints first, then in order)");
        else dbg_printf(d, " (in order; programs named by pid breakpoints would run first)");
    }
    dbg_printf(d, ".\n");
    if (!active) {
        if (d->finished && d->done) dbg_printf(d, "The last launch ran all %" PRId64 " programs.\n", d->ndone);
        else dbg_printf(d, "No launch is running.\n");
        if (d->next_req >= 0) {
            int64_t pid[3];
            interp_pid_of(d->grid, d->next_req, pid);
            dbg_printf(d, "Program %s runs first.\n", dbg_pid_str(pid, pb, sizeof pb));
        }
        return 0;
    }
    int64_t ran = d->ndone - (d->in_prog ? 1 : 0);
    dbg_printf(d, "%" PRId64 " finished, %" PRId64 " stopped, %" PRId64 " pending.\n", ran, d->in_prog ? (int64_t)1 : 0,
               d->nprog - d->ndone);
    dbg_printf(d, "  %-36s %s\n", "Programs", "State");
    /* coalesce runs of equal state in linear order */
    int64_t n = d->nprog, start = 0;
    int state = -1;                   /* 0 pending, 1 finished, 2 stopped */
    for (int64_t i = 0; i <= n; i++) {
        if ((i & 4095) == 0 && dbg_quit(d)) return -1;
        int st = -2;
        if (i < n) {
            if (d->in_prog && i == d->cur) st = 2;
            else st = dbg_done(d, i) ? 1 : 0;
            /* skip whole bytes quickly */
            if (st == state && (i & 7) == 0 && i + 8 <= n && !(d->in_prog && d->cur >= i && d->cur < i + 8)) {
                uint8_t byte = d->done[i >> 3];
                if ((state == 1 && byte == 0xff) || (state == 0 && byte == 0)) { i += 7; continue; }
            }
        }
        if (st != state) {
            if (state >= 0) {
                const char *names[] = { "pending", "finished", "stopped" };
                if (state == 2) {
                    int64_t pid[3];
                    interp_pid_of(d->grid, start, pid);
                    dbg_printf(d, "* %-36s stopped   at %s:%d\n", dbg_pid_str(pid, pb, sizeof pb),
                               d->stop.file ? d->stop.file : "?", d->stop.line);
                } else {
                    print_range(d, start, i - 1, names[state]);
                }
            }
            state = st;
            start = i;
        }
    }
    if (d->next_req >= 0) {
        int64_t pid[3];
        interp_pid_of(d->grid, d->next_req, pid);
        dbg_printf(d, "Program %s runs next.\n", dbg_pid_str(pid, pb, sizeof pb));
    }
    return 0;
}
